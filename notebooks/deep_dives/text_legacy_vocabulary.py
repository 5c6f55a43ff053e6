# %% [markdown]
# # Deep dive · WikiText2 and `Vocabulary`: the token ids a port must keep
#
# This page deepens [notebook 20](../20_sequence_models.ipynb) §9 (*Text without downloads:
# a dictionary and a corpus*). Legacy MXNet language models read their text with
# `mxnet.gluon.contrib.data.text.WikiText2` (or `WikiText103`, the same code) and number
# it with `mxnet.contrib.text.vocab.Vocabulary`. A converted model's embedding rows and
# softmax columns are numbered by that vocabulary: a port that numbers the words in any other
# order runs, and predicts the wrong words. Here, on the project's generated corpus
# (`sidebyside.textdata`, WikiText's layout, no download): where WikiText2 looks for its
# files and what its SHA-1 check does offline (§1); what it does to a file (§2); the order
# of a `Vocabulary` (§3); a PyTorch reproduction checked id for id (§4); and how
# pytorch/examples' word-language-model `Dictionary` numbers differently (§5).
#
# **Time**: about 15 minutes.

# %% tags=["nbval-ignore-output"]
import collections
import contextlib
import hashlib
import inspect
import io
import os
import re
import tempfile
from pathlib import Path

import mxnet as mx
import numpy as np
import torch
import torch.nn.functional as F
from mxnet.contrib import text as mx_text
from mxnet.gluon.contrib.data import text as mx_text_data

from sidebyside import devices, errors, seeding, textdata

WORK = Path(tempfile.mkdtemp())
paths = textdata.write_corpus(WORK)      # wiki.train.tokens, wiki.valid.tokens, wiki.test.tokens
print(f"torch {torch.__version__} · mxnet {mx.__version__}")
SEED = seeding.seed_everything(0)
devs = devices.pick()
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device

# %% [markdown]
# ## 1. Where WikiText2 looks, and its SHA-1 check
#
# `WikiText2(root, segment, vocab, seq_len)` reads one file, `root/<name>`, directly in
# `root` (no `wikitext-2/` folder inside it: the archive's members are extracted by their
# base names). The segments are called `'train'`, `'validation'` and `'test'`, and the
# default `root` is computed once, when MXNet is imported: setting `MXNET_HOME` later
# does not move it.

# %%
mx_wt2 = mx_text_data.WikiText2


class _Probe(mx_wt2):
    def _get_data(self):      # keep what __init__ sets, read nothing
        pass


mx_files = _Probe(root=str(WORK))._data_file          # segment: (file name, published SHA-1)
mx_default_root = inspect.signature(mx_wt2).parameters["root"].default
mx_home = os.environ.get("MXNET_HOME")
os.environ["MXNET_HOME"] = str(WORK)                  # too late: the default is already made
mx_default_after = inspect.signature(mx_wt2).parameters["root"].default
if mx_home is None:
    del os.environ["MXNET_HOME"]
else:
    os.environ["MXNET_HOME"] = mx_home
mx_wrong_segment = errors.catch(lambda: mx_wt2(root=str(WORK), segment="valid")).brief
assert mx_default_after == mx_default_root
assert mx_default_root == os.path.join(mx.base.data_dir(), "datasets", "wikitext-2")
assert mx_wrong_segment == ("KeyError", "'valid'")
assert mx_text_data.WikiText103.__bases__ == mx_wt2.__bases__     # the same reading code
assert {seg: name for seg, (name, _) in mx_files.items()} == {
    "train": "wiki.train.tokens", "validation": "wiki.valid.tokens", "test": "wiki.test.tokens"}
assert {seg: name for seg, (name, _) in mx_files.items()} == {
    "train": paths["train"].name, "validation": paths["valid"].name, "test": paths["test"].name}
(errors.short(mx_default_root, mx.base.data_dir(), "$MXNET_HOME"),
 {seg: name for seg, (name, _) in mx_files.items()}, mx_wrong_segment)

# %% [markdown]
# Before reading, `_get_data` compares the file's SHA-1 with the published one. Our
# corpus has WikiText's names but not its bytes, so the check fails, and MXNet then
# downloads `wikitext-2-v1.zip` (five attempts) and would extract it over our file. So that
# this cell neither downloads when online nor depends on the network, it points
# `MXNET_GLUON_REPO` at a closed local port: the same `requests` `ConnectionError`. On a
# machine without network (a 2-core x86-64 machine, 2026-12-01; not re-run here) the first
# line names the S3 host instead: `HTTPSConnectionPool(host='apache-mxnet.s3-accelerate.dualstack.amazonaws.com',
# port=443): Max retries exceeded with url: /gluon/dataset/wikitext-2/wikitext-2-v1.zip
# (Caused by NameResolutionError(...))`.

# %%
def mx_offline_failure(**options):
    """WikiText2 on a closed repository: the error, and how often it said 'Downloading'."""
    log = io.StringIO()
    old = os.environ.get("MXNET_GLUON_REPO")
    os.environ["MXNET_GLUON_REPO"] = "http://127.0.0.1:9/"
    try:
        with contextlib.redirect_stdout(log):
            failure = errors.catch(lambda: mx_wt2(**options))
    finally:
        if old is None:
            del os.environ["MXNET_GLUON_REPO"]
        else:
            os.environ["MXNET_GLUON_REPO"] = old
    return failure, log.getvalue().count("Downloading ")


before = {p.name: p.read_bytes() for p in WORK.iterdir()}
mx_failure, mx_attempts = mx_offline_failure(root=str(WORK))
ours = hashlib.sha1(paths["train"].read_bytes()).hexdigest()
assert len(ours) == len(mx_files["train"][1]) == 40 and ours != mx_files["train"][1]
assert mx_failure.type == "ConnectionError" and mx_attempts == 5
assert mx_failure.line.startswith(
    "HTTPConnectionPool(host='127.0.0.1', port=9): Max retries exceeded with url: "
    "/gluon/dataset/wikitext-2/wikitext-2-v1.zip")
assert {p.name: p.read_bytes() for p in WORK.iterdir()} == before   # nothing written
(mx_failure.type, mx_failure.line.split(" (Caused by")[0], f"{mx_attempts} attempts")

# %% [markdown]
# **A workaround** for running a legacy pipeline offline on files of our own: a subclass
# whose `_get_data` puts the file's own SHA-1 in place of the published one, then runs
# MXNet's own `_get_data` unchanged, so the check passes, nothing is downloaded, and the
# reading and the cutting are MXNet's. It leans on private attributes (`_data_file`,
# `_segment`, `_root`) of MXNet 1.9.1: a tool for checking a port, not for production.

# %%
class LocalWikiText2(mx_text_data.WikiText2):
    """WikiText2 over a file of our own under WikiText's name (a workaround: no SHA-1 check)."""

    def __init__(self, root, segment="train", vocab=None, seq_len=35):
        if not Path(root).expanduser().is_dir():        # MXNet would make the folder
            raise FileNotFoundError(f"root {root}: not a folder")
        super().__init__(root=root, segment=segment, vocab=vocab, seq_len=seq_len)

    def _get_data(self):
        name, _ = self._data_file[self._segment]
        path = Path(self._root, name)
        if not path.is_file():
            raise FileNotFoundError(f"{path}: no such file (segment {self._segment!r})")
        own = hashlib.sha1(path.read_bytes()).hexdigest()
        self._data_file = {**self._data_file, self._segment: (name, own)}
        super()._get_data()


log = io.StringIO()
with contextlib.redirect_stdout(log):
    mx_train = LocalWikiText2(str(WORK))
mx_missing = errors.catch(lambda: LocalWikiText2(str(WORK / "nowhere")))
assert "Downloading" not in log.getvalue() and len(mx_train) > 0
assert {p.name: p.read_bytes() for p in WORK.iterdir()} == before
assert mx_missing.brief == ("FileNotFoundError", f"root {WORK / 'nowhere'}: not a folder")
assert not (WORK / "nowhere").exists()
(len(mx_train), errors.short(mx_missing, WORK))

# %% [markdown]
# ## 2. What WikiText2 does to a file
#
# A file small enough to read by eye: a blank line, a heading, a blank line, two
# paragraph lines, a blank line.

# %%
tiny = WORK / "tiny"
tiny.mkdir()
(tiny / "wiki.train.tokens").write_text("\n = Tiny = \n\n b a b . \n a c . \n\n",
                                        encoding="utf-8")
mx_tiny = LocalWikiText2(str(tiny), seq_len=5)
mx_tiny_vocab = mx_tiny.vocabulary
mx_tiny_data = [mx_tiny_vocab.to_tokens(d.asnumpy().tolist()) for d, _ in
                (mx_tiny[k] for k in range(len(mx_tiny)))]
mx_tiny_label = [mx_tiny_vocab.to_tokens(y.asnumpy().tolist()) for _, y in
                 (mx_tiny[k] for k in range(len(mx_tiny)))]
mx_tiny_data, mx_tiny_label

# %% [markdown]
# Read off the samples: blank lines give nothing; every other line, the heading
# included, is split on whitespace and gets one `<eos>`; the flat stream (13 tokens here)
# is cut into rows of `seq_len` (5 here), the label row is the same stream shifted by one,
# and what does not fill a whole row is dropped: `(13 − 1) // 5 = 2` samples, the last
# `. <eos>` never seen (and `c` only as a label). Each sample is a pair of `int32` NDArrays.

# %%
stream = "= Tiny = <eos> b a b . <eos> a c . <eos>".split()
assert [t for row in mx_tiny_data for t in row] == stream[:10]
assert [t for row in mx_tiny_label for t in row] == stream[1:11]
assert len(stream) == 13 and len(mx_tiny) == (len(stream) - 1) // 5 == 2
mx_sample = mx_tiny[0]
assert isinstance(mx_sample[0], mx.nd.NDArray) and mx_sample[0].dtype == np.int32
assert mx_sample[0].shape == mx_sample[1].shape == (5,)
assert "<eos>" not in mx_tiny.frequencies and mx_tiny_vocab.to_indices("<eos>") == 1
(len(mx_tiny), mx_sample[0].dtype.__name__, mx_tiny_vocab.idx_to_token)

# %% [markdown]
# Two tokenizers meet here. The vocabulary is counted by `count_tokens_from_str`, which
# splits on `' '` and `'\n'` only; the stream is split by `str.split()`, on any whitespace.
# A tab (or another whitespace character) inside a line therefore makes a vocabulary entry
# that never occurs, and words that occur but are `<unk>`:

# %%
tabbed = WORK / "tabbed"
tabbed.mkdir()
(tabbed / "wiki.train.tokens").write_text(" a\tc b \n b . \n", encoding="utf-8")
mx_tabbed = LocalWikiText2(str(tabbed), seq_len=6)
mx_tabbed_tokens = mx_tabbed.vocabulary.to_tokens(mx_tabbed[0][0].asnumpy().tolist())
assert "a\tc" in mx_tabbed.vocabulary.token_to_idx
assert mx_tabbed_tokens == ["<unk>", "<unk>", "b", "<eos>", "b", "."]
(mx_tabbed.vocabulary.idx_to_token, mx_tabbed_tokens)

# %% [markdown]
# On the generated corpus: one `<eos>` per non-blank line, and a vocabulary made from the
# file being read. A `validation` or `test` dataset built without `vocab=` numbers its
# words by *its own* counts, so the same id means another word than in training; the
# legacy scripts pass `vocab=train.vocabulary`.

# %%
train_lines = paths["train"].read_text(encoding="utf-8").splitlines()
mx_train_ids = np.concatenate([mx_train._data.asnumpy().ravel(), mx_train._label.asnumpy()[-1, -1:]])
mx_valid_own = LocalWikiText2(str(WORK), segment="validation")
mx_valid_train = LocalWikiText2(str(WORK), segment="validation", vocab=mx_train.vocabulary)
mx_valid_ids = {"own vocabulary": mx_valid_own[0][0].asnumpy(),
                "train's": mx_valid_train[0][0].asnumpy()}
mx_differ = int((mx_valid_ids["own vocabulary"] != mx_valid_ids["train's"]).sum())
nonblank = sum(1 for line in train_lines if line.strip())
headings = sum(1 for line in train_lines if line.strip().startswith("= "))
assert nonblank < len(train_lines) and headings > 0
# the cut drops fewer than seq_len tokens, each of which could be an <eos>
assert nonblank - 35 < int((mx_train_ids == 1).sum()) <= nonblank
assert mx_valid_own.vocabulary.idx_to_token != mx_train.vocabulary.idx_to_token
assert mx_differ > 0
{"lines": len(train_lines), "non-blank (headings too)": nonblank, "headings": headings,
 "ids of valid's first sample that change": f"{mx_differ} of 35"}

# %% [markdown]
# ## 3. The order of a `Vocabulary`
#
# `Vocabulary(counter, most_freq_count=None, min_freq=1, unknown_token='<unk>',
# reserved_tokens=None)`: index 0 is the unknown token, then the reserved tokens in the
# order given (WikiText2 reserves `['<eos>']`), then the counter's keys by decreasing
# count. Ties are broken by sorting the tokens (Python's string order, by code point:
# `','` before `'and'`, `'The'` before `'old'`), not by first appearance: MXNet sorts by
# token, then stably by count (`_index_counter_keys`). The corpus has a four-way tie:

# %%
mx_vocab = mx_train.vocabulary
mx_counts = mx_train.frequencies
tie = [t for t in mx_vocab.idx_to_token if mx_counts[t] == mx_counts["The"]]
first_seen = [t for t in mx_counts if mx_counts[t] == mx_counts["The"]]   # insertion order
most_common = ["<unk>", "<eos>"] + [t for t, _ in mx_counts.most_common() if t != "<unk>"]
assert mx_vocab.idx_to_token[:2] == ["<unk>", "<eos>"]
assert mx_counts[","] == mx_counts["and"] and mx_vocab.to_indices([",", "and"]) == [17, 18]
assert len(tie) == 4 and tie == sorted(tie) and first_seen != tie
assert mx_vocab.idx_to_token[2:] == sorted(mx_counts.keys() - {"<unk>"},
                                           key=lambda t: (-mx_counts[t], t))
assert most_common != mx_vocab.idx_to_token     # Counter.most_common() is not the order
{"tie (count 60)": tie, "first seen": first_seen,
 "ids": mx_vocab.to_indices(tie), "case": mx_vocab.to_indices(["The", "the"])}

# %% [markdown]
# The two thresholds: `most_freq_count=n` keeps the `n` most frequent tokens beyond the
# unknown and reserved ones (a cut inside a tie keeps the tie's first tokens in string
# order), `min_freq` drops tokens counted fewer times. The unknown token's own count (our
# corpus, like WikiText, has `<unk>` in its text) does not move it from index 0. An unknown
# word gets index 0; an index past the end is a `ValueError`.

# %%
mx_top6 = mx_text.vocab.Vocabulary(mx_counts, most_freq_count=6, reserved_tokens=["<eos>"])
mx_min60 = mx_text.vocab.Vocabulary(mx_counts, min_freq=60, reserved_tokens=["<eos>"])
mx_past_end = errors.catch(mx_vocab.to_tokens, len(mx_vocab)).brief
assert mx_counts["bird"] == mx_counts["stone"] and len(mx_top6) == 2 + 6
assert mx_top6.to_indices(["bird", "stone"]) == [7, 0]
assert mx_counts["<unk>"] > 1 and mx_vocab.to_indices("<unk>") == 0
assert min(mx_counts[t] for t in mx_min60.idx_to_token[2:]) >= 60
assert mx_min60.to_indices("quiet") > 0 and mx_min60.to_indices("leaves") == 0
assert mx_vocab.to_indices(["the", "dragon"]) == [2, 0] and mx_vocab.to_indices("dragon") == 0
assert mx_past_end == ("ValueError",
                       f"Token index {len(mx_vocab)} in the provided `indices` is invalid.")
{"most_freq_count=6": mx_top6.idx_to_token, "min_freq=60": len(mx_min60),
 "counts": (mx_counts["quiet"], mx_counts["leaves"]), "<unk> in the text": mx_counts["<unk>"],
 "past the end": mx_past_end}

# %% [markdown]
# ## 4. The same ids in PyTorch, without MXNet
#
# **PyTorch**: the pipeline in a few lines of our own: counts as `count_tokens_from_str`
# makes them, the vocabulary's order (count down, then token), the stream of non-blank
# lines with `<eos>`, and the cut into `(data, label)` rows. The ids are `int64`, what
# `nn.Embedding` and `F.cross_entropy` take.

# %% tags=["pytorch"]
def pt_count(text):
    """Token counts as MXNet's count_tokens_from_str makes them: split on ' ' and '\\n'."""
    return collections.Counter(t for t in re.split(r" |\n", text) if t)


class PtVocab:
    """MXNet's Vocabulary order: unknown, reserved, then count down and token up."""

    def __init__(self, counts, reserved=("<eos>",), unknown="<unk>", max_size=None, min_freq=1):
        if min_freq < 1 or unknown in reserved or len(set(reserved)) != len(reserved):
            raise ValueError(f"min_freq={min_freq} (>= 1), reserved={reserved!r} (distinct, "
                             f"without {unknown!r})")
        special = [unknown, *reserved]
        ranked = sorted((t for t, n in counts.items() if n >= min_freq and t not in special),
                        key=lambda t: (-counts[t], t))
        self.itos = special + ranked[:max_size]
        self.stoi = {t: i for i, t in enumerate(self.itos)}

    def __len__(self):
        return len(self.itos)

    def ids(self, tokens):
        return [self.stoi.get(t, 0) for t in tokens]


def pt_stream(text):
    """WikiText2's tokens: each non-blank line split on whitespace, then <eos>."""
    return [t for line in text.splitlines() if line.split() for t in line.split() + ["<eos>"]]


def pt_samples(ids, seq_len):
    """(data, label) rows of seq_len; the label is the stream shifted by one."""
    ids = torch.tensor(ids, dtype=torch.int64)
    n = (len(ids) - 1) // seq_len * seq_len
    return ids[:n].view(-1, seq_len), ids[1:n + 1].view(-1, seq_len)


pt_text = {split: paths[split].read_text(encoding="utf-8") for split in ("train", "valid")}
pt_vocab = PtVocab(pt_count(pt_text["train"]))
pt_train = pt_samples(pt_vocab.ids(pt_stream(pt_text["train"])), 35)
pt_valid = pt_samples(pt_vocab.ids(pt_stream(pt_text["valid"])), 35)
(len(pt_vocab), tuple(pt_train[0].shape), pt_train[0].dtype)

# %% [markdown]
# **MXNet**: the legacy pipeline (through §1's workaround), the validation split with the
# training vocabulary.

# %% tags=["mxnet"]
mx_train = LocalWikiText2(str(WORK), segment="train", seq_len=35)
mx_valid = LocalWikiText2(str(WORK), segment="validation", vocab=mx_train.vocabulary, seq_len=35)
mx_rows = {name: tuple(np.stack([ds[k][j].asnumpy() for k in range(len(ds))]) for j in (0, 1))
           for name, ds in (("train", mx_train), ("valid", mx_valid))}
(len(mx_train.vocabulary), mx_rows["train"][0].shape, mx_rows["train"][0].dtype)

# %% [markdown]
# Element for element: the vocabulary, every data and label row of both splits, other
# sequence lengths, the thresholds, and the tabbed file of §2. The ids MXNet gives are
# `int32`, which `F.cross_entropy` refuses as a target: convert with `.long()`.

# %%
assert pt_vocab.itos == mx_train.vocabulary.idx_to_token
for name, pt_pair in (("train", pt_train), ("valid", pt_valid)):
    for pt_part, mx_part in zip(pt_pair, mx_rows[name]):
        assert pt_part.shape == mx_part.shape
        assert torch.equal(pt_part, torch.from_numpy(mx_part).long()), name
for seq_len in (1, 7, 64):
    mx_ds = LocalWikiText2(str(WORK), seq_len=seq_len)
    pt_data, pt_label = pt_samples(pt_vocab.ids(pt_stream(pt_text["train"])), seq_len)
    assert len(pt_data) == len(mx_ds), seq_len
    assert torch.equal(pt_data, torch.from_numpy(mx_ds._data.asnumpy()).long()), seq_len
    assert torch.equal(pt_label, torch.from_numpy(mx_ds._label.asnumpy()).long()), seq_len
for size, least in ((6, 1), (None, 60), (10, 70), (0, 1), (None, 1000)):
    pt_cut = PtVocab(pt_count(pt_text["train"]), max_size=size, min_freq=least).itos
    mx_cut = mx_text.vocab.Vocabulary(mx_counts, most_freq_count=size, min_freq=least,
                                      reserved_tokens=["<eos>"]).idx_to_token
    assert pt_cut == mx_cut, (size, least)
pt_tab_text = (tabbed / "wiki.train.tokens").read_text(encoding="utf-8")
pt_tab_vocab = PtVocab(pt_count(pt_tab_text))
assert pt_tab_vocab.itos == mx_tabbed.vocabulary.idx_to_token
assert pt_tab_vocab.ids(pt_stream(pt_tab_text))[:6] == mx_tabbed[0][0].asnumpy().tolist()
pt_logits = torch.zeros(35, len(pt_vocab))
mx_target = torch.from_numpy(mx_rows["train"][1][0])
assert errors.catch(F.cross_entropy, pt_logits, mx_target).brief == (
    "RuntimeError", "expected target dtype to be Long or Byte, but got Int")
assert F.cross_entropy(pt_logits, mx_target.long()).shape == ()
"identical: vocabulary, ids, (data, label) rows of train and valid, cuts, thresholds"

# %% [markdown]
# ## 5. pytorch/examples' `Dictionary` numbers differently
#
# The word-language-model example of pytorch/examples
# (<https://github.com/pytorch/examples/tree/main/word_language_model>, `data.py`) reads
# `train.txt`, `valid.txt` and `test.txt` into one `Dictionary` that gives each word the next
# free index when it is **first seen**, reading train, then valid, then test; every line
# read, a blank one too, gets `<eos>`; `<unk>` is an ordinary word, numbered where it
# first appears; the ids are `int64`. Written here from that description (our code, not the
# example's), on the same three files:

# %%
def first_seen_ids(files):
    """Ids by first appearance over the files in order; <eos> after every line read."""
    index, streams = {}, []
    for path in files:
        with open(path, encoding="utf-8") as f:
            tokens = [t for line in f for t in line.split() + ["<eos>"]]
        streams.append([index.setdefault(t, len(index)) for t in tokens])
    return index, streams


ex_index, ex_streams = first_seen_ids([paths["train"], paths["valid"], paths["test"]])
ex_eos = ex_streams[0].count(ex_index["<eos>"])
mx_eos = pt_stream(pt_text["train"]).count("<eos>")
ex_moved = sum(1 for t in ex_index if ex_index[t] != mx_train.vocabulary.to_indices(t))
assert ex_eos == len(train_lines) and mx_eos == nonblank and ex_eos > mx_eos
assert ex_index["<eos>"] == 0 and ex_index["<unk>"] != 0     # the first line is blank
assert set(ex_index) == set(mx_train.vocabulary.idx_to_token) and ex_moved > 0
{"<eos> in train (examples)": ex_eos, "<eos> in train (WikiText2)": mx_eos,
 "<unk>": (ex_index["<unk>"], 0), "words whose id moves": f"{ex_moved} of {len(ex_index)}"}

# %% [markdown]
# A model trained with MXNet's ids keeps its rows only under MXNet's numbering. To use it
# with the other numbering, permute the rows: the row of word `w` moves from MXNet's index
# to the new one. Keeping the matrix as it is gives every word another word's row:

# %%
mx_weight = torch.randn(len(mx_train.vocabulary), 8, generator=torch.Generator().manual_seed(SEED))
perm = torch.tensor([mx_train.vocabulary.to_indices(t) for t in sorted(ex_index, key=ex_index.get)])
pt_weight = mx_weight[perm]                # row ex_index[w] holds MXNet's row of w
for t in ex_index:
    assert torch.equal(pt_weight[ex_index[t]], mx_weight[mx_train.vocabulary.to_indices(t)]), t
assert not torch.equal(mx_weight[ex_index["the"]], mx_weight[mx_train.vocabulary.to_indices("the")])
"permuted rows: every word keeps its vector; unpermuted: 'the' reads another word's row"

# %% [markdown]
# ## What this means for a port
#
# - Number words as MXNet did, or permute the converted rows: `<unk>` = 0, the reserved
#   tokens next (`<eos>` = 1 for WikiText2), then the training split's counts downwards,
#   ties in string order: `sorted(counts, key=lambda t: (-counts[t], t))`. Neither
#   `Counter.most_common()` nor first-appearance numbering gives this order.
# - Count with `count_tokens_from_str`'s rule (split on `' '` and `'\n'`) and cut the stream
#   with `str.split()`; add `<eos>` after each non-blank line, headings included, and none
#   for blank lines. Samples are `seq_len` slices of one flat stream, labels shifted by one,
#   the last partial row dropped; the ids arrive as `int32`: `.long()` them for PyTorch.
# - Build the validation and test splits with the training vocabulary
#   (`vocab=train.vocabulary`): WikiText2 without it numbers each split by its own counts.
# - WikiText2 reads `root/wiki.<split>.tokens`, segments `'train'`, `'validation'`,
#   `'test'`; a file that fails the SHA-1 check triggers a download (five attempts, a
#   `ConnectionError` offline) that would overwrite it when online. On files of your own,
#   bypass the check deliberately (§1's subclass), never by dropping files under its names
#   and hoping.
