"""sidebyside.table (aligned tables) and sidebyside.logs (root-logger capture)."""
import logging

import pytest

from sidebyside import logs, table


def test_columns_are_as_wide_as_their_widest_entry():
    rows = [{"op": "relu", "n": 7}, {"op": "max_pool2d", "n": 12345}]
    assert table.lines(rows) == ["op          n",
                                 "relu        7",
                                 "max_pool2d  12345"]


def test_a_header_wider_than_its_values_sets_the_width():
    assert table.lines([{"operator": 1, "x": 2}]) == ["operator  x", "1         2"]


def test_show_prints_the_lines(capsys):
    table.show([{"a": "x"}])
    assert capsys.readouterr().out == "a\nx\n"


@pytest.mark.parametrize("rows, message", [
    ([], "no rows"),
    ([{"a": 1}, {"b": 2}], "row 1 has keys ['b'], row 0 has ['a']"),
])
def test_bad_rows_are_refused(rows, message):
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        table.lines(rows)


def test_captured_keeps_messages_at_the_level_and_gives_the_logger_back():
    root = logging.getLogger()
    before = (root.level, root.handlers[:])
    with logs.captured() as lines:
        logging.info("kept %d", 1)
        logging.getLogger("mxnet.child").warning("from a child logger")
        logging.debug("below INFO")
    assert lines == ["kept 1", "from a child logger"]
    assert (root.level, root.handlers) == before


def test_captured_at_debug_keeps_debug_lines():
    with logs.captured(logging.DEBUG) as lines:
        logging.debug("detail")
    assert lines == ["detail"]


def test_the_logger_is_given_back_when_the_block_raises():
    root = logging.getLogger()
    before = (root.level, root.handlers[:])
    with pytest.raises(RuntimeError), logs.captured():
        raise RuntimeError("inside")
    assert (root.level, root.handlers) == before
