"""A missing Chinese page shows the Chinese 404 page: under `mkdocs serve`, and on static hosts
that serve the root 404.html for every missing path (GitHub Pages)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.plugin.test_plugin_serve import _free_port, _get, _until
from tests.plugin_sites import Html, run_mkdocs, write_site

NODE = shutil.which("node") or shutil.which("nodejs")


def _redirect(script: str, pathname: str) -> str:
    """Where the 404 page's script sends a visitor of ``pathname`` ("" for nowhere), in Node."""
    assert NODE is not None
    harness = (
        "var window={location:{pathname:" + json.dumps(pathname) + ",replace:function(u){process.stdout.write(u)}}};\n"
        + script
    )
    proc = subprocess.run([NODE, "-e", harness], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.mark.skipif(NODE is None, reason="node is not installed (it runs the 404 page's script)")
@pytest.mark.parametrize("site_url", ["https://example.com/docs/", None])
@pytest.mark.parametrize("theme", ["mkdocs", "material"])
def test_root_404_sends_chinese_visitors_to_the_chinese_404(tmp_path: Path, theme: str, site_url: str | None) -> None:
    write_site(tmp_path, theme=theme, extra_config={"site_url": site_url})
    proc = run_mkdocs(tmp_path, "--strict")
    assert proc.returncode == 0, proc.stderr
    site = tmp_path / "site"
    root_404 = Html(site / "404.html")
    assert root_404.lang.startswith("en")
    scripts = [s for s in root_404.source.split("<script>")[1:] if "404.html" in s.split("</script>")[0]]
    assert len(scripts) == 1
    script = scripts[0].split("</script>")[0]
    mount = "/docs/" if site_url else "/"
    target = _redirect(script, f"{mount}zh/guide/nope/")
    assert target == f"{mount}zh/404.html"
    assert (site / target[len(mount) :]).is_file()
    assert Html(site / target[len(mount) :]).lang.startswith("zh")
    assert _redirect(script, f"{mount}guide/nope/") == ""  # English visitors stay
    assert _redirect(script, f"{mount}zh/404.html") == ""  # no loop if the zh 404 were missing
    assert _redirect(script, f"{mount}zhx/") == ""


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return exc.code
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return 0


def _error_page(url: str) -> str:
    try:
        urllib.request.urlopen(url, timeout=10)
    except urllib.error.HTTPError as exc:
        return exc.read().decode("utf-8")
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return ""
    return ""


def test_serve_answers_missing_chinese_pages_with_the_chinese_404(tmp_path: Path) -> None:
    write_site(tmp_path, theme="material", extra_config={"site_url": None})
    port = _free_port()
    log = tmp_path / "serve.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}"],
            cwd=tmp_path,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        base = f"http://127.0.0.1:{port}"
        assert _until(lambda: "lang=\"zh" in _get(f"{base}/zh/guide/usage/")), log.read_text()
        assert _status(f"{base}/zh/nope/") == 404
        zh = _error_page(f"{base}/zh/nope/")
        assert '<html lang="zh' in zh, zh[:300]
        en = _error_page(f"{base}/nope/")
        assert '<html lang="en' in en, en[:300]
    finally:
        server.terminate()
        server.wait(timeout=30)
