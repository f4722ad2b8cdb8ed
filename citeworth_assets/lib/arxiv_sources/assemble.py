"""Pandoc's syntax tree to one paper in the unarXive 2022 shape (Saier 2019 §4.2.3 replacement tokens).

Paragraphs keep their text; a formula, figure, table or non-citation reference becomes a token
``{{formula:ID}}``/``{{figure:ID}}``/``{{table:ID}}``/``{{ref:ID}}`` whose LaTeX, caption or cell text is
kept in ``ref_entries``; each citation token becomes ``{{cite:HASH}}`` where ``HASH`` is the 40-hex id of the
cited key's bibliography entry (``bib_entries``). A citation in a figure or table caption, or in a footnote,
is kept as a paragraph of its own (``content_type`` caption/footnote) so no citation is lost. Ids are
derived from the paper id, so a rerun writes the same bytes.
"""

from __future__ import annotations

import hashlib
import re
import uuid
from dataclasses import dataclass, field

from citeworth_assets.lib.arxiv_sources.citations import TOKEN, Citations

NAMESPACE = uuid.UUID("5f1c2e64-4b8e-4d52-9a55-7a1e2b0c9d31")
BIB_HEADING = "CWBIBLIOGRAPHYX"
BIB_ENTRY = re.compile(r"^\s*CWBIBENTRY(\d{5})X\s*")
ENTRY_TOKEN = re.compile(r"\{\{(formula|figure|table|ref):([0-9a-f-]{36})\}\}")
MATH_LABEL = re.compile(r"\\label\s*\{([^{}]*)\}")
SECTION_TYPES = {1: "section", 2: "subsection", 3: "subsubsection"}


def entry_hash(paper_id: str, key: str) -> str:
    """The 40-hex id of a bibliography entry (what ``{{cite:...}}`` markers name), unique across papers."""
    return hashlib.sha1(f"{paper_id}\x00{key}".encode()).hexdigest()


def _labels(node, found: dict[str, str]) -> None:
    """Label -> kind of every labelled figure, table and equation (references may come before them)."""
    if isinstance(node, dict):
        kind = node.get("t")
        if kind in ("Figure", "Table") and node["c"][0][0]:
            found.setdefault(node["c"][0][0], _figure_kind(node) if kind == "Figure" else "table")
        elif kind == "Math":
            for label in MATH_LABEL.findall(node["c"][1]):
                found.setdefault(label, "formula")
        for value in node.values():
            _labels(value, found)
    elif isinstance(node, list):
        for value in node:
            _labels(value, found)


def _figure_kind(node: dict) -> str:
    return "table" if any(b.get("t") == "Table" for b in node["c"][2]) else "figure"


@dataclass
class Paragraph:
    section: str | None
    sec_number: str | None
    sec_type: str | None
    content_type: str
    text: str


@dataclass
class Builder:
    """Walks the blocks in order, tracking the section and collecting paragraphs and entries."""

    paper_id: str
    citations: Citations
    ref_entries: dict = field(default_factory=dict)
    paragraphs: list[Paragraph] = field(default_factory=list)
    bib_texts: dict[int, str] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)
    section: list = field(default_factory=lambda: [None, None, None])
    counters: list[int] = field(default_factory=lambda: [0, 0, 0])
    in_bibliography: bool = False
    math_as: str = "token"  # token | latex (title, abstract: as arXiv's metadata has them) | drop (author marks)
    pending: list[Paragraph] = field(default_factory=list)
    read_cites: int = 0  # keys pandoc read as citations itself: a \cite inside a macro, expanded where it is used

    def new_id(self, kind: str, label: str | None = None) -> str:
        name = f"{self.paper_id}/label/{label}" if label else f"{self.paper_id}/{kind}/{len(self.ref_entries)}"
        return str(uuid.uuid5(NAMESPACE, name))

    # --- inlines -------------------------------------------------------------------------------------------------
    def inlines(self, items: list) -> str:
        return "".join(self.inline(item) for item in items)

    def inline(self, item: dict) -> str:
        kind, content = item.get("t"), item.get("c")
        if kind == "Str":
            return content
        if kind in ("Space", "SoftBreak", "LineBreak"):
            return " "
        if kind in ("Emph", "Strong", "Underline", "Strikeout", "Superscript", "Subscript", "SmallCaps"):
            return self.inlines(content)
        if kind == "Quoted":
            marks = ("\u201c", "\u201d") if content[0]["t"] == "DoubleQuote" else ("\u2018", "\u2019")
            return marks[0] + self.inlines(content[1]) + marks[1]
        if kind in ("Span", "Link"):
            attributes = dict(content[0][2]) if kind == "Link" else {}
            if "reference" in attributes:
                return self.reference(attributes["reference"])
            return self.inlines(content[1])
        if kind == "Cite":
            self.read_cites += len(content[0])
            return " ".join(self.citations.token(c["citationId"]) for c in content[0])
        if kind == "Code":
            return content[1]
        if kind == "Math":
            return self.formula(content[1], content[0]["t"] == "DisplayMath")
        if kind == "Note":
            self.note(content)
        return ""  # RawInline (LaTeX pandoc did not know), Image, Note

    def formula(self, latex: str, display: bool) -> str:
        if self.math_as != "token":
            return "" if self.math_as == "drop" else f"$${latex}$$" if display else f"${latex}$"
        label = next(iter(MATH_LABEL.findall(latex)), None)
        ident = self.new_id("formula", label)
        cited = TOKEN.findall(latex)  # a citation inside mathematics (\text{see \cite{x}}): its marker follows
        latex = TOKEN.sub(lambda m: f"\\cite{{{self.citations.keys[int(m.group(1))]}}}", latex)
        self.ref_entries[ident] = {"latex": latex, "type": "formula"}
        return f"{{{{formula:{ident}}}}}" + "".join(f" CWCITE{number}X" for number in cited)

    def reference(self, labels: str) -> str:
        tokens = []
        for label in (part.strip() for part in labels.split(",") if part.strip()):
            kind = self.labels.get(label, "ref")
            ident = self.new_id(kind, label)
            if kind == "ref":
                self.ref_entries.setdefault(ident, {"label": label, "type": "ref"})
            tokens.append(f"{{{{{kind}:{ident}}}}}")
        return " ".join(tokens)

    def note(self, blocks: list) -> None:
        saved, self.pending = self.pending, []
        texts = [self.inlines(b["c"]) for b in blocks if b.get("t") in ("Para", "Plain")]
        self.pending = saved + [self.paragraph("footnote", " ".join(texts))]

    # --- blocks --------------------------------------------------------------------------------------------------
    def paragraph(self, content_type: str, text: str) -> Paragraph:
        section, number, sec_type = self.section
        return Paragraph(section, number, sec_type, content_type, " ".join(text.split()))

    def emit(self, content_type: str, text: str) -> None:
        if self.in_bibliography:
            match = BIB_ENTRY.match(text)
            if match:
                self.bib_texts[int(match.group(1))] = " ".join(text[match.end() :].split())
            elif self.bib_texts:
                last = max(self.bib_texts)
                self.bib_texts[last] = f"{self.bib_texts[last]} {' '.join(text.split())}"
            self.pending = []
            return
        if text.strip():
            self.paragraphs.append(self.paragraph(content_type, text))
        self.paragraphs.extend(p for p in self.pending if p.text)
        self.pending = []

    def header(self, level: int, attributes: list, items: list) -> None:
        title = " ".join(self.inlines(items).split())
        if title == BIB_HEADING:
            self.in_bibliography = True
            return
        if level > 3:
            return
        number = None
        if "unnumbered" not in attributes[1]:
            self.counters[level - 1] += 1
            self.counters[level:] = [0] * (3 - level)
            number = ".".join(str(c) for c in self.counters[:level])
        self.section = [title, number, SECTION_TYPES[level]]

    def float_entry(self, kind: str, label: str, caption_blocks: list, content: str | None = None) -> None:
        caption = " ".join(" ".join(self.inlines(b["c"]) for b in caption_blocks if "c" in b).split())
        ident = self.new_id(kind, label or None)
        self.ref_entries[ident] = {"caption": TOKEN.sub("", caption).strip() or "NO_CAPTION", "type": kind}
        if content:
            self.ref_entries[ident]["content"] = TOKEN.sub("", content)
        token = f"{{{{{kind}:{ident}}}}}"
        last = self.paragraphs[-1] if self.paragraphs and not self.in_bibliography else None
        if last is not None and last.section == self.section[0] and last.content_type == "paragraph":
            last.text = f"{last.text} {token}"
        else:
            self.emit("paragraph", token)
        if TOKEN.search(caption):
            self.emit("caption", caption)
        if content and TOKEN.search(content):
            self.emit(kind, content.replace("\n", " ; "))

    def float_text(self, block: dict) -> str:
        """Text of what a float holds besides tables (a tabular pandoc could not read, passed through as text)."""
        if block.get("t") in ("Para", "Plain"):
            return " ".join(self.inlines(block["c"]).split())
        if block.get("t") in ("Div", "Figure", "BlockQuote"):
            inner = (
                block["c"][1] if block["t"] == "Div" else block["c"] if block["t"] == "BlockQuote" else block["c"][2]
            )
            return "\n".join(filter(None, (self.float_text(b) for b in inner)))
        return ""

    def blocks(self, blocks: list, content_type: str = "paragraph") -> None:
        for block in blocks:
            self.block(block, content_type)

    def block(self, block: dict, content_type: str) -> None:
        kind, content = block.get("t"), block.get("c")
        if kind in ("Para", "Plain"):
            self.emit(content_type, self.inlines(content))
        elif kind == "LineBlock":
            self.emit(content_type, " ".join(self.inlines(line) for line in content))
        elif kind == "Header":
            self.header(content[0], content[1], content[2])
        elif kind in ("BulletList", "OrderedList"):
            for item in content if kind == "BulletList" else content[1]:
                self.blocks(item, "list")
        elif kind == "DefinitionList":
            for term, definitions in content:
                self.emit("list", self.inlines(term))
                for definition in definitions:
                    self.blocks(definition, "list")
        elif kind == "BlockQuote":
            self.blocks(content, content_type)
        elif kind == "Div":
            classes = content[0][1]
            self.blocks(content[1], "proof" if "proof" in classes else content_type)
        elif kind == "Figure":
            figure_kind = _figure_kind(block)
            parts = [table_text(b, self.formula) if b.get("t") == "Table" else self.float_text(b) for b in content[2]]
            self.float_entry(figure_kind, content[0][0], content[1][1], "\n".join(p for p in parts if p) or None)
        elif kind == "Table":
            self.float_entry("table", content[0][0], content[1][1], table_text(block, self.formula))


def _plain(node, math) -> str:
    if isinstance(node, dict):
        kind = node.get("t")
        if kind == "Str":
            return node["c"]
        if kind in ("Space", "SoftBreak", "LineBreak"):
            return " "
        if kind == "Math":
            return math(node["c"][1], False)
        return _plain(node.get("c", []), math)
    if isinstance(node, list):
        return "".join(_plain(value, math) for value in node)
    return ""


def table_text(table: dict, math=lambda latex, display: f"${latex}$") -> str:
    """A table's cells as text: one line per row, cells separated by `` | ``; ``math`` renders a formula."""
    _, _, _, head, bodies, foot = table["c"]
    rows = [*head[1], *(row for body in bodies for row in (*body[2], *body[3])), *foot[1]]
    return "\n".join(" | ".join(" ".join(_plain(cell[4], math).split()) for cell in row[1]) for row in rows)


def meta_text(builder: Builder, value: dict | None, math_as: str = "latex") -> str:
    """Text of a pandoc metadata value (title, author, abstract), formulas as ``$...$`` (or dropped)."""
    if not value:
        return ""
    saved, builder.math_as = builder.math_as, math_as
    try:
        kind, content = value.get("t"), value.get("c")
        if kind == "MetaInlines":
            return " ".join(builder.inlines(content).split())
        if kind == "MetaBlocks":
            return " ".join(
                " ".join(builder.inlines(b["c"]) for b in content if b.get("t") in ("Para", "Plain")).split()
            )
        if kind == "MetaList":
            return ", ".join(meta_text(builder, v, math_as) for v in content)
        if kind == "MetaString":
            return content
        return ""
    finally:
        builder.math_as = saved
