"""C0/C1 control characters, line separators and lone surrogates from untrusted text.

A glossary term or a reviewed msgstr holding NUL, ESC or backspace reached the zh HTML (one
glossary term put 193 NULs into a page), and a lone surrogate in a glossary term (a YAML
``"\\ud800"`` escape) crashed build and sync with ``UnicodeEncodeError`` in the cache key. They
are refused now as bidi controls are: the glossary with ``file:line`` (exit 2 in the CLI), a
reviewed entry with a warning naming ``file:line`` (the machine translation stands in). Each
test failed on main.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mkdocs_zh_translate.cli.app import main as cli_main
from mkdocs_zh_translate.errors import ReviewError
from mkdocs_zh_translate.pipeline.glossary import load_glossary
from mkdocs_zh_translate.review.layer import ReviewedLayer
from mkdocs_zh_translate.review.units import string_units
from mkdocs_zh_translate.segment import from_readable, segment_markdown
from tests.plugin_sites import build_in_process, write_site

# YAML double-quoted escapes and what they make
CONTROLS = {"\\0": "U+0000", "\\e": "U+001B", "\\b": "U+0008", "\\x7f": "U+007F", "\\x9b": "U+009B", "\\a": "U+0007"}


@pytest.mark.parametrize("escape", list(CONTROLS))
def test_glossary_control_characters_are_refused_with_file_and_line(tmp_path: Path, escape: str) -> None:
    path = tmp_path / "glossary.yml"
    path.write_text(f'keep: [MkDocs]\nterms:\n  plugin: 插件\n  guide: "指{escape}南"\n', encoding="utf-8")
    expected = rf"glossary\.yml:4: .*invisible control characters \({re.escape(CONTROLS[escape])} CONTROL CHARACTER"
    with pytest.raises(ReviewError, match=expected):
        load_glossary(path)


@pytest.mark.parametrize("key", [False, True])
def test_glossary_lone_surrogate_is_one_line_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str], key: bool) -> None:
    monkeypatch.chdir(tmp_path)
    config = write_site(tmp_path, pages={"index.md": "# Home\n\nRead the guide first.\n"})
    review = tmp_path / "translations" / "zh"
    review.mkdir(parents=True)
    entry = '"guide\\ud800": 指南' if key else 'guide: "指南\\ud800"'
    (review / "glossary.yml").write_text(f"terms:\n  {entry}\n", encoding="utf-8")
    assert cli_main(["review", "sync", "-f", str(config)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "glossary.yml:2:" in err and "U+D800 LONE SURROGATE" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("bad", ["\x00", "\x1b", "\x08", "\x7f", "\x85", "\x9b", "\r", "\u2028"])
def test_reviewed_msgstr_with_a_control_character_is_rejected(bad: str) -> None:
    segment = segment_markdown("Run the build command.\n").segments[0]
    assert from_readable(segment, "运行构建命令。\t").problems == []  # tab and newline are text
    problems = from_readable(segment, f"运行{bad}构建命令。").problems
    assert any("invisible control" in p and f"U+{ord(bad):04X}" in p for p in problems), problems


def test_a_control_the_english_has_may_stay() -> None:
    segment = segment_markdown("Press\x1b to stop.\n").segments[0]
    assert from_readable(segment, "按\x1b停止。").problems == []


def test_no_control_character_reaches_the_zh_html(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    config = write_site(tmp_path, pages={"index.md": "# Home\n\nRun the build command.\n\nRead the guide.\n"})
    review = tmp_path / "translations" / "zh"
    review.mkdir(parents=True)
    (review / "index.md.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "Run the build command."\nmsgstr "运行\\b\x00\x1b[2J构建命令。"\n',
        encoding="utf-8",
    )
    build_in_process(config)
    html = (tmp_path / "site" / "zh" / "index.html").read_text(encoding="utf-8")
    assert not any(ch in html for ch in "\x00\x1b\x08")
    # the warning the build logs names the file and line (the layer makes it)
    messages: list[str] = []
    units = list(string_units([("Run the build command.", "")]))
    assert list(ReviewedLayer(review).reviewed(review / "index.md.po", units, messages)) == []
    assert any("index.md.po:5:" in m and "U+0000" in m and "rejected" in m for m in messages), messages
