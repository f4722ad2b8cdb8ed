from citeworth_models.data import load_sentences
from citeworth_models.logistic import LogisticModel
from citeworth_models.metrics import cite_worthy_f1


def test_logistic_learns_cues_and_round_trips(table, tmp_path):
    model = LogisticModel()
    assert model.params["C"] == 0.1151 and model.params["class_weight"] == "balanced"
    dev_f1 = model.fit(load_sentences(table, "train"), load_sentences(table, "dev"))
    test = load_sentences(table, "test")
    texts = [t for t, _ in test]
    predicted = model.predict(texts)
    assert len(dev_f1) == 1
    assert cite_worthy_f1([y for _, y in test], predicted) > 0.8
    assert LogisticModel.load(model.save(tmp_path / "lr")).predict(texts) == predicted
