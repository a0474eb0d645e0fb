"""The README's Python example runs as written."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_python_example_runs(capsys):
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    assert blocks, "the README should show a Python example"
    for code in blocks:
        exec(compile(code, str(README), "exec"), {})
    out = capsys.readouterr().out
    assert "NOT private" in out and "0.847297" in out  # ln(7/3) = 0.8472978...
    # truncated geometric on counts 0..10: e^1 Z_1 / Z_0, see docs/families.md
    assert "1.20906" in out and "True" in out
