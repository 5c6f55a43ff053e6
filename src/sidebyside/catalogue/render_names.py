"""Where an entry sits on the book's page of MXNet's API (standard library only): the page's
link, title and each entry's anchor, shared by the page generator and the readers that link
to it (:mod:`sidebyside.migrate`, :func:`sidebyside.apimap.find`)."""

from __future__ import annotations

import re

__all__ = ["PAGE_LINK", "PAGE_TITLE", "anchor_of", "slug"]

PAGE_LINK = "mxnet_api.md"        # relative to book/
PAGE_TITLE = "All of MXNet's API"


def anchor_of(entry) -> str:
    """The HTML id of an entry's row: ``api-mx-nd-topk--ret_typ-both``; case is kept
    (``mx.nd.Reshape`` and ``mx.nd.reshape`` are two entries)."""
    return "api-" + slug(entry)


def slug(entry) -> str:
    """An entry's key as one token of letters, digits, ``_`` and ``-``
    (``mx-nd-topk--ret_typ-both``): its row's id, its test's id."""
    text = entry.mx + (f"--{entry.form}" if entry.form else "")
    return re.sub(r"[^A-Za-z0-9_]+", "-", text).strip("-")
