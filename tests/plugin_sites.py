"""Helpers for the plugin tests: write a small MkDocs project, build it, read the HTML back.

Builds run either as a real ``python -m mkdocs build`` subprocess (entry points, CLI flags,
exit codes) or in-process (so a test can swap the translator factory and count model loads).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator, Mapping
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import yaml

from tests.fakes import CountingTranslator

PAGES: dict[str, str] = {
    "index.md": (
        "# Welcome\n\n"
        "This site explains the translation cache. Read the [install guide](guide/install.md) "
        "and its [requirements](guide/install.md#requirements).\n\n"
        "![Logo](img/logo.png)\n\n"
        "```python\nprint('keep <me> & exact')\n```\n"
    ),
    "guide/install.md": (
        "---\ntitle: Installing\ndescription: How to install the tool\n---\n"
        "# Install\n\n"
        "Install the package with pip. Go [home](../index.md) or see [usage](usage.md#run-it).\n\n"
        "## Requirements\n\n"
        "You need Python and a cache directory.\n\n"
        "    indented code stays\n"
    ),
    "guide/usage.md": (
        "---\ntitle: Using it\n---\n"
        "# Usage\n\n"
        "## Run it\n\n"
        "Run the build command; the cache makes the second build fast.\n\n"
        "![Diagram](../img/logo.png)\n"
    ),
}

NAV = [
    {"Home": "index.md"},
    {"Guide": [{"Install it": "guide/install.md"}, "guide/usage.md"]},
]


def write_site(
    root: Path,
    *,
    theme: str = "mkdocs",
    plugin: Mapping[str, Any] | None = None,
    pages: Mapping[str, str] | None = None,
    extra_config: Mapping[str, Any] | None = None,
) -> Path:
    """Write mkdocs.yml and docs/ under ``root``; return the mkdocs.yml path."""
    docs = root / "docs"
    for name, text in (PAGES if pages is None else pages).items():
        path = docs / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (docs / "img").mkdir(parents=True, exist_ok=True)
    (docs / "img" / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    options = {"backend": "pseudo"} if plugin is None else dict(plugin)
    config: dict[str, Any] = {
        "site_name": "Demo Docs",
        "site_description": "Docs about the cache",
        "site_url": "https://example.com/docs/",
        "theme": {"name": theme},
        "plugins": ["search", {"zh-translate": options}],
    }
    if pages is None:
        config["nav"] = NAV
    config.update(extra_config or {})
    path = root / "mkdocs.yml"
    path.write_text(yaml.safe_dump(config, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def run_mkdocs(root: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``python -m mkdocs build <args>`` in ``root``; output captured, never raises."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", *args],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def build_in_process(config_file: Path, *, dirty: bool = False, **overrides: Any) -> Any:
    """Build like ``mkdocs build`` does, in this process; return the zh-translate plugin.

    ``overrides`` are what the CLI's flags pass to ``load_config`` (``site_dir``, ``strict``);
    ``dirty`` is ``--dirty``."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.config.defaults import MkDocsConfig

    # MkDocs caches plugin instances that define on_startup for the whole process (that is how
    # `mkdocs serve` keeps them); a test wants a fresh one, like a new `mkdocs build` gets.
    MkDocsConfig.plugins.plugin_cache.clear()  # type: ignore[attr-defined]
    config = load_config(config_file=str(config_file), **overrides)
    config.plugins.on_startup(command="build", dirty=dirty)
    try:
        build(config, dirty=dirty)
    finally:
        config.plugins.on_shutdown()
    return config.plugins["zh-translate"]


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {k: v or "" for k, v in attrs}))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


class Html:
    """A built page: its tags, text and raw source."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.source = path.read_text(encoding="utf-8")
        parser = _Collector()
        parser.feed(self.source)
        self.tags = parser.tags
        self.text = "".join(parser.text)

    def attr(self, tag: str, name: str) -> list[str]:
        return [a[name] for t, a in self.tags if t == tag and name in a]

    def find(self, tag: str, **attrs: str) -> list[dict[str, str]]:
        return [a for t, a in self.tags if t == tag and all(a.get(k) == v for k, v in attrs.items())]

    @property
    def lang(self) -> str:
        return self.attr("html", "lang")[0]

    def heading_ids(self) -> list[str]:
        return [a["id"] for t, a in self.tags if re.fullmatch(r"h[1-6]", t) and "id" in a]

    def ids(self) -> set[str]:
        return {a["id"] for _, a in self.tags if "id" in a}

    def pre_blocks(self) -> list[str]:
        return re.findall(r"<pre\b.*?</pre>", self.source, flags=re.S)

    def content_links(self) -> list[str]:
        """href/src values of the page's own content and chrome, minus language links."""
        links = []
        for _tag, attrs in self.tags:
            if "hreflang" in attrs or "zh-translate-switch" in attrs.get("class", ""):
                continue
            for name in ("href", "src"):
                if name in attrs:
                    links.append(attrs[name])
        return links


def resolve(page: Path, href: str, site_root: Path) -> Path | None:
    """The file a relative link from ``page`` points to (None for external or pure-fragment
    links); directories resolve to their index.html."""
    parts = urlsplit(href)
    if parts.scheme or parts.netloc or not parts.path:
        return None
    if parts.path.startswith("/"):
        target = site_root / unquote(parts.path).lstrip("/")
    else:
        target = (page.parent / unquote(parts.path)).resolve()
    if target.is_dir() or parts.path.endswith("/"):
        target = target / "index.html"
    return target


def html_pages(site: Path, *, skip: str | None = None) -> Iterator[Path]:
    for path in sorted(site.rglob("*.html")):
        rel = path.relative_to(site)
        if skip and rel.parts[0] == skip:
            continue
        yield path


def page_pairs(site: Path, prefix: str = "zh") -> list[tuple[Path, Path]]:
    """(English page, Chinese page) for every built page except 404.html."""
    pairs = []
    for en in html_pages(site, skip=prefix):
        rel = en.relative_to(site)
        if rel.name != "404.html":
            pairs.append((en, site / prefix / rel))
    return pairs


def check_twin(en: Path, zh: Path, site: Path, site_url: str | None = None) -> list[str]:
    """Everything that must hold between a page and its Chinese twin; returns the failures."""
    problems: list[str] = []
    if not zh.is_file():
        return [f"{zh}: missing"]
    en_doc, zh_doc = Html(en), Html(zh)
    if not zh_doc.lang.startswith("zh"):
        problems.append(f"{zh}: lang={zh_doc.lang}")
    if zh_doc.pre_blocks() != en_doc.pre_blocks():
        problems.append(f"{zh}: <pre> blocks differ")
    if zh_doc.heading_ids() != en_doc.heading_ids():
        problems.append(f"{zh}: heading ids {zh_doc.heading_ids()} != {en_doc.heading_ids()}")
    zh_links = zh_doc.content_links()
    for href in set(en_doc.content_links()):
        if site_url and href.startswith(site_url):  # canonical links point into their own site
            href = site_url + "zh/" + href[len(site_url) :]
        if href not in zh_links:
            problems.append(f"{zh}: lost {href}")
            continue
        target = resolve(zh, href, site / "zh")
        if target is None:
            continue
        if not target.exists():
            problems.append(f"{zh}: {href} -> {target} missing")
            continue
        fragment = href.partition("#")[2]
        if fragment and target.suffix == ".html" and unquote(fragment) not in Html(target).ids():
            problems.append(f"{zh}: anchor {href} missing")
    for want_lang, page, want in (("zh", en, zh), ("en", zh, en)):
        links = [a["href"] for _, a in Html(page).tags if a.get("hreflang") == want_lang and "href" in a]
        if not links:
            problems.append(f"{page}: no link to {want_lang}")
        for href in links:
            if resolve(page, href, site) != want.resolve():
                problems.append(f"{page}: switcher {href} does not lead to {want}")
    return problems


def fake_model_loader(monkeypatch: Any) -> list[CountingTranslator]:
    """Make the ``onnx`` backend load a ``CountingTranslator`` per model load (listed in the
    returned list); like the real loader it needs the model directory to exist."""
    from mkdocs_zh_translate.pipeline import lazy as batch
    from mkdocs_zh_translate.pipeline.backends import BackendError

    made: list[CountingTranslator] = []

    def load(backend: str, model: str | None, **options: object) -> CountingTranslator:
        if not model or not Path(model).is_dir():
            raise BackendError(f"model directory {model} does not exist")
        made.append(CountingTranslator())
        return made[-1]

    monkeypatch.setattr(batch, "load_translator", load)
    return made
