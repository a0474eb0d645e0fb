r"""What :func:`~rainbowdp.reproduce.reproduce_all` returns: a :class:`TargetResult` per target
in a :class:`ReproductionSummary`, and :func:`tally`, the one-line count of a target's checks
(shown in the index and by ``rainbowdp reproduce all``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ._checks import AGREE, DISAGREE, ERROR, NOT_COMPARABLE, CheckResult

__all__ = ["ReproductionSummary", "TargetResult", "tally"]


@dataclass(frozen=True)
class TargetResult:
    r"""What :func:`reproduce_all` did for one target.

    Attributes
    ----------
    name, description, paper : str
        From the :class:`Target`.
    image, data : str or None
        The file names written in the output directory (``NAME.png``, ``NAME.json``).
    seconds : float
        Wall time of computing, checking and writing the target.
    checks : tuple of CheckResult
    error : str or None
        ``"TypeName: message"`` if computing the target failed (then nothing was written).
    note : str
        The target's note.
    """

    name: str
    description: str
    paper: str
    image: str | None
    data: str | None
    seconds: float
    checks: tuple[CheckResult, ...]
    error: str | None = None
    note: str = ""

    @property
    def ok(self) -> bool:
        """No error and every check agrees, is a documented erratum or is not comparable."""
        return self.error is None and all(c.ok for c in self.checks)

    def to_dict(self) -> dict:
        """Plain values, e.g. for JSON."""
        return {
            "name": self.name,
            "description": self.description,
            "paper": self.paper,
            "image": self.image,
            "data": self.data,
            "seconds": self.seconds,
            "error": self.error,
            "ok": self.ok,
            "checks": [c.to_dict() for c in self.checks],
        }


@dataclass(frozen=True)
class ReproductionSummary:
    r"""The result of :func:`reproduce_all`.

    Attributes
    ----------
    directory : pathlib.Path
        Where the files were written.
    targets : tuple of TargetResult
        In the order of the run.
    seconds : float
        Wall time of the whole run (writing the index included).
    index_markdown, index_html : pathlib.Path
        The two index files.
    """

    directory: Path
    targets: tuple[TargetResult, ...]
    seconds: float
    index_markdown: Path
    index_html: Path

    @property
    def counts(self) -> dict[str, int]:
        """Number of checks that agree, are errata, disagree (or failed) and are not
        comparable, and the number of targets that failed."""
        statuses = [c.status for t in self.targets for c in t.checks]
        return {
            "checks": len(statuses),
            "agree": statuses.count(AGREE),
            "erratum": sum(s.startswith("erratum") for s in statuses),
            "disagree": sum(s in (DISAGREE, ERROR) for s in statuses),
            "not_comparable": statuses.count(NOT_COMPARABLE),
            "failed_targets": sum(t.error is not None for t in self.targets),
        }

    @property
    def ok(self) -> bool:
        """Every target ran and every check agrees, is a documented erratum or is not
        comparable."""
        return all(t.ok for t in self.targets)

    def to_dict(self) -> dict:
        """Plain values, e.g. for JSON."""
        return {
            "directory": str(self.directory),
            "seconds": self.seconds,
            "ok": self.ok,
            "counts": self.counts,
            "index": {"markdown": str(self.index_markdown), "html": str(self.index_html)},
            "targets": [t.to_dict() for t in self.targets],
        }


def tally(result: TargetResult) -> str:
    """One line on the checks of a target: how many agree, are errata, are not comparable or
    disagree; ``"FAILED: ..."`` when computing the target failed.

    Parameters
    ----------
    result : TargetResult
        One entry of :attr:`ReproductionSummary.targets`.

    Returns
    -------
    str
        E.g. ``"3/4 agree, 1 errata"`` or ``"no printed values"``.
    """
    if result.error is not None:
        return f"FAILED: {result.error}"
    n = len(result.checks)
    if not n:
        return "no printed values"
    agree = sum(c.status == AGREE for c in result.checks)
    errata = sum(c.status.startswith("erratum") for c in result.checks)
    other = sum(c.status == NOT_COMPARABLE for c in result.checks)
    bad = sum(not c.ok for c in result.checks)
    text = f"{agree}/{n} agree"
    if errata:
        text += f", {errata} errata"
    if other:
        text += f", {other} not comparable"
    if bad:
        text += f", {bad} DISAGREE"
    return text
