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
# TORCH_INDEX=<index URL> (make wheelhouse, make setup without WHEELHOUSE): a second index
# for pip, e.g. https://download.pytorch.org/whl/cpu: torch==2.14.1 then resolves to the
# CPU-only build 2.14.1+cpu there (a local version that ==2.14.1 accepts) and the CUDA
# libraries (the nvidia-* pins, constraints only) are not pulled in. Unset: unchanged.
TORCH_INDEX ?=
empty :=
TORCH_FROM := $(if $(strip $(TORCH_INDEX)),$(empty) --extra-index-url $(strip $(TORCH_INDEX)))
ifneq ($(strip $(WHEELHOUSE)),)
PIP_FROM := --no-index --find-links $(abspath $(WHEELHOUSE))/wheels
PROBES_FROM := --no-index --find-links $(abspath $(WHEELHOUSE))/probe-wheels
else
PIP_FROM :=$(TORCH_FROM)
PROBES_FROM :=
endif
# the datasets a wheelhouse carries, by folder: <data root>/<Folder>/raw/*.gz
WHEELHOUSE_DATASETS := FashionMNIST MNIST

.PHONY: wheelhouse all setup setup-nomxnet lint test test-fast test-nomxnet fuzz portability portability-report book notebooks sync \
        cheatsheet errors status migrate-catalogue migrate-page catalogue-page clean help

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
## files into WHEELHOUSE (default: wheelhouse/) for installing offline: `make setup
## WHEELHOUSE=...`; TORCH_INDEX=https://download.pytorch.org/whl/cpu for CPU-only torch
wheelhouse: WHEELHOUSE := $(or $(strip $(WHEELHOUSE)),wheelhouse)
wheelhouse: requirements.txt constraints.txt requirements-nomxnet.txt constraints-nomxnet.txt
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "'$(PYTHON)' was not found (see make setup)" >&2; exit 1; }
	$(PYTHON) tools/wheelhouse_data.py collect "$(WHEELHOUSE)" $(WHEELHOUSE_DATASETS)
	rm -rf "$(WHEELHOUSE)/.pip"
	$(PYTHON) -m venv "$(WHEELHOUSE)/.pip"
	@# our own package is installed from the clone (-e ., -e .[tools]), not downloaded; the
	@# tools extra's wheels (libcst) are in the main set
	grep -v '^-e \.$$' requirements.txt > "$(WHEELHOUSE)/requirements.txt"
	cp constraints.txt "$(WHEELHOUSE)/constraints.txt"
	cd "$(WHEELHOUSE)" && .pip/bin/python -m pip download --quiet --only-binary=:all: \
	  --dest wheels -r requirements.txt pip==$(PIP_VERSION)$(TORCH_FROM)
	@# and the mx2torch set (make test-nomxnet): the same torch, so only numpy 2 is added
	grep -v '^-e \.\[tools\]$$' requirements-nomxnet.txt > "$(WHEELHOUSE)/requirements-nomxnet.txt"
	cp constraints-nomxnet.txt "$(WHEELHOUSE)/constraints-nomxnet.txt"
	cd "$(WHEELHOUSE)" && .pip/bin/python -m pip download --quiet --only-binary=:all: \
	  --dest wheels -r requirements-nomxnet.txt$(TORCH_FROM)
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
## (files in parallel, one per worker: JOBS=1 runs them one after the other); the 30 slowest
## tests are listed at the end
JOBS ?= auto
# Each worker's kernels keep their thread counts (PyTorch all CPUs, MXNet half), but an idle
# OpenMP thread sleeps instead of spinning (libgomp's default spins), so two workers' threads
# do not take the cores from each other: notebooks 15 and 16 side by side (-n 2, 2 CPUs) took
# 141 s spinning, 60 s passive (2026-12-04). It changes no result, only how threads wait.
PASSIVE := OMP_WAIT_POLICY=PASSIVE
test: setup
	$(PASSIVE) $(BIN)/python -m pytest -n $(JOBS) --dist loadfile --durations=30

## test-fast: the edit loop: the unit tests (tests/) and only the notebooks changed since
## BASE (default HEAD: the uncommitted edits, a py:percent twin's included); `make test`
## before a commit still runs everything
BASE ?= HEAD
test-fast: setup
	@nbs="$$($(BIN)/python tools/changed_notebooks.py --since $(BASE))" || exit 2; \
	echo "notebooks changed since $(BASE): $${nbs:-none}" | tr '\n' ' '; echo; \
	$(PASSIVE) $(BIN)/python -m pytest -n $(JOBS) --dist loadfile --durations=10 tests $$nbs

## setup-nomxnet: create .venv-nomxnet: requirements-nomxnet.txt (torch, numpy 2, pytest and
## our package; no mxnet), as a user of sidebyside.mx2torch without MXNet has it
NOMXNET_VENV  ?= .venv-nomxnet
NOMXNET_BIN   := $(NOMXNET_VENV)/bin
NOMXNET_STAMP := $(NOMXNET_VENV)/.installed
setup-nomxnet: $(NOMXNET_STAMP)

# built afresh whenever its inputs change: a package left from an older set could hide a gap
$(NOMXNET_STAMP): requirements-nomxnet.txt constraints-nomxnet.txt pyproject.toml tools/check_python.py
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "'$(PYTHON)' was not found (see make setup)" >&2; exit 1; }
	@$(PYTHON) tools/check_python.py
	@if [ -n "$(WHEELHOUSE)" ] && [ ! -d "$(WHEELHOUSE)/wheels" ]; then \
	  echo "WHEELHOUSE=$(WHEELHOUSE) has no wheels/ folder: make it with" \
	       "'make wheelhouse WHEELHOUSE=$(WHEELHOUSE)' on a machine with network" >&2; exit 1; fi
	rm -rf $(NOMXNET_VENV)
	$(PYTHON) -m venv $(NOMXNET_VENV)
	$(NOMXNET_BIN)/python -m pip install --quiet $(PIP_FROM) --upgrade pip==$(PIP_VERSION)
	$(NOMXNET_BIN)/python -m pip install --quiet $(PIP_FROM) -r requirements-nomxnet.txt
	@touch $@

## test-nomxnet: in .venv-nomxnet, check that `import mxnet` fails there (ModuleNotFoundError)
## and numpy is 2 or newer, then run tests/nomxnet (SIDEBYSIDE_NOMXNET=1)
# The main suite's conftests (tools/leftover_children.py needs psutil, tests/conftest.py yaml)
# and pyproject's addopts (nbval) belong to .venv; --confcutdir leaves the conftests above
# tests/nomxnet unloaded and -o addopts= drops nbval: the tests there stand on their own.
# Keep tests/nomxnet free of a conftest.py: collected first ("nomxnet" < "test_"), it would
# take the module name `conftest` from tests/conftest.py, and `from conftest import ROOT` in
# the main suite would fail.
# sidebyside.migrate is the standard library alone, the same Python in both venvs: its tests
# (tests/nomxnet/test_migrate_*.py) run once, in `make test`; here only the one that runs it
# in a fresh interpreter of this venv (no mxnet, numpy 2) and checks what it imported
NOMXNET_TESTS := $(filter-out tests/nomxnet/test_migrate_%,$(wildcard tests/nomxnet/test_*.py)) \
  tests/nomxnet/test_migrate_catalogue_pure.py::test_lookup_in_a_fresh_interpreter_imports_no_framework
test-nomxnet: $(NOMXNET_STAMP)
	@msg=$$($(NOMXNET_BIN)/python -c 'import mxnet' 2>&1) && { \
	  echo "$(NOMXNET_VENV): 'import mxnet' succeeded, and this environment must not have it" >&2; \
	  exit 1; }; \
	case "$$msg" in *"ModuleNotFoundError: No module named 'mxnet'") ;; *) \
	  printf '%s\n' "$(NOMXNET_VENV): 'import mxnet' must fail with ModuleNotFoundError, not:" \
	    "$$msg" >&2; exit 1;; esac
	@$(NOMXNET_BIN)/python -c 'import sys, numpy; sys.exit(None if int(numpy.__version__.split(".")[0]) >= 2 else f"$(NOMXNET_VENV) has numpy {numpy.__version__}: it must be 2 or newer")'
	@echo "$(NOMXNET_VENV): no mxnet (ModuleNotFoundError), numpy $$($(NOMXNET_BIN)/python -c 'import numpy; print(numpy.__version__)')"
	SIDEBYSIDE_NOMXNET=1 $(NOMXNET_BIN)/python -m pytest -o addopts= -p no:cacheprovider \
	  --confcutdir=tests/nomxnet $(NOMXNET_TESTS)

## fuzz: mx2torch's three readers of untrusted files (-symbol.json read and translated,
## .params, Trainer states) on FUZZ_CASES (default 10000) mutated real files each, in
## .venv-nomxnet (tools/fuzz_readers.py, Hypothesis; about 3 min on 2 cores): per reader the
## raw errors (anything but the tool's own message), the cases over 1 s and the peak memory;
## fails on any raw error or slow case. tests/nomxnet/test_fuzz_readers.py is its CI size.
FUZZ_CASES ?= 10000
fuzz: $(NOMXNET_STAMP)
	$(NOMXNET_BIN)/python tools/fuzz_readers.py --cases $(FUZZ_CASES)

## portability: the notebooks and the API map as another machine runs them: scalar
## (non-SIMD) kernels, one thread, other BLAS code paths, and, for the API map and
## notebook 2, MXNet's synchronous engine. Stored outputs must not depend on any of it.
PORTABLE := OMP_NUM_THREADS=1 MXNET_OMP_MAX_THREADS=1 ATEN_CPU_CAPABILITY=default \
            MKL_ENABLE_INSTRUCTIONS=SSE4_2 DNNL_MAX_CPU_ISA=SSE41 ONEDNN_MAX_CPU_ISA=SSE41 \
            OPENBLAS_CORETYPE=Prescott
# PASSIVE here too: a notebook may raise PyTorch's threads itself (notebook 1 times 1 and all CPUs)
portability: setup
	$(PORTABLE) $(PASSIVE) MXNET_ENGINE_TYPE=NaiveEngine $(BIN)/python -m pytest -n $(JOBS) \
	  --dist loadfile tests/test_apimap.py notebooks/02_tensor_ops.ipynb
	$(PORTABLE) $(PASSIVE) $(BIN)/python -m pytest -n $(JOBS) --dist loadfile --durations=20 notebooks

## portability-report: which notebooks' outputs the portability settings change: every
## notebook executed again as `make test` runs it and with PORTABLE, into REPORT_DIR (default: a
## new temporary folder), and compared with the stored outputs (tools/portability_outputs.py)
portability-report: setup
	@d="$${REPORT_DIR:-$$(mktemp -d)}"; echo "portability-report: into $$d"; \
	$(PASSIVE) $(BIN)/python tools/portability_outputs.py execute "$$d/native" && \
	$(PORTABLE) $(PASSIVE) $(BIN)/python tools/portability_outputs.py execute "$$d/portable" && \
	$(BIN)/python tools/portability_outputs.py compare "$$d/native" "$$d/portable"

## book: build the HTML book into book/_build/html; executes only the notebooks whose code
## changed since the last build (jupyter-cache keeps the others' outputs), BOOK_JOBS at a time
## (default: one per CPU; tools/prefill_book_cache.py), those that time themselves alone
# jupyter-cache matches a notebook by its code alone, so the cache is emptied whenever what
# the code runs against changes: the pins, the installed .venv, our package, the example
# scripts, the tools a notebook names (not the page generators or test plugins), or the dataset.
BOOK_CACHE := book/_build/.jupyter_cache
BOOK_JOBS ?=
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
	$(BIN)/python tools/prefill_book_cache.py $(BOOK_CACHE) $(NOTEBOOKS)$(if $(strip $(BOOK_JOBS)), --jobs $(BOOK_JOBS))
	$(BIN)/jupyter-book build book --all -W -n --keep-going
	@echo "Open book/_build/html/index.html"

## cheatsheet: rewrite book/cheatsheet.md (the rows tools/make_cheatsheet.py selects) and
## book/all_mappings.md (every row of the API map and the notebooks' mapping tables)
cheatsheet: setup
	$(BIN)/python tools/make_cheatsheet.py

## catalogue-page: run every check of the catalogue keyed by MXNet's API
## (src/sidebyside/catalogue) and rewrite book/mxnet_api.md, "All of MXNet's API", with what
## each measured (benchmarks/results/catalogue_checks.json)
catalogue-page: setup
	$(BIN)/python tools/make_catalogue_page.py --run

## errors: rewrite book/errors.md, the index of the errors the notebooks raise on purpose
errors: setup
	$(BIN)/python tools/make_error_index.py

## status: rewrite book/status.md from the notebooks' stored runs (after `make notebooks`)
status: setup
	$(BIN)/python tools/make_status.py

## migrate-catalogue: rewrite src/sidebyside/migrate/_catalogue_data.py (sidebyside.migrate's
## counterparts) from the API map and the notebooks' mapping tables
migrate-catalogue: setup
	$(BIN)/python tools/make_migrate_catalogue.py

## migrate-page: rewrite book/migrate_report.md, sidebyside.migrate's reports on the capstones'
## scripts (after a change to the tool, its catalogue or those scripts)
migrate-page: setup
	$(BIN)/python tools/make_migrate_page.py

.PHONY: workshop
## workshop: rewrite book/workshop.md (the workshop agendas and kit) from the notebooks'
## stored runs and the agendas in tools/make_workshop.py (after `make notebooks`)
workshop: setup
	$(BIN)/python tools/make_workshop.py

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

.PHONY: mutate mutate-quick
## mutate: the mutation run: every mutant of tools/mutants.py (a migration step swapped for a
## plausible wrong one), its covering notebook or test file run under nbval in a scratch copy,
## MUTATE_JOBS at a time (default: the core count; hours on 2 cores) into
## benchmarks/results/mutation.json; MUTATE_ARGS="--target notebooks/06_blocks.ipynb" for part
MUTATE_JOBS ?= 0
MUTATE_ARGS ?=
mutate: setup
	$(BIN)/python tools/mutate.py -j $(MUTATE_JOBS) $(MUTATE_ARGS)

## mutate-quick: a fixed seeded sample of 20 mutants on the fast targets (under 10 min on 2
## cores) into benchmarks/results/mutation_quick.json
mutate-quick: setup
	$(BIN)/python tools/mutate.py --quick -j $(MUTATE_JOBS) $(MUTATE_ARGS)

.PHONY: mx2torch-sweep
## mx2torch-sweep: export every MXNet model-zoo network (random weights), translate it with
## sidebyside.mx2torch and compare with MXNet in float32 and float64 (about 20 min on 2 cores)
## into benchmarks/results/mx2torch_sweep.json, then rewrite book/mx2torch.md (a failing
## network still gets its row on the page; the target then fails)
mx2torch-sweep: setup
	$(BIN)/python tools/mx2torch_sweep.py; status=$$?; \
	  $(BIN)/python tools/make_mx2torch_page.py && exit $$status

.PHONY: gluon-zoo mx2torch-families mx2torch-onnx-route mx2torch-speed
GLUON_ZOO ?= build/gluon-zoo
## gluon-zoo: GluonCV 0.10.5.post0 and GluonNLP 0.10.0 (and the scipy, yacs, autocfg and
## portalocker they import) into $(GLUON_ZOO), beside MXNet and not in .venv: GluonCV refuses
## torch >= 2 in the same process, so only the sweep's MXNet-side children put it on the path
gluon-zoo: setup
	rm -rf $(GLUON_ZOO).tmp && mkdir -p $(GLUON_ZOO).tmp/sdist
	$(BIN)/pip install -q --no-deps --target $(GLUON_ZOO).tmp gluoncv==0.10.5.post0 \
	  scipy==1.10.1 yacs==0.1.8 autocfg==0.0.8 portalocker==3.2.0
	$(BIN)/pip download -q --no-deps --no-binary :all: gluonnlp==0.10.0 -d $(GLUON_ZOO).tmp/sdist
	tar xzf $(GLUON_ZOO).tmp/sdist/gluonnlp-0.10.0.tar.gz -C $(GLUON_ZOO).tmp/sdist
	mv $(GLUON_ZOO).tmp/sdist/gluonnlp-0.10.0/src/gluonnlp $(GLUON_ZOO).tmp/gluonnlp
	rm -rf $(GLUON_ZOO).tmp/sdist
	$(BIN)/python tools/mx2torch_families.py --stub-tokenizer $(GLUON_ZOO).tmp/gluonnlp
	rm -rf $(GLUON_ZOO) && mv $(GLUON_ZOO).tmp $(GLUON_ZOO)

## mx2torch-families: GluonCV's detectors, segmenters, pose and video nets and GluonNLP's
## encoders exported with random weights, translated without MXNet, compared node by node in
## float32 and float64, and tried with trace/export/compile/script (about 40 min on 2 cores)
## into benchmarks/results/mx2torch_families.json
mx2torch-families: gluon-zoo
	GLUON_ZOO=$(GLUON_ZOO) $(BIN)/python tools/mx2torch_families.py

## mx2torch-onnx-route: the same models through the other road, MXNet's mx.onnx.export_model
## (its default opset and opset 13) then onnx2torch, compared with MXNet and timed beside the
## mx2torch translation (about 2 h on 2 cores: pure-Python protobuf) into
## benchmarks/results/mx2torch_onnx_route.json, then book/mx2torch.md
mx2torch-onnx-route: gluon-zoo
	GLUON_ZOO=$(GLUON_ZOO) $(BIN)/python tools/mx2torch_onnx_route.py
	$(BIN)/python tools/make_mx2torch_page.py

## mx2torch-speed: GluonCV's ResNet-50 v1b translated against torchvision's resnet50 with the
## same weights (batch 8, 224², 1 and 2 threads; about 2 min) into
## benchmarks/results/mx2torch_speed.json, then book/mx2torch.md
mx2torch-speed: gluon-zoo
	GLUON_ZOO=$(GLUON_ZOO) $(BIN)/python tools/mx2torch_speed.py
	$(BIN)/python tools/make_mx2torch_page.py

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
	@awk '/^## [a-z][a-z0-9-]*: / { sub(/^## /, ""); i = index($$0, ":"); \
	        printf "  %-16s %s\n", substr($$0, 1, i - 1), substr($$0, i + 2); next } \
	      /^## / { sub(/^## /, ""); printf "  %-16s %s\n", "", $$0 }' $(firstword $(MAKEFILE_LIST))
