"""Citation recommendation: indexing and querying throughput and peak memory of bow and bm25 (``make bench``).

Generates an answerable context CSV of ``--contexts`` contexts (default 100k), builds the temporal-split
evaluation data set, then for each model, in a fresh process pinned to one core with one BLAS thread:
fits the index over the candidates' training contexts and ranks the top 10 for every test item. Reports
contexts indexed per second, queries per second, the process's peak RSS, and the projected cost of the
thesis's arXiv evaluation (Table 6: 490,018 test items against 63,239 candidates described by 21.7
contexts each), assuming indexing grows with the training contexts and a query with the candidates.
"""

import argparse
import json
import multiprocessing
import os
import resource
import tempfile
import time
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"
THESIS_TEST_ITEMS = 490_018
THESIS_CANDIDATES = 63_239
THESIS_TRAIN_CONTEXTS = round(63_239 * 21.7)


def _one_core() -> None:
    for variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
        os.environ[variable] = "1"
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux reports KiB


def measure(model_name: str, contexts_path: str, split_year: int, max_queries: int) -> dict:
    _one_core()
    from citeworth_assets.lib.citrec.dataset import CitrecDatasetSettings, dataset_from_csv
    from citeworth_models.citrec.evaluate import ScoringSettings, rank_test_items
    from citeworth_models.citrec.metrics import item_metrics, mean_metrics
    from citeworth_models.citrec.registry import create_model

    dataset = dataset_from_csv([contexts_path], CitrecDatasetSettings("bench", 5, 5, split_year))
    dataset.test = dataset.test[:max_queries]
    train_contexts = sum(len(v) for v in dataset.train.values())
    rss_data = _peak_rss_mb()
    model = create_model(model_name)
    started = time.perf_counter()
    model.fit(dataset.candidate_texts())
    index_seconds = time.perf_counter() - started
    rss_index = _peak_rss_mb()
    started = time.perf_counter()
    ranked = list(rank_test_items(model, dataset, ScoringSettings()))
    query_seconds = time.perf_counter() - started
    recall = mean_metrics([item_metrics(r, item.cited, item.adjacent) for _, item, r in ranked])["recall"][9]
    per_query = query_seconds / max(len(ranked), 1)
    return {
        "model": model_name,
        "candidates": len(dataset.candidates),
        "train_contexts": train_contexts,
        "queries": len(ranked),
        "index_seconds": round(index_seconds, 2),
        "contexts_indexed_per_second": round(train_contexts / index_seconds, 1),
        "query_seconds": round(query_seconds, 2),
        "queries_per_second": round(len(ranked) / query_seconds, 1),
        "peak_rss_mb_after_dataset": round(rss_data, 1),
        "peak_rss_mb_after_index": round(rss_index, 1),
        "peak_rss_mb_total": round(_peak_rss_mb(), 1),
        "recall_at_10": round(recall, 3),
        "projected_thesis_index_minutes": round(index_seconds * THESIS_TRAIN_CONTEXTS / train_contexts / 60, 1),
        "projected_thesis_query_hours_one_core": round(
            per_query * THESIS_CANDIDATES / len(dataset.candidates) * THESIS_TEST_ITEMS / 3600, 2
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--contexts", type=int, default=100_000)
    parser.add_argument("--max-queries", type=int, default=5_000, help="test items ranked per model")
    parser.add_argument("--models", default="bow,bm25")
    parser.add_argument("--workdir")
    args = parser.parse_args()

    from citeworth_assets.samples.citrec import (
        CitrecSampleSettings,
        write_citrec_sample,
    )

    workdir = Path(args.workdir or tempfile.mkdtemp(prefix="citrec-bench-"))
    works = max(40, args.contexts // 20)  # about 20 contexts per cited work, as the thesis's 21.7
    settings = CitrecSampleSettings(works=works, citing_papers=max(1, round(args.contexts / 7.5)), bad_lines=0)
    started = time.perf_counter()
    sample = write_citrec_sample(workdir / f"contexts_{args.contexts}", settings)
    generation = time.perf_counter() - started
    report = {"contexts": sample.contexts, "generation_seconds": round(generation, 1), "models": []}
    spawn = multiprocessing.get_context("spawn")
    for name in args.models.split(","):
        with spawn.Pool(1) as pool:  # a fresh process per model: its peak memory is its own
            report["models"].append(pool.apply(measure, (name, str(sample.contexts_path), 2016, args.max_queries)))
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "citrec.json").write_text(json.dumps(report, indent=2))
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
