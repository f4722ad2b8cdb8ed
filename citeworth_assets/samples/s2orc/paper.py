"""One paper's writer: it holds the paper's random streams and what its parts share, writes the pdf_parses
record (abstract and body paragraphs, own-work sentences) and hands the metadata record (:mod:`.metadata`),
the bibliography (:mod:`.bibliography`), citation spans (:mod:`.citing`) and defective sentences
(:mod:`.defects`) to their modules.
"""

from __future__ import annotations

import hashlib
from collections import Counter

from citeworth_assets.samples.s2orc import citing, grobid
from citeworth_assets.samples.s2orc.bibliography import build_bibliography, ref_entries
from citeworth_assets.samples.s2orc.defects import _DEFECT_WRITERS, _write_abbreviation_sentence
from citeworth_assets.samples.s2orc.graph import _between, _outcome, _pick, _rng, linked_targets, paper_id_for
from citeworth_assets.samples.s2orc.identity import _abstract_parts, _capitalize, _identity
from citeworth_assets.samples.s2orc.metadata import metadata_record, pdf_flags
from citeworth_assets.samples.s2orc.text import (
    _CITE_APPETITE,
    _CLAIMS,
    _KIND_NAMES,
    _KIND_WEIGHTS,
    _OWN_STATEMENTS,
    _OWN_WITH_FIGURE,
    _OWN_WITH_TABLE,
    _SECTION_TITLES,
    _BibItem,
    _Paragraph,
    _Slots,
)
from citeworth_assets.samples.s2orc.vocabulary import _FIELD_VOCAB


class _PaperWriter:
    """Generates the records of one paper; discarded after the paper is written."""

    def __init__(self, seed: int, index: int, papers: int) -> None:
        self.seed, self.index, self.papers = seed, index, papers
        self.reason, self.variant = _outcome(seed, index)
        self.ident = _identity(seed, index)
        self.vocab = _FIELD_VOCAB[self.ident.fields[0]]
        self.rng = _rng(seed, index, "paper")
        self.grobid = _rng(seed, index, "grobid")  # GROBID-style text (grobid.py); the main stream stays as it was
        self.targets = linked_targets(seed, index, papers)
        self.flags = pdf_flags(self)
        self.style = self.ident.style
        self.paragraph_kinds: Counter = Counter()

    def metadata(self) -> dict:
        """The metadata line; drawn before :meth:`pdf_parse`, from the same stream."""
        return metadata_record(self)

    # -- pdf parse ---------------------------------------------------------------------------

    def pdf_parse(self) -> dict | None:
        """The pdf_parses record, with content matching the has_pdf_parsed_* flags (an empty
        list or dict where a flag is false), or None when the paper has no parse."""
        flags = self.flags
        if flags is None:
            return None
        self.bib_entries, self.citable, self.linked = build_bibliography(self)
        self.n_figures, self.n_tables = _between(self.rng, 2, 6), _between(self.rng, 1, 3)
        self.first_citation_pending = True
        self.sparse = self.rng.random() < 0.06  # papers with too few citations for CiteWorth
        abstract = self._abstract_paragraphs() if flags["has_pdf_parsed_abstract"] else []
        body = self._body() if flags["has_pdf_parsed_body_text"] else []
        return {
            "paper_id": paper_id_for(self.seed, self.index),
            "_pdf_hash": hashlib.sha1(f"{self.seed}:{self.index}:pdf".encode()).hexdigest(),
            "abstract": abstract,
            "body_text": body,
            "bib_entries": self.bib_entries if flags["has_pdf_parsed_bib_entries"] else {},
            "ref_entries": ref_entries(self) if flags["has_pdf_parsed_ref_entries"] else {},
        }

    def _abstract_paragraphs(self) -> list[dict]:
        """The abstract as parsed from the PDF: the same text as the metadata (usually one
        paragraph, sometimes two), with a cite span where the abstract cites "[1]"."""
        sentences = _abstract_parts(self.seed, self.index).sentences
        split = len(sentences) if self.rng.random() < 0.9 else max(1, len(sentences) // 2)
        paragraphs = []
        for chunk in (sentences[:split], sentences[split:]):
            if not chunk:
                continue
            para = _Paragraph()
            text = " ".join(chunk)
            at = text.find("[1]")
            if at >= 0:
                para.add(text[:at])
                para.cite("[1]", self._ref_id(self.citable[0]) if self.citable else None)
                para.add(text[at + 3 :])
            else:
                para.add(text)
            paragraphs.append(para.record("Abstract"))
        return paragraphs

    def _body(self) -> list[dict]:
        """Sections in a usual order, each paragraph of a kind drawn from _PARAGRAPH_KINDS, plus
        the parser debris real body_text has (caption fragments, lost headings, run-on text)."""
        rng = self.rng
        body = []
        if rng.random() < 0.3:
            body.append(self._caption_fragment())
        untitled_intro = rng.random() < 0.15  # parsers often lose the first heading
        for role, count in self._section_plan():
            title = _pick(rng, _SECTION_TITLES[role])
            if role == "introduction" and untitled_intro:
                title, role = "", "untitled"
            title = grobid.section_title(self, title)
            for _ in range(count):
                body.append(self._paragraph(title, role, rng.choices(_KIND_NAMES, _KIND_WEIGHTS)[0]))
        if rng.random() < 0.03:  # a very long paragraph, as PDF parsers produce from run-on text
            long = self._paragraph(_pick(rng, _SECTION_TITLES["discussion"]), "discussion", "long_paragraph")
            body.insert(_between(rng, 1, len(body)), long)
        if rng.random() < 0.2:
            body.append(self._caption_fragment())
        return body

    def _section_plan(self) -> list[tuple[str, int]]:
        """(role, number of paragraphs) in reading order."""
        rng = self.rng
        plan = [("introduction", _between(rng, 2, 3))]
        if rng.random() < 0.6:
            plan.append(("related", _between(rng, 1, 3)))
        plan.append(("methods", _between(rng, 1, 2)))
        if rng.random() < 0.3:
            plan.append(("other", 1))
        plan += [("results", _between(rng, 1, 2)), ("discussion", _between(rng, 1, 2)), ("conclusion", 1)]
        if rng.random() < 0.5:
            plan.append(("acknowledgments", 1))
        return plan

    def _caption_fragment(self) -> dict:
        """Caption text that PDF parsers emit as a body paragraph with an empty section."""
        self.paragraph_kinds["caption_fragment"] += 1
        rng, vocab = self.rng, self.vocab
        para = _Paragraph()
        para.add(
            _pick(
                rng,
                (
                    f". Illustration of the {_pick(rng, vocab.measures)} estimates.",
                    (
                        f"Figure {_between(rng, 1, self.n_figures)}. "
                        f"{_capitalize(_pick(rng, vocab.measures))} across {_pick(rng, vocab.objects)}."
                    ),
                    f"(a) {_pick(rng, vocab.objects)}; (b) {_pick(rng, vocab.objects)}",
                ),
            )
        )
        return para.record("")

    # -- paragraphs and sentences ------------------------------------------------------------

    def _paragraph(self, section: str, role: str, kind: str) -> dict:
        """3-8 sentences (1-2 or 25-40 for the length kinds); a defect kind replaces one of them
        (the last one for a missing final period) by its defective sentence."""
        rng = self.rng
        self.paragraph_kinds[kind] += 1
        para = _Paragraph()
        if kind == "too_few_sentences":
            n = _between(rng, 1, 2)
        elif kind == "long_paragraph":
            n = _between(rng, 25, 40)
        else:
            n = _between(rng, 3, 8)
        defect_at = n - 1 if kind == "missing_final_period" else int(rng.random() * n)
        appetite = _CITE_APPETITE[role] * (0.1 if self.sparse else 1.0)
        defect = _DEFECT_WRITERS.get(kind)
        frame = grobid.quoted_frame(self) if kind == "clean" else None
        if frame:
            para.add(frame[0] + " ")
        for k in range(n):
            if k:
                para.add(" ")
            if defect is not None and k == defect_at:
                defect(self, para)
            elif kind == "abbreviations" and rng.random() < 0.5:
                _write_abbreviation_sentence(self, para)
            elif role == "related" and self.linked and rng.random() < 0.3:
                citing.citesum_sentence(self, para)
            elif self.citable and rng.random() < appetite:
                citing.cited_sentence(self, para)
            else:
                self._own_sentence(para)
        if frame:
            para.add(" " + frame[1])
        return para.record(section)

    def _fill(self, template: str) -> str:
        """Fill a sentence template with this paper's field vocabulary (only the slots used)."""
        return template.format_map(_Slots(self))

    def _ref_id(self, item: _BibItem) -> str | None:
        """The span's ref_id: null when the paper has no parsed bibliography, and now and then
        when the parser failed to resolve the marker."""
        if not self.flags["has_pdf_parsed_bib_entries"] or self.rng.random() < 0.02:
            return None
        return item.ref_id

    def _figure_ref_id(self, number: int) -> str | None:
        return f"FIGREF{number - 1}" if self.flags["has_pdf_parsed_ref_entries"] else None

    def _table_ref_id(self, number: int) -> str | None:
        return f"TABREF{number - 1}" if self.flags["has_pdf_parsed_ref_entries"] else None

    def _own_with_ref(self, para: _Paragraph, template: str, slot: str, label: str, ref_id: str) -> None:
        """Own work, pointing at its table or figure ``label`` (the template's ``slot``)."""
        before, after = template.split(slot)
        para.add(self._fill(before) if before else "")
        para.ref(label, ref_id)
        para.add(self._fill(after) + ".")

    def _own_sentence(self, para: _Paragraph) -> None:
        """A statement about the paper's own work: not cite-worthy."""
        rng = self.rng
        roll = rng.random()
        if roll < 0.1:
            t = _between(rng, 1, self.n_tables)
            self._own_with_ref(para, _pick(rng, _OWN_WITH_TABLE), "Table {t}", f"Table {t}", self._table_ref_id(t))
            return
        if roll < 0.16:
            f = _between(rng, 1, self.n_figures)
            template = _pick(rng, _OWN_WITH_FIGURE)
            self._own_with_ref(para, template, "Figure {f}", f"Figure {f}", self._figure_ref_id(f))
            return
        if roll < 0.22:  # a cue phrase without a citation: keeps the task from being trivial
            para.add(self._fill(_pick(rng, _CLAIMS)) + ".")
            return
        para.add(self._fill(_pick(rng, _OWN_STATEMENTS)) + ".")
