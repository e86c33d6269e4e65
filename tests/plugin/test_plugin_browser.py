"""A real browser (Debian's headless Chromium) on the built sites: switch language, search Chinese.

The translator here is a tiny English->Chinese glossary, so the Chinese site holds real Chinese
words for the search to find; everything else is the real plugin, theme and search code.
"""

from __future__ import annotations

import functools
import re
import shutil
import threading
from collections.abc import Iterator, Sequence
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from mkdocs_zh_translate.pipeline import lazy as batch
from tests.plugin.search_data import MATERIAL_DOCS_SEPARATOR
from tests.plugin_sites import build_in_process, write_site

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install -e .[test])")
if not (CHROMIUM and CHROMEDRIVER):
    pytest.skip(
        "Debian's chromium and chromium-driver are not installed (apt-get install -y chromium "
        "chromium-driver; `make test` does this when run as root)",
        allow_module_level=True,
    )

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

GLOSSARY = {
    "install": "安装",
    "package": "软件包",
    "cache": "缓存",
    "translation": "翻译",
    "build": "构建",
    "usage": "用法",
    "welcome": "欢迎",
    "requirements": "要求",
}


class GlossaryTranslator:
    """Replaces known English words by Chinese words; enough for a searchable Chinese site."""

    fingerprint = "glossary-test"

    def translate(self, texts: Sequence[str]) -> list[str]:
        pattern = re.compile(r"\b(" + "|".join(GLOSSARY) + r")\b", re.IGNORECASE)
        return [pattern.sub(lambda m: GLOSSARY[m.group(1).lower()], t) for t in texts]


def chromium_driver(*extra: str) -> object:
    """Debian's headless Chromium under chromedriver, as every browser test drives it (``extra``:
    more command-line arguments, e.g. a window size); the caller quits it."""
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", *extra):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(60)
    return driver


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    driver: Any = chromium_driver()
    try:
        yield driver
    finally:
        driver.quit()


def _serve(directory: Path) -> tuple[ThreadingHTTPServer, str]:
    handler = functools.partial(SimpleHTTPRequestHandler, directory=str(directory))

    class Quiet(handler.func):  # type: ignore[misc,name-defined]
        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


@pytest.fixture(params=["mkdocs", "material"])
def served(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, str]]:
    monkeypatch.setattr(batch, "load_translator", lambda *a, **k: GlossaryTranslator())
    (tmp_path / "model").mkdir()
    config = write_site(
        tmp_path,
        theme=request.param,
        plugin={"backend": "onnx", "model": "model"},
        extra_config={"site_url": None},
    )
    build_in_process(config)
    server, url = _serve(tmp_path / "site")
    try:
        yield request.param, url
    finally:
        server.shutdown()


def _wait(driver: object, condition: object, timeout: float = 20) -> object:
    return WebDriverWait(driver, timeout).until(condition)


def _search(driver: object, theme: str, query: str, wanted: str) -> list[str]:
    """Type ``query`` into the theme's search box; the result links once one contains
    ``wanted`` (the test fails naming the links found when none does)."""
    if theme == "material":
        driver.execute_script("document.querySelector('label[for=__search]').click()")
        box = _wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "input.md-search__input"))
        box.send_keys(query)
        selector = "a.md-search-result__link"
    else:
        driver.execute_script("document.querySelector('[data-bs-target=\"#mkdocs_search_modal\"]').click()")
        box = _wait(driver, lambda d: d.find_element(By.ID, "mkdocs-search-query"))
        _wait(driver, lambda d: box.is_displayed())
        box.send_keys(query)
        selector = "#mkdocs-search-results a"
    # The theme re-renders its result list as the query is typed and indexed: read the links in
    # one script.
    read_links = "return Array.from(document.querySelectorAll(arguments[0])).map(a => a.href)"
    hrefs: list[str] = []

    def listed(d: object) -> bool:
        hrefs[:] = d.execute_script(read_links, selector)
        return any(wanted in h for h in hrefs)

    try:
        _wait(driver, listed)
    except Exception:  # the timeout says nothing; the links found do
        pytest.fail(f"{wanted} was not among the Chinese search results for {query!r}: {hrefs}")
    return hrefs


SENTENCES = {
    "You need Python and a cache directory.": "你需要Python和一个缓存目录。",
    "Run the build command; the cache makes the second build fast.": "运行构建命令；缓存让第二次构建更快。",
}


class SentenceTranslator:
    """Whole Chinese sentences, words not separated by spaces (as a real model writes them):
    only the index's own word boundaries let a search find a word inside them."""

    fingerprint = "sentences-test"

    def translate(self, texts: Sequence[str]) -> list[str]:
        return [SENTENCES.get(t, t) for t in texts]


@pytest.mark.parametrize("theme", ["mkdocs", "material"])
def test_a_chinese_word_inside_a_sentence_is_found_with_the_sites_own_separator(
    browser: object, theme: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(batch, "load_translator", lambda *a, **k: SentenceTranslator())
    (tmp_path / "model").mkdir()
    plugin = {"backend": "onnx", "model": "model"}
    config = write_site(tmp_path, theme=theme, plugin=plugin, extra_config={
        "site_url": None,
        "plugins": [{"search": {"separator": MATERIAL_DOCS_SEPARATOR}}, {"zh-translate": plugin}],
    })
    build_in_process(config)
    server, url = _serve(tmp_path / "site")
    try:
        browser.get(url + "zh/")
        # 目录 ("directory") stands only in the install page, inside 一个缓存目录。
        _search(browser, theme, "目录", "zh/guide/install/")
    finally:
        server.shutdown()


def test_switch_language_then_find_a_page_by_a_chinese_word(browser: object, served: tuple[str, str]) -> None:
    theme, url = served
    driver = browser
    driver.get(url + "zh/guide/usage/")
    assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang").startswith("zh")
    assert "用法" in driver.find_element(By.TAG_NAME, "h1").text

    def switch_to(lang: str) -> None:
        """Click the theme's language switcher (Material's selector, or our navbar link)."""
        selector = f'a.md-select__link[hreflang="{lang}"]' if theme == "material" else "a.zh-translate-switch"
        driver.execute_script("arguments[0].click()", driver.find_element(By.CSS_SELECTOR, selector))

    # switch to English: the same page, in English; and back
    switch_to("en")
    _wait(driver, lambda d: d.current_url == url + "guide/usage/")
    assert driver.find_element(By.TAG_NAME, "h1").text.strip().startswith("Usage")
    switch_to("zh")
    _wait(driver, lambda d: d.current_url == url + "zh/guide/usage/")

    # search the Chinese site for two words that only the install page contains, and not next
    # to each other: the query must be cut into words like the index was
    query = "要求软件包"
    if theme == "material":
        driver.execute_script("document.querySelector('label[for=__search]').click()")
        box = _wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "input.md-search__input"))
        box.send_keys(query)
        selector = "a.md-search-result__link"
    else:
        driver.execute_script("document.querySelector('[data-bs-target=\"#mkdocs_search_modal\"]').click()")
        box = _wait(driver, lambda d: d.find_element(By.ID, "mkdocs-search-query"))
        _wait(driver, lambda d: box.is_displayed())
        box.send_keys(query)
        selector = "#mkdocs-search-results a"
    # The theme re-renders its result list as the query is typed and indexed, so an element
    # found a moment ago may be gone: read the links and click in one script, in one frame.
    read_links = "return Array.from(document.querySelectorAll(arguments[0])).map(a => a.href)"
    hrefs: list[str] = []

    # The mkdocs theme listens for keys only once its search worker has loaded the index: keys
    # typed before that (a busy machine) are never searched, so an empty list asks again.
    ask_again = "arguments[0].dispatchEvent(new KeyboardEvent('keyup', {bubbles: true}))"

    def install_page_listed(d: object) -> bool:
        hrefs[:] = d.execute_script(read_links, selector)
        if not hrefs and theme != "material":
            d.execute_script(ask_again, box)
        return any("zh/guide/install/" in h for h in hrefs)

    try:
        _wait(driver, install_page_listed)
    except Exception:  # the timeout says nothing; the links found do
        pytest.fail(f"the install page was not among the Chinese search results: {hrefs}")
    driver.execute_script(
        "const a = Array.from(document.querySelectorAll(arguments[0]))"
        ".find(a => a.href.includes('zh/guide/install/')); a.click()",
        selector,
    )
    _wait(driver, lambda d: "/zh/guide/install/" in d.current_url)
    _wait(driver, lambda d: "安装" in d.find_element(By.TAG_NAME, "h1").text)


def test_the_taiwan_variant_in_a_browser(browser: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``variants: [zh-Hans, zh-TW]``: Material's zh-TW interface, its switcher listing every
    language, and its search finding a Traditional word (converted with OpenCC's s2twp)."""
    pytest.importorskip("opencc", reason="the `hant` extra (OpenCC) is not installed")
    from tests.plugin.test_plugin_variants import _site

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
