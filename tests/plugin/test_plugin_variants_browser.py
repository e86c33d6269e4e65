"""A real browser on a Taiwan variant (``variants: [zh-Hans, zh-TW]``): Material's zh-TW
interface, its switcher listing every language, and its search finding a Traditional word."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.plugin.test_plugin_browser import _search, _serve, _wait, browser  # noqa: F401  # browser: the fixture
from tests.plugin.test_plugin_variants import _site
from tests.plugin_sites import build_in_process

pytest.importorskip("opencc", reason="the `hant` extra (OpenCC) is not installed")

from selenium.webdriver.common.by import By  # noqa: E402


def test_the_taiwan_site_in_a_browser(browser: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = _site(tmp_path, monkeypatch, ["zh-Hans", "zh-TW"])
    text = config.read_text(encoding="utf-8").replace("site_url: https://example.com/docs/", "site_url: null")
    config.write_text(text, encoding="utf-8")
    build_in_process(config)
    server, url = _serve(tmp_path / "site")
    driver = browser
    try:
        driver.get(url + "zh-TW/guide/install/")
        assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "zh-TW"
        assert driver.find_element(By.CSS_SELECTOR, "input.md-search__input").get_attribute("placeholder") == "搜尋"
        links = driver.execute_script(
            "return Array.from(document.querySelectorAll('a.md-select__link'))"
            ".map(a => [a.getAttribute('hreflang'), a.textContent.trim()])"
        )
        assert links == [["en", "English"], ["zh", "简体中文"], ["zh-TW", "繁體中文（台灣）"]]
        # 快取 (Taiwan's word for cache, s2twp's) stands on the install and usage pages
        _search(driver, "material", "快取", "zh-TW/guide/usage/")
        driver.get(url + "zh-TW/guide/install/")
        driver.execute_script("arguments[0].click()", driver.find_element(By.CSS_SELECTOR, 'a[hreflang="zh"]'))
        _wait(driver, lambda d: d.current_url == url + "zh/guide/install/")
    finally:
        server.shutdown()
