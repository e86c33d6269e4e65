"""Included Markdown (pymdownx.snippets) is translated with the page that includes it, with the
site's own ``base_path``, line ranges and sections; the banner never claims a translation for
a page with nothing translated."""

from __future__ import annotations

from pathlib import Path

import pytest

from mkdocs_zh_translate.pipeline.translator import PSEUDO_OPEN
from mkdocs_zh_translate.plugin.snippets import SnippetExpander
from tests.plugin_sites import Html, run_mkdocs, write_site

PAGES = {
    "index.md": '--8<-- "README.md"\n',
    "guide.md": (
        "# Guide\n\nOwn text of the guide.\n\n"
        '--8<-- "parts.md:usage"\n\n'
        "- A list item:\n\n"
        '    --8<-- "README.md:3:3"\n\n'
        "```text\n--8<-- \"code.txt\"\n```\n\n"
        ';--8<-- "README.md"\n'
    ),
    "code.md": "```python\nprint('only code here')\n```\n",
}
README = "# Demo project\n\nThe project turns notes into pages.\n\n## Install it\n\nRun the installer.\n"
PARTS = "Intro line.\n\n--8<-- [start:usage]\nUsage is simple.\n--8<-- [end:usage]\n\nNot included.\n"


def test_expander_follows_the_sites_options(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "README.md").write_text(README, encoding="utf-8")
    (tmp_path / "inc" / "parts.md").write_text(PARTS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    options = {"base_path": ["inc"], "check_paths": True, "auto_append": ["parts.md"]}
    expander = SnippetExpander(["toc", "pymdownx.snippets"], {"pymdownx.snippets": options})
    assert expander.expand('--8<-- "README.md"\n') == (README + "\n", None)
    assert expander.expand('--8<-- "parts.md:usage"\n')[0] == "Usage is simple.\n"
    assert expander.expand('--8<-- "README.md:3:3"\n')[0] == "The project turns notes into pages.\n"
    assert expander.expand('--8<--\nparts.md:usage\nREADME.md:3:3\n--8<--\n')[0] == (
        "Usage is simple.\nThe project turns notes into pages.\n"
    )
    # auto_append is left to the Chinese build's own pass; escapes survive both passes
    assert expander.expand("Text.\n") == ("Text.\n", None)
    assert expander.expand(';--8<-- "README.md"\n')[0] == ';--8<-- "README.md"\n'
    text, error = expander.expand('--8<-- "missing.md"\n')
    assert text == '--8<-- "missing.md"\n' and error and "missing.md" in error
    assert SnippetExpander(["toc"], {}).expand('--8<-- "README.md"\n') == ('--8<-- "README.md"\n', None)


@pytest.mark.parametrize(
    "page",
    [
        '--8<-- "README.md"\n',
        ';--8<-- "README.md"\n\n;;--8<-- "README.md"\n',
        'Text\n\n```python\n--8<-- "code.py"\n```\n',
        '```python\n--8<-- "code.py:func"\n```\n\n;--8<-- [start:x]\n',
        '--8<--\nparts.md:usage\n;README.md\n--8<--\n',
    ],
)
def test_the_chinese_builds_own_pass_changes_nothing_more(page: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The zh build runs pymdownx.snippets again over the expanded page: it must render what
    the English build renders from the page as written."""
    import markdown

    (tmp_path / "README.md").write_text(README, encoding="utf-8")
    (tmp_path / "parts.md").write_text(PARTS, encoding="utf-8")
    code = "# --8<-- [start:func]\ndef func():\n    pass\n# --8<-- [end:func]\n# a ;--8<-- [start:y] note\n"
    (tmp_path / "code.py").write_text(code, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    options = {"base_path": ["."], "check_paths": True}

    def render(text: str) -> str:
        extensions = ["pymdownx.superfences", "pymdownx.snippets"]
        return markdown.Markdown(extensions=extensions, extension_configs={"pymdownx.snippets": options}).convert(text)

    expanded, error = SnippetExpander(["pymdownx.snippets"], {"pymdownx.snippets": options}).expand(page)
    assert error is None
    assert render(expanded) == render(page)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("snippets")
    (root / "includes").mkdir()
    (root / "includes" / "README.md").write_text(README, encoding="utf-8")
    (root / "includes" / "parts.md").write_text(PARTS, encoding="utf-8")
    (root / "includes" / "code.txt").write_text("keep this code line\n", encoding="utf-8")
    extra = {
        "markdown_extensions": [
            "toc",
            "pymdownx.superfences",
            {"pymdownx.snippets": {"base_path": ["includes"], "check_paths": True}},
        ]
    }
    write_site(root, pages=PAGES, extra_config=extra)
    proc = run_mkdocs(root, "--strict")
    assert proc.returncode == 0, proc.stderr
    return root / "site"


def test_snippet_content_is_translated_in_the_chinese_site(site: Path) -> None:
    home = Html(site / "zh" / "index.html")
    assert f"{PSEUDO_OPEN}The project turns notes into pages." in home.text
    assert f"{PSEUDO_OPEN}Demo project" in home.text
    assert "本页由机器翻译" in home.source  # the banner is right: the page's text is Chinese
    en = Html(site / "index.html")
    assert "The project turns notes into pages." in en.text and PSEUDO_OPEN not in en.text
    assert [a.get("id") for a in home.find("h2")] == [a.get("id") for a in en.find("h2")] == ["install-it"]


def test_sections_line_ranges_code_and_escapes(site: Path) -> None:
    zh = Html(site / "zh" / "guide" / "index.html")
    en = Html(site / "guide" / "index.html")
    assert f"{PSEUDO_OPEN}Usage is simple." in zh.text and "Not included." not in zh.text
    assert f"{PSEUDO_OPEN}The project turns notes into pages." in zh.text
    assert "keep this code line" in zh.text and f"{PSEUDO_OPEN}keep this code line" not in zh.text
    assert '--8<-- "README.md"' in en.text and '--8<-- "README.md"' in zh.text
    assert zh.text.count("Run the installer") == en.text.count("Run the installer") == 0  # escaped: not included


def test_banner_never_claims_a_translation_for_a_page_with_no_text(site: Path) -> None:
    zh = Html(site / "zh" / "code" / "index.html")
    assert "本页未翻译" in zh.source and "本页由机器翻译" not in zh.source
