# One entry point. README command 1: `make all`; README command 2: `make test`.
PYTHON ?= python3.11
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PIP_VERSION := 26.3
NOTEBOOKS := $(sort $(wildcard notebooks/*.ipynb))
PROBE_WHEELS := protobuf==4.25.8 protobuf==5.29.6 protobuf==6.31.1 protobuf==6.32.0 \
                protobuf==7.36.2 onnx==1.19.0

.PHONY: all setup test portability book notebooks sync cheatsheet clean

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
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip==$(PIP_VERSION)
	$(BIN)/python -m pip install --quiet -r requirements.txt
	@# releases that notebooks 11 and 13 try mxboard and MXNet's ONNX exporter with
	@# (downloaded, not installed)
	for w in $(PROBE_WHEELS); do \
	  $(BIN)/python -m pip download --quiet --no-deps --only-binary=:all: \
	    --dest $(VENV)/probe-wheels $$w || exit 1; done
	@touch $@

## test: unit tests, nbval over every notebook, pairing checks, the offline book build
## (files in parallel, one per worker: JOBS=1 runs them one after the other)
JOBS ?= auto
test: setup
	$(BIN)/python -m pytest -n $(JOBS) --dist loadfile

## portability: the notebooks and the API map as another machine runs them: scalar
## (non-SIMD) kernels, one thread, other BLAS code paths, and, for the API map and notebook 2,
## MXNet's synchronous engine. Stored outputs must not depend on any of it.
PORTABLE := OMP_NUM_THREADS=1 MXNET_OMP_MAX_THREADS=1 ATEN_CPU_CAPABILITY=default \
            MKL_ENABLE_INSTRUCTIONS=SSE4_2 DNNL_MAX_CPU_ISA=SSE41 ONEDNN_MAX_CPU_ISA=SSE41 \
            OPENBLAS_CORETYPE=Prescott
portability: setup
	$(PORTABLE) MXNET_ENGINE_TYPE=NaiveEngine $(BIN)/python -m pytest -n $(JOBS) \
	  --dist loadfile tests/test_apimap.py notebooks/02_tensor_ops.ipynb
	$(PORTABLE) $(BIN)/python -m pytest -n $(JOBS) --dist loadfile notebooks

## book: execute every notebook and build the HTML book into book/_build/html
book: setup
	$(BIN)/jupyter-book build book --all -W -n --keep-going
	@echo "Open book/_build/html/index.html"

## cheatsheet: rewrite book/cheatsheet.md from the API map and the notebooks' mapping tables
cheatsheet: setup
	$(BIN)/python tools/make_cheatsheet.py

## sync: bring every notebook and its py:percent twin in line (newer side wins)
sync: setup
	$(BIN)/jupytext --sync notebooks/*.ipynb

## notebooks: re-execute every notebook in place, storing its outputs (maintainers)
notebooks: sync
	$(BIN)/jupytext --set-kernel python3 --sync --execute $(NOTEBOOKS)
	$(BIN)/python tools/trim_tracebacks.py $(NOTEBOOKS)

clean:
	rm -rf book/_build .pytest_cache
