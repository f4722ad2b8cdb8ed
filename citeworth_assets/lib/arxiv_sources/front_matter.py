"""Title, authors and abstract that document classes take where pandoc does not look for them: JHEP's
``\\abstract{...}`` in the preamble, ICML's ``\\icmltitle``/``\\icmlauthor`` inside ``\\twocolumn[...]``.
They are rewritten as the standard commands pandoc reads, so the paper's metadata and abstract are kept."""

from __future__ import annotations

import re

from citeworth_assets.lib.arxiv_sources import scan

PREAMBLE_ABSTRACT = re.compile(r"(?<!command)(?<!command\{)(?<!\\def)\\abstract\s*(?=\{)")  # not a definition
TITLE = re.compile(r"\\title\s*[\[{]")
ICML_TITLE = re.compile(r"\\icmltitle\s*(?=\{)")
ICML_AUTHOR = re.compile(r"\\icmlauthor\s*(?=\{)")


def _preamble_abstract(preamble: str, body: str) -> tuple[str, str]:
    """JHEP's preamble abstract (its citations would not be normalised there) to the start of the body."""
    match = PREAMBLE_ABSTRACT.search(preamble)
    found = scan.group(preamble, match.end()) if match else None
    if found is None:
        return preamble, body
    text, end = found
    return preamble[: match.start()] + preamble[end:], f"\\begin{{abstract}}{text}\\end{{abstract}}\n{body}"


def _icml(preamble: str, body: str) -> str:
    """ICML's title and author names as ``\\title``/``\\author`` in the preamble, unless it has a title."""
    title = ICML_TITLE.search(body)
    found = scan.group(body, title.end()) if title else None
    if found is None or TITLE.search(preamble):
        return preamble
    names = [name[0] for m in ICML_AUTHOR.finditer(body) if (name := scan.group(body, m.end()))]
    authors = "\n\\author{" + " \\and ".join(names) + "}" if names else ""
    return f"{preamble}\n\\title{{{found[0]}}}{authors}"


def front_matter(preamble: str, body: str) -> tuple[str, str]:
    """The preamble and body with the class-specific front matter rewritten as standard commands."""
    preamble, body = _preamble_abstract(preamble, body)
    return _icml(preamble, body), body
