"""CITES on SciTLDR (CiteSum §4.1, Table 6): where the user's SciTLDR download lies, the style rules between
CiteSum's "REF ..." summaries and SciTLDR's "We ..." ones, and the few-shot samples.

Layout under the dump root (the SciTLDR repository's ``SciTLDR-Data`` folders, as downloaded)::

    <dumps>/scitldr/SciTLDR-A/{train,dev,test}.jsonl
    <dumps>/scitldr/SciTLDR-AIC/{train,dev,test}.jsonl
    <dumps>/scitldr/SciTLDR-FullText/{train,dev,test}.jsonl

The paper feeds the abstract to every method on SciTLDR (App. B), so the transfer rows read SciTLDR-A; the other two
folders are recognised and named in the documentation, not scored."""

from __future__ import annotations

import random
import re
from pathlib import Path

from citeworth_assets.lib.citesum.baselines import read_tldr_jsonl

SCITLDR_SETS = {"scitldr-a": "SciTLDR-A", "scitldr-aic": "SciTLDR-AIC", "scitldr-full": "SciTLDR-FullText"}
SPLITS = ("train", "dev", "test")
PROMPT = "This paper"  # §4.1 prompting: the decoder starts every summary with it
FEW_SHOT_SIZES = (("CITES", 32), ("BART", 128), ("CITES", 128))  # Table 6's few-shot rows
SEEDS = 3  # "Our few-shot results are averaged over 3 runs" (Table 8; the same for Table 6)
GOLD_TOKENS = 3  # the zero-shot upper bound: the first 3 tokens of the reference as the prompt

_REF = re.compile(r"\bREF\b")
_LEADING_WE = re.compile(r"^\s*We\b")


def scitldr_folder(dumps: Path, eval_set: str = "scitldr-a") -> Path:
    return Path(dumps) / "scitldr" / SCITLDR_SETS[eval_set]


def missing_reason(dumps: Path, eval_set: str = "scitldr-a") -> str | None:
    """Why SciTLDR cannot be read (None when its three files are there)."""
    folder = scitldr_folder(dumps, eval_set)
    missing = [f"{split}.jsonl" for split in SPLITS if not (folder / f"{split}.jsonl").is_file()]
    if not missing:
        return None
    return (
        f"no SciTLDR data: {folder} lacks {', '.join(missing)} (download the SciTLDR repository's "
        f"SciTLDR-Data/{SCITLDR_SETS[eval_set]} folder to <dumps>/scitldr/)"
    )


def read_split(dumps: Path, split: str, eval_set: str = "scitldr-a") -> list[tuple[str, list[str]]]:
    """(source, references) of one split: the record's source sentences joined, its reference TLDRs."""
    path = scitldr_folder(dumps, eval_set) / f"{split}.jsonl"
    return [(" ".join(" ".join(record["source"]).split()), record["target"]) for record in read_tldr_jsonl(path)]


def remove_ref(summary: str) -> str:
    """Every "REF" token out (App. B: removed from the output in every transfer experiment), spaces tidied."""
    return " ".join(_REF.sub(" ", summary).split())


def post_process(summary: str) -> str:
    """§4.1 post-processing: a summary that begins with "REF" begins with "This paper" instead; every other
    "REF" is removed."""
    text = summary.strip()
    if text.startswith("REF") and _REF.match(text):
        return " ".join([PROMPT, remove_ref(text[3:])]).strip()
    return remove_ref(text)


def rewrite_we(reference: str) -> str:
    """§4.1 few-shot: a training reference's leading "We" becomes "This paper REF" (training set only)."""
    return _LEADING_WE.sub(f"{PROMPT} REF", reference, count=1)


def gold_prompt(references: list[str], tokens: int = GOLD_TOKENS) -> str:
    """The zero-shot upper bound's prompt: the first ``tokens`` words of the (first) reference."""
    return " ".join(references[0].split()[:tokens]) if references else PROMPT


def few_shot_sample(train: list[tuple[str, list[str]]], size: int, seed: int) -> list[tuple[str, str]]:
    """``size`` training papers drawn with ``seed``, each with its first reference, "We" rewritten."""
    chosen = random.Random(seed).sample(range(len(train)), min(size, len(train)))
    return [(train[i][0], rewrite_we(train[i][1][0])) for i in sorted(chosen)]
