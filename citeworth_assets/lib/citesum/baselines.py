"""Extractive baselines of CiteSum (§3.1, Table 5) and SciTLDR (Table 6): LEAD, HEURISTIC, ORACLE.

Records follow the SciTLDR jsonl format: ``source`` is the list of source sentences and ``target``
the list of reference summaries (one for CiteSum, several for SciTLDR). Each baseline picks one
source sentence; it is scored by ROUGE-1/2/L F1 (stemming on) against every reference, keeping the
best score of each metric, and the means are reported x100.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from pathlib import Path
from statistics import mean

from citeworth_assets.lib.citesum.construction import ROUGE_TYPES, rouge_scorer
from citeworth_assets.lib.sentences import SentenceSplitter

CONTRIBUTION_CUES = ("propose", "introduce", "in this paper")  # EXT-HEURISTIC, §3.1


class TldrFormatError(ValueError):
    """A line of a SciTLDR-style jsonl file that cannot be a record."""


# -- baselines ----------------------------------------------------------------------------------


def ext_lead(source: list[str], references: list[str]) -> str:
    """The first sentence: strong for news, weak for abstracts."""
    return source[0] if source else ""


def ext_heuristic(source: list[str], references: list[str]) -> str:
    """The first sentence stating a contribution ("propose", "introduce", "in this paper"), else the first."""
    for sentence in source:
        lowered = sentence.lower()
        if any(cue in lowered for cue in CONTRIBUTION_CUES):
            return sentence
    return ext_lead(source, references)


def ext_oracle(source: list[str], references: list[str]) -> str:
    """The upper bound: the sentence with the best ROUGE-2 F1 against any reference (the earliest on ties)."""
    best, best_score = "", -1.0
    for sentence in source:
        score = max(
            (rouge_scorer().score(reference, sentence)["rouge2"].fmeasure for reference in references), default=0.0
        )
        if score > best_score:
            best, best_score = sentence, score
    return best


BASELINES: dict[str, Callable[[list[str], list[str]], str]] = {
    "EXT-LEAD": ext_lead,
    "EXT-HEURISTIC": ext_heuristic,
    "EXT-ORACLE": ext_oracle,
}


# -- scoring ------------------------------------------------------------------------------------


def best_f1(prediction: str, references: list[str]) -> dict[str, float]:
    """ROUGE-1/2/L F1 of ``prediction``, each the maximum over the references (0 for an empty prediction)."""
    best = dict.fromkeys(ROUGE_TYPES, 0.0)
    if not prediction:
        return best
    for reference in references:
        scores = rouge_scorer().score(reference, prediction)
        for name in ROUGE_TYPES:
            best[name] = max(best[name], scores[name].fmeasure)
    return best


def score_baselines(records: Iterable[dict], baselines: dict = BASELINES) -> dict[str, dict[str, float]]:
    """Mean ROUGE-1/2/L F1 x100 (2 decimals) of each baseline over ``records`` (``source``, ``target``)."""
    per_baseline = {name: {metric: [] for metric in ROUGE_TYPES} for name in baselines}
    for record in records:
        for name, baseline in baselines.items():
            scores = best_f1(baseline(record["source"], record["target"]), record["target"])
            for metric in ROUGE_TYPES:
                per_baseline[name][metric].append(scores[metric])
    return {
        name: {metric: round(100 * mean(values), 2) if values else 0.0 for metric, values in metrics.items()}
        for name, metrics in per_baseline.items()
    }


def format_table(scores: dict[str, dict[str, float]]) -> str:
    """A small aligned table of mean scores x100, as the paper's Tables 5 and 6."""
    width = max([len("Method"), *map(len, scores)])
    lines = [f"{'Method':<{width}}  {'R-1':>6}  {'R-2':>6}  {'R-L':>6}"]
    for name, metrics in scores.items():
        lines.append(f"{name:<{width}}  " + "  ".join(f"{metrics[metric]:>6.2f}" for metric in ROUGE_TYPES))
    return "\n".join(lines)


# -- records ------------------------------------------------------------------------------------


def tldr_record(abstract: str, target: str, splitter: SentenceSplitter) -> dict:
    """A CiteSum example as a SciTLDR record: the abstract's sentences and its one reference."""
    return {"source": [abstract[start:end] for start, end in splitter.split(abstract or "")], "target": [target]}


def tldr_records(examples: Iterable[dict], splitter: SentenceSplitter, batch_size: int = 256) -> Iterator[dict]:
    """SciTLDR records of CiteSum examples (``abstract``, ``target``), split a batch at a time (splitting is slow)."""
    examples = iter(examples)
    while batch := list(islice(examples, batch_size)):
        texts = [example["abstract"] or "" for example in batch]
        bounds = splitter.sentence_bounds(list(splitter.tokenize(texts)), texts)
        for example, text, sentence_bounds in zip(batch, texts, bounds):
            yield {"source": [text[start:end] for start, end in sentence_bounds], "target": [example["target"]]}


def read_tldr_jsonl(path: str | Path) -> Iterator[dict]:
    """Stream SciTLDR-style records (plain or gzipped); a malformed line stops the run with an error naming file
    and line, and so does a file that holds no record at all."""
    path = Path(path)
    with open(path, "rb") as probe:
        gzipped = probe.read(2) == b"\x1f\x8b"
    records = 0
    with gzip.open(path, "rb") if gzipped else open(path, "rb") as lines:
        try:
            for number, raw in enumerate(lines, 1):
                try:
                    line = raw.decode("utf-8")
                except UnicodeDecodeError as error:
                    raise TldrFormatError(f"{path}:{number}: not UTF-8 text (byte {error.start} of the line)") from None
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except json.JSONDecodeError as error:
                    raise TldrFormatError(f"{path}:{number}: not valid JSON ({error.msg})") from None
                except RecursionError:
                    raise TldrFormatError(f"{path}:{number}: JSON nested too deeply") from None
                problem = _record_problem(record)
                if problem:
                    raise TldrFormatError(f"{path}:{number}: {problem}")
                records += 1
                yield record
        except (OSError, EOFError) as error:  # a damaged gzip stream
            raise TldrFormatError(f"{path}: unreadable: {error}") from None
    if not records:
        raise TldrFormatError(f"{path}: no records read (expected JSON lines with 'source' and 'target')")


def _record_problem(record) -> str | None:
    if not isinstance(record, dict):
        return f"expected a JSON object, found {type(record).__name__}"
    for name in ("source", "target"):
        if name not in record:
            return f"missing field {name!r}"
        value = record[name]
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            return f"field {name!r} must be a list of strings"
    if not record["target"]:
        return "field 'target' holds no reference summary"
    return None
