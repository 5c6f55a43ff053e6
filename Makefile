# One entry point. README command 1: `make all`; README command 2: `make test`.
PYTHON ?= python3.11
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PIP_VERSION := 26.3
NOTEBOOKS := $(sort $(wildcard notebooks/*.ipynb))

.PHONY: all setup test book notebooks sync clean

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
	@touch $@

## test: unit tests, nbval over every notebook, pairing checks, the offline book build
test: setup
	$(BIN)/python -m pytest

## book: execute every notebook and build the HTML book into book/_build/html
book: setup
	$(BIN)/jupyter-book build book --all -W -n --keep-going
	@echo "Open book/_build/html/index.html"

## sync: bring every notebook and its py:percent twin in line (newer side wins)
sync: setup
	$(BIN)/jupytext --sync notebooks/*.ipynb

## notebooks: re-execute every notebook in place, storing its outputs (maintainers)
notebooks: sync
	$(BIN)/jupytext --set-kernel python3 --sync --execute $(NOTEBOOKS)

clean:
	rm -rf book/_build .pytest_cache
