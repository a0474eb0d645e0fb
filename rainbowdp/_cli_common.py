r"""What the ``rainbowdp`` command and its subcommand modules share.

The exit codes, the output limits, the one-line usage errors (:class:`Parser`), the writing of
results (:func:`emit`, strict JSON with ``--json``), the checks of an output path
(:func:`check_output`) and of an image's size (:func:`save_figure`), and the argparse types
(:func:`finite_float`, :func:`integer`, :func:`parse_dpi`). :mod:`rainbowdp.cli` and the
``_cli_*`` modules import them from here; the module notes of :mod:`rainbowdp.cli` describe
the behaviour.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, NoReturn

from .exceptions import ParameterError

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_NOT_PRIVATE",
    "EXIT_OK",
    "EXIT_UNDECIDED",
    "IMAGE_SUFFIXES",
    "MAX_DPI",
    "MAX_IMAGE_PIXELS",
    "MIN_DPI",
    "Parser",
    "UsageError",
    "bounded_int",
    "check_output",
    "emit",
    "finite_float",
    "flush_stdout",
    "integer",
    "json_safe",
    "parse_dpi",
    "print_stdout",
    "save_figure",
]

EXIT_OK = 0
EXIT_NOT_PRIVATE = 1
EXIT_BAD_INPUT = 2
EXIT_UNDECIDED = 3

#: Extensions of the image files ``plot`` and ``reproduce`` write.
IMAGE_SUFFIXES = (".png", ".pdf", ".svg")
#: Accepted range of ``--dpi``.
MIN_DPI, MAX_DPI = 10, 1200
#: Largest image, in pixels, that ``plot`` and ``reproduce`` render (about 400 MB of RGBA).
MAX_IMAGE_PIXELS = 100_000_000


class UsageError(Exception):
    """A usage error of the command line, raised by :class:`Parser` (exit code 2)."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors raise :class:`UsageError` instead of exiting."""

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


# ---------------------------------------------------------------------------------- checks
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


# ---------------------------------------------------------------------------------- parser
def finite_float(name: str, *, positive: bool = False):
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


def integer(name: str):
    """argparse type: an integer."""

    def parse(text: str) -> int:
        try:
            return int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{name} must be an integer, got {_shown(text)}"
            ) from None

    return parse


def bounded_int(name: str, minimum: int, maximum: int, why: str = ""):
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
