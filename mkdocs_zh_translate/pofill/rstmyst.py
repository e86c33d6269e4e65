"""A translated reST message written back as MyST: for reST text inside a MyST document.

Sphinx parses every translated message with the *document's* parser. On a MyST page that is
Markdown, even for messages whose source is reST (an autodoc'ed docstring, an ``{eval-rst}``
block), so a translation that keeps ``literal``, ``:role:`x``` or ```text <url>`_`` would not
become the English node's literal, cross-reference or link. The message is protected as reST
(:mod:`.rst`: the same placeholder text, the same cache entry) and its validated translation
is written in the MyST syntax that parses to the same nodes: ```literal```, ``{role}`x```,
``[text](url)``, ``**strong**``. reST markup MyST has no inline form for (``name_`` references,
substitutions, footnotes, inline targets) makes the message stay English; whatever is written,
the Sphinx message guard compares the nodes MyST makes of it with the English ones.
"""

from __future__ import annotations

import re

from ..segment import tokenize, validate
from .rst import _EMBEDDED, RstMessage, _match, _Pair, _trim_markup_spaces

_ESCAPE = re.compile(r"[\\`*_\[\]<>{}|$~&]")  # inline Markdown/MyST syntax characters
_BLOCK_START = re.compile(r"[#>%=+-]|\d+[.)]")  # what would start a block at the beginning
_UNESCAPE = re.compile(r"\\(.)", re.S)
_PUNCT = set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def restore_myst(msg: RstMessage, translation: str, default_role: str) -> tuple[str | None, list[str]]:
    """``translation`` (of ``msg``'s placeholder text) as MyST, or (None, problems).

    ``default_role``: the role reST gives ```text``` (Sphinx's ``default_role``, docutils'
    ``title-reference`` when unset); MyST reads single backticks as code, so it is named."""
    problems = validate(msg.text, translation)
    if problems:
        return None, problems
    pieces = _trim_markup_spaces(_pieces(msg, translation))
    out: list[str] = []
    i = 0
    while i < len(pieces):
        kind, piece, pid = pieces[i]
        if kind == "open":
            end = next(j for j in range(i + 1, len(pieces)) if pieces[j][0] == "close" and pieces[j][2] == pid)
            written = _pair(msg.pairs[pid], pieces[i + 1 : end])
            i = end + 1
        else:
            written = _atom(piece, default_role) if kind == "atom" else piece
            i += 1
        if written is None:
            shown = piece if kind == "atom" else msg.pairs[pid].open + "…" + msg.pairs[pid].close
            return None, [f"reST markup MyST has no inline form for: {shown}"]
        out.append(written)
    text = "".join(out)
    start = _BLOCK_START.match(text)
    if start:  # "# x", "- x", "1. x", "% x" would be a heading, list or comment
        text = text[: start.end() - 1] + "\\" + text[start.end() - 1 :]
    return text, []


def _pieces(msg: RstMessage, translation: str) -> list[tuple[str, str, int]]:
    """(kind, text, pair id): text escaped for Markdown; atoms raw reST; pairs by id."""
    pieces: list[tuple[str, str, int]] = []
    stack: list[int] = []
    for kind, value in tokenize(translation):
        if kind == "text":
            pieces.append(("text", str(value), stack[-1] if stack else 0))
        elif kind == "atom":
            raw, markup = msg.atoms[int(value)]
            pieces.append(("atom", raw, 0) if markup else ("text", _plain(raw), stack[-1] if stack else 0))
        elif kind == "open":
            stack.append(int(value))
            pieces.append(("open", "", int(value)))
        else:
            pieces.append(("close", "", stack.pop()))
    return [(k, _escape(t) if k == "text" and not _raw_inside(msg, pid) else t, pid) for k, t, pid in pieces]


def _raw_inside(msg: RstMessage, pid: int) -> bool:
    """A role's title is role content (code, not Markdown): written as it is."""
    return pid in msg.pairs and msg.pairs[pid].kind == "role"


def _plain(raw: str) -> str:
    """A placeholder or escape that is not markup, as the text it renders (escaped later)."""
    if raw.startswith("\\"):
        return "" if raw == "\\ " else raw[1:]
    return raw


def _escape(text: str) -> str:
    return _ESCAPE.sub(lambda m: "\\" + m.group(0), text)


def _unescape(text: str) -> str:
    """reST's backslash escapes removed (``\\ `` is nothing): MyST hands role content on raw."""
    return _UNESCAPE.sub(lambda m: "" if m.group(1).isspace() else m.group(1), text)


def _code(content: str) -> str:
    """A code span holding ``content`` byte for byte (a fence longer than any backtick run)."""
    fence = "`" * (max((len(r) for r in re.findall(r"`+", content)), default=0) + 1)
    pad = " " if content[:1] in ("`", " ") or content[-1:] in ("`", " ") else ""
    return f"{fence}{pad}{content}{pad}{fence}"


def _link(text: str, url: str) -> str | None:
    """``[text](url)``; None for a named target (``name_``), which MyST cannot point at."""
    url = "".join(url.split())
    if url.endswith("_") and not url.endswith("\\_"):
        return None
    url = _unescape(url)
    target = f"<{url}>" if re.search(r"[\s()<>]", url) else url
    return f"[{text}]({target})"


def _atom(raw: str, default_role: str) -> str | None:
    """One kept piece of reST markup in MyST syntax (None: MyST has no inline form for it)."""
    found = _match(raw, 0)
    if found is None:
        return None
    kind, _end, parts = found
    if kind == "literal":
        return _code(raw[2:-2])
    if kind == "role":
        return "{" + parts["role"] + "}" + _code(_unescape(parts["body"]))
    if kind == "suffix_role":
        body, role = raw[1:].split("`:", 1)
        return "{" + role.rstrip(":") + "}" + _code(_unescape(body))
    if kind == "interpreted":
        return "{" + (default_role or "title-reference") + "}" + _code(_unescape(raw[1:-1]))
    if kind in ("uri", "email"):
        return f"<{raw}>"
    if kind == "phrase_ref":
        emb = _EMBEDDED.match(raw[1:].rstrip("_")[:-1])
        if emb:
            return _link(_escape(_unescape(emb.group("text"))) or _escape(emb.group("target")), emb.group("target"))
    return None


def _pair(pair: _Pair, inner: list[tuple[str, str, int]]) -> str | None:
    """A translated pair: its (escaped) words inside the MyST form of its markup."""
    words = "".join(p[1] for p in inner)
    if pair.kind in ("strong", "emphasis"):
        return pair.open + words + pair.close
    if pair.kind == "role":  # :ref:`words <target>` -> {ref}`words <target>`
        role = pair.open[1:-2]
        return "{" + role + "}" + _code(words + _unescape(pair.close[:-1]))
    emb = _EMBEDDED.match("x" + pair.close.rstrip("_")[:-1])
    if pair.kind in ("uri", "ref") and emb:  # `words <url>`_ and `words <url>`__
        return _link(words, emb.group("target"))
    return None  # `name`_, `words <name_>`_, `words`__: MyST has no inline reference to a name
