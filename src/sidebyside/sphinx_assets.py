"""A Sphinx extension for the book: what a browser shows is whole and quiet.

1. Each page's ``<script>`` tags once.

Sphinx 7.4 (the series jupyter-book 1.x runs on) writes an inline script twice when an
extension registers it after the HTML builder is set up: ``app.add_js_file(None, body=...)``
hands the builder the asset with ``filename=None``, and before writing, the builder adds every
registered asset again as ``filename=''``; ``None != ''``, so the duplicate check lets the
second copy through. sphinx-thebe's ``const THEBE_JS_URL = ...`` (registered when the build
starts reading) then runs twice on every page: "SyntaxError: Identifier 'THEBE_JS_URL' has
already been declared". sphinx-togglebutton's ``var togglebuttonSelector`` is doubled the same
way. Sphinx fixed it upstream (sphinx-doc/sphinx#13402, in 8.x); until the book can move
there, this drops the repeats from each page's ``script_files`` just before it is rendered.

2. Alt text for the figures a notebook draws. myst-nb writes an output image with no ``alt``,
and docutils then uses the image's path (``../_images/<sha256>.png``) as its alt text: a
screen reader reads out a hash. An image without alt text (or with a file name for one) gets
``Figure in section “<heading>” of “<page title>”, output of cell N`` (N counts every cell of the
notebook from 1, as myst-nb's messages do). A caption or an ``alt`` set in the cell's metadata
(``mystnb: {image: {alt: ...}}``) is kept.

3. pydata-sphinx-theme's colour mode: with no ``default_mode`` in the page context (conf.py's
``html_context``) a page starts in mode ``""`` and the theme's script logs "Got invalid theme
mode: . Resetting to auto." as a console error on a reader's first visit; ``auto`` (what it
resets to) is set unless the book sets a mode.

Registered in book/_config.yml (``sphinx: extra_extensions``); tests/test_browser.py opens
every page in Chromium and checks all three.
"""
import re

from docutils import nodes

__all__ = ["unique_scripts", "figure_alt_text", "setup"]


def _key(script):
    filename = getattr(script, "filename", script) or ""
    attributes = getattr(script, "attributes", {}) or {}
    return (str(filename), getattr(script, "priority", None),
            tuple(sorted((k, str(v)) for k, v in attributes.items())))


def unique_scripts(scripts):
    """``scripts`` in order with repeats removed (a missing filename equals ``''``)."""
    seen, unique = set(), []
    for script in scripts:
        key = _key(script)
        if key not in seen:
            seen.add(key)
            unique.append(script)
    return unique


def _drop_repeated_scripts(app, pagename, templatename, context, doctree):
    scripts = context.get("script_files")
    if scripts:
        # in place: the builder restores this list from its own copy before the next page
        scripts[:] = unique_scripts(scripts)


_FILE_NAME = re.compile(r"(^|/)[^/\s]+\.(png|jpe?g|gif|svg|webp|pdf)$", re.I)


def _needs_alt(image):
    alt = (image.get("alt") or "").strip()
    return not alt or alt == image.get("uri") or bool(_FILE_NAME.search(alt))


def _text(node):
    return " ".join(node.astext().split())


def figure_alt_text(image, page_title):
    """Alt text for ``image`` from its caption, section heading and notebook cell."""
    figure = image.parent
    if isinstance(figure, nodes.figure):
        caption = next(iter(figure.findall(nodes.caption)), None)
        if caption is not None and _text(caption):
            return _text(caption)
    cell, section = None, None
    for ancestor in _ancestors(image):
        if cell is None and "cell_index" in ancestor.attributes:
            cell = ancestor["cell_index"]
        if section is None and isinstance(ancestor, nodes.section) and ancestor.children \
                and isinstance(ancestor[0], nodes.title):
            section = _text(ancestor[0])
    text = "Figure"
    if section and section != page_title:
        text += f" in section “{section}”"
    if page_title:
        text += f" of “{page_title}”"
    if cell is not None:
        text += f", output of cell {int(cell) + 1}"
    return text


def _ancestors(node):
    node = node.parent
    while node is not None:
        yield node
        node = node.parent


def _describe_images(app, doctree, docname):
    title = app.env.titles.get(docname)
    page_title = _text(title) if title is not None else ""
    for image in doctree.findall(nodes.image):
        if _needs_alt(image):
            image["alt"] = figure_alt_text(image, page_title)


def _default_colour_mode(app, pagename, templatename, context, doctree):
    # the theme reads it from the page context (conf.py: html_context["default_mode"])
    if not context.get("default_mode"):
        context["default_mode"] = "auto"


def setup(app):
    # late, so that scripts other handlers add for this page are seen too
    app.connect("html-page-context", _drop_repeated_scripts, priority=900)
    # after the post-transforms (myst-nb picks each output's image in one)
    app.connect("doctree-resolved", _describe_images)
    app.connect("html-page-context", _default_colour_mode)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
