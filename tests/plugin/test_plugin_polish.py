"""Polish of the Chinese build: BCP 47 ``lang``, ``-t`` passed on, warnings that say they come
from the Chinese build (also under ``--strict``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.plugin_sites import Html, run_mkdocs, write_site

BCP47 = re.compile(r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$")


@pytest.mark.parametrize("theme", ["mkdocs", "readthedocs"])
def test_zh_pages_carry_a_bcp47_lang_on_builtin_themes(tmp_path: Path, theme: str) -> None:
    write_site(tmp_path, theme=theme)
    done = run_mkdocs(tmp_path)
    assert done.returncode == 0, done.stderr
    pages = sorted((tmp_path / "site/zh").rglob("*.html"))
    assert pages
    for page in pages:
        lang = Html(page).lang
        assert lang.startswith("zh") and BCP47.match(lang), (page, lang)


def test_the_theme_flag_reaches_the_chinese_build(tmp_path: Path) -> None:
    write_site(tmp_path, theme="mkdocs")
    done = run_mkdocs(tmp_path, "-t", "readthedocs")
    assert done.returncode == 0, done.stderr
    for site in (tmp_path / "site", tmp_path / "site/zh"):
        assert "wy-nav-side" in Html(site / "index.html").source, site


def test_chinese_build_warnings_say_so_and_strict_names_it(tmp_path: Path) -> None:
    pages = {"index.md": "# Home\n\nSee [the missing page](missing.md).\n"}
    write_site(tmp_path, pages=pages)
    done = run_mkdocs(tmp_path)
    assert done.returncode == 0, done.stderr
    warnings = [line for line in done.stderr.splitlines() if "missing.md" in line]
    assert len(warnings) == 2, done.stderr  # once per build
    assert not warnings[0].count("[zh build]") and "[zh build]" in warnings[1]


def test_a_strict_abort_caused_by_the_english_pages_is_not_blamed_on_the_chinese_build(tmp_path: Path) -> None:
    pages = {"index.md": "# Home\n\nSee [the missing page](missing.md).\n"}
    write_site(tmp_path, pages=pages)
    strict = run_mkdocs(tmp_path, "--strict")
    out = strict.stdout + strict.stderr
    assert strict.returncode != 0
    assert "Aborted with 1 warnings in strict mode" in out and "[zh build] Aborted" not in out, out
    assert "Chinese site not built: the English build has 1 warning(s)" in out
    assert not (tmp_path / "site/zh/index.html").exists()


def test_a_strict_abort_caused_by_the_chinese_pages_says_so(tmp_path: Path) -> None:
    # a hand-translated page.zh.md is built by the Chinese site only: its broken link is the zh build's own
    pages = {"index.md": "# Home\n\nHello.\n", "index.zh.md": "# 首页\n\n见[缺失的页面](missing.md)。\n"}
    write_site(tmp_path, pages=pages)
    strict = run_mkdocs(tmp_path, "--strict")
    out = strict.stdout + strict.stderr
    assert strict.returncode != 0
    assert "[zh build] Aborted with 1 warnings in strict mode" in out, out


@pytest.mark.parametrize("theme", ["mkdocs", "material"])
def test_the_chinese_404_page_links_into_the_chinese_site(tmp_path: Path, theme: str) -> None:
    write_site(tmp_path, theme=theme, extra_config={"site_url": None})
    done = run_mkdocs(tmp_path)
    assert done.returncode == 0, done.stderr
    page = Html(tmp_path / "site/zh/404.html")
    local = [h for h in page.content_links() if h.startswith("/") and not h.startswith("//")]
    assert any(h.startswith("/zh/guide/") for h in local), local
    assert not any(h.startswith("/guide/") for h in local), local
    if theme == "material":  # the language switcher still offers the English site
        assert page.find("a", hreflang="en")[0]["href"] == "/"
        assert page.find("a", hreflang="zh")[0]["href"] == "/zh/"
    english = Html(tmp_path / "site/404.html")
    assert any(h.startswith("/guide/") for h in english.content_links())


@pytest.mark.parametrize("theme", ["mkdocs", "material"])
def test_the_banner_is_shown_but_not_indexed_for_search(tmp_path: Path, theme: str) -> None:
    write_site(tmp_path, theme=theme)
    done = run_mkdocs(tmp_path)
    assert done.returncode == 0, done.stderr
    assert "机器翻译" in Html(tmp_path / "site/zh/guide/install/index.html").text
    docs = json.loads((tmp_path / "site/zh/search/search_index.json").read_text(encoding="utf-8"))["docs"]
    index = " ".join(f"{d.get('title', '')} {d.get('text', '')}" for d in docs)
    assert "Install" in index and "「" in index  # the pages are indexed ...
    assert "机器" not in index and "审校" not in index  # ... without the banner


def test_the_implicit_home_title_is_chinese(tmp_path: Path) -> None:
    pages = {"index.md": "Welcome without a heading.\n", "other.md": "# Other\n\nText.\n"}
    write_site(tmp_path, theme="mkdocs", pages=pages)
    done = run_mkdocs(tmp_path)
    assert done.returncode == 0, done.stderr
    assert "<title>Demo Docs</title>" in Html(tmp_path / "site/index.html").source
    other = Html(tmp_path / "site/zh/other/index.html")
    assert "首页" in other.text and ">Home<" not in other.source
    assert ">Home<" in Html(tmp_path / "site/other/index.html").source
