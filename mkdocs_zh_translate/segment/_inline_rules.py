"""Inline rules that turn MkDocs-only syntax into tokens the segmenter keeps as atoms.

Each rule only recognises its construct and pushes one ``zh_atom`` token (``info`` says which):
Jinja ``{{ … }}``/``{% … %}``, mdx_include ``{! file !}``, attr_list ``{ #id .cls }``, emoji ``:smile:``, keys
``++ctrl+c++``, bracket math ``\\(…\\)``/``\\[…\\]`` and bare URLs. Rendering is never asked of
this parser, so the tokens need no renderer.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline

# Linear time on untrusted text: every repetition below is atomic or possessive (no nested
# quantifier can backtrack), and delimited constructs are found with ``_Closer`` instead of a
# lazy ``.*?`` that would rescan the rest of the text from every opening brace.
# `{! path !}` is mdx_include's include (FastAPI-style docs): a file name, never prose; kept as
# the Jinja tags are (translated, the path broke and the included text stayed English anyway).
_JINJA_CLOSE = {"{{": "}}", "{%": "%}", "{#": "#}", "{!": "!}"}
_ATTR_RE = re.compile(
    r"""\{:?[ \t]*+(?>(?:[#.][\w:-]++|[\w-]++=(?:"[^"\n]*+"|'[^'\n]*+'|[^\s{}]++))[ \t]*+)++\}"""
)
_EMOJI_RE = re.compile(r":[a-z0-9_+-]+:")
_KEYS_RE = re.compile(r"\+\+[\w-]+(?:\+[\w-]+)*\+\+")
_MATH_CLOSE = {"\\(": "\\)", "\\[": "\\]"}
_SCHEMES = ("https", "http", "ftp")
_URL_TAIL_RE = re.compile(r"://[^\s<>`\u3000-\u303f\uff00-\uffef]+")
_URL_TRAILING = ".,:;!?'\"*_~"


def _push_atom(state: StateInline, kind: str, start: int, end: int) -> None:
    token = state.push("zh_atom", "", 0)
    token.info = kind
    token.content = state.src[start:end]
    token.meta["pos"] = (start, end)
    state.pos = end


InlineRule = Callable[[StateInline, bool], bool]


def _regex_rule(kind: str, first: str, pattern: re.Pattern[str], *, word_bounded: bool = False) -> InlineRule:
    """A rule that turns a match of ``pattern`` at ``state.pos`` into one atom.

    ``word_bounded``: only between non-word characters, so ``10:30:45`` is not an emoji.
    """

    def rule(state: StateInline, silent: bool) -> bool:
        if state.src[state.pos] not in first:
            return False
        if word_bounded and (state.pending[-1:].isalnum() or state.src[state.pos - 1 : state.pos].isalnum()):
            return False
        m = pattern.match(state.src, state.pos, state.posMax)
        if not m or (word_bounded and state.src[m.end() : m.end() + 1].isalnum()):
            return False
        if not silent:
            _push_atom(state, kind, state.pos, m.end())
        else:
            state.pos = m.end()
        return True

    rule.__name__ = f"zh_{kind}"
    return rule


def _delimited_rule(kind: str, closers: dict[str, str], min_inner: int) -> InlineRule:
    """A rule for ``open … close`` atoms (Jinja tags, bracket math), linear in the text.

    The first closer after an opener is found with ``str.find``; the answer is remembered per
    source text (in ``state.env``), so a text of many openers and no closer (``{{`` × 40,000)
    is scanned once, not once per opener."""

    def rule(state: StateInline, silent: bool) -> bool:
        src, pos = state.src, state.pos
        close = closers.get(src[pos : pos + 2])
        if close is None:
            return False
        end = _find_closer(state, close, pos + 2 + min_inner)
        if end < 0:
            return False
        if not silent:
            _push_atom(state, kind, pos, end + len(close))
        else:
            state.pos = end + len(close)
        return True

    rule.__name__ = f"zh_{kind}"
    return rule


def _find_closer(state: StateInline, close: str, start: int) -> int:
    """``state.src.find(close, start, state.posMax)``, amortised linear over one parse: a
    search that found nothing, or found a closer at or after ``start``, answers later ones."""
    memo: dict[tuple[str, str], tuple[int, int]] = state.env.setdefault("_zh_closers", {})
    key = (close, state.src)
    seen = memo.get(key)
    if seen is not None and seen[0] <= start:
        found = seen[1]
        if found < 0:
            return -1
        if found >= start:
            return found if found + len(close) <= state.posMax else -1
    found = state.src.find(close, start)
    memo[key] = (start, found)
    return found if found >= 0 and found + len(close) <= state.posMax else -1


def _url_end(text: str, start: int, end: int) -> int:
    """Trim trailing punctuation the way linkifiers do, keeping balanced parentheses (the
    counts are kept while trimming: ``)`` × n stays linear)."""
    opened, closed = text.count("(", start, end), text.count(")", start, end)
    while end > start:
        ch = text[end - 1]
        if ch in _URL_TRAILING:
            end -= 1
        elif ch == ")" and opened < closed:
            end -= 1
            closed -= 1
        else:
            break
    return end


def bare_url(state: StateInline, silent: bool) -> bool:
    """``https://…`` in running text: the scheme is already in ``pending``; take it back."""
    if state.src[state.pos] != ":" or not state.pending:
        return False
    tail = state.pending[-6:].lower()
    size = next((len(s) for s in _SCHEMES if tail.endswith(s)), 0)
    before = state.pending[-size - 1 : -size] if len(state.pending) > size else ""
    if not size or before.isalnum() or before == "_":
        return False
    m = _URL_TAIL_RE.match(state.src, state.pos, state.posMax)
    if not m:
        return False
    end = _url_end(state.src, state.pos, m.end())
    if end - state.pos <= 3:
        return False
    if silent:
        return False  # the scheme lives in pending, which a silent probe must not touch
    state.pending = state.pending[:-size]
    _push_atom(state, "url", state.pos - size, end)
    return True


def install(md: MarkdownIt) -> None:
    ruler = md.inline.ruler
    ruler.before("escape", "zh_math", _delimited_rule("math", _MATH_CLOSE, 1))
    ruler.before("escape", "zh_jinja", _delimited_rule("jinja", _JINJA_CLOSE, 0))
    ruler.before("escape", "zh_attr", _regex_rule("attr", "{", _ATTR_RE))
    ruler.before("escape", "zh_keys", _regex_rule("keys", "+", _KEYS_RE))
    ruler.before("escape", "zh_url", bare_url)
    ruler.before("escape", "zh_emoji", _regex_rule("emoji", ":", _EMOJI_RE, word_bounded=True))
