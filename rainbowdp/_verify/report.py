"""The shared text and plain-data forms of a verification report (in memory or distributed)."""

from __future__ import annotations

from typing import Any

from .._format import plain


def report_dict(report: Any) -> dict[str, Any]:
    """The fields every verification report shares, as plain Python (see
    :meth:`VerificationReport.to_dict`)."""
    return {
        "is_private": bool(report.is_private),
        "epsilon": float(report.epsilon),
        "delta": float(report.delta),
        "delta_required": float(report.delta_required),
        "worst_edge": plain(report.worst_edge),
        "witness": plain(list(report.witness)),
        "n_violations": int(report.n_violations),
        "tolerance": float(report.tolerance),
    }


def report_text(report: Any) -> str:
    """The one-line summary of a verification report (:class:`VerificationReport` or
    :class:`rainbowdp.distributed.DistributedReport`)."""
    verdict = "private" if report.is_private else "NOT private"
    s = (
        f"({report.epsilon:g}, {report.delta:g})-DP: {verdict}; delta required at this epsilon "
        f"= {report.delta_required:.6g}"
    )
    if report.worst_edge is not None:
        s += (
            f" on edge {report.worst_edge[0]!r} -> {report.worst_edge[1]!r} with event "
            f"{set(report.witness) if report.witness else '{}'}"
        )
    if not report.is_private:
        s += f"; {report.n_violations} violating edge(s)"
    return s
