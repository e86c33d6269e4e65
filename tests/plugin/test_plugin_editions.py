"""A team's own Chinese edition (a second MkDocs project published at ``/zh/``, linked with
Material's ``extra.alternate``) is never overwritten by the machine site without a word: the
build stops with one line that names the two ways out, and with the machine site moved
elsewhere both editions are offered in the language selector."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mkdocs_zh_translate.plugin.editions import MACHINE_LABEL, is_chinese
from tests.plugin_sites import PAGES, Html, run_mkdocs, write_site


def _alternates(zh_link: str, lang: str = "zh") -> dict[str, Any]:
    return {
        "alternate": [
            {"name": "English", "link": "/", "lang": "en"},
            {"name": "简体中文", "link": zh_link, "lang": lang},
        ]
    }


@pytest.mark.parametrize(
    ("site_url", "link", "lang"),
    [
        (None, "/zh/", "zh"),
        (None, "zh/", "zh-CN"),
        (None, "./zh/index.html", "zh_Hans"),
        ("https://example.com/docs/", "/docs/zh/", "zh"),
        ("https://example.com/docs/", "https://Example.com/docs/zh", "zh"),
        ("https://example.com/docs/", "zh/", "zh"),
    ],
)
def test_a_human_edition_where_the_machine_site_goes_stops_the_build(
    tmp_path: Path, site_url: str | None, link: str, lang: str
) -> None:
    write_site(
        tmp_path, theme="material", pages=PAGES, extra_config={"site_url": site_url, "extra": _alternates(link, lang)}
    )
    proc = run_mkdocs(tmp_path)
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    lines = [line for line in proc.stderr.splitlines() if "extra.alternate" in line]
    assert len(lines) == 1, proc.stderr
    line = lines[0]
    # names what it found and both ways out
    assert repr(link) in line and "'简体中文'" in line
    assert "option 'language'" in line and "page.zh.md" in line
    assert not (tmp_path / "site" / "zh").exists()


@pytest.mark.parametrize(
    ("site_url", "link"),
    [
        ("https://example.com/docs/", "/zh/"),  # the host's /zh/, not the site's /docs/zh/
        ("https://example.com/docs/", "https://zh.example.com/"),
        (None, "/zh-hans/"),
    ],
)
def test_a_human_edition_elsewhere_is_kept_beside_the_machine_site(tmp_path: Path, site_url: str | None, link: str) -> None:
    write_site(
        tmp_path, theme="material", pages=PAGES, extra_config={"site_url": site_url, "extra": _alternates(link)}
    )
    proc = run_mkdocs(tmp_path)
    assert proc.returncode == 0, proc.stderr
    for page, machine in (
        (tmp_path / "site/guide/usage/index.html", "../../zh/guide/usage/"),
        (tmp_path / "site/zh/guide/usage/index.html", "./"),
    ):
        doc = Html(page)
        links = [(a["href"], a["hreflang"]) for a in doc.find("a") if a.get("hreflang", "").startswith("zh")]
        assert links == [(machine, "zh"), (link, "zh")], page
        assert MACHINE_LABEL in doc.text and "简体中文" in doc.text


def test_the_machine_site_moved_away_with_option_language(tmp_path: Path) -> None:
    write_site(
        tmp_path,
        theme="material",
        pages=PAGES,
        plugin={"backend": "pseudo", "language": "zh-mt"},
        extra_config={"site_url": None, "extra": _alternates("/zh/")},
    )
    proc = run_mkdocs(tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "site/zh-mt/index.html").is_file() and not (tmp_path / "site/zh").exists()
    links = [(a["href"], a.get("hreflang")) for a in Html(tmp_path / "site/index.html").find("a") if "hreflang" in a]
    assert ("zh-mt/", "zh") in links and ("/zh/", "zh") in links


def test_chinese_language_codes() -> None:
    assert all(is_chinese(code) for code in ("zh", "zh-CN", "zh_Hant", "ZH-tw", " zh "))
    assert not any(is_chinese(code) for code in ("en", "zu", "zha", None, 3, ""))
