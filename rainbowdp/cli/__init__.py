r"""The ``rainbowdp`` command.

::

    rainbowdp demo [--output-dir DIR]
    rainbowdp verify GRAPH --epsilon E [--delta D] [--certify] [--json]
    rainbowdp design GRAPH --epsilon E [--delta D] --method closed-form --boundary FILE
                     -o OUT.json [--json]
    rainbowdp design GRAPH --epsilon E [--delta D] [--method lp|milp] [--utility U]
                     [--fixed FILE] [--solver highs|cbc] [--time-limit S] -o OUT.json [--json]
    rainbowdp design --family modulo --n N --epsilon E [--delta D] [...] [-o OUT.json] [--json]
    rainbowdp design --family count --N N --D D --epsilon E [--eta H | --delta D]
                     [--law singleton|exact] [--n-min M] [-o OUT.json] [--json]
    rainbowdp design --family NAME --n N --epsilon E [--delta D] [--PARAMETER VALUE ...]
                     [-o OUT.json] [--json]
    rainbowdp plot GRAPH -o OUT.png|OUT.pdf|OUT.svg [--dpi N] [--layout NAME] [--labels]
                   [--rainbows] [--mode auto|glyphs|large]
    rainbowdp profile GRAPH [--epsilons 0,0.5,1|START:STOP:NUM] [-o OUT.png|.pdf|.svg|.csv]
                      [--dpi N] [--json]
    rainbowdp reproduce NAME [-o OUT.png] [--dpi N] [--json]
    rainbowdp reproduce all -o DIR [--only NAME,NAME] [--dpi N] [--json]
    rainbowdp ptable design --epsilon E --delta D [--method maxent|optimal] [--keysize K]
                     [-o PT.csv] [--json]
    rainbowdp ptable audit PT.csv [--epsilon E ...] [--delta D ...] [--keysize K] [--json]
    rainbowdp perturb DATA.csv --by COL1,COL2 --ptable PT.csv [-o TABLE.csv] [--json]
    rainbowdp families [--json]
    rainbowdp families NAME --n N --epsilon E [--PARAMETER VALUE ...] [--json]
    rainbowdp --version

The families of ``design --family`` and ``families`` and their options are those of the
registry :data:`rainbowdp.noise.FAMILIES`; the names of ``reproduce`` are those of
:data:`rainbowdp.reproduce.TARGETS`.

Exit codes
----------
0
    Success; for ``verify``: private.
1
    ``verify``: not private (``demo``: a bundled graph did not get its expected verdict;
    ``design --family NAME`` of a family built in closed form: its mechanism is not (ε, δ)-DP,
    nothing is written; ``reproduce all``: a recomputed value disagrees with the printed one,
    or a target failed).
2
    Bad input: exactly one line on standard error, never a traceback. Bad input is an error
    of the library (:class:`~rainbowdp.exceptions.RainbowDPError`, which includes every
    argument error), an operating-system error (a missing or unwritable file), or a usage
    error of the command line. Any other exception is a bug and is shown as one (a traceback).
3
    ``verify --certify``: the exact rational certificate is *undecided* (the exact δ required
    lies in the verifier's tolerance band), so privacy is neither proved nor disproved.

With ``--certify`` the exit code follows the certificate, not the float verdict: 0 only when
privacy is proved (``"private"``), 1 when its failure is proved (``"not private"``), 3 when
``"undecided"``.

Arguments are checked before any work: ``--epsilon``, ``--delta`` and ``--time-limit`` must be
finite numbers (``inf``, ``nan`` and overflowing literals such as ``1e400`` are refused; the
range of ε and δ is checked by the library), ``--dpi`` lies in ``[10, 1200]``, every integer
option lies in a range where the work stays reasonable (``--N`` and ``--n-min`` up to
:data:`MAX_COUNT_N`, ``--D`` up to :data:`MAX_COUNT_D`, ``design --family modulo --n`` up to
:data:`MAX_MODULO_N`, ``families --n`` and ``design --family NAME --n`` of the other families
up to :data:`MAX_FAMILY_N`; the message names the option, the value and the range), an output
file (``-o``) must have one of the extensions the command writes (``.json`` for ``design``;
``.png``, ``.pdf`` or ``.svg`` for images), must not be a directory, must be in an existing
directory and must not be one of the command's input files. A symbolic link given as ``-o`` is
followed (its target is replaced, as ``cp`` and the shell's ``>`` do). Options that the chosen
method would ignore are refused: ``--boundary`` with ``--method lp|milp``, and ``--fixed``,
``--utility``, ``--solver`` or ``--time-limit`` with ``--method closed-form``; a family's option
with another family.

With ``--json`` the output is strict JSON (no ``NaN`` or ``Infinity`` tokens): a number that
is infinite or undefined is written as ``null``; e.g. ``"epsilon_required": null`` means that
no finite ε makes the mechanism (ε, δ)-DP at the given δ.

A closed standard output (``rainbowdp verify ... | head -1``) is not an error: the rest of the
output is discarded, as Python's documentation recommends for ``BrokenPipeError``, and the
command exits with its normal code, printing nothing on standard error.

The package holds one module per command group (``demo``, ``verify``, ``design``, ``plot``,
``reproduce``, ``families``, ``cellkey``: ``ptable`` and ``perturb``, ``profile``), each with
``add_parser(subparsers)`` and ``run(args) -> int``, and the private helpers they share
(``_common``); no command module imports another.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..exceptions import RainbowDPError
from . import cellkey, demo, design, families, plot, profile, reproduce, verify
from ._common import (
    EXIT_BAD_INPUT,
    EXIT_NOT_PRIVATE,
    EXIT_OK,
    EXIT_UNDECIDED,
    IMAGE_SUFFIXES,
    MAX_DPI,
    MAX_FAMILY_N,
    MAX_IMAGE_PIXELS,
    MIN_DPI,
    Parser,
    UsageError,
    error_line,
    flush_stdout,
    one_line,
)
from .design import MAX_COUNT_D, MAX_COUNT_N, MAX_MODULO_N

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_NOT_PRIVATE",
    "EXIT_OK",
    "EXIT_UNDECIDED",
    "IMAGE_SUFFIXES",
    "MAX_COUNT_D",
    "MAX_COUNT_N",
    "MAX_DPI",
    "MAX_FAMILY_N",
    "MAX_IMAGE_PIXELS",
    "MAX_MODULO_N",
    "MIN_DPI",
    "main",
]

#: The command modules, in the order of ``rainbowdp --help``: each adds its subcommands with
#: ``add_parser(subparsers)``, and the parsed arguments carry the ``run`` that executes them.
COMMANDS = (demo, verify, design, plot, reproduce, families, cellkey, profile)


def _version() -> str:
    from importlib import metadata

    try:
        return metadata.version("rainbowdp")
    except metadata.PackageNotFoundError:  # running from a source tree that is not installed
        from .. import __version__

        return __version__


def parser() -> Parser:
    """The argument parser of the ``rainbowdp`` command, assembled from :data:`COMMANDS`."""
    p = Parser(
        prog="rainbowdp",
        description="Design and verify differentially private mechanisms on rainbow graphs.",
        epilog="Exit codes: 0 success (verify: private), 1 not private, 2 bad input, "
        "3 verify --certify: undecided.",
    )
    p.add_argument("--version", action="version", version=f"rainbowdp {_version()}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=Parser)
    for command in COMMANDS:
        command.add_parser(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code (see the module notes)."""
    p = parser()
    try:
        try:
            args = p.parse_args(argv)
        except SystemExit as exc:  # --help and --version print and exit successfully
            flush_stdout()
            return exc.code if isinstance(exc.code, int) else EXIT_OK
        code = int(args.run(args))
    except UsageError as exc:
        error_line(str(exc))
        return EXIT_BAD_INPUT
    except (RainbowDPError, OSError) as exc:
        error_line(f"rainbowdp: error: {one_line(exc)}")
        return EXIT_BAD_INPUT
    flush_stdout()
    return code
