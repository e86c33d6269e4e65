"""Interface text in the Chinese site (issue 19, item 6): nothing of the theme or of mkdocs.yml
stays English on a zh page outside the page's own content.

How the English strings of a page are listed (:func:`english_ui_strings`): the zh HTML is
parsed; every visible text node outside the page content (Material's ``<article>``, the
built-in theme's ``role="main"`` column) and every ``title``, ``aria-label`` and
``placeholder`` attribute anywhere, all outside ``<code>``, ``<pre>``, ``<script>``,
``<style>`` and ``<svg>``, is one string. The pseudo backend's translations (``「…」``) are cut
out; what keeps a run of three ASCII letters is English, unless :data:`ALLOWED` says it is
legitimately English (names, not sentences).
"""

from __future__ import annotations

import logging
import os
import re
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from tests.plugin_sites import build_in_process, write_site

# Legitimately English in a Chinese page: language names of the switcher, the generator's
# product names, the site's own brand (Demo Docs, translated only when not a brand) and the
# model's name in the banner ("pseudo" here).
ALLOWED = frozenset({"English", "Material for MkDocs", "MkDocs", "Demo Docs", "pseudo"})
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"})
_HIDDEN = frozenset({"code", "pre", "script", "style", "svg"})
_ENGLISH = re.compile(r"[A-Za-z]{3}")
_PSEUDO = re.compile(r"「[^」]*」")


class _UiText(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool, bool]] = []  # (tag, in content, hidden)
        self.strings: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        content, hidden = self.stack[-1][1:] if self.stack else (False, False)
        content = content or tag == "article" or values.get("role") == "main"
        hidden = hidden or tag in _HIDDEN
        if not hidden:
            self.strings.extend(v for k, v in attrs if k in ("title", "aria-label", "placeholder") and v)
        if tag not in _VOID:
            self.stack.append((tag, content, hidden))

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        content, hidden = self.stack[-1][1:] if self.stack else (False, False)
        if not content and not hidden and data.strip():
            self.strings.append(data)


def english_ui_strings(html: str) -> list[str]:
    parser = _UiText()
    parser.feed(html)
    parser.close()
    english = []
    for text in parser.strings:
        rest = " ".join(_PSEUDO.sub(" ", text).split())
        for allowed in sorted(ALLOWED, key=len, reverse=True):  # "Material for MkDocs" before "MkDocs"
            rest = rest.replace(allowed, " ")
        if _ENGLISH.search(rest):
            english.append(" ".join(text.split()))
    return sorted(set(english))


PAGE = (
    "# Welcome\n\n"
    "Hello there, reader.[^1]\n\n"
    "## Install it\n\nRun the installer.\n\n"
    "## Use it\n\nRun the tool.\n\n"
    "[^1]: A footnote.\n"
)
MARKDOWN = [
    {"toc": {"permalink": True, "title": "Page contents"}},
    "footnotes",
    "admonition",
    "attr_list",
]
MATERIAL_THEME: dict[str, Any] = {
    "name": "material",
    "custom_dir": "overrides",
    "palette": [
        {"scheme": "default", "toggle": {"icon": "material/brightness-7", "name": "Switch to dark mode"}},
        {"scheme": "slate", "toggle": {"icon": "material/brightness-4", "name": "Switch to light mode"}},
    ],
}
FEEDBACK = {
    "provider": "google",
    "property": "G-XXXXXXXXXX",
    "feedback": {
        "title": "Was this page helpful?",
        "ratings": [
            {"icon": "material/thumb-up-outline", "name": "This page was helpful", "data": 1, "note": "Thanks!"},
            {"icon": "material/thumb-down-outline", "name": "This page could be improved", "data": 0,
             "note": 'Thanks! Tell us <a href="https://example.com/">how</a>.'},
        ],
    },
}
# An announcement that branches on the language: the plugin's advice, followed.
ANNOUNCE = (
    '{% extends "base.html" %}\n{% block announce %}'
    '{% if config.theme.language == "zh" %}新版本已发布{% else %}A new release is out{% endif %}'
    "{% endblock %}\n"
)


def _material_site(tmp_path: Path, plugin: dict[str, Any] | None = None) -> Path:
    (tmp_path / "overrides").mkdir()
    (tmp_path / "overrides" / "main.html").write_text(ANNOUNCE, encoding="utf-8")
    return write_site(
        tmp_path,
        theme="material",
        pages={"index.md": PAGE},
        plugin=plugin or {"backend": "pseudo"},
        extra_config={
            "theme": MATERIAL_THEME,
            "markdown_extensions": MARKDOWN,
            "extra": {"analytics": FEEDBACK},
        },
    )


def test_no_english_ui_string_on_a_zh_material_page(tmp_path: Path) -> None:
    build_in_process(_material_site(tmp_path))
    en = (tmp_path / "site/index.html").read_text(encoding="utf-8")
    zh = (tmp_path / "site/zh/index.html").read_text(encoding="utf-8")
    # the English page has them all: the check sees what it is meant to see
    for text in ("Page contents", "Permanent link", "Was this page helpful?", "Switch to dark mode", "Jump back"):
        assert text in en
    assert english_ui_strings(zh) == []
    assert "「Permanent link」" in zh and "「Was this page helpful?」" in zh and "新版本已发布" in zh
    # a rating note with a link stays as written (it is HTML, the pipeline translates text)
    assert 'Tell us <a href="https://example.com/">how</a>' in zh
    not_found = (tmp_path / "site/zh/404.html").read_text(encoding="utf-8")
    assert english_ui_strings(not_found) == [] and "404 - Not found" not in not_found


def test_no_english_ui_string_on_a_zh_builtin_theme_page(tmp_path: Path) -> None:
    config = write_site(
        tmp_path, theme="mkdocs", pages={"index.md": PAGE}, extra_config={"markdown_extensions": MARKDOWN}
    )
    build_in_process(config)
    assert "Permanent link" in (tmp_path / "site/index.html").read_text(encoding="utf-8")
    for page in ("site/zh/index.html", "site/zh/404.html"):
        assert english_ui_strings((tmp_path / page).read_text(encoding="utf-8")) == [], page


def test_ui_strings_are_reviewable_in_site_po(tmp_path: Path) -> None:
    from mkdocs_zh_translate.cli.app import main

    config = _material_site(tmp_path)
    assert main(["review", "sync", "-f", str(config)]) == 0
    site_po = (tmp_path / "translations/zh/site.po").read_text(encoding="utf-8")
    for text in ("Page contents", "Permanent link", "Was this page helpful?", "Switch to light mode", "Thanks!"):
        assert f'msgid "{text}"' in site_po
    # a reviewed string wins in the next build
    site_po = site_po.replace('msgid "Page contents"\nmsgstr ""', 'msgid "Page contents"\nmsgstr "本页目录"')
    (tmp_path / "translations/zh/site.po").write_text(site_po, encoding="utf-8")
    build_in_process(config)
    assert "本页目录" in (tmp_path / "site/zh/index.html").read_text(encoding="utf-8")


def test_overrides_set_the_text_of_markdown_extensions(tmp_path: Path) -> None:
    overrides = {"markdown_extensions": [{"toc": {"title": "目录", "permalink_title": "本节链接"}}]}
    build_in_process(_material_site(tmp_path, {"backend": "pseudo", "overrides": overrides}))
    zh = (tmp_path / "site/zh/index.html").read_text(encoding="utf-8")
    assert 'title="本节链接"' in zh and "目录" in zh and "Page contents" not in zh
    assert "本节链接" not in (tmp_path / "site/index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"toc": {"separator": "_"}}, "toc.separator would change the page structure"),
        ({"toc": {"permalink": False}}, "toc.permalink would change the page structure"),
        ({"pymdownx.tabbed": {"slugify": "x"}}, "pymdownx.tabbed.slugify would change the page structure"),
        ({"toc": {"title": 3}}, "toc.title: expected text"),
    ],
)
def test_structural_markdown_overrides_are_refused(overrides: dict[str, Any], message: str) -> None:
    from mkdocs_zh_translate.plugin.plugin import ZhTranslatePlugin

    errors, _warnings = ZhTranslatePlugin().load_config(
        {"backend": "pseudo", "overrides": {"markdown_extensions": overrides}}
    )
    assert errors and message in str(errors[0][1])


def test_hard_coded_template_text_is_named_once(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Literal template text is translated (tests/plugin/test_plugin_theme_text.py); a sentence
    around a Jinja expression cannot be, and is named."""
    config = _material_site(tmp_path)
    (tmp_path / "overrides" / "main.html").write_text(
        '{% extends "base.html" %}{% block announce %}<b>New:</b> version {{ config.extra.v }} is out{% endblock %}',
        encoding="utf-8",
    )
    with caplog.at_level(logging.WARNING):
        build_in_process(config)
    named = [r.getMessage() for r in caplog.records if "main.html" in r.getMessage()]
    assert len(named) == 1 and "template text stays English" in named[0] and "is out" in named[0]
    assert "New:" not in named[0]  # translated: not named


def test_date_plugins_pinned_to_english_get_the_chinese_locale(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs_git_revision_date_localized_plugin")
    config = write_site(
        tmp_path,
        theme="material",
        pages={"index.md": "# Welcome\n\nHello there.\n"},
        extra_config={
            "plugins": [
                "search",
                {"git-revision-date-localized": {"locale": "en", "type": "date"}},
                {"zh-translate": {"backend": "pseudo"}},
            ]
        },
    )
    env = {"GIT_AUTHOR_DATE": "2026-03-05T12:00:00", "GIT_COMMITTER_DATE": "2026-03-05T12:00:00"}
    for args in (["init", "-q"], ["add", "-A"], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"]):
        subprocess.run(["git", *args], cwd=tmp_path, check=True, env={**os.environ, **env})
    build_in_process(config)
    en = (tmp_path / "site/index.html").read_text(encoding="utf-8")
    zh = (tmp_path / "site/zh/index.html").read_text(encoding="utf-8")
    assert "March 5, 2026" in en
    assert "2026年3月5日" in zh and "March" not in zh


def test_blog_archive_and_category_titles_are_translated(tmp_path: Path) -> None:
    pages = {
        "index.md": "# Welcome\n\nHello there.\n",
        "blog/index.md": "# Blog\n",
        "blog/posts/first.md": (
            "---\ndate: 2026-03-05\ncategories:\n  - Releases\n---\n\n# First post\n\nThe first post.\n"
        ),
    }
    config = write_site(
        tmp_path,
        theme="material",
        pages=pages,
        extra_config={
            "plugins": [
                "search",
                {"blog": {"archive_name": "Old posts", "categories_name": "Topics"}},
                {"zh-translate": {"backend": "pseudo"}},
            ]
        },
    )
    build_in_process(config)
    zh = (tmp_path / "site/zh/blog/index.html").read_text(encoding="utf-8")
    en = (tmp_path / "site/blog/index.html").read_text(encoding="utf-8")
    assert "Old posts" in en and "Topics" in en
    assert "「Old posts」" in zh and "「Topics」" in zh
    assert english_ui_strings(zh) == []
    # Material's own date words follow theme.language
    assert "2026年3月5日" in zh
