"""Property test: whatever mix of inline markup a message holds, its Chinese translation written
back by ``restore`` parses (with docutils, as Sphinx would) into the same inline nodes, with no
warnings: no markup lost, none broken by Chinese text touching it."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mkdocs_zh_translate.pofill.rst import protect_rst

docutils = pytest.importorskip("docutils")
from docutils import nodes  # noqa: E402
from docutils.core import publish_doctree  # noqa: E402
from docutils.parsers.rst import roles  # noqa: E402

for _name in ("ref", "doc", "term", "py:func", "kbd"):
    roles.register_generic_role(_name, nodes.inline)

CONSTRUCTS = [
    "``pip install x``",
    ":ref:`usage-basics`",
    ":ref:`the notes <installation>`",
    ":doc:`install the toolkit <install>`",
    ":py:func:`widgets.create_window`",
    ":kbd:`Ctrl+Q`",
    "`Python docs <https://docs.python.org/3/>`_",
    "`this page <https://example.org/p>`__",
    "`home`_",
    "|project|",
    "[#deps]_",
    "[1]_",
    "[ISO9899]_",
    "**numpy**",
    "*single*",
    "_`event loop`",
    "https://example.org/widgets/download",
    "%s",
    "%(count)d",
    "{name}",
]
WORDS = ["the", "toolkit", "depends", "on", "a", "package", "which", "is", "installed", "for", "you"]
SEPARATORS = [" ", ", ", " (", ") ", "; ", ": ", " - "]

PREAMBLE = """
.. |project| replace:: Widget Toolkit
.. _home: https://example.org
.. _字: https://example.org/translated-name
.. _installation:
.. _usage-basics:

"""
FOOTER = """

.. [#deps] Footnote.
.. [1] One.
.. [ISO9899] Citation.
"""
KINDS = (
    nodes.reference,
    nodes.literal,
    nodes.strong,
    nodes.emphasis,
    nodes.footnote_reference,
    nodes.citation_reference,
    nodes.substitution_reference,
    nodes.inline,
    nodes.target,
)


def _han(text: str) -> str:
    parts = re.split(r"(<x\d+/>|</?g\d+>)", text)
    out = []
    for p in parts:
        if re.fullmatch(r"<x\d+/>|</?g\d+>", p):
            out.append(p)
            continue
        p = re.sub(r"[A-Za-z]+", "字", p)
        p = re.sub(r" +", "", p).replace(",", "，").replace(";", "；").replace("(", "（").replace(")", "）")
        out.append(p)
    return "".join(out)


def _inline_nodes(rst: str) -> tuple[Counter[str], list[str]]:
    doc = publish_doctree(
        PREAMBLE + rst + FOOTER,
        settings_overrides={"report_level": 5, "halt_level": 5, "warning_stream": False},
    )
    para = next(n for n in doc.children if isinstance(n, nodes.paragraph))
    counts: Counter[str] = Counter()
    for node in para.findall():
        for kind in KINDS:
            if type(node) is kind:
                if kind is nodes.target and not node.astext():
                    continue  # the name `text <url>`_ defines: the translation writes `text <url>`__
                counts[kind.__name__] += 1
    problems = [n.astext() for n in doc.findall(nodes.system_message) if n["level"] >= 2] + [
        n.astext() for n in doc.findall(nodes.problematic)
    ]
    return counts, problems


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(CONSTRUCTS),
            st.lists(st.sampled_from(WORDS), min_size=1, max_size=3),
            st.sampled_from(SEPARATORS),
        ),
        min_size=1,
        max_size=5,
    )
)
def test_chinese_translation_keeps_every_inline_node(parts: list[tuple[str, list[str], str]]) -> None:
    source = "Start " + "".join(f"{c}{sep}{' '.join(words)} " for c, words, sep in parts).strip() + "."
    if source.count("`home`_") > 1 or source.count("_`event loop`") > 1:
        return  # a name defined twice is a docutils error in English too
    english, english_problems = _inline_nodes(source)
    assert english_problems == [], source
    msg = protect_rst(source)
    assert msg.restore(msg.text)[0] == source
    restored, problems = msg.restore(_han(msg.text))
    assert problems == [] and restored is not None
    # (the preamble defines the translated name 字 too: Sphinx maps it back, docutils cannot)
    chinese, chinese_problems = _inline_nodes(restored.removesuffix(" #noqa"))
    assert chinese_problems == [], restored
    assert chinese == english, restored


@pytest.mark.parametrize(
    "source",
    [
        "Give a value: ``one``, ,``:option:`--two``` or ``three``.",
        "A value,``plain`` text.",
        "Star after a comma,*not* emphasis.",
        "Bar after a stop.|not| a substitution.",
        "Role after a semicolon;:kbd:`x` stays text.",
    ],
)
def test_plain_marks_stay_plain_after_full_width_punctuation(source: str) -> None:
    """reST starts no markup after ASCII "," "." ";", but does after "，" "。" "；": the source's
    plain marks must not turn into markup (or a warning) once the model writes those."""
    english, english_problems = _inline_nodes(source)
    assert english_problems == [], source
    msg = protect_rst(source)
    restored, problems = msg.restore(_han(msg.text).replace(".", "。"))
    assert problems == [] and restored is not None
    chinese, chinese_problems = _inline_nodes(restored)
    assert chinese_problems == [] and chinese == english, restored
