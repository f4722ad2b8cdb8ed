"""S2AG ``papers`` and ``abstracts`` records as staged rows: the 2020 metadata fields, by corpus id.

Fields of study come from ``s2fieldsofstudy`` ``[{category, source}]``. CiteWorth sampled by MAG level-0 fields;
S2 marks the categories it took over from external sources (the MAG's among them) ``"external"`` and its own
classifier's ``"s2-fos-model"``. By default only ``external`` categories count (closest to the 2020 release's
``mag_field_of_study``); counting the model's as well is a setting (:data:`DEFAULT_FIELD_SOURCES`). S2's categories
that are not MAG level-0 fields (Agricultural and Food Sciences, Education, Law, Linguistics) are left out, so the
field partitions stay those of CiteWorth; names are matched to the MAG's case-insensitively (S2 writes "And").
"""

from __future__ import annotations

from functools import cache

from citeworth_assets.lib.fields import MAG_FIELDS
from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.s2orc.schema import author_type

pa = lazy_module("pyarrow")

DEFAULT_FIELD_SOURCES = ("external",)
MAG_BY_LOWER = {field.lower(): field for field in MAG_FIELDS}
SUFFIXES = {"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"}
# papers' externalids name -> the 2020 metadata column
ID_COLUMNS = {
    "ArXiv": "arxiv_id",
    "ACL": "acl_id",
    "PubMed": "pubmed_id",
    "PubMedCentral": "pmc_id",
    "DOI": "doi",
    "MAG": "mag_id",
}


@cache
def staged_paper_schema() -> pa.Schema:
    return pa.schema(
        [
            ("corpusid", pa.int64()),
            ("title", pa.string()),
            ("authors", pa.list_(author_type())),
            ("year", pa.int32()),
            ("venue", pa.string()),
            ("journal", pa.string()),
            *[(column, pa.string()) for column in ID_COLUMNS.values()],
            ("s2_url", pa.string()),
            ("mag_field_of_study", pa.list_(pa.string())),
            ("citation_count", pa.int64()),
            ("reference_count", pa.int64()),
            ("source_file", pa.string()),
            ("line", pa.int64()),
        ]
    )


@cache
def staged_abstract_schema() -> pa.Schema:
    return pa.schema(
        [("corpusid", pa.int64()), ("abstract", pa.string()), ("source_file", pa.string()), ("line", pa.int64())]
    )


def split_name(name: str) -> dict:
    """``"Raid D. Thanoon"`` -> first Raid, middle [D.], last Thanoon (S2 gives one string per author)."""
    words = name.split()
    suffix = ""
    if len(words) > 2 and words[-1].lower().rstrip(",") in SUFFIXES:
        suffix = words.pop()
    if not words:
        return {"first": "", "middle": [], "last": "", "suffix": suffix}
    if len(words) == 1:
        return {"first": "", "middle": [], "last": words[0], "suffix": suffix}
    return {"first": words[0], "middle": words[1:-1], "last": words[-1], "suffix": suffix}


def fields_of_study(value, sources: tuple[str, ...] = DEFAULT_FIELD_SOURCES) -> list[str] | None:
    """The MAG level-0 fields among the categories from ``sources``, sorted; None when there are none (as the
    2020 release's null ``mag_field_of_study``)."""
    if type(value) is not list:
        return None
    found = set()
    for item in value:
        if type(item) is dict and item.get("source") in sources and type(item.get("category")) is str:
            field = MAG_BY_LOWER.get(item["category"].strip().lower())
            if field is not None:
                found.add(field)
    return sorted(found) or None


def _text(value) -> str | None:
    if value is None or type(value) is str:
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return None


def _count(value) -> int | None:
    if type(value) is int:
        return value
    if type(value) is str and value.strip().isdigit():
        return int(value)
    return None


def corpus_id(record: dict) -> int | None:
    value = record.get("corpusid", record.get("corpusId"))
    if type(value) is int and value >= 0:
        return value
    if type(value) is str and value.strip().isdigit():
        return int(value)
    return None


def paper_row(record: dict, sources: tuple[str, ...], report) -> dict | None:
    """A staged ``papers`` row; None (reported) without a corpus id. ``report(kind, message)``."""
    corpus = corpus_id(record)
    if corpus is None:
        report("missing_field", "record has no usable corpusid; skipped")
        return None
    ids = record.get("externalids") if type(record.get("externalids")) is dict else {}
    authors = []
    for author in record.get("authors") or []:
        name = author.get("name") if type(author) is dict else author
        if type(name) is str and name.strip():
            authors.append(split_name(name))
    journal = record.get("journal")
    year = _count(record.get("year"))
    return {
        "corpusid": corpus,
        "title": _text(record.get("title")),
        "authors": authors,
        "year": year if year is not None and year < 2**31 else None,
        "venue": _text(record.get("venue")),
        "journal": _text(journal.get("name")) if type(journal) is dict else _text(journal),
        **{column: _text(ids.get(name)) or None for name, column in ID_COLUMNS.items()},
        "s2_url": _text(record.get("url")),
        "mag_field_of_study": fields_of_study(record.get("s2fieldsofstudy"), sources),
        "citation_count": _count(record.get("citationcount")),
        "reference_count": _count(record.get("referencecount")),
    }


def abstract_row(record: dict, report) -> dict | None:
    corpus = corpus_id(record)
    if corpus is None:
        report("missing_field", "record has no usable corpusid; skipped")
        return None
    abstract = record.get("abstract")
    return {"corpusid": corpus, "abstract": abstract if type(abstract) is str and abstract.strip() else None}
