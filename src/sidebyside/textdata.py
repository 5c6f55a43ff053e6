"""A small word-level corpus, generated here: the sequence notebooks need text and no download.

:func:`write_corpus` writes three files in WikiText's layout and names (``wiki.train.tokens``,
``wiki.valid.tokens``, ``wiki.test.tokens``): heading lines `` = Title = ``, blank lines, and
paragraphs of space-separated tokens where rare words are already ``<unk>``, as in WikiText-2.
The sentences come from a small grammar with a seeded :class:`random.Random`, so every machine
writes the same bytes (:func:`corpus_lines` is the text without the files), and a language
model has something to learn: which words follow which.

>>> lines = corpus_lines("valid")
>>> lines[:2]
['', ' = The old city = ']
>>> corpus_lines("valid") == lines     # the same text every time
True
"""

from __future__ import annotations

import os
import random
from pathlib import Path

__all__ = ["SPLITS", "FILE_NAMES", "corpus_lines", "write_corpus"]

#: the number of paragraphs in each split (valid and test are seeded apart from train)
SPLITS = {"train": 60, "valid": 8, "test": 8}
#: each split's file name, WikiText's own
FILE_NAMES = {split: f"wiki.{split}.tokens" for split in SPLITS}

_ADJECTIVES = ("old", "small", "red", "quiet", "bright", "long", "cold", "green")
_NOUNS = ("river", "city", "bird", "road", "king", "ship", "garden", "tower", "song", "stone")
_VERBS = ("crosses", "follows", "finds", "keeps", "sees", "builds", "leaves", "holds")
_ADVERBS = ("slowly", "again", "often", "today")
_PLACES = ("north", "south", "sea", "hills", "valley")
_RARE = ("<unk>",)   # WikiText has already replaced its rare words with <unk>


def _noun_phrase(rng: random.Random) -> list[str]:
    words = ["the"]
    if rng.random() < 0.5:
        words.append(rng.choice(_ADJECTIVES))
    words.append(rng.choice(_NOUNS) if rng.random() > 0.04 else _RARE[0])
    return words


def _sentence(rng: random.Random) -> list[str]:
    words = _noun_phrase(rng) + [rng.choice(_VERBS)] + _noun_phrase(rng)
    if rng.random() < 0.3:
        words += ["in", "the", rng.choice(_PLACES)]
    if rng.random() < 0.2:
        words.append(rng.choice(_ADVERBS))
    if rng.random() < 0.25:
        words += [",", "and"] + _noun_phrase(rng) + [rng.choice(_VERBS)] + _noun_phrase(rng)
    return words + ["."]


def corpus_lines(split: str, seed: int = 0) -> list[str]:
    """The lines of one split (``"train"``, ``"valid"`` or ``"test"``), without newlines."""
    if split not in SPLITS:
        raise ValueError(f"split {split!r}: expected one of {', '.join(SPLITS)}")
    rng = random.Random(f"{seed}:{split}")
    lines = []
    for _ in range(SPLITS[split]):
        title = " ".join(["The", rng.choice(_ADJECTIVES), rng.choice(_NOUNS)])
        lines += ["", f" = {title} = ", ""]
        for _ in range(rng.randint(1, 3)):
            words = [w for _ in range(rng.randint(2, 5)) for w in _sentence(rng)]
            lines.append(" " + " ".join(words) + " ")
    return lines


def write_corpus(folder, seed: int = 0) -> dict[str, Path]:
    """Write the three splits into ``folder`` (which must exist); their paths by split.

    All or nothing: the three files are written to temporary names first and renamed only
    when all three are written; on a failure nothing of this call is left in ``folder``.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"{folder}: not a folder (make it first)")
    paths = {split: folder / name for split, name in FILE_NAMES.items()}
    for path in paths.values():
        if path.is_dir():
            raise IsADirectoryError(f"{path}: could not be written: a folder has its name")
    temps = {split: folder / f".{path.name}.{os.getpid()}.tmp" for split, path in paths.items()}
    try:
        for split, tmp in temps.items():
            try:
                tmp.write_text("\n".join(corpus_lines(split, seed)) + "\n", encoding="utf-8")
            except OSError as err:
                raise OSError(f"{paths[split]}: could not be written: "
                              f"{err.strerror or err}") from None
        renamed = []
        for split, tmp in temps.items():
            try:
                os.replace(tmp, paths[split])
            except OSError as err:
                for done in renamed:         # this call's files go too: all or nothing
                    done.unlink(missing_ok=True)
                raise OSError(f"{paths[split]}: could not be written: "
                              f"{err.strerror or err}") from None
            renamed.append(paths[split])
    finally:
        for tmp in temps.values():
            tmp.unlink(missing_ok=True)
    return paths
