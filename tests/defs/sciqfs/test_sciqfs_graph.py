"""End to end: a generated S2ORC dump through the shard jobs, the cited-abstract catalogue and the ROUGE-SciQFS
assets on a real Dagster instance, with a file MLflow store; then the warehouse views."""

import json

import pyarrow.parquet as pq
import pytest
from sciqfs_graph import all_metadata, build, metadata, query

from citeworth_assets.samples.s2orc import generate_sample_dump

pytestmark = pytest.mark.slow  # materializes the graph end to end; `make test-fast` skips it

# Two CPU cores shared: one embedding for every classifier, one epoch of tiny networks (they run, they are not tuned).
FAST_BASELINES = {"embeddings": ["TFIDF-Words", "SPECTER"], "epochs": 1, "hidden": 8, "batch_size": 32}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("sciqfs")
    generate_sample_dump(root / "dumps", papers=60, shards=2, seed=5)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DAGSTER_HOME", str(root / "dagster_home"))
        yield build(root, root / "dumps", f"sqlite:///{root / 'mlflow.db'}", FAST_BASELINES)


def test_every_citing_sentence_is_labelled_and_augmentation_only_adds(built):
    data, dataset, *_ = built
    examples = pq.read_table(data / "lake" / "sciqfs_examples").to_pylist()
    per_shard = all_metadata(dataset, "sciqfs_s2orc_examples")
    assert len(per_shard) == 2 and examples and sum(m["examples"] for m in per_shard) == len(examples)
    citations = pq.read_table(data / "lake" / "sciqfs_citations").to_pylist()
    contexts = {}
    for row in citations:
        contexts.setdefault((row["paper_id"], row["reference_id"]), set()).add(" ".join(row["context"].split()))
    for example in examples:
        labelled = {
            " ".join(s.split())
            for s, source in zip(example["sentences"], example["label_sources"])
            if source == "citation"
        }
        # every citing sentence of the pair is labelled (citation contexts are sentences of the paper here)
        assert contexts[(example["paper_id"], example["reference_id"])] <= {
            " ".join(s.split()) for s in example["sentences"]
        }
        assert labelled == contexts[(example["paper_id"], example["reference_id"])]
        assert example["labels"] == [source is not None for source in example["label_sources"]]
        assert set(example["label_sources"]) <= {"citation", "rouge", None}


def test_no_paper_in_two_splits_and_statistics_add_up(built):
    data, dataset, *_ = built
    assert query(data, "SELECT paper_id FROM sciqfs.examples GROUP BY paper_id HAVING count(DISTINCT split) > 1") == []
    stats = {
        row[0]: row[1:]
        for row in query(
            data,
            "SELECT split, examples, sentences, positives_before, positives_after, rouge_added FROM sciqfs.statistics",
        )
    }
    parts = [values for name, values in stats.items() if name != "all"]
    assert tuple(sum(column) for column in zip(*parts)) == stats["all"]
    examples, sentences, before, after, added = stats["all"]
    print(
        f"\ngenerated dump: {examples} examples, {sentences} sentences, positives {before} before / {after} after "
        "the augmentation"
    )
    assert after == before + added and added > 0  # the augmentation adds, never removes
    counted = query(
        data,
        "SELECT count(*), sum(len(sentences)), "
        "sum(list_count(list_filter(label_sources, lambda s: s = 'citation'))) FROM sciqfs.examples",
    )
    assert counted == [(examples, sentences, before)]
    checks = {e.check_name: e.passed for result in dataset for e in result.get_asset_check_evaluations()}
    assert checks == {"labels_follow_their_sources": True, "splits_disjoint_by_citing_paper": True}
    table_1 = metadata(dataset, "sciqfs_release")["table_1"]
    assert "positives_before" in table_1 and "| all |" in table_1


def test_release_holds_every_example_once(built):
    data, *_ = built
    folder = data / "exports" / "sciqfs"
    lines = [
        json.loads(line) for split in ("train", "validation", "test") for line in (folder / f"{split}.jsonl").open()
    ]
    assert (
        len(lines)
        == len({row["example_id"] for row in lines})
        == query(data, "SELECT count(*) FROM sciqfs.examples")[0][0]
    )
    parquet = [pq.read_table(folder / f"{split}.parquet").num_rows for split in ("train", "validation", "test")]
    assert sum(parquet) == len(lines)
    statistics = pq.read_table(folder / "statistics.parquet").to_pylist()
    assert statistics[-1]["split"] == "all" and statistics[-1]["examples"] == len(lines)
    assert (folder / "README.md").read_text().startswith("---\n")


def test_baselines_are_tracked_and_cosine_on_tfidf_beats_random(built):
    data, _, baselines, uri = built
    assert baselines.success
    assert metadata(baselines, "sciqfs_baselines")["training_device"] == "cpu"  # the training_device resource, CPU here
    rows = {
        (c, e): (status, ap, auc, prevalence, run_id, single)
        for c, e, status, ap, auc, prevalence, run_id, single in query(
            data,
            "SELECT classifier, embeddings, status, average_precision_mean, roc_auc_mean, prevalence, run_id, "
            "single_class FROM sciqfs.baselines",
        )
    }
    status, ap, auc, prevalence, run_id, _ = rows[("Cosine Similarity", "TFIDF-Words")]
    assert status == "ok" and ap > 2 * prevalence and auc > 0.6
    assert rows[("LSTM", "SPECTER")][0].startswith("unavailable")
    ran = [row for row in rows.values() if row[0] == "ok"]
    # the untrained rankers of every build (cosine, Euclidean on TF-IDF words and characters) and the trained three
    assert len(ran) == 7 and all(row[4] for row in ran)
    assert rows[("Euclidean Distance", "TFIDF-Chars")][0] == "ok" and rows[("MLP", "TFIDF-Words")][0] == "ok"
    import mlflow

    client = mlflow.tracking.MlflowClient(uri)
    run = client.get_run(run_id)
    assert run.data.tags["classifier"] == "Cosine Similarity" and run.data.metrics[
        "average_precision_mean"
    ] == pytest.approx(ap)
    per_example = query(
        data,
        "SELECT count(*), count(average_precision) FROM sciqfs.baseline_examples "
        "WHERE classifier = 'Cosine Similarity' AND embeddings = 'TFIDF-Words'",
    )
    assert (
        per_example[0][0] - per_example[0][1] == rows[("Cosine Similarity", "TFIDF-Words")][5]
    )  # single-class rows kept
    print("\nsciqfs baselines on the generated dump (classifier, embeddings): status, AP, ROC AUC, prevalence")
    for key, row in sorted(rows.items()):
        print(key, row[:4])
