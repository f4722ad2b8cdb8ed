"""Reference resolution against the lake's works catalogue, out of core (Saier 2019 §4.2.4 at release scale).

The catalogue (MAG ≈ 250M works) never enters the process. For a batch of references, every key the
resolver can use is listed: the arXiv ids and DOIs found in each string, and every run of
``min_title_words``..``max_title_words`` words of the normalised string (identifiers removed), which are
exactly the catalogue titles :meth:`Catalogue.titles_in` could find there. DuckDB joins those keys with the
``works`` table (and arXiv metadata titles with ``arxiv_titles``) under a memory limit; the works found,
plus every work sharing a title with a work found by id, form a small :class:`Catalogue` of that batch, in
catalogue order, and :func:`resolve` decides on it exactly as it would on the whole catalogue.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import islice
from pathlib import Path

import pyarrow as pa

from citeworth_assets.lib import lake
from citeworth_assets.lib.arxiv.resolution import Catalogue, ResolutionSettings, resolve, title_windows
from citeworth_assets.lib.duckdb_limits import DuckDbLimits

WORK_COLUMNS = ["work_id", "mag_id", "openalex_id", "normalised_title", "authors", "citation_count", "doi", "arxiv_id"]
KEY_SCHEMA = pa.schema([("kind", pa.string()), ("key", pa.string())])


def _quoted(path: str) -> str:
    return "'" + path.replace("'", "''") + "'"


def reference_keys(references: list[dict], settings: ResolutionSettings) -> pa.Table:
    """(kind, key) of every identifier and title window of the references, without repeats."""
    keys: set[tuple[str, str]] = set()
    for reference in references:
        keys.update(("arxiv_id", a) for a in reference.get("arxiv_ids") or [])
        keys.update(("doi", d) for d in reference.get("dois") or [])
        keys.update(("title", t) for t in title_windows(reference.get("raw_string") or "", settings))
    kinds, values = zip(*sorted(keys)) if keys else ((), ())
    return pa.table({"kind": list(kinds), "key": list(values)}, schema=KEY_SCHEMA)


class LakeCatalogue:
    """Looks references' keys up in the lake's ``works`` and ``arxiv_titles`` tables with one DuckDB connection."""

    def __init__(self, lake_root: Path, limits: DuckDbLimits | None = None, settings: ResolutionSettings | None = None):
        self.settings = settings or ResolutionSettings()
        self.temp = lake_root / lake.STAGING / "duckdb_resolution"
        self.connection = (limits or DuckDbLimits()).connect(self.temp)
        self.has_works = lake.has_data(lake_root, "works")
        self.has_titles = lake.has_data(lake_root, "arxiv_titles")
        # catalogue order (file, row) decides which of several works with one arXiv id or DOI is "first"
        if self.has_works:
            self.connection.execute(
                "CREATE VIEW works AS SELECT *, filename AS _file, file_row_number AS _row FROM "
                f"read_parquet({_quoted(lake.table_glob(lake_root, 'works'))}, filename = true, file_row_number = true)"
            )
        if self.has_titles:
            self.connection.execute(
                "CREATE VIEW arxiv_titles AS SELECT *, filename AS _file, file_row_number AS _row FROM "
                f"read_parquet({_quoted(lake.table_glob(lake_root, 'arxiv_titles'))}, filename = true, "
                "file_row_number = true)"
            )

    def close(self) -> None:
        self.connection.close()

    def catalogue_for(self, references: list[dict]) -> Catalogue:
        """The works (and arXiv titles) these references can be resolved to, as a small in-memory catalogue."""
        catalogue = Catalogue(self.settings)
        keys = reference_keys(references, self.settings)
        if keys.num_rows == 0:
            return catalogue
        self.connection.register("ref_keys", keys)
        try:
            if self.has_titles:
                catalogue.add_arxiv_titles(
                    self.connection.execute(
                        "SELECT arxiv_id, title FROM arxiv_titles WHERE arxiv_id IN "
                        "(SELECT key FROM ref_keys WHERE kind = 'arxiv_id') ORDER BY _file, _row"
                    ).fetchall()
                )
            if not self.has_works:
                return catalogue
            found = self._works(
                "normalised_title IN (SELECT key FROM ref_keys WHERE kind = 'title') "
                "OR arxiv_id IN (SELECT key FROM ref_keys WHERE kind = 'arxiv_id') "
                "OR doi IN (SELECT key FROM ref_keys WHERE kind = 'doi')"
            )
        finally:
            self.connection.unregister("ref_keys")
        # an identifier gives a title, and every work with that title is a candidate (Catalogue.title_of, by_title)
        searched = set(keys.column("key").to_pylist())
        arxiv_ids = {a for ref in references for a in ref.get("arxiv_ids") or []}
        dois = {d for ref in references for d in ref.get("dois") or []}
        titles = {w["normalised_title"] for w in found if w["arxiv_id"] in arxiv_ids or w["doi"] in dois}
        titles |= set(catalogue.arxiv_titles.values())
        titles = sorted(t for t in titles if t and t not in searched)
        if titles:
            self.connection.register("id_titles", pa.table({"title": titles}))
            try:
                found += self._works("normalised_title IN (SELECT title FROM id_titles)")
            finally:
                self.connection.unregister("id_titles")
        seen = set()
        for work in sorted(found, key=lambda w: (w["_file"], w["_row"])):
            if (work["_file"], work["_row"]) not in seen:
                seen.add((work["_file"], work["_row"]))
                catalogue.add(work)
        return catalogue

    def count_works(self) -> int:
        return self.connection.execute("SELECT count(*) FROM works").fetchone()[0] if self.has_works else 0

    def _works(self, condition: str) -> list[dict]:
        columns = ", ".join([*WORK_COLUMNS, "_file", "_row"])
        return self.connection.sql(f"SELECT {columns} FROM works WHERE {condition}").to_arrow_table().to_pylist()


def resolve_in_lake(references: Iterable[dict], lookup: LakeCatalogue, batch_size: int = 5_000) -> Iterator[dict]:
    """RESOLUTION_SCHEMA rows of the references, batch by batch against the lake's catalogue."""
    references = iter(references)
    while batch := list(islice(references, batch_size)):
        catalogue = lookup.catalogue_for(batch)
        for reference in batch:
            yield resolve(reference, catalogue)


def openalex_mag_ids(lake_root: Path, openalex_ids: set[str], limits: DuckDbLimits | None = None) -> dict[str, str]:
    """OpenAlex id -> MAG id of the catalogue's works among ``openalex_ids`` (joined in DuckDB)."""
    if not openalex_ids or not lake.has_data(lake_root, "works"):
        return {}
    with (limits or DuckDbLimits()).connect() as connection:
        connection.register("wanted", pa.table({"openalex_id": sorted(openalex_ids)}))
        rows = connection.execute(
            f"SELECT openalex_id, mag_id FROM read_parquet({_quoted(lake.table_glob(lake_root, 'works'))}, "
            "filename = true, file_row_number = true) WHERE mag_id IS NOT NULL AND openalex_id IN "
            "(SELECT openalex_id FROM wanted) ORDER BY filename, file_row_number"
        ).fetchall()
    return dict(rows)
