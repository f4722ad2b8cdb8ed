"""Sparse models on the generated, answerable corpus: each beats random rankings by far; runner and registry."""

import pytest

from citeworth_assets.lib.citrec.contexts import read_catalogue
from citeworth_assets.lib.citrec.dataset import CitrecDatasetSettings, dataset_from_csv
from citeworth_assets.lib.read_issues import IssueLog
from citeworth_assets.samples.citrec import write_citrec_sample
from citeworth_models.citrec.evaluate import (
    evaluate_models,
    random_baseline,
    result_schema,
)
from citeworth_models.citrec.fos import FieldMatcher, FosModel, boost_one_up
from citeworth_models.citrec.registry import MODELS, create_model
from citeworth_models.citrec.text import merge_marker_groups

SPARSE = ("bow", "bm25", "fos", "bow+fosboost")


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    sample = write_citrec_sample(tmp_path_factory.mktemp("citrec"))
    catalogue = read_catalogue(sample.catalogue_path)
    issues = IssueLog()
    dataset = dataset_from_csv(
        [sample.contexts_path], CitrecDatasetSettings("generated", 5, 3, 2016), catalogue, issues
    )
    field_names = sorted({f for info in catalogue.values() for f in info.fields_of_study})
    return dataset, field_names, issues


@pytest.fixture(scope="module")
def results(generated):
    dataset, field_names, _ = generated
    table = evaluate_models([create_model(name, field_names) for name in SPARSE], dataset)
    return {(r["model"], r["metric"], r["k"]): r["value"] for r in table.to_pylist()}, table


def test_generated_dataset_is_usable(generated):
    dataset, _, issues = generated
    assert issues.counts == {"bad_context_line": 2}  # the generator's damaged rows, each counted once
    assert len(dataset.candidates) > 50 and len(dataset.test) > 200
    assert not dataset.train_citing & dataset.test_citing


@pytest.mark.parametrize("name", SPARSE)
def test_every_model_beats_random_by_far(generated, results, name):
    dataset, _, _ = generated
    random = random_baseline(dataset)
    values, _ = results
    for metric in ("recall", "mrr", "map", "ndcg"):
        assert values[(name, metric, 10)] > 2 * random[metric][9], metric


def test_bow_recovers_a_clear_majority_at_10(results):
    values, table = results
    assert values[("bow", "recall", 10)] > 0.8
    assert table.schema == result_schema()
    assert table.num_rows == len(SPARSE) * 4 * 10
    # recall and NDCG cannot fall as k grows
    for k in range(1, 10):
        assert values[("bow", "recall", k)] <= values[("bow", "recall", k + 1)]


def test_fosboost_is_bow_with_maximal_field_overlap_moved_up(generated):
    dataset, field_names, _ = generated
    bow, boost = create_model("bow"), create_model("bow+fosboost", field_names)
    texts = dataset.candidate_texts()
    bow.fit(texts), boost.fit(texts)
    queries = [item.context.text for item in dataset.test[:50]]
    changed = 0
    for plain, wider, boosted in zip(bow.rank(queries, 10), bow.rank(queries, 11), boost.rank(queries, 10)):
        assert set(boosted.tolist()) <= set(wider.tolist())  # only moves within the BoW ranking, one step
        old = {c: i for i, c in enumerate(wider.tolist())}
        assert all(i >= old[c] - 1 for i, c in enumerate(boosted.tolist()))  # nobody climbs more than one place
        changed += plain.tolist() != boosted.tolist()
    assert changed > 0


def test_boost_one_up():
    assert boost_one_up([0, 1, 2, 3], {2}) == [0, 2, 1, 3]
    assert boost_one_up([0, 1, 2, 3], {1, 2}) == [1, 2, 0, 3]  # both move one up, their order kept
    assert boost_one_up([0, 1, 2], {0}) == [0, 1, 2]
    assert boost_one_up([0, 1, 2], set()) == [0, 1, 2]


def test_field_matching_and_jaccard():
    matcher = FieldMatcher(["Computer Science", "Information retrieval", "Information"])
    assert matcher.fields("Work in information retrieval and computer science CIT .") == {
        "information retrieval",
        "computer science",
    }
    assert matcher.fields("informational") == set()
    model = FosModel(["Information retrieval"]).fit([["physics and information retrieval"], ["biology"], ["nothing"]])
    scores = model.score(["information retrieval MAINCIT", "no field here"])
    assert scores[0].tolist() == pytest.approx([0.5, 0.0, 0.0])  # |{ir}| / |{ir, physics}|
    assert scores[1].tolist() == [0.0, 0.0, 0.0]


def test_marker_groups_merge():
    assert merge_marker_groups("as in CIT , CIT , MAINCIT .") == "as in MAINCIT ."
    assert merge_marker_groups("Wordnet CIT MAINCIT lexical CIT ; CIT") == "Wordnet MAINCIT lexical CIT"


def test_registry_is_the_list_and_unknown_names_fail():
    assert set(SPARSE) <= set(MODELS)
    with pytest.raises(KeyError, match="unknown citation recommendation model"):
        create_model("nope")
    assert create_model("bow+fosboost").name == "bow+fosboost"


def test_bm25_and_bow_score_shapes():
    texts = [["sparse lattice estimator"], ["quantum vortex"]]
    for name in ("bow", "bm25"):
        model = create_model(name).fit(texts)
        scores = model.score(["a vortex MAINCIT", "unrelated words"])
        assert scores.shape == (2, 2)
        assert scores[0, 1] > 0 and scores[0, 0] == 0 and not scores[1].any()
        assert model.rank(["unrelated words"])[0].size == 0  # no evidence, no recommendation


@pytest.mark.parametrize("name", SPARSE)
def test_empty_vocabulary_and_empty_dataset_do_not_crash(name):
    from citeworth_assets.lib.citrec.dataset import CitrecDatasetSettings, EvalDataset
    from citeworth_models.citrec.evaluate import evaluate_model

    model = create_model(name).fit([["the of and"], ["a an"]])  # stop words only: no term survives
    assert not model.score(["the MAINCIT"]).any()
    rows = evaluate_model(create_model(name), EvalDataset(CitrecDatasetSettings("empty"), [], {}, []))
    assert len(rows) == 40 and all(r["value"] == 0 and r["items"] == 0 for r in rows)
