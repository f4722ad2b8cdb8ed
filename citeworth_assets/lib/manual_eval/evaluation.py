"""Manual evaluation of CiteWorth data quality (CiteWorth §3.3): the blind sample and Table 3.

The sample holds ``n`` cite-worthy and ``n`` non-cite-worthy sentences of the dataset (method
``ours``) and as many from the *span-removal baseline* (method ``baseline``): the same kind of
candidate paragraphs (permissible section, with citations, of papers the rule set does not drop),
split by the same splitter, where a sentence with S2ORC citation spans has exactly those spans cut
out and nothing else is checked or cleaned. Items get opaque ids (an MD5 of their identity) and a
seeded shuffled order, so the annotator cannot tell the methods apart.

Re-sampling keeps every item that already has a judgement (in its stratum), then fills each
stratum by seeded ranking; judgements themselves are never touched.
"""

from __future__ import annotations

import hashlib
import math
import random
from dataclasses import dataclass
from functools import cache

from citeworth_assets.lib.citeworth.cleaning import select_paragraphs
from citeworth_assets.lib.citeworth.rules import CHECK_WORTHY, NON_CHECK_WORTHY, RuleSet
from citeworth_assets.lib.duckdb_limits import sql_literal
from citeworth_assets.lib.lazy import lazy_module
from citeworth_assets.lib.papers import PaperInput

pa = lazy_module("pyarrow")

METHODS = ("ours", "baseline")
LABELS = (CHECK_WORTHY, NON_CHECK_WORTHY)
QUESTIONS = ("extracted_correctly", "markers_removed")


@cache
def sample_schema() -> pa.Schema:
    return pa.schema(
        [
            ("item_id", pa.string()),
            ("position", pa.int32()),
            ("text", pa.string()),
            ("paragraph", pa.string()),
            ("method", pa.string()),
            ("label", pa.string()),
            ("paper_id", pa.string()),
            ("paragraph_index", pa.int32()),
            ("sentence_index", pa.int32()),
            ("rule_set", pa.string()),
            ("seed", pa.int64()),
        ]
    )


@cache
def result_schema() -> pa.Schema:
    return pa.schema(
        [
            ("rule_set", pa.string()),
            ("method", pa.string()),
            ("question", pa.string()),
            ("yes", pa.int64()),
            ("judged", pa.int64()),
            ("percent", pa.float64()),
            ("ci_low", pa.float64()),
            ("ci_high", pa.float64()),
            ("improvement_over_baseline", pa.float64()),
            ("kappa", pa.float64()),
            ("kappa_items", pa.int64()),
        ]
    )


def item_id(rules: str, method: str, paper_id: str, paragraph_index: int, sentence_index: int) -> str:
    return hashlib.md5(f"{rules}|{method}|{paper_id}|{paragraph_index}|{sentence_index}".encode()).hexdigest()[:16]


def baseline_sentences(papers: list[PaperInput], rules: RuleSet, splitter) -> list[dict]:
    """Sentences of the rule set's candidate paragraphs with only the S2ORC citation spans cut out."""
    selected = [(paper, p) for paper in papers for p in select_paragraphs(paper, rules).selected]
    texts = [paragraph["text"] for _, paragraph in selected]
    bounds = splitter.sentence_bounds(list(splitter.tokenize(texts)), texts)
    sentences = []
    for (paper, paragraph), sentence_bounds in zip(selected, bounds):
        text, spans = paragraph["text"], paragraph["cite_spans"]
        for index, (start, end) in enumerate(sentence_bounds):
            inside = [s for s in spans if start <= s["start"] and s["end"] <= end]
            cleaned, position = "", start
            for span in sorted(inside, key=lambda s: s["start"]):
                cleaned += text[position : span["start"]]
                position = max(position, span["end"])
            cleaned += text[position:end]
            sentences.append(
                {
                    "text": cleaned,
                    "label": CHECK_WORTHY if inside else NON_CHECK_WORTHY,
                    "paragraph": text,
                    "paper_id": paper.paper_id,
                    "paragraph_index": paragraph["paragraph_index"],
                    "sentence_index": index,
                }
            )
    return sentences


def dataset_sentences(rows: list[dict]) -> list[dict]:
    """Sentences of ``citeworth_dataset`` rows, with their paragraph."""
    return [
        {
            "text": sample["text"],
            "label": sample["label"],
            "paragraph": row["original_text"],
            "paper_id": row["paper_id"],
            "paragraph_index": row["section_idx"],
            "sentence_index": index,
        }
        for row in rows
        for index, sample in enumerate(row["samples"])
    ]


@dataclass
class Sample:
    items: list[dict]
    per_stratum: int
    warnings: list[str]


def draw_sample(
    rules: str, pools: dict[str, list[dict]], n: int, seed: int, keep_ids: set[str] = frozenset()
) -> Sample:
    """``n`` sentences per method and label (fewer, with a warning, when a pool is smaller), shuffled.

    Items in ``keep_ids`` (already judged) are kept first in their stratum; the rest are ranked by
    an MD5 of ``seed:item_id``.
    """
    strata = {}
    for method, sentences in pools.items():
        for label in LABELS:
            items = []
            for sentence in sentences:
                if sentence["label"] == label:
                    key = item_id(
                        rules, method, sentence["paper_id"], sentence["paragraph_index"], sentence["sentence_index"]
                    )
                    items.append({**sentence, "item_id": key, "method": method})
            strata[(method, label)] = items
    size = min([n, *(len(items) for items in strata.values())])
    warnings = []
    if size < n:
        smallest = min(strata, key=lambda k: len(strata[k]))
        warnings.append(
            f"only {size} sentences per method and label (wanted {n}; fewest in {smallest[0]}/{smallest[1]})"
        )
    chosen = []
    for items in strata.values():
        ranked = sorted(
            items,
            key=lambda it: (it["item_id"] not in keep_ids, hashlib.md5(f"{seed}:{it['item_id']}".encode()).hexdigest()),
        )
        chosen.extend(ranked[:size])
    random.Random(seed).shuffle(chosen)
    for position, item in enumerate(chosen):
        item.update(position=position, rule_set=rules, seed=seed)
    return Sample(chosen, size, warnings)


def wilson_interval(yes: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval of a proportion, in percent."""
    if n == 0:
        return (math.nan, math.nan)
    p = yes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (100 * (centre - half), 100 * (centre + half))


def table_3(rules: str, sample: list[dict], judgements: list[dict]) -> list[dict]:
    """Per method and question: share of yes with its Wilson interval, the improvement over the baseline,
    and Cohen's kappa between the first two annotators (by name) on the items both judged."""
    from sklearn.metrics import cohen_kappa_score

    method_of = {item["item_id"]: item["method"] for item in sample}
    judged = [j for j in judgements if j["item_id"] in method_of]
    annotators = sorted({j["annotator"] for j in judged})
    rows = []
    for question in QUESTIONS:
        share = {}
        for method in METHODS:
            answers = [j[question] for j in judged if method_of[j["item_id"]] == method]
            yes, n = sum(answers), len(answers)
            low, high = wilson_interval(yes, n)
            share[method] = 100 * yes / n if n else math.nan
            rows.append(
                {
                    "rule_set": rules,
                    "method": method,
                    "question": question,
                    "yes": yes,
                    "judged": n,
                    "percent": round(share[method], 2),
                    "ci_low": round(low, 2),
                    "ci_high": round(high, 2),
                }
            )
        kappa, common = None, 0
        if len(annotators) >= 2:
            first = {j["item_id"]: j[question] for j in judged if j["annotator"] == annotators[0]}
            second = {j["item_id"]: j[question] for j in judged if j["annotator"] == annotators[1]}
            items = sorted(first.keys() & second.keys())
            common = len(items)
            if common:
                a, b = [first[i] for i in items], [second[i] for i in items]
                kappa = 1.0 if a == b else round(float(cohen_kappa_score(a, b)), 4)
        for row in rows[-2:]:
            row["improvement_over_baseline"] = (
                round(share["ours"] - share["baseline"], 2) if row["method"] == "ours" else None
            )
            row["kappa"], row["kappa_items"] = kappa, common
    return [{k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in row.items()} for row in rows]


JUDGEMENT_EVENT_COLUMNS = {
    "seq": "BIGINT",
    "action": "VARCHAR",
    "annotator": "VARCHAR",
    "item_id": "VARCHAR",
    "extracted_correctly": "BOOLEAN",
    "markers_removed": "BOOLEAN",
    "comment": "VARCHAR",
    '"at"': "VARCHAR",
    "undoes": "BIGINT",
}


def judgement_events_sql(data_root) -> str:
    """Every event of the annotators' files ``<data>/manual_eval/<rule set>/judgements/<annotator>.jsonl``, with
    the rule set taken from the path (an empty relation with the same columns before the first file exists).
    The warehouse model ``citeworth.manual_eval_judgements`` resolves undo events over it."""
    glob = str(data_root / "manual_eval" / "*" / "judgements" / "*.jsonl")
    if not list(data_root.glob("manual_eval/*/judgements/*.jsonl")):
        columns = ", ".join(f"NULL::{kind} AS {name}" for name, kind in JUDGEMENT_EVENT_COLUMNS.items())
        return f"SELECT {columns}, NULL::VARCHAR AS filename, NULL::VARCHAR AS rule_set WHERE false"
    columns = "{" + ", ".join(f"{name}: '{kind}'" for name, kind in JUDGEMENT_EVENT_COLUMNS.items()) + "}"
    return (
        f"SELECT *, parse_path(filename)[-3] AS rule_set FROM read_json({sql_literal(glob)}, "
        f"format = 'newline_delimited', columns = {columns}, filename = true, ignore_errors = true)"
    )
