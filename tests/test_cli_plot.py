"""The `rainbowdp plot` command: layouts, labels, rainbow rings, modes and its bad input."""

from __future__ import annotations

import numpy as np
import pytest

from rainbowdp.bundled import graphs_dir
from rainbowdp.cli import main
from rainbowdp.graph import RainbowGraph
from rainbowdp.io import save_graph

GRAPHS = graphs_dir()
PNG = b"\x89PNG"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    "options",
    [
        [],
        ["--labels"],
        ["--rainbows", "--labels"],
        ["--layout", "line"],
        ["--layout", "kamada_kawai", "--mode", "large"],
        ["--layout", "pivot_mds", "--mode", "glyphs"],
    ],
)
def test_plot_options_write_an_image(capsys, tmp_path, options):
    out = tmp_path / "g.png"
    code, text, err = run(
        capsys, "plot", str(GRAPHS / "example1_cycle.json"), "-o", str(out), "--dpi", "30", *options
    )
    assert (code, err) == (0, "") and f"wrote {out}" in text
    assert out.read_bytes()[:4] == PNG


@pytest.mark.parametrize(
    ("options", "needle"),
    [
        (["--layout", "grid"], "--layout: invalid choice: 'grid'"),
        (["--mode", "huge"], "--mode: invalid choice: 'huge'"),
        (["--labels", "yes"], "unrecognized arguments: yes"),
    ],
)
def test_bad_plot_options_exit_2_with_one_line(capsys, tmp_path, options, needle):
    argv = ["plot", str(GRAPHS / "example1_cycle.json"), "-o", str(tmp_path / "g.png"), *options]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and needle in err, err
    assert not (tmp_path / "g.png").exists()


def test_plot_refusals_of_the_library_exit_2_with_one_line(capsys, tmp_path):
    n = 2101  # a path of 2101 counts: too many for --labels and for --mode glyphs
    G = RainbowGraph.from_edges(
        np.stack([np.arange(n - 1), np.arange(1, n)], axis=1),
        outputs=["low", "high"],
        rainbow_table=[[0, 1], [1, 0]],
        rainbow_ids=(np.arange(n) >= n // 2).astype(int),
    )
    path = save_graph(G, tmp_path / "long.json")
    for options, needle in (
        (["--labels"], "`labels` True would draw 2101 labels"),
        (["--mode", "glyphs"], "`mode` 'glyphs' draws at most 2000 nodes"),
    ):
        code, out, err = run(capsys, "plot", str(path), "-o", str(tmp_path / "g.png"), *options)
        assert code == 2 and out == "" and err.count("\n") == 1, err
        assert err.startswith("rainbowdp: error: ") and needle in err
    code, _, err = run(capsys, "plot", str(path), "-o", str(tmp_path / "g.png"), "--dpi", "30")
    assert (code, err) == (0, "")  # the large mode draws it


@pytest.mark.parametrize(
    "argv",
    [
        ["plot", str(GRAPHS / "example1_cycle.json"), "--labels", "--rainbows"],
        ["plot", str(GRAPHS / "example1_cycle.json"), "--mode", "large"],
        ["profile", str(GRAPHS / "count_path.json")],
    ],
    ids=["plot-glyphs", "plot-large", "profile"],
)
def test_command_line_figures_pass_the_figure_checks(capsys, tmp_path, monkeypatch, argv):
    from matplotlib.figure import Figure

    from .figure_checks import check_figure

    saved = []
    original = Figure.savefig

    def savefig(self, *args, **kwargs):
        saved.append(self)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", savefig)
    code, _, err = run(capsys, *argv, "-o", str(tmp_path / "f.png"), "--dpi", "30")
    assert (code, err) == (0, "") and len(saved) == 1
    check_figure(saved[0])
