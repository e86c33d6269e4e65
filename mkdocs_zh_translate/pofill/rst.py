"""reStructuredText inline markup <-> the placeholder language, for Sphinx gettext msgids.

A Sphinx msgid is one paragraph (or title, list item, ...) of raw reST. Everything a translator
must not touch becomes an atom ``<xN/>`` (literals, plain roles, footnote and citation
references, substitutions, inline targets, standalone links, format placeholders, escapes);
everything whose *words* are translated but whose *target* is not becomes a pair
``<gN>…</gN>`` (strong, emphasis, ``text <url>``_ links, roles with an explicit title). The
placeholder text is what the engine, the cache and the segmenter's validator see; ``restore``
writes a validated translation back as reST, byte-exact for every protected part.

Chinese has no spaces, and reST only recognises inline markup between whitespace or
punctuation, so ``请参阅**重要**内容`` would not render as bold. Restoring inserts reST's escaped
space ``\\ `` (removed from the output) wherever a Chinese character touches markup.

No docutils at run time: the patterns below follow the reST spec's inline markup recognition
rules closely enough for what Sphinx msgids contain, and the end-to-end test builds the result
with Sphinx.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field

from ..segment import tokenize, validate

# Roles whose explicit title is prose (rendered as text): "title <target>" becomes a pair whose
# title is translated. Every other role (code-like xrefs such as :py:class:, whose titles are
# rendered as code, :kbd:, :math:, ...) is an atom.
_PROSE_TITLE_ROLES = frozenset({"ref", "doc", "term", "numref"})
_ROLE_NAME = r"[A-Za-z0-9](?:[A-Za-z0-9_.+-]|:(?!`))*"

_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("footnote", re.compile(r"\[(?:#[A-Za-z0-9_.:+-]*|\*|[0-9]+|[A-Za-z0-9_.:+-]+)\]_")),
    ("substitution", re.compile(r"\|(?=\S)[^|]*?(?<=\S)\|(?:__?)?")),
    ("uri", re.compile(r"(?:https?|ftp|mailto|file):(?://)?[^\s<>`]*[^\s<>`.,;:!?'\")\]}]")),
    ("email", re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+(?<![.])")),
    ("simple_ref", re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9]|[-._+:](?=[A-Za-z0-9]))*__?")),
]
# Not reST markup, so no boundary rules: format placeholders and backslash escapes.
_ANYWHERE = re.compile(
    r"%\([A-Za-z_][A-Za-z0-9_]*\)[-#0+]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa%]"  # %(name)s
    r"|%[-#0+]*\d*(?:\.\d+)?[diouxXeEfFgGcrs%](?![A-Za-z])"  # %s %d %5.2f %%
    r"|\{[A-Za-z_0-9.\[\]]*(?:![rsa])?(?::[^{}]*)?\}"  # {name} {0} {} {0!r:>10}
    r"|\\[^A-Za-z0-9\s]|\\ "  # \* \` \\ and the escaped space
)
_ROLE_PREFIX = re.compile(r":(?P<role>" + _ROLE_NAME + r"):`")
_ROLE_SUFFIX = re.compile(r":(?P<role>" + _ROLE_NAME + r"):")
_EMBEDDED = re.compile(r"^(?P<text>.*?)\s*(?<!\\)<(?P<target>[^<>]+)>$", re.S)
_ASCII_BEFORE = set("-:/'\"<([{")
# A plain mark (or role prefix) right after non-ASCII text: English reST starts no markup after
# "," "." ";" "!" "?", the model's "，" "。" "；" "！" "？" are punctuation it does start markup
# after, so the source's plain ",``a``" would turn into a literal (or emphasis, a substitution,
# a role) in the translation. Escaped, it reads as the source's text did. A role name is read
# up to 100 characters, so the look-ahead stays linear on any text.
_INERT_RE = re.compile(r"(?<=[^\x00-\x7f])(?:[`*|]|:(?=[^\W_](?:[\w.+-]|:(?!`)){0,99}:(?:`|$)))")
_ASCII_AFTER = set("-.,:;!?\\/'\")]}>")


def _start_ok(text: str, i: int) -> bool:
    """reST's rule for what may precede an inline markup start-string (ASCII: only the listed
    characters; other scripts: opening, initial, final, dash and other punctuation)."""
    if i == 0:
        return True
    ch = text[i - 1]
    if ch.isspace() or ch in _ASCII_BEFORE:
        return True
    return not ch.isascii() and unicodedata.category(ch) in ("Ps", "Pi", "Pf", "Pd", "Po")


def _end_ok(text: str, j: int) -> bool:
    """reST's rule for what may follow an inline markup end-string."""
    if j >= len(text):
        return True
    ch = text[j]
    if ch.isspace() or ch in _ASCII_AFTER:
        return True
    return not ch.isascii() and unicodedata.category(ch) in ("Pe", "Pi", "Pf", "Pd", "Po")


@dataclass(frozen=True)
class _Pair:
    """How to write a translated pair back: ``open`` + words + ``close``."""

    open: str
    close: str
    kind: str  # strong, emphasis, role, ref, name (`name`_), alias (`text <name_>`_), uri (`text <url>`_)
    words: str = ""  # the source words of a name or alias reference


# (kind, text, pair id): kind is "text", "open", "close", "atom" (reST markup) or "plain" (a
# placeholder or escape that is not markup)
_Piece = tuple[str, str, int]


@dataclass
class RstMessage:
    """A msgid in placeholder form, with what each placeholder stands for."""

    source: str
    text: str  # placeholder form: what the engine and the cache see
    atoms: dict[int, tuple[str, bool]] = field(default_factory=dict)  # id -> (bytes, is reST markup)
    pairs: dict[int, _Pair] = field(default_factory=dict)
    # markup characters the source's own plain text already holds harmlessly ("2 * 3"): they
    # are left as the translation has them, so an unchanged text restores byte for byte
    plain: str = ""
    # a reference name or role target with a space in it: the source may have had a line break
    # there, which Sphinx's msgid turned into a space, so Sphinx's own "inconsistent
    # references" check would compare "a\nb" with "a b" and warn about a correct translation
    spaced_target: bool = False
    refnames: list[str] = field(default_factory=list)  # names referred to by `name`_, alias, name_

    @property
    def droppable(self) -> set[int]:
        """Pairs the fallback ladder may drop (emphasis only: dropping a link loses its target)."""
        return {pid for pid, p in self.pairs.items() if p.kind in ("strong", "emphasis")}

    def restore(self, translation: str) -> tuple[str | None, list[str]]:
        """The translation as reST, or (None, problems) when it cannot be written safely."""
        problems = validate(self.text, translation)
        if problems:
            return None, problems
        pieces = _trim_markup_spaces(self._pieces(translation))
        if any(kind == "open" and pieces[i + 1][0] == "close" for i, (kind, _p, _pid) in enumerate(pieces)):
            return None, ["a translated link or emphasis is empty"]
        renamed = self._renamed(pieces)
        self._anonymise_changed_refs(pieces)
        out = _join(pieces)
        if (renamed or self.spaced_target) and out != self.source:  # (Sphinx skips unchanged text)
            # An alias keeps its target, but Sphinx warns that the reference's raw text changed
            # unless the message says it knows (the no-QA suffix added below). Our own validation has
            # checked the references.
            out += " #noqa"
        return out, []

    def _pieces(self, translation: str) -> list[_Piece]:
        """The translation's tokens with the markup they stand for and its words escaped
        (inside a pair by that pair's rules)."""
        pieces: list[_Piece] = []
        stack: list[int] = []
        for kind, value in tokenize(translation):
            if kind == "text":
                words = str(value)
                if stack:
                    words = _escape_inside(words, self.pairs[stack[-1]].kind, self.plain)
                else:
                    words = _escape_text(words, self.plain)
                pieces.append(("text", words, stack[-1] if stack else 0))
            elif kind == "atom":
                raw, markup = self.atoms[int(value)]
                pieces.append(("atom" if markup else "plain", raw, 0))
            elif kind == "open":
                stack.append(int(value))
                pieces.append(("open", self.pairs[int(value)].open, int(value)))
            else:
                stack.pop()
                pieces.append(("close", self.pairs[int(value)].close, int(value)))
        return pieces

    def _renamed(self, pieces: list[_Piece]) -> bool:
        """Whether a name or alias reference now has other words than the source's."""
        renamed = False
        for i, (kind, _piece, pid) in enumerate(pieces):
            if kind != "open":
                continue
            words = "".join(p[1] for p in pieces[i + 1 :][: _close_at(pieces, i) - i - 1])
            if self.pairs[pid].kind in ("name", "alias") and words != self.pairs[pid].words:
                renamed = True
        return renamed

    def _anonymise_changed_refs(self, pieces: list[_Piece]) -> None:
        """References whose words changed rewritten (in place) so they keep pointing where the
        source's did and define no new name."""
        for i, (kind, piece, pid) in enumerate(pieces):
            if kind != "close" or self.pairs[pid].kind not in ("name", "uri"):
                continue
            j = next(n for n in range(i) if pieces[n][0] == "open" and pieces[n][2] == pid)
            if "".join(p[1] for p in pieces[j + 1 : i]) == self.pairs[pid].words:
                continue
            if self.pairs[pid].kind == "name":
                # `name`_ finds its target by its words: translated, it names the same
                # target through an embedded alias, anonymous so it defines no new name
                pieces[i] = (kind, f" <{_alias(self.pairs[pid].words)}>`__", pid)
            else:
                # `text <url>`_ also defines the name "text"; translated, two links to
                # different URLs may get the same words, a duplicate-name error. The
                # anonymous form defines no name (the English name stays registered).
                pieces[i] = (kind, piece + "_", pid)


def _trim_markup_spaces(pieces: list[_Piece]) -> list[_Piece]:
    """reST markup may not start or end with spaces inside it: those are dropped, and so are
    the text pieces left empty."""
    for i, (kind, _piece, pid) in enumerate(pieces):
        if kind == "open" and i + 1 < len(pieces) and pieces[i + 1][0] == "text":
            pieces[i + 1] = ("text", pieces[i + 1][1].lstrip(), pid)
        if kind == "close" and i > 0 and pieces[i - 1][0] == "text":
            pieces[i - 1] = ("text", pieces[i - 1][1].rstrip(), pid)
    return [p for p in pieces if not (p[0] == "text" and not p[1])]


def _join(pieces: list[_Piece]) -> str:
    """The pieces as one text, with ``\\ `` (an escaped space: nothing in the output) where
    markup would otherwise touch a character reST does not allow beside it."""
    out = ""
    for i, (kind, piece, _pid) in enumerate(pieces):
        if kind in ("atom", "open") and out and not _start_ok(out, len(out)):
            out += "\\ "
        out += piece
        if (
            kind in ("atom", "close")
            and i + 1 < len(pieces)
            and pieces[i + 1][0] in ("text", "plain")
            and not _end_ok(pieces[i + 1][1], 0)
        ):
            out += "\\ "
    return out


def _close_at(pieces: list[tuple[str, str, int]], i: int) -> int:
    """Index of the piece that closes the pair opened at ``i``."""
    pid = pieces[i][2]
    return next(j for j in range(i + 1, len(pieces)) if pieces[j][0] == "close" and pieces[j][2] == pid)


def _escape_text(words: str, plain: str) -> str:
    """Characters the model introduced that reST would read as markup, escaped; and the
    source's own plain marks where the model's punctuation would make them markup."""
    words = re.sub(r"[`*|]", lambda m: m.group(0) if m.group(0) in plain else "\\" + m.group(0), words)
    words = _INERT_RE.sub(lambda m: "\\" + m.group(0) if _start_ok(words, m.start()) else m.group(0), words)
    if "_" in plain:
        return words
    return re.sub(r"(?<=\w)_(?=\W|$)", r"\\_", words)


def _escape_inside(words: str, kind: str, plain: str) -> str:
    special = "*`\\" if kind in ("strong", "emphasis") else "`<>\\"
    return "".join("\\" + ch if ch in special and ch not in plain else ch for ch in words)


def protect_rst(source: str, keep_names: Collection[str] = ()) -> RstMessage:
    """``source`` (one msgid of reST) in placeholder form.

    ``keep_names`` are the reference names other messages of the document refer to (see
    ``referenced_names``): a ```text <url>`_`` link whose text is one of them defines that
    name, so its text must stay as it is for the other references to resolve.

    A ```name`_`` reference points at its target *by its words*; translated, it is written
    ```译文 <name_>`__``, which names the same target explicitly."""
    return _protect(source, frozenset(keep_names))


def referenced_names(sources: Iterable[str]) -> set[str]:
    """The reference names (normalised) that ``name``_ references, ``<name_>`` aliases and
    ``name_`` references in ``sources`` point at."""
    names: set[str] = set()
    for source in sources:
        names.update(_protect(source, frozenset()).refnames)
    return names


def backslash_escaped(text: str, k: int) -> bool:
    """Whether the character at ``k`` is backslash-escaped (an odd run of backslashes before it)."""
    n = 0
    while k - 1 - n >= 0 and text[k - 1 - n] == "\\":
        n += 1
    return n % 2 == 1


def _close(text: str, j: int, end: str, *, suffixes: bool = False, escapes: bool = True) -> tuple[int, int, str] | None:
    """The first valid end-string ``end`` for markup whose content starts at ``j``, as reST
    finds it: content not empty, no whitespace before the end-string, not escaped, and an
    allowed character after it (after a ``_``, ``__`` or ``:role:`` suffix for backquotes).
    Returns (content end, markup end, suffix)."""
    if j >= len(text) or text[j].isspace():
        return None
    k = j
    while True:
        k = text.find(end, k + 1)
        if k < 0:
            return None
        if text[k - 1].isspace() or (escapes and backslash_escaped(text, k)):
            continue
        after = k + len(end)
        suffix = ""
        if suffixes:
            m = _ROLE_SUFFIX.match(text, after)
            if text.startswith("__", after):
                suffix = "__"
            elif text.startswith("_", after):
                suffix = "_"
            elif m:
                suffix = m.group(0)
        if _end_ok(text, after + len(suffix)):
            return k, after + len(suffix), suffix


def _match(text: str, i: int) -> tuple[str, int, dict[str, str]] | None:
    """The inline markup starting at ``i`` (a valid start position): kind, end, parts."""
    if text.startswith("``", i):
        found = _close(text, i + 2, "``", escapes=False)
        return ("literal", found[1], {}) if found else None
    m = _ROLE_PREFIX.match(text, i)
    if m:
        found = _close(text, m.end(), "`")
        if found and not found[2]:
            return "role", found[1], {"role": m.group("role"), "body": text[m.end() : found[0]]}
        return None
    if text.startswith("_`", i):
        found = _close(text, i + 2, "`")
        return ("target", found[1], {}) if found and not found[2] else None
    if text.startswith("`", i):
        found = _close(text, i + 1, "`", suffixes=True)
        if not found:
            return None
        body, suffix = text[i + 1 : found[0]], found[2]
        if suffix in ("_", "__"):
            return "phrase_ref", found[1], {"body": body, "tail": suffix}
        return ("suffix_role" if suffix else "interpreted"), found[1], {}
    if text.startswith("**", i):
        found = _close(text, i + 2, "**")
        return ("strong", found[1], {"body": text[i + 2 : found[0]]}) if found else None
    if text.startswith("*", i):
        found = _close(text, i + 1, "*")
        return ("emphasis", found[1], {"body": text[i + 1 : found[0]]}) if found else None
    for kind, pattern in _PATTERNS:
        m = pattern.match(text, i)
        if m and _end_ok(text, m.end()):
            return kind, m.end(), {}
    return None


def _alias(name: str) -> str:
    """A reference name as an embedded alias target (``name_``)."""
    return re.sub(r"(?<!\\)([<>`])", r"\\\1", name) + "_"


def _refname(text: str) -> str:
    """A reference name as docutils normalises it."""
    return " ".join(text.replace("\\", "").split()).lower()


def _protect(source: str, keep_names: frozenset[str]) -> RstMessage:
    p = _Protector(RstMessage(source, ""), keep_names)
    i = text_start = 0
    while i < len(source):
        m = _ANYWHERE.match(source, i)
        if m:
            p.out.append(source[text_start:i])
            p.atom(m.group(0), markup=False)
            i = text_start = m.end()
            continue
        matched = _match(source, i) if _start_ok(source, i) else None
        if matched is None:
            i += 1
            continue
        kind, end, parts = matched
        p.out.append(source[text_start:i])
        _PROTECT.get(kind, _Protector.other)(p, kind, source[i:end], parts)
        i = text_start = end
    p.out.append(source[text_start:])
    msg = p.msg
    msg.text = "".join(p.out)
    text_runs = "".join(part for part in re.split(r"<x\d+/>|</?g\d+>", msg.text))
    msg.plain = "".join(sorted(set(text_runs) & set("`*|_<>\\")))
    return msg


@dataclass
class _Protector:
    """The message being built by :func:`_protect`: its placeholder text so far and the next
    placeholder number. Each kind of inline markup becomes an atom (kept as it is) or a pair
    (its words translated between ``<gN>`` and ``</gN>``)."""

    msg: RstMessage
    keep_names: frozenset[str]
    out: list[str] = field(default_factory=list)
    next_id: int = 1

    def atom(self, raw: str, markup: bool = True) -> None:
        self.msg.atoms[self.next_id] = (raw, markup)
        self.out.append(f"<x{self.next_id}/>")
        self.next_id += 1

    def pair(self, open_: str, words: str, close: str, kind: str) -> None:
        pid = self.next_id
        self.next_id += 1
        self.msg.pairs[pid] = _Pair(open_, close, kind, words if kind in ("name", "alias", "uri") else "")
        self.out.append(f"<g{pid}>")
        pos = 0
        for m in _ANYWHERE.finditer(words):  # placeholders inside the words stay atoms
            self.out.append(words[pos : m.start()])
            self.atom(m.group(0), markup=False)
            pos = m.end()
        self.out.append(words[pos:])
        self.out.append(f"</g{pid}>")

    def role(self, kind: str, raw: str, parts: dict[str, str]) -> None:
        """``:ref:`words <target>``` and the like: the words translated; any other role kept."""
        role, body = parts["role"], parts["body"]
        emb = _EMBEDDED.match(body)
        base = role.lower().removeprefix("std:")
        if emb and emb.group("text").strip() and base in _PROSE_TITLE_ROLES:
            self.pair(f":{role}:`", emb.group("text"), body[len(emb.group("text")) :] + "`", "role")
            self.msg.spaced_target |= any(ch.isspace() for ch in emb.group("target"))
        else:
            self.atom(raw)
            self.msg.spaced_target |= any(ch.isspace() for ch in body)

    def phrase_ref(self, kind: str, raw: str, parts: dict[str, str]) -> None:
        """A backquoted reference: its words translated unless other references use the name
        it defines, or it has no words of its own."""
        body, tail = parts["body"], parts["tail"]
        emb = _EMBEDDED.match(body)
        if emb and tail == "_" and _refname(emb.group("text")) in self.keep_names:
            self.atom(raw)  # other references use the name this link defines
        elif emb and emb.group("text").strip():  # `text <target>`_ : words translated
            self._embedded_ref(emb, body, tail)
        elif emb:  # `<target>`_
            self.atom(raw)
        elif tail == "_":
            self.msg.refnames.append(_refname(body))
            self.msg.spaced_target |= any(ch.isspace() for ch in body)
            self.pair("`", body, "`_", "name")
        else:  # `words`__ : anonymous, matched to its target by order
            self.pair("`", body, "`__", "ref")

    def _embedded_ref(self, emb: re.Match[str], body: str, tail: str) -> None:
        """```text <target>`_``: the text translated; a named target (``<name_>``) noted."""
        # `text <name_>`_ points at a named target: Sphinx compares its raw text
        alias = re.search(r"(?<!\\)_$", emb.group("target")) is not None
        self.msg.spaced_target |= alias and any(ch.isspace() for ch in emb.group("target"))
        if alias:
            self.msg.refnames.append(_refname(emb.group("target")[:-1]))
        self.pair(
            "`",
            emb.group("text"),
            body[len(emb.group("text")) :] + "`" + tail,
            "alias" if alias else "uri" if tail == "_" else "ref",
        )

    def simple_ref(self, kind: str, raw: str, parts: dict[str, str]) -> None:
        """``name_`` kept; its name noted (``name__`` is anonymous: it names nothing)."""
        if not raw.endswith("__"):
            self.msg.refnames.append(_refname(raw[:-1]))
        self.atom(raw)

    def emphasis(self, kind: str, raw: str, parts: dict[str, str]) -> None:
        marker = "**" if kind == "strong" else "*"
        self.pair(marker, parts["body"], marker, kind)

    def other(self, kind: str, raw: str, parts: dict[str, str]) -> None:
        self.atom(raw)


_PROTECT: dict[str, Callable[[_Protector, str, str, dict[str, str]], None]] = {
    "role": _Protector.role,
    "phrase_ref": _Protector.phrase_ref,
    "simple_ref": _Protector.simple_ref,
    "strong": _Protector.emphasis,
    "emphasis": _Protector.emphasis,
}
