"""``docs`` writes what the plugin's Chinese build shows: palette toggle names (reviewed in
site.po) and the titles of untitled admonitions come from the same strings and pipeline."""

from __future__ import annotations

import html
import os
import re
from pathlib import Path

import yaml

from mkdocs_zh_translate.cli.app import main
from tests.plugin_sites import build_in_process, write_site

PALETTE = [
    {"scheme": "default", "toggle": {"icon": "material/brightness-7", "name": "Switch to dark mode"}},
    {"scheme": "slate", "toggle": {"icon": "material/brightness-4", "name": "Switch to light mode"}},
]
PAGE = "# Home\n\n!!! note\n    An untitled note.\n\n!!! custom-thing\n    A type of the site's own.\n"
SITE_PO = '''msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"

msgid "Switch to dark mode"
msgstr "切换到深色模式"
'''


def _site(root: Path) -> Path:
    config = write_site(
        root, theme="material", pages={"index.md": PAGE},
        extra_config={"theme": {"name": "material", "palette": PALETTE}, "markdown_extensions": ["admonition"]},
    )
    review = root / "translations" / "zh"
    review.mkdir(parents=True)
    (review / "site.po").write_text(SITE_PO, encoding="utf-8")
    return config


def test_docs_writes_the_palette_names_and_admonition_titles_the_build_shows(tmp_path: Path) -> None:
    config = _site(tmp_path / "proj")
    cwd = os.getcwd()
    os.chdir(tmp_path / "proj")
    try:
        assert main(["docs", "--out", "../out"]) == 0
    finally:
        os.chdir(cwd)
    zh = yaml.safe_load((tmp_path / "out.i18n.yml").read_text(encoding="utf-8"))["plugins"][0]["i18n"]["languages"][1]
    names = [scheme["toggle"]["name"] for scheme in zh["theme"]["palette"]]
    assert names == ["切换到深色模式", "「Switch to light mode」"]  # the review, then the machine's
    assert [s["scheme"] for s in zh["theme"]["palette"]] == ["default", "slate"]  # the rest as written

    build_in_process(config)
    built = html.unescape((tmp_path / "proj" / "site" / "zh" / "index.html").read_text(encoding="utf-8"))
    for name in names:  # Material shows each toggle's name as its label's title
        assert f'title="{name}"' in built, name
    titles = re.findall(r'class="admonition-title">([^<]*)<', built)
    assert zh["admonition_translations"] == {"note": titles[1], "custom-thing": titles[2]}  # [0]: the banner
    assert titles[1:] == ["「Note」", "「Custom-thing」"]


def test_docs_names_no_model_over_a_page_of_reviews_and_english(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    write_site(root, pages={"index.md": "# Home\n\nReviewed sentence.\n\nAnother sentence.\n"},
               plugin={"backend": "onnx", "model": "models/opus-mt-en-zh", "allow_untranslated": True})
    review = root / "translations" / "zh"
    review.mkdir(parents=True)
    (review / "index.md.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "Reviewed sentence."\nmsgstr "审校过的句子。"\n', encoding="utf-8")
    cwd = os.getcwd()
    os.chdir(root)
    try:
        assert main(["docs", "--out", "../out"]) == 0
    finally:
        os.chdir(cwd)
    first = (tmp_path / "out" / "index.zh.md").read_text(encoding="utf-8").split("\n")[0]
    assert "opus-mt-en-zh" not in first and "机器翻译" not in first and "其余显示英文原文" in first, first
