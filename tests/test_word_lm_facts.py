"""Notebook 20 §10 describes MXNet's word-language-model `train.py` as the pinned source has
it: the facts `tools/word_lm_facts.py` read off the tags 1.0.0, 1.2.0 and v1.9.1 (stored with
each file's blob id in tests/fixtures/word_lm_train_facts.json) are the ones the prose states,
for 1.9.1 and for the 1.0.0 version it contrasts."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FACTS = json.loads((ROOT / "tests/fixtures/word_lm_train_facts.json").read_text("utf-8"))
spec = importlib.util.spec_from_file_location("word_lm_facts", ROOT / "tools/word_lm_facts.py")
tool = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tool)


def _prose() -> str:
    text = (ROOT / "notebooks/20_sequence_models.py").read_text(encoding="utf-8")
    start = text.index("MXNet 1.9.1's `example/gluon/word_language_model/train.py`")
    para = text[start:text.index("\n\n", start)]
    return re.sub(r"\s+", " ", para.replace("# ", " "))


def _num(x: float) -> str:
    return f"{x:g}"


def test_the_three_versions_are_stored_and_1_2_0_equals_1_9_1():
    v = FACTS["versions"]
    assert set(v) == set(tool.REFS) and all(re.fullmatch(r"[0-9a-f]{40}", f["blob"])
                                            for f in v.values())
    same = {k: x for k, x in v["1.2.0"].items() if k != "blob"}
    assert same == {k: x for k, x in v["v1.9.1"].items() if k != "blob"}  # "the same since 1.2.0"


def test_the_prose_states_the_1_9_1_script():
    f, prose = FACTS["versions"]["v1.9.1"], _prose()
    assert f["loss_divided_by_bptt_batch"] and "divides the per-token losses by `bptt · batch_size`" in prose
    assert f["clip_bound"] == "args.clip" and "clips the global norm at `clip`" in prose
    assert f"`trainer.step({f['step']})`" in prose
    assert f"multiplies the rate by {_num(f['plateau_factor'])}" in prose
    assert f"defaults are lr {_num(f['lr'])} and clip {_num(f['clip'])}" in prose
    assert not f["reload_on_plateau"] and "reloads the best saved parameters only after the last epoch" in prose


def test_the_prose_states_the_1_0_0_script_it_contrasts():
    f, prose = FACTS["versions"]["1.0.0"], _prose()
    assert f["clip_bound"] == "args.clip * args.bptt * args.batch_size"
    assert "`clip · bptt · batch_size`" in prose
    assert f"`trainer.step({f['step'].removeprefix('args.')})`" in prose
    assert f"defaulted to lr {_num(f['lr'])} and clip {_num(f['clip'])}" in prose
    assert f["reload_on_plateau"] and "reloaded the best parameters at every plateau" in prose


SAMPLE = """
parser.add_argument('--lr', type=float, default=20,
parser.add_argument('--clip', type=float, default=0.25,
                L = L / (args.bptt * args.batch_size)
            gluon.utils.clip_global_norm(grads, args.clip)
            trainer.step(1)
        if val_L < best_val:
            model.save_parameters(args.save)
        else:
            args.lr = args.lr*0.25
            trainer.set_learning_rate(args.lr)
if __name__ == '__main__':
    model.load_parameters(args.save, context)
"""


def test_the_reader_tells_the_versions_apart():
    got = tool.facts(SAMPLE)
    assert got == {"lr": 20.0, "clip": 0.25, "loss_divided_by_bptt_batch": True,
                   "clip_bound": "args.clip", "step": "1", "plateau_factor": 0.25,
                   "reload_on_plateau": False}
    old = SAMPLE.replace("L = L / (args.bptt * args.batch_size)", "L.backward()").replace(
        "trainer.set_learning_rate(args.lr)", "model.collect_params().load(args.save, context)")
    got = tool.facts(old)
    assert not got["loss_divided_by_bptt_batch"] and got["reload_on_plateau"]
    with pytest.raises(ValueError, match="--lr default"):
        tool.facts(SAMPLE.replace("'--lr'", "'--rate'"))
