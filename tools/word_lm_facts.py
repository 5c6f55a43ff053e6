"""Read the facts notebook 20 §10 states about MXNet's `example/gluon/word_language_model/
train.py` off the pinned source, and write them with each file's blob id:

    python tools/word_lm_facts.py GIT_DIR [--out tests/fixtures/word_lm_train_facts.json]

``GIT_DIR`` is a clone (or bare mirror) of apache/mxnet holding the tags ``1.0.0``, ``1.2.0`` and
``v1.9.1``. The facts are values, not code: the ``--lr`` and ``--clip`` defaults, whether the
loss is divided by ``bptt · batch_size``, the global-norm clip bound, ``trainer.step``'s
argument, the factor a plateau applies to the rate, and whether a plateau reloads the best
parameters. ``tests/test_word_lm_facts.py`` checks the notebook's prose against the file (no
clone needed there). Exit status 0; 2 when a tag or a fact is missing.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PATH = "example/gluon/word_language_model/train.py"
REFS = ("1.0.0", "1.2.0", "v1.9.1")
OUT = ROOT / "tests" / "fixtures" / "word_lm_train_facts.json"


def facts(source: str) -> dict:
    """The facts of one version of train.py (ValueError naming a fact it cannot find)."""
    def one(pattern, what):
        m = re.search(pattern, source, re.M)
        if not m:
            raise ValueError(f"no {what} in train.py")
        return m.group(1).strip()

    plateau = source[source.index("if val_L < best_val:"):source.index("if __name__")]
    on_plateau = plateau.split("else:", 1)[1]
    return {
        "lr": float(one(r"'--lr', type=float, default=([\d.]+)", "--lr default")),
        "clip": float(one(r"'--clip', type=float, default=([\d.]+)", "--clip default")),
        "loss_divided_by_bptt_batch": bool(re.search(
            r"L = L / \(args\.bptt \* args\.batch_size\)", source)),
        "clip_bound": one(r"clip_global_norm\(grads, (.*)\)\s*$", "clip_global_norm call"),
        "step": one(r"trainer\.step\((.*)\)\s*$", "trainer.step call"),
        "plateau_factor": float(one(r"args\.lr = args\.lr\s*\*\s*([\d.]+)", "plateau rate")),
        "reload_on_plateau": bool(re.search(r"load(_parameters|_params)?\(", on_plateau)),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="word_lm_facts.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("git_dir", type=Path)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    out = {"repository": "https://github.com/apache/mxnet", "path": PATH, "versions": {}}
    def git(ref, *cmd):
        done = subprocess.run(["git", "-C", str(args.git_dir), *cmd], capture_output=True,
                              text=True)
        if done.returncode:
            print(f"word_lm_facts.py: {ref}: {done.stderr.strip()}", file=sys.stderr)
            raise SystemExit(2)
        return done.stdout

    for ref in REFS:
        blob = git(ref, "rev-parse", f"{ref}:{PATH}").strip()
        try:
            out["versions"][ref] = {"blob": blob, **facts(git(ref, "show", f"{ref}:{PATH}"))}
        except ValueError as err:
            print(f"word_lm_facts.py: {ref}: {err}", file=sys.stderr)
            return 2
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
