"""JupyterHub for a workshop room on one machine: a JupyterLab, a home folder and kernels
per person, the notebooks copied into each home, the collection's .venv as the kernel.

Run from a separate environment that holds JupyterHub (not the project's .venv, whose pins it
would disturb), see book/workshop.md:

    python3 -m venv /opt/hub && /opt/hub/bin/pip install jupyterhub jupyterlab
    npm install configurable-http-proxy          # puts it in ./node_modules/.bin
    PATH=/opt/hub/bin:$PWD/node_modules/.bin:$PATH WORKSHOP_PASSWORD=… \\
        jupyterhub -f workshop/jupyterhub_config.py

Environment variables: WORKSHOP_USERS (the user names, comma-separated; default
student1…student30), WORKSHOP_PASSWORD (the one password everyone logs in with, 8 characters
or more), WORKSHOP_HOMES (where the homes go; default /srv/workshop), WORKSHOP_STATE (the
hub's database and secrets; default the same folder's .hub), WORKSHOP_IP and WORKSHOP_PORT
(default 0.0.0.0 and 8000), WORKSHOP_ADMIN_TOKEN (optional: a token with admin rights for
scripts, as workshop/hub_smoke_test.py uses it), SIDEBYSIDE_DATA (the shared dataset folder;
default this user's ~/.cache/sidebyside/data; it may be read-only).

SimpleLocalProcessSpawner runs every person's server as the Unix user that runs the hub:
the homes are separate folders, not separate accounts, so anyone in the room could read
another's files from a terminal. That suits a room of colleagues; for more, give each person
a Unix account and use the default LocalProcessSpawner with PAM, or The Littlest JupyterHub.
"""
import os
import shutil
import sys
from pathlib import Path

c = get_config()  # noqa: F821  (JupyterHub's config loader defines it)

ROOT = Path(__file__).resolve().parents[1]
HOMES = Path(os.environ.get("WORKSHOP_HOMES", "/srv/workshop"))
STATE = Path(os.environ.get("WORKSHOP_STATE", str(HOMES / ".hub")))
USERS = [u.strip() for u in os.environ.get(
    "WORKSHOP_USERS", ",".join(f"student{i}" for i in range(1, 31))).split(",") if u.strip()]
DATA = os.environ.get("SIDEBYSIDE_DATA", str(Path.home() / ".cache" / "sidebyside" / "data"))
PYTHON = ROOT / ".venv" / "bin" / "python"
if not PYTHON.exists():
    sys.exit(f"{PYTHON} does not exist: run `make setup` (or `make setup WHEELHOUSE=…`) first")

STATE.mkdir(parents=True, exist_ok=True)
# the collection's environment as the one kernel the users see
kernel = STATE / "jupyter" / "kernels" / "python3"
kernel.mkdir(parents=True, exist_ok=True)
(kernel / "kernel.json").write_text(
    '{"argv": ["%s", "-m", "ipykernel_launcher", "-f", "{connection_file}"], '
    '"display_name": "Python 3 (sidebyside .venv)", "language": "python"}\n' % PYTHON)

c.JupyterHub.ip = os.environ.get("WORKSHOP_IP", "0.0.0.0")
c.JupyterHub.port = int(os.environ.get("WORKSHOP_PORT", "8000"))
c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(STATE / "jupyterhub_cookie_secret")
c.JupyterHub.pid_file = str(STATE / "jupyterhub.pid")
c.ConfigurableHTTPProxy.pid_file = str(STATE / "proxy.pid")

c.JupyterHub.authenticator_class = "shared-password"
c.SharedPasswordAuthenticator.user_password = os.environ.get("WORKSHOP_PASSWORD")
c.Authenticator.allowed_users = set(USERS)

c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = str(HOMES / "{username}")
c.Spawner.default_url = "/lab"
c.Spawner.environment = {
    "JUPYTER_PATH": str(STATE / "jupyter"),   # the kernel above, before the hub's own
    "SIDEBYSIDE_DATA": DATA,
}
c.Spawner.args = ["--KernelSpecManager.ensure_native_kernel=False"]
if os.geteuid() == 0:   # in a container: the servers run as root too
    c.Spawner.args.append("--allow-root")
c.Spawner.mem_limit = "2G"   # not enforced by this spawner: what each person needs (the page)


def copy_notebooks(spawner):
    """A person's own copy of the notebooks, made once; the folders they read beside them
    (``../examples``, and ``../book`` for notebook 21) linked to the checkout."""
    home = Path(spawner.home_dir)
    home.mkdir(parents=True, exist_ok=True)
    if not (home / "notebooks").exists():
        shutil.copytree(ROOT / "notebooks", home / "notebooks",
                        ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
    for folder in ("examples", "book"):
        if not (home / folder).exists():
            (home / folder).symlink_to(ROOT / folder)


c.Spawner.pre_spawn_hook = copy_notebooks

token = os.environ.get("WORKSHOP_ADMIN_TOKEN")
if token:
    c.JupyterHub.services = [{"name": "workshop-admin", "api_token": token}]
    c.JupyterHub.load_roles = [{"name": "workshop-admin", "services": ["workshop-admin"],
                                "scopes": ["admin:users", "admin:servers", "access:servers"]}]
