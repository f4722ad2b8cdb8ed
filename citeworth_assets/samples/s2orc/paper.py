"""One paper's writer: its metadata record, its pdf_parses record, and the text that exercises
the dataset rules.
"""

from __future__ import annotations

import hashlib
from collections import Counter

from citeworth_assets.samples.s2orc import grobid
from citeworth_assets.samples.s2orc.defects import _DEFECT_WRITERS, _write_abbreviation_sentence
from citeworth_assets.samples.s2orc.graph import (
    _METADATA_CRITERIA,
    _OUTSIDE_ID_BASE,
    _PARSED_FLAGS,
    _VENUE_OR_ID_KEYS,
    _between,
    _mix,
    _outcome,
    _pick,
    _rng,
    in_dump_citers,
    linked_targets,
    paper_id_for,
)
from citeworth_assets.samples.s2orc.identity import (
    _abstract_parts,
    _author_record,
    _author_year_label,
    _capitalize,
    _identity,
    _random_author,
    abstract_for,
)
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
        self.flags = self._pdf_flags()
        self.style = self.ident.style
        self.paragraph_kinds: Counter = Counter()

    # -- metadata ----------------------------------------------------------------------------

    def _pdf_flags(self) -> dict | None:
        """The has_pdf_parsed_* flags, or None when the paper has no pdf parse.

        The intended failure is false and the criteria before it pass; papers that already fail
        a metadata criterion get random flags (and sometimes no parse), as in the real sample.
        """
        rng, reason = self.rng, self.reason
        if reason == "has_pdf_parse" or (reason in _METADATA_CRITERIA and rng.random() < 0.3):
            return None
        flags = dict.fromkeys(_PARSED_FLAGS, True)
        if reason in _PARSED_FLAGS:
            flags[reason] = False
        elif reason in _METADATA_CRITERIA:
            for name in flags:
                flags[name] = rng.random() < 0.85
        return flags

    def metadata(self) -> dict:
        seed, index, rng, ident = self.seed, self.index, self.rng, self.ident
        pid = paper_id_for(seed, index)
        ids = self._venue_and_ids()
        citers = [paper_id_for(seed, i) for i in in_dump_citers(seed, index, self.papers)]
        if self.reason != "has_inbound_citations":
            outside = _between(rng, 0 if citers else 1, 3)
            citers += [str(_OUTSIDE_ID_BASE + _mix(seed, index, k, 0x0B) % 600_000_000) for k in range(outside)]
        outbound = [paper_id_for(seed, j) for j in self.targets]
        if self.reason == "mag_field_of_study":
            fos = None if self.variant == "null" else []
            mag_id = None if fos is None else str(2_000_000_000 + _mix(seed, index, 0x3A) % 900_000_000)
        else:
            fos = list(ident.fields)
            mag_id = str(2_000_000_000 + _mix(seed, index, 0x3A) % 900_000_000)
            if rng.random() < 0.04:  # merged MAG entities, as in the real sample
                mag_id += "," + str(2_000_000_000 + _mix(seed, index, 0x3B) % 900_000_000)
        record = {
            "paper_id": pid,
            "title": ident.title,
            "authors": [_author_record(a) for a in ident.authors],
            "abstract": abstract_for(seed, index),
            "year": ident.year,
            **ids,
        }
        flags = self.flags
        if flags is not None:
            record["has_pdf_body_text"] = flags["has_pdf_parsed_body_text"]
        record.update(
            mag_id=mag_id,
            mag_field_of_study=fos,
            outbound_citations=outbound,
            inbound_citations=citers,
            has_outbound_citations=bool(outbound),
            has_inbound_citations=bool(citers),
            has_pdf_parse=flags is not None,
        )
        if flags is not None:
            record.update(flags)
        record["s2_url"] = f"https://api.semanticscholar.org/CorpusID:{pid}"
        return record

    def _venue_and_ids(self) -> dict:
        """arxiv_id .. journal, in the release's key order.  Papers built to fail venue_or_id get
        none of the six (null or empty string) but may keep a DOI, which does not count."""
        rng, field = self.rng, self.ident.fields[0]
        journal = _pick(
            rng,
            (
                f"Journal of {field}",
                f"{field} Letters",
                f"Annals of {field} Research",
                f"International Journal of {field}",
            ),
        )

        def maybe(condition: bool, odds: float, make):
            return make() if condition and rng.random() < odds else None

        values = {
            "arxiv_id": maybe(
                field in ("Physics", "Mathematics", "Computer Science"),
                0.3,
                lambda: f"{_between(rng, 1001, 2006)}.{_between(rng, 1, 9999):05d}",
            ),
            "acl_id": maybe(
                field == "Computer Science", 0.1, lambda: f"P{_between(rng, 10, 19)}-{_between(rng, 1000, 1999)}"
            ),
            "pmc_id": maybe(
                field in ("Medicine", "Biology"), 0.15, lambda: f"PMC{_between(rng, 1_000_000, 7_000_000)}"
            ),
            "pubmed_id": maybe(
                field in ("Medicine", "Biology", "Psychology"), 0.4, lambda: str(_between(rng, 1_000_000, 32_000_000))
            ),
            "doi": maybe(
                True,
                0.6,
                lambda: f"10.{_between(rng, 1000, 9999)}/{_pick(rng, 'abcdefgh')}{_between(rng, 1000, 99999)}",
            ),
            "venue": maybe(True, 0.3, lambda: journal),
            "journal": maybe(True, 0.75, lambda: journal),
        }
        if self.reason == "venue_or_id":
            for key in _VENUE_OR_ID_KEYS:
                values[key] = _pick(rng, (None, None, ""))
        elif not any(values[k] for k in _VENUE_OR_ID_KEYS):
            values["journal"] = journal
        return values

    # -- pdf parse ---------------------------------------------------------------------------

    def pdf_parse(self) -> dict | None:
        """The pdf_parses record, with content matching the has_pdf_parsed_* flags (an empty
        list or dict where a flag is false), or None when the paper has no parse."""
        flags = self.flags
        if flags is None:
            return None
        self._build_bibliography()
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
            "ref_entries": self._ref_entries() if flags["has_pdf_parsed_ref_entries"] else {},
        }

    def _build_bibliography(self) -> None:
        """Linked entries (the dump papers in ``targets``) mixed with unlinked ones and a little
        reference-extraction junk; text cites them through ``self.citable``."""
        rng, seed = self.rng, self.seed
        slots: list[int | None] = list(self.targets) + [None] * _between(rng, 2, 10)
        rng.shuffle(slots)
        if rng.random() < 0.1:
            slots.append(-1)  # junk entry such as "Available" with no authors
        self.bib_entries: dict[str, dict] = {}
        self.citable: list[_BibItem] = []
        self.linked: list[_BibItem] = []
        for n, target in enumerate(slots):
            ref_id = f"BIBREF{n}"
            if target == -1:
                title = _pick(rng, ("Available", "This article cites 57 articles, 21 of which can be accessed free at"))
                self.bib_entries[ref_id] = {"title": title, "authors": [], "year": "", "venue": "", "link": None}
                continue
            if target is None:
                vocab = _FIELD_VOCAB[_pick(rng, self.ident.fields)]
                authors = tuple(_random_author(rng) for _ in range(_pick(rng, (1, 2, 3, 4))))
                year: int | None = int(rng.triangular(1960, 2020.99, 2012))
                title = f"{_capitalize(_pick(rng, vocab.methods))} in {_pick(rng, vocab.topics)}"
                link = None
            else:
                target_ident = _identity(seed, target)
                authors, year, title = target_ident.authors, target_ident.year, target_ident.title
                link = paper_id_for(seed, target)
            suffix = "a" if rng.random() < 0.05 else ""
            self.bib_entries[ref_id] = {
                "title": title,
                # reference strings give initials only
                "authors": [{"first": a[0][:1], "middle": list(a[1]), "last": a[2], "suffix": a[3]} for a in authors],
                "year": year if year is not None else "",
                "venue": _pick(
                    rng, ("", f"Journal of {self.ident.fields[0]}", "Proc. Natl. Acad. Sci", "Phys. Rev. Lett")
                ),
                "link": link,
            }
            names, year_text = _author_year_label(authors, year, suffix)
            item = _BibItem(ref_id, n + 1, names, year_text, target)
            self.citable.append(item)
            if target is not None:
                self.linked.append(item)

    def _ref_entries(self) -> dict:
        """Figure and table captions; "Fig. k" in the text points at FIGREF{k-1}."""
        rng, vocab = self.rng, self.vocab
        entries = {}
        for k in range(self.n_figures):
            caption = (
                f"{_capitalize(_pick(rng, vocab.measures))} of the {_pick(rng, vocab.objects)} "
                f"obtained with {_pick(rng, vocab.methods)}."
            )
            entries[f"FIGREF{k}"] = {"text": caption, "type": "figure"}
        for k in range(self.n_tables):
            caption = f"Summary of {_pick(rng, vocab.measures)} per group of {_pick(rng, vocab.objects)}."
            entries[f"TABREF{k}"] = {"text": caption, "type": "table"}
        return entries

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
                self._citesum_sentence(para)
            elif self.citable and rng.random() < appetite:
                self._cited_sentence(para)
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

    def _cited_sentence(self, para: _Paragraph) -> None:
        """A cite-worthy claim with its citation at the very end, as CiteWorth keeps them (sometimes in parentheses
        after an acronym)."""
        claim = self._fill(_pick(self.rng, _CLAIMS))
        acronym = grobid.acronym_parenthetical(self, claim)
        para.add(claim + (f" ({acronym}," if acronym else ""))
        self._end_citation(para, ")" if acronym else "")

    def _end_citation(self, para: _Paragraph, close: str = "") -> None:
        """Close a claim with its citation, ``close`` and the period (after it, for superscript papers)."""
        rng = self.rng
        if self.style == "superscript":
            para.add(".")
            self._superscript_marker(para)
            return
        para.add(" ")
        self._citation_marker(para)
        para.add(close + (" ." if rng.random() < 0.15 else "."))  # S2ORC often keeps a space before the period

    def _superscript_marker(self, para: _Paragraph) -> None:
        """Superscript numbers come out of PDFs as bare numbers after the period: "... cancer. 1" """
        rng = self.rng
        para.add(" ")
        items = rng.sample(self.citable, min(len(self.citable), _pick(rng, (1, 1, 2))))
        for k, item in enumerate(items):
            if k:
                para.add(" ")
            last = k == len(items) - 1
            para.cite(str(item.number) if last else f"{item.number},", self._ref_id(item))
        self.first_citation_pending = False

    def _citation_marker(self, para: _Paragraph) -> None:
        """One citation in the paper's style; the first one of a paper is always the plain form,
        because CiteWorth decides a paper's citation format from its first cited span."""
        rng = self.rng
        simple = self.first_citation_pending
        self.first_citation_pending = False
        items = self.citable
        if self.style == "numeric":
            form = (
                "single"
                if simple
                else rng.choices(
                    ("single", "list", "list_nospace", "range", "adjacent", "endash_pair"), (48, 12, 8, 10, 14, 8)
                )[0]
            )
            if form == "single" or len(items) < 3:
                item = _pick(rng, items)
                if simple and grobid.first_citation_group(self):
                    grobid.write_numeric_group(self, para, [item, grobid.partner(self, item)], self._ref_id(item))
                else:
                    para.cite(f"[{item.number}]", self._ref_id(item))
            elif form in ("list", "list_nospace"):
                chosen = sorted(rng.sample(items, _between(rng, 2, 3)), key=lambda i: i.number)
                sep = ", " if form == "list" else ","
                if form == "list" and grobid.split_group(self):
                    grobid.write_numeric_group(self, para, chosen, self._ref_id(chosen[0]))
                else:
                    para.cite("[" + sep.join(str(i.number) for i in chosen) + "]", self._ref_id(chosen[0]))
            elif form == "range":
                start = int(rng.random() * (len(items) - 2))
                end = _between(rng, start + 2, min(len(items) - 1, start + 5))
                para.cite(f"[{items[start].number}-{items[end].number}]", self._ref_id(items[start]))
            elif form == "adjacent":
                chosen = sorted(rng.sample(items, 3), key=lambda i: i.number)
                for k, item in enumerate(chosen):
                    if k:
                        para.add(" ")
                    para.cite(f"[{item.number}]", self._ref_id(item))
            else:  # "[1]–[4]": a range written as two bracketed markers
                start = int(rng.random() * (len(items) - 2))
                end = _between(rng, start + 2, min(len(items) - 1, start + 5))
                para.cite(f"[{items[start].number}]", self._ref_id(items[start]))
                para.add("–")
                para.cite(f"[{items[end].number}]", self._ref_id(items[end]))
            return
        form = (
            "paren" if simple else rng.choices(("paren", "paren_multi", "paren_nocomma", "split"), (45, 20, 15, 20))[0]
        )
        if form == "paren" or len(items) < 2:
            item = _pick(rng, items)
            if simple and grobid.first_citation_group(self):
                grobid.write_author_year_group(self, para, [item, grobid.partner(self, item)], self._ref_id(item))
            else:
                para.cite(f"({item.names}, {item.year})", self._ref_id(item))
        elif form == "paren_nocomma":
            item = _pick(rng, items)
            para.cite(f"({item.names} {item.year})", self._ref_id(item))
        elif form == "paren_multi":
            chosen = rng.sample(items, _between(rng, 2, min(3, len(items))))
            if grobid.split_group(self):
                grobid.write_author_year_group(self, para, chosen, self._ref_id(chosen[0]))
            else:
                para.cite("(" + "; ".join(f"{i.names}, {i.year}" for i in chosen) + ")", self._ref_id(chosen[0]))
        else:  # S2ORC splits "(A and B 2004; C et al. 2005a )" into one span per work
            chosen = rng.sample(items, _between(rng, 2, min(3, len(items))))
            for k, item in enumerate(chosen):
                last = k == len(chosen) - 1
                if k:
                    para.add(" ")
                text = f"{item.names} {item.year}"
                if k == 0:
                    text = "(" + text
                if not last:
                    para.cite(text + ";", self._ref_id(item))
                elif rng.random() < 0.5:
                    para.cite(text, self._ref_id(item))
                    para.add(" )")
                else:
                    para.cite(text + ")", self._ref_id(item))

    def _citesum_sentence(self, para: _Paragraph) -> None:
        """A Related Work sentence citing exactly one linked paper and reusing the wording of
        that paper's abstract, so that CiteSum's ROUGE-recall filter keeps it."""
        rng = self.rng
        item = _pick(rng, self.linked)
        clause, form = _pick(rng, _abstract_parts(self.seed, item.target).claims)
        self.first_citation_pending = False
        if form == "proposal":
            statement = f"{_capitalize(clause)} has been proposed"
        elif form == "passive":
            statement = f"In an earlier study, {clause}"
        else:
            opening = _pick(rng, ("It was reported that", "Previous work showed that", "It has been shown that"))
            statement = f"{opening} {clause}"
        if self.style == "superscript":
            para.add(statement + ". ")
            para.cite(str(item.number), self._ref_id(item))
            return
        if rng.random() < 0.5:  # end-of-sentence form: also a valid CiteWorth sentence
            para.add(statement + " ")
            para.cite(
                f"[{item.number}]" if self.style == "numeric" else f"({item.names}, {item.year})", self._ref_id(item)
            )
            para.add(".")
            return
        # inline form, as Related Work sections usually read: "Smith et al. (2019) proposed ..."
        if form == "passive":
            para.add("In ")
        if self.style == "numeric":
            para.add(f"{item.names} ")
            para.cite(f"[{item.number}]", self._ref_id(item))
        else:
            para.cite(f"{item.names} ({item.year})", self._ref_id(item))
        if form == "proposal":
            para.add(f" {_pick(rng, ('proposed', 'introduced', 'described'))} {clause}.")
        elif form == "passive":
            para.add(f", {clause}.")
        else:
            para.add(f" {_pick(rng, ('showed that', 'reported that', 'found that'))} {clause}.")
