r"""What the solvers write while they run: never standard output.

A design's result is the program's output (``rainbowdp design ... --json`` prints one JSON
document); a solver's banner, log or progress must not be mixed into it. This module keeps them
apart for every solver the designers drive:

:func:`quiet_highs`
    a :class:`highspy.Highs` that is silent from its first call. highspy 1.16 writes its banner
    ("Running HiGHS ...") on standard output from ``Highs.__init__`` itself (its
    ``enableCallbacks`` makes the first call into HiGHS, with the log still on), so switching
    ``output_flag`` off after construction is too late; :func:`quiet_highs` switches it off
    before that first call.
:func:`stdout_to_stderr`
    standard output (file descriptor 1) sent to standard error, or discarded, while a solver
    that writes there runs: CBC (a subprocess that inherits the descriptor when its log is on)
    and a ``pulp.HiGHS`` object passed by the caller (PuLP makes its own ``highspy.Highs``).
:class:`HighsLog`
    what a HiGHS run shows on standard error: its log lines (``msg=True``, or ``progress``
    without :mod:`tqdm`), or a :mod:`tqdm` bar with the incumbent, the bound and the gap of a
    MILP (``progress`` with :mod:`tqdm` installed).
:func:`show_progress`
    the ``progress`` argument of the designers: ``None`` means on when standard error is a
    terminal.

Progress appears only after :data:`PROGRESS_DELAY` seconds, so quick solves show nothing.

Examples
--------
>>> h = quiet_highs()  # nothing is printed, on either stream
>>> show_progress(False), show_progress(True)
(False, True)
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

from ..exceptions import ParameterTypeError

__all__ = [
    "PROGRESS_DELAY",
    "HighsLog",
    "quiet_highs",
    "show_progress",
    "stdout_to_stderr",
    "tqdm_available",
]

#: Seconds a solve runs before its progress (bar or log lines) is shown.
PROGRESS_DELAY = 1.0


def show_progress(progress: Any) -> bool:
    """Whether to show a solve's progress on standard error.

    ``True`` / ``False`` force it; ``None`` shows it when standard error is a terminal.

    Raises
    ------
    ParameterTypeError
        If ``progress`` is not ``None`` or a bool.
    """
    if progress is None:
        try:
            return bool(sys.stderr is not None and sys.stderr.isatty())
        except (AttributeError, ValueError):  # closed or replaced by an object without isatty
            return False
    if not isinstance(progress, bool):
        raise ParameterTypeError(
            f"`progress` must be None, True or False, got progress={progress!r}."
        )
    return progress


def tqdm_available() -> bool:
    """Whether the optional :mod:`tqdm` can be imported (for the MILP progress bar)."""
    try:
        import tqdm  # noqa: F401
    except ImportError:
        return False
    return True


_QUIET: dict[int, type] = {}


def quiet_highs() -> Any:
    """A new :class:`highspy.Highs` with ``output_flag`` off before HiGHS writes anything.

    Turn the log on afterwards (``setOptionValue("output_flag", True)``) if wanted; route it
    with :class:`HighsLog` to keep it off standard output.
    """
    import highspy

    cls = _QUIET.get(id(highspy.Highs))
    if cls is None:

        class QuietHighs(highspy.Highs):
            """highspy's Highs, its log switched off before its first call into HiGHS."""

            def enableCallbacks(self) -> None:
                # Highs.__init__ calls this first, right after making the HiGHS object; HiGHS
                # writes its banner at its first call made with the log on.
                self.setOptionValue("output_flag", False)
                super().enableCallbacks()

        cls = _QUIET[id(highspy.Highs)] = QuietHighs
    h = cls()
    h.setOptionValue("output_flag", False)  # also where __init__ does not call enableCallbacks
    return h


@contextlib.contextmanager
def stdout_to_stderr(show: bool) -> Iterator[None]:
    """Inside the block, file descriptor 1 goes to standard error (``show``) or nowhere.

    For solvers that write on standard output from code rainbowdp does not control (a CBC
    subprocess, a ``pulp.HiGHS`` object's own ``highspy.Highs``). Python's ``sys.stdout`` is
    flushed first, and the C library's buffers before descriptor 1 is restored, so nothing is
    reordered or lost. The redirection is process-wide: output that another thread writes on
    descriptor 1 meanwhile goes the same way. Blocks that overlap (solves on several threads)
    share one redirection, set by the first to enter (where it sends descriptor 1) and undone
    by the last to leave, so descriptor 1 is always restored. Where descriptor 1 cannot be
    duplicated the block runs unchanged.
    """
    with _REDIRECT_LOCK:
        if _REDIRECT["depth"] == 0:
            try:
                sys.stdout.flush()
            except (AttributeError, ValueError, OSError):  # pragma: no cover - no sys.stdout
                pass
            try:
                saved = os.dup(1)
            except OSError:  # pragma: no cover - no descriptor 1
                saved = None
            if saved is not None:
                try:
                    target = os.dup(2) if show else os.open(os.devnull, os.O_WRONLY)
                except OSError:  # pragma: no cover - no descriptor 2
                    target = os.open(os.devnull, os.O_WRONLY)
                os.dup2(target, 1)
                os.close(target)
            _REDIRECT["saved"] = saved
        _REDIRECT["depth"] += 1
    try:
        yield
    finally:
        with _REDIRECT_LOCK:
            _REDIRECT["depth"] -= 1
            if _REDIRECT["depth"] == 0 and _REDIRECT["saved"] is not None:
                _flush_c_stdio()
                os.dup2(_REDIRECT["saved"], 1)
                os.close(_REDIRECT["saved"])
                _REDIRECT["saved"] = None


#: The shared state of overlapping :func:`stdout_to_stderr` blocks.
_REDIRECT_LOCK = threading.Lock()
_REDIRECT: dict[str, Any] = {"depth": 0, "saved": None}


def _flush_c_stdio() -> None:
    """``fflush(NULL)``: what a C library buffered for descriptor 1 is written before it moves."""
    try:
        import ctypes

        ctypes.CDLL(None).fflush(None)
    except (OSError, AttributeError, TypeError):  # pragma: no cover - no C library handle
        pass


class HighsLog:
    """What one HiGHS run shows on standard error.

    Parameters
    ----------
    h : highspy.Highs
        The solver object, before ``run``.
    lines : bool
        Write HiGHS's log lines to standard error (``output_flag`` on, ``log_to_console``
        off, lines received by its logging callback). With ``delay`` they are held back, and
        written only once the solve has run ``delay`` seconds.
    bar : bool
        A :mod:`tqdm` bar on standard error with the incumbent, the bound and the relative gap
        of a MILP (updated at every MIP log line and improving solution); HiGHS's log lines
        instead when :mod:`tqdm` is not installed.
    delay : float
        Seconds before anything is shown.
    time_limit : float, optional
        The bar's length in seconds.
    sign : float
        Turns HiGHS's objective into the utility (-1 when the model was passed minimised).

    Notes
    -----
    A highspy without callback events (``Highs.cbLogging``) cannot route the log away from
    standard output; there the log stays off and nothing is shown.
    """

    def __init__(
        self,
        h: Any,
        *,
        lines: bool,
        bar: bool,
        delay: float = 0.0,
        time_limit: float | None = None,
        sign: float = 1.0,
    ) -> None:
        self._h = h
        self._delay = delay
        self._t0 = time.perf_counter()
        self._held: list[str] | None = [] if delay > 0 else None
        self._bar: Any = None
        self._shown = 0.0
        self._sign = sign
        if not (lines or bar):
            return
        if not hasattr(h, "cbLogging"):  # pragma: no cover - highspy without callback events
            return  # no way to route the log away from standard output: show nothing
        h.setOptionValue("output_flag", True)
        h.setOptionValue("log_to_console", False)
        if bar and tqdm_available():
            from tqdm import tqdm

            total = None if time_limit is None else float(time_limit)
            self._bar = tqdm(
                total=total,
                desc="HiGHS MIP",
                unit="s",
                file=sys.stderr,
                delay=delay,
                leave=False,
                bar_format=(
                    "{desc}: {elapsed}{postfix}"
                    if total is None
                    else "{desc} |{bar:12}| {elapsed} of {total:g} s{postfix}"
                ),
            )
            h.cbMipLogging.subscribe(self._mip)
            h.cbMipImprovingSolution.subscribe(self._mip)
            if lines:
                h.cbLogging.subscribe(self._line)
        else:  # no bar: HiGHS's log lines carry the incumbent, the bound and the gap
            h.cbLogging.subscribe(self._line)

    # -- callbacks (called by HiGHS during run) ---------------------------------------------
    def _write(self, text: str) -> None:
        if self._bar is not None:
            self._bar.write(text.rstrip("\n"), file=sys.stderr)
        else:
            sys.stderr.write(text)
            sys.stderr.flush()

    def _line(self, event: Any) -> None:
        text = str(event.message)
        if self._held is not None:
            if time.perf_counter() - self._t0 < self._delay:
                self._held.append(text)
                return
            held, self._held = self._held, None
            for t in held:
                self._write(t)
        self._write(text)

    def _mip(self, event: Any) -> None:
        out = event.data_out
        inc = self._sign * float(out.objective_function_value)
        bound = self._sign * float(out.mip_dual_bound)
        gap = float(out.mip_gap)
        self._bar.set_postfix_str(
            f"incumbent {inc:.8g}, bound {bound:.8g}, gap {gap:.3%}", refresh=False
        )
        now = time.perf_counter() - self._t0
        step = now - self._shown
        if self._bar.total is not None:
            step = min(step, max(0.0, self._bar.total - self._bar.n))
        self._shown += step
        self._bar.update(step)

    def close(self) -> None:
        """End the display: close the bar; held log lines of a solve shorter than the delay
        are dropped."""
        self._held = None
        if self._bar is not None:
            self._bar.close()
            self._bar = None
