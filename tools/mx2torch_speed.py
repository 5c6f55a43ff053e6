"""How fast a translated model runs: GluonCV's ``resnet50_v1b`` (random weights) exported by
MXNet and translated by ``sidebyside.mx2torch``, against ``torchvision.models.resnet50`` holding
the same weights (the same architecture: ResNet-50 v1b is torchvision's "v1.5", its stride on
the 3x3 convolution).

1. The export is ``tools/mx2torch_families.py``'s MXNet child (GluonCV from ``make gluon-zoo``).
2. Here, with ``import mxnet`` made to fail (so that PyTorch keeps its threads), the files are
   translated; the translated tensors are copied into torchvision's ResNet-50 in order (each
   shape checked) and both models must give the same logits (``max |Δ|`` is recorded), so the
   two forwards compared do the same arithmetic.
3. Forward of a batch of 8 images, 224², float32, eval, ``torch.no_grad()``; at 1 and at 2
   threads, ``ROUNDS`` rounds that alternate the two models, each the best of ``REPEATS``
   runs after a warm-up. The ratio translated/torchvision is taken within a round (a shared
   machine is noisy; a ratio within one round is not); the median over rounds is reported.

``make mx2torch-speed`` writes ``benchmarks/results/mx2torch_speed.json`` (about 2 min), which
``tools/make_mx2torch_page.py`` renders on book/mx2torch.md.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
import mx2torch_families as families  # noqa: E402  (tools/mx2torch_families.py)

OUT = ROOT / "benchmarks" / "results" / "mx2torch_speed.json"
SCHEMA = "mx2torch-speed/1"
MODEL = "resnet50_v1b"
BATCH, SIZE, ROUNDS, REPEATS = 8, 224, 5, 3


def same_weights(translated, reference) -> None:
    """Copy the translated module's tensors into ``reference`` in order; both list a
    ResNet-50's convolutions and BatchNorms in the same order (each shape is checked)."""
    import torch

    ours = [v for k, v in translated.state_dict().items()
            if not k.endswith("num_batches_tracked") and k != "_float"]
    names = [k for k in reference.state_dict() if not k.endswith("num_batches_tracked")]
    if len(ours) != len(names):
        raise SystemExit(f"{len(ours)} tensors translated, torchvision's ResNet-50 has "
                         f"{len(names)}: not the same architecture")
    state = reference.state_dict()
    for name, value in zip(names, ours):
        if state[name].shape != value.shape:
            raise SystemExit(f"{name}: torchvision {tuple(state[name].shape)}, translated "
                             f"{tuple(value.shape)}: not the same architecture")
        state[name] = value
    with torch.no_grad():
        reference.load_state_dict(state)


def best_of(module, x, repeats: int) -> float:
    import torch

    with torch.no_grad():
        module(x)
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            module(x)
            times.append(time.perf_counter() - t0)
    return min(times)


def measure(folder: Path, rounds: int = ROUNDS, repeats: int = REPEATS) -> dict:
    sys.modules["mxnet"] = None                 # mx2torch never needs it; it drops threads
    import torch
    import torchvision

    from sidebyside.mx2torch import codegen

    t = codegen.translation(folder / f"{MODEL}-symbol.json", folder / f"{MODEL}-0000.params")
    ours = t.module.float().eval()
    tv = torchvision.models.resnet50().eval()
    same_weights(ours, tv)
    x = torch.from_numpy(np.random.default_rng(0).standard_normal(
        (BATCH, 3, SIZE, SIZE)).astype(np.float32))
    with torch.no_grad():
        a, b = ours(x), tv(x)
    diff = float((a - b).abs().max())
    if diff > 1e-4 * float(b.abs().max()):
        raise SystemExit(f"the translated model and torchvision's differ by {diff:.2e}: "
                         "the weights were not copied to the same places")
    rows = []
    for threads in (1, 2):
        torch.set_num_threads(threads)
        per = []
        for _ in range(rounds):
            tv_s, ours_s = best_of(tv, x, repeats), best_of(ours, x, repeats)
            per.append({"torchvision_s": tv_s, "translated_s": ours_s,
                        "ratio": ours_s / tv_s})
        rows.append({"threads": threads, "rounds": per,
                     "median_ratio": statistics.median(r["ratio"] for r in per)})
    return {"model": MODEL, "batch": BATCH, "size": SIZE, "max_abs_diff": diff,
            "torch": torch.__version__, "torchvision": torchvision.__version__, "runs": rows}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default=str(OUT))
    p.add_argument("--rounds", type=int, default=ROUNDS)
    p.add_argument("--files", metavar="DIR", help="an export already made (skips MXNet)")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="mx2torch-speed-") as work:
        folder = Path(args.files or work)
        if not args.files:
            if not (families.ZOO / "gluoncv").is_dir():
                p.error(f"GluonCV is not in {families.ZOO}: run `make gluon-zoo`")
            rec = families._child("export", MODEL, folder, 600)
            if "error" in rec:
                print(rec["error"], file=sys.stderr)
                return 1
        result = measure(folder, rounds=args.rounds)
    result.update(schema=SCHEMA, date=datetime.date.today().isoformat(),
                  machine=f"{families.cpu_name()}, {os.cpu_count()} cores")
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    for r in result["runs"]:
        print(f"{r['threads']} thread(s): translated/torchvision {r['median_ratio']:.3f} "
              f"(rounds: {', '.join(format(x['ratio'], '.3f') for x in r['rounds'])})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
