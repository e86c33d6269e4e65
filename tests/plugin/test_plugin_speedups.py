"""The speed-ups that wrap other packages' internals run only under ``speedups: auto`` and only
for the exact versions of ``speedups.TESTED``; anywhere else the build is the plain one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mkdocs_zh_translate.plugin import speedups
from tests.plugin.test_plugin_reload import PAGE_COUNT, Serve, _edit
from tests.plugin_sites import build_in_process, write_site


@pytest.mark.parametrize("distribution", sorted(speedups.TESTED))
def test_the_suite_runs_each_wrapped_package_at_a_tested_version(distribution: str) -> None:
    """The tests of reload.py, hookmemo.py, borrow.py and jinjacache.py exercise the wrappers
    on what is installed: this says it is a version of the table, so each listed version is
    one a test ran (a new release installed here fails this until it is tested and listed)."""
    found = speedups.installed(distribution)
    if found is None:
        pytest.skip(f"{distribution} is not installed here")
    assert found in speedups.TESTED[distribution]
    assert speedups.tested(distribution)


@pytest.fixture
def untested(monkeypatch: pytest.MonkeyPatch) -> set[str]:
    """Distributions named here read as installed at a release nobody tested."""
    names: set[str] = set()
    real = speedups.installed

    def installed(distribution: str) -> str | None:
        return "0.0.0.untested" if distribution in names else real(distribution)

    monkeypatch.setattr(speedups, "installed", installed)
    return names


def _serve_twice(config: Path) -> Any:
    session = Serve(config)
    try:
        session.rebuild()
        _edit(config.parent / "docs" / "guide" / "usage.md", "the cache makes", "the warm cache makes")
        return session.rebuild()
    finally:
        session.close()


def test_speedups_off_rebuilds_plainly(tmp_path: Path) -> None:
    plugin = _serve_twice(write_site(tmp_path, theme="material", plugin={"backend": "pseudo", "speedups": "off"}))
    assert (plugin._renders.reused, plugin._renders.rendered) == (0, 0)  # no memo attached at all
    assert plugin._hooks["zh"].reused == plugin._hooks["en"].reused == 0
    assert plugin._templates.loads == 0
    assert "the warm cache makes" in (tmp_path / "site" / "zh" / "guide" / "usage" / "index.html").read_text()


def test_auto_reuses_on_the_tested_versions(tmp_path: Path) -> None:
    plugin = _serve_twice(write_site(tmp_path, theme="material"))
    assert (plugin._renders.reused, plugin._renders.rendered) == (PAGE_COUNT - 1, 1)
    assert plugin._templates.loads > 10


def _guard_renders(root: Path, **plugin: Any) -> int:
    """The page guard's Markdown renders in one fresh build (fewer where the English build
    lent its renders: borrow.py; with attr_list, whose pins the guard reads as the site does)."""
    config = write_site(root, plugin={"backend": "pseudo", **plugin}, extra_config={"markdown_extensions": ["attr_list"]})
    return int(build_in_process(config).stats.guard_renders)


def test_the_english_renders_are_lent_only_under_auto_on_a_tested_mkdocs(
    tmp_path: Path, untested: set[str]
) -> None:
    lent, plain = _guard_renders(tmp_path / "auto"), _guard_renders(tmp_path / "off", speedups="off")
    assert 0 < lent < plain
    untested.add("mkdocs")
    assert _guard_renders(tmp_path / "untested") == plain


def test_an_untested_mkdocs_gets_plain_builds(tmp_path: Path, untested: set[str]) -> None:
    untested.add("mkdocs")
    plugin = _serve_twice(write_site(tmp_path, theme="material"))
    assert plugin._renders.reused == 0 and plugin._templates.loads == 0


def test_an_untested_jinja2_compiles_every_template(tmp_path: Path, untested: set[str]) -> None:
    untested.add("Jinja2")
    assert build_in_process(write_site(tmp_path, theme="material"))._templates.loads == 0


@pytest.mark.parametrize(("distribution", "kept"), [
    ("mkdocs-minify-plugin", {"material.plugins.search.plugin:page_context"}),
    ("mkdocs-material", {"mkdocs_minify_plugin.plugin:post_page"}),
])
def test_an_untested_plugin_release_keeps_its_own_page_hook(
    tmp_path: Path, untested: set[str], distribution: str, kept: set[str]
) -> None:
    pytest.importorskip("mkdocs_minify_plugin")
    from mkdocs.config import load_config
    from mkdocs.config.defaults import MkDocsConfig

    from mkdocs_zh_translate.plugin.hookmemo import HookMemo

    untested.add(distribution)
    MkDocsConfig.plugins.plugin_cache.clear()  # type: ignore[attr-defined]
    extra = {"theme": {"name": "material"}, "plugins": ["search", "minify", {"zh-translate": {"backend": "pseudo"}}]}
    config = load_config(config_file=str(write_site(tmp_path, extra_config=extra)))
    before = {event: list(methods) for event, methods in config.plugins.events.items()}
    HookMemo().install(config)
    wrapped = {
        f"{type(getattr(old, '__self__', None)).__module__}:{event}"
        for event, methods in config.plugins.events.items()
        for old, new in zip(before[event], methods, strict=True)
        if old is not new
    }
    assert wrapped == kept


@pytest.mark.parametrize(("distribution", "extra"), [
    ("mkdocs-autorefs", {"plugins": ["search", "autorefs", {"zh-translate": {"backend": "pseudo"}}]}),
    ("pymdown-extensions", {"markdown_extensions": ["pymdownx.snippets"]}),
    ("mkdocstrings", {"plugins": ["search", {"mkdocstrings": {"default_handler": "python"}},
                                  {"zh-translate": {"backend": "pseudo"}}]}),
])
def test_a_page_render_is_not_reused_beside_an_untested_wrapped_release(
    tmp_path: Path, untested: set[str], distribution: str, extra: dict[str, Any]
) -> None:
    from mkdocs.config import load_config
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import get_files

    from mkdocs_zh_translate.plugin.reload import site_key

    MkDocsConfig.plugins.plugin_cache.clear()  # type: ignore[attr-defined]
    config = load_config(config_file=str(write_site(tmp_path, extra_config=extra)))
    config.plugins.on_config(config)  # plugins add their Markdown extensions (autorefs, mkdocstrings)
    files = get_files(config)
    assert site_key(config, files) != ""
    untested.add(distribution)
    assert site_key(config, files) == ""
