"""A site without attr_list: the zh build reads the heading pins and no other ``{...}`` text.

The zh build used to add all of attr_list, so a site's own braces (mkdocs-macros text kept in a
page, ``{% raw %}`x`{% endraw %}``) turned into attributes in zh only.
"""

from __future__ import annotations

from pathlib import Path

import markdown
import pytest

from mkdocs_zh_translate.plugin.pins import PINS
from tests.plugin_sites import Html, run_mkdocs, write_site

# The site's own text: braces after inline code, at the end of a paragraph and of a heading.
BRACES = (
    "Call {% raw %}`{{ render() }}`{% endraw %} in a template.\n\n"
    "{% raw %}\nA block of template text that ends here.\n{% endraw %}\n\n"
    "## Options\n\n"
    "A paragraph that ends in a pin-like text { #not-an-id }\n\n"
    "- an item {: #x }\n"
)


def _render(text: str, *extensions: str) -> str:
    return markdown.markdown(text, extensions=["toc", *extensions])


def test_the_sites_own_braces_render_as_without_the_pin_reader() -> None:
    for text in (BRACES, "## Options {: .wide }\n"):
        assert _render(text, PINS) == _render(text), text
    assert "<code>{{ render() }}</code>{% endraw %}" in _render(BRACES, PINS)


@pytest.mark.parametrize(
    ("heading", "expected"),
    [
        ("## 选项 { #options }", '<h2 id="options">选项</h2>'),
        ('## 二〇二四 { id="2024-notes" }', '<h2 id="2024-notes">二〇二四</h2>'),
        ("### `code` 与文字 { #code-and-text }", '<h3 id="code-and-text"><code>code</code> 与文字</h3>'),
        ("## 私有 { #\\_\\_all\\_\\_ }", '<h2 id="__all__">私有</h2>'),
    ],
)
def test_a_heading_pin_sets_the_id_and_leaves_the_text(heading: str, expected: str) -> None:
    assert _render(heading, PINS) == expected


def test_only_the_exact_pin_form_is_read() -> None:
    # attr_list would take these; the pin reader leaves them as the English build shows them
    for text in ("## A {: #a }", "## A { .cls }", "## A {#a}", "## A { #a .cls }"):
        assert _render(text, PINS) == _render(text), text


def test_a_site_without_attr_list_keeps_its_braces_in_zh(tmp_path: Path) -> None:
    write_site(tmp_path, pages={"index.md": "# Templates\n\n" + BRACES})
    proc = run_mkdocs(tmp_path, "--strict")
    assert proc.returncode == 0, proc.stderr
    en = Html(tmp_path / "site" / "index.html")
    zh = Html(tmp_path / "site" / "zh" / "index.html")
    assert en.text.count("{% endraw %}") == zh.text.count("{% endraw %}") == 2
    assert "</code>{% endraw %} in a template" in zh.source
    assert "{: #x }" in zh.text
    assert [h.get("id") for h in zh.find("h1") + zh.find("h2")] == [h.get("id") for h in en.find("h1") + en.find("h2")]
    assert "{ #" not in zh.text.replace("{ #not-an-id }", "")
