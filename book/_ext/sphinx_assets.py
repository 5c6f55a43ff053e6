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

4. PyTorch and Gluon as synced tabs, made from the executed cells. A code cell tagged
``pytorch`` followed by one tagged ``gluon`` (or ``mxnet``) — or the other way round — with
nothing but Markdown between them becomes one tab set: the first tab holds the first cell (and
the paragraph before it when that labels it: it starts with the framework's name in bold, as in
"**PyTorch**: ..." or a bare "**PyTorch**"; of a paragraph that ends with the name, as in
"The arc cosine, **PyTorch**:", only "**PyTorch**:" goes in and "The arc cosine." stays
outside), the second tab the Markdown between and the second cell (with its own label,
"**Gluon**: ..."). A further cell tagged for the second tab's side right after the pair
(Markdown between allowed: "**Gluon**, the NumPy-style `mx.np` API:") goes into the second tab
too, unless it starts a pair of its own with the cell after it. The notebook is
the single source: JupyterLab shows the cells one after the other, the book shows the same
cells and outputs as tabs, each opening on its PyTorch tab. All tab sets of the book share one sync group, so picking "Gluon"
once shows the Gluon side everywhere (sphinx-design remembers the choice). A check cell after
the pair stays outside, visible under either tab. An unpaired tag is a build warning (the
book builds with ``-W``).

5. Search from a page opened as a file. The README opens the book as
book/_build/html/index.html (a file:// URL). Sphinx's search page then lists the results, but
for each one it fetches the result page to show a summary, and a browser refuses any fetch
from a file:// page (a CORS error in the console per result, and no summary). On file:// this
turns the summaries off (``DOCUMENTATION_OPTIONS.SHOW_SEARCH_SUMMARY``, read for each result):
the results are the page and section titles. A served book (``python -m http.server``) keeps
its summaries.

6. The header's repository, issues and Binder buttons follow one setting: book/_config.yml's
``repository.url`` (the theme's ``repository_url``). While it is empty (the collection is not
published yet, and every test build) there is no such button: none can point to a placeholder.
Once it is set, the repository and issues buttons are on (unless book/_config.yml's ``html``
turns one off) and notebook pages get their Binder launch button (``launch_buttons``).
jupyter-book itself refuses ``use_repository_button: true`` without a URL, so book/_config.yml
leaves those two keys out.

Book code, not part of the helper package: it lives next to the book (``book/_ext/``) and is
loaded by book/_config.yml (``sphinx: local_extensions``). Its unit tests are
tests/test_sphinx_assets.py; tests/test_book.py builds the book with it, then opens every
page in Chromium and checks them.
"""
import re

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging

__all__ = ["unique_scripts", "figure_alt_text", "FRAMEWORK_TAGS", "FrameworkTabs",
           "repository_buttons", "setup"]

LOGGER = logging.getLogger(__name__)


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


# the launch buttons that open the notebook from the book's repository
REPOSITORY_LAUNCHERS = ("binderhub_url", "jupyterhub_url", "colab_url", "deepnote_url")


def repository_buttons(theme_options):
    """``theme_options`` (html_theme_options) with the repository, issues and launch buttons on
    when ``repository_url`` is set and off when it is not; a button that the options turn off
    stays off. Returns a new dict; ``theme_options`` is left as it is."""
    options = dict(theme_options)
    published = bool((options.get("repository_url") or "").strip())
    for button in ("use_repository_button", "use_issues_button"):
        options[button] = published and options.get(button, True) is not False
    if not published:
        options["use_edit_page_button"] = False
        options["launch_buttons"] = {
            key: "" if key in REPOSITORY_LAUNCHERS else value
            for key, value in (options.get("launch_buttons") or {}).items()}
    return options


# after documentation_options.js (priority 200), before the search runs (on DOMContentLoaded)
FILE_SEARCH_SCRIPT = ('if (location.protocol === "file:" && typeof DOCUMENTATION_OPTIONS '
                      '!== "undefined") DOCUMENTATION_OPTIONS.SHOW_SEARCH_SUMMARY = false;')


def _set_repository_buttons(app, config):
    config.html_theme_options = repository_buttons(config.html_theme_options or {})


# cell tag -> (tab label, sync id): Gluon and legacy MXNet code share the MXNet side
FRAMEWORK_TAGS = {"pytorch": ("PyTorch", "pytorch"), "gluon": ("Gluon", "mxnet"),
                  "mxnet": ("MXNet", "mxnet")}
SYNC_GROUP = "framework"


def _framework(node):
    """The framework tag of a code-cell container, or None."""
    if not isinstance(node, nodes.container) or "cell" not in node["classes"]:
        return None
    tags = [t for t in FRAMEWORK_TAGS if f"tag_{t}" in node["classes"]]
    return tags[0] if len(tags) == 1 else None


def _is_cell(node):
    return isinstance(node, nodes.container) and "cell" in node["classes"]


def _side(tag):
    return FRAMEWORK_TAGS[tag][1]


def _label_names(tag):
    """The names a label for ``tag``'s side of the tab set may start with."""
    return tuple(label for label, side in FRAMEWORK_TAGS.values() if side == _side(tag))


def _label(node, tag):
    """How ``node`` labels ``tag``'s cell: ``"whole"`` for a paragraph that opens with the name
    of that framework (or of one on the same side: Gluon or MXNet) in bold ("**PyTorch**: ...",
    "**PyTorch**"), ``"tail"`` for one that ends with the name in bold and a colon ("The arc
    cosine, **PyTorch**:"), else None. MyST starts a paragraph that opens with bold text with an
    empty Text node (``[Text(''), strong, Text(': ...')]``): whitespace-only text is skipped."""
    if not isinstance(node, nodes.paragraph):
        return None
    children = [c for c in node.children if not (isinstance(c, nodes.Text) and not c.strip())]
    if not children:
        return None
    names = _label_names(tag)
    first, last = children[0], children[-1]
    if isinstance(first, nodes.strong) and first.astext().lstrip().startswith(names):
        return "whole"
    if len(children) > 2 and isinstance(last, nodes.Text) and last.strip() == ":" \
            and isinstance(children[-2], nodes.strong) and children[-2].astext().strip() in names:
        return "tail"
    return None


def _labelled(node, tag):
    """Whether ``node`` is a paragraph that labels ``tag``'s cell (see ``_label``)."""
    return _label(node, tag) is not None


def _split_label(paragraph):
    """Cut the trailing "**PyTorch**:" off ``paragraph`` (a ``"tail"`` label) and return it as
    a paragraph of its own. The lead-in keeps the rest of its text; a comma that led into the
    label ("The arc cosine, **PyTorch**:") becomes a full stop."""
    # by position: a Text node equals any string of its text, so remove() may pick another
    while isinstance(paragraph[-1], nodes.Text) and not paragraph[-1].strip():
        del paragraph[-1]
    strong, colon = paragraph[-2], paragraph[-1]
    del paragraph[-2:]
    while isinstance(paragraph[-1], nodes.Text) and not paragraph[-1].strip():
        del paragraph[-1]
    if isinstance(paragraph[-1], nodes.Text):
        text = paragraph[-1].rstrip()
        paragraph[-1] = nodes.Text(text[:-1] + "." if text.endswith(",") else text)
    return nodes.paragraph("", "", strong, colon)


def _tab_item(tag, children):
    from sphinx_design.shared import create_component
    label, sync_id = FRAMEWORK_TAGS[tag]
    rubric = nodes.rubric(label, label, classes=["sd-tab-label"], sync_id=sync_id)
    content = create_component("tab-content", classes=["sd-tab-content"],
                               children=children)
    # the PyTorch tab is the one shown first in every set, whichever cell comes first: a page
    # whose first set opens on MXNet would show both frameworks at once to a first-time
    # reader (nothing stored yet), and clicking the MXNet tab already shown switches nothing
    return create_component("tab-item", classes=["sd-tab-item"], children=[rubric, content],
                            selected=sync_id == "pytorch")


def _next_cell(parent, i):
    """The index of the next cell after ``i`` with only non-cell nodes (Markdown) between, or
    None at the end of ``parent`` or at a section or title."""
    j = i + 1
    while j < len(parent.children) and not _is_cell(parent.children[j]) \
            and not isinstance(parent.children[j], (nodes.section, nodes.title)):
        j += 1
    return j if j < len(parent.children) and _is_cell(parent.children[j]) else None


def _partner(parent, i):
    """The index of the cell that pairs with the tagged cell ``i``, or None."""
    j = _next_cell(parent, i)
    other = _framework(parent.children[j]) if j is not None else None
    if other is None or _side(other) == _side(_framework(parent.children[i])):
        return None
    return j


def pair_cells(parent):
    """Group the framework-tagged cells of ``parent`` into tab sets, in place.

    A further cell of the second tab's side right after the pair (Markdown between allowed)
    goes into the second tab too, unless it pairs with the cell after it.

    Returns (pairs made, tagged cells left unpaired)."""
    from sphinx_design.shared import create_component
    made, unpaired = 0, []
    i = 0
    while i < len(parent.children):
        first = parent.children[i]
        tag = _framework(first)
        if tag is None:
            i += 1
            continue
        j = _partner(parent, i)
        if j is None:
            unpaired.append(first)
            i += 1
            continue
        other = _framework(parent.children[j])
        while True:     # more cells of the second side: into the second tab
            k = _next_cell(parent, j)
            more = _framework(parent.children[k]) if k is not None else None
            if more is None or _side(more) != _side(other) or _partner(parent, k) is not None:
                break
            j = k
        label = _label(parent.children[i - 1], tag) if i > 0 else None
        if label == "tail":     # the lead-in stays outside, its label goes into the tab
            parent.insert(i, _split_label(parent.children[i - 1]))
            i, j = i + 1, j + 1
        start = i - 1 if label else i
        first_tab = parent.children[start:i + 1]
        second_tab = parent.children[i + 1:j + 1]
        tab_set = create_component(
            "tab-set", classes=["sd-tab-set", "sbs-frameworks"],
            children=[_tab_item(tag, []), _tab_item(other, [])])
        for node in first_tab + second_tab:
            parent.remove(node)
        tab_set[0][1].extend(first_tab)
        tab_set[1][1].extend(second_tab)
        tab_set[0][0]["sync_group"] = tab_set[1][0]["sync_group"] = SYNC_GROUP
        parent.insert(start, tab_set)
        made += 1
        i = start + 1
    return made, unpaired


class FrameworkTabs(SphinxPostTransform):
    """Tagged PyTorch/Gluon cell pairs -> synced tab sets (before sphinx-design renders tabs,
    priority 200)."""
    default_priority = 150
    formats = ("html",)

    def run(self, **kwargs):
        parents = {id(n.parent): n.parent for n in self.document.findall(nodes.container)
                   if _framework(n) is not None and n.parent is not None}
        for parent in parents.values():
            _, unpaired = pair_cells(parent)
            for cell in unpaired:
                LOGGER.warning("cell tagged %r has no partner cell tagged for the other "
                               "framework right after it", _framework(cell), location=cell)


def setup(app):
    # before the theme copies its options (builder-inited)
    app.connect("config-inited", _set_repository_buttons)
    # late, so that scripts other handlers add for this page are seen too
    app.connect("html-page-context", _drop_repeated_scripts, priority=900)
    # after the post-transforms (myst-nb picks each output's image in one)
    app.connect("doctree-resolved", _describe_images)
    app.connect("html-page-context", _default_colour_mode)
    app.add_post_transform(FrameworkTabs)
    app.add_js_file(None, body=FILE_SEARCH_SCRIPT, priority=300)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
