"""A ``mkdocs serve`` reload renders again only the Chinese pages whose inputs changed (issue 21).

Each test rebuilds in one process as ``mkdocs serve`` does (one plugin instance, mkdocs.yml
loaded again per rebuild), checks that the unchanged pages' renders were reused (so the test
exercises the memo), and that what changed shows on the Chinese pages: a memo keyed on too
little (the English source, the page alone, not the options) fails each of them.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from mkdocs_zh_translate.plugin.reload import site_key
from tests.plugin_sites import PAGES, write_site

PAGE_COUNT = len(PAGES)


class Serve:
    """Rebuilds of one project in this process, as ``mkdocs serve`` runs them."""

    def __init__(self, config_file: Path) -> None:
        from mkdocs.config.defaults import MkDocsConfig

        MkDocsConfig.plugins.plugin_cache.clear()  # type: ignore[attr-defined]
        self.config_file = config_file
        self.started = False
        self.config: Any = None

    def rebuild(self) -> Any:
        from mkdocs.commands.build import build
        from mkdocs.config import load_config

        self.config = load_config(config_file=str(self.config_file))
        if not self.started:
            self.config.plugins.on_startup(command="serve", dirty=False)
            self.started = True
        build(self.config, serve_url="http://127.0.0.1:8000/docs/")
        return self.config.plugins["zh-translate"]

    def close(self) -> None:
        if self.config is not None:
            self.config.plugins.on_shutdown()


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Serve]:
    session = Serve(write_site(tmp_path))
    try:
        yield session
    finally:
        session.close()


def _zh(tmp_path: Path, page: str) -> str:
    return (tmp_path / "site" / "zh" / page).read_text(encoding="utf-8")


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_an_edited_page_is_rendered_again_and_the_others_are_reused(tmp_path: Path, serve: Serve) -> None:
    assert serve.rebuild()._renders.rendered == PAGE_COUNT
    _edit(tmp_path / "docs" / "guide" / "usage.md", "the cache makes", "the warm cache makes")
    plugin = serve.rebuild()
    assert (plugin._renders.reused, plugin._renders.rendered) == (PAGE_COUNT - 1, 1)
    assert "the warm cache makes" in _zh(tmp_path, "guide/usage/index.html")
    assert "You need Python" in _zh(tmp_path, "guide/install/index.html")  # reused, still there


def test_a_changed_heading_shows_in_every_pages_nav(tmp_path: Path) -> None:
    pages = {
        "index.md": "# Welcome\n\nStart here.\n",
        "usage.md": "# Usage\n\nRun it.\n",
        "other.md": "# Other\n\nMore.\n",
    }
    session = Serve(write_site(tmp_path, pages=pages))  # no nav: titles come from the headings
    try:
        session.rebuild()
        _edit(tmp_path / "docs" / "usage.md", "# Usage", "# Operation")
        plugin = session.rebuild()
    finally:
        session.close()
    assert plugin._renders.reused == len(pages) - 1
    for page in ("index.html", "other/index.html", "usage/index.html"):
        html = _zh(tmp_path, page)
        assert "「Operation」" in html and "「Usage」" not in html, page


def test_a_new_review_shows_on_its_page(tmp_path: Path, serve: Serve) -> None:
    serve.rebuild()
    review = tmp_path / "translations" / "zh" / "guide" / "install.md.po"
    review.parent.mkdir(parents=True)
    review.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "You need Python and a cache directory."\nmsgstr "你需要 Python 和缓存目录。"\n',
        encoding="utf-8",
    )
    plugin = serve.rebuild()  # the English source is unchanged: only its translation is new
    assert plugin._renders.reused == PAGE_COUNT - 1
    html = _zh(tmp_path, "guide/install/index.html")
    assert "你需要 Python 和缓存目录。" in html and "「You need Python" not in html


def test_a_changed_markdown_option_renders_every_page_again(tmp_path: Path, serve: Serve) -> None:
    serve.rebuild()
    config = yaml.safe_load(serve.config_file.read_text(encoding="utf-8"))
    config["markdown_extensions"] = [{"toc": {"permalink": "#"}}]
    serve.config_file.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    plugin = serve.rebuild()
    assert (plugin._renders.reused, plugin._renders.rendered) == (0, PAGE_COUNT)
    assert 'class="headerlink"' in _zh(tmp_path, "guide/install/index.html")


def test_an_edited_template_shows_on_every_page(tmp_path: Path) -> None:
    overrides = tmp_path / "overrides"
    overrides.mkdir()
    template = overrides / "main.html"
    template.write_text('{% extends "base.html" %}{% block content %}MARKER-ONE{{ super() }}{% endblock %}\n')
    session = Serve(write_site(tmp_path, extra_config={"theme": {"name": "mkdocs", "custom_dir": "overrides"}}))
    try:
        session.rebuild()
        template.write_text(template.read_text().replace("MARKER-ONE", "MARKER-TWO"))
        plugin = session.rebuild()
    finally:
        session.close()
    assert plugin._renders.reused == PAGE_COUNT  # Markdown renders reused, templates run again
    for page in ("index.html", "guide/install/index.html", "guide/usage/index.html"):
        html = _zh(tmp_path, page)
        assert "MARKER-TWO" in html and "MARKER-ONE" not in html, page


def test_an_edited_snippet_file_renders_the_pages_again(tmp_path: Path) -> None:
    snippets = tmp_path / "snippets"
    snippets.mkdir()
    (snippets / "abbr.md").write_text("*[CLI]: Command Line One\n", encoding="utf-8")
    extensions = [
        "abbr",
        {"pymdownx.snippets": {"base_path": [str(snippets)], "auto_append": ["abbr.md"]}},
    ]
    pages = {"index.md": "# Home\n\nUse the CLI here.\n", "other.md": "# Other\n\nThe CLI again.\n"}
    config = write_site(tmp_path, pages=pages, extra_config={"markdown_extensions": extensions})
    session = Serve(config)
    try:
        session.rebuild()
        assert "Command Line One" in _zh(tmp_path, "other/index.html")
        (snippets / "abbr.md").write_text("*[CLI]: Command Line Two, longer\n", encoding="utf-8")
        plugin = session.rebuild()
    finally:
        session.close()
    assert plugin._renders.reused == 0
    html = _zh(tmp_path, "other/index.html")
    assert "Command Line Two" in html and "Command Line One" not in html


def test_renders_are_not_reused_beside_an_unknown_extension_or_under_strict(tmp_path: Path) -> None:
    from mkdocs.config import load_config
    from mkdocs.structure.files import Files

    config = load_config(config_file=str(write_site(tmp_path)))
    assert site_key(config, Files([]))
    config.markdown_extensions.append("mkdocs_zh_translate_test_unknown.ext")
    assert site_key(config, Files([])) == ""
    config = load_config(config_file=str(write_site(tmp_path)), strict=True)
    assert site_key(config, Files([])) == ""


def _tree(site: Path) -> dict[str, bytes]:
    return {str(p.relative_to(site)): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


def test_a_reload_writes_what_a_fresh_build_writes_beside_minify_search_and_mkdocstrings(tmp_path: Path) -> None:
    """Material's search, mkdocs-minify and mkdocstrings with autorefs: a reload after an edit
    reuses renders and the plugins' page hooks, and writes byte for byte what a fresh build of
    the edited project writes (both sites, search indexes, mkdocstrings' inventory). The edited
    page links to a heading of a reused page: that anchor reaches autorefs only by replay."""
    pytest.importorskip("mkdocstrings_handlers.python")
    pytest.importorskip("mkdocs_minify_plugin")
    source = tmp_path / "src" / "demo_pkg"
    source.mkdir(parents=True)
    (source / "__init__.py").write_text('"""A demo package."""\n\n\ndef run() -> int:\n    """Run it once."""\n    return 1\n')
    pages = {
        "index.md": "# Welcome\n\nStart with [the run step][run-it] and [run][demo_pkg.run].\n",
        "usage.md": "# Usage\n\n## Run it\n\nRun the build command twice.\n",
        "api.md": "# API\n\n::: demo_pkg\n",
    }
    extra = {
        "theme": {"name": "material"},
        "plugins": [
            "search",
            "autorefs",
            {"mkdocstrings": {"handlers": {"python": {"paths": ["src"]}}}},
            {"minify": {"minify_html": True}},
            {"zh-translate": {"backend": "pseudo"}},
        ],
        "markdown_extensions": ["toc"],
    }
    config = write_site(tmp_path, pages=pages, extra_config=extra)
    session = Serve(config)
    try:
        session.rebuild()
        _edit(tmp_path / "docs" / "index.md", "Start with", "Begin with")
        plugin = session.rebuild()
    finally:
        session.close()
    assert (plugin._renders.reused, plugin._renders.rendered) == (1, 2)  # usage reused; index, api rendered
    assert plugin._hooks["zh"].reused > 0 and plugin._hooks["en"].reused > 0
    reloaded = _tree(tmp_path / "site")
    index = reloaded["zh/index.html"].decode()
    assert "「Begin with" in index and 'title="「Run it」" href=usage/#run-it>' in index
    fresh = Serve(config)  # a new process's first build: nothing to reuse
    try:
        fresh.rebuild()
    finally:
        fresh.close()
    assert _tree(tmp_path / "site") == reloaded


def test_page_hooks_are_reused_only_for_known_plugins_and_never_under_strict(tmp_path: Path) -> None:
    """The memo wraps mkdocs-minify's ``on_post_page`` and Material search's
    ``on_page_context`` and nothing else; under strict, or with a jieba dictionary of the
    user's (a file that may change), it wraps nothing."""
    pytest.importorskip("mkdocs_minify_plugin")
    from mkdocs.config import load_config
    from mkdocs.config.defaults import MkDocsConfig

    from mkdocs_zh_translate.plugin.hookmemo import HookMemo

    def wrapped(strict: bool, search: Any = "search") -> set[str]:
        MkDocsConfig.plugins.plugin_cache.clear()  # type: ignore[attr-defined]
        extra = {"theme": {"name": "material"}, "plugins": [search, "minify", {"zh-translate": {"backend": "pseudo"}}]}
        config = load_config(config_file=str(write_site(tmp_path, extra_config=extra)), strict=strict)
        before = {event: list(methods) for event, methods in config.plugins.events.items()}
        HookMemo().install(config)
        return {
            f"{type(getattr(old, '__self__', None)).__module__}:{event}"
            for event, methods in config.plugins.events.items()
            for old, new in zip(before[event], methods, strict=True)
            if old is not new
        }

    assert wrapped(strict=False) == {
        "mkdocs_minify_plugin.plugin:post_page",
        "material.plugins.search.plugin:page_context",
    }
    assert wrapped(strict=True) == set()
    (tmp_path / "dict.txt").write_text("缓存 3\n", encoding="utf-8")
    assert wrapped(strict=False, search={"search": {"jieba_dict_user": str(tmp_path / "dict.txt")}}) == {
        "mkdocs_minify_plugin.plugin:post_page"
    }


def test_an_edited_page_under_the_snippets_base_path_leaves_the_other_renders_reused(tmp_path: Path) -> None:
    """pymdownx.snippets' default base path is the project, docs included: the renders depend on
    the files they included (recorded per render), not on every file under the base path."""
    snippets = tmp_path / "snippets"
    snippets.mkdir()
    (snippets / "abbr.md").write_text("*[CLI]: Command Line One\n", encoding="utf-8")
    appended = ["snippets/abbr.md", "snippets/later.md"]  # the second one is missing at first
    extensions = ["abbr", {"pymdownx.snippets": {"base_path": [str(tmp_path)], "auto_append": appended}}]
    pages = {"index.md": "# Home\n\nUse the CLI here.\n", "other.md": "# Other\n\nThe CLI again.\n"}
    session = Serve(write_site(tmp_path, pages=pages, extra_config={"markdown_extensions": extensions}))
    try:
        session.rebuild()
        _edit(tmp_path / "docs" / "index.md", "Use the CLI", "Run the CLI")
        plugin = session.rebuild()
        assert (plugin._renders.reused, plugin._renders.rendered) == (1, 1)
        assert "Command Line One" in _zh(tmp_path, "other/index.html")
        assert "「Run the" in _zh(tmp_path, "index.html")
        (snippets / "later.md").write_text("*[again]: Once More\n", encoding="utf-8")  # now it is found
        plugin = session.rebuild()
    finally:
        session.close()
    assert plugin._renders.reused == 0
    assert "Once More" in _zh(tmp_path, "other/index.html")
