r"""Regenerate every figure, table and worked example the library reproduces, and write an
index comparing each printed number with the recomputed one.

:func:`reproduce_all` runs the targets of :data:`~rainbowdp.reproduce.TARGETS`
(:mod:`rainbowdp.reproduce._targets`), compares each printed value with the recomputed one
(:mod:`rainbowdp.reproduce._checks`), writes ``NAME.png`` (and ``NAME.json`` where the result
has ``to_dict``), ``index.md`` and ``index.html`` (:mod:`rainbowdp.reproduce._index`), and
returns a :class:`ReproductionSummary`. Progress goes to standard error: a tqdm bar, or one line
per target.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..exceptions import ParameterError, ParameterTypeError
from ._checks import (
    Check,
    CheckResult,
    evaluate,
    not_computed,
    plain_json,
)
from ._index import index_html, index_markdown
from ._results import ReproductionSummary, TargetResult, tally
from ._targets import TARGETS, TableResult, Target
from .abs import abs_example2, abs_example3
from .rainbow import gu_example1
from .sadeghi import count_example1

__all__ = [
    "TARGETS",
    "Check",
    "CheckResult",
    "ReproductionSummary",
    "TableResult",
    "Target",
    "TargetResult",
    "abs_example2",
    "abs_example3",
    "count_example1",
    "gu_example1",
    "reproduce_all",
]

#: Accepted range of ``dpi`` (as ``rainbowdp reproduce --dpi``).
MIN_DPI, MAX_DPI = 10, 1200


def _run(target: Target, directory: Path, dpi: int) -> TargetResult:
    t0 = time.perf_counter()

    def finish(
        checks: tuple[CheckResult, ...],
        image: str | None,
        data: str | None,
        error: str | None = None,
    ) -> TargetResult:
        return TargetResult(
            name=target.name,
            description=target.description,
            paper=target.paper,
            image=image,
            data=data,
            seconds=time.perf_counter() - t0,
            checks=checks,
            error=error,
            note=target.note,
        )

    try:
        result = target.make()
    except Exception as exc:  # one failing target must not lose the index of the others
        failed = tuple(not_computed(c) for c in target.checks)
        return finish(failed, None, None, f"{type(exc).__name__}: {exc}")
    checks = tuple(evaluate(c, result) for c in target.checks)
    image = data = None
    figure = getattr(result, "figure", None)
    if figure is not None:
        image = f"{target.name}.png"
        figure.savefig(directory / image, dpi=dpi, bbox_inches="tight")
    if hasattr(result, "to_dict"):
        data = f"{target.name}.json"
        text = json.dumps(plain_json(result.to_dict()), allow_nan=False, ensure_ascii=False)
        (directory / data).write_text(text + "\n", encoding="utf-8")
    return finish(checks, image, data)


class _Silent:
    def start(self, name: str) -> None:
        pass

    def done(self, result: TargetResult) -> None:
        pass

    def close(self) -> None:
        pass


class _Lines(_Silent):
    """One line per target on ``stream`` (when tqdm is not installed)."""

    def __init__(self, total: int, stream: Any) -> None:
        self.total, self.stream, self.k = total, stream, 0

    def done(self, result: TargetResult) -> None:
        self.k += 1
        width = len(str(self.total))
        print(
            f"[{self.k:>{width}}/{self.total}] {result.name:<14} {result.seconds:6.2f} s  "
            f"{tally(result)}",
            file=self.stream,
            flush=True,
        )


class _Bar(_Silent):
    """A tqdm progress bar on ``stream``."""

    def __init__(self, tqdm: Any, total: int, stream: Any) -> None:
        self.bar = tqdm(total=total, file=stream, unit="target", desc="reproduce")

    def start(self, name: str) -> None:
        self.bar.set_postfix_str(name)

    def done(self, result: TargetResult) -> None:
        self.bar.update(1)

    def close(self) -> None:
        self.bar.close()


def _progress(total: int, progress: bool | None, stream: Any) -> _Silent:
    if progress is None:
        try:
            progress = bool(stream.isatty())
        except (AttributeError, ValueError):  # no stream, or a closed one
            progress = False
    if not progress:
        return _Silent()
    try:
        from tqdm import tqdm
    except ImportError:
        return _Lines(total, stream)
    return _Bar(tqdm, total, stream)


def _check_directory(directory: Any) -> Path:
    if isinstance(directory, bytes) or not isinstance(directory, str | Path):
        raise ParameterTypeError(
            f"`directory` must be a path (str or pathlib.Path), got directory={directory!r}."
        )
    path = Path(directory)
    if str(directory) == "":
        raise ParameterError("`directory` must be a non-empty path, got directory=''.")
    if path.exists() and not path.is_dir():
        raise ParameterError(
            f"`directory` must be a directory, got directory={str(directory)!r}, an existing file."
        )
    return path


def _check_names(names: Any) -> tuple[str, ...]:
    if names is None:
        return tuple(TARGETS)
    if isinstance(names, str):
        names = [names]
    try:
        items = list(names)
    except TypeError:
        raise ParameterTypeError(
            f"`names` must be a sequence of target names, got names={names!r}."
        ) from None
    if not items:
        raise ParameterError("`names` must name at least one target, got names=[].")
    bad = [n for n in items if not isinstance(n, str) or n not in TARGETS]
    if bad:
        raise ParameterError(f"`names` holds unknown targets {bad}; known: {', '.join(TARGETS)}.")
    return tuple(dict.fromkeys(items))


def reproduce_all(
    directory: str | Path,
    *,
    names: Iterable[str] | None = None,
    progress: bool | None = None,
    dpi: int = 120,
) -> ReproductionSummary:
    r"""Regenerate every figure and table of the papers and index them.

    For each target of :data:`TARGETS` (or of ``names``): compute it, compare every printed
    value with the recomputed one, write ``NAME.png`` (figures) and ``NAME.json`` (data, where
    the result has ``to_dict``) into ``directory``; then write ``index.md`` and ``index.html``:
    one table per paper listing, for each target, its file and each printed value beside the
    recomputed one, the tolerance the printed digits imply, and whether they agree ("yes",
    "no", "erratum N" where ``docs/errata.md`` item N says the paper is wrong, "n/a" where the
    value cannot be compared).

    Parameters
    ----------
    directory : str or pathlib.Path
        Output directory, created if missing; an existing file is refused.
    names : iterable of str, optional
        The targets to run (default all, in the index order); duplicates are run once.
    progress : bool, optional
        Show progress on standard error: a tqdm bar when tqdm is installed (the optional
        extra ``tables``), else one line per target. Default: only when standard error is a
        terminal.
    dpi : int, default 120
        Resolution of the images, 10..1200.

    Returns
    -------
    ReproductionSummary
        Per target: the files written, the seconds it took, each check; ``.ok`` is True when
        every check agrees, is a documented erratum or is not comparable.

    Raises
    ------
    ParameterError
        If ``directory`` is an existing file, ``names`` names an unknown target, or ``dpi`` is
        out of range.
    ParameterTypeError
        If an argument has the wrong type.
    OSError
        If the directory or a file in it cannot be written.

    Notes
    -----
    A target that raises is recorded (``TargetResult.error``, its checks ``"error"``) and the
    run goes on; the summary is then not ``ok``. All targets take about 40 s on two cores.

    Examples
    --------
    >>> import tempfile
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     s = reproduce_all(tmp, names=["fig4"], progress=False, dpi=20)
    ...     t = s.targets[0]
    ...     print(t.image, [(c.label, c.printed, c.shown, c.status) for c in t.checks][:2])
    ...     print(s.ok, s.counts["agree"], (s.directory / "index.md").exists())
    fig4.png [('τ_1', '25', '25', 'yes'), ('τ_2', '20', '20', 'yes')]
    True 5 True
    """
    from .._validation import check_int

    out = _check_directory(directory)
    selected = _check_names(names)
    dpi = check_int(dpi, "dpi", minimum=MIN_DPI, maximum=MAX_DPI)
    if progress is not None and not isinstance(progress, bool):
        raise ParameterTypeError(f"`progress` must be True, False or None, got {progress!r}.")
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    bar = _progress(len(selected), progress, sys.stderr)
    results = []
    try:
        for name in selected:
            bar.start(name)
            results.append(_run(TARGETS[name], out, dpi))
            bar.done(results[-1])
    finally:
        bar.close()
    md, page = out / "index.md", out / "index.html"
    partial = ReproductionSummary(out, tuple(results), time.perf_counter() - t0, md, page)
    md.write_text(index_markdown(partial), encoding="utf-8")
    page.write_text(index_html(partial), encoding="utf-8")
    return ReproductionSummary(out, tuple(results), time.perf_counter() - t0, md, page)
