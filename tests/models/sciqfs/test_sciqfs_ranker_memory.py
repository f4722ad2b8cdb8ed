"""The untrained rankers of ROUGE-SciQFS Table 3 score one document at a time (issue 33 item 4): their memory follows
the largest document, not the number of documents scored, where the dense TF-IDF vectors of every test document
(and their sentence-query pairs, which only the trained classifiers read) used to be held at once."""

import random
import tracemalloc

import pytest

from citeworth_models.sciqfs.baselines import BaselineSettings, run_baselines
from citeworth_models.sciqfs.documents import Document
from citeworth_models.sciqfs.embeddings import tfidf_chars, tfidf_words
from citeworth_models.sciqfs.metrics import example_metrics
from citeworth_models.sciqfs.rankers import cosine_scores, euclidean_scores

RANKING = BaselineSettings(("TFIDF-Words", "TFIDF-Chars"), ("cosine", "euclidean"))


def generated(count: int, seed: int) -> list[Document]:
    """Documents of 25 sentences over a large vocabulary, with the faults of real text: a sentence repeated, a title
    with a newline, a non-ASCII word, an empty-looking sentence of punctuation."""
    rng = random.Random(seed)
    vocabulary = [f"{rng.choice('bcdfgklmnprstvz')}{rng.randrange(10**6):x}" for _ in range(6000)] + ["Schrödinger"]
    found = []
    for number in range(count):
        sentences = [" ".join(rng.choices(vocabulary, k=14)) for _ in range(23)]
        sentences += [sentences[0], "Results \n of the\nsurvey ;;"]  # a repeated span, newlines
        labels = [rng.random() < 0.3 for _ in sentences]
        found.append(Document(f"doc{seed}_{number}", sentences, " ".join(rng.choices(vocabulary, k=8)), labels))
    return found


def peak_bytes(train, test) -> tuple[int, list[dict]]:
    tracemalloc.start()
    try:
        rows = run_baselines(train, test, RANKING)
        return tracemalloc.get_traced_memory()[1], rows
    finally:
        tracemalloc.stop()


@pytest.mark.slow  # a few seconds: make test runs it, make test-fast leaves it out
def test_ranker_memory_does_not_grow_with_the_documents_scored():
    train = generated(20, seed=1)
    few, many = generated(10, seed=2), generated(60, seed=3)
    few_peak, _ = peak_bytes(train, few)
    many_peak, rows = peak_bytes(train, many)
    print(f"\npeak traced memory: 10 documents {few_peak / 2**20:.1f} MiB, 60 documents {many_peak / 2**20:.1f} MiB")
    assert many_peak < 1.5 * few_peak  # (held all at once, 60 documents took about 6 times 10's)
    assert {(row["classifier"], row["embeddings"]) for row in rows} == {
        (c, e) for c in ("Cosine Similarity", "Euclidean Distance") for e in ("TFIDF-Words", "TFIDF-Chars")
    }


def test_scores_are_those_of_each_document_alone():
    train, test = generated(8, seed=4), generated(5, seed=5)
    rows = run_baselines(train, test, RANKING)
    embedder = tfidf_chars().fit([s for d in train for s in d.sentences] + [d.query for d in train])
    cosine = next(r for r in rows if (r["classifier"], r["embeddings"]) == ("Cosine Similarity", "TFIDF-Chars"))
    euclid = next(r for r in rows if (r["classifier"], r["embeddings"]) == ("Euclidean Distance", "TFIDF-Chars"))
    for doc, cos_row, euc_row in zip(test, cosine["per_example"], euclid["per_example"]):
        vectors = embedder.embed(doc.sentences + [doc.query])
        alone_cos, alone_euc = cosine_scores(vectors[:-1], vectors[-1]), euclidean_scores(vectors[:-1], vectors[-1])
        assert cos_row == example_metrics(doc.example_id, doc.labels, alone_cos)
        assert euc_row == example_metrics(doc.example_id, doc.labels, alone_euc)


def test_tfidf_counted_text_by_text_is_scikit_learns_fit():
    """The TF-IDF embedders count document frequencies one text at a time; vocabulary, idf and vectors are those of
    scikit-learn's own fit (which holds the count matrix of every training text)."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    texts = [s for doc in generated(6, seed=6) for s in doc.sentences] + ["", ";;", "Schrödinger's cat\nis HERE"]
    for embedder in (tfidf_words(), tfidf_chars()):
        reference = TfidfVectorizer(analyzer=embedder.analyzer, ngram_range=embedder.ngram_range).fit(texts)
        embedder.fit(iter(texts))
        assert embedder.vectorizer.vocabulary_ == reference.vocabulary_
        assert (embedder.vectorizer.idf_ == reference.idf_).all()
        assert (embedder.embed(texts[:40]) == reference.transform(texts[:40]).astype("float32").toarray()).all()
