"""reST inline markup protection: what becomes an atom or a pair, byte-exact restore, Chinese
next to markup, and translations that break markup being refused."""

from __future__ import annotations

import re

import pytest

from mkdocs_zh_translate.pofill.rst import protect_rst

SAMPLES = [
    "Install with ``pip install widget-toolkit`` now.",
    "See :ref:`usage-basics` and :doc:`the install page <install>` and :py:func:`~widgets.create_window`.",
    "Read the `Python docs <https://docs.python.org/3/>`_ and `this <https://example.org>`__ page.",
    "Press :kbd:`Ctrl+Q` or read :abbr:`LIFO (last-in, first-out)` and :term:`layout <layout manager>`.",
    "Welcome to |project| |version|_, see [#deps]_, [1]_, [*]_ and [ISO9899]_.",
    "A *single* package, **numpy**, and an _`event loop` target, `default role` text.",
    "Download from https://example.org/widgets/download or write to team@example.org.",
    "Format %s, %d, %(name)s, %5.2f, 100%% done, {name}, {0}, {} and {value!r:>10}.",
    "Escaped \\*stars\\* and a\\ b and \\`ticks\\` stay.",
    "Simple refs like Python_ and anonymous__ ones, and `event loop`_ words.",
    "A suffix `role text`:math: form.",
]


@pytest.mark.parametrize("source", SAMPLES)
def test_identity_translation_restores_byte_exact(source: str) -> None:
    msg = protect_rst(source)
    restored, problems = msg.restore(msg.text)
    assert problems == []
    assert restored == source


@pytest.mark.parametrize(
    ("source", "protected"),
    [
        ("Run ``make`` now.", "Run <x1/> now."),
        ("See :ref:`usage-basics`.", "See <x1/>."),
        ("See :ref:`the notes <installation>`.", "See <g1>the notes</g1>."),
        ("Read :doc:`install the toolkit <install>`.", "Read <g1>install the toolkit</g1>."),
        ("Press :kbd:`Ctrl <Q>` now.", "Press <x1/> now."),  # kbd is never a title <target>
        ("The :mod:`linkcode <sphinx.ext.linkcode>` extension.", "The <x1/> extension."),  # code title
        ("See :std:ref:`the notes <inst>`.", "See <g1>the notes</g1>."),
        ("Read the `Python docs <https://python.org>`_ first.", "Read the <g1>Python docs</g1> first."),
        ("See the `project homepage`_.", "See the <g1>project homepage</g1>."),
        ("See `a`_ and `b`_.", "See <g1>a</g1> and <g2>b</g2>."),
        ("A |subst| and [#n]_ and [CIT]_ here.", "A <x1/> and <x2/> and <x3/> here."),
        ("A **bold** and *em* word.", "A <g1>bold</g1> and <g2>em</g2> word."),
        ("An _`inline target` here.", "An <x1/> here."),
        ("Go to https://example.org/x now.", "Go to <x1/> now."),
        ("Has %s and %(n)d and {name} and {0}.", "Has <x1/> and <x2/> and <x3/> and <x4/>."),
        ("100% sure, 50 % off, {not a field}", "100% sure, 50 % off, {not a field}"),
        ("snake_case and 2 * 3 and a*b stay text", "snake_case and 2 * 3 and a*b stay text"),
        ("not markup: ,``x`` and a,*b*", "not markup: ,``x`` and a,*b*"),  # "," may not precede
        ("markup: 「``x``」 and （*b*）", "markup: 「<x1/>」 and （<g2>b</g2>）"),
        ("**%s files** found", "<g1><x2/> files</g1> found"),
    ],
)
def test_what_is_protected(source: str, protected: str) -> None:
    assert protect_rst(source).text == protected


def _han(text: str) -> str:
    """Replace the words of the text runs by Han characters, as a Chinese translation would."""
    parts = re.split(r"(<x\d+/>|</?g\d+>)", text)
    return "".join(p if re.fullmatch(r"<x\d+/>|</?g\d+>", p) else re.sub(r"[A-Za-z ]+", "中文", p) for p in parts)


def test_chinese_touching_markup_gets_escaped_spaces() -> None:
    msg = protect_rst("Use the **numpy** package with ``pip`` and :ref:`the notes <inst>` please.")
    restored, problems = msg.restore(_han(msg.text))
    assert problems == []
    assert restored == "中文\\ **中文**\\ 中文\\ ``pip``\\ 中文\\ :ref:`中文 <inst>`\\ 中文."


def test_no_escape_next_to_spaces_or_punctuation() -> None:
    msg = protect_rst("Use **numpy**, then ``pip``.")
    restored, _ = msg.restore("用 <g1>numpy</g1>，然后「<x2/>」。")
    assert restored == "用 **numpy**，然后「``pip``」。"


def test_spaces_inside_markup_are_trimmed_and_new_markup_characters_escaped() -> None:
    msg = protect_rst("A **bold** move and `docs <https://d.org>`_ here.")
    restored, problems = msg.restore("一个<g1> 大胆 </g1>的 *举动* 和 <g2>文档 `x`</g2>。")
    assert problems == []
    assert restored == "一个\\ **大胆**\\ 的 \\*举动\\* 和 `文档 \\`x\\` <https://d.org>`__。"


@pytest.mark.parametrize(
    "broken",
    [
        "丢了占位符。",  # lost the literal
        "<x1/><x1/> 重复。",  # repeated
        "<g2>链接 <x1/>。",  # unclosed pair
        "<x1/> 和 <g2></g2>。",  # empty link text
        "<x1/> 和 <g2>  </g2>。",  # blank link text
        "<x1/> 和 <x3/> <g2>链接</g2>。",  # invented placeholder
    ],
)
def test_broken_translations_are_refused(broken: str) -> None:
    msg = protect_rst("Run ``make`` and `the docs <https://d.org>`_.")
    restored, problems = msg.restore(broken)
    assert restored is None and problems


def test_a_translated_name_reference_points_at_its_target_through_an_alias() -> None:
    msg = protect_rst("See the `event loop`_ docs and `GitHub`_.")
    assert msg.restore("见<g1>事件循环</g1>文档和<g2>GitHub</g2>。")[0] == (
        "见\\ `事件循环 <event loop_>`__\\ 文档和\\ `GitHub`_。 #noqa"
    )
    # a name with a space may have been a line break in the source: Sphinx would warn anyway
    assert msg.restore("见 <g1>event loop</g1> 文档和 <g2>GitHub</g2>。")[0] == "见 `event loop`_ 文档和 `GitHub`_。 #noqa"
    msg = protect_rst("See the Python_ docs and `a <b>`_.")
    assert msg.restore("见 <x1/> 文档和 <g2>a</g2>。")[0] == "见 Python_ 文档和 `a <b>`_。"
    from mkdocs_zh_translate.pofill.rst import _alias

    assert _alias("a<b> c") == "a\\<b\\> c_" and _alias("a\\<b") == "a\\<b_"


def test_a_translated_alias_reference_is_marked_noqa_and_keeps_its_target() -> None:
    msg = protect_rst("Read about `built-in nodes <docutils nodes_>`_ and `this <https://u.org>`_.")
    assert msg.restore("阅读<g1>内置节点</g1>和<g2>这个</g2>。")[0] == (
        "阅读\\ `内置节点 <docutils nodes_>`_\\ 和\\ `这个 <https://u.org>`__。 #noqa"
    )
    msg = protect_rst("Read `this <https://u.org>`_.")
    # translated, a named link to a URL becomes anonymous: two links must not get one name
    assert msg.restore("阅读<g1>这个</g1>。")[0] == "阅读\\ `这个 <https://u.org>`__。"
    assert msg.restore("Read <g1>this</g1>.")[0] == "Read `this <https://u.org>`_."


def test_a_link_whose_name_other_messages_use_keeps_its_text() -> None:
    from mkdocs_zh_translate.pofill.rst import referenced_names

    names = referenced_names(["The `Python documentation`_ has a tutorial.", "See Python_ and `a <b c_>`__."])
    assert names == {"python documentation", "python", "b c"}
    source = "Read the `Python documentation <https://docs.python.org/3/>`_ first."
    assert protect_rst(source, names).text == "Read the <x1/> first."
    assert protect_rst(source).text == "Read the <g1>Python documentation</g1> first."


def test_emphasis_is_droppable_links_are_not() -> None:
    msg = protect_rst("A **b** and :ref:`t <x>` and `l <u>`_.")
    assert msg.droppable == {1}


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="ab :`*_|[]#<>%(){}\\.-/sx0\u4e2d", max_size=60))
def test_any_text_protects_and_restores_byte_exact(source: str) -> None:
    msg = protect_rst(source)
    restored, problems = msg.restore(msg.text)
    if problems:  # only a source without words or with placeholder look-alikes may be refused
        assert "empty translation" in problems or "<" in source
        return
    assert restored == source


def test_plain_mark_escaping_is_linear_in_the_text() -> None:
    # Every ":" after a non-ASCII letter starts a look for a role name; "é:é:…" once made each
    # look scan the rest of the text (quadratic). The text comes from the model.
    from growth import assert_linear, growth_ratios

    from mkdocs_zh_translate.pofill.rst import _escape_text

    assert_linear("plain marks after non-ASCII text",
                  lambda: growth_ratios(lambda n: "é:" * n, 2000, run=lambda t: _escape_text(t, "")))
