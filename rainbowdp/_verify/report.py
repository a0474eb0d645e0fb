"""The shared text, HTML and plain-data forms of a verification report (in memory or
distributed).

Every privacy number shown to people is rounded up (:func:`rainbowdp._format.format_up` in
spirit: the printed δ is never below the computed one).
"""

from __future__ import annotations

from typing import Any

from .._format import format_up, html_table, plain, short_repr


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
        f"= {format_up(report.delta_required)}"
    )
    if report.worst_edge is not None:
        s += (
            f" on edge {report.worst_edge[0]!r} -> {report.worst_edge[1]!r} with event "
            f"{set(report.witness) if report.witness else '{}'}"
        )
    if not report.is_private:
        s += f"; {report.n_violations} violating edge(s)"
    return s


def report_repr(report: Any, n_edges: int | None) -> str:
    """A one-line ``repr`` of a verification report: the verdict and the numbers, no arrays
    (the witness, which may list many outputs, is given by its size)."""
    edges = "" if n_edges is None else f", n_edges={n_edges}"
    return (
        f"{type(report).__name__}(is_private={bool(report.is_private)}, "
        f"epsilon={float(report.epsilon)!r}, delta={float(report.delta)!r}, "
        f"delta_required={float(report.delta_required)!r}, "
        f"worst_edge={short_repr(report.worst_edge, 40)}, "
        f"witness=<{len(report.witness)} output(s)>, "
        f"n_violations={int(report.n_violations)}{edges})"
    )


def report_html(report: Any, n_edges: int | None) -> str:
    """A small HTML table of a verification report (δ rounded up)."""
    verdict = "private" if report.is_private else "NOT private"
    rows = [
        ["verdict", verdict],
        ["epsilon", f"{report.epsilon:g}"],
        ["delta", f"{report.delta:g}"],
        ["delta required (rounded up)", format_up(report.delta_required)],
        ["worst edge", short_repr(report.worst_edge)],
        ["witness event", short_repr(set(report.witness) if report.witness else set())],
        ["violating edges", str(int(report.n_violations))],
    ]
    if n_edges is not None:
        rows.append(["edges", str(n_edges)])
    return html_table(f"{type(report).__name__}: {verdict}", ["", "value"], rows)
