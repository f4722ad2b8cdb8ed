"""Reference resolution against the lake's works catalogue, out of core (Saier 2019 §4.2.4 at release scale).

The catalogue (MAG ≈ 250M works) never enters the process, and is read a fixed number of times per partition,
whatever the partition's size. First every key the resolver can use is listed, with the number of its batch of
references: the arXiv ids and DOIs found in each string, and every run of ``min_title_words``..``max_title_words``
words of the normalised string (identifiers removed), which are exactly the catalogue titles
:meth:`Catalogue.titles_in` could find there. These keys go to staging Parquet beside the references. Then one
set of joins per partition, in DuckDB under a memory limit (hash joins spill beyond it): arXiv ids with
``arxiv_titles``; arXiv ids and DOIs with ``works``, which gives the titles an identifier names; title windows and
those titles with ``works``' normalised titles (these joins read only the key columns); last, the whole rows of the
works found, once. Then, batch by batch, the works found for the batch form a small :class:`Catalogue` in catalogue
order, and :func:`resolve` decides on it exactly as it would on the whole catalogue (a decision depends on its own
string's keys only). Before, each batch of 5,000 references scanned ``works`` once: at release scale (29M items,
MAG ≈ 250M works) that scan, not the references, was the cost.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterable, Iterator
from functools import cache
from itertools import islice
from pathlib import Path

from citeworth_assets.lib import lake
from citeworth_assets.lib.arxiv.resolution import Catalogue, ResolutionSettings, resolve, title_windows
from citeworth_assets.lib.duckdb_limits import DuckDbLimits, sql_literal
from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.mag.titles import mag_normalise_title

pa = lazy_module("pyarrow")
pq = lazy_module("pyarrow.parquet")

WORK_COLUMNS = ["work_id", "mag_id", "openalex_id", "normalised_title", "authors", "citation_count", "doi", "arxiv_id"]


@cache
def key_schema() -> pa.Schema:
    return pa.schema([("batch", pa.int64()), ("kind", pa.string()), ("key", pa.string())])


@cache
def staged_reference_schema() -> pa.Schema:
    return pa.schema(
        [
            ("batch", pa.int64()),
            ("ref_id", pa.string()),
            ("citing_paper_id", pa.string()),
            ("raw_string", pa.string()),
            ("arxiv_ids", pa.list_(pa.string())),
            ("dois", pa.list_(pa.string())),
        ]
    )


# arXiv metadata titles of a batch's arXiv ids, as found and normalised as the resolver does
@cache
def id_title_schema() -> pa.Schema:
    return pa.schema(
        [("batch", pa.int64()), ("arxiv_id", pa.string()), ("title", pa.string()), ("normalised", pa.string())]
    )


# Only the key columns are read while joining (a narrow scan of the catalogue per kind of key); the whole rows of the
# works found are read once, at the end. Works found by an identifier (arXiv id or DOI), with their titles:
ID_MATCHES_SQL = """
CREATE TABLE id_matches AS
SELECT k.batch, w.normalised_title AS title, w._file, w._row
FROM (SELECT batch, key FROM keys WHERE kind = 'arxiv_id') AS k
JOIN (SELECT arxiv_id, normalised_title, _file, _row FROM works) AS w ON w.arxiv_id = k.key
UNION ALL
SELECT k.batch, w.normalised_title AS title, w._file, w._row
FROM (SELECT batch, key FROM keys WHERE kind = 'doi') AS k
JOIN (SELECT doi, normalised_title, _file, _row FROM works) AS w ON w.doi = k.key
"""
# the titles an identifier gives (a work found by arXiv id or DOI, or arXiv's metadata) that no key of the batch
# searched already: every work with such a title is a candidate too (Catalogue.title_of, by_title)
ID_TITLES_SQL = """
CREATE TABLE id_titles AS
SELECT DISTINCT batch, title FROM (
    SELECT batch, title FROM id_matches
    UNION ALL
    SELECT batch, normalised AS title FROM arxiv_found_titles
) AS t
WHERE title IS NOT NULL AND title <> ''
    AND NOT EXISTS (SELECT 1 FROM keys AS k WHERE k.batch = t.batch AND k.key = t.title)
"""
# every work a batch can be resolved to, once: found by an identifier, by a title window or by a title an identifier
# gives
MATCHES_SQL = """
CREATE TABLE matches AS
SELECT DISTINCT batch, _file, _row FROM (
    SELECT batch, _file, _row FROM id_matches
    UNION ALL
    SELECT k.batch, w._file, w._row
    FROM (SELECT batch, key FROM keys WHERE kind = 'title' UNION ALL SELECT batch, title FROM id_titles) AS k
    JOIN (SELECT normalised_title, _file, _row FROM works) AS w ON w.normalised_title = k.key
)
"""
# their rows, batch by batch in catalogue order
BATCH_WORKS_SQL = """
SELECT m.batch, {columns}, w._file, w._row
FROM matches AS m JOIN works AS w ON w._file = m._file AND w._row = m._row
ORDER BY m.batch, w._file, w._row
"""


def reference_keys(references: list[dict], settings: ResolutionSettings, batch: int = 0) -> pa.Table:
    """(batch, kind, key) of every identifier and title window of the references, without repeats."""
    keys: set[tuple[str, str]] = set()
    for reference in references:
        keys.update(("arxiv_id", a) for a in reference.get("arxiv_ids") or [])
        keys.update(("doi", d) for d in reference.get("dois") or [])
        keys.update(("title", t) for t in title_windows(reference.get("raw_string") or "", settings))
    kinds, values = zip(*sorted(keys)) if keys else ((), ())
    return pa.table({"batch": [batch] * len(kinds), "kind": list(kinds), "key": list(values)}, schema=key_schema())


class LakeCatalogue:
    """Looks references' keys up in the lake's ``works`` and ``arxiv_titles`` tables with one DuckDB connection."""

    def __init__(self, lake_root: Path, limits: DuckDbLimits | None = None, settings: ResolutionSettings | None = None):
        self.settings = settings or ResolutionSettings()
        self.staging_root = lake_root / lake.STAGING
        self.temp = self.staging_root / "duckdb_resolution"
        self.connection = (limits or DuckDbLimits()).connect(self.temp)
        self.has_works = lake.has_data(lake_root, "works")
        self.has_titles = lake.has_data(lake_root, "arxiv_titles")
        # catalogue order (file, row) decides which of several works with one arXiv id or DOI is "first"
        for table, present in (("works", self.has_works), ("arxiv_titles", self.has_titles)):
            if present:
                self.connection.execute(
                    f"CREATE VIEW {table} AS SELECT *, filename AS _file, file_row_number AS _row FROM "
                    f"read_parquet({sql_literal(lake.table_glob(lake_root, table))}, filename = true, "
                    "file_row_number = true)"
                )

    def close(self) -> None:
        self.connection.close()

    def count_works(self) -> int:
        return self.connection.execute("SELECT count(*) FROM works").fetchone()[0] if self.has_works else 0

    def batches(self, references: Iterable[dict], batch_size: int = 5_000) -> Iterator[tuple[list[dict], Catalogue]]:
        """Each batch of references with the catalogue of the works it can be resolved to, from one set of joins."""
        self.staging_root.mkdir(parents=True, exist_ok=True)
        stage = Path(tempfile.mkdtemp(prefix="resolution.", dir=self.staging_root))
        # one result per DuckDB connection at a time: the works and the titles are read side by side on cursors
        cursors = [self.connection.cursor(), self.connection.cursor()]
        try:
            count = self._stage(references, batch_size, stage)
            if count == 0:
                return
            self._join(stage)
            works = _Groups(self._works_reader(cursors[0]))
            titles = _Groups(self._arxiv_titles_reader(cursors[1]))
            staged = _Groups(pq.ParquetFile(stage / "references.parquet").iter_batches())
            for number, batch in staged:
                catalogue = Catalogue(self.settings)
                catalogue.add_arxiv_titles((t["arxiv_id"], t["title"]) for t in titles.take(number))
                for work in works.take(number):
                    catalogue.add(work)
                yield batch, catalogue
        finally:
            for cursor in cursors:
                cursor.close()
            for table in ("keys", "id_matches", "id_titles", "matches"):
                self.connection.execute(f"DROP TABLE IF EXISTS {table}")
            self.connection.execute("DROP VIEW IF EXISTS arxiv_found_titles")
            shutil.rmtree(stage, ignore_errors=True)

    def _stage(self, references: Iterable[dict], batch_size: int, stage: Path) -> int:
        """References and their keys to staging Parquet, batch by batch; returns the number of batches."""
        references, count = iter(references), 0
        with (
            pq.ParquetWriter(stage / "references.parquet", staged_reference_schema()) as refs,
            pq.ParquetWriter(stage / "keys.parquet", key_schema()) as keys,
        ):
            while batch := list(islice(references, batch_size)):
                rows = [
                    {name: r.get(name) for name in staged_reference_schema().names[1:]} | {"batch": count}
                    for r in batch
                ]
                refs.write_table(pa.Table.from_pylist(rows, schema=staged_reference_schema()))
                keys.write_table(reference_keys(batch, self.settings, count))
                count += 1
        return count

    def _join(self, stage: Path) -> None:
        """The partition's keys joined with the catalogue once: ``arxiv_found_titles``, ``id_matches``, ``id_titles``,
        ``matches``."""
        run = self.connection.execute
        run("CREATE TABLE keys AS SELECT * FROM read_parquet(?)", [str(stage / "keys.parquet")])
        titles = stage / "arxiv_titles.parquet"
        with pq.ParquetWriter(titles, id_title_schema()) as writer:
            if self.has_titles:
                found = self.connection.sql(
                    "SELECT k.batch, t.arxiv_id, t.title FROM keys AS k JOIN arxiv_titles AS t "
                    "ON k.kind = 'arxiv_id' AND t.arxiv_id = k.key ORDER BY k.batch, t._file, t._row"
                ).to_arrow_reader(20_000)
                for part in found:  # titles normalised as the resolver does (Catalogue.add_arxiv_titles)
                    rows = pa.Table.from_batches([part]).to_pylist()
                    writer.write_table(pa.Table.from_pylist([_arxiv_title(r) for r in rows], schema=id_title_schema()))
        run(
            "CREATE VIEW arxiv_found_titles AS SELECT *, file_row_number AS _order "
            f"FROM read_parquet({sql_literal(titles)}, file_row_number = true)"
        )
        if self.has_works:
            run(ID_MATCHES_SQL)
            run(ID_TITLES_SQL)
            run(MATCHES_SQL)

    def _works_reader(self, cursor):
        if not self.has_works:
            return iter(())
        columns = ", ".join(f"w.{name}" for name in WORK_COLUMNS)
        return cursor.sql(BATCH_WORKS_SQL.format(columns=columns)).to_arrow_reader(20_000)

    def _arxiv_titles_reader(self, cursor):
        # in the order written (batch, then catalogue order): a later title of an arXiv id replaces an earlier one
        return cursor.sql("SELECT batch, arxiv_id, title FROM arxiv_found_titles ORDER BY _order").to_arrow_reader(
            20_000
        )


def _arxiv_title(row: dict) -> dict:
    return {**row, "normalised": mag_normalise_title(row["title"]) if row["arxiv_id"] and row["title"] else None}


class _Groups:
    """Rows of a reader ordered by ``batch``, handed out one batch number at a time (numbers asked in order)."""

    def __init__(self, reader):
        self.rows = (row for part in reader for row in part.to_pylist())
        self.pending: dict | None = next(self.rows, None)

    def __iter__(self) -> Iterator[tuple[int, list[dict]]]:
        while self.pending is not None:
            number = self.pending["batch"]
            yield number, self.take(number)

    def take(self, number: int) -> list[dict]:
        """The rows of batch ``number`` (none when it has none), with their ``batch`` column left out."""
        found = []
        while self.pending is not None and self.pending["batch"] <= number:
            if self.pending["batch"] == number:
                found.append({name: self.pending[name] for name in self.pending if name != "batch"})
            self.pending = next(self.rows, None)
        return found


def resolve_in_lake(references: Iterable[dict], lookup: LakeCatalogue, batch_size: int = 5_000) -> Iterator[dict]:
    """resolution_schema() rows of the references, batch by batch against the lake's catalogue (joined once)."""
    for batch, catalogue in lookup.batches(references, batch_size):
        for reference in batch:
            yield resolve(reference, catalogue)


def openalex_mag_ids(lake_root: Path, openalex_ids: set[str], limits: DuckDbLimits | None = None) -> dict[str, str]:
    """OpenAlex id -> MAG id of the catalogue's works among ``openalex_ids`` (joined in DuckDB)."""
    if not openalex_ids or not lake.has_data(lake_root, "works"):
        return {}
    with (limits or DuckDbLimits()).connect() as connection:
        connection.register("wanted", pa.table({"openalex_id": sorted(openalex_ids)}))
        rows = connection.execute(
            "SELECT openalex_id, mag_id FROM read_parquet(?, filename = true, file_row_number = true) "
            "WHERE mag_id IS NOT NULL AND openalex_id IN (SELECT openalex_id FROM wanted) "
            "ORDER BY filename, file_row_number",
            [lake.table_glob(lake_root, "works")],
        ).fetchall()
    return dict(rows)
