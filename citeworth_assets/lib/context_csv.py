"""unarXive's citation-context CSV: the one definition of the format, imported by its writer (the arXiv export,
:mod:`citeworth_assets.lib.arxiv.csv_export`, and the ``contexts`` command) and its reader
(:mod:`citeworth_assets.lib.citrec.contexts`).

One context per line, seven fields separated by U+241E: cited MAG id, adjacent MAG ids, citing MAG id, cited arXiv
id, adjacent arXiv ids, citing arXiv id, text. Id lists are joined by U+241F and a missing value is written ``None``
(the published script wrote ``str()`` of each value). In ``text`` the citation a prediction is made for is
``MAINCIT``, others are ``CIT``. A work with an OpenAlex id and no MAG id carries the OpenAlex number in its MAG-id
field (:func:`mag_or_openalex`: OpenAlex continued the MAG's numbering), so unarXive 2022 lines stay seven fields too.

Every context is written as one line of exactly seven fields, whatever its text holds: a character that would break
the line or its fields for a reader (NUL and the other C0/C1 controls, line and paragraph separators, U+241E, in ids
U+241F too, lone surrogates) is replaced, a space for whitespace and U+FFFD otherwise, and counted in
:class:`CsvRepairs` so that the writer can warn (the published script writes text as it is, so such a paper breaks
its own file). A line is read back by :func:`parse_context_line`, which says why a line cannot be used.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from citeworth_assets.lib.identifiers import short_openalex_id

FIELD_SEP = "\u241e"
LIST_SEP = "\u241f"
MISSING = "None"
N_FIELDS = 7
UNSAFE_TEXT = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u241e\ud800-\udfff]")
UNSAFE_ID = re.compile("[\\s\x00-\x1f\x7f-\x9f\u241e\u241f\ud800-\udfff]")


@dataclass(frozen=True)
class CitationContext:
    """One citation context; work ids are MAG ids where known, else ``arXiv:<id>``."""

    cited: str
    adjacent: tuple[str, ...]
    citing: str
    citing_arxiv: str | None
    text: str
    source: str = ""
    line: int = 0


def work_id(mag_id: str | None, arxiv_id: str | None) -> str | None:
    """A work's catalogue id: its MAG id (or OpenAlex number), else its arXiv id prefixed ``arXiv:``."""
    for value, prefix in ((mag_id, ""), (arxiv_id, "arXiv:")):
        if value and value.strip() and value != MISSING:
            return f"{prefix}{value.strip()}"
    return None


def _split_list(value: str) -> list[str]:
    if not value or value == MISSING:
        return []
    return [item for item in value.split(LIST_SEP) if item and item != MISSING]


def _check_mag_ids(*values: str) -> None:
    """MAG ids are numbers (PaperId); anything else in a MAG id field makes the line unusable."""
    for value in values:
        for item in _split_list(value):
            if not item.strip().isascii() or not item.strip().isdigit():
                raise ValueError(f"MAG id {item[:40]!r} is not a number")


def parse_context_line(line: str, source: str = "", number: int = 0) -> CitationContext:
    """One CSV line -> a context; raises ValueError with the reason when the line is unusable."""
    fields = line.rstrip("\r\n").split(FIELD_SEP)
    if len(fields) != N_FIELDS:
        raise ValueError(f"expected {N_FIELDS} fields separated by U+241E, found {len(fields)}")
    cited_mag, adjacent_mag, citing_mag, cited_arxiv, adjacent_arxiv, citing_arxiv, text = fields
    _check_mag_ids(cited_mag, adjacent_mag, citing_mag)
    cited = work_id(cited_mag, cited_arxiv)
    if cited is None:
        raise ValueError("no cited work id (cited MAG id and cited arXiv id both missing)")
    citing = work_id(citing_mag, citing_arxiv)
    if citing is None:
        raise ValueError("no citing paper id (citing MAG id and citing arXiv id both missing)")
    if not text.strip() or text == MISSING:
        raise ValueError("empty context text")
    adjacent_mags = _split_list(adjacent_mag)
    adjacent_arxivs = _split_list(adjacent_arxiv)
    adjacent = adjacent_mags if adjacent_mags else [f"arXiv:{a}" for a in adjacent_arxivs]
    adjacent = tuple(dict.fromkeys(a.strip() for a in adjacent if a.strip() and a.strip() != cited))
    return CitationContext(
        cited=cited,
        adjacent=adjacent,
        citing=citing,
        citing_arxiv=None if citing_arxiv in ("", MISSING) else citing_arxiv.strip(),
        text=text,
        source=source,
        line=number,
    )


def _kind(char: str) -> str:
    if char == "\x00":
        return "nul"
    if char in (FIELD_SEP, LIST_SEP):
        return "separator"
    if "\ud800" <= char <= "\udfff":
        return "lone_surrogate"
    return "line_break" if char.isspace() else "control"


@dataclass
class CsvRepairs:
    """What the writer replaced to keep every context one seven-field line: lines touched, characters by kind."""

    written: int = 0
    lines: int = 0
    characters: dict[str, int] = field(default_factory=dict)
    first_line: int | None = None

    def clean(self, value: str, pattern: re.Pattern) -> str:
        found = pattern.findall(value)
        if not found:
            return value
        for char in found:
            kind = _kind(char)
            self.characters[kind] = self.characters.get(kind, 0) + 1
        return pattern.sub(lambda m: " " if m.group().isspace() and pattern is UNSAFE_TEXT else "\ufffd", value)

    def warning(self) -> str | None:
        """One line for the log, or None when nothing was replaced."""
        if not self.lines:
            return None
        kinds = ", ".join(f"{kind} {count}" for kind, count in sorted(self.characters.items()))
        return (
            f"{self.lines} contexts held characters that would break the CSV (first at line {self.first_line}); "
            f"replaced: {kinds}"
        )


def mag_or_openalex(mag_id, openalex_id):
    """The work number a context line's MAG-id fields carry: the MAG id, else the number of the OpenAlex work id
    (unarXive 2022 links OpenAlex; OpenAlex kept the MAG's PaperId numbering, so ``W2741809807`` is MAG paper
    2741809807, and later works continue the same space). So a 2022 context stays a seven-field line of unarXive's
    format that the citation-recommendation reader can use, with the OpenAlex id and DOI themselves in the lake."""
    if mag_id not in (None, ""):
        return mag_id
    short = short_openalex_id(openalex_id)
    return short[1:] if short and short[:1] in "Ww" and short[1:].isdigit() else None


def context_csv_line(row: dict, repairs: CsvRepairs | None = None) -> str:
    """One context (a row of ``arxiv_contexts``' schema) as a line of unarXive's CSV, newline included: ``str`` of
    each value, as published, safe whatever the values hold (replacements counted in ``repairs``)."""
    repairs = repairs if repairs is not None else CsvRepairs()
    before = sum(repairs.characters.values())
    mags, openalex = row["adjacent_mag_ids"] or [], row.get("adjacent_openalex_ids") or []
    at = lambda values, i: values[i] if i < len(values) else None  # noqa: E731
    ident = lambda value: repairs.clean(str(value), UNSAFE_ID)  # noqa: E731
    joined = lambda values: LIST_SEP.join(ident(value) for value in values or [])  # noqa: E731
    fields = [
        ident(mag_or_openalex(row["cited_mag_id"], row.get("cited_openalex_id"))),
        joined([mag_or_openalex(at(mags, i), at(openalex, i)) for i in range(max(len(mags), len(openalex)))]),
        ident(row["citing_mag_id"]),
        ident(row["cited_arxiv_id"]),
        joined(row["adjacent_arxiv_ids"]),
        ident(row["citing_paper_id"]),
        repairs.clean(str(row["text"]), UNSAFE_TEXT),
    ]
    repairs.written += 1
    if sum(repairs.characters.values()) != before:
        repairs.lines += 1
        repairs.first_line = repairs.first_line or repairs.written
    return FIELD_SEP.join(fields) + "\n"


def line_work_ids(line: str) -> list[str]:
    """The work ids a written context line names, read back exactly as the citation-recommendation reader reads
    them."""
    try:
        context = parse_context_line(line)
    except ValueError:
        return []
    return [context.cited, context.citing, *context.adjacent]
