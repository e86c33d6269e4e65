"""The one PO line scanner: every kind of line typed with its number, and ``po fill`` cutting a
catalog into lines once for both the strict checker and the editor."""

from __future__ import annotations

import pytest

from mkdocs_zh_translate.pofill import catalog as catalog_module
from mkdocs_zh_translate.pofill.catalog import CatalogError, parse_catalog
from mkdocs_zh_translate.review import poscan
from mkdocs_zh_translate.review.pocheck import PoSyntaxError, check_lines, check_po
from mkdocs_zh_translate.review.poscan import Kind, scan_text

SAMPLE = """\
# translator
#. extracted
#: usage.rst:3
#, fuzzy, python-format
#| msgid "old"
msgctxt "menu"
msgid ""
"Open"
msgstr[1]\t"打开"

#~ msgid "gone"
#~| msgid "older"
#~
#~ "more"
#~ #, fuzzy
oops here
"""


def test_every_kind_of_line_is_typed_with_its_number() -> None:
    lines = scan_text(SAMPLE)
    got = [(x.number, x.kind, x.mark, x.keyword, x.rest, x.obsolete) for x in lines]
    assert got == [
        (1, Kind.COMMENT, "#", "", "", False),
        (2, Kind.COMMENT, "#.", "", "", False),
        (3, Kind.COMMENT, "#:", "", "", False),
        (4, Kind.COMMENT, "#,", "", "", False),
        (5, Kind.COMMENT, "#|", "", "", False),
        (6, Kind.KEYWORD, "", "msgctxt", '"menu"', False),
        (7, Kind.KEYWORD, "", "msgid", '""', False),
        (8, Kind.STRING, "", "", "", False),
        (9, Kind.KEYWORD, "", "msgstr[1]", '"打开"', False),
        (10, Kind.BLANK, "", "", "", False),
        (11, Kind.KEYWORD, "", "msgid", '"gone"', True),
        (12, Kind.COMMENT, "#|", "", "", True),
        (13, Kind.COMMENT, "#~", "", "", True),
        (14, Kind.STRING, "", "", "", True),
        (15, Kind.COMMENT, "#,", "", "", True),
        (16, Kind.OTHER, "", "", "", False),
    ]
    # bodies: blanks and an obsolete entry's "#~" gone; "#~|" reads as a live "#|"
    assert [x.body for x in lines[10:15]] == ['msgid "gone"', '#| msgid "older"', "", '"more"', "#, fuzzy"]


@pytest.mark.parametrize(
    ("line", "kind", "keyword"),
    [
        ('msgid"x"', Kind.KEYWORD, "msgid"),  # msgfmt needs no blank before the string
        ('msgid_plural "x"', Kind.KEYWORD, "msgid_plural"),
        ('msgstr[12] "x"', Kind.KEYWORD, "msgstr[12]"),
        ('msgidx "x"', Kind.OTHER, ""),  # a misspelt keyword is no keyword
        ("msgstr[x] 'y'", Kind.OTHER, ""),
        ("   \t", Kind.BLANK, ""),
        ('  "indented"  ', Kind.STRING, ""),
        ("#~~", Kind.OTHER, ""),
    ],
)
def test_keywords_and_strings(line: str, kind: Kind, keyword: str) -> None:
    (scanned,) = scan_text(line)
    assert (scanned.kind, scanned.keyword) == (kind, keyword)


def test_the_checker_reads_scanned_lines_and_names_the_line() -> None:
    text = 'msgid "a"\nmsgstr "b"\n\n#~ #, fuzzy\n'
    with pytest.raises(PoSyntaxError) as caught:
        check_lines(scan_text(text))
    assert caught.value.line == 4 and "not PO syntax" in caught.value.message
    with pytest.raises(PoSyntaxError) as again:
        check_po(text)
    assert again.value.line == 4


def test_po_fill_scans_a_catalog_once_for_checker_and_editor(monkeypatch: pytest.MonkeyPatch) -> None:
    text = '# c\nmsgid "a"\nmsgstr ""\n\n#, fuzzy\nmsgid "b"\nmsgstr "乙"\n'
    calls: list[int] = []
    classify = poscan.classify

    def counting(number: int, raw: str) -> poscan.PoLine:
        calls.append(number)
        return classify(number, raw)

    monkeypatch.setattr(poscan, "classify", counting)
    catalog = parse_catalog(text, "x.po")
    assert calls == list(range(1, 8))  # each line classified once, not once per reader
    assert [(e.msgid, e.flags) for e in catalog.entries] == [("a", []), ("b", ["fuzzy"])]
    assert catalog_module.scan_lines is poscan.scan_lines


def test_editor_errors_keep_file_and_line() -> None:
    # the checker lets a "#~|" line sit inside a live msgstr; the editor, stricter, does not
    text = 'msgid "x"\nmsgstr "a"\n#~| msgid "q"\n"b"\n'
    check_po(text)
    with pytest.raises(CatalogError, match=r"^x\.po:4: malformed PO file: not PO syntax$"):
        parse_catalog(text, "x.po")
