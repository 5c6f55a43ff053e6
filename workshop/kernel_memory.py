"""The memory one workshop user's kernel needs: run a notebook's code cells in one fresh
kernel of this environment and print the kernel's resident memory after each cell, its
unique memory (what a second user's kernel would not share) and its peak (VmHWM).

    .venv/bin/python workshop/kernel_memory.py notebooks/03_mnist_mlp.ipynb [CELLS]

CELLS: run only the first CELLS code cells (default: all). Linux only (/proc). The numbers
on book/workshop.md came from this script (the date and machine are stated there).
"""
from __future__ import annotations

import json
import platform
import sys
import time
from datetime import date
from pathlib import Path

import psutil
from jupyter_client.manager import KernelManager


def memory(pid: int) -> tuple[float, float, float]:
    """RSS, USS and peak RSS of the process, in MiB."""
    info = psutil.Process(pid).memory_full_info()
    with open(f"/proc/{pid}/status") as f:
        peak = next(int(line.split()[1]) for line in f if line.startswith("VmHWM"))
    return info.rss / 2**20, info.uss / 2**20, peak / 1024


def main(argv: list[str]) -> int:
    if not argv or len(argv) > 2:
        print(__doc__, file=sys.stderr)
        return 2
    path = Path(argv[0])
    limit = int(argv[1]) if len(argv) == 2 else None
    cells = [c for c in json.loads(path.read_text(encoding="utf-8"))["cells"]
             if c["cell_type"] == "code"][:limit]
    km = KernelManager(kernel_name="python3")
    km.start_kernel(cwd=str(path.parent.resolve()))
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=120)
        pid = km.provisioner.process.pid
        print("fresh kernel: RSS %.0f MiB, USS %.0f MiB, peak %.0f MiB" % memory(pid))
        t0 = time.time()
        for i, cell in enumerate(cells):
            source = "".join(cell["source"])
            msg_id = kc.execute(source)
            while True:
                msg = kc.get_iopub_msg(timeout=900)
                if msg["parent_header"].get("msg_id") != msg_id:
                    continue
                if msg["msg_type"] == "error":
                    print(f"  (code cell {i} raised {msg['content']['ename']})")
                if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                    break
            rss, uss, peak = memory(pid)
            first = source.strip().splitlines()[0][:48] if source.strip() else ""
            print(f"code cell {i:3d}: RSS {rss:6.0f} MiB, USS {uss:6.0f} MiB, peak {peak:6.0f} "
                  f"MiB, {time.time() - t0:6.1f} s  {first!r}")
        rss, uss, peak = memory(pid)
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    print(f"{path.name}, {len(cells)} code cells: RSS {rss:.0f} MiB, USS {uss:.0f} MiB, peak "
          f"{peak:.0f} MiB; {date.today()}, {platform.machine()}, {psutil.cpu_count()} CPUs, "
          f"{psutil.virtual_memory().total / 2**30:.1f} GiB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
