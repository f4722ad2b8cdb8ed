"""The real S2ORC sample (../shared/data/s2orc-20200705) through the graph: its 3 parsed papers and 1,003 metadata
rows written as one shard of the release layout. Only the pairs whose cited paper is linked and has its abstract in
the sample become examples: the numbers are small and reported as such."""

import gzip
import json

import pyarrow.parquet as pq
import pytest
from sciqfs_graph import build, metadata, query

pytestmark = pytest.mark.slow  # materializes the graph end to end; `make test-fast` skips it


def write_dump(shared, root):
    """The sample as shard 0 of 20200705v1 (gzip JSON lines, one record a line), in a temporary folder."""
    full = root / "dumps" / "20200705v1" / "full"
    (full / "metadata").mkdir(parents=True)
    (full / "pdf_parses").mkdir(parents=True)
    with gzip.open(full / "metadata" / "metadata_0.jsonl.gz", "wt", encoding="utf-8") as out:
        for name in ("metadata_for_pdf_parses.jsonl", "metadata_sample.jsonl"):
            out.write((shared / name).read_text(encoding="utf-8"))
    with gzip.open(full / "pdf_parses" / "pdf_parses_0.jsonl.gz", "wt", encoding="utf-8") as out:
        for path in sorted((shared / "pdf_parses").glob("*.json")):
            out.write(json.dumps(json.loads(path.read_text(encoding="utf-8"))) + "\n")
    return root / "dumps"


def test_real_papers_with_linked_cited_abstracts_give_examples_and_rankings(shared_data, tmp_path, monkeypatch):
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dagster_home"))
    dumps = write_dump(shared_data / "s2orc-20200705", tmp_path)
    data, dataset, _, _ = build(tmp_path, dumps, f"sqlite:///{tmp_path / 'mlflow.db'}")
    tables = metadata(dataset, "sciqfs_s2orc_tables")
    examples = query(
        data,
        "SELECT paper_id, len(sentences), list_count(list_filter(label_sources, lambda s: s = 'citation')), "
        "list_count(list_filter(label_sources, lambda s: s = 'rouge')) FROM sciqfs.examples",
    )
    print(
        f"\nreal S2ORC sample: {tables['sciqfs_papers']} citing papers, {tables['sciqfs_references']} references "
        f"({tables['references_with_abstract']} with an abstract), {tables['sciqfs_citations']} citations; examples "
        f"(paper, sentences, citing, ROUGE-added): {examples}"
    )
    assert tables["sciqfs_papers"] == 3 and tables["references_with_abstract"] >= 1
    assert examples and all(citing >= 1 for _, _, citing, _ in examples)
    assert examples[0][0] == "18980380"  # the one paper whose cited paper is linked and in the sample
    assert metadata(dataset, "sciqfs_s2orc_examples")["skipped_pairs"]["reference_without_abstract"] > 0
    # one example: no test split, so the untrained rankers of every build score every example
    assert metadata(dataset, "sciqfs_ranking_baselines")["scored_on"].endswith("scored on every example")
    rows = query(
        data,
        "SELECT classifier, embeddings, status, evaluated, average_precision_mean, roc_auc_mean, prevalence "
        "FROM sciqfs.baselines ORDER BY 1, 2",
    )
    for row in rows:
        print(row)
    ran = [row for row in rows if row[2] == "ok"]
    assert len(ran) >= 4 and all(row[3] == len(examples) and 0 < row[4] <= 1 for row in ran)
    released = [data / "exports" / "sciqfs" / f"{split}.parquet" for split in ("train", "validation", "test")]
    assert sum(pq.read_table(path).num_rows for path in released if path.exists()) == len(examples)
