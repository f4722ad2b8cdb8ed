"""One paper's S2AG records (``s2orc``, ``s2orc_v2``, ``papers``, ``abstracts``) from its 2020 records.

The 2020 metadata line and pdf parse of a paper are the single source: every S2AG value is read off them (ids,
venue, MAG fields, counts, text, spans), so the same paper in both layouts reads the same. What S2AG has and the
2020 layout lacks (S2 author ids, urls, ``s2-fos-model`` fields, update times, open-access details) is drawn from
the paper's own ``s2ag`` random streams, which the 2020 generator never touches.
"""

from __future__ import annotations

import hashlib
import random

from citeworth_assets.samples.s2ag import faults, layout

# The 23 annotation keys of the real files, in their order; ``publisher`` is never written here (always null).
S2ORC_KEYS = tuple(sorted({name for name in layout.S2ORC_NAMES.values() if name} | {"publisher"}))
V2_BODY_KEYS = (
    "paragraph",
    "section_header",
    "sentence",
    "bib_ref",
    "figure_ref",
    "table_ref",
    "formula",
    "figure",
    "table",
    "figure_caption",
    "table_caption",
)
V2_BIBLIOGRAPHY_KEYS = (
    "bib_entry",
    "bib_title",
    "bib_author",
    "bib_author_first_name",
    "bib_author_last_name",
    "bib_venue",
    "bib_date",
)
S2_ONLY_FIELDS = ("Agricultural And Food Sciences", "Education", "Law", "Linguistics")  # no MAG level-0 field


def _rng(seed: int, index: int, purpose: str) -> random.Random:
    return random.Random(f"{seed}:{index}:s2ag-{purpose}")


def digest(*parts) -> str:
    return hashlib.sha1(":".join(map(str, parts)).encode()).hexdigest()


def _updated(rng: random.Random) -> str:
    return (
        f"2023-05-{rng.randint(10, 28):02d}T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}Z"
    )


def _author_name(author: dict) -> str:
    return " ".join(part for part in (author["first"], *author["middle"], author["last"], author["suffix"]) if part)


def s2_authors(meta: dict) -> list[dict]:
    return [
        {"authorId": str(int(digest("author", _author_name(a))[:12], 16) % 3_000_000_000), "name": _author_name(a)}
        for a in meta["authors"] or []
    ]


def _ids(meta: dict) -> dict:
    """The 2020 ids as S2AG spells them: null where 2020 has null or ``""``, PMC ids without ``PMC``, one MAG id."""
    pmc = meta.get("pmc_id") or None
    mag = meta.get("mag_id") or None
    return {
        "arxiv": meta.get("arxiv_id") or None,
        "mag": mag.split(",")[0] if mag else None,
        "acl": meta.get("acl_id") or None,
        "pubmed": meta.get("pubmed_id") or None,
        "pubmedcentral": pmc[3:] if pmc and pmc.startswith("PMC") else pmc,
        "dblp": None,
        "doi": meta.get("doi") or None,
    }


def open_access(meta: dict, parse: dict | None) -> dict:
    """``openaccessinfo`` of ``abstracts`` and ``s2orc_v2``: open access where the paper has a parse."""
    ids = _ids(meta)
    externalids = {
        "MAG": ids["mag"],
        "ACL": ids["acl"],
        "DOI": ids["doi"],
        "PubMedCentral": ids["pubmedcentral"],
        "ArXiv": ids["arxiv"],
    }
    if parse is None:
        return {"externalids": externalids, "license": None, "url": None, "status": None}
    if ids["doi"]:
        url, status = f"https://doi.org/{ids['doi']}", "GOLD"
    elif ids["arxiv"]:
        url, status = f"https://arxiv.org/pdf/{ids['arxiv']}", "GREEN"
    else:
        url, status = f"https://www.semanticscholar.org/paper/{digest('pdf', meta['paper_id'])}", "BRONZE"
    return {"externalids": externalids, "license": "CCBY" if status == "GOLD" else None, "url": url, "status": status}


def papers_row(seed: int, index: int, meta: dict, parse: dict | None, fault: str | None) -> dict:
    """The ``papers`` row: 2020 ids, venue and journal, MAG fields as ``external``, inbound citations as the count."""
    rng = _rng(seed, index, "papers")
    ids = _ids(meta)
    fos = meta["mag_field_of_study"]
    if fos:
        fields = [{"category": fos[0], "source": "s2-fos-model"}] if rng.random() < 0.7 else []
        if rng.random() < 0.15:
            fields.append({"category": rng.choice(S2_ONLY_FIELDS), "source": "s2-fos-model"})
        fields += [{"category": field, "source": "external"} for field in fos]
    else:
        fields = fos  # null or [] as in 2020: the paper fails the field criterion in both layouts
    journal = meta.get("journal")
    year = meta["year"]
    citations = len(meta["inbound_citations"])
    venue_name = meta.get("venue") or meta.get("journal") or ""
    return {
        "corpusid": int(meta["paper_id"]),
        "externalids": {
            "ACL": ids["acl"],
            "DBLP": ids["dblp"],
            "ArXiv": ids["arxiv"],
            "MAG": ids["mag"],
            "CorpusId": meta["paper_id"],
            "PubMed": ids["pubmed"],
            "DOI": ids["doi"],
            "PubMedCentral": ids["pubmedcentral"],
        },
        "url": f"https://www.semanticscholar.org/paper/{digest('paper', seed, meta['paper_id'])}",
        "title": faults.title(meta["title"], fault),
        "authors": s2_authors(meta),
        "venue": meta.get("venue") or "",
        "publicationvenueid": uuid_like("venue", venue_name) if venue_name and rng.random() < 0.5 else None,
        "year": year,
        "referencecount": len(parse["bib_entries"]) if parse else len(meta["outbound_citations"]),
        "citationcount": citations,
        "influentialcitationcount": citations // 5,
        "isopenaccess": parse is not None,
        "s2fieldsofstudy": fields,
        "publicationtypes": rng.choice((None, None, ["JournalArticle"], ["Review"])),
        "publicationdate": f"{year}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        if year and rng.random() < 0.5
        else None,
        "journal": None
        if journal is None
        else {
            "name": journal,
            "pages": f"{(p := rng.randint(1, 900))}-{p + rng.randint(3, 20)}" if rng.random() < 0.6 else None,
            "volume": str(rng.randint(1, 80)) if journal else "",
        },
        "updated": _updated(rng),
    }


def abstracts_row(seed: int, index: int, meta: dict, parse: dict | None) -> dict | None:
    """The ``abstracts`` row, or None where the 2020 metadata has no abstract (``""`` stays ``""``)."""
    if meta["abstract"] is None:
        return None
    return {
        "corpusid": int(meta["paper_id"]),
        "openaccessinfo": open_access(meta, parse),
        "abstract": meta["abstract"],
        "updated": _updated(_rng(seed, index, "abstracts")),
    }


def uuid_like(*parts) -> str:
    h = digest(*parts)
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


def repeats(seed: int, index: int) -> int:
    """How often the record repeats every span list: two or three times, as the real files do."""
    return 3 if _rng(seed, index, "repeats").random() < 0.3 else 2


def s2orc_record(seed: int, index: int, meta: dict, parse: dict, fault: str | None) -> dict:
    """The ``s2orc`` record: one text (front matter, body, figures, bibliography) with its annotations."""
    parse = faults.body_text(parse, fault)
    out = layout.Spans(layout.S2ORC_NAMES)
    layout.front(
        out, {**meta, "title": faults.title(meta["title"], fault)}, parse["abstract"], _rng(seed, index, "front")
    )
    layout.body(out, parse, _rng(seed, index, "body"))
    layout.figures(out, parse, _rng(seed, index, "figures"), v2=False)
    layout.bibliography(out, parse)
    text = out.text()
    faults.spans(out.kinds, len(text), fault, layout.S2ORC_NAMES)
    annotations = faults.annotation_values(out.kinds, S2ORC_KEYS, repeats(seed, index), fault, layout.S2ORC_NAMES)
    ids = _ids(meta)
    access = open_access(meta, parse)
    return {
        "corpusid": int(meta["paper_id"]),
        "externalids": ids,
        "content": {
            "source": {
                "pdfurls": [f"https://export.arxiv.org/pdf/{ids['arxiv']}v1.pdf"] if ids["arxiv"] else None,
                "pdfsha": parse["_pdf_hash"],
                "oainfo": None
                if access["status"] != "GOLD"
                else {"license": access["license"], "openaccessurl": access["url"], "status": access["status"]},
            },
            "text": text,
            "annotations": annotations,
        },
        "updated": _updated(_rng(seed, index, "s2orc")),
    }


def s2orc_v2_record(seed: int, index: int, meta: dict, parse: dict, fault: str | None) -> dict:
    """The ``s2orc_v2`` record: the body and the bibliography as two texts with their own annotations.

    No real ``s2orc_v2`` record is public; the shape is the one the lead fixed from the published description.
    """
    parse = faults.body_text(parse, fault)
    times = repeats(seed, index)
    body = layout.Spans(layout.V2_NAMES)
    layout.body(body, parse, _rng(seed, index, "body"))
    layout.figures(body, parse, _rng(seed, index, "figures"), v2=True)
    bib = layout.Spans(layout.V2_NAMES)
    layout.bibliography(bib, parse)
    body_text = body.text()
    faults.spans(body.kinds, len(body_text), fault, layout.V2_NAMES)
    return {
        "corpusid": int(meta["paper_id"]),
        "title": faults.title(meta["title"], fault),
        "authors": s2_authors(meta),
        "openaccessinfo": open_access(meta, parse),
        "body": {
            "text": body_text,
            "annotations": faults.annotation_values(body.kinds, V2_BODY_KEYS, times, fault, layout.V2_NAMES),
        },
        "bibliography": {
            "text": bib.text(),
            "annotations": faults.annotation_values(bib.kinds, V2_BIBLIOGRAPHY_KEYS, times, None, layout.V2_NAMES),
        },
    }
