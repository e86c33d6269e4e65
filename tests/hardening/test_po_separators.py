"""PO files are cut into lines at ``\\n`` only: what ``review sync`` writes, every reader reads back.

``str.splitlines`` (which polib and the strict checker used) also breaks at ``\\r``, ``\\v``,
``\\f``, ``\\x1c``-``\\x1e``, NEL, U+2028 and U+2029; gettext and our writer put the last five
inside strings as they are, so one such character on a page made a PO file nobody could read
again ("unterminated string"), and every later build and sync failed; a BEL, which both write as
``\\a``, read back as a backslash and an ``a``. Each test here failed on
main.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import polib
import pytest

from mkdocs_zh_translate.cli.app import main as cli_main
from mkdocs_zh_translate.errors import ReviewError
from mkdocs_zh_translate.pipeline.glossary import load_glossary
from mkdocs_zh_translate.pofill.catalog import parse_catalog
from mkdocs_zh_translate.quality.references import ReferencesError, read_tsv
from mkdocs_zh_translate.review.pocheck import PoSyntaxError, check_po
from mkdocs_zh_translate.review.poscan import split_lines
from mkdocs_zh_translate.review.store import new_po, read_po, render_po
from tests.plugin_sites import build_in_process, write_site

# Every line break str.splitlines knows (the Python documentation's table), with \r\n.
SEPARATORS = ["\n", "\r", "\r\n", "\v", "\f", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]
RAW_IN_PO = ["\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]  # written unescaped, by gettext too


def _every_separator_po() -> polib.POFile:
    po = new_po(defaults={"Project-Id-Version": "Docs\u2028site", "Language-Team": "中文\x85团队"})
    for number, sep in enumerate(SEPARATORS):
        comment_sep = sep if "\r" not in sep else "\u2028"  # a comment line cannot hold a CR (both tools drop it)
        po.append(
            polib.POEntry(
                msgid=f"Line {number} one{sep}line two",
                msgstr=f"第{number}行{sep}第二行",
                tcomment=f"note{comment_sep}more",
                comment=f"paragraph{comment_sep}x",
                occurrences=[("docs/index.md", str(number + 1))],
                flags=["fuzzy"] if number % 2 else [],
            )
        )
    return po


def test_split_lines_cuts_at_newline_only_like_splitlines_otherwise() -> None:
    text = "".join(f"a{sep}b" for sep in SEPARATORS)
    assert split_lines(text) == [line.removesuffix("\r") for line in text.split("\n")]
    assert len(split_lines(text)) == 3 and len(text.splitlines()) == len(SEPARATORS) + 1
    for sample in ("", "a", "a\n", "a\nb", "a\nb\n", "a\r\nb\r\n", "\n\n"):
        assert split_lines(sample) == sample.splitlines()
        assert split_lines(sample, keepends=True) == sample.splitlines(keepends=True)
    assert split_lines("x\u2028y\n\x85z", keepends=True) == ["x\u2028y\n", "\x85z"]


def test_the_po_reader_reads_every_line_separator_back(tmp_path: Path) -> None:
    po = _every_separator_po()
    text = render_po(po)
    assert all(sep in text for sep in RAW_IN_PO)  # gettext's layout: these stay raw in the string
    check_po(text)  # no "unterminated string"
    path = tmp_path / "index.md.po"
    path.write_text(text, encoding="utf-8")
    back = read_po(path)
    assert back is not None
    fields = [(e.msgid, e.msgstr, e.tcomment, e.comment, e.flags, e.occurrences) for e in back]
    assert fields == [(e.msgid, e.msgstr, e.tcomment, e.comment, e.flags, e.occurrences) for e in po]
    assert back.metadata["Project-Id-Version"] == "Docs\u2028site"
    assert back.metadata["Language-Team"] == "中文\x85团队"
    assert render_po(back) == text  # what we write, we read back, and write the same again
    # line numbers count \n only: each entry's msgid line is where the file has it
    lines = text.split("\n")
    for entry in back:
        assert lines[entry.linenum - 1].startswith(("#", "msgid"))
    if shutil.which("msgfmt"):  # gettext agrees that the file is valid
        check = subprocess.run(["msgfmt", "-c", "-o", "/dev/null", str(path)], capture_output=True, text=True, timeout=60)
        assert check.returncode == 0, check.stderr


def test_checker_line_numbers_count_newlines_only() -> None:
    text = 'msgid "a\u2028b\x85c"\nmsgstr "甲\u2029乙"\n\nmsgid "x"\nmsgstr "bad \\q"\n'
    with pytest.raises(PoSyntaxError) as caught:
        check_po(text)
    assert caught.value.line == 5 and "invalid escape" in caught.value.message


def test_po_fill_catalog_with_a_line_separator_parses() -> None:
    text = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "a\u2028b"\nmsgstr ""\n'
    catalog = parse_catalog(text, "x.po")
    assert [e.msgid for e in catalog.entries if not e.is_header] == ["a\u2028b"]
    assert "".join(catalog.lines) == text


def test_sync_then_build_with_a_line_separator_on_a_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    pages = {"index.md": "# Home\n\nFirst\u2028second, and NEL\x85here.\n\nThe end\u2029paragraph.\n"}
    config = write_site(tmp_path, pages=pages)
    build_in_process(config)
    for _ in range(2):  # the second sync reads what the first wrote
        assert cli_main(["review", "sync", "-f", str(config)]) == 0
    path = tmp_path / "translations" / "zh" / "index.md.po"
    po = read_po(path)
    assert po is not None and any("\u2028" in e.msgid for e in po)
    build_in_process(config)  # the build reads it too


@pytest.mark.parametrize("escape", ["\\L", "\\P", "\\N", "\\x1c", "\\r"])
def test_a_glossary_term_holding_a_line_break_is_refused_in_one_line(tmp_path: Path, escape: str) -> None:
    path = tmp_path / "glossary.yml"
    path.write_text(f'keep: [MkDocs]\nterms:\n  cache: "缓{escape}存"\n', encoding="utf-8")
    with pytest.raises(ReviewError) as caught:
        load_glossary(path)
    message = str(caught.value)
    assert "glossary.yml:3: " in message and "spans more than one line" in message
    assert "\n" not in message and "\u2028" not in message and "\x85" not in message


def test_eval_references_line_numbers_count_newlines_only(tmp_path: Path) -> None:
    path = tmp_path / "refs.tsv"
    path.write_text("Hello\u2028world.\t你好世界。\nThe cache\x85is fast.\t缓存很快。\nno tab here\n", encoding="utf-8")
    with pytest.raises(ReferencesError, match=r"refs\.tsv:3: expected `english<TAB>reference`"):
        read_tsv(path)


def test_a_bell_written_as_an_escape_reads_back(tmp_path: Path) -> None:
    # gettext and our writer spell BEL "\a"; polib's unescape did not know it (a backslash and an
    # "a" came back, so the entry no longer matched its page and went obsolete at every sync)
    po = new_po()
    for msgid in ("Ring\x07 the bell", "A backslash \\a is not a bell", "\\\x07 both"):
        po.append(polib.POEntry(msgid=msgid, msgstr="响铃", flags=["fuzzy"], tcomment="a comment's \\a stays"))
    po.append(polib.POEntry(msgid="Gone\x07", msgstr="旧\x07", obsolete=True))
    text = render_po(po)
    assert 'msgid "Ring\\a the bell"' in text and 'msgid "A backslash \\\\a is not a bell"' in text
    path = tmp_path / "index.md.po"
    path.write_text(text, encoding="utf-8")
    back = read_po(path)
    assert back is not None
    assert [(e.msgid, e.msgstr, e.tcomment) for e in back] == [(e.msgid, e.msgstr, e.tcomment) for e in po]
    assert render_po(back) == text
