"""Start workshop/jupyterhub_config.py on 127.0.0.1 for two users, start a server for each
through the hub's REST API, run a cell in each user's kernel (the collection's .venv: both
frameworks imported, Fashion-MNIST read), check that their files are apart, stop everything.

Run it with the Python of the environment that holds JupyterHub, with
configurable-http-proxy on PATH (book/workshop.md, *One machine for the room*):

    PATH=$PWD/node_modules/.bin:$PATH /opt/hub/bin/python workshop/hub_smoke_test.py

Exit 0 when both users' cells ran; 1 with the hub's log otherwise. Everything it writes goes
into a temporary folder, removed at the end.
"""
from __future__ import annotations

import functools
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

from tornado import httpclient, ioloop, websocket

HERE = Path(__file__).resolve().parent
USERS = ("alice", "bob")
CELL = ("import os, torch, mxnet\nfrom sidebyside import data\n"
        "print(os.environ['USER'], os.getcwd(), 'torch', torch.__version__, "
        "'mxnet', mxnet.__version__, 'test images', len(data.load(train=False)))")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Hub:
    def __init__(self, base: str, token: str):
        self.base, self.token = base, token

    def call(self, method: str, path: str, body=None, expect=(200, 201, 202, 204)):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Authorization": f"token {self.token}"})
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                status, text = r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            status, text = e.code, e.read().decode()
        if status not in expect:
            raise RuntimeError(f"{method} {path}: HTTP {status}: {text[:300]}")
        if status >= 300 or not text.strip():
            return status, None
        try:
            return status, json.loads(text)
        except ValueError:
            raise RuntimeError(f"{method} {path}: HTTP {status}, not JSON: {text[:300]}") from None


async def run_cell(base: str, token: str, user: str, kernel_id: str, code: str) -> str:
    url = base.replace("http", "ws", 1) + f"/user/{user}/api/kernels/{kernel_id}/channels"
    conn = await websocket.websocket_connect(httpclient.HTTPRequest(
        url, headers={"Authorization": f"token {token}"}, request_timeout=60))
    msg_id = uuid.uuid4().hex
    conn.write_message(json.dumps({
        "header": {"msg_id": msg_id, "msg_type": "execute_request", "username": user,
                   "session": uuid.uuid4().hex, "version": "5.3"},
        "parent_header": {}, "metadata": {}, "channel": "shell",
        "content": {"code": code, "silent": False, "store_history": False,
                    "user_expressions": {}, "allow_stdin": False}}))
    out, deadline = [], time.time() + 300
    while time.time() < deadline:
        raw = await conn.read_message()
        if raw is None:
            raise RuntimeError(f"{user}: the kernel's websocket closed")
        msg = json.loads(raw)
        if msg.get("parent_header", {}).get("msg_id") != msg_id:
            continue
        kind = msg["header"]["msg_type"]
        if kind == "stream":
            out.append(msg["content"]["text"])
        elif kind == "error":
            raise RuntimeError(f"{user}: {msg['content']['ename']}: {msg['content']['evalue']}")
        elif kind == "execute_reply":
            conn.close()
            return "".join(out).strip()
    raise RuntimeError(f"{user}: no reply within 300 s")


def main() -> int:
    for tool in ("jupyterhub", "configurable-http-proxy"):
        if not shutil.which(tool, path=f"{Path(sys.executable).parent}:{os.environ['PATH']}"):
            print(f"{tool} is not on PATH (see this file's docstring)", file=sys.stderr)
            return 1
    tmp = Path(tempfile.mkdtemp(prefix="hub-smoke-"))
    port, token = free_port(), secrets.token_hex(16)
    env = dict(os.environ, WORKSHOP_USERS=",".join(USERS), WORKSHOP_PASSWORD=secrets.token_hex(8),
               WORKSHOP_HOMES=str(tmp / "homes"), WORKSHOP_STATE=str(tmp / "state"),
               WORKSHOP_IP="127.0.0.1", WORKSHOP_PORT=str(port), WORKSHOP_ADMIN_TOKEN=token,
               PATH=f"{Path(sys.executable).parent}:{os.environ['PATH']}")
    log = open(tmp / "hub.log", "w")
    hub_proc = subprocess.Popen(
        ["jupyterhub", "-f", str(HERE / "jupyterhub_config.py"),
         f"--JupyterHub.hub_port={free_port()}", f"--ConfigurableHTTPProxy.api_url="
         f"http://127.0.0.1:{free_port()}"],
        cwd=tmp, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    hub, ok, started = Hub(base + "/hub/api", token), False, time.time()
    try:
        for _ in range(120):
            try:
                hub.call("GET", "/")
                break
            except (OSError, RuntimeError):
                if hub_proc.poll() is not None:
                    raise RuntimeError(f"jupyterhub exited with {hub_proc.returncode}") from None
                time.sleep(0.5)
        else:
            raise RuntimeError("the hub did not answer within 60 s")
        for user in USERS:
            hub.call("POST", f"/users/{user}/server")
        for user in USERS:
            for _ in range(240):
                _, info = hub.call("GET", f"/users/{user}")
                if info["servers"].get("", {}).get("ready"):
                    break
                time.sleep(0.5)
            else:
                raise RuntimeError(f"{user}'s server was not ready within 120 s")
        print(f"hub and two servers ready in {time.time() - started:.1f} s")
        users = {user: Hub(f"{base}/user/{user}/api", token) for user in USERS}
        for user, api in users.items():
            _, listing = api.call("GET", "/contents/notebooks")
            names = {item["name"] for item in listing["content"]}
            assert "03_mnist_mlp.ipynb" in names, f"{user}: no notebooks in the home"
        users["alice"].call("PUT", "/contents/alice.txt",
                            {"type": "file", "format": "text", "content": "mine"})
        users["bob"].call("GET", "/contents/alice.txt", expect=(404,))
        print("alice's file is not in bob's home")
        for user, api in users.items():
            _, kernel = api.call("POST", "/kernels", {"name": "python3"})
            t0 = time.time()
            line = ioloop.IOLoop.current().run_sync(
                functools.partial(run_cell, base, token, user, kernel["id"], CELL))
            print(f"{user}: {line} ({time.time() - t0:.1f} s)")
            assert line.startswith(f"{user} ") and "test images 10000" in line, line
            api.call("DELETE", f"/kernels/{kernel['id']}")
        for user in USERS:
            hub.call("DELETE", f"/users/{user}/server")
        ok = True
    except (RuntimeError, AssertionError, OSError, KeyError) as e:
        print(f"FAILED: {e}", file=sys.stderr)
    finally:
        if hub_proc.poll() is None:
            hub_proc.send_signal(signal.SIGTERM)
            try:
                hub_proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(hub_proc.pid, signal.SIGKILL)
                hub_proc.wait()
        log.close()
        if not ok:
            sys.stderr.write((tmp / "hub.log").read_text()[-6000:])
        shutil.rmtree(tmp, ignore_errors=True)
    print("two-user smoke test: " + ("passed" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
