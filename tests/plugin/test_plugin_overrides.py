"""Per-language settings (``overrides:``), the translated copyright, and their validation."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.plugin_sites import Html, build_in_process, run_mkdocs, write_site

PAGES = {"index.md": "# Welcome\n\nHello there.\n"}


def test_overrides_win_over_the_machine_and_theme_extra_merge(tmp_path: Path) -> None:
    config = write_site(
        tmp_path,
        theme="material",
        pages=PAGES,
        plugin={
            "backend": "pseudo",
            "overrides": {
                "site_name": "演示文档",
                "theme": {"font": {"text": "Noto Sans SC"}},
                "extra": {"generator": False},
            },
        },
        extra_config={"copyright": "Copyright 2026 The Authors"},
    )
    build_in_process(config)
    zh = Html(tmp_path / "site/zh/index.html")
    en = Html(tmp_path / "site/index.html")
    assert "<title>演示文档</title>" in zh.source and "「Demo Docs」" not in zh.source
    assert "「Copyright 2026 The Authors」" in zh.text and "「" not in en.text
    assert "Noto+Sans+SC" in zh.source and "Noto+Sans+SC" not in en.source
    assert "Made with" in en.source and "Made with" not in zh.source  # extra.generator: false


def test_markup_in_copyright_is_kept_and_its_text_translated(tmp_path: Path) -> None:
    config = write_site(
        tmp_path,
        theme="material",
        pages=PAGES,
        extra_config={"copyright": 'Copyright &copy; 2026 <a href="https://example.com">Us</a>'},
    )
    build_in_process(config)
    zh = Html(tmp_path / "site/zh/index.html")
    assert '「Copyright © 2026」 <a href="https://example.com">Us</a>' in zh.source  # text only (test_plugin_chrome.py)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"site_nam": "x"}, "'site_nam': not a per-language setting; use one of copyright, extra"),
        ({"theme": "material"}, "Sub-option 'theme': Expected type"),
    ],
)
def test_bad_overrides_are_config_errors(tmp_path: Path, overrides: dict[str, object], message: str) -> None:
    write_site(tmp_path, pages=PAGES, plugin={"backend": "pseudo", "overrides": overrides})
    done = run_mkdocs(tmp_path)
    assert done.returncode != 0 and message in done.stderr and "Traceback" not in done.stderr


def test_a_users_extra_alternate_is_kept(tmp_path: Path) -> None:
    own = [
        {"name": "English (US)", "link": "/", "lang": "en"},
        {"name": "Deutsch", "link": "https://de.example.com/", "lang": "de"},
    ]
    config = write_site(tmp_path, theme="material", pages=PAGES, extra_config={"extra": {"alternate": own}})
    build_in_process(config)
    for page in (tmp_path / "site/index.html", tmp_path / "site/zh/index.html"):
        links = {a["hreflang"]: a["href"] for a in Html(page).find("a") if "hreflang" in a}
        assert set(links) == {"en", "zh", "de"} and links["de"] == "https://de.example.com/"
        assert "English (US)" in Html(page).text
