"""A real browser on the 2026 stacks: the language switcher across en/fr/zh of a
mkdocs-static-i18n site with zh-translate, and Material's zh search for inflected English words."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.docs.test_docs_stacks import _build, _i18n_site
from tests.plugin import test_plugin_browser  # skips this module where no browser is installed
from tests.plugin.test_plugin_browser import By, _search, _serve, _wait
from tests.plugin_sites import build_in_process, write_site

browser = test_plugin_browser.browser  # the module's headless Chromium fixture


@pytest.fixture
def i18n_site(tmp_path: Path) -> Iterator[str]:
    pytest.importorskip("mkdocs_static_i18n")
    root = tmp_path / "proj"
    _i18n_site(root)
    done = _build(root)
    assert done.returncode == 0, done.stderr
    server, url = _serve(root / "site")
    try:
        yield url
    finally:
        server.shutdown()


def test_the_switcher_walks_en_fr_zh_on_the_same_page(browser: object, i18n_site: str) -> None:
    driver = browser
    root = i18n_site  # static-i18n writes relative switcher links on inner pages
    driver.get(root + "guide/")

    def switch_to(lang: str) -> None:
        link = driver.find_element(By.CSS_SELECTOR, f'a.md-select__link[hreflang="{lang}"]')
        driver.execute_script("arguments[0].click()", link)

    for lang in ("fr", "zh", "en", "zh", "fr"):
        switch_to(lang)
        path = "guide/" if lang == "en" else f"{lang}/guide/"
        _wait(driver, lambda d, p=path: d.current_url == root + p)
        assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == lang
        links = driver.find_elements(By.CSS_SELECTOR, "a.md-select__link")
        assert sorted(a.get_attribute("hreflang") for a in links) == ["en", "fr", "zh"]
    assert "Installez-le" in driver.find_element(By.TAG_NAME, "article").text


@pytest.fixture
def material_site(tmp_path: Path) -> Iterator[str]:
    pages = {"index.md": "# Welcome\n\nHello.\n", "lists.md": "# Lists\n\nFix the indentation of nested lists.\n"}
    build_in_process(write_site(tmp_path, theme="material", pages=pages, extra_config={"site_url": None}))
    server, url = _serve(tmp_path / "site")
    try:
        yield url
    finally:
        server.shutdown()


@pytest.mark.parametrize("query", ["indentation", "indent", "nested"])
def test_zh_search_finds_inflected_english_words(browser: object, material_site: str, query: str) -> None:
    driver = browser
    driver.get(material_site + "zh/")
    # Read in one script as the list settles: Material re-renders it as the query is typed (a link
    # found and then read could be gone: a stale element).
    hrefs = _search(driver, "material", query, "/zh/lists/")
    assert any(h.endswith("/zh/lists/") for h in hrefs), hrefs
