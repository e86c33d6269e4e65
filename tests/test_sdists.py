"""The sdist fetcher of the corpus: the index's file when its hash checks out, pip otherwise."""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests import sdists


def _index(root: Path, files: dict[str, bytes], *, digest: str | None = None) -> str:
    """A PEP 503 simple index on disk listing ``files`` for the project ``demo-pkg``."""
    project = root / "simple" / "demo-pkg"
    project.mkdir(parents=True)
    links = []
    for name, data in files.items():
        (project / name).write_bytes(data)
        sha = digest if digest is not None else hashlib.sha256(data).hexdigest()
        links.append(f'<a href="{name}#sha256={sha}">{name}</a>')
    (project / "index.html").write_text("<html><body>" + "<br>".join(links) + "</body></html>")
    return (root / "simple").as_uri()


@pytest.fixture
def pip_calls(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """Record ``pip download`` instead of running it (the fallback); it downloads nothing."""
    calls: list[list[str]] = []

    def run(cmd: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
        calls.append(cmd)
        return subprocess.CompletedProcess(cmd, 1, "", "ERROR: no such distribution")

    monkeypatch.setattr(sdists.subprocess, "run", run)
    return calls


def test_the_index_file_is_taken_when_its_hash_matches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       pip_calls: list[list[str]]) -> None:
    index = _index(tmp_path / "idx", {"demo_pkg-1.0.tar.gz": b"one", "demo_pkg-1.1.tar.gz": b"other"})
    monkeypatch.setattr(sdists, "index_urls", lambda: (index,))
    found, error = sdists.fetch("demo.pkg", "1.0", tmp_path / "cache")
    assert found is not None and found.name == "demo_pkg-1.0.tar.gz" and found.read_bytes() == b"one"
    assert error == "" and pip_calls == []
    # found again in the cache without asking anyone
    monkeypatch.setattr(sdists, "index_urls", lambda: ())
    assert sdists.fetch("Demo_Pkg", "1.0", tmp_path / "cache")[0] == found


def test_a_wrong_hash_is_never_kept_and_pip_decides(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    pip_calls: list[list[str]]) -> None:
    index = _index(tmp_path / "idx", {"demo_pkg-1.0.tar.gz": b"tampered"}, digest="0" * 64)
    monkeypatch.setattr(sdists, "index_urls", lambda: (index,))
    found, error = sdists.fetch("demo-pkg", "1.0", tmp_path / "cache")
    assert found is None and "no such distribution" in error
    assert [c[3:5] for c in pip_calls] == [["download", "demo-pkg==1.0"]]
    assert list((tmp_path / "cache").iterdir()) == []


def test_an_index_without_the_version_or_unreachable_falls_back_to_pip(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pip_calls: list[list[str]]) -> None:
    index = _index(tmp_path / "idx", {"demo_pkg-2.0.tar.gz": b"two"})
    missing = (tmp_path / "nowhere").as_uri()
    monkeypatch.setattr(sdists, "index_urls", lambda: (missing, index))
    assert sdists.fetch("demo-pkg", "1.0", tmp_path / "cache")[0] is None
    assert len(pip_calls) == 1


def test_the_indexes_are_pips_own(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PIP_INDEX_URL", "https://mirror.example/simple/")
    monkeypatch.setenv("PIP_EXTRA_INDEX_URL", "file:///a/simple file:///b/simple")
    sdists.index_urls.cache_clear()
    try:
        assert sdists.index_urls() == ("https://mirror.example/simple", "file:///a/simple", "file:///b/simple")
    finally:
        sdists.index_urls.cache_clear()
