"""End to end: a generated S2ORC dump through the shard jobs, the cited-abstract catalogue and the ROUGE-SciQFS
assets on a real Dagster instance, with a file MLflow store; then the warehouse views."""

import json

import dagster as dg
import duckdb
import pyarrow.parquet as pq
import pytest

from citeworth_assets.definitions import build_definitions
from citeworth_assets.defs.s2orc.partitions import s2orc_shards
from citeworth_assets.instance import dagster_instance
from citeworth_assets.lib.s2orc.shards import discover_shards
from citeworth_assets.lib.settings import Settings
from citeworth_assets.resources import CiteworthSettings
from citeworth_assets.samples.s2orc import generate_sample_dump

pytestmark = pytest.mark.slow  # materializes the graph end to end; `make test-fast` skips it

VIEWS = ("papers", "references", "citations", "examples", "statistics", "baselines", "baseline_examples")
QUIET = {"loggers": {"console": {"config": {"log_level": "WARNING"}}}}
# Two CPU cores shared: one embedding for every classifier, one epoch of tiny networks (they run, they are not tuned).
FAST_BASELINES = {"embeddings": ["TFIDF-Words", "SPECTER"], "epochs": 1, "hidden": 8, "batch_size": 32}


def build(root, dumps, mlflow_uri):
    """Shard jobs, the catalogue, the SciQFS dataset and baselines jobs, then the sciqfs views."""
    data = root / "data"
    settings = Settings.resolve(dumps=str(dumps), data=str(data), mlflow_uri=mlflow_uri)
    settings.require_data()
    instance = dagster_instance(settings)
    defs = build_definitions(CiteworthSettings(**settings.values()))
    keys = [shard.key for shard in discover_shards(dumps)]
    instance.add_dynamic_partitions(s2orc_shards.name, keys)
    for key in keys:
        assert defs.resolve_job_def("s2orc_shard_job").execute_in_process(partition_key=key, instance=instance, run_config=QUIET).success
    assert defs.resolve_job_def("citesum_catalogue_job").execute_in_process(instance=instance, run_config=QUIET).success
    dataset = defs.resolve_job_def("sciqfs_dataset_job").execute_in_process(instance=instance, run_config=QUIET)
    baselines = defs.resolve_job_def("sciqfs_baselines_job").execute_in_process(
        instance=instance, run_config={**QUIET, "ops": {"sciqfs_baselines": {"config": FAST_BASELINES}}}
    )
    views = [dg.AssetKey(["sciqfs", name]) for name in VIEWS]
    refreshed = defs.resolve_implicit_global_asset_job_def().execute_in_process(instance=instance, run_config=QUIET, asset_selection=views)
    assert refreshed.success
    return data, dataset, baselines, mlflow_uri


def metadata(result, key: str) -> dict:
    for event in result.get_asset_materialization_events():
        materialization = event.step_materialization_data.materialization
        if materialization.asset_key.to_user_string() == key:
            return {name: value.value for name, value in materialization.metadata.items()}
    raise KeyError(key)


def query(data, sql):
    with duckdb.connect(str(data / "warehouse.duckdb"), read_only=True) as connection:
        return connection.execute(sql).fetchall()


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("sciqfs")
    generate_sample_dump(root / "dumps", papers=60, shards=2, seed=5)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DAGSTER_HOME", str(root / "dagster_home"))
        yield build(root, root / "dumps", f"sqlite:///{root / 'mlflow.db'}")


def test_every_citing_sentence_is_labelled_and_augmentation_only_adds(built):
    data, dataset, *_ = built
    examples = pq.read_table(data / "lake" / "sciqfs_examples").to_pylist()
    assert examples and metadata(dataset, "sciqfs_examples")["examples"] == len(examples)
    citations = pq.read_table(data / "lake" / "sciqfs_citations").to_pylist()
    contexts = {}
    for row in citations:
        contexts.setdefault((row["paper_id"], row["reference_id"]), set()).add(" ".join(row["context"].split()))
    for example in examples:
        labelled = {" ".join(s.split()) for s, source in zip(example["sentences"], example["label_sources"]) if source == "citation"}
        # every citing sentence of the pair is labelled (citation contexts are sentences of the paper here)
        assert contexts[(example["paper_id"], example["reference_id"])] <= {" ".join(s.split()) for s in example["sentences"]}
        assert labelled == contexts[(example["paper_id"], example["reference_id"])]
        assert example["labels"] == [source is not None for source in example["label_sources"]]
        assert set(example["label_sources"]) <= {"citation", "rouge", None}


def test_no_paper_in_two_splits_and_statistics_add_up(built):
    data, dataset, *_ = built
    assert query(data, "SELECT paper_id FROM sciqfs.examples GROUP BY paper_id HAVING count(DISTINCT split) > 1") == []
    stats = {row[0]: row[1:] for row in query(data, "SELECT split, examples, sentences, positives_before, positives_after, rouge_added FROM sciqfs.statistics")}
    parts = [values for name, values in stats.items() if name != "all"]
    assert tuple(sum(column) for column in zip(*parts)) == stats["all"]
    examples, sentences, before, after, added = stats["all"]
    assert after == before + added and added > 0  # the augmentation adds, never removes
    counted = query(data, "SELECT count(*), sum(len(sentences)), sum(list_count(list_filter(label_sources, lambda s: s = 'citation'))) FROM sciqfs.examples")
    assert counted == [(examples, sentences, before)]
    table_1 = metadata(dataset, "sciqfs_examples")["table_1"]
    assert "positives_before" in table_1 and "| all |" in table_1


def test_release_holds_every_example_once(built):
    data, dataset, *_ = built
    folder = data / "exports" / "sciqfs"
    lines = [json.loads(line) for split in ("train", "validation", "test") for line in (folder / f"{split}.jsonl").open()]
    assert len(lines) == len({row["example_id"] for row in lines}) == query(data, "SELECT count(*) FROM sciqfs.examples")[0][0]
    assert pq.read_table(folder / "sciqfs.parquet").num_rows == len(lines)


def test_baselines_are_tracked_and_cosine_on_tfidf_beats_random(built):
    data, _, baselines, uri = built
    assert baselines.success
    rows = {(c, e): (status, ap, auc, prevalence, run_id, single) for c, e, status, ap, auc, prevalence, run_id, single in query(
        data, "SELECT classifier, embeddings, status, average_precision_mean, roc_auc_mean, prevalence, run_id, single_class FROM sciqfs.baselines")}  # fmt: skip
    status, ap, auc, prevalence, run_id, _ = rows[("Cosine Similarity", "TFIDF-Words")]
    assert status == "ok" and ap > 2 * prevalence and auc > 0.6
    assert rows[("LSTM", "SPECTER")][0].startswith("unavailable")
    ran = [row for row in rows.values() if row[0] == "ok"]
    assert len(ran) == 5 and all(row[4] for row in ran)
    import mlflow

    client = mlflow.tracking.MlflowClient(uri)
    run = client.get_run(run_id)
    assert run.data.tags["classifier"] == "Cosine Similarity" and run.data.metrics["average_precision_mean"] == pytest.approx(ap)
    per_example = query(data, "SELECT count(*), count(average_precision) FROM sciqfs.baseline_examples WHERE classifier = 'Cosine Similarity' AND embeddings = 'TFIDF-Words'")
    assert per_example[0][0] - per_example[0][1] == rows[("Cosine Similarity", "TFIDF-Words")][5]  # single-class rows kept
    print("\nsciqfs baselines on the generated dump (classifier, embeddings): status, AP, ROC AUC, prevalence")
    for key, row in sorted(rows.items()):
        print(key, row[:4])
