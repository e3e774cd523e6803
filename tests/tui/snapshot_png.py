"""The snapshots as PNG pictures, to look at before committing them.

Run: ``python -m tests.tui.snapshot_png [OUT_DIR]`` (needs ``rsvg-convert``).

``rsvg-convert`` drops the spaces at either end of a text element, and Textual's SVG starts
a new element wherever the style changes, so a plain conversion shows "greenon row 3" for
"green on row 3" (the spaces are in the SVG and on the terminal). Marking the document
``xml:space="preserve"`` keeps them.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

SNAPSHOTS = Path(__file__).resolve().parent / "__snapshots__"


def preserve_spaces(svg: str) -> str:
    """``svg`` with its spaces kept by any renderer.

    >>> preserve_spaces('<svg class="x">')
    '<svg xml:space="preserve" class="x">'
    """
    return svg.replace("<svg ", '<svg xml:space="preserve" ', 1)


def convert(svg: Path, out: Path) -> Path:
    """Write ``svg`` as a PNG picture into ``out``; returns the picture's path."""
    fixed = out / svg.name
    fixed.write_text(preserve_spaces(svg.read_text(encoding="utf-8")), encoding="utf-8")
    png = fixed.with_suffix(".png")
    subprocess.run(["rsvg-convert", str(fixed), "-o", str(png)], check=True)
    return png


def main() -> int:
    """Convert every snapshot; print where the pictures are."""
    if shutil.which("rsvg-convert") is None:
        print("rsvg-convert is not installed", file=sys.stderr)
        return 2
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "snapshot-png")
    out.mkdir(parents=True, exist_ok=True)
    for svg in sorted(SNAPSHOTS.glob("*/*.svg")):
        print(convert(svg, out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
