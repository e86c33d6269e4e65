"""``review serve`` driven in a real browser (Debian's headless Chromium through selenium).

The site is built by the real plugin and theme (Material) in review mode; the translator is a
tiny word list that reports a confidence per sentence, so the panel and the queue have real
Chinese, real scores and real translation-memory and glossary hits to show. Every server the
tests start listens on 127.0.0.1 and is stopped by the fixture.

Set ``ZH_REVIEW_SHOTS=DIR`` to keep screenshots of the page, the panel and the queue in DIR.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import shutil
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polib
import pytest

from mkdocs_zh_translate.cli.app import main as cli_main
from mkdocs_zh_translate.pipeline import lazy as batch
from mkdocs_zh_translate.scored import ScoredText
from tests.plugin.test_plugin_browser import By, _wait, chromium_driver  # skips where no browser is installed
from tests.plugin_sites import build_in_process, write_site

Keys = pytest.importorskip("selenium.webdriver.common.keys").Keys

WORDS = {
    "guide": "指南",
    "first": "第一",
    "paragraph": "段落",
    "cache": "缓存",
    "home": "首页",
    "install": "安装",
    "page": "页面",
    "read": "阅读",
    "welcome": "欢迎",
}
PAGES = {
    "index.md": "# Home\n\nWelcome to the home page.\n\nFirst paragraph of the guides.\n",
    "guide.md": (
        "# Guide\n\nFirst paragraph of the guide.\n\n"
        "Read the [install page](index.md) before you clear the cache.\n\n"
        "A very long and complicated sentence that the model was not sure about at all.\n"
    ),
}
NAV = [{"Home": "index.md"}, {"Guide": "guide.md"}]
FIRST = "First paragraph of the guide."
LINKED = "Read the [install page](index.md) before you clear the cache."
SHOTS = os.environ.get("ZH_REVIEW_SHOTS")


class WordTranslator:
    """English words it knows become Chinese; the score falls with the sentence's length, so
    the queue has a least-confident sentence."""

    fingerprint = "review-serve-words"

    def translate(self, texts: Sequence[str]) -> list[str]:
        pattern = re.compile(r"\b(" + "|".join(WORDS) + r")\b", re.IGNORECASE)
        return [
            ScoredText(pattern.sub(lambda m: WORDS[m.group(1).lower()], t), -0.02 * len(t.split()))
            for t in texts
        ]


@dataclass
class Served:
    url: str
    token: str
    config: Path
    review_dir: Path
    site: object


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    from mkdocs_zh_translate.plugin.reviewsite import open_review_site
    from mkdocs_zh_translate.review.server import ReviewServer

    root = tmp_path_factory.mktemp("serve")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(batch, "load_translator", lambda *a, **k: WordTranslator())
        mp.chdir(root)
        (root / "model").mkdir()
        config = write_site(
            root, theme="material", pages=PAGES, plugin={"backend": "onnx", "model": "model"},
            extra_config={"nav": NAV},
        )
        review_dir = root / "translations" / "zh"
        review_dir.mkdir(parents=True)
        (review_dir / "glossary.yml").write_text("terms:\n  cache: 缓存\n", encoding="utf-8")
        build_in_process(config)
        assert cli_main(["review", "sync", "-f", str(config)]) == 0
        home = polib.pofile(str(review_dir / "index.md.po"))
        reviewed = home.find("First paragraph of the guides.")
        reviewed.msgstr, reviewed.flags = "指南的第一个段落。", []
        home.save()
        server = ReviewServer(0)
        site = open_review_site(config, server.url)
        server.backend = site
        server.start()
        try:
            yield Served(server.url, server.token, config, review_dir, site)
        finally:
            server.stop()
            site.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    driver: Any = chromium_driver("--window-size=1400,900")  # room for the page and the panel
    try:
        yield driver
    finally:
        driver.quit()


def _panel_text(driver: object, name: str) -> str:
    return str(driver.execute_script(f"return document.querySelector('#zh-review-panel .{name}').textContent"))


def _pick(driver: object, english: str) -> None:
    """Click the segment whose panel shows ``english`` (trying each segment of the page)."""
    for node in driver.find_elements(By.CSS_SELECTOR, "article [data-zh-seg]"):
        driver.execute_script("arguments[0].click()", node)
        try:
            _wait(driver, lambda d: _panel_text(d, "zh-english") == english, timeout=3)
            return
        except Exception:
            continue
    raise AssertionError(f"no segment of the page shows {english!r} in the panel")


def _shot(driver: object, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(Path(SHOTS) / name))


def _save(driver: object, text: str) -> None:
    box = driver.find_element(By.CSS_SELECTOR, "#zh-review-panel textarea")
    box.clear()
    box.send_keys(text)
    box.send_keys(Keys.CONTROL, Keys.ENTER)


def test_pick_a_segment_and_see_its_source_machine_text_suggestion_and_terms(served: Served, browser: object) -> None:
    browser.get(served.url + "zh/guide/")
    _wait(browser, lambda d: d.find_elements(By.ID, "zh-review-panel"))
    _shot(browser, "page.png")
    _pick(browser, FIRST)
    assert _panel_text(browser, "zh-machine") == "第一 段落 of the 指南."
    assert _panel_text(browser, "zh-state") == "machine"
    assert "confidence -0.1" in _panel_text(browser, "zh-confidence")
    assert "指南的第一个段落。" in _panel_text(browser, "zh-suggestions")  # the reviewed near-twin on the home page
    _shot(browser, "panel.png")
    _pick(browser, LINKED)
    assert _panel_text(browser, "zh-glossary") == "cache → 缓存"


def test_an_edit_saved_rerenders_the_page_and_changes_that_one_entry(served: Served, browser: object) -> None:
    po_file = served.review_dir / "guide.md.po"
    before = po_file.read_text(encoding="utf-8")
    browser.get(served.url + "zh/guide/")
    _wait(browser, lambda d: d.find_elements(By.ID, "zh-review-panel"))
    _pick(browser, FIRST)
    _save(browser, "这是指南的第一段。")
    _wait(browser, lambda d: "Saved" in _panel_text(d, "zh-message"))
    shown = browser.execute_script("return window.zhReviewRerender")
    print(f"save -> re-rendered page shown: {shown} ms")
    assert "这是指南的第一段。" in browser.find_element(By.CSS_SELECTOR, "article").text
    assert _panel_text(browser, "zh-reviewed") == "这是指南的第一段。"
    assert _panel_text(browser, "zh-state") == "reviewed"
    after = po_file.read_text(encoding="utf-8")
    changed = [
        line for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0)
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]
    assert changed == [
        "-#, fuzzy",
        '-msgstr "第一 段落 of the 指南."',
        '+msgstr "这是指南的第一段。"',
    ]
    msgfmt = shutil.which("msgfmt")
    if msgfmt:
        result = subprocess.run([msgfmt, "-c", "-o", os.devnull, str(po_file)], capture_output=True, text=True)
        assert result.returncode == 0, result.stderr


def test_an_edit_that_changes_markup_is_refused_in_place(served: Served, browser: object) -> None:
    po_file = served.review_dir / "guide.md.po"
    before = po_file.read_bytes()
    browser.get(served.url + "zh/guide/")
    _wait(browser, lambda d: d.find_elements(By.ID, "zh-review-panel"))
    _pick(browser, LINKED)
    _save(browser, "清除缓存之前请先阅读安装页面。")  # the link is gone
    _wait(browser, lambda d: "refused" in _panel_text(d, "zh-message"))
    assert "lost the link" in _panel_text(browser, "zh-message")
    _shot(browser, "refused.png")
    assert po_file.read_bytes() == before


def test_keyboard_next_previous_and_accept(served: Served, browser: object) -> None:
    browser.get(served.url + "zh/")
    _wait(browser, lambda d: d.find_elements(By.ID, "zh-review-panel"))
    _pick(browser, "Welcome to the home page.")
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys("j")
    _wait(browser, lambda d: _panel_text(d, "zh-english") == "First paragraph of the guides.")
    body.send_keys("k")
    _wait(browser, lambda d: _panel_text(d, "zh-english") == "Welcome to the home page.")
    browser.find_element(By.TAG_NAME, "body").send_keys("a")
    _wait(browser, lambda d: "Saved" in _panel_text(d, "zh-message"))
    entry = polib.pofile(str(served.review_dir / "index.md.po")).find("Welcome to the home page.")
    assert entry.msgstr == "欢迎 to the 首页 页面." and "fuzzy" not in entry.flags


def test_the_queue_lists_the_least_confident_first_and_opens_the_segment(served: Served, browser: object) -> None:
    browser.get(served.url + "_review/queue")
    rows = _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "tbody tr"))
    first = rows[0].find_elements(By.TAG_NAME, "td")
    assert first[4].text == "A very long and complicated sentence that the model was not sure about at all."
    confidences = [float(r.find_elements(By.TAG_NAME, "td")[2].text) for r in rows]
    assert confidences == sorted(confidences)
    assert "这是指南的第一段。" not in browser.page_source  # reviewed: not in the queue
    _shot(browser, "queue.png")
    rows[0].find_element(By.TAG_NAME, "a").click()
    _wait(browser, lambda d: _panel_text(d, "zh-english").startswith("A very long"))


def test_next_worst_goes_to_the_least_confident_segment_of_the_site(served: Served, browser: object) -> None:
    browser.get(served.url + "zh/")
    _wait(browser, lambda d: d.find_elements(By.ID, "zh-review-panel"))
    browser.find_element(By.TAG_NAME, "body").send_keys("w")
    _wait(browser, lambda d: "/zh/guide/#zh-seg=" in d.current_url)
    _wait(browser, lambda d: _panel_text(d, "zh-english").startswith("A very long"))


def test_a_po_file_holding_html_shows_it_as_text(served: Served, browser: object) -> None:
    path = served.review_dir / "index.md.po"
    po = polib.pofile(str(path))
    po.find("Home").msgstr = '<img src=x onerror="window.pwned = 1">首页'  # still fuzzy: the build ignores it
    po.save()
    browser.get(served.url + "zh/")
    _wait(browser, lambda d: d.find_elements(By.ID, "zh-review-panel"))
    _pick(browser, "Home")
    box = browser.find_element(By.CSS_SELECTOR, "#zh-review-panel textarea")
    assert box.get_attribute("value") == '<img src=x onerror="window.pwned = 1">首页'
    assert browser.execute_script("return window.pwned === undefined && !document.querySelector('#zh-review-panel img')")


def test_writes_without_the_token_or_from_another_origin_are_refused(served: Served, browser: object) -> None:
    po_file = served.review_dir / "guide.md.po"
    before = po_file.read_bytes()
    browser.get(served.url + "zh/guide/")
    _wait(browser, lambda d: d.find_elements(By.ID, "zh-review-panel"))
    status = browser.execute_async_script(
        "var done = arguments[0];"
        "fetch('/_review/api/save', {method: 'POST', headers: {'Content-Type': 'application/json'},"
        " body: JSON.stringify({page: 'guide.md', index: 1, text: 'x', version: null})})"
        ".then(function (r) { done(r.status); });"
    )
    assert status == 403
    body = json.dumps({"page": "guide.md", "index": 1, "text": "偷偷改的。", "version": None}).encode()
    for headers in (
        {"Content-Type": "application/json"},  # no token
        {"Content-Type": "application/json", "X-Review-Token": served.token, "Origin": "http://evil.example"},
        {"Content-Type": "text/plain", "X-Review-Token": served.token},  # a form's or a simple request's type
        {"Content-Type": "application/json", "X-Review-Token": served.token, "Host": "evil.example"},
    ):
        request = urllib.request.Request(served.url + "_review/api/save", data=body, headers=headers)
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code in (403, 415)
    assert po_file.read_bytes() == before


def test_save_to_rerender_time(served: Served) -> None:
    """The server's own measure of one save (write + rebuild of the page), printed."""
    site = served.site
    view = site.segment("guide.md", 0)  # type: ignore[attr-defined]
    started = time.perf_counter()
    result = site.save("guide.md", 0, "指南", view["version"])  # type: ignore[attr-defined]
    took = 1000 * (time.perf_counter() - started)
    print(f"save + rebuild of one page: {took:.0f} ms (rebuild {result['rebuild_ms']} ms)")
    assert result["written"] is True
    assert "指南" in (Path(site.site_dir) / "zh" / "guide" / "index.html").read_text(encoding="utf-8")  # type: ignore[attr-defined]
