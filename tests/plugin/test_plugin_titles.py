"""Titles MkDocs makes from a file name (no nav title, no front-matter title, the page does not
open with an H1) are translated like nav titles: in ``<title>``, the sidebar, the prev/next
links and the H1 Material writes for a page without one. Front matter that is YAML only after a
macro ran gives the page its title in both languages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mkdocs_zh_translate.pipeline.translator import PSEUDO_CLOSE, PSEUDO_OPEN
from tests.plugin_sites import Html, run_mkdocs, write_site

PAGES = {
    "index.md": "Welcome to the site, no heading here.\n",
    "guide/index.md": "Some words before the heading.\n\n# Guide heading\n\nMore words.\n",
    "guide/getting-started.md": "## Step one\n\nDo the first step.\n",
    "guide/usage.md": "# Usage\n\nRun it.\n",
}
NAV = ["index.md", {"Guide": ["guide/index.md", "guide/getting-started.md", "guide/usage.md"]}]


def _pseudo(text: str) -> str:
    return f"{PSEUDO_OPEN}{text}{PSEUDO_CLOSE}"


def _title(page: Html) -> str:
    found = re.search(r"<title>(.*?)</title>", page.source, flags=re.S)
    assert found is not None
    return found.group(1).strip()


@pytest.mark.parametrize("theme", ["mkdocs", "material"])
def test_titles_made_from_file_names_are_translated(tmp_path: Path, theme: str) -> None:
    write_site(
        tmp_path,
        theme=theme,
        pages=PAGES,
        plugin={"backend": "pseudo", "banner": False},
        extra_config={"nav": NAV},
    )
    proc = run_mkdocs(tmp_path, "--strict")
    assert proc.returncode == 0, proc.stderr
    site = tmp_path / "site"
    en_start = Html(site / "guide/getting-started/index.html")
    assert _title(en_start).startswith("Getting started - ")  # the English title MkDocs made
    start = Html(site / "zh/guide/getting-started/index.html")
    guide = Html(site / "zh/guide/index.html")
    assert _title(start).startswith(_pseudo("Getting started") + " - ")
    assert _title(guide).startswith(_pseudo("Index") + " - ")
    # the sidebar and the prev/next links of the neighbours use the translated titles
    usage = Html(site / "zh/guide/usage/index.html")
    for page in (guide, usage, start):
        assert re.search(r">\s*Getting started\s*<", page.source) is None
    assert _pseudo("Getting started") in usage.source and _pseudo("Index") in start.source
    if theme == "material":  # Material's own H1 for a page without one
        assert [h.strip() for h in re.findall(r"<h1[^>]*>([^<]*)", start.source)] == [_pseudo("Getting started")]
    # the homepage's "Home", also without a banner
    assert re.search(r">\s*首页\s*<", usage.source) and not re.search(r">\s*Home\s*<", usage.source)


MACRO_FRONT_MATTER = "---\ntitle: Release notes\nupdated: {value}\n---\n\nThe notes of this release.\n\n## Fixed\n\nA bug.\n"


@pytest.mark.parametrize("value", ["{{ 2000 + 26 }}", "{% if true %}2026{% endif %}"])  # no YAML before macros
def test_front_matter_valid_only_after_macros_gives_the_title(tmp_path: Path, value: str) -> None:
    write_site(
        tmp_path,
        theme="material",
        pages={"index.md": "# Home page\n\nHello.\n", "notes.md": MACRO_FRONT_MATTER.replace("{value}", value)},
        extra_config={"plugins": ["search", "macros", {"zh-translate": {"backend": "pseudo"}}]},
    )
    proc = run_mkdocs(tmp_path, "--strict")
    assert proc.returncode == 0, proc.stderr
    en, zh = Html(tmp_path / "site/notes/index.html"), Html(tmp_path / "site/zh/notes/index.html")
    assert _title(en).startswith("Release notes - ")
    assert _title(zh).startswith(_pseudo("Release notes") + " - ")
    # the block is front matter, not a rule and a heading, in both languages
    for page in (en, zh):
        assert page.find("hr") == [] and "updated" not in page.text
        assert [h.get("id") for h in page.find("h2")] == ["fixed"]


def test_made_up_titles_are_reviewed_in_site_po(tmp_path: Path) -> None:
    import polib

    from mkdocs_zh_translate.cli.app import main as cli_main

    config = write_site(tmp_path, pages=PAGES, plugin={"backend": "pseudo"}, extra_config={"nav": NAV})
    assert cli_main(["review", "sync", "-f", str(config)]) == 0
    site_po = tmp_path / "translations" / "zh" / "site.po"
    po = polib.pofile(str(site_po))
    entries = [e for e in po if e.msgid == "Getting started" and not e.obsolete]
    assert len(entries) == 1, [e.msgid for e in po]
    entries[0].msgstr, entries[0].flags = "入门", []
    po.save(str(site_po))
    proc = run_mkdocs(tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert _title(Html(tmp_path / "site/zh/guide/getting-started/index.html")).startswith("入门 - ")
