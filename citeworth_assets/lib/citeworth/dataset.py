"""The balanced CiteWorth dataset: per-field paragraphs, even sampling, paper-disjoint splits, Table 2, release.

Choices where the paper is silent:

* Sampling is seeded and stable: paragraphs are ranked by an MD5 of ``seed:paper_id:section_idx`` and
  the first ``n`` of each field are kept, where ``n`` is the smallest field's count (or the configured
  cap). A configured field with no paragraphs at all is left out and reported, rather than emptying
  the whole dataset.
* Splits are by paper and per field: a field's papers are ranked by an MD5 of ``seed:paper_id`` and
  the first 80% of them go to train, the next 10% to dev, the rest to test. A paper has exactly one
  field here, so no paper is in two splits.
* Tokens in the statistics are counted with the sentence splitter's tokenizer (SciSpacy's).
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from citeworth_assets.lib import lake
from citeworth_assets.lib.citeworth.card import CARD
from citeworth_assets.lib.citeworth.partition import paragraph_schema, rules_key
from citeworth_assets.lib.citeworth.rules import CHECK_WORTHY, NON_CHECK_WORTHY
from citeworth_assets.lib.duckdb_limits import bounded
from citeworth_assets.lib.fields import FIELD_DIMENSION, field_key
from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.papers import PaperInput
from citeworth_assets.lib.releases import write_release
from citeworth_assets.lib.s2orc.records import papers_from_paragraph_rows

pa = lazy_module("pyarrow")
pq = lazy_module("pyarrow.parquet")

SPLITS = ("train", "dev", "test")
RULES_DIMENSION = "rules"  # lake partition folders of the per-rule-set tables: <table>/rules=<rule set>/


@cache
def dataset_schema() -> pa.Schema:
    return paragraph_schema().append(pa.field("field", pa.string())).append(pa.field("split", pa.string()))


@cache
def statistics_schema() -> pa.Schema:
    return pa.schema(
        [
            ("rule_set", pa.string()),
            ("field", pa.string()),
            ("paragraphs", pa.int64()),
            ("sentences", pa.int64()),
            ("tokens", pa.int64()),
            ("train_sentences", pa.int64()),
            ("dev_sentences", pa.int64()),
            ("test_sentences", pa.int64()),
            ("cite_worthy", pa.int64()),
            ("non_cite_worthy", pa.int64()),
            ("cite_worthy_share", pa.float64()),
            ("min_chars", pa.int64()),
            ("max_chars", pa.int64()),
            ("mean_chars", pa.float64()),
            ("median_chars", pa.float64()),
        ]
    )


def _rank(*parts) -> str:
    return hashlib.md5(":".join(map(str, parts)).encode()).hexdigest()


def sample_candidate_papers(lake_root: Path, limit: int) -> list[PaperInput]:
    """The first ``limit`` candidate papers of the lake (in shard order), with their body paragraphs; a paper in
    several shards is taken once, from the first."""
    shards = sorted(path.name.split("=", 1)[1] for path in (lake_root / "s2orc_candidate_papers").glob("shard=*"))
    papers: list[PaperInput] = []
    seen: set[str] = set()
    for shard in shards:
        fields = {
            row["paper_id"]: row["mag_field_of_study"]
            for row in lake.iter_partition_rows(
                lake_root, "s2orc_candidate_papers", shard, ["paper_id", "mag_field_of_study"]
            )
            if row["paper_id"] not in seen
        }
        seen.update(fields)
        wanted = list(fields)[: limit - len(papers)]
        wanted_ids = set(wanted)
        with_paragraphs = {
            paper.paper_id: paper
            for paper in papers_from_paragraph_rows(
                lake.iter_partition_rows(lake_root, "s2orc_paragraphs", shard), fields
            )
            if paper.paper_id in wanted_ids
        }
        papers.extend(
            with_paragraphs.get(paper_id) or PaperInput(paper_id, [], fields[paper_id]) for paper_id in wanted
        )
        if len(papers) >= limit:
            break
    return papers


ACCEPTED_TABLES = ("citeworth_paragraphs", "citeworth_arxiv_paragraphs")  # S2ORC shards, arXiv dump files
# The arXiv dump file of a citeworth_arxiv_paragraphs row, from its folder (file=<rule set>.<dump file key>).
ARXIV_FILE = r"regexp_extract(filename, '/file=[^/]*\.([a-z0-9_]+)/[^/]*$', 1)"
# A paper found in several unarXive files keeps the paragraphs of the first file (by partition key) that holds it.
NOT_REPEATED_ARXIV = (
    "AND (p.shard IS NOT NULL OR p.arxiv_file = (SELECT min(q.arxiv_file) FROM accepted AS q "
    "WHERE q.shard IS NULL AND q.rule_set = p.rule_set AND q.paper_id = p.paper_id)) "
)


def write_field_paragraphs(lake_root: Path, rules: str, field: str, key: str) -> int:
    """The accepted paragraphs (of ``rules``) of papers whose only field of study is ``field``, from S2ORC and
    arXiv alike (S2ORC rows first, by shard and line; then arXiv rows by source file and line)."""
    tables = [table for table in ACCEPTED_TABLES if lake.has_data(lake_root, table)]
    if not tables:
        return lake.write_partition(
            lake_root, "citeworth_field_paragraphs", paragraph_schema(), [], rules_key(rules, key), FIELD_DIMENSION
        )
    # A paper found in several shards keeps the paragraphs of its first occurrence (s2orc_duplicate_papers).
    repeats = lake.has_data(lake_root, "s2orc_duplicate_papers")
    not_repeated = (
        "AND NOT EXISTS (SELECT 1 FROM read_parquet(?) AS d "
        "WHERE NOT d.kept AND d.paper_id = p.paper_id AND d.shard = p.shard) "
        if repeats
        else ""
    )
    # hive_partitioning off: the folder names (shard=<rule set>.<shard>) must not replace the shard column
    query = (
        f"WITH accepted AS (SELECT *, {ARXIV_FILE} AS arxiv_file FROM read_parquet(?::VARCHAR[], "
        "hive_partitioning = false, union_by_name = true, filename = true)) "
        "SELECT p.* EXCLUDE (filename, arxiv_file) FROM accepted AS p "
        f"WHERE rule_set = ? AND len(mag_field_of_study) = 1 AND mag_field_of_study[1] = ? {not_repeated}"
        f"{NOT_REPEATED_ARXIV}ORDER BY shard NULLS LAST, source_file, line, section_idx"
    )
    params = [[lake.table_glob(lake_root, table) for table in tables], rules, field]
    params += [lake.table_glob(lake_root, "s2orc_duplicate_papers")] if repeats else []
    return lake.write_partition_from_query(
        lake_root, "citeworth_field_paragraphs", query, params, rules_key(rules, key), FIELD_DIMENSION
    )


def build_dataset(lake_root: Path, rules: str, fields: list[str], cap: int | None, seed: int) -> dict:
    """Sample the same number of paragraphs per field, split by paper, and store the dataset."""
    per_field = {}
    for field in fields:
        folder = lake.partition_dir(
            lake_root, "citeworth_field_paragraphs", rules_key(rules, field_key(field)), FIELD_DIMENSION
        )
        per_field[field] = pq.read_table(folder) if folder.is_dir() else paragraph_schema().empty_table()
    present = {field: table for field, table in per_field.items() if table.num_rows}
    size = min((table.num_rows for table in present.values()), default=0)
    if cap is not None:
        size = min(size, cap)
    parts, split_counts = [], dict.fromkeys(SPLITS, 0)
    for field, table in present.items():
        keys = list(zip(table.column("paper_id").to_pylist(), table.column("section_idx").to_pylist()))
        chosen = sorted(range(table.num_rows), key=lambda i: _rank(seed, *keys[i]))[:size]
        sample = table.take(sorted(chosen))
        papers = sorted(set(sample.column("paper_id").to_pylist()), key=lambda paper: _rank(seed, paper))
        cut_train, cut_dev = round(len(papers) * 0.8), round(len(papers) * 0.9)
        split_of = {paper: SPLITS[(i >= cut_train) + (i >= cut_dev)] for i, paper in enumerate(papers)}
        splits = [split_of[paper] for paper in sample.column("paper_id").to_pylist()]
        for split in splits:
            split_counts[split] += 1
        sample = sample.append_column("field", pa.array([field] * sample.num_rows, pa.string()))
        parts.append(sample.append_column("split", pa.array(splits, pa.string())))
    table = pa.concat_tables(parts) if parts else dataset_schema().empty_table()
    with lake.PartitionWriter(lake_root, "citeworth_dataset", dataset_schema(), rules, RULES_DIMENSION) as out:
        out.write_table(table)
    return {
        "paragraphs_per_field": size,
        "fields": len(present),
        "missing_fields": sorted(set(fields) - set(present)),
        "paragraphs": table.num_rows,
        "paragraphs_per_split": split_counts,
    }


def read_dataset(lake_root: Path, rules: str) -> pa.Table:
    return lake.read_partition(lake_root, "citeworth_dataset", rules, dimension=RULES_DIMENSION)


def write_statistics(lake_root: Path, rules: str, splitter) -> pa.Table:
    """Table 2 of the paper, overall (field ``all``) and per field; stored in the lake.

    Counts and lengths come from DuckDB over the dataset's Parquet; tokens are counted by streaming
    the sentences through the tokenizer, so the dataset is never loaded whole.
    """
    folder = lake.partition_dir(lake_root, "citeworth_dataset", rules, RULES_DIMENSION)
    files = [str(folder / "*.parquet")]
    query = f"""
        WITH sentences AS (
            SELECT field, split, s.label, length(s.text) AS chars
            FROM (SELECT field, split, unnest(samples) AS s FROM read_parquet(?))
        )
        SELECT coalesce(field, 'all') AS field, count(*) AS sentences,
            count(*) FILTER (split = 'train') AS train_sentences, count(*) FILTER (split = 'dev') AS dev_sentences,
            count(*) FILTER (split = 'test') AS test_sentences,
            count(*) FILTER (label = '{CHECK_WORTHY}') AS cite_worthy,
            count(*) FILTER (label = '{NON_CHECK_WORTHY}') AS non_cite_worthy,
            min(chars) AS min_chars, max(chars) AS max_chars, round(avg(chars), 1) AS mean_chars,
            median(chars)::DOUBLE AS median_chars
        FROM sentences GROUP BY GROUPING SETS ((), (field))
    """
    paragraphs_query = (
        "SELECT coalesce(field, 'all'), count(*) FROM read_parquet(?) GROUP BY GROUPING SETS ((), (field))"
    )
    with bounded() as connection:
        metrics = {row["field"]: row for row in connection.sql(query, params=files).to_arrow_table().to_pylist()}
        paragraphs = dict(connection.execute(paragraphs_query, files).fetchall())
    tokens = dict.fromkeys(metrics, 0)
    for batch in lake.iter_partition_batches(
        lake_root, "citeworth_dataset", rules, ["field", "samples"], RULES_DIMENSION
    ):
        for row in batch.to_pylist():
            count = sum(len(doc) for doc in splitter.tokenize(sample["text"] for sample in row["samples"]))
            tokens[row["field"]] += count
            tokens["all"] += count
    rows = []
    for field in ["all", *sorted(set(metrics) - {"all"})]:
        row = metrics.get(field)
        if row is None:
            continue
        share = row["cite_worthy"] / row["sentences"] if row["sentences"] else None
        rows.append(
            {
                **row,
                "rule_set": rules,
                "paragraphs": paragraphs.get(field, 0),
                "tokens": tokens.get(field, 0),
                "cite_worthy_share": round(share, 4) if share is not None else None,
            }
        )
    result = pa.Table.from_pylist(rows, schema=statistics_schema())
    with lake.PartitionWriter(lake_root, "citeworth_statistics", statistics_schema(), rules, RULES_DIMENSION) as out:
        out.write_table(result)
    return result


RELEASE_FIELDS = (
    "paper_id",
    "section_idx",
    "file_index",
    "file_offset",
    "mag_field_of_study",
    "original_text",
    "section_title",
    "samples",
)


def release_record(row: dict) -> dict:
    """A paragraph row (lake or dataset) in the published CiteWorth release schema.

    The one place the release record is built: the export and ``citeworth clean-paper`` both use it.
    Non-cite-worthy samples carry no ``citation_text`` key in the published files.
    """
    record = {name: row[name] for name in RELEASE_FIELDS}
    record["samples"] = [
        {
            key: value
            for key, value in sample.items()
            if not (key == "citation_text" and sample["label"] == NON_CHECK_WORTHY)
        }
        for sample in row["samples"]
    ]
    return record


def export_release(lake_root: Path, rules: str, folder: Path) -> tuple[Path, dict]:
    """``train.jsonl``, ``dev.jsonl``, ``test.jsonl`` in the published schema and ``citeworth.parquet``."""
    return folder, write_release(
        folder, read_dataset(lake_root, rules), SPLITS, release_record, "citeworth.parquet", CARD
    )
