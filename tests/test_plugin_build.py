"""Real `mkdocs build`s with the plugin (built-in theme and Material): the Chinese site."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mkdocs_zh_translate.translator import PSEUDO_OPEN

from plugin_sites import Html, html_pages, resolve, run_mkdocs, write_site

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
    pairs = []
    for en in html_pages(site, skip="zh"):
        rel = en.relative_to(site)
        if rel.name == "404.html":
            continue
        pairs.append((en, site / "zh" / rel))
    return pairs


def test_every_page_has_a_chinese_twin_with_lang_zh(built: tuple[str, Path]) -> None:
    _, site = built
    pairs = _pairs(site)
    assert len(pairs) == 3
    for en, zh in pairs:
        assert zh.is_file(), zh
        assert Html(en).lang.startswith("en")
        assert Html(zh).lang.startswith("zh")


def test_page_text_nav_titles_and_site_name_are_translated(built: tuple[str, Path]) -> None:
    theme, site = built
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


def test_switcher_links_resolve_to_the_same_page_in_the_other_language(built: tuple[str, Path]) -> None:
    theme, site = built
    for en, zh in _pairs(site):
        for page, want_lang, want in ((en, "zh", zh), (zh, "en", en)):
            doc = Html(page)
            links = [a for _, a in doc.tags if a.get("hreflang") == want_lang and "href" in a]
            assert links, f"{page}: no link to {want_lang}"
            for attrs in links:
                assert resolve(page, attrs["href"], site) == want.resolve(), (page, attrs["href"])


def test_every_link_and_image_of_the_english_page_resolves_in_the_chinese_page(built: tuple[str, Path]) -> None:
    _, site = built
    for en, zh in _pairs(site):
        en_links, zh_links = Html(en).content_links(), Html(zh).content_links()
        for href in set(en_links):
            if href.startswith(SITE_URL):  # canonical links point into the own language's site
                href = SITE_URL + "zh/" + href[len(SITE_URL) :]
            assert href in zh_links, f"{zh}: lost {href}"
            target = resolve(zh, href, site / "zh")
            if target is not None:
                assert target.exists(), f"{zh}: {href} -> {target} missing"
                fragment = href.partition("#")[2]
                if fragment and target.suffix == ".html":
                    assert fragment in Html(target).ids(), f"{zh}: anchor {href} missing"


def test_code_blocks_are_byte_identical_and_anchors_unchanged(built: tuple[str, Path]) -> None:
    _, site = built
    saw_pre = False
    for en, zh in _pairs(site):
        en_doc, zh_doc = Html(en), Html(zh)
        assert zh_doc.pre_blocks() == en_doc.pre_blocks()
        saw_pre = saw_pre or bool(en_doc.pre_blocks())
        assert zh_doc.heading_ids() == en_doc.heading_ids()
    assert saw_pre


def test_banner_on_chinese_pages_only(built: tuple[str, Path]) -> None:
    _, site = built
    for en, zh in _pairs(site):
        assert "zh-translate-banner" in Html(zh).source
        assert "zh-translate-banner" not in Html(en).source


def test_own_search_index_404_and_sitemap_with_hreflang(built: tuple[str, Path]) -> None:
    theme, site = built
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
