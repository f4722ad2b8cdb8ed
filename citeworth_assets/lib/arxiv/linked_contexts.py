"""Citation contexts for bibliography items linked by any route: the links shipped in the input, else the resolver's.

The published extraction (:mod:`citeworth_assets.lib.arxiv.context_export`) takes only the items the input ships a
MAG id for. With the works catalogue, the resolver links more items (and unarXive 2022's OpenAlex-only links gain a MAG
id); this module extracts contexts for every linked item with the same window and marker rules. The order is the
text's: paper by paper, markers by position. It is an addition beside the published rule, selected by configuration.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from citeworth_assets.lib.arxiv.context_export import Candidate, ContextRow, text_contexts
from citeworth_assets.lib.arxiv.contexts import ContextRules, ContextSettings
from citeworth_assets.lib.identifiers import short_openalex_id

Link = tuple[str | None, str | None, str | None, str | None]  # cited MAG, arXiv, OpenAlex id and DOI


def reference_links(
    references: Iterable[dict],
    resolutions: Iterable[dict],
    use_resolver: bool = True,
    openalex_mag: dict | None = None,
    arxiv_only: bool = False,
) -> dict:
    """``{citing paper id: {ref id: (MAG id, arXiv id, OpenAlex id, DOI)}}``: the shipped MAG id, else the MAG id the
    catalogue gives a shipped OpenAlex id (``openalex_mag``: short OpenAlex id -> MAG id), else (with ``use_resolver``)
    the MAG id of the work the resolver found; the arXiv id shipped, else the first one in the string; the shipped
    OpenAlex id and DOI. An item with neither a MAG nor an OpenAlex id is left out, unless ``arxiv_only`` and it names
    an arXiv id: papers converted from LaTeX sources ship no links, and then have contexts without a works catalogue."""
    resolved = {(r["citing_paper_id"], r["ref_id"]): r.get("mag_id") for r in resolutions if r.get("work_id")}
    openalex_mag = openalex_mag or {}
    links: dict[str, dict[str, Link]] = {}
    for ref in references:
        key = (ref["citing_paper_id"], ref["ref_id"])
        mag = (
            ref.get("linked_mag_id")
            or openalex_mag.get(short_openalex_id(ref.get("linked_openalex_id")))
            or (resolved.get(key) if use_resolver else None)
        )
        openalex = short_openalex_id(ref.get("linked_openalex_id"))
        arxiv = ref.get("linked_arxiv_id") or next(iter(ref.get("arxiv_ids") or []), None)
        if not (mag or openalex or (arxiv_only and arxiv)):
            continue
        link = (str(mag) if mag else None, arxiv, openalex, ref.get("linked_doi"))
        links.setdefault(ref["citing_paper_id"], {})[ref["ref_id"]] = link
    return links


def linked_contexts(
    texts: Iterable[tuple[str, str | None, str]], links: dict, settings: ContextSettings, rules: ContextRules
) -> Iterator[ContextRow]:
    """Contexts of ``(citing paper id, citing MAG id, text)`` items for the markers of their linked references."""
    for order, (citing, citing_mag, text) in enumerate(texts):
        paper_links = links.get(citing) or {}
        if not paper_links:
            continue
        seen: dict[str, int] = {}
        for match in rules.cite_pattern.finditer(text):
            if match.group(1) in paper_links:
                seen.setdefault(match.group(1), match.start())
        targets = [
            (
                (order, position),
                Candidate(ref_id, *paper_links[ref_id][:2], citing_mag, citing, *paper_links[ref_id][2:4]),
            )
            for ref_id, position in sorted(seen.items(), key=lambda item: item[1])
        ]
        rows = list(text_contexts(text, targets, paper_links, settings, rules))
        yield from sorted(rows, key=lambda row: row.marker_start)
