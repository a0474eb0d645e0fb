r"""What the command modules of ``rainbowdp`` share.

The exit codes, the output limits, the one-line usage errors (:class:`Parser`) and error lines
(:func:`error_line`, :func:`one_line`), the writing of results (:func:`emit`, strict JSON with
``--json``), the checks of an output path (:func:`check_output`) and of an image's size
(:func:`save_figure`), the reading of a graph file with its mechanism
(:func:`load_mechanism`), the argparse types (:func:`finite_float`, :func:`integer`,
:func:`bounded_int`, :func:`parse_dpi`) and the options of the noise families, read from the
family registry :data:`rainbowdp.noise.FAMILIES` (:func:`family_parameters`,
:func:`add_family_options`, :func:`family_values`).

Every command module imports this module and no other command module; this module imports no
command module. The notes of :mod:`rainbowdp.cli` describe the behaviour.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import sys
import textwrap
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from ..exceptions import GraphFileError, ParameterError

if TYPE_CHECKING:
    from ..graph import RainbowGraph
    from ..mechanism import Mechanism
    from ..noise import Family

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_NOT_PRIVATE",
    "EXIT_OK",
    "EXIT_UNDECIDED",
    "IMAGE_SUFFIXES",
    "LOSS_NAMES",
    "MAX_DPI",
    "MAX_FAMILY_N",
    "MAX_IMAGE_PIXELS",
    "MIN_DPI",
    "SPELLINGS",
    "FamilyParameter",
    "HelpFormatter",
    "Parser",
    "UsageError",
    "add_family_options",
    "bounded_int",
    "check_output",
    "emit",
    "error_line",
    "family_options",
    "family_parameters",
    "family_summary",
    "family_values",
    "finite_float",
    "flush_stdout",
    "integer",
    "json_safe",
    "load_mechanism",
    "loss_name",
    "one_line",
    "parse_dpi",
    "print_stdout",
    "save_figure",
]

EXIT_OK = 0
EXIT_NOT_PRIVATE = 1
EXIT_BAD_INPUT = 2
EXIT_UNDECIDED = 3

#: Extensions of the image files ``plot``, ``profile`` and ``reproduce`` write.
IMAGE_SUFFIXES = (".png", ".pdf", ".svg")
#: Accepted range of ``--dpi``.
MIN_DPI, MAX_DPI = 10, 1200
#: Largest image, in pixels, that ``plot`` and ``reproduce`` render (about 400 MB of RGBA).
MAX_IMAGE_PIXELS = 100_000_000
#: Largest ``--n`` of a family's default graph (``families NAME``, ``design --family NAME``
#: for a family built in closed form): the default graphs hold (n + 1)^2 numbers (4.1 s and
#: 365 MB at n = 2000, the limit of the library's default graphs).
MAX_FAMILY_N = 2000


class UsageError(Exception):
    """A usage error of the command line, raised by :class:`Parser` (exit code 2)."""


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help layout, with lines never broken at a hyphen (``count-fig1`` stays one
    word)."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors raise :class:`UsageError` instead of exiting, with the
    :class:`HelpFormatter`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:  # one line, exit code 2 (handled in main)
        raise UsageError(f"{self.prog}: error: {' '.join(message.split())}")


# ---------------------------------------------------------------------------------- output
def _silence_stdout() -> None:
    """After a broken pipe: send what is left of standard output to the null device.

    This is the recipe of Python's documentation (``signal`` module, note on SIGPIPE): the
    interpreter's final flush then succeeds instead of printing an error.
    """
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass  # not a real file (e.g. captured): print_stdout and flush_stdout absorb errors
    finally:
        os.close(devnull)


def print_stdout(text: str = "") -> None:
    """Print to standard output; a reader that went away is not an error (see module notes)."""
    try:
        print(text)
    except BrokenPipeError:
        _silence_stdout()


def flush_stdout() -> None:
    """Flush standard output; a reader that went away is not an error."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()


def error_line(message: str) -> None:
    """Print ``message`` as one line on standard error."""
    try:
        print(" ".join(message.split()), file=sys.stderr)
    except OSError:  # pragma: no cover - standard error itself is gone
        pass


def one_line(exc: BaseException | Warning | str) -> str:
    """The message of an error or a warning as one line (an OS error names its file)."""
    if isinstance(exc, OSError) and exc.strerror and exc.filename is not None:
        return f"{exc.strerror}: {os.fsdecode(exc.filename)!r}"
    return " ".join(str(exc).split()) or type(exc).__name__


def json_safe(x: Any) -> Any:
    """``x`` with JSON types only; non-finite numbers become ``None`` (null)."""
    if isinstance(x, dict):
        return {str(k): json_safe(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [json_safe(y) for y in x]
    if hasattr(x, "item") and not isinstance(x, str | bytes):  # numpy scalars
        x = x.item()
    if isinstance(x, bool) or x is None or isinstance(x, str | int):
        return x
    if isinstance(x, float | Fraction):
        v = float(x)
        return v if math.isfinite(v) else None
    raise TypeError(f"cannot write {x!r} of type {type(x).__name__} as JSON")


def emit(obj: dict, as_json: bool, text: str) -> None:
    """Print ``obj`` as strict JSON if ``as_json``, else ``text``."""
    print_stdout(json.dumps(json_safe(obj), allow_nan=False) if as_json else text)


# ---------------------------------------------------------------------------------- files
def load_mechanism(path: str, what: str) -> tuple[RainbowGraph, Mechanism]:
    """The graph and the mechanism of a graph file; a file without a mechanism is refused
    (``what`` the command's verb, e.g. "verify")."""
    from ..io import load

    G, M = load(path)
    if M is None:
        raise GraphFileError(f"{path!r} has no 'mechanism' node attribute to {what}.")
    return G, M


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return a.resolve() == b.resolve()


def check_output(
    output: str, suffixes: tuple[str, ...], inputs: Sequence[str | None], what: str
) -> Path:
    """Refuse an output path with another extension, a directory, a path whose directory does
    not exist (or is a file), or one of the inputs.

    A symbolic link is followed: its target is the file written (as ``cp`` and the shell's
    ``>`` do), so the checks apply to the target.
    """
    p = Path(output)
    if p.suffix.lower() not in suffixes:
        allowed = " or ".join(
            [", ".join(suffixes[:-1]), suffixes[-1]] if suffixes[:-1] else suffixes
        )
        raise ParameterError(
            f"`-o/--output` must end in {allowed} ({what}), got output={output!r}."
        )
    if p.is_dir():
        raise ParameterError(
            f"`-o/--output` must be a file, got output={output!r}, which is a directory."
        )
    parent = Path(os.path.realpath(p)).parent  # a symbolic link is followed (module notes)
    if not parent.is_dir():
        problem = "is not a directory" if parent.exists() else "does not exist"
        raise ParameterError(
            f"`-o/--output` must be in an existing directory, got output={output!r}, whose "
            f"directory {str(parent)!r} {problem}."
        )
    for src in inputs:
        if src is not None and _same_file(p, Path(src)):
            raise ParameterError(
                f"`-o/--output` must not overwrite the input file {src!r}, got output={output!r}."
            )
    return p


def save_figure(fig: Any, output: Path, dpi: int) -> None:
    """Save ``fig`` at ``dpi``, refusing an image of more than :data:`MAX_IMAGE_PIXELS`."""
    width, height = fig.get_size_inches()
    pixels = width * dpi * height * dpi
    if pixels > MAX_IMAGE_PIXELS:
        raise ParameterError(
            f"`--dpi` gives an image of {width * dpi:.0f} x {height * dpi:.0f} pixels, more than "
            f"the limit of {MAX_IMAGE_PIXELS} pixels; got dpi={dpi}."
        )
    fig.savefig(output, dpi=dpi, bbox_inches="tight")


# ---------------------------------------------------------------------------- argparse types
#: An argparse type: text -> value, raising argparse.ArgumentTypeError.
ArgType = Callable[[str], Any]


def finite_float(name: str, *, positive: bool = False) -> ArgType:
    """argparse type: a finite float (``inf``, ``nan`` and ``1e400`` are refused)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be a number, got {text!r}") from None
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError(
                f"{name} must be a finite number, got {text!r} (read as {value})"
            )
        if positive and value <= 0:
            raise argparse.ArgumentTypeError(f"{name} must be > 0, got {text!r}")
        return value

    return parse


def _shown(text: str) -> str:
    """``text`` for a message: quoted, and cut to 40 characters."""
    return repr(text) if len(text) <= 40 else repr(text[:37] + "...")


def integer(name: str) -> ArgType:
    """argparse type: an integer."""

    def parse(text: str) -> int:
        try:
            return int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{name} must be an integer, got {_shown(text)}"
            ) from None

    return parse


def bounded_int(name: str, minimum: int, maximum: int, why: str = "") -> ArgType:
    """argparse type: an integer in ``[minimum, maximum]``.

    The message names the option, the value and the bound, and ``why`` the bound is there
    (e.g. "the work grows as N^2").
    """

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{name} must be an integer, got {_shown(text)}"
            ) from None
        if not minimum <= value <= maximum:
            reason = f"; {why}" if why else ""
            raise argparse.ArgumentTypeError(
                f"{name} must be an integer in [{minimum}, {maximum}]{reason}, got {name}={value}"
            )
        return value

    return parse


def parse_dpi(text: str) -> int:
    """argparse type: a ``--dpi`` in ``[MIN_DPI, MAX_DPI]``."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--dpi must be an integer, got {text!r}") from None
    if not MIN_DPI <= value <= MAX_DPI:
        raise argparse.ArgumentTypeError(f"--dpi must be in [{MIN_DPI}, {MAX_DPI}], got {text!r}")
    return value


# -------------------------------------------------------------------------- family options
#: The default of a :class:`FamilyParameter` that has none (the parameter is required).
REQUIRED: Any = dataclasses.MISSING
#: The names of a loss (minimised) -> its old spelling, accepted too.
LOSS_NAMES = {"error_rate": "er", "absolute": "abs", "squared": "mse"}
#: Spellings a choice option accepts whatever the families declare: the names of the losses
#: and their old spellings, the old names of Kadam et al.'s formulations.
SPELLINGS = {
    "loss": (*LOSS_NAMES, *LOSS_NAMES.values()),
    "formulation": ("printed", "definition"),
}


def loss_name(text: str) -> str:
    """The name of a loss given by its name or its old spelling (``"mse"`` -> ``"squared"``)."""
    return next((k for k, v in LOSS_NAMES.items() if text in (k, v)), text)


def _loss_spelling(p: FamilyParameter, text: str) -> str:
    """A loss given by its name or its old spelling, as the family declaring ``p`` spells it:
    the name where the family lists it among its choices, else the old spelling (which every
    loss parser of the library accepts)."""
    new = loss_name(text)
    return new if new in (p.choices or ()) else LOSS_NAMES.get(new, text)


@dataclass(frozen=True)
class FamilyParameter:
    """One parameter of a noise family, as the command line sees it.

    Attributes
    ----------
    name : str
        The keyword of the family's constructor; the option is ``--name`` (``_`` -> ``-``).
    type : type or None
        ``int``, ``float`` or ``str``; None when the command line cannot set the parameter
        (a callable, a tuple): the family's default is used.
    default : object
        The family's default; :data:`REQUIRED` when it has none.
    choices : tuple of str or None
        The allowed values of a choice (a ``Literal``).
    help : str
        One line for ``--help`` (may be empty).
    """

    name: str
    type: type | None
    default: Any  # REQUIRED (dataclasses.MISSING) cannot be a dataclass default
    choices: tuple[str, ...] | None = None
    help: str = ""

    @property
    def flag(self) -> str:
        """The option, e.g. ``--n-min`` for ``n_min``."""
        return "--" + self.name.replace("_", "-")

    @property
    def required(self) -> bool:
        """Whether the family has no default for it."""
        return self.default is REQUIRED


def family_parameters(cls: type[Family]) -> tuple[FamilyParameter, ...]:
    """The parameters of a registered noise family (a class of :data:`rainbowdp.noise.FAMILIES`),
    in the order of its constructor.

    This is the one place that reads a family's parameters: its declarations
    (``cls.parameters``, :class:`rainbowdp.noise.Parameter`; every registered family declares
    them). A set of integers or a callable is not offered on the command line.
    """
    kinds: dict[str, type] = {"real": float, "integer": int, "choice": str}
    return tuple(
        FamilyParameter(
            p.name,
            kinds.get(p.kind),
            REQUIRED if p.required else p.default,
            tuple(p.choices) if p.kind == "choice" else None,
            p.doc,
        )
        for p in cls.parameters
    )


def family_options(
    families: Mapping[str, type[Family]], *, skip: Iterable[str] = ()
) -> dict[str, list[tuple[str, FamilyParameter]]]:
    """The options of the registered ``families``: each name of a parameter that the command
    line can set (except the names in ``skip``, which the command sets itself, e.g.
    ``epsilon``) -> the families declaring it, with their declarations."""
    skipped = set(skip)
    users: dict[str, list[tuple[str, FamilyParameter]]] = {}
    for fam_name, cls in sorted(families.items()):
        for p in family_parameters(cls):
            if p.type is not None and p.name not in skipped:
                users.setdefault(p.name, []).append((fam_name, p))
    return users


def add_family_options(
    parser: argparse.ArgumentParser,
    users: Mapping[str, list[tuple[str, FamilyParameter]]],
    *,
    helps: Mapping[str, str] | None = None,
) -> None:
    """Add one option per name of ``users`` (:func:`family_options`) to ``parser``.

    The options keep the text given (``default=None``): each family converts it by its own
    declared type (:func:`family_values`). The help of an option is the family's (or
    ``helps[name]``) followed by the families that declare it; a choice parameter accepts the
    choices of every family declaring it and the :data:`SPELLINGS` of its name.
    """
    for name, used in users.items():
        first = used[0][1]
        choices = {c for _, p in used for c in (p.choices or ())}
        if choices:  # a choice parameter: its other spellings too
            choices.update(SPELLINGS.get(name, ()))
        who = ", ".join(f"{fam}{' (required)' if p.required else ''}" for fam, p in used)
        text = (helps or {}).get(name) or first.help
        parser.add_argument(
            first.flag,
            dest=name,
            default=None,
            choices=sorted(choices) or None,
            help=f"{text + ' ' if text else ''}[{who}]".replace("%", "%%"),
        )


def _convert(p: FamilyParameter, text: Any, parse: ArgType | None) -> Any:
    """The value of option ``p`` given as ``text``, by ``parse`` or the declared type."""
    if parse is None:
        if p.type is int:
            parse = integer(p.flag)
        elif p.type is float:
            parse = finite_float(p.flag)
    try:  # a choice is checked by the family (which may accept old spellings too)
        return parse(text) if parse is not None else text
    except argparse.ArgumentTypeError as exc:
        raise ParameterError(str(exc)) from None


def family_values(
    where: str,
    cls: type,
    args: argparse.Namespace,
    users: Mapping[str, list[tuple[str, FamilyParameter]]],
    *,
    parsers: Mapping[str, ArgType] | None = None,
) -> dict[str, Any]:
    """The family options given on the command line, converted by the types the family
    ``cls`` declares; an option of another family is refused (``where`` names the family in
    the message, e.g. "with --family geometric").

    ``users`` is what :func:`family_options` returned; ``parsers`` may give an argparse
    type for an option name (e.g. a bounded integer), used instead of the declared type.
    """
    own = {p.name: p for p in family_parameters(cls) if p.type is not None}
    values: dict[str, Any] = {}
    for option, used in users.items():
        text = getattr(args, option, None)
        if text is None:
            continue
        if option not in own:
            owners = ", ".join(fam for fam, _ in used)
            flag = used[0][1].flag
            raise ParameterError(
                f"`{flag}` does not apply {where} (a parameter of {owners}), got "
                f"{flag} {_shown(str(text))}."
            )
        if option == "loss":  # a name or an old spelling, as the family spells it
            text = _loss_spelling(own[option], text)
        values[option] = _convert(own[option], text, (parsers or {}).get(option))
    return values


def family_summary(family: Family, n: int, G: RainbowGraph) -> dict[str, Any]:
    """What ``families NAME`` and ``design --family NAME`` report of a family built on its
    default graph of size ``n``: its parameters (plain data only) and the graph's size."""
    params = {}
    for p in family_parameters(type(family)):
        value = getattr(family, p.name)
        if p.type is not None or not (value is None or callable(value)):  # plain data only
            params[p.name] = value
    return {
        "parameters": params,
        "graph": {
            "n": n,
            "n_nodes": G.n_nodes,
            "n_edges": G.n_edges,
            "n_outputs": G.n_outputs,
        },
    }
