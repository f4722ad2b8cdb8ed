"""TREC run files and qrels of an evaluation, so that any IR tool (trec_eval, ir-measures, ranx) can check it.

A query id is the test item's position in the data set (``q<index>``); a document id is the work id. Rankings
are written with rank-derived scores (``max_k + 1 - rank``), which every tool sorts back into the model's own
order (a model's raw scores can tie where its ranking does not, e.g. ``bow+fosboost``). Judgements follow
Saier 2019 §6.2: the cited work is fully relevant (grade 2) and each adjacent citation partially relevant
(grade 1).

Where the definitions coincide with the thesis's (metrics.py): Recall@k and MRR@k count the cited work only,
i.e. grade 2 as the relevance level (``R(rel=2)@k``, ``RR(rel=2)@k``); NDCG@k equals trec_eval's
``ndcg_cut`` when a query has no adjacent citation (gain 1 for the cited work either way). With adjacent
citations the thesis's gain 2**0.5 - 1 for them has no integer grade, and its MAP@k divides by the relevant
items found within k, not by all relevant items: those two stay the thesis's own (see docs/citrec.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from citeworth_models.citrec.evaluate import ModelRun
from citeworth_models.citrec.metrics import MAX_K

CITED_GRADE, ADJACENT_GRADE = 2, 1


def query_id(index: int) -> str:
    return f"q{index}"


def qrels_lines(test_items: Sequence) -> list[str]:
    """``qid 0 docid grade`` for the cited work and the adjacent citations of every test item (``.cited``,
    ``.adjacent``: the data set's test items, in order)."""
    lines = []
    for index, item in enumerate(test_items):
        lines.append(f"{query_id(index)} 0 {item.cited} {CITED_GRADE}")
        lines += [
            f"{query_id(index)} 0 {work} {ADJACENT_GRADE}"
            for work in dict.fromkeys(item.adjacent)
            if work != item.cited
        ]
    return lines


def run_lines(run: ModelRun, max_k: int = MAX_K) -> list[str]:
    """``qid Q0 docid rank score tag`` for each ranked work (an empty ranking writes no line)."""
    return [
        f"{query_id(index)} Q0 {work} {rank} {max_k + 1 - rank} {run.model}"
        for index, ranking in run.rankings
        for rank, work in enumerate(ranking[:max_k], 1)
    ]


def write_lines(lines: list[str], path: str | Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    temporary.replace(path)
    return path


def run_file_name(model: str) -> str:
    """``bow+fosboost`` -> ``bow_fosboost.run`` (no ``+`` in file names)."""
    return f"{model.replace('+', '_')}.run"
