"""Material's version selector (mike) on the Chinese pages.

A mike deployment is laid out by hand here as mike lays it out: each version's built site in
``/<version>/`` and one ``versions.json`` at the root. The Chinese pages live one level deeper
(``/<version>/zh/``), where Material's own selector looks for ``/<version>/versions.json`` and
finds nothing. The browser test serves such a deployment on 127.0.0.1 and drives headless
Chromium (``make browser`` installs it); set ``ZH_TRANSLATE_SCREENSHOTS`` to a directory to keep
a screenshot of the selector on a Chinese page.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from mkdocs_zh_translate.pipeline.translator import PSEUDO_OPEN
from tests.plugin_sites import PAGES, Html, build_in_process, write_site

VERSIONS = [
    {"version": "2.0", "title": "2.0", "aliases": ["latest"]},
    {"version": "1.0", "title": "1.0 <b>old</b>", "aliases": []},
]


def _config_json(page: Path) -> dict[str, Any]:
    found = re.search(r'<script id="__config" type="application/json">(.*?)</script>', page.read_text("utf-8"), re.S)
    assert found is not None
    value: dict[str, Any] = json.loads(found.group(1))
    return value


def _deploy(root: Path) -> Path:
    """Two versions built and laid out as mike deploys them; returns the deployment root."""
    deploy = root / "deploy"
    only = {"1.0": "guide/old.md", "2.0": "guide/new.md"}
    for version, extra_page in only.items():
        src = root / f"src-{version}"
        pages = {**PAGES, extra_page: f"# Only in {version}\n\nThis page is only in version {version}.\n"}
        config = write_site(
            src,
            theme="material",
            pages=pages,
            extra_config={"site_url": "https://example.com/", "extra": {"version": {"provider": "mike", "default": "latest"}}},
        )
        build_in_process(config)
        shutil.copytree(src / "site", deploy / version)
    (deploy / "versions.json").write_text(json.dumps(VERSIONS), encoding="utf-8")
    return deploy


@pytest.fixture(scope="module")
def deployment(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _deploy(tmp_path_factory.mktemp("mike"))


def test_chinese_pages_get_a_selector_that_reads_the_deployments_versions_json(deployment: Path) -> None:
    en, zh = deployment / "1.0/guide/usage/index.html", deployment / "1.0/zh/guide/usage/index.html"
    # the English page keeps Material's own selector, untouched
    assert _config_json(en)["version"] == {"provider": "mike", "default": "latest"}
    # the Chinese page: Material's (which would ask /1.0/versions.json) off, ours on
    assert _config_json(zh)["version"] is None
    source = zh.read_text("utf-8")
    assert source.count('new URL("versions.json", deployRoot)') == 1
    assert '"prefix": "zh"' in source
    assert Html(zh).lang.startswith("zh")
    assert "1.0 <b>old</b>" not in source  # version titles come at run time, as text


# -- in a browser ---------------------------------------------------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
needs_browser = pytest.mark.skipif(
    not (CHROMIUM and CHROMEDRIVER),
    reason="Debian's chromium and chromium-driver are not installed (`make browser`)",
)


@pytest.fixture(scope="module")
def served(deployment: Path) -> Iterator[str]:
    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(deployment)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,800"):
        options.add_argument(arg)
    browser = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    browser.set_page_load_timeout(60)
    try:
        yield browser
    finally:
        browser.quit()


def _wait(driver: Any, condition: Any, timeout: float = 20) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout).until(condition)


def _pick(driver: Any, title: str) -> None:
    """Click the selector's entry for a version (by its title), as a reader would."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    ActionChains(driver).move_to_element(driver.find_element(By.CSS_SELECTOR, ".md-version")).perform()
    links = driver.find_elements(By.CSS_SELECTOR, ".md-version__link")
    link = next(a for a in links if a.text.strip().startswith(title))
    _wait(driver, lambda d: link.is_displayed())
    link.click()


@needs_browser
def test_switching_version_on_a_chinese_page_lands_on_the_chinese_page(driver: Any, served: str, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    driver.get(served + "1.0/zh/guide/usage/")
    current = _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".md-version__current"))[0]
    assert current.text.strip() == "1.0 <b>old</b>"  # the active version, its title as text
    hrefs = [a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, ".md-version__link")]
    assert hrefs == [served + "2.0/zh/", served + "1.0/zh/"]
    # the outdated-version banner Material shows for a version that is not the default
    assert driver.execute_script("return document.querySelector('[data-md-component=outdated]').hidden") is False
    from selenium.webdriver.common.action_chains import ActionChains

    shots = Path(os.environ.get("ZH_TRANSLATE_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    assert driver.save_screenshot(str(shots / "mike-selector-on-a-zh-page.png"))
    ActionChains(driver).move_to_element(driver.find_element(By.CSS_SELECTOR, ".md-version")).perform()
    _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".md-version__link")[0].is_displayed())
    assert driver.save_screenshot(str(shots / "mike-selector-on-a-zh-page-open.png"))

    # 1.0 -> 2.0 on a page both versions have: the same Chinese page in 2.0
    _pick(driver, "2.0")
    _wait(driver, lambda d: d.current_url == served + "2.0/zh/guide/usage/")
    assert PSEUDO_OPEN in driver.find_element(By.TAG_NAME, "h1").text
    _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".md-version__current"))
    assert driver.find_element(By.CSS_SELECTOR, ".md-version__current").text.strip() == "2.0"
    assert driver.execute_script("return document.querySelector('[data-md-component=outdated]').hidden") is True

    # a page 1.0 does not have: that version's Chinese home
    driver.get(served + "2.0/zh/guide/new/")
    _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".md-version__current"))
    _pick(driver, "1.0")
    _wait(driver, lambda d: d.current_url == served + "1.0/zh/")
    assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang").startswith("zh")

    # the English pages keep Material's own selector, which still works
    driver.get(served + "1.0/guide/usage/")
    _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".md-version__current"))
    _pick(driver, "2.0")
    _wait(driver, lambda d: d.current_url == served + "2.0/guide/usage/")
