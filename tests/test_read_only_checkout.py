"""tools/read_only_checkout.sh: the command CI runs the notebooks' second pass under (`.ci/run`),
with the checkout mounted read-only so that a file written into it fails the run."""
import subprocess

import pytest

from conftest import ROOT

SCRIPT = ROOT / "tools" / "read_only_checkout.sh"


def run(*cmd):
    return subprocess.run([str(SCRIPT), *cmd], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)


@pytest.fixture(scope="module")
def mountable():
    probe = run("true")
    if probe.returncode == 3:
        pytest.skip(f"no read-only mount on this machine: {probe.stderr.strip()}")
    assert probe.returncode == 0, probe.stderr
    return probe


def test_writes_into_the_checkout_fail_and_leave_nothing(mountable, tmp_path):
    target = ROOT / "notebooks" / "written-by-test.txt"
    proc = run("sh", "-c", f"echo x > '{target}'")
    assert proc.returncode != 0 and "Read-only file system" in proc.stderr
    assert not target.exists()
    # an ignored path too (git status would not show it): the whole tree is read-only
    proc = run("sh", "-c", f"mkdir '{ROOT / '__pycache__'}'")
    assert proc.returncode != 0 and "Read-only file system" in proc.stderr
    assert not (ROOT / "__pycache__").exists()


def test_writes_outside_the_checkout_work_and_the_command_runs_in_it(mountable, tmp_path):
    outside = tmp_path / "out.txt"
    proc = run("sh", "-c", f"pwd > '{outside}'")
    assert proc.returncode == 0, proc.stderr
    assert outside.read_text().strip() == str(ROOT)
    assert "is mounted read-only for: sh -c" in proc.stderr


def test_exit_code_of_the_command_is_kept(mountable):
    assert run("sh", "-c", "exit 7").returncode == 7


def test_no_command_is_a_usage_error():
    proc = run()
    assert proc.returncode == 2 and proc.stderr.startswith("usage:")
