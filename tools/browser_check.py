"""Open every page of a built book in a real browser and list what a reader would trip over.

Usage: ``python tools/browser_check.py BUILD/_build/html [--artifacts DIR]``

It serves the HTML folder on 127.0.0.1 (a free port), starts the system Chromium headless
(Debian: ``apt-get install chromium``; no browser is downloaded) and drives it over the
DevTools protocol (the ``websocket-client`` package, locked in constraints.txt as a dependency
of jupyter_server). Every page is loaded at a desktop and a phone width, and these checks run:

1. console: no console error, uncaught exception or browser log entry at level error
2. requests: no failed request, no HTTP status >= 400
3. offline: no request to any host but 127.0.0.1/localhost (data:/blob: URLs are fine)
4. scroll: no horizontal page scroll (``scrollWidth <= innerWidth + 1``)
5. images: every ``<img>`` loaded (``naturalWidth > 0``)
6. alt: every ``<img>`` has alt text a reader can use, not a file name or path
7. links: every http(s) link goes to a real site (ALLOWED_LINK_HOSTS); linkify once made
   links of code such as ``x.to`` or ``mx.np``
8. search: ``search.html?q=Trainer`` lists results, served and opened as a file (the
   README's way: file://.../index.html), where the console stays quiet as well (Sphinx fetched
   each result page for its summary, which a browser refuses from file://)
9. tabs: on a page with PyTorch/Gluon tab sets (book/_ext/sphinx_assets.py), clicking the MXNet
   side of the first set switches every set of the page to it, and each set then shows
   exactly one panel, with a code cell in it; the PyTorch side is clicked back afterwards
10. labels: no framework label left outside a tab set: the paragraph right before a set is
   not one that opens with a bold framework name ("**PyTorch**", "**PyTorch**: ...") or ends
   with one ("The arc cosine, **PyTorch**:"); such a label belongs in its tab, else it sits
   above the other framework's code when that tab is chosen

A screenshot of each page at each width goes to the artifacts folder.
The command prints one line per problem and exits 1 if there is any.
"""
import argparse
import base64
import concurrent.futures
import contextlib
import functools
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

# The one list of hosts a link in the book may point to (a subdomain of one is fine too).
# github.com also holds the book's repository and mybinder.org the notebook pages' launch
# button, both shown once book/_config.yml's `repository.url` is set.
ALLOWED_LINK_HOSTS = (
    "github.com", "mxnet.apache.org", "pytorch.org", "docs.pytorch.org", "numpy.org",
    "onnx.ai", "mybinder.org",
)
LOCAL_HOSTS = ("127.0.0.1", "localhost")

VIEWPORTS = {
    "desktop": dict(width=1280, height=800, deviceScaleFactor=1, mobile=False),
    "phone": dict(width=375, height=812, deviceScaleFactor=2, mobile=True),
}
PHONE_UA = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 "
            "(KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1")
CHECKS = ("console", "requests", "offline", "scroll", "images", "alt", "links", "search",
          "tabs", "labels")
FRAMEWORK_LABELS = ("PyTorch", "Gluon", "MXNet")     # book/_ext/sphinx_assets.py's tab labels
SEARCH_TERM = "Trainer"

_IMAGE_FILE = re.compile(r"\.(png|jpe?g|gif|svg|webp|bmp|ico)$", re.I)


def alt_text_problem(alt):
    """Why ``alt`` is no use to a reader, or None when it is fine."""
    text = (alt or "").strip()
    if not text:
        return "no alt text"
    if _IMAGE_FILE.search(text) or text.startswith(("../", "./", "/", "_images")) \
            or (" " not in text and "/" in text):
        return f"alt text is a file name: {text[:80]!r}"
    return None


def link_host_problem(href):
    """Why the link ``href`` points nowhere real, or None when it is fine."""
    parts = urlsplit(href)
    if parts.scheme not in ("http", "https"):
        return None
    host = (parts.hostname or "").lower()
    if host in LOCAL_HOSTS:
        return None
    if any(host == ok or host.endswith("." + ok) for ok in ALLOWED_LINK_HOSTS):
        return None
    return f"link to a host not in ALLOWED_LINK_HOSTS: {href[:120]}"


def label_problem(parts):
    """Why the paragraph made of ``parts`` (``(tag, text)`` per child node: ``"#text"`` or an
    element's lower-case tag name) is a framework label that should be inside the tab set
    after it, or None."""
    parts = [(tag, text) for tag, text in parts if tag != "#text" or text.strip()]
    if not parts:
        return None
    first, last = parts[0], parts[-1]
    if last[0] == "#text" and last[1].strip() == ":" and len(parts) > 1:
        last = parts[-2]
    text = " ".join("".join(t for _, t in parts).split())
    if first[0] in ("strong", "b") and first[1].strip().startswith(FRAMEWORK_LABELS):
        return f"a framework label above a tab set, outside it: {text[:80]!r}"
    if last[0] in ("strong", "b") and last[1].strip() in FRAMEWORK_LABELS:
        return f"a framework label above a tab set, outside it: {text[:80]!r}"
    return None


def request_problem(url):
    """Why loading ``url`` would leave this machine, or None."""
    parts = urlsplit(url)
    if parts.scheme in ("data", "blob", "about", "chrome", "devtools", "file", ""):
        return None
    if (parts.hostname or "").lower() in LOCAL_HOSTS:
        return None
    return f"request leaves the machine: {url[:120]}"


def find_chromium():
    for name in (os.environ.get("SIDEBYSIDE_CHROMIUM"), "chromium", "chromium-browser",
                 "google-chrome"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


@dataclass
class Problem:
    page: str
    viewport: str
    check: str
    detail: str

    def __str__(self):
        return f"[{self.check}] {self.page} ({self.viewport}): {self.detail}"


@dataclass
class Report:
    pages: list = field(default_factory=list)
    problems: list = field(default_factory=list)
    screenshots: list = field(default_factory=list)
    notes: dict = field(default_factory=dict)     # (page, viewport) -> what the page measured

    def by_check(self):
        return {check: [p for p in self.problems if p.check == check] for check in CHECKS}


# --------------------------------------------------------------------------- the local site

class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@contextlib.contextmanager
def serve(html_dir):
    handler = functools.partial(_QuietHandler, directory=str(html_dir))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


# --------------------------------------------------------------------------- the browser

class DevTools:
    """One DevTools websocket to the browser; pages are driven through flattened sessions."""

    def __init__(self, ws_url, timeout=30):
        import websocket   # websocket-client

        self.ws = websocket.create_connection(ws_url, timeout=timeout, suppress_origin=True)
        self.next_id = 0
        self.events = []     # (sessionId, method, params) not yet consumed

    def close(self):
        self.ws.close()

    def send(self, method, params=None, session=None, timeout=30):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        self.ws.send(json.dumps(msg))
        deadline = time.monotonic() + timeout
        while True:
            reply = self._receive(deadline)
            if reply is None:
                raise TimeoutError(f"{method}: no reply in {timeout} s")
            if reply.get("id") == msg["id"]:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def _receive(self, deadline):
        """The next message (an event is also kept in ``events``), or None at ``deadline``."""
        import websocket

        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self.ws.settimeout(left)
            try:
                data = json.loads(self.ws.recv())
            except websocket.WebSocketTimeoutException:
                return None
            if "method" in data:
                self.events.append((data.get("sessionId"), data["method"], data.get("params", {})))
            return data

    def pump(self, seconds):
        """Collect events for ``seconds``."""
        deadline = time.monotonic() + seconds
        while self._receive(deadline) is not None:
            pass

    def wait_for(self, session, method, timeout):
        deadline = time.monotonic() + timeout
        seen = 0
        while True:
            for s, m, _ in self.events[seen:]:
                if s == session and m == method:
                    return True
            seen = len(self.events)
            if self._receive(deadline) is None:
                return False

    def take_events(self, session):
        mine = [(m, p) for s, m, p in self.events if s == session]
        self.events = [e for e in self.events if e[0] != session]
        return mine


@contextlib.contextmanager
def chromium(binary, profile_dir):
    args = [binary, "--headless=new", "--no-sandbox", "--disable-gpu",
            "--remote-debugging-port=0", f"--user-data-dir={profile_dir}",
            "--no-first-run", "--no-default-browser-check", "--disable-extensions",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--metrics-recording-only", "--disable-default-apps", "--mute-audio",
            "--disable-dev-shm-usage",
            # a request off the machine fails at once (and is reported) instead of hanging
            "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
            "about:blank"]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        port_file = Path(profile_dir) / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while not (port_file.exists() and len(port_file.read_text().splitlines()) >= 2):
            if proc.poll() is not None:
                raise RuntimeError(f"chromium exited ({proc.returncode}): "
                                   + proc.stderr.read().decode(errors="replace")[-2000:])
            if time.monotonic() > deadline:
                raise RuntimeError("chromium did not open its DevTools port in 30 s")
            time.sleep(0.1)
        port, path = port_file.read_text().splitlines()[:2]
        yield f"ws://127.0.0.1:{port}{path}"
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


# --------------------------------------------------------------------------- one page

_PAGE_FACTS = r"""
(async () => {
  const imgs = Array.from(document.images);
  await Promise.all(imgs.map(img => {
    img.loading = 'eager';
    if (img.complete) return null;
    return new Promise(done => {
      img.addEventListener('load', done); img.addEventListener('error', done);
      setTimeout(done, 5000);
    });
  }));
  const el = document.documentElement;
  return {
    scrollWidth: el.scrollWidth, clientWidth: el.clientWidth, innerWidth: window.innerWidth,
    title: document.title,
    images: imgs.map(i => ({src: i.getAttribute('src'), alt: i.getAttribute('alt'),
                            naturalWidth: i.naturalWidth})),
    links: Array.from(document.querySelectorAll('a[href]')).map(a => a.href),
    widest: Array.from(document.querySelectorAll('body *'))
      .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
      .slice(0, 3).map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
                         + (e.className && typeof e.className === 'string'
                            ? '.' + e.className.trim().split(/\s+/).join('.') : '')),
    sidebarShown: (() => { const s = document.querySelector('.bd-sidebar-primary');
                           return !!s && s.getBoundingClientRect().width > 0
                                  && getComputedStyle(s).visibility !== 'hidden'
                                  && s.getBoundingClientRect().right > 0; })(),
    articleWidth: (() => { const a = document.querySelector('article, .bd-article');
                           return a ? Math.round(a.getBoundingClientRect().width) : null; })(),
  };
})()
"""

# Click one side of the first framework tab set; say what every set shows then.
_TABS = r"""
(side => {
  const sets = Array.from(document.querySelectorAll('.sd-tab-set.sbs-frameworks'));
  if (!sets.length) return {sets: 0};
  const label = sets[0].querySelector(`label[data-sync-id="${side}"]`);
  if (!label) return {sets: sets.length, error: `no ${side} label in the first set`};
  label.click();
  return {sets: sets.length, shown: sets.map(s => {
    const input = s.querySelector('input:checked');
    const lab = input && s.querySelector(`label[for="${input.id}"]`);
    const panels = Array.from(s.querySelectorAll('.sd-tab-content'))
      .filter(c => c.getBoundingClientRect().height > 0);
    return {side: lab ? lab.dataset.syncId : null, panels: panels.length,
            code: panels.length === 1 && !!panels[0].querySelector('.cell')};
  })};
})"""

# The paragraph right before each framework tab set, as (tag, text) per child node.
_LABELS = r"""
Array.from(document.querySelectorAll('.sd-tab-set.sbs-frameworks')).map(s => {
  const p = s.previousElementSibling;
  if (!p || p.tagName !== 'P') return null;
  return Array.from(p.childNodes).map(n => [n.nodeType === 3 ? '#text' : n.nodeName.toLowerCase(),
                                           n.textContent]);
}).filter(p => p)
"""

_SEARCH_RESULTS = r"""
(() => {
  const items = document.querySelectorAll('#search-results li, ul.search li');
  const summary = document.querySelector('#search-results p.search-summary, p.search-summary');
  return {count: items.length, summary: summary ? summary.textContent : '',
          summaries: document.querySelectorAll('#search-results li p.context').length};
})()
"""


def _evaluate(dt, session, expression, timeout=30):
    result = dt.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                          "awaitPromise": True}, session, timeout=timeout)
    if "exceptionDetails" in result:
        raise RuntimeError(f"page script failed: {result['exceptionDetails']}")
    return result["result"].get("value")


def _browser_favicon(url):
    # Chromium asks for /favicon.ico by itself when a page names no icon; that request (and
    # its 404 in the log) is the browser's, not the book's
    return urlsplit(url).path == "/favicon.ico"


def _event_problems(events, page, viewport):
    problems = []
    status = {}
    for method, p in events:
        if _browser_favicon(p.get("request", p.get("response", p.get("entry", {}))).get("url", "")
                            or ""):
            continue
        if method == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", []))
            problems.append(Problem(page, viewport, "console", f"console.error: {text[:200]}"))
        elif method == "Runtime.exceptionThrown":
            d = p.get("exceptionDetails", {})
            text = d.get("exception", {}).get("description") or d.get("text", "")
            problems.append(Problem(page, viewport, "console",
                                    f"uncaught: {text.splitlines()[0][:200] if text else d}"))
        elif method == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
            e = p["entry"]
            problems.append(Problem(page, viewport, "console",
                                    f"log: {e.get('text', '')[:160]} {e.get('url', '')}".strip()))
        elif method == "Network.requestWillBeSent":
            url = p.get("request", {}).get("url", "")
            status[p.get("requestId")] = url
            why = request_problem(url)
            if why:
                problems.append(Problem(page, viewport, "offline", why))
        elif method == "Network.responseReceived":
            r = p.get("response", {})
            if r.get("status", 0) >= 400:
                problems.append(Problem(page, viewport, "requests",
                                        f"HTTP {r['status']}: {r.get('url', '')[:160]}"))
        elif method == "Network.loadingFailed":
            url = status.get(p.get("requestId"), p.get("requestId"))
            if _browser_favicon(str(url)):
                continue
            problems.append(Problem(page, viewport, "requests",
                                    f"{p.get('errorText')}: {str(url)[:160]}"))
    return problems


def check_page(dt, session, base, page, viewport, shots_dir, settle=0.4):
    """Load ``page`` in ``session`` (already set to ``viewport``) and return its problems."""
    dt.take_events(session)
    dt.send("Page.navigate", {"url": f"{base}/{page}"}, session)
    if not dt.wait_for(session, "Page.loadEventFired", timeout=30):
        return [Problem(page, viewport, "requests", "the page did not finish loading in 30 s")], None
    dt.pump(settle)
    facts = _evaluate(dt, session, _PAGE_FACTS)
    dt.pump(0.1)
    problems = _event_problems(dt.take_events(session), page, viewport)

    limit = min(facts["innerWidth"], VIEWPORTS[viewport]["width"]) + 1
    if facts["scrollWidth"] > limit:
        problems.append(Problem(page, viewport, "scroll",
                                f"page scrolls sideways: scrollWidth {facts['scrollWidth']} > "
                                f"{limit - 1}; wide: {', '.join(facts['widest'])}"))
    for img in facts["images"]:
        if not img["naturalWidth"]:
            problems.append(Problem(page, viewport, "images", f"image not loaded: {img['src']}"))
        why = alt_text_problem(img["alt"])
        if why and viewport == "desktop":      # the same markup at every width: report once
            problems.append(Problem(page, viewport, "alt", f"{why} (src {img['src']})"))
    if viewport == "desktop":
        for href in sorted(set(facts["links"])):
            why = link_host_problem(href)
            if why:
                problems.append(Problem(page, viewport, "links", why))

    if viewport == "desktop":
        problems += check_labels(dt, session, page, viewport)
        problems += check_tabs(dt, session, page, viewport, shots_dir)

    shot = None
    if shots_dir is not None:
        data = dt.send("Page.captureScreenshot", {"format": "png"}, session)["data"]
        shot = Path(shots_dir) / f"{page.replace('/', '__').removesuffix('.html')}.{viewport}.png"
        shot.write_bytes(base64.b64decode(data))
    facts.pop("links")
    return problems, dict(facts, screenshot=str(shot) if shot else None)


def check_labels(dt, session, page, viewport):
    """Check 10 on the loaded page."""
    problems = []
    for parts in _evaluate(dt, session, _LABELS):
        why = label_problem(parts)
        if why:
            problems.append(Problem(page, viewport, "labels", why))
    return problems


def check_tabs(dt, session, page, viewport, shots_dir=None):
    """Check 9 on the loaded page; a screenshot of the first set's MXNet side goes beside the
    page's (``<page>.tabs.png``)."""
    problems = []
    for side in ("mxnet", "pytorch"):
        found = _evaluate(dt, session, f"{_TABS}({json.dumps(side)})")
        if not found["sets"]:
            return []
        if "error" in found:
            return [Problem(page, viewport, "tabs", found["error"])]
        wrong = [i for i, s in enumerate(found["shown"])
                 if s["side"] != side or s["panels"] != 1 or not s["code"]]
        if wrong:
            problems.append(Problem(page, viewport, "tabs",
                                    f"after clicking {side}: sets {wrong[:10]} of "
                                    f"{found['sets']} show {found['shown'][wrong[0]]}"))
        if side == "mxnet" and shots_dir is not None:
            _evaluate(dt, session, "document.querySelector('.sd-tab-set.sbs-frameworks')"
                                   ".scrollIntoView(), true")
            dt.pump(0.1)
            data = dt.send("Page.captureScreenshot", {"format": "png"}, session)["data"]
            shot = Path(shots_dir) / f"{page.replace('/', '__').removesuffix('.html')}.tabs.png"
            shot.write_bytes(base64.b64decode(data))
            _evaluate(dt, session, "window.scrollTo(0, 0), true")
    return problems


def check_search(dt, session, base, viewport, term=SEARCH_TERM, timeout=20):
    """The search page at ``base`` (http://... or file://...) for ``term``."""
    dt.take_events(session)
    page = f"search.html?q={term}" + (" (file://)" if base.startswith("file:") else "")
    dt.send("Page.navigate", {"url": f"{base}/search.html?q={term}"}, session)
    dt.wait_for(session, "Page.loadEventFired", timeout=30)
    deadline = time.monotonic() + timeout
    found = {"count": 0, "summary": ""}
    while time.monotonic() < deadline:
        dt.pump(0.25)
        found = _evaluate(dt, session, _SEARCH_RESULTS)
        if found["count"]:
            break
    dt.pump(0.5)        # what each listed result does after it is shown (a summary's fetch)
    problems = _event_problems(dt.take_events(session), page, viewport)
    if not found["count"]:
        problems.append(Problem(page, viewport, "search",
                                f"no results for {term!r} in {timeout} s "
                                f"(summary: {found['summary'].strip()[:120]!r})"))
    return problems, found


def _open_session(dt, viewport):
    target = dt.send("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = dt.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    for domain in ("Page", "Runtime", "Log", "Network"):
        dt.send(f"{domain}.enable", {}, session)
    dt.send("Network.setCacheDisabled", {"cacheDisabled": False}, session)
    dt.send("Emulation.setDeviceMetricsOverride", VIEWPORTS[viewport], session)
    if VIEWPORTS[viewport]["mobile"]:
        dt.send("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5},
                session)
        dt.send("Emulation.setUserAgentOverride", {"userAgent": PHONE_UA}, session)
    return target, session


def list_pages(html_dir):
    html_dir = Path(html_dir)
    return sorted(p.relative_to(html_dir).as_posix() for p in html_dir.rglob("*.html")
                  if not p.relative_to(html_dir).as_posix().startswith(("_static/", "_sources/")))


# Tabs driven at once (each its own DevTools connection and page): a page check mostly waits
# (the load, the settle, the screenshot), so four tabs take about a third of one tab's time on
# two cores (tools/browser_check.py on the 55-page book, 2026-12-04: 94 s with one tab).
TABS = 4


def _check_share(ws_url, html_dir, viewport, pages, shots, searches):
    """One tab at ``viewport`` over ``pages`` (and the searches if ``searches``): problems,
    notes and screenshots keyed as in :func:`check_book`'s report."""
    out = {"problems": {}, "notes": {}, "shots": {}}
    # its own server, so its own origin: the tab sets' choice is kept in the origin's storage,
    # and a click in one tab would otherwise switch the sets of another tab's page
    with serve(html_dir) as base, contextlib.closing(DevTools(ws_url)) as dt:
        target, session = _open_session(dt, viewport)
        for page in pages:
            problems, facts = check_page(dt, session, base, page, viewport, shots)
            out["problems"][page] = problems
            out["notes"][(page, viewport)] = facts
            if facts and facts.get("screenshot"):
                out["shots"][page] = facts["screenshot"]
        if searches:
            problems, found = check_search(dt, session, base, viewport)
            out["problems"][None] = problems
            out["notes"][("search.html?q=" + SEARCH_TERM, viewport)] = found
            if viewport == "desktop":     # as the README opens it: a file, not served
                problems, found = check_search(dt, session, Path(html_dir).resolve().as_uri(),
                                               viewport)
                out["problems"][None] += problems
                out["notes"][("search.html?q=" + SEARCH_TERM + " (file://)", viewport)] = found
        dt.send("Target.closeTarget", {"targetId": target})
    return out


def check_book(html_dir, artifacts=None, binary=None, pages=None, tabs=TABS):
    """Every check on every page of the built book in ``html_dir``; returns a Report.

    ``tabs`` pages are open at once (the viewports' pages split between them); the report
    lists the problems in the same order as one tab would: by viewport, page, then search."""
    binary = binary or find_chromium()
    if not binary:
        raise FileNotFoundError("chromium not found: apt-get install chromium")
    report = Report(pages=pages or list_pages(html_dir))
    shots = Path(artifacts) if artifacts else None
    if shots:
        shots.mkdir(parents=True, exist_ok=True)
    per_viewport = max(1, tabs // len(VIEWPORTS))
    n = len(report.pages)
    shares = [(viewport, report.pages[k * n // per_viewport:(k + 1) * n // per_viewport], k == 0)
              for viewport in VIEWPORTS for k in range(per_viewport)]
    with tempfile.TemporaryDirectory(prefix="sbs-chromium-", ignore_cleanup_errors=True) as profile, \
            chromium(binary, profile) as ws_url, \
            concurrent.futures.ThreadPoolExecutor(len(shares)) as pool:
        futures = [pool.submit(_check_share, ws_url, html_dir, viewport, share, shots,
                               searches) for viewport, share, searches in shares]
        results = [f.result() for f in futures]       # a tab's exception is raised here
    for viewport in VIEWPORTS:
        mine = [r for (v, _, _), r in zip(shares, results) if v == viewport]
        for page in report.pages:
            [r] = [r for r in mine if page in r["problems"]]     # the one tab it was in
            report.problems += r["problems"][page]
            report.notes[(page, viewport)] = r["notes"][(page, viewport)]
            if page in r["shots"]:
                report.screenshots.append(r["shots"][page])
        for r in mine:
            report.problems += r["problems"].get(None, [])
            report.notes.update({k: v for k, v in r["notes"].items()
                                 if k[0].startswith("search.html?")})
    return report


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("html", type=Path, help="the built book: .../_build/html")
    parser.add_argument("--artifacts", type=Path,
                        default=os.environ.get("SIDEBYSIDE_ARTIFACTS"),
                        help="folder for the screenshots (default: $SIDEBYSIDE_ARTIFACTS)")
    parser.add_argument("--json", type=Path, help="also write the problems and notes here")
    args = parser.parse_args(argv)
    t0 = time.monotonic()
    report = check_book(args.html, args.artifacts)
    for problem in report.problems:
        print(problem)
    counts = {check: len(found) for check, found in report.by_check().items()}
    print(f"{len(report.pages)} pages x {len(VIEWPORTS)} widths in "
          f"{time.monotonic() - t0:.0f} s; problems per check: {counts}")
    if args.json:
        args.json.write_text(json.dumps({
            "counts": counts, "problems": [vars(p) for p in report.problems],
            "notes": {f"{k[0]} ({k[1]})": v for k, v in report.notes.items()}}, indent=1))
    return 1 if report.problems else 0


if __name__ == "__main__":
    sys.exit(main())
