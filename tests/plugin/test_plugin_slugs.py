"""Heading pins use the site's own heading ids: the ``toc`` extension's ``slugify`` and
``separator`` (pymdownx.slugs keeps ``--`` where the default slugify makes one ``-``)."""

from __future__ import annotations

from pathlib import Path

from mkdocs_zh_translate.pipeline.translator import PSEUDO_OPEN
from mkdocs_zh_translate.plugin.mdconfig import heading_slugify, page_syntax
from tests.plugin_sites import Html, run_mkdocs, write_site

PAGES = {"index.md": "# Contributing & Support\n\nSome text.\n\n## Gone & Deprecated\n\nMore text.\n"}


def test_heading_slugify_follows_the_toc_options() -> None:
    assert heading_slugify({}) is None
    with_separator = heading_slugify({"toc": {"separator": "_"}})
    assert with_separator("Gone & Deprecated", "-") == "gone_deprecated"
    custom = heading_slugify({"toc": {"slugify": lambda value, sep: value.upper().replace(" ", sep)}})
    assert custom("a b", "-") == "A-B"
    full_name = heading_slugify({"markdown.extensions.toc": {"separator": "_"}})
    assert full_name is not None and full_name("a b", "-") == "a_b"


def _build(tmp_path: Path, pages: dict[str, str], extensions: str) -> tuple[Html, Html]:
    """Build a two-language site whose mkdocs.yml ends with ``extensions``; its index in en and zh."""
    config = write_site(tmp_path, pages=pages)
    with config.open("a", encoding="utf-8") as f:
        f.write(extensions)
    proc = run_mkdocs(tmp_path, "--strict")
    assert proc.returncode == 0, proc.stderr
    return Html(tmp_path / "site" / "index.html"), Html(tmp_path / "site" / "zh" / "index.html")


def test_chinese_headings_keep_the_ids_of_a_custom_slugify(tmp_path: Path) -> None:
    en, zh = _build(tmp_path, PAGES, (
        "markdown_extensions:\n"
        "  - attr_list\n"
        "  - toc:\n"
        "      slugify: !!python/object/apply:pymdownx.slugs.slugify {kwds: {case: lower}}\n"
    ))
    ids = [h.get("id") for h in en.find("h1") + en.find("h2")]
    assert ids == ["contributing--support", "gone--deprecated"]
    assert [h.get("id") for h in zh.find("h1") + zh.find("h2")] == ids
    assert f"{PSEUDO_OPEN}Gone &amp; Deprecated" in zh.source or f"{PSEUDO_OPEN}Gone & Deprecated" in zh.text


TABS = {"index.md": '# Install\n\n=== "Official installer"\n\n    Run it.\n\n=== "Git + SSH"\n\n    Clone it.\n'}


def test_tab_titles_stay_english_where_tabbed_slugifies_them(tmp_path: Path) -> None:
    assert not page_syntax(["pymdownx.tabbed"], {"pymdownx.tabbed": {"alternate_style": True}}).tab_ids_from_titles
    assert page_syntax(["pymdownx.blocks.tab"], {"pymdownx.blocks.tab": {"slugify": str.lower}}).tab_ids_from_titles
    assert page_syntax(["pymdownx.fancylists"], {}).fancy_lists and not page_syntax([], {}).fancy_lists
    en, zh = _build(tmp_path, TABS, (
        "markdown_extensions:\n"
        "  - pymdownx.superfences\n"
        "  - pymdownx.tabbed:\n"
        "      alternate_style: true\n"
        "      slugify: !!python/object/apply:pymdownx.slugs.slugify {kwds: {case: lower}}\n"
    ))
    ids = [i.get("id") for i in en.find("input") if i.get("name", "").startswith("__tabbed")]
    assert ids == ["official-installer", "git--ssh"]
    assert [i.get("id") for i in zh.find("input") if i.get("name", "").startswith("__tabbed")] == ids
    assert f"{PSEUDO_OPEN}Run it." in zh.text and f"{PSEUDO_OPEN}Official" not in zh.text


EMOJI = {
    "index.md": (
        "# Help\n\n## :material-discord: Discord\n\nChat.\n\n## :smile: Smile here\n\nText.\n\n"
        "## Hi :fontawesome-brands-github: there\n\nMore.\n"
    )
}


def test_heading_ids_keep_the_shortcodes_the_emoji_extension_leaves_as_text(tmp_path: Path) -> None:
    # `:material-discord:` is no icon of the theme: pymdownx.emoji leaves it as text and the toc
    # slugifies it with the words (`material-discord-discord`); a known one is an image, no text.
    en, zh = _build(tmp_path, EMOJI, (
        "markdown_extensions:\n"
        "  - attr_list\n"
        "  - toc\n"
        "  - pymdownx.emoji:\n"
        "      emoji_index: !!python/name:material.extensions.emoji.twemoji\n"
        "      emoji_generator: !!python/name:material.extensions.emoji.to_svg\n"
    ))
    ids = [h.get("id") for h in en.find("h2")]
    assert ids == ["material-discord-discord", "smile-here", "hi-there"]
    assert [h.get("id") for h in zh.find("h2")] == ids


def test_heading_ids_keep_every_shortcode_without_the_emoji_extension(tmp_path: Path) -> None:
    en, zh = _build(tmp_path, EMOJI, "markdown_extensions:\n  - attr_list\n  - toc\n")
    ids = [h.get("id") for h in en.find("h2")]
    assert ids == ["material-discord-discord", "smile-smile-here", "hi-fontawesome-brands-github-there"]
    assert [h.get("id") for h in zh.find("h2")] == ids
