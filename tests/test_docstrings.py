"""The ``>>>`` examples in the helper package's docstrings run, and say what they print.

Every module of ``src/sidebyside`` is imported and its docstrings are run with
:mod:`doctest` (``...`` matches any text, runs of white space are equal). An example that
cannot run on its own (it needs a trained network, a folder of event files, a second
machine) is written as plain code instead, without prompts: a test asks that no ``>>>`` is
left in a place doctest does not reach.
"""
import doctest
import importlib
import pkgutil
import re

import pytest

import sidebyside

MODULES = sorted(  # a package's __main__ runs its command line when imported: not a library
    info.name for info in pkgutil.walk_packages(sidebyside.__path__, "sidebyside.")
    if not info.name.endswith(".__main__"))
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
PROMPT = re.compile(r"^\s*>>> ", re.M)


def examples(module):
    finder = doctest.DocTestFinder(exclude_empty=True)
    return [t for t in finder.find(module, module.__name__)
            if t.examples and getattr(module, "__file__", None) == t.filename]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    module = importlib.import_module(name)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    tests = examples(module)
    for test in tests:
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed"
    source = open(module.__file__, encoding="utf-8").read()
    prompts = len(PROMPT.findall(source))
    found = sum(1 for t in tests for e in t.examples)
    assert found == prompts, (
        f"{name} has {prompts} '>>> ' lines but doctest runs {found} examples: write "
        "examples doctest cannot reach (or cannot run on their own) as plain code")


def test_the_package_has_runnable_examples():
    """The check above runs something: the examples of errors and launch are found."""
    counted = {name: len(examples(importlib.import_module(name)))
               for name in ("sidebyside.errors", "sidebyside.launch")}
    assert all(counted.values()), counted
