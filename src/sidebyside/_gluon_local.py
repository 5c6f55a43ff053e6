"""Gluon's MNIST-family classes reading local files whose gzip wrapper differs from Gluon's.

Gluon checks the SHA-1 of each *gzipped* file and re-downloads when it differs. A faithful
copy that was recompressed (Debian's Fashion-MNIST) has the original bytes inside a different
wrapper. These subclasses check the *decompressed* bytes against the original release's MD5s,
then hand the file to Gluon's own ``_get_data`` (parsing, dtype, shapes: all Gluon's).
"""
from __future__ import annotations

import os

from mxnet.gluon.data import vision

from .idx import SPECS, DatasetUnavailable, check_original, read_idx_bytes, sha1_file


class _ContentVerified:
    _spec_name: str

    def _get_data(self):
        spec = SPECS[self._spec_name]
        attrs = ("_train_data", "_train_label") if self._train else ("_test_data", "_test_label")
        for attr in attrs:
            fname, _gluon_sha1 = getattr(self, attr)
            path = os.path.join(self._root, fname)
            if not os.path.isfile(path):
                raise DatasetUnavailable(f"{path} is missing; run sidebyside.data.prepare() first")
            check_original(spec, fname[: -len(".gz")], read_idx_bytes(path), path)
            # The content is verified: let Gluon's download() accept this exact file.
            setattr(self, attr, (fname, sha1_file(path)))
        super()._get_data()


class VerifiedMNIST(_ContentVerified, vision.MNIST):
    _spec_name = "mnist"


class VerifiedFashionMNIST(_ContentVerified, vision.FashionMNIST):
    _spec_name = "fashion-mnist"
