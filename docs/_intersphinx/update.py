"""Refresh the intersphinx inventories the documentation links with.

The documentation links the names of other projects (``numpy.ndarray``, ``networkx.Graph``,
``float``, ...) to their own documentation with intersphinx. So that the build never touches
the network, it reads each project's inventory (its ``objects.inv``) from this folder, not from
the project's site. This script downloads them again, when the network is open::

    python docs/_intersphinx/update.py            # every project of PROJECTS
    python docs/_intersphinx/update.py numpy      # some of them

Each download is checked (a Sphinx inventory of version 2 whose compressed part decompresses)
before it replaces the stored file, so a failed or partial download changes nothing. The script
needs the standard library only. ``docs/conf.py`` reads :data:`PROJECTS` from here.
"""

from __future__ import annotations

import sys
import urllib.request
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent

#: Project name -> base address of its documentation (links point there; the inventory is the
#: file ``objects.inv`` at that address, stored here as ``NAME-objects.inv``).
PROJECTS: dict[str, str] = {
    "python": "https://docs.python.org/3/",
    "numpy": "https://numpy.org/doc/stable/",
    "scipy": "https://docs.scipy.org/doc/scipy/",
    "networkx": "https://networkx.org/documentation/stable/",
    "matplotlib": "https://matplotlib.org/stable/",
    "pandas": "https://pandas.pydata.org/docs/",
}

HEADER = b"# Sphinx inventory version 2\n"


def inventory_path(name: str) -> Path:
    """Where the inventory of project ``name`` is stored."""
    return HERE / f"{name}-objects.inv"


def check_inventory(data: bytes, name: str) -> str:
    """Return the ``Project`` and ``Version`` lines of an inventory, or raise ValueError.

    Parameters
    ----------
    data : bytes
        The content of an ``objects.inv`` file.
    name : str
        The project it should be, for the error message.

    Raises
    ------
    ValueError
        When ``data`` is not a Sphinx inventory of version 2 with a readable compressed part.
    """
    if not data.startswith(HEADER):
        raise ValueError(f"{name}: not a Sphinx inventory of version 2 (starts {data[:40]!r})")
    lines = data.split(b"\n", 4)
    if len(lines) < 5:
        raise ValueError(f"{name}: the inventory is cut short ({len(data)} bytes)")
    try:
        body = zlib.decompress(lines[4])
    except zlib.error as exc:
        raise ValueError(f"{name}: the compressed part of the inventory is damaged: {exc}") from exc
    if not body.strip():
        raise ValueError(f"{name}: the inventory lists no object")
    project = lines[1].decode("utf-8").removeprefix("# Project: ")
    version = lines[2].decode("utf-8").removeprefix("# Version: ")
    return f"{project} {version}"


def update(name: str, *, timeout: float = 60.0) -> str:
    """Download the inventory of ``name``, check it, and store it; return what was stored."""
    if name not in PROJECTS:
        raise ValueError(f"name must be one of {sorted(PROJECTS)}, got {name!r}")
    url = PROJECTS[name] + "objects.inv"
    with urllib.request.urlopen(url, timeout=timeout) as response:
        data = response.read()
    what = check_inventory(data, name)
    target = inventory_path(name)
    partial = target.with_suffix(".inv.part")
    partial.write_bytes(data)
    partial.replace(target)
    return what


def main(argv: list[str] | None = None) -> int:
    """Refresh the named inventories (all by default); exit code 1 if any failed."""
    names = (sys.argv[1:] if argv is None else argv) or list(PROJECTS)
    failed = 0
    for name in names:
        try:
            print(f"{name}: {update(name)} -> {inventory_path(name).name}")
        except (OSError, ValueError) as exc:
            print(f"{name}: not updated: {exc}", file=sys.stderr)
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
