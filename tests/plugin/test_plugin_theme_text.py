"""The literal text of a site's own override templates (``custom_dir``) is a catalog like the
interface strings: extracted, translated by the model, reviewable in ``site.po``, rendered in
the Chinese build; an untrusted translation never becomes markup or Jinja."""

from __future__ import annotations

from pathlib import Path

import pytest

from mkdocs_zh_translate.pipeline.translator import PSEUDO_OPEN
from mkdocs_zh_translate.plugin.templates import read_template, translated_source
from tests.plugin_sites import Html, build_in_process, write_site

MAIN = '{% extends "base.html" %}\n{% block announce %}<b>New:</b> version two is out{% endblock %}\n'
HOME = (
    '{% extends "main.html" %}\n'
    "{% block tabs %}{{ super() }}\n"
    '<section class="hero"><h1>Docs that build themselves</h1>\n'
    "<p>Write pages once.</p>\n"
    '<a href="{{ page.next_page.url | url }}" title="Start reading" class="md-button">Get started</a>\n'
    "</section>{% endblock %}\n"
)
PAGES = {
    "index.md": "---\ntemplate: home.html\n---\n# Welcome\n\nHello there, reader.\n",
    "guide.md": "# Guide\n\nRead on.\n",
}


def _site(root: Path) -> Path:
    (root / "overrides").mkdir()
    (root / "overrides" / "main.html").write_text(MAIN, encoding="utf-8")
    (root / "overrides" / "home.html").write_text(HOME, encoding="utf-8")
    return write_site(
        root, theme="material", pages=PAGES, extra_config={"theme": {"name": "material", "custom_dir": "overrides"}}
    )


def test_strings_are_found_where_they_stand() -> None:
    template = read_template(Path("home.html"), HOME)
    texts = [p.text for p in template.pieces]
    assert texts == ["Docs that build themselves", "Write pages once.", "Start reading", "Get started"]
    assert all(HOME[p.start : p.end] == p.text for p in template.pieces)
    assert template.mixed == []
    mixed = read_template(
        Path("x.html"), "<p>Version {{ v }} is out</p><p>{{ n }} pages</p><script>x = 'Not me'</script>"
    )
    assert mixed.mixed == ["Version {{ v }} is out"] and [p.text for p in mixed.pieces] == ["pages"]
    assert (
        read_template(Path("x.html"), "{% if config.theme.language == 'zh' %}中{% else %}English{% endif %}").pieces
        == []
    )
    # the theme's own catalog translates {% trans %} blocks; an entity is not a word
    trans = read_template(
        Path("x.html"), "<p>{% trans %}Search results{% endtrans %}</p><a>&laquo;</a><b>Next page</b>"
    )
    assert [p.text for p in trans.pieces] == ["Next page"]


def test_a_translation_is_text_never_markup_or_jinja() -> None:
    template = read_template(Path("home.html"), HOME)
    hostile = '{{ config }}{% include "x" %}<script>alert(1)</script>" onmouseover="x'
    out = translated_source(template, {"Get started": hostile, "Start reading": hostile})
    assert out is not None
    assert "{{ config }}" not in out and "{%" not in out.replace("{% block tabs %}", "").replace(
        "{% endblock %}", ""
    ).replace('{% extends "main.html" %}', "")
    assert "<script>" not in out and '" onmouseover' not in out
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.DictLoader({"main.html": "{% block tabs %}{% endblock %}", "home.html": out})
    )
    env.filters["url"] = str
    rendered = env.get_template("home.html").render(page={"next_page": {"url": "x/"}})
    assert "alert(1)" in rendered and "<script>" not in rendered and "config" in rendered  # shown, inert


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("theme_text")
    build_in_process(_site(root))
    return root


def test_override_template_text_is_chinese_on_zh_pages(site: Path) -> None:
    en = Html(site / "site" / "index.html")
    zh = Html(site / "site" / "zh" / "index.html")
    assert "Docs that build themselves" in en.text and "version two is out" in en.text
    for text in ("Docs that build themselves", "Write pages once.", "Get started", "version two is out"):
        assert f"{PSEUDO_OPEN}{text}" in zh.text, text
    assert any(PSEUDO_OPEN in t for t in zh.attr("a", "title"))
    # the announcement bar of every page, not only the landing page
    assert f"{PSEUDO_OPEN}version two is out" in Html(site / "site" / "zh" / "guide" / "index.html").text
    # custom_dir is left as written
    assert (site / "overrides" / "home.html").read_text(encoding="utf-8") == HOME


def test_template_text_is_reviewable_in_site_po(tmp_path: Path) -> None:
    from mkdocs_zh_translate.cli.app import main

    config = _site(tmp_path)
    assert main(["review", "sync", "-f", str(config)]) == 0
    site_po = (tmp_path / "translations/zh/site.po").read_text(encoding="utf-8")
    for text in ("Docs that build themselves", "Get started", "version two is out"):
        assert f'msgid "{text}"' in site_po, text
    site_po = site_po.replace('msgid "Get started"\nmsgstr ""', 'msgid "Get started"\nmsgstr "开始阅读"')
    (tmp_path / "translations/zh/site.po").write_text(site_po, encoding="utf-8")
    build_in_process(config)
    assert "开始阅读" in Html(tmp_path / "site/zh/index.html").text


def test_every_theme_template_stays_valid_jinja_once_translated() -> None:
    """Material's and MkDocs' own templates, taken as overrides: every translated copy parses
    (masks keep offsets; no piece spans a Jinja tag or a {% trans %} block)."""
    import jinja2
    import material
    import mkdocs

    env = jinja2.Environment(extensions=["jinja2.ext.do", "jinja2.ext.loopcontrols", "jinja2.ext.i18n"])
    roots = [Path(material.__file__).parent / "templates", Path(mkdocs.__file__).parent / "themes"]
    checked = 0
    for path in sorted(p for root in roots for p in root.rglob("*.html")):
        template = read_template(path, path.read_text(encoding="utf-8"))
        out = translated_source(template, {p.text: "「{{ x }}%}" + p.text + "」" for p in template.pieces})
        if out is not None:
            env.parse(out)
            checked += 1
    assert checked >= 5
