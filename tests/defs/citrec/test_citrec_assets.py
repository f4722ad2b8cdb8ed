"""The citrec assets end to end on the generated answerable contexts: data set, every model trained and saved,
evaluated into MLflow (the default SQLite store under the data root; MLflow 3 refuses new file stores) and the
warehouse, with a real Dagster instance."""

import dagster as dg
import duckdb
import mlflow
import pytest

from citeworth_assets.defs.citrec.assets import citrec_assets
from citeworth_assets.defs.citrec.definitions import citrec_job
from citeworth_assets.defs.citrec.settings import CitrecResource
from citeworth_assets.defs.warehouse.assets import build_sql_model_assets
from citeworth_assets.lib.citrec.contexts import read_catalogue
from citeworth_assets.lib.citrec.dataset import CitrecDatasetSettings, dataset_from_csv
from citeworth_assets.resources import PlatformResource
from citeworth_assets.samples.citrec import write_citrec_sample
from citeworth_models.citrec.evaluate import random_baseline
from citeworth_models.citrec.nlp import parser_available
from citeworth_models.citrec.registry import MODELS, PARSER_MODELS
from citeworth_models.citrec.store import latest_index

pytestmark = pytest.mark.slow  # fits eight models and parses every context; about 30 s

MODEL_NAMES = [name for name in MODELS if parser_available() or name not in PARSER_MODELS]


def citrec_views():
    return [a for a in build_sql_model_assets() if a.key.path[0] == "citrec"]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Write the sample as the arXiv export would, then materialize the citrec job's assets."""
    tmp = tmp_path_factory.mktemp("citrec_e2e")
    data = tmp / "data"
    sample = write_citrec_sample(data / "exports" / "arxiv")
    resources = {
        "citeworth": PlatformResource(dumps=str(tmp), data=str(data)),
        "citrec": CitrecResource(
            name="generated", min_contexts=5, min_citing_papers=3, split_year=2016, models=MODEL_NAMES
        ),
    }
    (tmp / "dagster_home").mkdir()
    with dg.instance_for_test(temp_dir=str(tmp / "dagster_home")) as instance:
        result = dg.materialize([*citrec_assets, *citrec_views()], resources=resources, instance=instance)
        keys = [a.key for a in citrec_assets] + [key for view in citrec_views() for key in view.keys]
        materialized = {key.to_user_string() for key in keys if instance.get_latest_materialization_event(key)}
    return result, data, tmp, sample, materialized


def test_every_citrec_asset_materializes_into_the_instance(built):
    result, _, _, _, materialized = built
    assert result.success
    assert {
        "citrec_dataset",
        "citrec_models",
        "citrec_evaluation",
        "citrec/results",
        "citrec/dataset_statistics",
    } <= materialized
    metadata = result.asset_materializations_for_node("citrec_evaluation")[0].metadata
    assert metadata["plot"].value.startswith("![metrics against k](data:image/png;base64,iVBOR")  # a PNG, inline
    assert set(metadata["runs"].value) == set(MODEL_NAMES)


def test_every_model_beats_random_widely_and_bow_finds_most_items(built):
    _, data, _, sample, _ = built
    dataset = dataset_from_csv(
        [sample.contexts_path], CitrecDatasetSettings("generated", 5, 3, 2016), read_catalogue(sample.catalogue_path)
    )
    chance = random_baseline(dataset)
    with duckdb.connect(str(data / "warehouse.duckdb"), read_only=True) as connection:
        rows = connection.execute(
            "SELECT model, recall_at_10, mrr_at_10, items FROM citrec.summary WHERE dataset = 'generated'"
        ).fetchall()
        statistics = connection.execute(
            "SELECT candidates, test_items, read_issues FROM citrec.dataset_statistics"
        ).fetchall()
        long = connection.execute("SELECT count(*), count(DISTINCT run_id) FROM citrec.results").fetchone()
    assert statistics == [(len(dataset.candidates), len(dataset.test), 2)]  # the sample's two damaged lines
    assert long == (len(MODEL_NAMES) * 40, len(MODEL_NAMES))  # 4 metrics x 10 cut-offs per model, one run each
    scores = {model: (recall, mrr, items) for model, recall, mrr, items in rows}
    assert set(scores) == set(MODEL_NAMES)
    for model, (recall, mrr, _) in scores.items():
        assert recall > 2 * chance["recall"][9] and mrr > 3 * chance["mrr"][9], model
    assert scores["bow"][0] > 0.8 and scores["bow"][2] == len(dataset.test)


def test_mlflow_has_one_run_per_model_with_settings_metrics_per_cutoff_and_the_plot(built):
    _, data, _, _, _ = built
    client = mlflow.tracking.MlflowClient(f"sqlite:///{data / 'mlflow.db'}")  # the default store, in tmp
    experiment = client.get_experiment_by_name("citrec")
    runs = client.search_runs([experiment.experiment_id])
    assert sorted(run.data.tags["citrec_model"] for run in runs) == sorted(MODEL_NAMES)
    bow = next(run for run in runs if run.data.tags["citrec_model"] == "bow")
    assert bow.data.params["split_year"] == "2016" and bow.data.params["min_citing_papers"] == "3"
    assert {f"{m}_at_{k}" for m in ("recall", "mrr", "map", "ndcg") for k in range(1, 11)} <= set(bow.data.metrics)
    assert [m.step for m in client.get_metric_history(bow.info.run_id, "ndcg")] == list(range(1, 11))
    assert [a.path for a in client.list_artifacts(bow.info.run_id, "plots")] == ["plots/metrics_against_k.png"]
    assert (data / "exports" / "citrec" / "generated" / "metrics_against_k.png").stat().st_size > 10_000


def test_the_saved_index_answers_a_context_and_a_rebuild_replaces_it(built):
    _, data, _, sample, _ = built
    index = latest_index(data / "models" / "citrec")
    assert index.manifest["dataset"] == "generated" and index.models == MODEL_NAMES
    work = next(w for w in sample.works if w.id in index.candidates)
    scores = index.load("bow").score([f"the {work.phrase} MAINCIT for {work.topic[0]}"])[0]
    assert index.candidates[scores.argmax()] == work.id
    assert not [p for p in (data / "models" / "citrec").iterdir() if p.name.startswith(".")]  # no staging left


def test_the_job_selects_the_domain_and_its_views():
    from citeworth_assets.definitions import build_definitions

    job = build_definitions().resolve_job_def(citrec_job.name)
    keys = {key.to_user_string() for key in job.asset_layer.selected_asset_keys}
    assert {"citrec_dataset", "citrec_models", "citrec_evaluation", "citrec/results", "citrec/summary"} <= keys
