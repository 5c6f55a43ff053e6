"""Write book/workshop.md: timed agendas for teaching the collection in a room, and the kit.

The agendas are data (``AGENDAS`` below: which notebooks, which of their numbered sections,
which exercises, where the breaks go). Every time on the page is computed from the stored
notebooks, so the agenda cannot drift from them:

- **running**: the stored execution time of the cells (``metadata.execution``:
  ``iopub.execute_input`` → ``shell.execute_reply``, as book/status.md sums it), of every
  section up to the last one taught: a section skipped in the room is still run (its cells
  define what the later ones use), but not read;
- **reading**: the words of a section's Markdown and code at ``WORDS_PER_MINUTE``, a rule
  calibrated against the chapters' own "**Time**: about N minutes" (the page prints the
  comparison, chapter by chapter);
- **in the room**: reading and running times ``QUESTIONS`` (half again for questions),
  plus ``EXERCISE_MINUTES`` per exercise set (an allowance, not a measurement), rounded up to
  whole ``ROUND`` minutes; breaks as given.

The header of each notebook (what it teaches, its imports cell) and its *Summary* table are
part of every block. An agenda that overruns its end time makes this tool fail. Run
``make workshop`` (or this file) after re-executing a notebook or changing the agendas;
``--check`` exits 1 when the committed page differs from what would be written
(tests/test_workshop.py checks the same).
"""

from __future__ import annotations

import json
import math
import re
import sys
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
import pagegen  # noqa: E402  (tools/pagegen.py)

OUT = ROOT / "book" / "workshop.md"
NOTEBOOKS = ROOT / "notebooks"

WORDS_PER_MINUTE = 125   # Markdown and code alike; calibrated below against the headers
QUESTIONS = 1.5          # "allow half again for questions"
EXERCISE_MINUTES = 10    # per exercise: read it, try it, go through the solution
ROUND = 5                # every block of an agenda lasts a whole number of 5 minutes

H2 = re.compile(r"^## (.+)$", re.M)
WORD = re.compile(r"\S+")
NUMBERED = re.compile(r"^(\d+)\. (.+)$")
HEADER_TIME = re.compile(r"\*\*Time\*\*: about (\d+) minutes")


# ------------------------------------------------------------------ reading the notebooks
@dataclass
class Section:
    key: str          # "header", "1", "2", …, "Summary", "Exercises" (or another ## title)
    title: str
    words: int = 0
    seconds: float = 0.0

    @property
    def number(self) -> int | None:
        return int(self.key) if self.key.isdigit() else None

    @property
    def reading(self) -> float:
        """Minutes to read the section's Markdown and code."""
        return self.words / WORDS_PER_MINUTE


@dataclass
class Notebook:
    stem: str
    title: str
    header_minutes: int   # the "**Time**: about N minutes" of the first cell
    sections: list[Section]
    exercises: list[str]  # the first line of each numbered exercise
    dates: tuple[str, ...]

    @property
    def number(self) -> int:
        return int(self.stem[:2])

    def section(self, key: str) -> Section:
        for s in self.sections:
            if s.key == key:
                return s
        raise KeyError(f"{self.stem}: no section {key!r}; it has "
                       + ", ".join(s.key for s in self.sections))

    @property
    def numbered(self) -> list[Section]:
        return [s for s in self.sections if s.number is not None]

    @property
    def taught(self) -> list[Section]:
        """What the header's time covers: everything but the exercises."""
        return [s for s in self.sections if s.key != "Exercises"]


def _source(cell) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def _stamp(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def _key(title: str) -> str:
    match = re.match(r"(\d+)\.\s", title)
    return match.group(1) if match else title.split(",")[0].strip()


def read(path: Path) -> Notebook:
    """A notebook's sections (split at its ``## `` headings, inside a Markdown cell too),
    each with its words and the stored execution time of its code cells."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    current = Section("header", "header")
    sections = [current]
    dates = set()
    exercise_text = []
    for cell in cells:
        text = _source(cell)
        if cell["cell_type"] == "markdown":
            before, *pairs = H2.split(text)
            current.words += len(WORD.findall(before))
            if current.key == "Exercises":
                exercise_text.append(before)
            for title, body in zip(pairs[0::2], pairs[1::2]):
                words = len(WORD.findall(f"## {title}")) + len(WORD.findall(body))
                current = Section(_key(title.strip()), title.strip(), words)
                sections.append(current)
                if current.key == "Exercises":
                    exercise_text.append(body)
        elif cell["cell_type"] == "code":
            current.words += len(WORD.findall(text))
            run = cell.get("metadata", {}).get("execution", {})
            start, end = run.get("iopub.execute_input"), run.get("shell.execute_reply")
            if start and end:
                current.seconds += (_stamp(end) - _stamp(start)).total_seconds()
                dates.add(_stamp(start).date().isoformat())
    first = _source(cells[0])
    title = re.sub(r"^#\s*(\d+\s*·\s*)?", "", first.strip().splitlines()[0]).strip()
    match = HEADER_TIME.search(" ".join(first.split()))
    if not match:
        raise ValueError(f"{path.name}: no '**Time**: about N minutes' in the first cell")
    prompts = "\n".join(exercise_text).split(":::{dropdown}")[0]
    exercises = [m.group(2) for line in prompts.splitlines() if (m := NUMBERED.match(line))]
    return Notebook(path.stem, title, int(match.group(1)), sections, exercises,
                    tuple(sorted(dates)))


def read_all(notebooks: Path = NOTEBOOKS) -> dict[int, Notebook]:
    return {nb.number: nb for nb in map(read, sorted(notebooks.glob("[0-9][0-9]_*.ipynb")))}


def rule_minutes(nb: Notebook) -> tuple[float, float]:
    """The rule's reading and running minutes for a whole chapter (exercises excluded)."""
    return (sum(s.reading for s in nb.taught), sum(s.seconds for s in nb.taught) / 60)


# ------------------------------------------------------------------------------ agendas
@dataclass(frozen=True)
class Teach:
    notebook: int
    sections: tuple[int, ...]      # the numbered sections taught (read and run)
    exercises: tuple[int, ...] = ()
    note: str = ""                 # Markdown, one line


@dataclass(frozen=True)
class Pause:
    minutes: int
    what: str


@dataclass(frozen=True)
class Agenda:
    slug: str
    title: str
    audience: str                  # Markdown
    start: str                     # "09:00"
    end: str                       # the agenda must end by then
    items: tuple[Teach | Pause, ...]


def _mxnet_to_pytorch_3h() -> Agenda:
    return Agenda(
        "mxnet-to-pytorch-3h", "MXNet → PyTorch, 3 hours",
        "a team with MXNet Gluon code to port; the most common room",
        "09:00", "12:00", (
            Teach(1, (2,), note="the pins, and why: the setup was done before the day"),
            Teach(2, (1, 2, 3, 4), note="the API map; §8 holds every row, to look up later"),
            Teach(3, (1, 2, 3, 4), note="the four steps, and how a port is proven"),
            Pause(15, "break"),
            Teach(13, (1, 2), note="parameter files and checkpoints"),
            Teach(14, (1,), note="a trained Gluon model into PyTorch"),
            Teach(16, (1, 2, 3, 4, 7), (1,),
                  note="a legacy script ported, proven by lockstep training"),
        ))


def _mxnet_to_pytorch_day() -> Agenda:
    return Agenda(
        "mxnet-to-pytorch-day", "MXNet → PyTorch, a full day",
        "the same room, with the Module API and RecordIO data in its code",
        "09:00", "17:00", (
            Teach(1, (2, 3), note="the pins; each framework's devices and threads"),
            Teach(2, (1, 2, 3, 4, 5, 7, 9)),
            Teach(3, (1, 2, 3, 4), (4,)),
            Pause(15, "break"),
            Teach(6, (1, 2, 3), (2,), note="blocks, parameter names, initialisers, defaults"),
            Pause(60, "lunch"),
            Teach(8, (1, 2, 4, 6)),
            Teach(10, (1, 2, 7)),
            Teach(13, (1, 2, 3)),
            Teach(14, (1, 3)),
            Pause(15, "break"),
            Teach(16, (1, 2, 3, 4, 5, 6, 7), (1,)),
            Teach(17, (1, 3, 6), note="or 18 §1–3 for RecordIO data, or 19 for files without "
                  "their code: the room chooses"),
        ))


def _pytorch_to_gluon_3h() -> Agenda:
    return Agenda(
        "pytorch-to-gluon-3h", "PyTorch → Gluon, 3 hours",
        "PyTorch users who meet Gluon code",
        "09:00", "12:00", (
            Teach(1, (2,), note="the pins, and why: the setup was done before the day"),
            Teach(2, (1, 2, 3, 4)),
            Teach(3, (1, 2, 3, 4), note="the four steps in Gluon"),
            Pause(15, "break"),
            Teach(5, (1, 2), note="`autograd.record` and its scopes"),
            Teach(15, (1, 2, 3, 4, 6), (1,),
                  note="pytorch/examples' MNIST script ported to Gluon"),
        ))


def _pytorch_to_gluon_day() -> Agenda:
    return Agenda(
        "pytorch-to-gluon-day", "PyTorch → Gluon, a full day",
        "PyTorch users who will maintain Gluon code",
        "09:00", "17:00", (
            Teach(1, (2, 3)),
            Teach(2, (1, 2, 3, 4, 5, 6, 7), (2,)),
            Teach(3, (1, 2, 3, 4), (2,)),
            Pause(15, "break"),
            Teach(4, (1, 2, 3, 4)),
            Teach(5, (1, 2, 3, 4), (2,)),
            Pause(60, "lunch"),
            Teach(6, (1, 2, 3), (2,)),
            Teach(7, (1, 3)),
            Pause(15, "break"),
            Teach(8, (1, 2, 4, 6)),
            Teach(15, (1, 2, 3, 4, 5, 6), (1,)),
        ))


AGENDAS = (_mxnet_to_pytorch_3h(), _mxnet_to_pytorch_day(), _pytorch_to_gluon_3h(),
           _pytorch_to_gluon_day())


@dataclass(frozen=True)
class Slot:
    start: int          # minutes since midnight
    minutes: int
    item: Teach | Pause
    reading: float = 0.0
    running: float = 0.0


def _clock(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def _parse(clock: str) -> int:
    hours, minutes = clock.split(":")
    return int(hours) * 60 + int(minutes)


def block_minutes(nb: Notebook, item: Teach) -> tuple[float, float, int]:
    """Reading and running minutes of a block, and its minutes in the room."""
    for n in item.sections:
        nb.section(str(n))
    for e in item.exercises:
        if not 1 <= e <= len(nb.exercises):
            raise ValueError(f"{nb.stem}: no exercise {e} (it has {len(nb.exercises)})")
    last = max(item.sections)
    read_keys = {"header", "Summary", *map(str, item.sections)}
    run = [s for s in nb.sections if s.key == "header" or (s.number or 0) and s.number <= last]
    reading = sum(s.reading for s in nb.sections if s.key in read_keys)
    running = sum(s.seconds for s in run) / 60
    room = QUESTIONS * (reading + running) + EXERCISE_MINUTES * len(item.exercises)
    return reading, running, ROUND * math.ceil(room / ROUND)


def schedule(agenda: Agenda, notebooks: dict[int, Notebook]) -> list[Slot]:
    """The agenda's slots with their clock times; fails when it overruns its end."""
    clock, slots = _parse(agenda.start), []
    for item in agenda.items:
        if isinstance(item, Pause):
            slots.append(Slot(clock, item.minutes, item))
        else:
            reading, running, room = block_minutes(notebooks[item.notebook], item)
            slots.append(Slot(clock, room, item, reading, running))
        clock += slots[-1].minutes
    if clock > _parse(agenda.end):
        raise ValueError(f"agenda {agenda.slug!r} ends at {_clock(clock)}, after its end "
                         f"{agenda.end}: take a section out")
    return slots


# ---------------------------------------------------------------------------- the page
def _plain(text: str) -> str:
    """A heading for a table cell: links reduced to their text, ``|`` escaped."""
    return re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text).replace("|", "\\|")


def _link(nb: Notebook) -> str:
    return f"[{nb.number} · {_plain(nb.title)}](notebooks/{nb.stem}.ipynb)"


def _agenda_table(agenda: Agenda, notebooks: dict[int, Notebook]) -> list[str]:
    slots = schedule(agenda, notebooks)
    end = slots[-1].start + slots[-1].minutes
    teach = [s for s in slots if isinstance(s.item, Teach)]
    exercises = sum(len(s.item.exercises) for s in teach)
    lines = [
        f"## {agenda.title}", "",
        f"For {agenda.audience}. {_clock(slots[0].start)} to {_clock(end)} "
        f"({_spare(_parse(agenda.end) - end, agenda.end)}); "
        f"{sum(s.minutes for s in teach)} minutes of teaching, {exercises} exercise"
        f"{'s' if exercises != 1 else ''}, "
        f"{sum(s.minutes for s in slots if isinstance(s.item, Pause))} minutes of breaks.",
        "",
        "| time | notebook | sections taught | exercises | reading | running | in the room |",
        "|---|---|---|---|---|---|---|",
    ]
    for slot in slots:
        item = slot.item
        if isinstance(item, Pause):
            lines.append(f"| {_clock(slot.start)} | *{item.what}* | | | | | {slot.minutes} min |")
            continue
        nb = notebooks[item.notebook]
        taught = "; ".join(f"§{n} {_plain(nb.section(str(n)).title.split('. ', 1)[1])}"
                           for n in item.sections)
        if item.note:
            taught += f" — *{item.note}*"
        exercises = ", ".join(f"{e}" for e in item.exercises) or "—"
        lines.append(f"| {_clock(slot.start)} | {_link(nb)} | {taught} | {exercises} | "
                     f"{slot.reading:.0f} min | {slot.running:.1f} min | {slot.minutes} min |")
    lines.append(f"| {_clock(end)} | *end* | | | | | |")
    return lines + [""]


def _spare(minutes: int, end: str) -> str:
    return f"{minutes} minutes to spare before {end}" if minutes else f"ending at {end} sharp"


def _calibration(notebooks: dict[int, Notebook]) -> tuple[list[str], float, int]:
    rows, rule_total, header_total = [], 0.0, 0
    for nb in notebooks.values():
        reading, running = rule_minutes(nb)
        words = sum(s.words for s in nb.taught)
        rule_total += reading + running
        header_total += nb.header_minutes
        rows.append(f"| {_link(nb)} | {nb.header_minutes} min | {words:,} | {reading:.0f} min | "
                    f"{running:.1f} min | {reading + running:.0f} min | "
                    f"{reading + running - nb.header_minutes:+.0f} min |")
    return rows, rule_total, header_total


PREAMBLE = """\
Four agendas for teaching the collection in a room: three hours and a full day, for each of
the two audiences of the [introduction](intro.md). Then the kit to prepare before the day,
how the students install, and how to serve the room from one machine instead.

Every time in the agendas is computed by `tools/make_workshop.py` from the notebooks' stored
run ({dates}; the [status page](status.md) has each notebook's machine and total):

- **running**: the stored execution time of the cells, summed over each section up to the
  last one taught. A section an agenda skips is still run (Shift-Enter through it, or *Run
  All Above*): its cells define what the later ones use. It is not read;
- **reading**: the words of the Markdown and the code, at **{wpm} words a minute**, for the
  notebook's header, its *Summary* and the sections taught. The rule is calibrated against
  the chapters' own *Time* (the last section of this page);
- **in the room**: reading and running time × **{questions:g}** (allow half again for
  questions), plus **{exercise} minutes per exercise** (reading it, trying it, going through
  its solution: an allowance, not a measurement), rounded up to whole {round} minutes.

The times are those of a room whose machines are ready: the install happens before the day
(*The kit*, below), and the notebooks are opened with their stored outputs, not executed
beforehand.
"""

KIT = """\
## The kit: before the day

Once, on a machine with network and Linux x86-64 with Python 3.11:

```bash
make all                                          # checks that everything runs here
make wheelhouse WHEELHOUSE=/media/usb/wheelhouse  # every pinned wheel + the dataset files
cp -r book/_build/html /media/usb/book            # the built book: open book/index.html
```

The wheelhouse holds 200 wheels, the probe wheels notebooks 12 and 14 try, the Fashion-MNIST
files and a `SHA256SUMS` file: 3.2 GB, most of it the CUDA build of `torch` (the README's
*Offline, for a room*; `make wheelhouse TORCH_INDEX=…` there for the CPU-only build). The
built book is {book_size} ({book_files} files; measured {book_when}): it opens from the stick
in any browser, with every output, and needs no Python at all.

**The students' route.** Each laptop (Linux x86-64, Python 3.11, `make`, a copy of the
repository) installs from the stick with no network, then opens the notebooks as they are
committed, outputs included:

```bash
make setup WHEELHOUSE=/media/usb/wheelhouse   # pip install --no-index from the stick
.venv/bin/jupyter lab notebooks/
```

`make setup WHEELHOUSE=…` took {setup_time}. Not `make all`:
that executes every notebook and builds the book, {all_minutes:.0f} minutes of execution on
that machine (the [status page](status.md)) on every laptop, while the room waits. In
JupyterLab each notebook is listed twice, as `NN_topic.ipynb` and as its jupytext twin
`NN_topic.py`: open the `.ipynb`.

**What the wheelhouse fits.** Wheels are built for one operating system, CPU architecture
and Python: this wheelhouse fits **Linux x86-64 with CPython 3.11** and nothing else.

- **Python 3.11 without network.** Put an interpreter on the stick too: a standalone build
  from python-build-standalone (<https://github.com/astral-sh/python-build-standalone>, the
  `cpython-3.11.*-x86_64-unknown-linux-gnu-install_only` archive, unpacked anywhere), then
  `make setup WHEELHOUSE=… PYTHON=/path/to/python/bin/python3.11`. Not tried here.
- **macOS.** mxnet 1.9.1 has wheels on PyPI for Linux x86-64 (manylinux2014), Linux aarch64
  (manylinux2014) and macOS x86-64 (10.13 and later) only; torch 2.14.1 has wheels for Linux
  x86-64 and aarch64, macOS arm64 and Windows x86-64, none for macOS x86-64 (PyPI's file
  lists, read 2026-12-03). So no Mac installs the pinned set: an Apple-silicon Mac has no
  mxnet, an Intel Mac no torch 2.14.1. Mac users join the shared machine (below) or run a
  Linux x86-64 virtual machine.
- **Windows.** No mxnet 1.9.1 wheel for Windows: use WSL2 with a Linux distribution and
  Python 3.11 in it; the Linux wheelhouse fits it (not tried here).
- **Linux aarch64** has wheels of both, but this wheelhouse holds the x86-64 ones; an
  aarch64 wheelhouse must be made on an aarch64 machine (not tried here).
"""

SHARED = """\
## One machine for the room

JupyterLab is a single-user server: everyone who opens it shares one set of files and each
other's kernels, and logs in with the one token it prints. For a room, either every person
has their own laptop (the students' route above), or one machine runs **JupyterHub**, which
gives each user their own account, files and JupyterLab:

- **The Littlest JupyterHub** (<https://github.com/jupyterhub/the-littlest-jupyterhub>) on one Linux server: a Unix user
  per person. Its user environment has a Python of its own, which need not be 3.11: make the
  collection's `.venv` beside it (`make setup WHEELHOUSE=…` in a checkout every user can
  read) and offer it as a kernel to all users
  (`.venv/bin/python -m ipykernel install --prefix /opt/tljh/user --name sidebyside`). Not
  tried here.
- or `jupyterhub` itself with a simple spawner. {hub}

**Memory per user**: a kernel that has run notebook 3's imports cell and its first section
(both frameworks imported, Fashion-MNIST loaded by both) held {mem_idle}; running the whole
notebook, training included, its peak was {mem_peak} ({mem_when}). Each notebook a user has
open keeps its own kernel: plan for {per_user} GiB per user with one notebook open at a time
(shut the kernel of the last one down before opening the next; 30 users need {room} GiB). The
training cells want the cores too: notebook 3's §4 ran {nb3_minutes:.1f} minutes in its
stored run with two cores to itself, and a room that starts it at once shares them.
"""


def render(notebooks: Path = NOTEBOOKS) -> tuple[str, dict]:
    nbs = read_all(notebooks)
    dates = sorted({d for nb in nbs.values() for d in nb.dates})
    when = (dates[0] if len(dates) == 1 else f"{dates[0]} to {dates[-1]}") if dates else \
        "no timestamps stored"
    lines = [
        "% Written by tools/make_workshop.py (`make workshop`): edit the agendas there, not "
        "this file.",
        "",
        "# Teaching it: workshop agendas",
        "",
        PREAMBLE.format(dates=when, wpm=WORDS_PER_MINUTE, questions=QUESTIONS,
                        exercise=EXERCISE_MINUTES, round=ROUND),
    ]
    for agenda in AGENDAS:
        lines += _agenda_table(agenda, nbs)
    lines.append(KIT.format(**MEASURED, all_minutes=_all_minutes(notebooks)))
    lines.append(SHARED.format(**MEASURED, room=30 * MEASURED["per_user"],
                               nb3_minutes=nbs[3].section("4").seconds / 60))
    rows, rule_total, header_total = _calibration(nbs)
    lines += [
        "## How the reading rule was calibrated",
        "",
        f"Each chapter's header states its time to read and run it, exercises excluded (the "
        f"[introduction](intro.md)'s table repeats them). The rule above, {WORDS_PER_MINUTE} "
        f"words a minute plus the stored execution time, gives the whole chapters "
        f"{rule_total:.0f} minutes against the headers' {header_total} "
        f"({100 * (rule_total / header_total - 1):+.0f} %): about the headers' total, spread "
        "by each chapter's length, where a header is a round estimate.",
        "",
        "| chapter | header | words | reading | running | rule | rule − header |",
        "|---|---|---|---|---|---|---|",
        *rows,
        "",
    ]
    text = "\n".join(lines).rstrip("\n") + "\n"
    return text, {"agendas": len(AGENDAS), "rule minutes": round(rule_total),
                  "header minutes": header_total}


def _all_minutes(notebooks: Path) -> float:
    paths = [*sorted(notebooks.glob("[0-9][0-9]_*.ipynb")),
             *sorted(notebooks.glob("deep_dives/*.ipynb"))]
    return sum(s.seconds for p in paths for s in _sections_of_any(p)) / 60


def _sections_of_any(path: Path) -> list[Section]:
    """Sections of a notebook whose header may state no time (a deep dive)."""
    try:
        return read(path).sections
    except ValueError:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        total = Section("all", "all")
        for cell in cells:
            run = cell.get("metadata", {}).get("execution", {})
            if cell["cell_type"] == "code" and run.get("iopub.execute_input") \
                    and run.get("shell.execute_reply"):
                total.seconds += (_stamp(run["shell.execute_reply"])
                                  - _stamp(run["iopub.execute_input"])).total_seconds()
        return [total]


# Measured once, by hand (each says where and when); not computed from the notebooks.
MEASURED = {
    # du -sh / find -type f | wc -l of book/_build/html after a build from the stored outputs
    "book_size": "21 MB",
    "book_files": "269",
    "book_when": "2026-12-03, built from the stored outputs as tests/test_book.py builds it",
    # workshop/kernel_memory.py notebooks/03_mnist_mlp.ipynb (2 cells, then all): the
    # kernel's RSS after each cell and its peak (VmHWM); its unique memory (USS) was within
    # 2 % of the RSS, so two users' kernels share next to nothing
    "mem_idle": "1.1 GiB (1,111 to 1,143 MiB of resident memory in three runs)",
    "mem_peak": "1.5 GiB (1,502 MiB)",
    "mem_when": "measured 2026-12-03 on the two-core x86-64 machine with 23.5 GiB, Debian 12, "
                "the pinned .venv",
    "per_user": 2,          # GiB: the peak above, rounded up
    # make setup WHEELHOUSE=… into a fresh .venv, measured once by the maintainer
    "setup_time": "84 s on the maintainer's two-core machine (measured once, not re-run for "
                  "this page)",
    "hub": (
        "`workshop/jupyterhub_config.py` is one: a shared password "
        "(`SharedPasswordAuthenticator`), `SimpleLocalProcessSpawner` (a home folder per user, "
        "all under the Unix user that runs the hub: no isolation, which suits a room of "
        "colleagues), the notebooks copied into each home, and the collection's `.venv` as the "
        "kernel; JupyterHub itself goes into an environment of its own, not into `.venv`. Its "
        "docstring gives the commands. `workshop/hub_smoke_test.py` starts it on 127.0.0.1 for "
        "two users, starts their servers through the hub's REST API, runs a cell in each "
        "user's kernel (both frameworks imported, the Fashion-MNIST test set read) and checks "
        "that one user's file is not in the other's home: it passed on loopback on "
        "2026-12-03 (jupyterhub 6.1.1, jupyterlab 4.6.6, configurable-http-proxy 5.3.0 from "
        "npm; the hub and both servers ready in 15–25 s, each cell 5.5–8.4 s, in three runs "
        "on the busy two-core machine). Not tried with a room of browsers over a network."),
}


def main(argv: list[str] | None = None) -> int:
    return pagegen.main(render, OUT, "workshop", "Write book/workshop.md from the notebooks' "
                        "stored runs and the agendas in this file.", argv)


if __name__ == "__main__":
    sys.exit(main())
