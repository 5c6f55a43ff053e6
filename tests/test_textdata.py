"""sidebyside.textdata: the generated corpus is the same bytes everywhere, in WikiText's layout."""

import hashlib
import os

import pytest

from sidebyside import textdata

# The bytes this module wrote when the notebooks' stored outputs were made (Python 3.11,
# 2026-12-01). random.Random with a str seed and its choice/randint are specified by CPython
# and do not depend on the machine: a change here changes notebook 20's vocabulary and the
# deep dives' ids, so it must be deliberate.
DIGESTS = {
    "train": "3f580e6083f4e844a380c3ad11b1d9ed8d1cda3540d53917b038e17639885c15",
    "valid": "a768f532c79d68afa8d95d1276f068c8b9e554b6889fdc5c857e657e17bfa923",
    "test": "f65b4a562eb0d5aef7b06eebafd2b9eb1c4f854121b90c728cde756b823ff876",
}


def test_the_files_are_the_same_bytes_on_every_machine(tmp_path):
    paths = textdata.write_corpus(tmp_path)
    assert {split: p.name for split, p in paths.items()} == {
        "train": "wiki.train.tokens", "valid": "wiki.valid.tokens", "test": "wiki.test.tokens"}
    for split, path in paths.items():
        assert hashlib.sha256(path.read_bytes()).hexdigest() == DIGESTS[split], split
    assert sorted(os.listdir(tmp_path)) == sorted(textdata.FILE_NAMES.values())  # no leftovers


def test_the_layout_is_wikitexts():
    lines = textdata.corpus_lines("train")
    headings = [line for line in lines if line.startswith(" = ")]
    assert len(headings) == textdata.SPLITS["train"]
    assert all(line.endswith(" = ") and line.count(" = ") == 2 for line in headings)
    assert lines[0] == "" and "" in lines[3:]
    words = [w for line in lines for w in line.split()]
    assert "<unk>" in words and "." in words and "," in words
    assert all(w == w.strip() and w for w in words)
    assert 30 < len(set(words)) < 60 and len(words) > 4000     # small, but worth learning


def test_splits_and_seeds_differ_and_a_bad_split_is_named():
    assert textdata.corpus_lines("valid") != textdata.corpus_lines("test")
    assert textdata.corpus_lines("valid", seed=1) != textdata.corpus_lines("valid")
    assert textdata.corpus_lines("valid", seed=1) == textdata.corpus_lines("valid", seed=1)
    with pytest.raises(ValueError, match="split 'validation': expected one of train, valid, test"):
        textdata.corpus_lines("validation")


def test_a_missing_folder_is_named_and_nothing_is_made(tmp_path):
    with pytest.raises(FileNotFoundError, match="nowhere: not a folder"):
        textdata.write_corpus(tmp_path / "nowhere")
    assert not (tmp_path / "nowhere").exists()


def test_a_failed_write_leaves_no_partial_file(tmp_path, monkeypatch):
    """A failure while writing leaves no file and no .tmp, and names the file."""
    real = textdata.Path.write_text

    def fail_half_way(self, text, *args, **kwargs):
        real(self, text[: len(text) // 2], *args, **kwargs)
        raise OSError("disk full")

    monkeypatch.setattr(textdata.Path, "write_text", fail_half_way)
    with pytest.raises(OSError, match="wiki.train.tokens: could not be written: disk full"):
        textdata.write_corpus(tmp_path)
    assert os.listdir(tmp_path) == []


def test_a_failure_on_the_last_file_leaves_none_of_the_three(tmp_path):
    """All or nothing: the test split cannot be written (a folder holds its name), so the
    train and valid files are not left behind either, and the message names the file."""
    (tmp_path / "wiki.test.tokens").mkdir()
    with pytest.raises(OSError, match=r"wiki\.test\.tokens: could not be written"):
        textdata.write_corpus(tmp_path)
    assert os.listdir(tmp_path) == ["wiki.test.tokens"]
