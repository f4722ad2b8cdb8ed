# citeworth: the README's commands. `make demo` and `make test` work on a fresh clone.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
DUMPS ?= dumps
DATA ?= data
SAMPLE_PAPERS ?= 2000
SAMPLE_SHARDS ?= 4
# The demo trains every model briefly; leave it empty ({}) for the paper's hyperparameters.
DEMO_MODEL_PARAMS ?= {"epochs": 1, "max_length": 64, "d_model": 60, "vocab_size": 2000}

.PHONY: install browser demo test test-fast bench ui clean

install: $(VENV)/.installed

# Reinstalls only when pyproject.toml changes. torch is pinned in pyproject.toml to the CPU build.
$(VENV)/.installed: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $@

demo: install
	$(VENV)/bin/citeworth generate-sample --out $(DUMPS)/sample --papers $(SAMPLE_PAPERS) --shards $(SAMPLE_SHARDS) --seed 0
	$(VENV)/bin/citeworth build --dumps $(DUMPS)/sample --data $(DATA) --models --model-params '$(DEMO_MODEL_PARAMS)'
	@echo
	@echo "Open the Dagster UI:  make ui   (then http://127.0.0.1:3000)"
	@echo "Query the warehouse:  .venv/bin/python -c \"import duckdb; print(duckdb.connect('$(DATA)/warehouse.duckdb', read_only=True).sql('SELECT * FROM s2orc.papers_per_field'))\""

# The annotation page's end-to-end test drives Debian's chromium; install it when missing and apt is usable.
browser:
	@command -v chromium >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) ; } || \
		echo "chromium not installed: the browser test will be skipped"

test: install browser
	$(PY) -m pytest -q

# Everything but the end-to-end tests marked slow (graph builds, the browser): under a minute.
test-fast: install
	$(PY) -m pytest -q -m "not slow"

# PUBLISHED=path/to/cite-worth/dataset_creation/build_dataset.py adds the side-by-side run of the published code.
bench: install
	$(PY) benchmarks/ingest.py
	$(PY) benchmarks/citeworth.py $(if $(PUBLISHED),--published $(PUBLISHED))
	$(PY) benchmarks/citesum.py
	$(PY) benchmarks/models.py
	$(PY) benchmarks/arxiv.py --papers 2000
	$(PY) benchmarks/sciqfs.py --papers 3 --sentences 500
	$(PY) benchmarks/citrec.py
	$(PY) benchmarks/workers.py

ui: install
	$(VENV)/bin/citeworth ui --dumps $(DUMPS)/sample --data $(DATA)

clean:
	rm -rf $(DATA) $(DUMPS)/sample
