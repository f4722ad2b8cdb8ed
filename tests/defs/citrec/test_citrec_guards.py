"""What the citrec assets refuse: no context export yet, an unknown model, an index trained on other candidates;
and what they accept: an export without a catalogue (citing years from the arXiv ids)."""

import dagster as dg

from citeworth_assets.defs.citrec.assets import (
    citrec_dataset,
    citrec_evaluation,
    citrec_models,
)
from citeworth_assets.defs.citrec.checks import citrec_split_is_clean
from citeworth_assets.defs.citrec.settings import CitrecResource
from citeworth_assets.resources import PlatformResource
from citeworth_assets.samples.citrec import CitrecSampleSettings, write_citrec_sample


def _resources(tmp_path, **citrec):
    settings = {"name": "generated", "min_citing_papers": 3, "models": ["bow"], **citrec}
    return {
        "citeworth": PlatformResource(dumps=str(tmp_path), data=str(tmp_path / "data")),
        "citrec": CitrecResource(**settings),
    }


def _error(result) -> str:
    failure = next(event for event in result.all_events if event.is_step_failure)
    return (
        failure.step_failure_data.error.cause.message
        if failure.step_failure_data.error.cause
        else failure.step_failure_data.error.message
    )


def test_without_the_export_the_data_set_names_the_asset_to_materialize(tmp_path):
    result = dg.materialize([citrec_dataset], resources=_resources(tmp_path), raise_on_error=False)
    assert not result.success and "materialize arxiv_context_export first" in _error(result)


def test_an_unknown_model_fails_before_training(tmp_path):
    write_citrec_sample(tmp_path / "data" / "exports" / "arxiv", CitrecSampleSettings(works=20, citing_papers=60))
    result = dg.materialize(
        [citrec_dataset, citrec_models], resources=_resources(tmp_path, models=["bow", "tfidf2"]), raise_on_error=False
    )
    assert not result.success and "unknown ['tfidf2']" in _error(result)


def test_years_come_from_arxiv_ids_without_a_catalogue_and_a_stale_index_is_refused(tmp_path):
    sample = write_citrec_sample(
        tmp_path / "data" / "exports" / "arxiv", CitrecSampleSettings(works=20, citing_papers=60)
    )
    sample.catalogue_path.unlink()
    built = dg.materialize([citrec_dataset, citrec_models, citrec_split_is_clean], resources=_resources(tmp_path))
    (check,) = built.get_asset_check_evaluations()
    assert check.passed and check.metadata["citing_papers_in_both_splits"].value == 0
    metadata = built.asset_materializations_for_node("citrec_dataset")[0].metadata
    assert metadata["candidates"].value > 5 and metadata["catalogue"].value.startswith("none")
    # the data set is rebuilt with other thresholds, but the models are not retrained
    dg.materialize([citrec_dataset], resources=_resources(tmp_path, min_contexts=12))
    result = dg.materialize([citrec_evaluation], resources=_resources(tmp_path, min_contexts=12), raise_on_error=False)
    assert not result.success and "materialize citrec_models again" in _error(result)


def test_the_split_check_fails_on_a_citing_paper_in_both_splits(tmp_path):
    from citeworth_assets.lib import lake
    from citeworth_assets.lib.citrec import tables

    resources = _resources(tmp_path)
    lake_dir = resources["citeworth"].settings.lake
    row = {
        "dataset": "generated",
        "cited": "w1",
        "adjacent": [],
        "citing": "p1",
        "citing_arxiv": None,
        "text": "t MAINCIT",
        "source_file": "f",
        "line": 1,
    }
    contexts = [
        {**row, "split": "train"},
        {**row, "split": "test"},
        {**row, "split": "test", "citing": "p2", "cited": "w2"},
    ]
    lake.write_partition(lake_dir, "citrec_contexts", tables.context_schema(), contexts, "generated", tables.DIMENSION)
    lake.write_partition(
        lake_dir,
        "citrec_candidates",
        tables.candidate_schema(),
        [{"dataset": "generated", "work": "w1"}],
        "generated",
        tables.DIMENSION,
    )
    result = citrec_split_is_clean(**resources)
    assert not result.passed
    assert (
        result.metadata["citing_papers_in_both_splits"].value == 1
        and result.metadata["test_items_citing_no_candidate"].value == 1
    )
