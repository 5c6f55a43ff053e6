# One entry point. README command 1: `make all`; README command 2: `make test`.
PYTHON ?= python3.11
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PIP_VERSION := 26.3
NOTEBOOKS := $(sort $(wildcard notebooks/*.ipynb notebooks/deep_dives/*.ipynb))
PROBE_WHEELS := protobuf==4.25.8 protobuf==5.29.6 protobuf==6.31.1 protobuf==6.32.0 \
                protobuf==7.36.2 onnx==1.19.0
# WHEELHOUSE=<folder> (made by `make wheelhouse`): install from it with no network at all
# (pip --no-index) and take the dataset files from it. Unset: pip's index, as configured.
WHEELHOUSE ?=
ifneq ($(strip $(WHEELHOUSE)),)
PIP_FROM := --no-index --find-links $(abspath $(WHEELHOUSE))/wheels
PROBES_FROM := --no-index --find-links $(abspath $(WHEELHOUSE))/probe-wheels
else
PIP_FROM :=
PROBES_FROM :=
endif
# the datasets a wheelhouse carries, by folder: <data root>/<Folder>/raw/*.gz
WHEELHOUSE_DATASETS := FashionMNIST MNIST

.PHONY: wheelhouse all setup lint test portability book notebooks sync cheatsheet errors status clean help

## all: set up the environment, execute every notebook and build the book (offline)
all: book

## setup: check the interpreter, create .venv, install the pinned set and our package
setup: $(STAMP)

$(STAMP): requirements.txt constraints.txt pyproject.toml tools/check_python.py
	@command -v $(PYTHON) >/dev/null 2>&1 || { \
	  echo "'$(PYTHON)' was not found. This project needs Python 3.11: install it" \
	       "(apt-get install python3.11 python3.11-venv, pyenv install 3.11, or conda)" \
	       "or run: make $(MAKECMDGOALS) PYTHON=/path/to/python3.11" >&2; exit 1; }
	@$(PYTHON) tools/check_python.py
	@if [ -n "$(WHEELHOUSE)" ] && [ ! -d "$(WHEELHOUSE)/wheels" ]; then \
	  echo "WHEELHOUSE=$(WHEELHOUSE) has no wheels/ folder: make it with" \
	       "'make wheelhouse WHEELHOUSE=$(WHEELHOUSE)' on a machine with network" >&2; exit 1; fi
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet $(PIP_FROM) --upgrade pip==$(PIP_VERSION)
	$(BIN)/python -m pip install --quiet $(PIP_FROM) -r requirements.txt
	@# releases that notebooks 12 and 14 try mxboard and MXNet's ONNX exporter with
	@# (downloaded, not installed)
	for w in $(PROBE_WHEELS); do \
	  $(BIN)/python -m pip download --quiet $(PROBES_FROM) --no-deps --only-binary=:all: \
	    --dest $(VENV)/probe-wheels $$w || exit 1; done
	@# the dataset files the wheelhouse carries, checked and put where the notebooks read
	if [ -n "$(WHEELHOUSE)" ]; then $(BIN)/python tools/wheelhouse_data.py install "$(WHEELHOUSE)"; fi
	@touch $@

## wheelhouse: put every pinned wheel (pip itself and the probe wheels too) and the dataset
## files into WHEELHOUSE (default: wheelhouse/) for installing offline: `make all WHEELHOUSE=...`
wheelhouse: WHEELHOUSE := $(or $(strip $(WHEELHOUSE)),wheelhouse)
wheelhouse: requirements.txt constraints.txt
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "'$(PYTHON)' was not found (see make setup)" >&2; exit 1; }
	$(PYTHON) tools/wheelhouse_data.py collect "$(WHEELHOUSE)" $(WHEELHOUSE_DATASETS)
	rm -rf "$(WHEELHOUSE)/.pip"
	$(PYTHON) -m venv "$(WHEELHOUSE)/.pip"
	@# our own package is installed from the clone (-e .), not downloaded
	grep -v '^-e \.$$' requirements.txt > "$(WHEELHOUSE)/requirements.txt"
	cp constraints.txt "$(WHEELHOUSE)/constraints.txt"
	cd "$(WHEELHOUSE)" && .pip/bin/python -m pip download --quiet --only-binary=:all: \
	  --dest wheels -r requirements.txt pip==$(PIP_VERSION)
	for w in $(PROBE_WHEELS); do "$(WHEELHOUSE)/.pip/bin/python" -m pip download --quiet \
	  --no-deps --only-binary=:all: --dest "$(WHEELHOUSE)/probe-wheels" $$w || exit 1; done
	rm -rf "$(WHEELHOUSE)/.pip"
	@cd "$(WHEELHOUSE)" && find wheels probe-wheels data -type f | sort | xargs sha256sum > SHA256SUMS
	@echo "$(WHEELHOUSE): $$(du -sh "$(WHEELHOUSE)" | cut -f1) ($$(ls "$(WHEELHOUSE)/wheels" | wc -l) wheels);" \
	  "check a copy with: cd $(WHEELHOUSE) && sha256sum -c --quiet SHA256SUMS"
	@echo "Install from it offline: make all WHEELHOUSE=$(WHEELHOUSE)"

## lint: ruff check over the code and the notebooks' py:percent twins (pyproject.toml
## [tool.ruff]: unused imports, undefined names, syntax errors, likely bugs; no reformatting)
lint: setup
	$(BIN)/ruff check .

## test: unit tests, nbval over every notebook, pairing checks, the offline book build
## (files in parallel, one per worker: JOBS=1 runs them one after the other)
JOBS ?= auto
test: setup
	$(BIN)/python -m pytest -n $(JOBS) --dist loadfile

## portability: the notebooks and the API map as another machine runs them: scalar
## (non-SIMD) kernels, one thread, other BLAS code paths, and, for the API map and
## notebook 2, MXNet's synchronous engine. Stored outputs must not depend on any of it.
PORTABLE := OMP_NUM_THREADS=1 MXNET_OMP_MAX_THREADS=1 ATEN_CPU_CAPABILITY=default \
            MKL_ENABLE_INSTRUCTIONS=SSE4_2 DNNL_MAX_CPU_ISA=SSE41 ONEDNN_MAX_CPU_ISA=SSE41 \
            OPENBLAS_CORETYPE=Prescott
portability: setup
	$(PORTABLE) MXNET_ENGINE_TYPE=NaiveEngine $(BIN)/python -m pytest -n $(JOBS) \
	  --dist loadfile tests/test_apimap.py notebooks/02_tensor_ops.ipynb
	$(PORTABLE) $(BIN)/python -m pytest -n $(JOBS) --dist loadfile notebooks

## book: build the HTML book into book/_build/html; executes only the notebooks whose code
## changed since the last build (jupyter-cache keeps the others' outputs)
# jupyter-cache matches a notebook by its code alone, so the cache is emptied whenever what
# the code runs against changes: the pins, the installed .venv, our package, the example
# scripts, the tools a notebook names (not the page generators or test plugins), or the dataset.
BOOK_CACHE := book/_build/.jupyter_cache
BOOK_TOOLS := $(foreach t,$(wildcard tools/*.py),\
  $(if $(shell grep -lw '$(basename $(notdir $(t)))' notebooks/*.py notebooks/deep_dives/*.py 2>/dev/null),$(t)))
BOOK_CACHE_INPUTS := requirements.txt constraints.txt $(STAMP) \
  $(sort $(wildcard src/sidebyside/*.py src/sidebyside/*/*.py book/_ext/*.py examples/*/*.py) $(BOOK_TOOLS))
book: setup
	@key="$$(cat $(BOOK_CACHE_INPUTS) | sha256sum | cut -c1-16) $$(stat -c %Y $(STAMP))"; \
	key="$$key $${SIDEBYSIDE_DATASET:-fashion-mnist}"; \
	if [ "$$(cat $(BOOK_CACHE).key 2>/dev/null)" != "$$key" ]; then \
	  if [ -d $(BOOK_CACHE) ]; then echo "Emptying $(BOOK_CACHE): its inputs changed"; fi; \
	  rm -rf $(BOOK_CACHE); mkdir -p $(dir $(BOOK_CACHE)); echo "$$key" > $(BOOK_CACHE).key; fi
	$(BIN)/jupyter-book build book --all -W -n --keep-going
	@echo "Open book/_build/html/index.html"

## cheatsheet: rewrite book/cheatsheet.md from the API map and the notebooks' mapping tables
cheatsheet: setup
	$(BIN)/python tools/make_cheatsheet.py

## errors: rewrite book/errors.md, the index of the errors the notebooks raise on purpose
errors: setup
	$(BIN)/python tools/make_error_index.py

## status: rewrite book/status.md from the notebooks' stored runs (after `make notebooks`)
status: setup
	$(BIN)/python tools/make_status.py

.PHONY: bench bench-quick benchmarks-page
## bench: time PyTorch against Gluon in fresh processes (every configuration, workload,
## mode, batch size and thread count; under 5 min on 2 cores: run it on an idle machine)
## into benchmarks/results/latest.json and .png, then rewrite book/benchmarks.md
bench: setup
	$(BIN)/python benchmarks/run.py
	$(BIN)/python tools/make_benchmarks_page.py

## bench-quick: the benchmark at CI size (under a minute) into benchmarks/results/quick.json
bench-quick: setup
	$(BIN)/python benchmarks/run.py --quick

## benchmarks-page: rewrite book/benchmarks.md and its figure from benchmarks/results/latest.json
benchmarks-page: setup
	$(BIN)/python tools/make_benchmarks_page.py

## sync: bring every notebook and its py:percent twin in line (newer side wins)
sync: setup
	$(BIN)/jupytext --sync $(NOTEBOOKS)

## notebooks: re-execute every notebook in place, storing its outputs (maintainers);
## NB="notebooks/08_optimizers_trainer.ipynb ..." re-executes only those
NB ?= $(NOTEBOOKS)
notebooks: setup
	$(BIN)/jupytext --set-kernel python3 --sync --execute $(NB)
	$(BIN)/python tools/trim_tracebacks.py $(NB)

## clean: remove the built book (and its execution cache) and pytest's cache
clean:
	rm -rf book/_build .pytest_cache

## help: list these targets
help:
	@awk '/^## [a-z][a-z-]*: / { sub(/^## /, ""); i = index($$0, ":"); \
	        printf "  %-16s %s\n", substr($$0, 1, i - 1), substr($$0, i + 2); next } \
	      /^## / { sub(/^## /, ""); printf "  %-16s %s\n", "", $$0 }' $(firstword $(MAKEFILE_LIST))
