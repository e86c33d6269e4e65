"""Build the position-tracking markdown-it parser that the segmenter reads pages with.

markdown-it-py gives line ranges for blocks but no columns for inline tokens. Every inline rule
is wrapped so that the tokens it pushes record the ``state.pos`` range they came from
(``token.meta["pos"]``, offsets into the inline token's ``content``). Text that reaches the
output through ``state.pending`` gets no range: the segmenter rebuilds it from the gaps between
positioned tokens, which is exact by construction. ``text_join`` and ``fragments_join`` are off
so that nothing merges tokens after their positions were recorded.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline
from mdit_py_plugins.deflist import deflist_plugin
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.front_matter import front_matter_plugin

from . import _blocks, _inline_rules, _paragraphs, _pyhtml, _pymd, _refs, _tables

# Rules whose pushed ``text`` tokens are delimiter runs (one token per delimiter) that the
# post-processors later turn into ``em_open``/``strong_close``/...: they get positions too.
_DELIMITER_RULES = frozenset({"emphasis", "strikethrough"})
# Rules that parse a bracketed label; we remember where the label ends (the ``]``).
_LABEL_RULES = {"link": 0, "image": 1}

InlineRule = Callable[[StateInline, bool], bool]


def _tracked(name: str, rule: InlineRule) -> InlineRule:
    """Wrap ``rule`` so that the tokens it creates remember their source range."""

    def wrapper(state: StateInline, silent: bool) -> bool:
        start = state.pos
        first = len(state.tokens)
        had_pending = bool(state.pending)
        ok = rule(state, silent)
        if not ok or silent:
            return ok
        new = state.tokens[first:]
        if had_pending and not state.pending and new and new[0].type == "text" and "pos" not in new[0].meta:
            new = new[1:]  # the pending text flushed by the first push: not this rule's output
        end = state.pos
        if name in _DELIMITER_RULES:
            cursor = start
            for tok in new:
                if "pos" in tok.meta:
                    continue
                tok.meta["pos"] = (cursor, cursor + len(tok.content))
                cursor += len(tok.content)
        else:
            for tok in new:
                if tok.type != "text" and "pos" not in tok.meta:
                    tok.meta["pos"] = (start, end)
        if name in _LABEL_RULES and new:
            saved = state.pos
            label_end = state.md.helpers.parseLinkLabel(state, start + _LABEL_RULES[name], name == "link")
            state.pos = saved
            for tok in new:
                if tok.meta.get("pos") == (start, end):
                    tok.meta["label_end"] = label_end
        return ok

    return wrapper


def _track_all(md: MarkdownIt) -> None:
    for rule in md.inline.ruler.__rules__:
        rule.fn = _tracked(rule.name, rule.fn)
    md.inline.ruler.__compile__()


@functools.lru_cache(maxsize=2)
def make_parser(front_matter: bool = True) -> MarkdownIt:
    """The one parser configuration: CommonMark plus what MkDocs pages commonly use.

    The plugins mirror Python-Markdown extensions (tables, footnotes, def_list, arithmatex);
    the block and inline rules in ``_blocks``/``_inline_rules`` cover the MkDocs syntax
    markdown-it does not know (admonitions, tabs, snippets, attr_list, emoji, keys, Jinja).
    ``front_matter``: a leading ``---`` block is YAML front matter (else it is page body).
    """
    md = MarkdownIt("commonmark", {"maxNesting": 40}).enable(["table", "strikethrough"])
    if front_matter:
        md.use(front_matter_plugin)
    md.use(footnote_plugin, inline=False, move_to_end=False)
    md.use(deflist_plugin)
    md.use(dollarmath_plugin, allow_labels=False, allow_space=False, allow_digits=False, double_inline=True)
    _blocks.install(md)
    _tables.install(md)
    _paragraphs.install(md)
    _inline_rules.install(md)
    _refs.install(md)
    _pyhtml.install(md)
    _pymd.install(md)
    md.core.ruler.disable("text_join")
    md.inline.ruler2.disable("fragments_join")
    _track_all(md)
    return md


def parse(text: str, *, front_matter: bool = True) -> tuple[list[Any], dict[str, Any]]:
    """Block tokens of ``text`` (already newline-normalised) and the parse environment."""
    env: dict[str, Any] = {}
    tokens = make_parser(front_matter).parse(text, env)
    return tokens, env
