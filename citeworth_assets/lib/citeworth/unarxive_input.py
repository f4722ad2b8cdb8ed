"""unarXive 2022 papers as S2ORC records, so CiteWorth (and every S2ORC reader) can run over arXiv.

unarXive marks a citation as ``{{cite:HASH}}`` in the paragraph text; a PDF parse shows the rendered
citation instead. :func:`convert_record` renders each one in one of two citation styles and records
the ``cite_spans`` a GROBID parse (S2ORC's parser) would give:

* ``numeric``: a bibliography entry is numbered by its order in ``bib_entries``; ``[12]``;
* ``author_year``: ``(Smith et al., 2019)``, from the entry's raw string (first author's surname,
  author count, last year in it).

Adjacent markers (separated by spaces, commas or semicolons only) form one citation group, which is
rendered once, ``[22, 23]`` or ``(Smith et al., 2019; Jones, 2020)``, and cut into one span per
member the way GROBID does: ``[22,`` and ``23]``; ``(Smith et al., 2019;`` and ``Jones, 2020)``.

The text is laid out as a PDF parse gives it: whitespace runs (LaTeX line breaks) become one space,
formulas become ``FORMULA`` (their LaTeX would read as brackets and numbers) and figure/table
references ``Figure n``/``Table n`` as ``ref_spans``. The metadata record says what arXiv knows; S2ORC
fields unknown for arXiv are set so the CiteWorth candidate filter judges the parse (see
:data:`ASSUMED_METADATA`), and ``mag_field_of_study`` is unarXive's ``discipline``.
"""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from citeworth_assets.lib.arxiv import unarxive2024
from citeworth_assets.lib.arxiv.unarxive2022 import MARKER as CITE_MARKER
from citeworth_assets.lib.jsonl import IssueLog, ReadIssue, iter_json_lines

STYLES = ("numeric", "author_year")
MARKER = re.compile(r"\{\{(cite|formula|figure|table):([^{}\s]*)\}\}")
GROUP_GAP = re.compile(r"[\s,;]*")  # what may separate the members of one citation group
YEAR = re.compile(r"(?<!\d)(1[89]\d\d|20\d\d)[a-z]?(?!\d)")
# The author list ends at the first ". " after a word of two or more lower-case letters ("Nguyen. On the ...").
AUTHOR_LIST = re.compile(r"^(.*?\w*[a-z\u00df-\u024f]{2,})\.\s")
AUTHOR_SEPARATOR = re.compile(r",\s*(?:and\s+)?|\s+and\s+|\s*&\s*")
FORMULA_TEXT = "FORMULA"
REFERENCE_WORDS = {"figure": "Figure", "table": "Table"}
# S2ORC fields unarXive does not have: set so that the candidate filter judges what the parse holds.
ASSUMED_METADATA = {"has_inbound_citations": True, "inbound_citations": [], "has_pdf_parse": True}


@dataclass
class ConvertedPaper:
    """One unarXive paper as an S2ORC ``pdf_parses`` record and its ``metadata`` record."""

    paper_id: str
    pdf_parse: dict
    metadata: dict
    problems: list[str] = field(default_factory=list)
    line: int | None = None  # of the JSON-lines file it came from


@dataclass(frozen=True)
class BibLabel:
    """How a bibliography entry is cited: its number and its author-year label."""

    number: int
    surname: str
    second_surname: str | None  # cited beside the first when there are exactly two authors
    authors: int
    year: str

    def author_year(self) -> str:
        names = {1: self.surname, 2: f"{self.surname} and {self.second_surname}"}.get(
            self.authors, f"{self.surname} et al."
        )
        return f"{names}, {self.year}"


def bib_label(number: int, raw: str | None) -> BibLabel:
    """The label of one entry from its raw string; a raw string without a name or year gets ``Anonymous``/``n.d.``."""
    raw = " ".join((raw or "").split())
    years = YEAR.findall(raw)
    listed = AUTHOR_LIST.match(raw)
    names = [name for name in AUTHOR_SEPARATOR.split(listed.group(1) if listed else raw[:80]) if _surname(name)]
    surnames = [_surname(name) for name in names] or ["Anonymous"]
    authors = 3 if "et al" in raw[:120] else len(surnames)
    return BibLabel(number, surnames[0], surnames[1] if authors == 2 else None, authors, years[-1] if years else "n.d.")


def _surname(name: str) -> str | None:
    """The last word of a name that is not an initial ("Q. H. Nguyen" -> "Nguyen")."""
    words = [w.strip(".,;:") for w in name.split() if len(w.strip(".,;:")) > 1 and not w.endswith(".")]
    words = [w for w in words if w[0].isupper()]
    return words[-1] if words else None


def _groups(text: str) -> Iterator[tuple[int, int, list[tuple[str, str]]]]:
    """(start, end, [(kind, id), ...]) of each marker run; adjacent citation markers form one group."""
    matches = list(MARKER.finditer(text))
    i = 0
    while i < len(matches):
        first = matches[i]
        members, end = [(first.group(1), first.group(2))], first.end()
        while first.group(1) == "cite" and i + 1 < len(matches) and matches[i + 1].group(1) == "cite":
            gap = text[end : matches[i + 1].start()]
            if GROUP_GAP.fullmatch(gap) is None:
                break
            i += 1
            members.append(("cite", matches[i].group(2)))
            end = matches[i].end()
        yield first.start(), end, members
        i += 1


class _ParagraphWriter:
    """Builds one paragraph's text with whitespace collapsed, keeping track of span offsets."""

    def __init__(self):
        self.parts: list[str] = []
        self.length = 0

    def text(self, piece: str) -> None:
        piece = re.sub(r"\s+", " ", piece)
        if piece.startswith(" ") and (not self.parts or self.parts[-1].endswith(" ")):
            piece = piece[1:]
        self.parts.append(piece)
        self.length += len(piece)

    def span(self, piece: str, space_before: bool) -> tuple[int, int]:
        if space_before and self.parts and not self.parts[-1].endswith((" ", "(", "[")):
            self.text(" ")
        start = self.length
        self.parts.append(piece)
        self.length += len(piece)
        return start, self.length

    def result(self) -> tuple[str, int]:
        text = "".join(self.parts)
        stripped = text.rstrip()
        return stripped, len(text) - len(stripped)


def _citation_pieces(labels: list[BibLabel], style: str) -> list[str]:
    """The text of each member of a citation group, GROBID-style fragments of one rendered group."""
    if style == "numeric":
        inner = [str(label.number) for label in labels]
        opening, closing, separator = "[", "]", ","
    else:
        inner = [label.author_year() for label in labels]
        opening, closing, separator = "(", ")", ";"
    pieces = [piece + separator for piece in inner[:-1]] + [inner[-1]]
    pieces[0] = opening + pieces[0]
    pieces[-1] += closing
    return pieces


def convert_paragraph(
    paragraph: dict, labels: dict[str, BibLabel], references: dict[str, str], style: str, problems: list[str]
) -> dict:
    """A ``body_text`` paragraph of a PDF parse from a unarXive one (see the module docstring)."""
    text = paragraph.get("text") or ""
    writer, cite_spans, ref_spans, position = _ParagraphWriter(), [], [], 0
    for start, end, members in _groups(text):
        writer.text(text[position:start])
        position = end
        kind, ident = members[0]
        if kind == "formula":
            writer.text(FORMULA_TEXT)
        elif kind in REFERENCE_WORDS:
            label = references.get(ident, REFERENCE_WORDS[kind])
            start_char, end_char = writer.span(label, space_before=False)
            ref_spans.append({"start": start_char, "end": end_char, "text": label, "ref_id": ident})
        else:
            known = [ident for _, ident in members if ident in labels]
            if len(known) < len(members):
                problems.append(f"{len(members) - len(known)} citation marker(s) without a bib entry dropped")
            if not known:
                continue
            pieces = _citation_pieces([labels[ident] for ident in known], style)
            for index, (piece, ident) in enumerate(zip(pieces, known)):
                start_char, end_char = writer.span(piece, space_before=index == 0)
                cite_spans.append({"start": start_char, "end": end_char, "text": piece, "ref_id": ident})
                if index < len(pieces) - 1:
                    writer.text(" ")
    writer.text(text[position:])
    body, _ = writer.result()
    lead = len(body) - len(body.lstrip())
    for span in cite_spans + ref_spans:
        span["start"], span["end"] = span["start"] - lead, span["end"] - lead
    return {
        "section": paragraph.get("section") or "",
        "text": body[lead:],
        "cite_spans": cite_spans,
        "ref_spans": ref_spans,
    }


def convert_record(record: dict, style: str = "numeric") -> ConvertedPaper:
    """One unarXive 2022 record as S2ORC ``pdf_parses`` and ``metadata`` records in a citation style."""
    if style not in STYLES:
        raise ValueError(f"unknown citation style {style!r}: use one of {STYLES}")
    paper_id = str(record.get("paper_id") or "")
    problems: list[str] = []
    bib = record.get("bib_entries") if isinstance(record.get("bib_entries"), dict) else {}
    labels = {
        ref_id: bib_label(number, entry.get("bib_entry_raw") if isinstance(entry, dict) else None)
        for number, (ref_id, entry) in enumerate(bib.items(), start=1)
    }
    references, counters = {}, {}
    for ref_id, entry in (record.get("ref_entries") or {}).items():
        kind = entry.get("type") if isinstance(entry, dict) else None
        if kind in REFERENCE_WORDS:
            counters[kind] = counters.get(kind, 0) + 1
            references[ref_id] = f"{REFERENCE_WORDS[kind]} {counters[kind]}"
    body = [
        convert_paragraph(paragraph, labels, references, style, problems)
        for paragraph in unarxive2024.body_text(record, CITE_MARKER)
        if isinstance(paragraph, dict) and isinstance(paragraph.get("text"), str)
    ]
    abstract_text = record.get("abstract", {}).get("text") if isinstance(record.get("abstract"), dict) else None
    abstract = " ".join((abstract_text or "").split())
    bib_entries = {
        ref_id: {
            "ref_id": ref_id,
            "title": None,
            "raw_text": (entry or {}).get("bib_entry_raw"),
            "year": label.year,
            "link": None,
        }
        for (ref_id, entry), label in zip(bib.items(), labels.values())
    }
    pdf_parse = {
        "paper_id": paper_id,
        "_pdf_hash": None,
        "abstract": [{"section": "Abstract", "text": abstract, "cite_spans": [], "ref_spans": []}] if abstract else [],
        "body_text": body,
        "bib_entries": bib_entries,
        "ref_entries": record.get("ref_entries") or {},
    }
    metadata = _metadata(record, paper_id, abstract, body, bib_entries)
    return ConvertedPaper(paper_id, pdf_parse, metadata, list(dict.fromkeys(problems)))


def _metadata(record: dict, paper_id: str, abstract: str, body: list[dict], bib_entries: dict) -> dict:
    arxiv = record.get("metadata") if isinstance(record.get("metadata"), dict) else {}
    versions = arxiv.get("versions") or []
    created = versions[0].get("created", "") if versions and isinstance(versions[0], dict) else ""
    year = YEAR.findall(created)
    discipline = record.get("discipline")
    return {
        "paper_id": paper_id,
        "title": " ".join((arxiv.get("title") or "").split()) or None,
        "authors": [
            {"first": (a[1] if len(a) > 1 else ""), "middle": [], "last": a[0], "suffix": ""}
            for a in arxiv.get("authors_parsed") or []
            if a
        ],
        "abstract": abstract or None,
        "year": int(year[0]) if year else None,
        "arxiv_id": paper_id,
        "acl_id": None,
        "pmc_id": None,
        "pubmed_id": None,
        "doi": arxiv.get("doi"),
        "venue": None,
        "journal": arxiv.get("journal-ref"),
        "mag_id": None,
        "mag_field_of_study": [discipline] if isinstance(discipline, str) and discipline else None,
        "outbound_citations": [],
        "has_outbound_citations": bool(bib_entries),
        **ASSUMED_METADATA,
        "has_pdf_body_text": bool(body),
        "has_pdf_parsed_abstract": bool(abstract),
        "has_pdf_parsed_body_text": bool(body),
        "has_pdf_parsed_bib_entries": bool(bib_entries),
        "has_pdf_parsed_ref_entries": bool(record.get("ref_entries")),
        "s2_url": None,
    }


def convert_file(path: str | Path, style: str, log: IssueLog) -> Iterator[ConvertedPaper]:
    """Every paper of a unarXive 2022 (or 2024) JSON-lines file (plain or gzipped), streaming, repaired as the arXiv
    ingestion of the same file repairs it (a lone surrogate escape becomes U+FFFD); problems go to ``log``."""
    path = Path(path)
    for line in iter_json_lines(path, log, repair=True):
        if not line.record.get("paper_id"):
            log.add(
                ReadIssue(
                    str(path),
                    line.number,
                    line.byte_offset,
                    "missing_paper_id",
                    "record without paper_id skipped",
                    None,
                )
            )
            continue
        paper = convert_record(line.record, style)
        paper.line = line.number
        for problem in paper.problems:
            log.add(ReadIssue(str(path), line.number, line.byte_offset, "conversion", problem, paper.paper_id))
        yield paper


def write_s2orc_shard(papers: Iterator[ConvertedPaper], dumps: Path, release: str, index: int = 0) -> int:
    """Write papers as one shard of an S2ORC dump (``<release>/full/{metadata,pdf_parses}``); returns the count.

    Files are written under a temporary name and renamed, so the dump sensor never sees half a shard.
    """
    folders = {kind: dumps / release / "full" / kind for kind in ("metadata", "pdf_parses")}
    for folder in folders.values():
        folder.mkdir(parents=True, exist_ok=True)
    finals = {kind: folder / f"{kind}_{index}.jsonl.gz" for kind, folder in folders.items()}
    temporary = {kind: path.with_name(path.name + ".part") for kind, path in finals.items()}
    count = 0
    with (
        gzip.open(temporary["metadata"], "wt", encoding="utf-8") as metadata,
        gzip.open(temporary["pdf_parses"], "wt", encoding="utf-8") as parses,
    ):
        for paper in papers:
            metadata.write(json.dumps(paper.metadata, ensure_ascii=False) + "\n")
            parses.write(json.dumps(paper.pdf_parse, ensure_ascii=False) + "\n")
            count += 1
    for kind, path in temporary.items():
        path.rename(finals[kind])
    return count


def paper_input(paper: ConvertedPaper, source_file: str, line: int, log: IssueLog):
    """The converted paper as :func:`~citeworth_assets.lib.citeworth.cleaning.clean_papers` reads it, or, when the
    CiteWorth candidate filter rejects its metadata, the name of the failed criterion."""
    from citeworth_assets.lib.papers import PaperInput
    from citeworth_assets.lib.s2orc.candidate_filter import first_failed_criterion
    from citeworth_assets.lib.s2orc.records import (
        RecordReporter,
        metadata_row,
        paragraph_rows,
    )

    report = RecordReporter(log, source_file, line, 0, paper.paper_id)
    failed = first_failed_criterion(metadata_row(paper.metadata, report))
    if failed:
        return failed
    rows = list(paragraph_rows(paper.pdf_parse, report))
    provenance = {"release": "unarxive-2022", "shard": None, "source_file": source_file, "line": line, "byte_offset": 0}
    return PaperInput(paper.paper_id, rows, paper.metadata["mag_field_of_study"], provenance)


def arxiv_paper_inputs(path: Path, rules_name: str, run) -> Iterator:
    """The papers of a unarXive 2022 file as CiteWorth reads them (numeric citation style, as most arXiv papers
    cite), through the candidate filter: ``run`` (a :class:`~citeworth_assets.lib.filters.FilterRun` with the
    S2ORC tally) counts each paper kept, and each turned away as a paper-level rejection row with its criterion.
    Read issues of the file are reported by the arXiv ingestion of the same file, so they are not counted twice
    here."""
    from citeworth_assets.lib.citeworth.partition import candidate_rejection

    log = IssueLog()
    candidates = run.tallies["s2orc"]
    for paper in convert_file(path, "numeric", log):
        kept = paper_input(paper, str(path), paper.line, log)
        if isinstance(kept, str):
            run.drop(kept, candidate_rejection(rules_name, paper.paper_id, kept, str(path), paper.line), "s2orc")
        else:
            candidates.keep()
            yield kept
