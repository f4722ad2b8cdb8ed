import json

import pytest
from tables import TINY

from citeworth_models.data import load_sentences
from citeworth_models.metrics import cite_worthy_scores
from citeworth_models.registry import MODELS, load_and_predict, train_and_evaluate

NAMES = ["logistic_regression", "transformer", "bert", "bert_unweighted", "bert_pu", "longformer_ctx", "citebert"]


def test_registry_defaults_follow_appendix_c():
    assert sorted(MODELS) == sorted(NAMES)
    assert MODELS["logistic_regression"].defaults["C"] == 0.1151
    assert MODELS["transformer"].defaults["n_layers"] == 5 and MODELS["transformer"].defaults["epochs"] == 33
    assert MODELS["bert"].defaults["lr"] == 8.075e-6
    assert MODELS["bert_unweighted"].defaults["weighted"] is False
    assert MODELS["longformer_ctx"].defaults["lr"] == 1.112e-5


@pytest.mark.parametrize("name", ["logistic_regression", "bert", "longformer_ctx"])
def test_train_and_evaluate_then_reload(name, table, tiny_encoder, tmp_path):
    params = {} if name == "logistic_regression" else TINY
    seen = []
    result = train_and_evaluate(
        name, table, tmp_path, encoder_dir=tiny_encoder, params=params, on_epoch=lambda e, f: seen.append(f)
    )
    assert set(result) == {"params", "dev_f1_per_epoch", "test", "predicted_positive_share", "artifact_dir"}
    assert 0.0 <= result["predicted_positive_share"] <= 1.0
    assert result["dev_f1_per_epoch"] == seen
    assert json.loads((tmp_path / "result.json").read_text())["model"] == name
    test = load_sentences(table, "test")
    if name == "longformer_ctx":
        from citeworth_models.data import load_paragraphs

        predicted = [
            y
            for ys in load_and_predict(name, result["artifact_dir"], [s for s, _ in load_paragraphs(table, "test")])
            for y in ys
        ]
    else:
        predicted = load_and_predict(name, result["artifact_dir"], [t for t, _ in test])
    assert cite_worthy_scores([y for _, y in test], predicted) == result["test"]


def test_builds_tiny_encoder_when_none_given(table, tmp_path):
    result = train_and_evaluate("bert", table, tmp_path, params={**TINY, "epochs": 1})
    assert (tmp_path / "tiny_encoder" / "config.json").exists()
    assert len(result["dev_f1_per_epoch"]) == 1
