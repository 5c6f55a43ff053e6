"""Execute the book's notebooks into its jupyter-cache, several at once, before `make book` builds.

Usage: ``python tools/prefill_book_cache.py CACHE NOTEBOOK... [--jobs N]``

``jupyter-book build`` (myst-nb, ``execute_notebooks: cache``) executes every notebook the cache
lacks, one after the other. This puts them there first: the notebooks the cache lacks are
executed ``--jobs`` at a time (default: the CPUs this process may use), longest first by their
stored run, each in its own folder as myst-nb runs it, with the timeout and ``allow_errors`` of
book/_config.yml; then the build finds every notebook cached ("Using cached notebook") and
only renders. A notebook that times what it runs (it calls ``time.perf_counter``,
``timeit`` or the helper package's ``timing``) is executed alone, after the others, so the
speeds the book shows are not measured beside another notebook. The kernels executed together
run with ``OMP_WAIT_POLICY=PASSIVE`` (unless it is set already): their idle OpenMP threads
sleep instead of spinning on the cores the other kernels compute on (the Makefile's `test`
says what it saved); the notebooks that time themselves run with the environment as it is.

A notebook that fails is not cached; each failure is printed (its last traceback lines) and the
command exits 1, so `make book` stops before building.
"""
import argparse
import concurrent.futures
import os
import re
import sys
import time
from pathlib import Path

import nbformat
import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_status import ANSI, _stamp  # noqa: E402  (the status page reads the same stamps)

TIMES_ITSELF = re.compile(r"\b(perf_counter|timeit|timing\.)")


def book_settings(config=ROOT / "book" / "_config.yml"):
    """(timeout, allow_errors) from the book's ``execute`` section."""
    execute = yaml.safe_load(Path(config).read_text()).get("execute", {})
    return int(execute.get("timeout", 30)), bool(execute.get("allow_errors", False))


def stored_seconds(nb):
    """How long the stored run took: first cell's start to last cell's reply (0 if unknown)."""
    stamps = []
    for cell in nb.cells:
        ex = cell.get("metadata", {}).get("execution", {})
        for key in ("iopub.execute_input", "shell.execute_reply"):
            if key in ex:
                stamps.append(_stamp(ex[key]))
    return (max(stamps) - min(stamps)).total_seconds() if stamps else 0.0


def times_itself(nb):
    return any(c.cell_type == "code" and TIMES_ITSELF.search(c.source) for c in nb.cells)


def _execute(path, timeout, allow_errors):
    """Run in a worker process: (path, executed notebook or None, seconds, error text)."""
    from jupyter_cache.executors.utils import single_nb_execution

    nb = nbformat.read(path, as_version=4)
    result = single_nb_execution(nb, cwd=str(Path(path).parent), timeout=timeout,
                                 allow_errors=allow_errors, meta_override=True)
    if result.err is not None:
        text = result.exc_string or repr(result.err)
        return path, None, result.time, ANSI.sub("", text)     # IPython's colours: plain text
    return path, nb, result.time, None


def _threads_wait_passively():
    """Pool initializer for the kernels executed together (they inherit this environment)."""
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


def prefill(cache_path, notebooks, jobs, timeout, allow_errors, log=print):
    """Execute into the cache what it lacks; returns the failures as {path: error text}."""
    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn

    cache = get_cache(str(cache_path))
    todo = []
    for path in notebooks:
        nb = nbformat.read(path, as_version=4)
        try:
            cache.match_cache_notebook(nb)
            continue                    # cached already: the build takes it from there
        except KeyError:
            pass
        todo.append((stored_seconds(nb), times_itself(nb), str(path)))
    longest_first = sorted(todo, reverse=True)
    together = [p for _, timed, p in longest_first if not timed]
    alone = [p for _, timed, p in longest_first if timed]
    log(f"{len(notebooks) - len(todo)} notebooks cached already; executing {len(together)}, "
        f"{jobs} at a time, then {len(alone)} that time themselves, one at a time")
    failures = {}

    def keep(path, nb, seconds, error):
        if error is not None:
            failures[path] = error
            log(f"FAILED {path} after {seconds:.1f} s")
            return
        cache.add_nb_to_project(path)
        cache.cache_notebook_bundle(CacheBundleIn(nb, path, data={"execution_seconds": seconds}),
                                    check_validity=False, overwrite=True)
        log(f"executed {path} in {seconds:.1f} s")

    for group, workers in ((together, jobs), (alone, 1)):
        if not group:
            continue
        initializer = _threads_wait_passively if workers > 1 else None
        with concurrent.futures.ProcessPoolExecutor(workers, initializer=initializer) as pool:
            futures = [pool.submit(_execute, p, timeout, allow_errors) for p in group]
            for future in concurrent.futures.as_completed(futures):
                keep(*future.result())
    return failures


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cache", type=Path, help="the jupyter-cache folder the book build uses")
    parser.add_argument("notebooks", nargs="+", type=Path)
    parser.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)),
                        help="notebooks executed at once (default: the CPUs this process may use)")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error(f"--jobs must be 1 or more, not {args.jobs}")
    missing = [str(p) for p in args.notebooks if not p.is_file()]
    if missing:
        parser.error(f"no such notebook: {', '.join(missing)}")
    timeout, allow_errors = book_settings()
    t0 = time.monotonic()
    failures = prefill(args.cache, [str(p) for p in args.notebooks], args.jobs, timeout,
                       allow_errors)
    for path, error in failures.items():
        print(f"\n{path} failed:\n" + "\n".join(error.strip().splitlines()[-15:]), file=sys.stderr)
    print(f"prefill: {time.monotonic() - t0:.0f} s, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
