"""Real `mkdocs build`s with the plugin (built-in theme and Material): the Chinese site."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mkdocs_zh_translate.pipeline.translator import PSEUDO_OPEN
from tests.plugin_sites import Html, check_twin, page_pairs, run_mkdocs, write_site

THEMES = ["mkdocs", "material"]
SITE_URL = "https://example.com/docs/"


@pytest.fixture(scope="module", params=THEMES)
def built(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    root = tmp_path_factory.mktemp(f"site-{request.param}")
    write_site(root, theme=request.param)
    proc = run_mkdocs(root, "--strict")  # the Chinese build must not warn either
    assert proc.returncode == 0, proc.stderr
    return request.param, root / "site"


def _pairs(site: Path) -> list[tuple[Path, Path]]:
    return page_pairs(site)


def test_every_page_has_a_chinese_twin_with_lang_zh(built: tuple[str, Path]) -> None:
    _, site = built
    pairs = _pairs(site)
    assert len(pairs) == 3
    for en, zh in pairs:
        assert zh.is_file(), zh
        assert Html(en).lang.startswith("en")
        assert Html(zh).lang.startswith("zh")


def test_page_text_nav_titles_and_site_name_are_translated(built: tuple[str, Path]) -> None:
    _theme, site = built
    zh = Html(site / "zh" / "guide" / "install" / "index.html")
    assert f"{PSEUDO_OPEN}Install the package with pip." in zh.text
    # nav titles from mkdocs.yml and site_name go through the translator too
    assert f"{PSEUDO_OPEN}Install it" in zh.text
    assert f"{PSEUDO_OPEN}Guide" in zh.text
    assert f"{PSEUDO_OPEN}Demo Docs" in zh.text
    en = Html(site / "guide" / "install" / "index.html")
    assert PSEUDO_OPEN not in en.text, "the English site must stay untouched"


def test_front_matter_title_and_description_are_translated(built: tuple[str, Path]) -> None:
    theme, site = built
    usage = Html(site / "zh" / "guide" / "usage" / "index.html")
    assert f"<title>{PSEUDO_OPEN}Using it" in usage.source
    # Material shows the page's front-matter description; the built-in theme only site_description
    page, want = ("guide/install", "How to install") if theme == "material" else ("", "Docs about the cache")
    zh = Html(site / "zh" / page / "index.html")
    descriptions = [a.get("content", "") for a in zh.find("meta", name="description")]
    assert descriptions == [f"{PSEUDO_OPEN}{want}" + descriptions[0][len(want) + 1 :]], descriptions


def test_switcher_links_links_images_code_and_anchors_survive(built: tuple[str, Path]) -> None:
    """Switcher links lead to the twin; every href/src of the English page is in the Chinese
    page and resolves (anchors included); <pre> blocks byte-identical; heading ids identical."""
    _, site = built
    problems = [p for en, zh in _pairs(site) for p in check_twin(en, zh, site, SITE_URL)]
    assert problems == []
    assert any(Html(en).pre_blocks() for en, _ in _pairs(site))


def test_banner_on_chinese_pages_only(built: tuple[str, Path]) -> None:
    _, site = built
    for en, zh in _pairs(site):
        assert "zh-translate-banner" in Html(zh).source
        assert "zh-translate-banner" not in Html(en).source


def test_own_search_index_404_and_sitemap_with_hreflang(built: tuple[str, Path]) -> None:
    _theme, site = built
    zh = site / "zh"
    assert (zh / "404.html").is_file()
    index = json.loads((zh / "search" / "search_index.json").read_text(encoding="utf-8"))
    locations = {doc["location"] for doc in index["docs"]}
    assert any(loc.startswith("guide/install/") for loc in locations)
    zh_text = " ".join(doc["text"] for doc in index["docs"])
    assert PSEUDO_OPEN in zh_text
    en_index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert PSEUDO_OPEN not in " ".join(doc["text"] for doc in en_index["docs"])
    sitemap = (zh / "sitemap.xml").read_text(encoding="utf-8")
    assert "<loc>https://example.com/docs/zh/guide/install/</loc>" in sitemap
    assert 'hreflang="en" href="https://example.com/docs/guide/install/"' in sitemap
    en_sitemap = (site / "sitemap.xml").read_text(encoding="utf-8")
    assert 'hreflang="zh" href="https://example.com/docs/zh/guide/install/"' in en_sitemap


def test_second_build_translates_nothing(built: tuple[str, Path]) -> None:
    _, site = built
    proc = run_mkdocs(site.parent)
    assert proc.returncode == 0, proc.stderr
    summary = [line for line in proc.stderr.splitlines() if "zh-translate:" in line and "segments" in line]
    assert len(summary) == 1, proc.stderr
    assert " 0 translated" in summary[0]
    assert "model not loaded" in summary[0]


def test_the_plugin_build_runs_the_drop_pairs_step(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # 0.1.0's plugin never passed the droppable emphasis pairs: a model that broke **bold**
    # left the whole sentence English. Now the ladder drops the bold and keeps the words.
    from mkdocs_zh_translate.pipeline import lazy
    from tests.fakes import EmphasisBreaker
    from tests.plugin_sites import build_in_process

    model = EmphasisBreaker()
    monkeypatch.setattr(lazy, "load_translator", lambda *a, **k: model)
    pages = {"index.md": "# Home\n\nPress **Enter** to begin the setup.\n\nPress [Enter](other.md) to begin the setup.\n",
             "other.md": "# Other\n"}
    plugin = build_in_process(write_site(tmp_path, pages=pages))
    assert plugin.stats.fallbacks == 1
    html = (tmp_path / "site" / "zh" / "index.html").read_text(encoding="utf-8")
    assert "PRESS ENTER TO BEGIN THE SETUP." in html and "<strong>" not in html
    # the same text around a link is not allowed to lose it: that occurrence stays English
    assert 'Press <a href="other/">Enter</a> to begin the setup.' in html
