"""The plugin's modes (plugin/modes/): each build chooses what it does once, in ``on_config``,
and every hook hands over to that choice. A build with its own Chinese edition runs its nested
build in the Chinese mode and is back in the English one after; beside mkdocs-static-i18n one
bridge serves all of static-i18n's language builds; ``review sync`` collects without translating."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import mkdocs_zh_translate.plugin as plugin_package
from mkdocs_zh_translate.plugin import modes
from mkdocs_zh_translate.plugin.collect import EnglishBuild, with_english_build
from mkdocs_zh_translate.plugin.modes import nested
from tests.plugin_sites import PAGES, build_in_process, write_site

I18N_PAGES = {
    "index.md": "# Welcome\n\nRead the [guide](guide.md).\n",
    "index.fr.md": "# Bienvenue\n\nLisez le [guide](guide.md).\n",
    "guide.md": "---\ntitle: The guide\n---\n# Guide\n\nInstall it with pip.\n",
    "guide.fr.md": "# Guide\n\nInstallez-le avec pip.\n",
}


def _i18n_site(root: Path) -> Path:
    i18n = {
        "docs_structure": "suffix",
        "languages": [{"locale": "en", "name": "English", "default": True}, {"locale": "fr", "name": "Français"}],
    }
    extra = {"plugins": ["search", {"i18n": i18n}, {"zh-translate": {"backend": "pseudo"}}]}
    return write_site(root, theme="material", pages=I18N_PAGES, extra_config=extra)


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[type[modes.Mode]]:
    """The modes chosen, in order (one per ``on_config`` that starts a build of its own)."""
    chosen: list[type[modes.Mode]] = []
    real = modes.start

    def start(kept: modes.Kept, config: Any, collector: Any) -> modes.Mode:
        mode = real(kept, config, collector)
        chosen.append(type(mode))
        return mode

    monkeypatch.setattr(modes, "start", start)
    return chosen


def test_no_module_of_the_plugin_package_has_600_lines(tmp_path: Path) -> None:
    package = Path(plugin_package.__file__).parent
    sizes = {
        str(p.relative_to(package)): len(p.read_text(encoding="utf-8").splitlines()) for p in package.rglob("*.py")
    }
    assert {name: n for name, n in sizes.items() if n >= 600} == {}


def test_the_nested_build_runs_in_the_chinese_mode_chosen_by_the_english_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, started: list[type[modes.Mode]]
) -> None:
    pages: dict[str, list[tuple[str, type[modes.Mode]]]] = {"en": [], "zh": []}
    for side, cls in (("en", nested.EnglishSite), ("zh", nested.ChineseSite)):
        real = cls.on_page_markdown

        def record(
            self: modes.Mode, markdown: str, page: Any, config: Any, files: Any, *, _side: str = side, _real: Any = real
        ) -> str:
            pages[_side].append((page.file.src_uri, type(self.kept.mode)))
            result: str = _real(self, markdown, page, config, files)
            return result

        monkeypatch.setattr(cls, "on_page_markdown", record)
    plugin = build_in_process(write_site(tmp_path))
    assert started == [modes.EnglishSite]  # the nested build's on_config chose nothing new
    assert sorted(uri for uri, _mode in pages["en"]) == sorted(PAGES)
    assert {mode for _uri, mode in pages["en"]} == {modes.EnglishSite}
    assert sorted(uri for uri, _mode in pages["zh"]) == sorted(PAGES)
    assert {mode for _uri, mode in pages["zh"]} == {modes.ChineseSite}
    assert type(plugin._kept.mode) is modes.EnglishSite  # back in the English build's mode after
    assert "zh-translate-banner" in (tmp_path / "site" / "zh" / "guide" / "install" / "index.html").read_text("utf-8")


def test_review_sync_collects_the_english_build_without_translating(
    tmp_path: Path, started: list[type[modes.Mode]]
) -> None:
    config = write_site(tmp_path)
    build = with_english_build(config, lambda english: english)
    assert started == [modes.Collect]
    assert isinstance(build, EnglishBuild) and sorted(build.jobs) == sorted(PAGES)
    assert "Demo Docs" in build.site_strings and "Install it" in build.site_strings
    assert not (tmp_path / "site").exists()  # a scratch site, and no Chinese build


def test_beside_static_i18n_one_bridge_serves_every_language_build(
    tmp_path: Path, started: list[type[modes.Mode]]
) -> None:
    pytest.importorskip("mkdocs_static_i18n")
    plugin = build_in_process(_i18n_site(tmp_path))
    assert started == [modes.Bridge]  # static-i18n's fr and zh builds ran on_config again
    assert type(plugin._kept.mode) is modes.Bridge
    zh = (tmp_path / "site" / "zh" / "guide" / "index.html").read_text("utf-8")
    assert "「Install it with pip.」" in zh and "zh-translate-banner" in zh
    assert "zh-translate-banner" not in (tmp_path / "site" / "fr" / "guide" / "index.html").read_text("utf-8")


def test_review_sync_beside_static_i18n_collects_the_default_language_only(
    tmp_path: Path, started: list[type[modes.Mode]]
) -> None:
    pytest.importorskip("mkdocs_static_i18n")
    build = with_english_build(_i18n_site(tmp_path), lambda english: english)
    assert started == [modes.BridgeCollect]
    assert sorted(build.jobs) == ["guide.md", "index.md"]
    assert dict(build.metas) == {"guide.md": {"title": "The guide"}, "index.md": {}}
    assert "Install it with pip." in build.jobs["guide.md"].markdown
