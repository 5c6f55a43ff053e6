"""book/workshop.md is what tools/make_workshop.py writes from the stored notebooks, and its
times are the notebooks' own: sections split where the headings are, execution summed as the
status page sums it, agendas that fit their slots, the reading rule still calibrated."""

import json

import pytest

from conftest import ROOT, load_tool



@pytest.fixture(scope="module")
def tool():
    return load_tool("make_workshop")


@pytest.fixture(scope="module")
def notebooks(tool):
    return tool.read_all()


def test_committed_page_is_what_the_tool_writes(tool):
    committed = (ROOT / "book" / "workshop.md").read_text(encoding="utf-8")
    assert committed == tool.render()[0], "book/workshop.md is out of date: run `make workshop`"


def test_check_mode_tells_a_stale_page(tool, tmp_path):
    page = tmp_path / "workshop.md"
    page.write_text(tool.render()[0] + "edited by hand\n", encoding="utf-8")
    assert tool.main(["--check", "--out", str(page)]) == 1
    assert tool.main(["--out", str(page)]) == 0
    assert tool.main(["--check", "--out", str(page)]) == 0


def test_sections_hold_every_word_and_the_status_pages_seconds(notebooks):
    """Splitting at the ## headings loses nothing: the words of all cells and the execution
    time tools/make_status.py sums for the notebook are the sections' totals."""
    status = load_tool("make_status")
    for nb in notebooks.values():
        path = ROOT / "notebooks" / f"{nb.stem}.ipynb"
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        words = sum(len("".join(c["source"]).split()) for c in cells
                    if c["cell_type"] in ("markdown", "code"))
        assert sum(s.words for s in nb.sections) == words, nb.stem
        assert sum(s.seconds for s in nb.sections) == pytest.approx(status.read(path).seconds), \
            nb.stem
        numbers = [s.number for s in nb.numbered]
        assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 3, nb.stem
        keys = [s.key for s in nb.sections]
        assert keys[0] == "header" and "Summary" in keys and keys[-1] == "Exercises", nb.stem
        assert len(nb.exercises) >= 2, nb.stem


def test_notebook_3_section_4_holds_the_training(notebooks):
    """The training loop is where the stored run spent most of notebook 3's time (the
    epochs, from memory, and the float64 and float32 lockstep runs)."""
    nb = notebooks[3]
    total = sum(s.seconds for s in nb.sections)
    assert nb.section("4").seconds == max(s.seconds for s in nb.sections)
    assert nb.section("4").seconds > 0.5 * total
    assert nb.section("4").title == "4. Training loop"


def test_every_agenda_fits_and_teaches_what_exists(tool, notebooks):
    assert {a.slug for a in tool.AGENDAS} >= {"mxnet-to-pytorch-3h", "pytorch-to-gluon-3h"}
    for agenda in tool.AGENDAS:
        slots = tool.schedule(agenda, notebooks)
        end = slots[-1].start + slots[-1].minutes
        assert end <= tool._parse(agenda.end)
        if agenda.slug.endswith("-3h"):
            assert end - tool._parse(agenda.start) <= 180
        assert any(isinstance(s.item, tool.Pause) for s in slots)
        assert all(s.minutes % tool.ROUND == 0 for s in slots)


def test_a_skipped_section_is_run_but_not_read(tool, notebooks):
    nb = notebooks[3]
    reading, running, room = tool.block_minutes(nb, tool.Teach(3, (4,)))
    read = {"header", "4", "Summary"}
    assert reading == pytest.approx(sum(s.reading for s in nb.sections if s.key in read))
    assert running == pytest.approx(sum(nb.section(k).seconds for k in ("header", "1", "2", "3",
                                                                         "4")) / 60)
    assert room == 5 * -(-(1.5 * (reading + running)) // 5)
    _, _, with_exercise = tool.block_minutes(nb, tool.Teach(3, (4,), (1,)))
    assert with_exercise - room == tool.EXERCISE_MINUTES


def test_an_agenda_that_overruns_or_names_what_is_not_there_is_refused(tool, notebooks):
    long = tool.Agenda("too-long", "t", "a", "09:00", "09:30", (tool.Teach(3, (1, 2, 3, 4)),))
    with pytest.raises(ValueError, match="ends at 10:00, after its end 09:30"):
        tool.schedule(long, notebooks)
    with pytest.raises(KeyError, match="03_mnist_mlp: no section '9'"):
        tool.block_minutes(notebooks[3], tool.Teach(3, (9,)))
    with pytest.raises(ValueError, match="no exercise 7"):
        tool.block_minutes(notebooks[3], tool.Teach(3, (1,), (7,)))


def test_the_reading_rule_stays_calibrated_against_the_headers(tool, notebooks):
    """Over all chapters the rule (words at WORDS_PER_MINUTE plus the stored execution) gives
    the headers' total within 10 %; no chapter is off by more than half its header time."""
    rule = {n: sum(tool.rule_minutes(nb)) for n, nb in notebooks.items()}
    headers = {n: nb.header_minutes for n, nb in notebooks.items()}
    assert abs(sum(rule.values()) - sum(headers.values())) <= 0.1 * sum(headers.values())
    off = {n: round(rule[n]) for n in rule if abs(rule[n] - headers[n]) > 0.5 * headers[n]}
    assert off == {}, f"chapters whose header time the rule misses by half: {off}"

