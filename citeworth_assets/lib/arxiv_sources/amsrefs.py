"""amsrefs bibliographies (``\\begin{biblist} \\bib{key}{type}{field={value}, ...} \\end{biblist}``), common in
mathematics papers: no ``.bbl`` and no ``\\bibitem``, the entries are written in the source as key-value records."""

from __future__ import annotations

import re

from citeworth_assets.lib.arxiv_sources import scan

BEGIN_BIBLIST = re.compile(r"\\begin\s*\{biblist\*?\}")
END_BIBLIST = re.compile(r"\\end\s*\{biblist\*?\}")
BIBDIV = re.compile(r"\\(?:begin|end)\s*\{bibdiv\}")
BIB = re.compile(r"\\bib\*?\s*(?=\{)")
FIELD_NAME = re.compile(r"\s*,?\s*([A-Za-z]+)\s*=\s*")
# the order a reference string is written in; author and editor may repeat
ORDER = ("author", "editor", "title", "journal", "booktitle", "conference", "publisher", "volume", "number",
         "date", "year", "pages", "doi", "eprint", "arxiv", "url")  # fmt: skip


def fields(record: str) -> dict[str, list[str]]:
    """``name={value}`` pairs of one record (values braced, or bare up to the next comma)."""
    found: dict[str, list[str]] = {}
    pos = 0
    while match := FIELD_NAME.match(record, pos):
        value = scan.group(record, match.end())
        if value is None:
            end = record.find(",", match.end())
            end = len(record) if end < 0 else end
            value = (record[match.end() : end], end)
        found.setdefault(match.group(1).lower(), []).append(" ".join(value[0].split()))
        pos = value[1]
    return found


def entry_text(record: str) -> str:
    """A readable reference string from one record's fields, as a ``\\bibitem`` text would read."""
    values = fields(record)
    parts = []
    for name in ORDER:
        items = values.get(name) or []
        if not items:
            continue
        text = " and ".join(items) if name in ("author", "editor") else items[0]
        parts.append({"doi": f"doi:{text}", "eprint": f"arXiv:{text}", "arxiv": f"arXiv:{text}"}.get(name, text))
    return ". ".join(parts) + "." if parts else ""


def parse_biblist(block: str) -> list[tuple[str, str]]:
    """``(key, text)`` of every ``\\bib{key}{type}{fields}`` in a ``biblist``."""
    entries = []
    for match in BIB.finditer(block):
        key = scan.group(block, match.end())
        kind = scan.group(block, key[1]) if key else None
        record = scan.group(block, kind[1]) if kind else None
        if key and record:
            entries.append((key[0].strip(), entry_text(record[0])))
    return entries


def extract_biblists(body: str) -> tuple[str, list[tuple[str, str]]]:
    """The body without its ``biblist`` blocks (and ``bibdiv`` wrappers), and their entries."""
    entries, parts, position = [], [], 0
    while begin := BEGIN_BIBLIST.search(body, position):
        end = END_BIBLIST.search(body, begin.end())
        entries += parse_biblist(body[begin.end() : end.start() if end else len(body)])
        parts.append(body[position : begin.start()])
        position = end.end() if end else len(body)
    if not parts:
        return body, []
    return BIBDIV.sub(" ", "".join(parts) + body[position:]), entries
