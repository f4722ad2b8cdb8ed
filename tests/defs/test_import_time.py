"""Every process that loads the code location (the UI, the daemon, each run worker) imports the definitions, so
they must load no heavy library: spaCy, torch, transformers, MLflow, scikit-learn, matplotlib, NLTK, rouge-score
are imported inside the asset bodies and library functions that use them; pyarrow, NumPy, DuckDB and ISA-L are
named through ``lib/lazy.py`` and imported at first use (a table schema is a cached function, the warehouse's
model dependencies come from ``dbt_like_sql/upstream.json``). Together those were most of what importing the
definitions cost beyond importing dagster (2.0x dagster's time before, about 1.45x after). Checked in a fresh
interpreter, since this test process may already hold them. The time itself is measured in benchmarks/ui_path.py,
not asserted: on a shared machine a time bound fails for reasons of its own."""

import gc
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = (
    "spacy",
    "thinc",
    "torch",
    "transformers",
    "mlflow",
    "sklearn",
    "scipy",
    "matplotlib",
    "nltk",
    "rouge_score",
    "scispacy",
    "pysbd",
    "pandas",
    "bm25s",
    "pyarrow",
    "numpy",
    "duckdb",
    "isal",
    "polars",
    "msgspec",
)
ROOT = Path(__file__).resolve().parents[2]


def _heavy_modules_after_import(module: str) -> list[str]:
    code = f"import json, sys, {module}; print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.slow  # a few seconds: make test runs it, make test-fast leaves it out
def test_definitions_load_no_heavy_library():
    assert _heavy_modules_after_import("citeworth_assets.definitions") == []


def test_the_sentence_splitter_module_loads_spacy_only_when_a_pipeline_is_built():
    assert _heavy_modules_after_import("citeworth_assets.lib.sentences") == []


def test_the_citation_context_modules_load_nltk_only_when_a_tokenizer_is_built():
    assert _heavy_modules_after_import("citeworth_assets.lib.arxiv.context_extraction") == []


def test_loading_pauses_the_cycle_collector_and_leaves_it_as_it_was():
    from citeworth_assets.lib import collector

    enabled = gc.isenabled()
    try:
        for before in (True, False):
            (gc.enable if before else gc.disable)()
            with collector.paused():
                assert not gc.isenabled()
            assert gc.isenabled() == before
    finally:
        (gc.enable if enabled else gc.disable)()
