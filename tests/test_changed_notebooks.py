"""tools/changed_notebooks.py: the notebooks `make test-fast` runs."""
import subprocess
import sys

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "tools"))
import changed_notebooks as cn  # noqa: E402


def git(repo, *args):
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=repo,
                   check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path):
    nb = tmp_path / "notebooks"
    (nb / "deep_dives").mkdir(parents=True)
    for name in ("01_a", "02_b", "03_c", "deep_dives/d"):
        (nb / f"{name}.py").write_text("# %%\n1\n")
        (nb / f"{name}.ipynb").write_text("{}")
    (tmp_path / ".gitignore").write_text("notebooks/scratch*\n")
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-q", "-m", "first")
    return tmp_path


def test_nothing_changed(repo):
    assert cn.changed_notebooks(root=repo) == []


def test_a_twin_edit_names_its_notebook_once(repo):
    (repo / "notebooks/01_a.py").write_text("# %%\n2\n")
    (repo / "notebooks/deep_dives/d.ipynb").write_text('{"x": 1}')
    (repo / "notebooks/03_c.py").write_text("# %%\n3\n")
    (repo / "notebooks/03_c.ipynb").write_text('{"y": 1}')          # both sides: listed once
    assert cn.changed_notebooks(root=repo) == [
        "notebooks/01_a.ipynb", "notebooks/03_c.ipynb", "notebooks/deep_dives/d.ipynb"]


def test_new_deleted_ignored_and_other_files(repo):
    (repo / "notebooks/04_new.ipynb").write_text("{}")            # new, untracked: listed
    (repo / "notebooks/scratch.ipynb").write_text("{}")           # ignored: not
    (repo / "notebooks/02_b.ipynb").unlink()                      # deleted: nothing to run
    (repo / "notebooks/02_b.py").unlink()
    (repo / "notebooks/notes.md").write_text("x")                 # not a notebook
    (repo / "README.md").write_text("x")                          # outside notebooks/
    assert cn.changed_notebooks(root=repo) == ["notebooks/04_new.ipynb"]


def test_since_an_older_commit(repo):
    (repo / "notebooks/02_b.py").write_text("# %%\n5\n")
    git(repo, "commit", "-q", "-am", "second")
    assert cn.changed_notebooks(root=repo) == []
    assert cn.changed_notebooks("HEAD~1", root=repo) == ["notebooks/02_b.ipynb"]


def test_a_revision_that_is_not_a_commit(repo):
    with pytest.raises(RuntimeError, match="rev-parse"):
        cn.changed_notebooks("no-such-branch", root=repo)
    proc = subprocess.run([sys.executable, str(ROOT / "tools/changed_notebooks.py"),
                           "--since", "no-such-branch"], capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stdout == ""
    assert "--since 'no-such-branch' is not a commit of this repository" in proc.stderr
