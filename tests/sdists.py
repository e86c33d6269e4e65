"""Fetch a pinned source distribution (the real-site corpus, the CommonMark spec) into a cache.

``pip download NAME==VER --no-deps --no-binary :all:`` is what a person would type, but for an
sdist pip also prepares its metadata: it builds an isolated environment with the project's build
backend (setuptools, hatchling, ...) and runs it, 4-5 s of CPU per project, and a fresh clone's
test run fetches about thirty. The file itself is one link on the package index's simple page
(PEP 503), which names it ``{name}-{version}.tar.gz`` and carries its SHA-256. So: read the
indexes pip is configured with (``tools.install.read_pip_settings``), download the
file from the first index that lists it, check the hash the index gives, and fall back to
``pip download`` when anything about that fails (an index that is not a simple index, no hash,
no such file, no network): the fallback is the old way, slower, never wrong.
"""

from __future__ import annotations

import hashlib
import os
import re
import shlex
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path

from tools.install import read_pip_settings

DEFAULT_INDEX = "https://pypi.org/simple"
#: Only tarballs: what the corpus and the spec reader unpack (the pinned projects all ship one).
SUFFIXES = (".tar.gz",)


def normal(name: str) -> str:
    """PEP 503's name normalisation, with ``_`` (how sdist file names spell it since PEP 625)."""
    return re.sub(r"[-_.]+", "_", name).lower()


def _split_sdist(filename: str) -> tuple[str, str] | None:
    """``(normalised name, version)`` of an sdist file name, or None for anything else."""
    for suffix in SUFFIXES:
        if filename.endswith(suffix):
            name, _, version = filename[: -len(suffix)].rpartition("-")
            return (normal(name), version) if name else None
    return None


def find(folder: Path, dist: str, version: str) -> Path | None:
    """The sdist of ``dist==version`` already in ``folder``, if any."""
    for path in sorted(folder.iterdir()) if folder.is_dir() else ():
        if _split_sdist(path.name) == (normal(dist), version):
            return path
    return None


@lru_cache(maxsize=1)
def index_urls() -> tuple[str, ...]:
    """The simple indexes pip would ask, in pip's order: the index URL, then the extra ones."""
    settings = read_pip_settings()
    urls = [settings.get("index-url", DEFAULT_INDEX), *shlex.split(settings.get("extra-index-url", ""))]
    return tuple(u.rstrip("/") for u in urls if u)


class _Links(HTMLParser):
    """The ``<a href>`` targets of a simple-index page, each with its link text (the file name)."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[tuple[str, str]] = []
        self._href: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self._href = dict(attrs).get("href") or ""
            self._text = []

    def handle_data(self, data: str) -> None:
        if self._href is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._href is not None:
            self.links.append((self._href, "".join(self._text).strip()))
            self._href = None


def _from_index(index: str, dist: str, version: str, folder: Path) -> Path | None:
    """Download the sdist from one simple index; None when the index does not list it with a hash."""
    page_url = f"{index}/{normal(dist).replace('_', '-')}/"
    # a directory on disk (a ``file:`` index, as pip reads it) serves its index.html
    read_url = page_url + "index.html" if page_url.startswith("file:") else page_url
    try:
        with urllib.request.urlopen(read_url, timeout=60) as response:
            parser = _Links()
            parser.feed(response.read().decode("utf-8", "replace"))
    except (OSError, ValueError):
        return None
    for href, text in parser.links:
        url = urllib.parse.urljoin(page_url, href)
        path_part, _, fragment = url.partition("#")
        filename = text or urllib.parse.unquote(path_part.rsplit("/", 1)[-1])
        digest = dict(urllib.parse.parse_qsl(fragment)).get("sha256")
        if _split_sdist(filename) != (normal(dist), version) or not digest or "/" in filename:
            continue
        try:
            with urllib.request.urlopen(path_part, timeout=300) as response:
                data = response.read()
        except (OSError, ValueError):
            return None
        if hashlib.sha256(data).hexdigest() != digest.lower():
            return None
        with tempfile.NamedTemporaryFile(dir=folder, suffix=".part", delete=False) as out:
            out.write(data)
        target = folder / filename
        os.replace(out.name, target)
        return target
    return None


def fetch(dist: str, version: str, folder: Path) -> tuple[Path | None, str]:
    """The sdist of ``dist==version`` in ``folder``, fetched on first use: ``(path, pip's error)``.

    The path is None only when neither the indexes nor ``pip download`` produced it; the second
    value then holds the end of pip's error output, for the caller's message."""
    folder.mkdir(parents=True, exist_ok=True)
    found = find(folder, dist, version)
    if found is not None:
        return found, ""
    for index in index_urls():
        found = _from_index(index, dist, version, folder)
        if found is not None:
            return found, ""
    cmd = [sys.executable, "-m", "pip", "download", f"{dist}=={version}", "--no-deps", "--no-binary", ":all:"]
    done = subprocess.run([*cmd, "-q", "-d", str(folder)], capture_output=True, text=True, timeout=900)
    return find(folder, dist, version), done.stderr.strip()[-400:]
