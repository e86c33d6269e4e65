"""Translation text -> Markdown for one segment (the write half of the segmenter).

Placeholders become the exact source bytes again. Where the text changed, the splice also
repairs what Chinese text breaks in Markdown: ``_`` emphasis is written ``*``, a delimiter that
would fail CommonMark's flanking rules next to CJK punctuation gets a space, characters the
model introduced that Markdown would read as syntax become entities, a bare URL never touches
non-ASCII text (the autolinker would swallow it), and a new line starts with the block's prefix.
An unchanged translation gives back the source bytes exactly.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections import Counter

from ._model import EMPHASIS_ROLES, Restore, Segment
from ._placeholders import tokenize, validate, without_pairs

# Characters Markdown may read as syntax, and how to write them as plain text. Python-Markdown
# has no backslash escape for some of them, so entities it is.
_ENTITIES = {
    "<": "&lt;",
    "[": "&#91;",
    "]": "&#93;",
    "*": "&#42;",
    "_": "&#95;",
    "`": "&#96;",
    "\\": "&#92;",
    "$": "&#36;",
    "{": "&#123;",
    "}": "&#125;",
    "~": "&#126;",
}
_ENTITY_LIKE_RE = re.compile(r"&(?=#?\w+;)")
_LINE_START_RE = re.compile(
    r"^([ \t]*)(?:(#{1,6})(?=[ \t]|$)|(>)|([-+*])(?=[ \t]|$)|(\d{1,9})([.)])(?=[ \t]|$)|(!!!|\?\?\?|===)|(:)(?=[ \t]))"
)
_EMPHASIS = EMPHASIS_ROLES
_YAML_PLAIN_BAD = re.compile(r"^[\s\-?:,\[\]{}#&*!|>'\"%@`]|: | #|:$|\s$")


def _is_ws(ch: str) -> bool:
    return not ch or ch.isspace()


def _is_punct(ch: str) -> bool:
    return bool(ch) and unicodedata.category(ch)[0] in "PS"


def _escape_specials(text: str, chars: set[str], table: bool) -> str:
    if "&" in chars:  # first, so the entities written below are not escaped again
        text = _ENTITY_LIKE_RE.sub("&amp;", text)
    for ch in sorted(chars - {"&"}):
        text = text.replace(ch, _ENTITIES[ch])
    if table:
        text = re.sub(r"(?<!\\)\|", r"\\|", text)
    return text


def line_start_markers(text: str) -> frozenset[str]:
    """Block markers that already start a line of the source text (they were not block syntax
    there, so they are not in the translation either)."""
    found = set()
    for line in text.split("\n"):
        m = _LINE_START_RE.match(line)
        if m:
            found.add(m.group(0).strip())
    return frozenset(found)


def _escape_line_start(line: str, keep: frozenset[str] = frozenset()) -> str:
    m = _LINE_START_RE.match(line)
    if not m or m.group(0).strip() in keep:
        return line
    indent = m.group(1)
    rest = line[len(indent) :]
    if m.group(5):  # "1. " -> "1&#46; "
        digits = m.group(5)
        return indent + digits + f"&#{ord(m.group(6))};" + rest[len(digits) + 1 :]
    return indent + f"&#{ord(rest[0])};" + rest[1:]


def _introduced(source_text: str, translated_text: str) -> set[str]:
    """Special characters the translation has more of than the source: the model wrote them."""
    src, out = Counter(source_text), Counter(translated_text)
    found = {ch for ch in _ENTITIES if out[ch] > src[ch]}
    if len(_ENTITY_LIKE_RE.findall(translated_text)) > len(_ENTITY_LIKE_RE.findall(source_text)):
        found.add("&")
    return found


class _Chunks:
    """Output pieces with their kind, so repairs can look at their neighbours."""

    def __init__(self, before: str, after: str) -> None:
        self.parts: list[list[str]] = []  # [kind, role, text]
        self.before = before
        self.after = after

    def add(self, kind: str, role: str, text: str) -> None:
        self.parts.append([kind, role, text])

    def prev_char(self, index: int) -> str:
        for _kind, _role, text in reversed(self.parts[:index]):
            if text:
                return text[-1]
        return self.before

    def next_char(self, index: int) -> str:
        for _kind, _role, text in self.parts[index + 1 :]:
            if text:
                return text[0]
        return self.after

    def text(self) -> str:
        return "".join(part[2] for part in self.parts)


def _fix_flanking(chunks: _Chunks) -> None:
    """Make every run of emphasis delimiters open/close under CommonMark's flanking rules.

    ``**注意：**请`` does not render: the closing run follows punctuation and precedes a letter.
    A space after it (or before an opening run) fixes that; so does moving whitespace from the
    inside of a pair to its outside.
    """
    parts = chunks.parts
    i = 0
    while i < len(parts):
        if not _is_delimiter(parts[i]):
            i += 1
            continue
        j = i
        while j + 1 < len(parts) and _is_delimiter(parts[j + 1]):
            j += 1
        kinds = {parts[k][0] for k in range(i, j + 1)}
        prev, nxt = chunks.prev_char(i), chunks.next_char(j)
        space_before = "open" in kinds and _fix_opener(parts, j, prev, nxt)
        space_after = "close" in kinds and _fix_closer(parts, i, prev, nxt)
        if space_after:
            parts.insert(j + 1, ["text", "", " "])
        if space_before:
            parts.insert(i, ["text", "", " "])
            j += 1
        i = j + 1


def _is_delimiter(part: list[str]) -> bool:
    """An emphasis-like opening or closing run (a run of them is checked as one)."""
    return part[1] in _EMPHASIS and part[0] in ("open", "close")


def _left_flanking(prev: str, nxt: str) -> bool:
    """CommonMark: a run can open when followed by a non-space that is not punctuation, or by
    punctuation with whitespace or punctuation before the run."""
    return not _is_ws(nxt) and (not _is_punct(nxt) or _is_ws(prev) or _is_punct(prev))


def _right_flanking(prev: str, nxt: str) -> bool:
    """CommonMark: the mirror of ``_left_flanking``, for a run that closes."""
    return not _is_ws(prev) and (not _is_punct(prev) or _is_ws(nxt) or _is_punct(nxt))


def _fix_opener(parts: list[list[str]], j: int, prev: str, nxt: str) -> bool:
    """An opening run that cannot open: move the inner space out (strip it after the run).
    True when a space must go before the run."""
    if _left_flanking(prev, nxt):
        return False
    if _is_ws(nxt) and nxt and j + 1 < len(parts) and parts[j + 1][0] == "text":
        parts[j + 1][2] = parts[j + 1][2].lstrip()
    return not _is_ws(prev)


def _fix_closer(parts: list[list[str]], i: int, prev: str, nxt: str) -> bool:
    """A closing run that cannot close: move the inner space out (strip it before the run).
    True when a space must go after the run."""
    if _right_flanking(prev, nxt):
        return False
    if _is_ws(prev) and prev and i > 0 and parts[i - 1][0] == "text":
        parts[i - 1][2] = parts[i - 1][2].rstrip()
    return not _is_ws(nxt)


def _needs_star(prev: str, nxt: str) -> bool:
    """``_`` emphasis next to a CJK letter never renders (it counts as intraword): use ``*``."""
    return any(ch and not ch.isascii() and not ch.isspace() and not _is_punct(ch) for ch in (prev, nxt))


def _underscores_to_stars(chunks: _Chunks) -> None:
    """Write a ``_``/``__`` pair as ``*``/``**`` when any side of it touches a CJK letter."""
    parts = chunks.parts
    opens: list[int] = []
    for index, (kind, role, text) in enumerate(parts):
        if role not in _EMPHASIS or "_" not in text:
            continue
        if kind == "open":
            opens.append(index)
        elif kind == "close" and opens:
            first = opens.pop()
            sides = (chunks.prev_char(first), chunks.next_char(first), chunks.prev_char(index), chunks.next_char(index))
            if _needs_star(*sides[:2]) or _needs_star(*sides[2:]):
                parts[first][2] = parts[first][2].replace("_", "*")
                parts[index][2] = text.replace("_", "*")


def _touches(role: str, ch: str) -> bool:
    """Would ``ch`` right next to this atom change how it renders?

    A bare URL swallows any non-ASCII character after it (and a pseudo mark before it);
    an abbreviation or ``#123``/``@user`` shorthand is only found between word boundaries,
    and CJK letters are word characters.
    """
    if _is_ws(ch):
        return False
    if role == "url":
        return not ch.isascii()
    return ch.isalnum() and not ch.isascii()


def _url_needs_space_before(ch: str) -> bool:
    """magiclink links a URL only after whitespace or one of ``*_~^[('"`` (its look-behind).

    Not after ``>``: that is the end of a tag the page put there (``<a href=…>https://…</a>``),
    where the source's URL was not magiclink's either, and a space would show inside the element.
    """
    return not _is_ws(ch) and ch not in "*_~^[('\">"


# Characters Python-Markdown lets a backslash escape (``Markdown.ESCAPED_CHARS``).
_ESCAPABLE = frozenset("\\`*_{}[]()>#+-.!")
# magiclink drops these from the end of a link, and ")"/"]" without their opener.
_LINK_TRAILING = frozenset("?!.,:*_~^'\"")


def _url_overrun(url: str, following: str) -> str:
    """The part of ``following`` a linkifier would add to ``url``: magiclink takes everything
    up to whitespace or ``<`` and then trims trailing punctuation and unbalanced closers."""
    run = re.match(r"[^\s<]*", following).group(0)  # type: ignore[union-attr]
    while run:
        last = run[-1]
        whole = url + run
        if last in _LINK_TRAILING or (last == ")" and whole.count("(") < whole.count(")")) or (
            last == "]" and whole.count("[") < whole.count("]")
        ):
            run = run[:-1]
        else:
            break
    return run


def _space_atoms(chunks: _Chunks) -> None:
    """Keep bare URLs, abbreviations and shorthand apart from the translated text.

    After a URL, what a linkifier would swallow (``https://x.org/a.」``, ``…/a。``) is cut off:
    by escaping the first character when Markdown allows it (renders the same), else a space.
    """
    i = 0
    while i < len(chunks.parts):
        kind, role, text = chunks.parts[i]
        if kind == "atom" and role in ("url", "abbr", "shorthand"):
            nxt = chunks.parts[i + 1] if i + 1 < len(chunks.parts) else None
            if role == "url" and nxt is not None and nxt[0] == "text" and nxt[2]:
                if _url_overrun(text, nxt[2]):
                    first = nxt[2][0]
                    nxt[2] = ("\\" if first in _ESCAPABLE else " " if not first.isspace() else "") + nxt[2]
            elif _touches(role, chunks.next_char(i)):
                chunks.parts.insert(i + 1, ["text", "", " "])
            before = chunks.prev_char(i)
            if _touches(role, before) or (role == "url" and _url_needs_space_before(before) and not before.isalnum()):
                chunks.parts.insert(i, ["text", "", " "])
                i += 1
        i += 1


def _separate_delimiter_runs(chunks: _Chunks) -> None:
    """Keep two protected parts the model wrote side by side from fusing into one.

    In the source something stood between them, or they would have been one construct; set next
    to each other, the backticks of ``a`` and ``b`` become one run (```a``b``` is one code span
    holding ``a``b``), and the same goes for other delimiter characters. A space keeps them apart
    (the page guard found this on the example site).
    """
    i = 1
    while i < len(chunks.parts):
        prev, cur = chunks.parts[i - 1], chunks.parts[i]
        if (
            prev[0] in ("atom", "close")
            and cur[0] in ("atom", "open")
            and prev[2]
            and cur[2]
            and prev[2][-1] == cur[2][0]
            and cur[2][0] in "`*_~=^+"
        ):
            chunks.parts.insert(i, ["text", "", " "])
            i += 1
        i += 1


_EMPHASIS_IN_SLUG_RE = re.compile(r"(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])|\*")


def pin_attr(slug: str) -> str:
    """The attr_list item that pins a heading id: ``#slug``; ``id="slug"`` when the slug
    starts with a digit (magiclink and mdx_gh_links read ``#2024`` as an issue link before
    attr_list sees the braces); underscores and stars escaped where they could be emphasis
    (``#__all__-list`` would render ``<strong>all</strong>``; attr_list gets the escapes back
    as plain characters)."""
    if _EMPHASIS_IN_SLUG_RE.search(slug):
        slug = slug.replace("_", "\\_").replace("*", "\\*")
    return f'id="{slug}"' if slug[:1].isdigit() else f"#{slug}"


def _yaml_value(text: str, quote: str) -> str:
    text = " ".join(text.split())
    if quote == "'":
        return text.replace("'", "''")
    if quote == '"' or _YAML_PLAIN_BAD.search(text):
        escaped = text.replace("\\", "\\\\").replace('"', '\\"')
        return escaped if quote == '"' else f'"{escaped}"'
    return text


def restore_segment(
    segment: Segment, translation: str, *, heading_ids: bool = True, reviewed: bool = False
) -> str | None:
    """The Markdown that replaces ``segment``'s span, or None when ``translation`` is unusable.
    ``reviewed``: a person wrote it (no runaway-length rule; see :func:`validate`). The review
    check asks this same function, so a review it accepts is never dropped here."""
    r: Restore = segment.restore
    if _unusable(segment, translation, reviewed):
        return None
    changed = translation != segment.text
    if r.insert_title or r.yaml_quote is not None or r.attr_quote is not None:
        return _restore_value(r, translation, changed)
    parts = tokenize(translation)
    chunks = _rebuild(parts, r, changed)
    if changed:
        _underscores_to_stars(chunks)
        _fix_flanking(chunks)
        if not r.raw_html:  # raw HTML is passed through: no autolinker, no escapes there
            _space_atoms(chunks)
            _separate_delimiter_runs(chunks)
    out = chunks.text()
    if changed and heading_ids and r.slug is not None and r.pin_at is None:
        out += f" {{ {pin_attr(r.slug)} }}"
    return out


def _unusable(segment: Segment, translation: str, reviewed: bool = False) -> bool:
    """The translation fails validation, even once pairs it may drop (and did) are left out."""
    if not validate(segment.text, translation, runaway=not reviewed):
        return False
    dropped = {pid for pid in segment.droppable_pairs if f"<g{pid}>" not in translation}
    return not dropped or bool(validate(without_pairs(segment.text, dropped), translation, runaway=not reviewed))


def _restore_value(r: Restore, translation: str, changed: bool) -> str | None:
    """Segments that are one value, not Markdown: an inserted title, a YAML scalar, an HTML
    attribute. Each gets its own quoting; None when the value cannot be written safely."""
    if r.insert_title:
        title = " ".join(_escape_specials(translation, _introduced(r.text_chars, translation), False).split())
        if not changed:
            return ""
        return f" | {title}" if r.title_form == "pipe" else f' "{title}"'
    if r.yaml_quote is not None:
        return _yaml_value(translation, r.yaml_quote) if changed else translation
    assert r.attr_quote is not None
    # plain text (escaped when rendered); its quote would end it
    plain = " ".join(translation.split()) if changed else translation
    if r.html_escape:  # a raw HTML attribute: escaped, so no quote or `<` ends it
        return html.escape(plain) if changed else plain
    return None if any(ch in plain for ch in r.attr_quote) else plain


def _rebuild(parts: list[tuple[str, str | int]], r: Restore, changed: bool) -> _Chunks:
    """Put the source bytes of every atom and pair back around the translated text."""
    text_out = "".join(str(v) for k, v in parts if k == "text")
    specials = _introduced(r.text_chars, text_out)
    if r.raw_html:
        specials &= {"<", "&"}
    chunks = _Chunks(r.before, r.after)
    open_at: dict[int, int] = {}
    for index, (kind, value) in enumerate(parts):
        if kind == "text":
            chunks.add("text", "", _text(str(value), r, specials, changed, first=index == 0))
        elif kind == "atom":
            raw, role = r.atoms[int(value)]
            chunks.add("atom", role, raw)
        elif kind == "open":
            raw, _close, piece = r.pairs[int(value)]
            open_at[int(value)] = index + 1
            chunks.add("open", piece.role, raw)
        else:
            pid = int(value)
            piece = r.pairs[pid][2]
            chunks.add("close", piece.role, _close_raw(parts[open_at[pid] : index], r, pid, changed))
    return chunks


def _close_raw(inner_parts: list[tuple[str, str | int]], r: Restore, pid: int, changed: bool) -> str:
    """A pair's closing bytes; a shortcut/collapsed reference link whose words changed gets
    its label spelled out (``][label]``), since the label no longer matches the text."""
    _open, raw, piece = r.pairs[pid]
    if piece.ref_style and changed:
        inner = "".join(_piece_source(p) for p in inner_parts)
        if inner != r.inner[pid]:
            raw = f"][{piece.label}]"
    return raw


def _piece_source(part: tuple[str, str | int]) -> str:
    kind, value = part
    if kind == "text":
        return str(value)
    return {"atom": f"<x{value}/>", "open": f"<g{value}>", "close": f"</g{value}>"}[kind]


def _text(value: str, r: Restore, specials: set[str], changed: bool, *, first: bool) -> str:
    value = _escape_specials(value, specials, r.table)
    if r.single_line:
        return re.sub(r"[ \t]*\n[ \t]*", " ", value) if "\n" in value else value
    if changed:
        value = re.sub(r"\n[ \t]*(?:\n[ \t]*)+", "\n", value)  # a blank line would end the block
    lines = value.split("\n")
    if changed and not r.raw_html:
        lines = [
            _escape_line_start(line, r.line_starts) if (i > 0 or (first and r.block_start)) else line
            for i, line in enumerate(lines)
        ]
        # Two trailing spaces would be a hard break the source did not have (where it had some,
        # they are its breaks: the sentences between them are translated one by one).
        if not r.hard_breaks:
            lines = [re.sub(r"[ \t]*  $", "", line) if i < len(lines) - 1 else line for i, line in enumerate(lines)]
    return r.line_break.join(lines)
