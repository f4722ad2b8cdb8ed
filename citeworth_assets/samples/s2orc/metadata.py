"""A paper's metadata record: ids and venue, MAG fields, citation links and the has_pdf_parsed_* flags.

The record is built to fail exactly the candidate criterion the paper's outcome names (or none), so the
candidate filter's counts in the sample summary are known in advance.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from citeworth_assets.samples.s2orc.graph import (
    _METADATA_CRITERIA,
    _OUTSIDE_ID_BASE,
    _PARSED_FLAGS,
    _VENUE_OR_ID_KEYS,
    _between,
    _mix,
    _pick,
    in_dump_citers,
    paper_id_for,
)
from citeworth_assets.samples.s2orc.identity import _author_record, abstract_for

if TYPE_CHECKING:
    from citeworth_assets.samples.s2orc.paper import _PaperWriter


def pdf_flags(w: _PaperWriter) -> dict | None:
    """The has_pdf_parsed_* flags, or None when the paper has no pdf parse.

    The intended failure is false and the criteria before it pass; papers that already fail
    a metadata criterion get random flags (and sometimes no parse), as in the real sample.
    """
    rng, reason = w.rng, w.reason
    if reason == "has_pdf_parse" or (reason in _METADATA_CRITERIA and rng.random() < 0.3):
        return None
    flags = dict.fromkeys(_PARSED_FLAGS, True)
    if reason in _PARSED_FLAGS:
        flags[reason] = False
    elif reason in _METADATA_CRITERIA:
        for name in flags:
            flags[name] = rng.random() < 0.85
    return flags


def metadata_record(w: _PaperWriter) -> dict:
    """The metadata line of the paper, keys in the release's order."""
    seed, index, rng, ident = w.seed, w.index, w.rng, w.ident
    pid = paper_id_for(seed, index)
    ids = _venue_and_ids(w)
    citers = [paper_id_for(seed, i) for i in in_dump_citers(seed, index, w.papers)]
    if w.reason != "has_inbound_citations":
        outside = _between(rng, 0 if citers else 1, 3)
        citers += [str(_OUTSIDE_ID_BASE + _mix(seed, index, k, 0x0B) % 600_000_000) for k in range(outside)]
    outbound = [paper_id_for(seed, j) for j in w.targets]
    if w.reason == "mag_field_of_study":
        fos = None if w.variant == "null" else []
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
    flags = w.flags
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


def _venue_and_ids(w: _PaperWriter) -> dict:
    """arxiv_id .. journal, in the release's key order.  Papers built to fail venue_or_id get
    none of the six (null or empty string) but may keep a DOI, which does not count."""
    rng, field = w.rng, w.ident.fields[0]
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
        "pmc_id": maybe(field in ("Medicine", "Biology"), 0.15, lambda: f"PMC{_between(rng, 1_000_000, 7_000_000)}"),
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
    if w.reason == "venue_or_id":
        for key in _VENUE_OR_ID_KEYS:
            values[key] = _pick(rng, (None, None, ""))
    elif not any(values[k] for k in _VENUE_OR_ID_KEYS):
        values["journal"] = journal
    return values
