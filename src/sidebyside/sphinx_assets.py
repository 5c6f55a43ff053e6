"""A Sphinx extension for the book: each page's ``<script>`` tags once.

Sphinx 7.4 (the series jupyter-book 1.x runs on) writes an inline script twice when an
extension registers it after the HTML builder is set up: ``app.add_js_file(None, body=...)``
hands the builder the asset with ``filename=None``, and before writing, the builder adds every
registered asset again as ``filename=''``; ``None != ''``, so the duplicate check lets the
second copy through. sphinx-thebe's ``const THEBE_JS_URL = ...`` (registered when the build
starts reading) then runs twice on every page: "SyntaxError: Identifier 'THEBE_JS_URL' has
already been declared". sphinx-togglebutton's ``var togglebuttonSelector`` is doubled the same
way. Sphinx fixed it upstream (sphinx-doc/sphinx#13402, in 8.x); until the book can move
there, this drops the repeats from each page's ``script_files`` just before it is rendered.

Registered in book/_config.yml (``sphinx: extra_extensions``).
"""

__all__ = ["unique_scripts", "setup"]


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


def setup(app):
    # late, so that scripts other handlers add for this page are seen too
    app.connect("html-page-context", _drop_repeated_scripts, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
