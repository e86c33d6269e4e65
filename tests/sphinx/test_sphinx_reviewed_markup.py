"""Reviewed catalog entries pass the rule reviewed PO entries pass in the MkDocs build: words may
change, markup may not. A rejected entry is ignored (the message is machine-translated instead)
with a warning naming the PO file and line, and counted."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.sphinx.helpers import build, project
from tests.sphinx_helpers import page_facts

PROLOG = 'rst_prolog = ".. role:: raw-html(raw)\\n   :format: html\\n"\n'
HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'


def _catalog(root: Path, name: str, entries: list[tuple[str, str]]) -> dict[str, int]:
    """``locale/zh_CN/LC_MESSAGES/<name>.po`` with ``entries``; msgid -> the line of its ``msgid``."""
    po = root / "locale" / "zh_CN" / "LC_MESSAGES" / f"{name}.po"
    po.parent.mkdir(parents=True, exist_ok=True)
    text, lines = HEADER, {}
    for msgid, msgstr in entries:
        lines[msgid] = text.count("\n") + 1
        esc = lambda s: s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")  # noqa: E731
        text += f'msgid "{esc(msgid)}"\nmsgstr "{esc(msgstr)}"\n\n'
    po.write_text(text, encoding="utf-8")
    return lines


WELCOME = (
    "Welcome to |project|, a small library for building widgets. This guide explains how to "
    ":doc:`install the toolkit <install>`, how to :ref:`use it <usage-basics>` and where to find the :doc:`reference`."
)
READ = (
    "Read the `Python documentation <https://docs.python.org/3/>`_ first if you are new to Python, "
    "and see the `project homepage`_ for news."
)
ALSO = (
    "The `Python documentation`_ also has a tutorial, and `the docs <https://docs.python.org/3/>`_ have a search page."
)
HOSTILE = [
    ("Widget Toolkit", "小部件工具包"),  # words only: used
    (
        WELCOME,
        "欢迎使用 |project|，一个用于构建小部件的小型库。本指南说明如何 :doc:`安装工具包 <install>`、"
        "如何 :ref:`使用它 <usage-basics>` 以及在哪里找到 :doc:`reference`。",
    ),  # the same markup, words changed: used
    ("Indices and tables", "`先读指南 <javascript:alert(document.cookie)>`_ 索引"),  # adds a link
    (":ref:`genindex`", ":raw-html:`<img src=x onerror=alert(1)>` :ref:`genindex`"),  # adds raw HTML
    (READ, "先读 `Python 文档 <javascript:alert(1)>`_，并查看 `project homepage`_ 的新闻。"),  # changes a target
    (ALSO, ".. raw:: html\n\n   <script>alert(1)</script>"),  # a directive in place of a paragraph
    (":ref:`search`", "\u202e:ref:`search`"),  # an invisible control
]
REJECTED = [HOSTILE[i][0] for i in (2, 3, 4, 5, 6)]


def test_reviewed_entries_that_change_markup_are_ignored_with_a_warning(tmp_path: Path) -> None:
    root = project(tmp_path, PROLOG)
    lines = _catalog(root, "index", HOSTILE)
    en = build(root, "en", language="en")
    zh = build(root)
    html = zh.page("index.html")
    assert "javascript:" not in html and "onerror" not in html and "<script>alert" not in html
    assert "\u202e" not in html
    assert page_facts(zh.out / "index.html").hrefs == page_facts(en.out / "index.html").hrefs
    # the accepted reviews are used, the rejected messages machine-translated as if unreviewed
    assert "小部件工具包" in html and "欢迎使用" in html
    assert "「Indices and tables」" in html
    warned = [w for w in zh.warnings.splitlines() if "reviewed translation rejected" in w]
    assert len(warned) == len(REJECTED)
    for msgid in REJECTED:
        where = f"locale/zh_CN/LC_MESSAGES/index.po:{lines[msgid]}: WARNING: zh-translate:"
        assert any(where in w for w in warned), (msgid, warned)
    assert "added link 'javascript:alert(document.cookie)'" in zh.warnings
    assert "added raw 'html <img src=x onerror=alert(1)>'" in zh.warnings
    assert "where the English is a paragraph (a directive or other block markup)" in zh.warnings
    assert "U+202E RIGHT-TO-LEFT OVERRIDE" in zh.warnings
    assert "5 reviewed entries rejected" in zh.status
    assert re.search(r"\d+ messages in \d+ documents: 2 reviewed", zh.status)


def test_strict_fails_on_a_rejected_review(tmp_path: Path) -> None:
    from sphinx.errors import SphinxError

    root = project(tmp_path, "zh_translate_strict = True\n")
    _catalog(root, "index", [("Indices and tables", "`先读指南 <javascript:alert(1)>`_ 索引")])
    with pytest.raises(SphinxError, match=r"strict: 1 place\(s\) where English is left behind or a review"):
        build(root)


def test_every_machine_entry_accepted_as_a_review_is_used(tmp_path: Path) -> None:
    """No false alarm: the sample's catalogs as ``sphinx sync`` writes them (roles, footnotes,
    substitutions, targets, literals), every entry accepted by a reviewer, build with no warning."""
    from mkdocs_zh_translate.cli.app import main

    root = project(tmp_path)
    machine = build(root, "machine", zh_translate_banner=False)
    assert main(["sphinx", "sync", str(root)]) == 0
    for po in (root / "locale" / "zh_CN" / "LC_MESSAGES").glob("*.po"):
        po.write_text(po.read_text(encoding="utf-8").replace("#, fuzzy\n", ""), encoding="utf-8")
    reviewed = build(root, "reviewed", zh_translate_banner=False)
    assert reviewed.warnings == "" and "rejected" not in reviewed.status
    counts = re.search(r"(\d+) messages in \d+ documents: (\d+) reviewed", reviewed.status)
    assert counts is not None and int(counts[2]) > 30
    for page in ("index.html", "usage.html", "install.html", "reference.html", "glossary.html"):
        assert page_facts(reviewed.out / page).text == page_facts(machine.out / page).text, page


def test_myst_reviewed_entry_adding_html_or_a_script_link_is_ignored(tmp_path: Path) -> None:
    pytest.importorskip("myst_parser")
    root = project(tmp_path, 'extensions.append("myst_parser")\n')
    (root / "notes.md").write_text("# Notes\n\nRead the [guide](https://example.org/guide) first.\n", encoding="utf-8")
    index = root / "index.rst"
    index.write_text(index.read_text(encoding="utf-8").replace("   usage\n", "   usage\n   notes\n"), encoding="utf-8")
    msgid = "Read the [guide](https://example.org/guide) first."
    lines = _catalog(
        root,
        "notes",
        [("Notes", "笔记"), (msgid, "先读[指南](https://example.org/guide)。<img src=x onerror=alert(1)>")],
    )
    zh = build(root)
    html = zh.page("notes.html")
    assert "onerror" not in html and "笔记" in html and "「Read the" in html
    assert f"notes.po:{lines[msgid]}: WARNING: zh-translate: reviewed translation rejected (added raw" in zh.warnings


def test_raw_block_review_may_change_its_text_not_its_html(tmp_path: Path) -> None:
    root = project(tmp_path, 'gettext_additional_targets = ["raw"]\n')
    usage = root / "usage.rst"
    usage.write_text(
        usage.read_text(encoding="utf-8")
        + '\n.. raw:: html\n\n   <p class="a">Hello</p>\n\n.. raw:: html\n\n   <p class="b">World</p>\n',
        encoding="utf-8",
    )
    lines = _catalog(
        root,
        "usage",
        [
            ('<p class="a">Hello</p>', '<p class="a">你好</p>'),
            ('<p class="b">World</p>', '<p class="b" onclick="alert(1)">世界</p>'),
        ],
    )
    zh = build(root)
    html = zh.page("usage.html")
    assert '<p class="a">你好</p>' in html and '<p class="b">World</p>' in html and "onclick" not in html
    world = '<p class="b">World</p>'
    assert f"usage.po:{lines[world]}: WARNING" in zh.warnings
    assert "changes the HTML of a raw block" in zh.warnings


def test_reviewed_include_directive_cannot_publish_a_file(tmp_path: Path) -> None:
    """``.. include:: ../secret :literal:`` as a msgstr: Sphinx would put the file's text in
    the page (a literal block is a patch its splice accepts)."""
    root = project(tmp_path)
    (tmp_path / "secret.txt").write_text("TOKEN=do-not-publish\n", encoding="utf-8")
    lines = _catalog(root, "index", [(READ, ".. include:: ../secret.txt\n   :literal:")])
    zh = build(root)
    assert "do-not-publish" not in zh.page("index.html")
    assert f"index.po:{lines[READ]}: WARNING: zh-translate: reviewed translation rejected (is a literal_block" in (
        zh.warnings
    )


def test_reviewed_entries_of_rst_on_a_myst_page_are_used(tmp_path: Path) -> None:
    """reST on a MyST page (a docstring, an ``{eval-rst}`` block) does not survive a MyST parse
    of its own: its entry, written in MyST, is held to the English node, as machine text is. A
    reviewer adding raw HTML there is still refused."""
    pytest.importorskip("myst_parser")
    from mkdocs_zh_translate.cli.app import main
    from tests.sphinx.test_sphinx_rst_in_myst import _myst_project

    root = _myst_project(tmp_path)
    machine = build(root, "machine", zh_translate_banner=False)
    assert main(["sphinx", "sync", str(root)]) == 0
    po = root / "locale" / "zh_CN" / "LC_MESSAGES" / "notes.po"
    for path in po.parent.glob("*.po"):
        path.write_text(path.read_text(encoding="utf-8").replace("#, fuzzy\n", ""), encoding="utf-8")
    reviewed = build(root, "reviewed", zh_translate_banner=False)
    assert "rejected" not in reviewed.warnings + reviewed.status
    assert page_facts(reviewed.out / "notes.html").text == page_facts(machine.out / "notes.html").text
    text = po.read_text(encoding="utf-8")
    start = text.index("{class}`int`")  # the docstring's entry, in MyST
    po.write_text(text[:start] + "<img src=x onerror=alert(1)>" + text[start:], encoding="utf-8")
    hostile = build(root, "hostile", zh_translate_banner=False)
    assert "onerror" not in hostile.page("notes.html")
    assert "notes.po:" in hostile.warnings and "added raw 'html <img src=x onerror=alert(1)>'" in hostile.warnings
