"""The citing papers of one S2ORC shard of the lake as :class:`ParsedPaper`, reading only what they need.

Citing papers are the papers of the shard's ``s2orc_paragraphs`` (its candidates), in line order. A paper found
in several shards gives its first parse by (release, shard, line): one of this shard is left out, and counted as
``duplicate_paper``, when an earlier occurrence listed in ``s2orc_duplicate_papers`` has paragraphs in its own
shard (only those shards' paragraphs are read, filtered to those papers). Title and abstract come from the first
metadata row of the paper (its ``kept`` row there, else this shard's ``s2orc_papers`` row). A bibliography
entry's title and abstract come from the cited-abstract catalogue (``citesum_cited_abstracts``) through the
span's ``linked_paper_id``, filtered in DuckDB to the papers this shard links to; the lake keeps no bibliography
titles, so unlinked entries have neither and stay private to their paper (no query: no example).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from itertools import groupby
from pathlib import Path

from citeworth_assets.lib import lake
from citeworth_assets.lib.duckdb_limits import bounded
from citeworth_assets.lib.read_issues import IssueLog, ReadIssue
from citeworth_assets.lib.sciqfs.s2orc_source import SentenceBounds, paper_from_paragraphs
from citeworth_assets.lib.sciqfs.tables import ParsedPaper

CATALOGUE = "citesum_cited_abstracts"
DUPLICATES = "s2orc_duplicate_papers"


def _files(lake_root: Path, table: str, shard: str) -> str:
    return str(lake.partition_dir(lake_root, table, shard) / "*.parquet")


def _linked_papers(connection, lake_root: Path, shard: str) -> dict[str, dict]:
    """paper_id -> {title, abstract} of the catalogue papers this shard's citation spans link to."""
    if not lake.has_data(lake_root, CATALOGUE):
        return {}
    sql = """
        SELECT c.paper_id, c.title, c.abstract FROM read_parquet(?) c
        WHERE c.paper_id IN (
            SELECT span.linked_paper_id FROM read_parquet(?),
                unnest(cite_spans) AS s(span) WHERE span.linked_paper_id IS NOT NULL)
    """
    params = [lake.table_glob(lake_root, CATALOGUE), _files(lake_root, "s2orc_paragraphs", shard)]
    return {paper_id: {"title": t, "abstract": a} for paper_id, t, a in connection.execute(sql, params).fetchall()}


def _earlier_occurrences(connection, lake_root: Path, shard: str) -> list[tuple[str, str, bool]]:
    """(paper_id, shard, kept) of every occurrence, in another shard before this one, of this shard's papers."""
    if not lake.has_data(lake_root, DUPLICATES):
        return []
    sql = """
        SELECT d.paper_id, d.shard, d.kept
        FROM read_parquet($duplicates) d
        JOIN read_parquet($duplicates) mine USING (paper_id)
        WHERE mine.shard = $shard AND (d.release, d.shard, d.line) < (mine.release, mine.shard, mine.line)
        ORDER BY d.paper_id, d.release, d.shard, d.line
    """
    return connection.execute(sql, {"duplicates": lake.table_glob(lake_root, DUPLICATES), "shard": shard}).fetchall()


def _with_paragraphs(connection, lake_root: Path, shard: str, paper_ids: list[str]) -> set[str]:
    """Which of ``paper_ids`` have paragraphs in ``shard``."""
    if not lake.partition_dir(lake_root, "s2orc_paragraphs", shard).is_dir():
        return set()
    sql = "SELECT DISTINCT paper_id FROM read_parquet(?) WHERE list_contains(?, paper_id)"
    return {
        row[0] for row in connection.execute(sql, [_files(lake_root, "s2orc_paragraphs", shard), paper_ids]).fetchall()
    }


def _metadata(connection, lake_root: Path, shard: str, paper_ids: list[str] | None) -> dict[str, tuple]:
    """paper_id -> (title, abstract) from one shard's ``s2orc_papers``: of ``paper_ids``, or of the shard's citing
    papers when None."""
    if not lake.partition_dir(lake_root, "s2orc_papers", shard).is_dir():
        return {}
    wanted = "SELECT paper_id FROM read_parquet(?)" if paper_ids is None else "SELECT unnest(?::VARCHAR[])"
    sql = f"""
        SELECT paper_id, title, abstract FROM read_parquet(?)
        WHERE paper_id IN ({wanted}) ORDER BY line
    """
    params = [_files(lake_root, "s2orc_papers", shard)]
    params.append(_files(lake_root, "s2orc_paragraphs", shard) if paper_ids is None else paper_ids)
    found: dict[str, tuple] = {}
    for paper_id, title, abstract in connection.execute(sql, params).fetchall():
        found.setdefault(paper_id, (title, abstract))
    return found


def _duplicates_and_metadata(connection, lake_root: Path, shard: str) -> tuple[set[str], dict[str, tuple]]:
    """(papers an earlier shard already gives, paper_id -> (title, abstract) of this shard's citing papers)."""
    earlier_shards: dict[str, list[str]] = defaultdict(list)  # shard -> papers of ours that occur there first
    kept_in: dict[str, list[str]] = defaultdict(list)  # shard of the first metadata row -> papers
    for paper_id, other, kept in _earlier_occurrences(connection, lake_root, shard):
        earlier_shards[other].append(paper_id)
        if kept:
            kept_in[other].append(paper_id)
    excluded = set()
    for other, paper_ids in sorted(earlier_shards.items()):
        excluded |= _with_paragraphs(connection, lake_root, other, paper_ids)
    metadata = _metadata(connection, lake_root, shard, None)
    for other, paper_ids in sorted(kept_in.items()):
        metadata.update(_metadata(connection, lake_root, other, paper_ids))
    return excluded, metadata


def _paragraph_rows(connection, lake_root: Path, shard: str) -> Iterator[dict]:
    sql = """
        SELECT paper_id, text, cite_spans, shard, source_file, line
        FROM read_parquet(?) ORDER BY line, paragraph_index
    """
    params = [_files(lake_root, "s2orc_paragraphs", shard)]
    for batch in connection.sql(sql, params=params).to_arrow_reader(batch_size=2_000):
        yield from batch.to_pylist()


def shard_papers(lake_root: Path, shard: str, split: SentenceBounds, log: IssueLog) -> Iterator[ParsedPaper]:
    """The citing papers of one shard, one at a time (nothing before the shard's paragraphs exist)."""
    if not lake.partition_dir(lake_root, "s2orc_paragraphs", shard).is_dir():
        return
    with bounded() as connection:
        cited = _linked_papers(connection, lake_root, shard)
        excluded, metadata = _duplicates_and_metadata(connection, lake_root, shard)
        abstracts = {paper_id: row["abstract"] for paper_id, row in cited.items() if row["abstract"]}
        for (paper_id, _), group in groupby(
            _paragraph_rows(connection, lake_root, shard), key=lambda r: (r["paper_id"], r["line"])
        ):
            paragraphs = list(group)
            first = paragraphs[0]
            source = f"{first['shard']}/{first['source_file']}:{first['line']}"
            if paper_id in excluded:
                log.add(
                    ReadIssue(
                        source,
                        first["line"],
                        None,
                        "duplicate_paper",
                        "paper_id seen in an earlier shard; the first record is kept",
                        paper_id,
                    )
                )
                continue
            titles = {
                span["ref_id"]: cited[span["linked_paper_id"]]["title"]
                for row in paragraphs
                for span in row["cite_spans"] or []
                if span["ref_id"] and span["linked_paper_id"] in cited
            }
            title, abstract = metadata.get(paper_id, (None, None))
            yield paper_from_paragraphs(paper_id, paragraphs, split, abstracts, titles, title, abstract, source)
