"""`mkdocs serve` (and `properdocs serve`) serves both languages, rebuilds both on a change, and keeps the model loaded."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from mkdocs_zh_translate.pipeline.translator import PSEUDO_OPEN
from tests.plugin_sites import write_site


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _get(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.read().decode("utf-8")
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return ""


def _until(predicate, timeout: float = 90) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.5)
    return False


@pytest.mark.parametrize("host", ["mkdocs", "properdocs"])
def test_serve_serves_and_live_reloads_both_languages(tmp_path: Path, host: str) -> None:
    pytest.importorskip(host)
    # ProperDocs 1.6.7 reads properdocs.yml and ships no `mkdocs` theme (properdocs-theme-mkdocs)
    config = write_site(tmp_path, theme="material" if host == "properdocs" else "mkdocs", extra_config={"site_url": None})
    if host == "properdocs":
        config.rename(tmp_path / "properdocs.yml")
    port = _free_port()
    log = tmp_path / "serve.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", host, "serve", "-a", f"127.0.0.1:{port}"],
            cwd=tmp_path,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        zh_url = f"http://127.0.0.1:{port}/zh/guide/usage/"
        assert _until(lambda: PSEUDO_OPEN in _get(zh_url)), log.read_text()
        page = _get(zh_url)
        assert "livereload(" in page, "served Chinese pages must carry MkDocs' live-reload script"
        assert 'lang="zh' in page

        usage = tmp_path / "docs" / "guide" / "usage.md"
        usage.write_text(usage.read_text() + "\nServed fresh paragraph.\n")
        assert _until(lambda: f"{PSEUDO_OPEN}Served fresh paragraph." in _get(zh_url)), log.read_text()
        assert "Served fresh paragraph." in _get(f"http://127.0.0.1:{port}/guide/usage/")
        # one summary per rebuild; the pseudo backend says so instead of claiming a model
        assert _until(lambda: log.read_text().count("segments (") >= 2, 10), log.read_text()
        summaries = [line for line in log.read_text().splitlines() if "segments (" in line]
        assert all("pseudo backend (no model)" in line for line in summaries if "0 translated" not in line)
        assert not any("model loaded" in line for line in summaries)
        assert not list((tmp_path / "docs").rglob("*.html")), "serve must not write into docs_dir"
    finally:
        server.terminate()
        server.wait(timeout=30)
