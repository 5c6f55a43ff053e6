"""The book's Sphinx extension (book/_ext/sphinx_assets.py), one transform at a time.

tests/test_book.py builds the whole book with it and checks the pages in a browser. These
tests feed each function the docutils/Sphinx objects it meets in a build.
"""


def test_repeated_scripts_are_dropped_in_order():
    from sphinx.builders.html._assets import _JavaScript

    from sphinx_assets import unique_scripts
    body = "const THEBE_JS_URL = 'x'"
    scripts = [_JavaScript("_static/a.js"), _JavaScript("", body=body),
               _JavaScript(None, body=body), _JavaScript("_static/a.js"),
               _JavaScript(None, body="var b = 1")]
    assert unique_scripts(scripts) == [scripts[0], scripts[1], scripts[4]]


def test_tagged_cells_become_one_tab_set_per_pair():
    from docutils import nodes

    from sphinx_assets import pair_cells

    def cell(*tags):
        return nodes.container("", nodes.literal_block("x", "x"),
                               classes=["cell", *(f"tag_{t}" for t in tags)])

    def para(text, bold=None):
        return nodes.paragraph("", "", *([nodes.strong(bold, bold)] if bold else []),
                               nodes.Text(text))

    intro, pt, between, mx, check = (para(": a", "PyTorch"), cell("pytorch"), para("b", "Gluon"),
                                     cell("gluon", "nbval-ignore-output"), cell())
    lonely, after = cell("pytorch"), cell()
    section = nodes.section("", para("lead"), intro, pt, between, mx, check, lonely, after)
    made, unpaired = pair_cells(section)
    assert (made, unpaired) == (1, [lonely])
    tab_set = section[1]
    assert tab_set["design_component"] == "tab-set"
    (pt_label, pt_content), (mx_label, mx_content) = tab_set.children
    assert pt_label.astext() == "PyTorch" and list(pt_content.children) == [intro, pt]
    assert mx_label.astext() == "Gluon" and list(mx_content.children) == [between, mx]
    assert pt_label["sync_group"] == mx_label["sync_group"] == "framework"
    assert (pt_label["sync_id"], mx_label["sync_id"]) == ("pytorch", "mxnet")
    assert list(section.children[2:]) == [check, lonely, after]   # the check stays outside
    # the other order (legacy MXNet first), and two cells of one side make no pair
    legacy = nodes.section("", cell("mxnet"), cell("pytorch"), cell("gluon"), cell("mxnet"))
    made, unpaired = pair_cells(legacy)
    assert made == 1 and unpaired == list(legacy.children[1:]) and len(legacy.children) == 3
    assert [item[0].astext() for item in legacy[0].children] == ["MXNet", "PyTorch"]
    # every set opens on its PyTorch tab, in either order (sphinx-design checks the item marked
    # selected, else the first): otherwise a first visit shows MXNet in one set, PyTorch in the
    # next, and a click on the MXNet tab already open syncs nothing
    assert [item.get("selected") for item in tab_set.children] == [True, False]
    assert [item.get("selected") for item in legacy[0].children] == [False, True]


def _myst_paragraph(markdown):
    """The paragraph MyST makes of ``markdown`` (one that opens with bold text starts with an
    empty Text node: ``[Text(''), strong, Text(': ...')]``)."""
    from docutils import nodes
    from docutils.core import publish_doctree
    from myst_parser.parsers.docutils_ import Parser

    doctree = publish_doctree(markdown, parser=Parser(), settings_overrides={"report_level": 5})
    return next(iter(doctree.findall(nodes.paragraph)))


def _cell(*tags):
    from docutils import nodes

    return nodes.container("", nodes.literal_block("x", "x"),
                           classes=["cell", *(f"tag_{t}" for t in tags)])


def test_label_paragraphs_as_myst_parses_them_go_into_their_tab():
    from docutils import nodes

    from sphinx_assets import _labelled, pair_cells

    for markdown, tag in [("**PyTorch**", "pytorch"), ("**PyTorch**: a loader", "pytorch"),
                          ("**PyTorch** keeps float64", "pytorch"),
                          ("The arc cosine, **PyTorch**:", "pytorch"),
                          ("**MXNet**: a Module", "gluon"), ("**Gluon**", "mxnet"),
                          ("**PyTorch → ONNX → ONNX Runtime**. Since", "pytorch")]:
        assert _labelled(_myst_paragraph(markdown), tag), markdown
    for markdown, tag in [("**Gluon**", "pytorch"), ("**PyTorch**", "gluon"),
                          ("Run it in **PyTorch** first.", "pytorch"), ("PyTorch:", "pytorch"),
                          ("**Note**: PyTorch", "pytorch")]:
        assert not _labelled(_myst_paragraph(markdown), tag), markdown

    lead, pt_label, pt = _myst_paragraph("Ones, plus one."), _myst_paragraph("**PyTorch**"), \
        _cell("pytorch")
    mx_label, mx = _myst_paragraph("**Gluon**:"), _cell("gluon")
    section = nodes.section("", lead, pt_label, pt, mx_label, mx)
    assert pair_cells(section) == (1, [])
    assert list(section.children[:1]) == [lead]     # only the label moves, not the lead-in
    (_, pt_content), (_, mx_content) = section[1].children
    assert list(pt_content.children) == [pt_label, pt]
    assert list(mx_content.children) == [mx_label, mx]
    # a lead-in that ends with the label: the lead-in stays outside, the label goes in
    for markdown, outside in [("The arc cosine, **PyTorch**:", "The arc cosine."),
                              ("Negative numbers differ. **PyTorch**:", "Negative numbers differ.")]:
        lead, pt, mx = _myst_paragraph(markdown), _cell("pytorch"), _cell("gluon")
        section = nodes.section("", lead, pt, mx)
        assert pair_cells(section) == (1, [])
        assert section[0] is lead and lead.astext() == outside
        (_, pt_content), (_, mx_content) = section[1].children
        assert [n.astext() for n in pt_content.children] == ["PyTorch:", "x"]
        assert list(pt_content.children)[1:] == [pt] and list(mx_content.children) == [mx]


def test_a_further_cell_of_the_second_side_joins_its_tab():
    from docutils import nodes

    from sphinx_assets import pair_cells

    pt, nd_cell, np_label, np_cell, check = (_cell("pytorch"), _cell("gluon"),
                                             _myst_paragraph("**Gluon**, `mx.np`:"),
                                             _cell("gluon"), _cell())
    section = nodes.section("", pt, nd_cell, np_label, np_cell, check)
    assert pair_cells(section) == (1, [])
    (_, pt_content), (_, mx_content) = section[0].children
    assert list(pt_content.children) == [pt]
    assert list(mx_content.children) == [nd_cell, np_label, np_cell]
    assert list(section.children[1:]) == [check]
    # a Gluon cell that pairs with the PyTorch cell after it starts a tab set of its own
    cells = [_cell("pytorch"), _cell("gluon"), _cell("gluon"), _cell("pytorch")]
    section = nodes.section("", *cells)
    assert pair_cells(section) == (2, [])
    assert [[list(item[1].children) for item in tab_set.children] for tab_set in section] == \
        [[[cells[0]], [cells[1]]], [[cells[2]], [cells[3]]]]
    # a cell of the first side after the pair is no part of it
    lonely = _cell("pytorch")
    section = nodes.section("", _cell("pytorch"), _cell("gluon"), lonely)
    assert pair_cells(section) == (1, [lonely])


def test_figures_get_alt_text_from_section_and_cell():
    from docutils import nodes

    from sphinx_assets import _needs_alt, figure_alt_text

    image = nodes.image(uri="../_images/abc.png")
    cell = nodes.container(cell_index=32)
    cell += image
    section = nodes.section()
    section += nodes.title(text="1. Samples")
    section += cell
    assert _needs_alt(image)
    assert figure_alt_text(image, "3 · An MLP") == \
        "Figure in section “1. Samples” of “3 · An MLP”, output of cell 33"
    figure = nodes.figure()
    captioned = nodes.image(uri="a.png", alt="a.png")
    figure += captioned
    figure += nodes.caption(text="Loss curves")
    assert _needs_alt(captioned) and figure_alt_text(captioned, "T") == "Loss curves"
    assert not _needs_alt(nodes.image(uri="a.png", alt="A plot of the loss"))


def test_repository_buttons_follow_the_repository_url():
    import yaml

    from conftest import ROOT
    from sphinx_assets import repository_buttons

    launch = {"notebook_interface": "jupyterlab", "binderhub_url": "https://mybinder.org",
              "jupyterhub_url": "", "colab_url": "", "thebe": False}
    unset = repository_buttons({"repository_url": "", "launch_buttons": launch})
    assert unset["use_repository_button"] is unset["use_issues_button"] is False
    assert unset["launch_buttons"]["binderhub_url"] == ""
    assert unset["launch_buttons"]["notebook_interface"] == "jupyterlab"
    assert launch["binderhub_url"] == "https://mybinder.org"       # the input is left as it is
    assert repository_buttons({})["use_repository_button"] is False
    url = "https://github.com/org/repo"
    published = repository_buttons({"repository_url": url, "launch_buttons": launch})
    assert published["use_repository_button"] is published["use_issues_button"] is True
    assert published["launch_buttons"] == launch
    assert repository_buttons({"repository_url": url, "use_issues_button": False}) \
        ["use_issues_button"] is False
    # book/_config.yml says which: the URL, and no button key that jupyter-book would refuse
    # without it
    config = yaml.safe_load((ROOT / "book" / "_config.yml").read_text())
    assert "use_repository_button" not in config["html"]
    assert "use_issues_button" not in config["html"]
    assert config["launch_buttons"]["binderhub_url"] == "https://mybinder.org"


def _tiny_book(folder, repository_url):
    """A one-page Sphinx project with the book's theme and this extension, built to HTML."""
    from sphinx.application import Sphinx

    from conftest import ROOT

    src = folder / "src"
    src.mkdir()
    (src / "index.rst").write_text("Title\n=====\n\nText.\n")
    (src / "conf.py").write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(ROOT / 'book' / '_ext')!r})\n"
        "extensions = ['sphinx_assets', 'sphinx_design']\n"
        "html_theme = 'sphinx_book_theme'\n"
        f"html_theme_options = {{'repository_url': {repository_url!r}, "
        "'repository_branch': 'main', 'launch_buttons': {'binderhub_url': 'https://mybinder.org'}}\n")
    app = Sphinx(str(src), str(src), str(folder / "html"), str(folder / "doctrees"), "html",
                 status=None, warning=None, freshenv=True)
    app.build()
    return (folder / "html" / "index.html").read_text()


def test_the_theme_shows_the_repository_buttons_only_with_a_url(tmp_path):
    (tmp_path / "unset").mkdir()
    (tmp_path / "set").mkdir()
    unset = _tiny_book(tmp_path / "unset", "")
    assert "btn-source-repository-button" not in unset and "/issues/new" not in unset
    page = _tiny_book(tmp_path / "set", "https://github.com/org/repo")
    assert 'href="https://github.com/org/repo"' in page
    assert "https://github.com/org/repo/issues/new?title=" in page
