"""The text a theme writes into its own 404 page is Chinese on the Chinese 404 page.

MkDocs' built-in themes translate theirs from their ``zh_CN`` catalog and Material's heading is
replaced; a third-party theme's ``404.html`` has its own English. Here such a theme is a small
installed distribution (a ``.dist-info`` with a ``mkdocs.themes`` entry point on PYTHONPATH).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mkdocs_zh_translate.pipeline.translator import PSEUDO_CLOSE, PSEUDO_OPEN
from tests.plugin_sites import Html, run_mkdocs, write_site

BASE = (
    '<!DOCTYPE html>\n<html lang="{{ config.theme.locale|default(\'en\') }}">\n<head><title>{{ config.site_name }}</title>'
    "<script>var note = 'Page not found';</script></head>\n"
    "<body>{% block content %}{{ page.content }}{% endblock %}</body>\n</html>\n"
)
NOT_FOUND = (
    '{% extends "base.html" %}\n{% block content %}\n<h1 title="Page not found">Page not found</h1>\n'
    "<p>Sorry, the page you were looking\n  for does not exist.</p>\n"
    "<p>{% trans %}Translated by the catalog{% endtrans %}</p>\n"
    '<a href="{{ nav.homepage.url|url }}">Back to the home page</a>\n{% endblock %}\n'
)


def _install_theme(root: Path) -> Path:
    """A theme distribution ``h7theme`` under ``root`` (put it on PYTHONPATH)."""
    package = root / "h7theme"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "mkdocs_theme.yml").write_text("static_templates:\n  - 404.html\n", encoding="utf-8")
    (package / "base.html").write_text(BASE, encoding="utf-8")
    (package / "main.html").write_text('{% extends "base.html" %}\n', encoding="utf-8")
    (package / "404.html").write_text(NOT_FOUND, encoding="utf-8")
    info = root / "h7theme-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: h7theme\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[mkdocs.themes]\nh7theme = h7theme\n", encoding="utf-8")
    return root


def _pseudo(text: str) -> str:
    return f"{PSEUDO_OPEN}{text}{PSEUDO_CLOSE}"


def test_a_themes_own_404_text_is_translated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    themes = _install_theme(tmp_path / "themes")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(themes), os.environ.get("PYTHONPATH", "")]))
    write_site(tmp_path / "site-src", theme="h7theme", pages={"index.md": "# Home\n\nHello.\n"})
    proc = run_mkdocs(tmp_path / "site-src")
    assert proc.returncode == 0, proc.stderr
    english = Html(tmp_path / "site-src/site/404.html")
    assert "Page not found" in english.text and "Back to the home page" in english.text
    zh = Html(tmp_path / "site-src/site/zh/404.html")
    for text in ("Page not found", "Sorry, the page you were looking for does not exist.", "Back to the home page"):
        assert _pseudo(text) in zh.text, text
    assert "Back to the home page<" not in zh.source
    # only text nodes: the attribute and the script keep their text, the catalog's text is not ours
    assert 'title="Page not found"' in zh.source and "var note = 'Page not found';" in zh.source
    assert _pseudo("Translated by the catalog") not in zh.text
    assert "Translated by the catalog" in zh.text


@pytest.mark.parametrize("theme", ["mkdocs", "readthedocs"])
def test_the_built_in_themes_404_is_chinese_from_their_catalog(tmp_path: Path, theme: str) -> None:
    write_site(tmp_path, theme=theme, pages={"index.md": "# Home\n\nHello.\n"})
    proc = run_mkdocs(tmp_path, "--strict")
    assert proc.returncode == 0, proc.stderr
    zh = Html(tmp_path / "site/zh/404.html")
    assert "找不到页面" in zh.text and "Page not found" not in zh.text
