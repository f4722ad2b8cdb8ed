"""CiteBert (§6, "LMCite"): masked-language modelling and cite-worthiness trained jointly.

Each batch incurs an MLM loss (on a masked copy of the sentences) and a
cite-worthiness loss (pooler + classifier on [CLS] of the unmasked
sentences); the two are summed. save_encoder() writes a plain
save_pretrained checkpoint for later fine-tuning on downstream tasks.
"""

from __future__ import annotations

from pathlib import Path

import torch
from torch import nn
from transformers import AutoModelForMaskedLM, AutoTokenizer

from citeworth_models import checkpoint
from citeworth_models.losses import class_weights, weighted_cross_entropy
from citeworth_models.metrics import cite_worthy_f1
from citeworth_models.sentence_classifier import SentenceClassifier, hidden_layer_head
from citeworth_models.training import (
    pick_device,
    seed_everything,
    train_with_params,
)

# The paper gives no separate CiteBert hyperparameters; SciBERT's (Appendix C.6) plus the usual 15% masking.
DEFAULTS = {**SentenceClassifier.DEFAULTS, "batch_size": 4, "lr": 1.351e-6, "mlm_probability": 0.15}


def mask_tokens(input_ids: torch.Tensor, special: torch.Tensor, tokenizer, probability: float):
    """BERT masking: pick tokens with `probability`; 80% [MASK], 10% random, 10% kept. Labels -100 elsewhere."""
    labels = input_ids.clone()
    chosen = torch.bernoulli(torch.full(labels.shape, probability, device=labels.device)).bool() & ~special
    labels[~chosen] = -100
    masked = input_ids.clone()
    replace = torch.bernoulli(torch.full(labels.shape, 0.8, device=labels.device)).bool() & chosen
    masked[replace] = tokenizer.mask_token_id
    randomise = torch.bernoulli(torch.full(labels.shape, 0.5, device=labels.device)).bool() & chosen & ~replace
    masked[randomise] = torch.randint(len(tokenizer), labels.shape, device=labels.device)[randomise]
    return masked, labels


class CiteBertNetwork(nn.Module):
    """Masked-LM backbone plus a [CLS] pooler and classifier."""

    def __init__(self, mlm: nn.Module, dropout: float):
        super().__init__()
        self.mlm = mlm
        self.head = hidden_layer_head(mlm.config.hidden_size, nn.Tanh(), dropout)

    def classify(self, input_ids, attention_mask):
        out = self.mlm(input_ids=input_ids, attention_mask=attention_mask, output_hidden_states=True)
        return self.head(out.hidden_states[-1][:, 0])

    def mlm_loss(self, input_ids, attention_mask, labels):
        return self.mlm(input_ids=input_ids, attention_mask=attention_mask, labels=labels).loss


class CiteBert(SentenceClassifier):
    """Joint MLM + cite-worthiness model with the shared fit/predict/save/load API."""

    DEFAULTS = DEFAULTS

    def __init__(self, encoder_dir=None, params: dict | None = None):
        super().__init__(None, params)
        self.device = pick_device(self.params["device"])
        if encoder_dir is not None:
            seed_everything(self.params["seed"])
            self.tokenizer = AutoTokenizer.from_pretrained(encoder_dir)
            self.network = CiteBertNetwork(AutoModelForMaskedLM.from_pretrained(encoder_dir), self.params["dropout"])

    def _logits(self, texts) -> torch.Tensor:
        return self.network.classify(*self._encode(texts))

    def fit(self, train, dev=None, on_epoch=None) -> list[float]:
        """Summed MLM + (class-weighted) cite-worthiness loss on every batch."""
        seed_everything(self.params["seed"])
        weight = class_weights([y for _, y in train]) if self.params["weighted"] else None

        def batch_loss(batch):
            texts, labels = zip(*batch)
            encoded = self.tokenizer(
                list(texts),
                padding=True,
                truncation=True,
                max_length=self.params["max_length"],
                return_tensors="pt",
                return_special_tokens_mask=True,
            )
            ids, mask = encoded["input_ids"].to(self.device), encoded["attention_mask"].to(self.device)
            special = encoded["special_tokens_mask"].bool().to(self.device) | (mask == 0)
            masked, mlm_labels = mask_tokens(ids, special, self.tokenizer, self.params["mlm_probability"])
            cite = weighted_cross_entropy(
                self.network.classify(ids, mask), torch.tensor(labels, device=self.device), weight
            )
            return cite + self.network.mlm_loss(masked, mask, mlm_labels)

        return train_with_params(
            self.network,
            list(train),
            batch_loss,
            self.params,
            self.device,
            (lambda: cite_worthy_f1([y for _, y in dev], self.predict([x for x, _ in dev]))) if dev else None,
            on_epoch,
        )

    def save_encoder(self, directory) -> Path:
        """Only the language model + tokenizer, reloadable with AutoModel/AutoModelForMaskedLM."""
        directory = Path(directory)
        self.network.mlm.save_pretrained(directory)
        self.tokenizer.save_pretrained(directory)
        return directory

    def save(self, directory) -> Path:
        return checkpoint.save_pretrained_parts(
            directory, self.network.mlm, self.tokenizer, self.network.head, self.params
        )

    @classmethod
    def load(cls, directory) -> CiteBert:
        directory = Path(directory)
        model = cls(directory / checkpoint.ENCODER_DIR, checkpoint.load_params(directory)["params"])
        checkpoint.load_head(directory, model.network.head)
        return model
