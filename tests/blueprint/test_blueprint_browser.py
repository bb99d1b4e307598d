"""The catalogue site in a real browser: headless Chromium (Debian's ``chromium`` and
``chromium-driver``) driven over the W3C WebDriver protocol (plain HTTP, standard library) loads
every page; the DOM lists every entry, every link resolves (file and anchor), the console stays
free of errors, and screenshots are kept (``$MISTAKEBOUND_ARTIFACTS``, default ``.artifacts/``).

Locally the test skips with one line when Chromium is absent; with CI set it fails instead.
The site is written once by the command line (``mistakebound catalogue --html``), and written a
second time to check that the two runs give byte-identical files.
"""
from __future__ import annotations

import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1280,1000"]

pytestmark = pytest.mark.slow


def _need_browser():
    if CHROMIUM and DRIVER:
        return
    what = "chromium" if not CHROMIUM else "chromedriver"
    if os.environ.get("CI"):
        pytest.fail(f"{what} is not installed, but CI must test the site in a browser "
                    "(.ci/run installs chromium chromium-driver)")
    pytest.skip(f"{what} not installed (apt-get install chromium chromium-driver)")


def _write_site(dest: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "mistakebound", "catalogue", "--html", str(dest), "--quiet"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    _need_browser()
    d = tmp_path_factory.mktemp("site") / "out"
    p = _write_site(d)
    assert p.returncode == 0, p.stderr + p.stdout
    return d


# --------------------------------------------------------------------------- a minimal WebDriver client
class Driver:
    def __init__(self):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.profile = tempfile.mkdtemp(prefix="mb-chromium-")
        self.proc = subprocess.Popen([DRIVER, f"--port={self.port}"], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while True:
            try:
                self._call("GET", "/status")
                break
            except OSError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    self.close()
                    raise RuntimeError("chromedriver did not start")
                time.sleep(0.1)
        caps = {"capabilities": {"alwaysMatch": {
            "browserName": "chrome", "goog:loggingPrefs": {"browser": "ALL"},
            "goog:chromeOptions": {"binary": CHROMIUM, "args": FLAGS + [f"--user-data-dir={self.profile}"]}}}}
        self.sid = self._call("POST", "/session", caps)["sessionId"]

    def _call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=120) as r:
            return json.loads(r.read().decode())["value"]

    def cmd(self, method, path, body=None):
        return self._call(method, f"/session/{self.sid}{path}", body)

    def get(self, url):
        self.cmd("POST", "/url", {"url": url})

    def js(self, script):
        return self.cmd("POST", "/execute/sync", {"script": script, "args": []})

    def console(self):
        return self.cmd("POST", "/se/log", {"type": "browser"})

    def screenshot(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(self.cmd("GET", "/screenshot")))

    def close(self):
        try:
            if getattr(self, "sid", None):
                self._call("DELETE", f"/session/{self.sid}")
        except OSError:
            pass
        finally:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
            shutil.rmtree(self.profile, ignore_errors=True)


@pytest.fixture(scope="module")
def browser(site):
    d = Driver()
    yield d
    d.close()


_DOM = """
const links = [...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href'));
return {title: document.title, ids: [...document.querySelectorAll('[id]')].map(e => e.id), links: links,
        entries: [...document.querySelectorAll('table.entries a.eid')].map(a => a.textContent),
        math: document.querySelectorAll('math').length, svg: document.querySelectorAll('svg').length,
        steps: document.querySelectorAll('article.step').length,
        mathWidth: Math.max(0, ...[...document.querySelectorAll('math')].map(m => m.getBoundingClientRect().width)),
        styled: getComputedStyle(document.querySelector('header.top')).backgroundColor,
        // boxes that would draw vertical scroll arrows: overflow-y auto or scroll, content taller than the box
        vscroll: [...document.querySelectorAll('body *')].filter(e => ['auto', 'scroll'].includes(
            getComputedStyle(e).overflowY) && e.scrollHeight > e.clientHeight + 1).map(
            e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className ? '.' + e.className : ''))};
"""


def test_every_page_loads_with_its_entries_and_links(site, browser):
    from proofs.catalogue import registry
    manifest = json.loads((site / "site.json").read_text())
    pages = sorted(f for f in manifest["files"] if f.endswith(".html"))
    ids_all = registry.theorem_ids()
    assert {e["id"] for e in manifest["entries"]} == set(ids_all)
    assert set(pages) >= {f"{i}.html" for i in ids_all} | {"index.html", "rules.html", "graph.html"}
    doms, errors = {}, []
    for page in pages:
        browser.get((site / page).as_uri())
        dom = browser.js(_DOM)
        doms[page] = dom
        errors += [f"{page}: {m['message']}" for m in browser.console() if m.get("level") in ("SEVERE", "ERROR")]
    assert not errors, "console errors:\n" + "\n".join(errors)
    arrows = {page: dom["vscroll"] for page, dom in doms.items() if dom["vscroll"]}
    assert not arrows, f"rows that Chromium draws with vertical scroll arrows: {arrows}"
    # the index lists every entry, in catalogue order, with a page each
    assert doms["index.html"]["entries"] == ids_all
    assert doms["index.html"]["styled"] == "rgb(29, 34, 48)"          # the bundled style sheet applied
    # every link resolves: the file exists in the site, and the anchor exists in that page
    broken = []
    for page, dom in doms.items():
        for href in dom["links"]:
            u = urllib.parse.urlparse(href)
            assert u.scheme in ("", "file"), f"{page}: a link leaves the site: {href}"
            target = page if not u.path else os.path.normpath(os.path.join(os.path.dirname(page), u.path))
            if not (site / target).is_file():
                broken.append(f"{page} -> {href}")
            elif u.fragment and target in doms and u.fragment not in doms[target]["ids"]:
                broken.append(f"{page} -> {href} (no such anchor)")
    assert not broken, "broken links:\n" + "\n".join(broken)
    # an entry page: typeset mathematics (laid out by the browser: MathML with a width), the proof
    # graph, and one article per step of the proof
    bn = doms["block_novikoff_unit.html"]
    assert bn["math"] >= 10 and bn["mathWidth"] > 20 and bn["svg"] >= 1 and bn["steps"] == 5
    assert "step-invariant_step" in bn["ids"] and "hyp-margin" in bn["ids"]
    assert "cauchy_schwarz.html" in bn["links"] and "block_novikoff_unit.html" in doms["cauchy_schwarz.html"]["links"]
    assert doms["perceptron_2d_half_bound.html"]["svg"] >= 2              # the graph and the worst-case chart


def test_screenshots_are_kept(site, browser):
    out = Path(os.environ.get("MISTAKEBOUND_ARTIFACTS", ROOT / ".artifacts"))
    for page in ("index.html", "block_novikoff_unit.html", "perceptron_2d_half_bound.html"):
        browser.get((site / page).as_uri())
        shot = out / f"blueprint-{page.replace('.html', '')}.png"
        browser.screenshot(shot)
        head = shot.read_bytes()[:24]
        assert head[:8] == b"\x89PNG\r\n\x1a\n"
        w, h = int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
        assert w >= 800 and h >= 600 and shot.stat().st_size > 20_000


def test_two_runs_give_byte_identical_files(site, tmp_path):
    again = tmp_path / "again"
    p = _write_site(again)
    assert p.returncode == 0, p.stderr
    a = sorted(str(f.relative_to(site)) for f in site.rglob("*") if f.is_file())
    b = sorted(str(f.relative_to(again)) for f in again.rglob("*") if f.is_file())
    assert a == b
    differ = [f for f in a if (site / f).read_bytes() != (again / f).read_bytes()]
    assert not differ, f"files differ between two runs: {differ}"
