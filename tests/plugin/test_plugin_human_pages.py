"""A site that already ships human Chinese pages (``page.zh.md`` beside ``page.md``, as the
i18n plugins name them) and uses only zh-translate: the human page is the Chinese page (no
machine translation, no banner), it is not an English page of its own, and only the pages
without one are machine-translated."""

from __future__ import annotations

from pathlib import Path

import pytest

from mkdocs_zh_translate.pipeline.translator import PSEUDO_OPEN
from tests.plugin_sites import PAGES, Html, check_twin, page_pairs, run_mkdocs, write_site

HUMAN = "---\ntitle: 人工安装指南\n---\n# 安装\n\n用 pip 安装软件包。回到[首页](../index.md)。\n\n## Requirements { #requirements }\n\n人工翻译的要求。\n"
ONLY_ZH = "# 只有中文\n\n这一页只有中文版。\n"


@pytest.mark.parametrize("theme", ["mkdocs", "material"])
def test_human_zh_pages_win_and_are_not_english_pages(tmp_path: Path, theme: str) -> None:
    pages = {**PAGES, "guide/install.zh.md": HUMAN, "notes.zh.md": ONLY_ZH}
    write_site(tmp_path, theme=theme, pages=pages)
    proc = run_mkdocs(tmp_path, "--strict")
    assert proc.returncode == 0, proc.stderr
    site = tmp_path / "site"
    # not English pages of their own
    assert not list(site.glob("guide/install.zh*")) and not (site / "notes.zh").exists()
    assert not (site / "notes").exists()
    assert not (site / "zh" / "guide" / "install.zh").exists()
    # the human page is the zh page: its own words and title, no pseudo translation, no banner
    human = Html(site / "zh" / "guide" / "install" / "index.html")
    assert "用 pip 安装软件包。" in human.text
    assert "人工安装指南" in human.source.split("</title>")[0]
    assert f"{PSEUDO_OPEN}用" not in human.text and f"{PSEUDO_OPEN}人工" not in human.source
    assert "zh-translate-banner" not in human.source
    assert "Install the package with pip" not in human.text
    # the other pages are machine-translated, with the banner
    usage = Html(site / "zh" / "guide" / "usage" / "index.html")
    assert PSEUDO_OPEN in usage.text and "zh-translate-banner" in usage.source
    # a Chinese-only page is in the Chinese site only
    assert "这一页只有中文版。" in Html(site / "zh" / "notes" / "index.html").text
    # switchers still pair the English page with its (human) Chinese twin
    problems = [
        p
        for en, zh in page_pairs(site)
        for p in check_twin(en, zh, site, "https://example.com/docs/")
        if "switcher" in p or "no link" in p or "missing" in p
    ]
    assert problems == []
