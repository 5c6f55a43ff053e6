"""tools/leftover_children.py fails a test file that leaves a process running, and kills it."""
import subprocess
import sys
import textwrap

import psutil

from conftest import ROOT

LEAKY = textwrap.dedent('''
    import subprocess, sys

    def test_starts_a_server():
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])

    def test_after_it():
        pass
    ''')
TIDY = textwrap.dedent('''
    import subprocess, sys

    def test_waits_for_its_child():
        subprocess.run([sys.executable, "-c", "pass"], check=True)
    ''')


def run_pytest(tmp_path, source, *env):
    (tmp_path / "test_x.py").write_text(source)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "leftover_children", "-p", "no:cacheprovider",
         "-p", "no:randomly", "-c", "/dev/null", "--rootdir", str(tmp_path), str(tmp_path)],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
        env={"PYTHONPATH": str(ROOT / "tools"), "PATH": "/usr/bin:/bin", **dict(env)})


def test_a_leftover_process_fails_the_file_and_is_killed(tmp_path):
    proc = run_pytest(tmp_path, LEAKY, ("SIDEBYSIDE_LEFTOVER_GRACE", "1"))
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert "2 passed, 1 error" in out                     # the error lands on the last test
    assert "1 process(es) started by test_x.py still ran 1 s after its last test" in out
    assert "time.sleep(120)" in out
    assert not [p for p in psutil.process_iter(["cmdline"])
                if "time.sleep(120)" in " ".join(p.info["cmdline"] or [])]


def test_children_that_finish_are_fine(tmp_path):
    proc = run_pytest(tmp_path, TIDY)
    assert proc.returncode == 0 and "1 passed" in proc.stdout, proc.stdout + proc.stderr
