"""Bibliography entries of a submission: ``\\bibitem`` records of an inline ``thebibliography`` or a BibTeX
``.bbl``, or biblatex ``\\entry`` records of a biblatex ``.bbl`` (Saier 2019 §4.2.3: every entry gets an
identifier and keeps its raw text).

No BibTeX/Biber run: arXiv ships the ``.bbl`` the author compiled with, which is what the PDF shows. A
``.bib`` alone gives no entries (the thesis's pipeline did the same).
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from citeworth_assets.lib.arxiv_sources import amsrefs, scan

BEGIN_BIB = re.compile(r"\\begin\s*\{thebibliography\}")
END_BIB = re.compile(r"\\end\s*\{thebibliography\}")
BIBITEM = re.compile(r"\\bibitem\b\s*")
DEFINITION = re.compile(r"^[ \t]*\\(?:providecommand|newcommand|renewcommand|def)\b", re.MULTILINE)
BRACE = re.compile(r"\\.|[{}]", re.DOTALL)
MAX_DEFINITION_LINES = 40
BIBLIOGRAPHY_CMD = re.compile(r"\\(?:bibliography\s*\{[^{}]*\}|printbibliography\b(?:\s*\[[^\]]*\])?)")
ENTRY = re.compile(r"\\entry\s*\{(?P<key>[^{}]*)\}\s*\{(?P<type>[^{}]*)\}")
ENDENTRY = re.compile(r"\\endentry\b")
FIELD = re.compile(r"\\field\s*\{(?P<name>[^{}]*)\}")
VERB = re.compile(r"\\verb\s*\{(?P<name>[^{}]*)\}\s*\\verb\s+(?P<value>.*?)\s*\\endverb", re.DOTALL)
NAME = re.compile(r"\\name\s*\{(?P<role>[^{}]*)\}\s*\{\d+\}\s*\{[^{}]*\}")
LIST = re.compile(r"\\list\s*\{(?P<name>[^{}]*)\}\s*\{\d+\}")
NAME_PART = re.compile(r"\b(family|given|prefix|suffix)=\{((?:[^{}]|\{[^{}]*\})*)\}")


# Macros bibliography styles use but define in the document class, which pandoc does not read (ACM's \bibinfo,
# revtex's \BibitemOpen, the AAS journal abbreviations): provided as plain text unless the paper defines them.
_TEXT_MACROS = {
    "bibinfo": 2, "bibfield": 2, "showarticletitle": 1, "showDOI": 1, "showURL": 1, "shownote": 1, "natexlab": 1,
    "bibnamefont": 1, "bibfnamefont": 1, "citenamefont": 1, "Eprint": 2, "eprint": 1, "EprintNote": 1,
}  # fmt: skip  # name -> arguments; shows the last one
_DROPPED_MACROS = {
    "showISBNx": 1, "showISBNxiii": 1, "showISSN": 1, "showCODEN": 1, "showLCCN": 1, "selectlanguage": 1,
    "BibitemShut": 1, "BibitemOpen": 0, "doibase": 0, "urlprefix": 0, "bibsection": 0, "sffamily": 0,
    "rmfamily": 0, "ttfamily": 0, "mdseries": 0, "slshape": 0, "upshape": 0, "normalfont": 0,
}  # fmt: skip  # name -> arguments; shows nothing
_JOURNALS = {
    "aj": "AJ", "actaa": "Acta Astron.", "araa": "ARA&A", "apj": "ApJ", "apjl": "ApJL", "apjs": "ApJS",
    "ao": "Appl. Opt.", "apss": "Ap&SS", "aap": "A&A", "aapr": "A&A Rv", "aaps": "A&AS", "azh": "AZh",
    "baas": "BAAS", "icarus": "Icarus", "jcap": "JCAP", "jrasc": "JRASC", "memras": "MmRAS", "mnras": "MNRAS",
    "na": "New A", "nar": "New A Rev.", "pra": "Phys. Rev. A", "prb": "Phys. Rev. B", "prc": "Phys. Rev. C",
    "prd": "Phys. Rev. D", "pre": "Phys. Rev. E", "prl": "Phys. Rev. Lett.", "pasa": "PASA", "pasp": "PASP",
    "pasj": "PASJ", "qjras": "QJRAS", "skytel": "S&T", "solphys": "Sol. Phys.", "sovast": "Soviet Ast.",
    "ssr": "Space Sci. Rev.", "zap": "ZAp", "nat": "Nature", "iaucirc": "IAU Circ.", "aplett": "Astrophys. Lett.",
    "apspr": "Astrophys. Space Phys. Res.", "bain": "BAN", "fcp": "Fund. Cosmic Phys.", "gca": "GeoCoA",
    "grl": "Geophys. Res. Lett.", "jcp": "J. Chem. Phys.", "jgr": "J. Geophys. Res.", "planss": "Planet. Space Sci.",
    "procspie": "Proc. SPIE", "psj": "PSJ", "rnaas": "RNAAS",
}  # fmt: skip


def _provide(name: str, arguments: int, body: str) -> str:
    return f"\\providecommand{{\\{name}}}{f'[{arguments}]' if arguments else ''}{{{body}}}"


BIBLIOGRAPHY_MACROS = "\n".join(
    [_provide(name, n, f"#{n}") for name, n in _TEXT_MACROS.items()]
    + [_provide(name, n, " ") for name, n in _DROPPED_MACROS.items()]
    + [_provide(name, 0, text.replace("&", "\\&")) for name, text in _JOURNALS.items()]
    # IEEEtran.bst's .bbl defines these with TeX primitives (\spaceskip, \csname) that would show as text
    + [f"\\renewcommand{{\\{name}}}{{}}" for name in ("BIBentryALTinterwordspacing", "BIBentrySTDinterwordspacing")]
    + ["\\renewcommand{\\BIBforeignlanguage}[2]{#2}", "\\renewcommand{\\BIBdecl}{}"]
)


def definitions(text: str) -> list[str]:
    """The macro definitions at the start of a line, each up to the line where its braces balance (IEEEtran's
    span several lines); one that does not balance within a few lines is left out, as pandoc would reject it."""
    found, covered = [], 0
    for start in DEFINITION.finditer(text):
        if start.start() < covered:
            continue
        depth, lines = 0, []
        for line in text[start.start() :].split("\n", MAX_DEFINITION_LINES)[:MAX_DEFINITION_LINES]:
            lines.append(line)
            depth += sum(1 if t == "{" else -1 for t in BRACE.findall(line) if t in "{}")
            if depth <= 0:
                break
        if depth == 0:
            definition = "\n".join(lines)
            covered = start.start() + len(definition)
            found.append(definition.strip())
    return found


@dataclass(frozen=True)
class BibEntry:
    """One bibliography entry: its citation key and its text as LaTeX (converted to plain text later)."""

    key: str
    latex: str


def bbl_for(main: str, files: dict[str, str]) -> str | None:
    """The ``.bbl`` of the main file (same stem), else the largest ``.bbl`` of the submission."""
    stem = posixpath.splitext(main)[0]
    if f"{stem}.bbl" in files:
        return f"{stem}.bbl"
    bbls = sorted((p for p in files if p.lower().endswith(".bbl")), key=lambda p: (-len(files[p]), p))
    return bbls[0] if bbls else None


def parse_bibitems(block: str) -> list[BibEntry]:
    """``\\bibitem[label]{key} text`` records of a ``thebibliography`` body."""
    entries, starts = [], [m for m in BIBITEM.finditer(block)]
    for index, match in enumerate(starts):
        pos = match.end()
        label = scan.optional(block, pos)
        if label:
            pos = label[1]
        key = scan.group(block, pos)
        if key is None:
            continue
        end = starts[index + 1].start() if index + 1 < len(starts) else len(block)
        text = END_BIB.split(block[key[1] : end])[0]
        entries.append(BibEntry(key[0].strip(), text.strip()))
    return entries


def _names(body: str) -> list[str]:
    match = NAME.search(body)
    if not match:
        return []
    group = scan.group(body, match.end())
    if not group:
        return []
    names = []
    for person in re.finditer(r"\{\{[^{}]*\}\{((?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*)\}\}", group[0]):
        parts = dict(NAME_PART.findall(person.group(1)))
        name = " ".join(p for p in (parts.get("given"), parts.get("prefix"), parts.get("family")) if p)
        if name:
            names.append(name)
    return names


def _fields(body: str) -> dict[str, str]:
    fields = {}
    for match in FIELD.finditer(body):
        value = scan.group(body, match.end())
        if value:
            fields.setdefault(match.group("name"), value[0])
    for match in LIST.finditer(body):
        value = scan.group(body, match.end())
        if value:
            fields.setdefault(match.group("name"), ", ".join(re.findall(r"\{([^{}]*)\}", value[0])))
    for match in VERB.finditer(body):
        fields.setdefault(match.group("name"), match.group("value").strip())
    return fields


def biblatex_text(body: str) -> str:
    """A readable reference string from one biblatex ``\\entry`` record's fields."""
    fields, authors = _fields(body), _names(body)
    venue = (
        fields.get("journaltitle") or fields.get("booktitle") or fields.get("publisher") or fields.get("institution")
    )
    parts = [
        ", ".join(authors) if authors else fields.get("labelname"),
        fields.get("title"),
        venue,
        " ".join(filter(None, (fields.get("volume"), f"({fields['number']})" if fields.get("number") else None))),
        fields.get("pages"),
        fields.get("year") or (fields.get("date") or "")[:4] or None,
        f"doi:{fields['doi']}" if fields.get("doi") else None,
        f"arXiv:{fields['eprint']}" if fields.get("eprint") and fields.get("eprinttype", "arxiv") == "arxiv" else None,
        fields.get("url") if not fields.get("doi") else None,
    ]
    return ". ".join(p.strip() for p in parts if p and p.strip()) + "."


def parse_biblatex(bbl: str) -> list[BibEntry]:
    """biblatex ``\\entry{key}{type}{}...\\endentry`` records, first record of each key."""
    entries: dict[str, BibEntry] = {}
    for match in ENTRY.finditer(bbl):
        end = ENDENTRY.search(bbl, match.end())
        body = bbl[match.end() : end.start() if end else len(bbl)]
        key = match.group("key").strip()
        if key and key not in entries:
            entries[key] = BibEntry(key, biblatex_text(body))
    return list(entries.values())


@dataclass
class Bibliography:
    """The entries, the macro definitions a ``.bbl`` brings (natbib, revtex), and where they came from."""

    entries: list[BibEntry]
    preamble: str = ""
    source: str | None = None  # inline | amsrefs | <path of the .bbl> | None


def extract_bibliography(body: str, main: str, files: dict[str, str]) -> tuple[str, Bibliography]:
    """The body without its bibliography, and the bibliography: an inline ``thebibliography``, else an amsrefs
    ``biblist``, else the ``.bbl`` that ``\\bibliography``/``\\printbibliography`` would read (``\\bibitem`` or
    biblatex records)."""
    if BEGIN_BIB.search(body):
        entries, parts, position = [], [], 0
        while begin := BEGIN_BIB.search(body, position):  # every inline block (multibib, per-chapter lists)
            end = END_BIB.search(body, begin.end())
            entries += parse_bibitems(body[begin.end() : end.start() if end else len(body)])
            parts.append(body[position : begin.start()])
            position = end.end() if end else len(body)
        rest = "".join(parts) + body[position:]
        unique: dict[str, BibEntry] = {}
        for entry in entries:
            unique.setdefault(entry.key, entry)  # the first entry of a key, as LaTeX keeps the first \bibitem label
        return BIBLIOGRAPHY_CMD.sub(" ", rest), Bibliography(list(unique.values()), source="inline")
    rest, records = amsrefs.extract_biblists(body)
    if records:
        unique = {}
        for key, text in records:
            unique.setdefault(key, BibEntry(key, text))
        return BIBLIOGRAPHY_CMD.sub(" ", rest), Bibliography(list(unique.values()), source="amsrefs")
    rest = BIBLIOGRAPHY_CMD.sub(" ", body)
    path = bbl_for(main, files)
    if path is None:
        return rest, Bibliography([], source=None)
    bbl = files[path]
    if ENTRY.search(bbl):
        return rest, Bibliography(parse_biblatex(bbl), source=path)
    begin = BEGIN_BIB.search(bbl)
    preamble = bbl[: begin.start()] if begin else ""
    block = bbl[begin.end() :] if begin else bbl
    first = BIBITEM.search(block)
    preamble += "\n" + "\n".join(definitions(block[: first.start() if first else 0]))  # yahapj, revtex, IEEEtran
    return rest, Bibliography(parse_bibitems(block), preamble=preamble, source=path)
