"""Identifiers in reference strings and catalogues: arXiv ids (old and new style) and DOIs, shared by every source.

Title identification (Saier 2019 §4.2.4) first looks for an arXiv id or a DOI in the reference string;
these patterns find them. Old-style ids are written ``hep-th/9901001`` in references but appear as
``hep-th9901001`` in unarXive 2020's file names and ``refs.db``; :func:`normalise_arxiv_id` maps both to
the slashed form without a version, so that ids from any source compare equal.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from citeworth_assets.lib.jsonl import IssueLog, ReadIssue, iter_json_lines

# Archives of old-style ids (before April 2007), with their optional subject class (math.AG/0101001).
OLD_ARCHIVES = (
    "acc-phys",
    "adap-org",
    "alg-geom",
    "ao-sci",
    "astro-ph",
    "atom-ph",
    "bayes-an",
    "chao-dyn",
    "chem-ph",
    "cmp-lg",
    "comp-gas",
    "cond-mat",
    "cs",
    "dg-ga",
    "funct-an",
    "gr-qc",
    "hep-ex",
    "hep-lat",
    "hep-ph",
    "hep-th",
    "math",
    "math-ph",
    "mtrl-th",
    "nlin",
    "nucl-ex",
    "nucl-th",
    "patt-sol",
    "physics",
    "plasm-ph",
    "q-alg",
    "q-bio",
    "quant-ph",
    "solv-int",
    "supr-con",
)
_ARCHIVE = "|".join(sorted((re.escape(a) for a in OLD_ARCHIVES), key=len, reverse=True))
OLD_STYLE = re.compile(rf"(?<![\w.-])({_ARCHIVE})(\.[A-Z]{{2}})?/?(\d{{7}})(v\d+)?(?!\d)", re.IGNORECASE)
# New style: YYMM.NNNN (2007-2014) or YYMM.NNNNN (2015 on), optionally prefixed by "arXiv:".
NEW_STYLE = re.compile(r"(?<![\d.])(\d{2}(?:0[1-9]|1[0-2])\.\d{4,5})(v\d+)?(?![\d])")
# A DOI (Crossref's recommended pattern), stopped before trailing punctuation of the sentence.
DOI = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>]+)", re.IGNORECASE)
_DOI_TRAILING = ".,;:]}'"


def normalise_arxiv_id(value: str | None) -> str | None:
    """``arXiv:hep-th/9901001v2``, ``hep-th9901001`` -> ``hep-th/9901001``; ``1703.01234v2`` -> ``1703.01234``."""
    if not value:
        return None
    text = value.strip()
    if text.lower().startswith("arxiv:"):
        text = text[6:]
    new = NEW_STYLE.fullmatch(text)
    if new:
        return new.group(1)
    old = OLD_STYLE.fullmatch(text)
    if old:
        return f"{old.group(1).lower()}{old.group(2) or ''}/{old.group(3)}"
    return text


def find_arxiv_ids(text: str | None) -> list[str]:
    """Normalised arXiv ids in a reference string, in order of appearance, without repeats."""
    if not text:
        return []
    found: list[tuple[int, str]] = []
    for match in OLD_STYLE.finditer(text):
        found.append((match.start(), f"{match.group(1).lower()}{match.group(2) or ''}/{match.group(3)}"))
    for match in NEW_STYLE.finditer(text):
        found.append((match.start(), match.group(1)))
    return list(dict.fromkeys(ident for _, ident in sorted(found)))


def normalise_doi(value: str | None) -> str | None:
    """Lower-case DOI without resolver prefix or trailing sentence punctuation (DOIs are case-insensitive)."""
    if not value:
        return None
    text = value.strip()
    for prefix in ("https://doi.org/", "http://doi.org/", "https://dx.doi.org/", "http://dx.doi.org/", "doi:"):
        if text.lower().startswith(prefix):
            text = text[len(prefix) :]
    text = text.rstrip(_DOI_TRAILING)
    while text.endswith(")") and text.count(")") > text.count("("):  # "(see doi:10.1/x)" but not 10.1/a(1)
        text = text[:-1].rstrip(_DOI_TRAILING)
    return text.lower() or None


def short_openalex_id(value) -> str | None:
    """An OpenAlex work id as its short form: ``https://openalex.org/W123`` (or ``W123``) -> ``W123``; None for
    anything that is not a non-empty string."""
    if not isinstance(value, str) or not value:
        return None
    return value.rsplit("/", 1)[-1]


def find_dois(text: str | None) -> list[str]:
    """Normalised DOIs in a reference string, in order, without repeats."""
    if not text:
        return []
    return list(dict.fromkeys(filter(None, (normalise_doi(m.group(1)) for m in DOI.finditer(text)))))


def read_arxiv_metadata_titles(path: str | Path, log: IssueLog) -> Iterator[tuple[str, str]]:
    """(arXiv id, title) of arXiv's metadata snapshot (JSON lines with ``id`` and ``title``), streaming; an id or
    title of another type (a number for an old-style id that lost its zeros) is a counted ``bad_type`` issue."""
    for entry in iter_json_lines(path, log):
        identifier, title = entry.record.get("id"), entry.record.get("title")
        if isinstance(identifier, str) and isinstance(title, str):
            yield normalise_arxiv_id(identifier), " ".join(title.split())
        elif identifier is not None or title is not None:
            kinds = f"id is a {type(identifier).__name__}, title a {type(title).__name__}"
            log.add(ReadIssue(str(path), entry.number, entry.byte_offset, "bad_type", f"{kinds}: line left out"))
