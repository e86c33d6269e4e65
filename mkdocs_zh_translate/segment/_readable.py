"""Placeholder text <-> readable Markdown for one segment (what a human reviewer edits).

Reviewers see ``Run `mkdocs build` to [build](build.md)``, not ``Run <x1/> to <g2>build</g2>``.
Going back, the reviewer's Markdown is matched against the *source's own* protected parts: every
code span, URL or link target must come back byte for byte, and nothing that looks like markup
may appear that the source did not have. That is the trust boundary for PO files written by
outside contributors: they may change words, never markup.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

from ..plaintext import invisible_controls
from ._model import Segment
from ._placeholders import TAG_RE, tokenize, validate, without_pairs
from ._splice import restore_segment


class _RawHtml:
    """``<\\s*/?\\s*[A-Za-z!?][^>]*>|&#?\\w+;`` as a regex would find them, in linear time: the
    regex rescans to the end of the text from every ``<`` that has no ``>`` after it (a
    reviewer's ``<a<a<a…`` would take quadratic time)."""

    _OPEN = re.compile(r"<\s*+(?:/\s*+)?[A-Za-z!?]")
    _ENTITY = re.compile(r"&#?\w+;")

    def findall(self, text: str) -> list[str]:
        found: list[str] = []
        pos = 0
        while True:
            m = self._OPEN.search(text, pos)
            if m is None:
                break
            close = text.find(">", m.end())
            if close < 0:
                break  # no ">" after this "<", hence none after any later one
            found.append(text[m.start() : close + 1])
            pos = close + 1
        return found + self._ENTITY.findall(text)

    def search(self, text: str) -> bool:
        return bool(self.findall(text))


# Markup a translator could add in plain text runs, with the words used to report it.
_MARKUP: tuple[tuple[str, re.Pattern[str] | _RawHtml], ...] = (
    ("a script", re.compile(r"<\s*script|javascript\s*:|\bon[a-z]+\s*=", re.I)),
    ("raw HTML", _RawHtml()),
    ("a link", re.compile(r"\]\s*[(\[]|\bhttps?://|\bwww\.|\bmailto:|<https?:", re.I)),
    ("an image", re.compile(r"!\[")),
    ("a code span", re.compile(r"`")),
    ("a template expression", re.compile(r"\{\{|\{%")),
    # `[^{}\n=]` before the "=": one way to match, and no scan runs past the next "{".
    ("an attribute list", re.compile(r"\{\s*+[#.:]|\{[^{}\n=]*+=[^{}\n]*+\}")),
    ("a footnote reference", re.compile(r"\[\^")),
)


@dataclass
class Parsed:
    """A reviewer's Markdown turned back into the segment's placeholder form."""

    text: str  # placeholder form (valid only when ``problems`` is empty)
    problems: list[str] = field(default_factory=list)


def to_readable(segment: Segment, text: str | None = None) -> str:
    """``text`` (placeholder form; default the segment's source) with every placeholder
    written as the source bytes it stands for."""
    r = segment.restore
    out: list[str] = []
    for kind, value in tokenize(segment.text if text is None else text):
        if kind == "text":
            out.append(str(value))
        elif kind == "atom":
            out.append(r.atoms[int(value)][0] if int(value) in r.atoms else f"<x{value}/>")
        elif kind == "open":
            out.append(r.pairs[int(value)][0] if int(value) in r.pairs else f"<g{value}>")
        else:
            out.append(r.pairs[int(value)][1] if int(value) in r.pairs else f"</g{value}>")
    return "".join(out)


def _describe(segment: Segment, tag: str) -> str:
    m = TAG_RE.fullmatch(tag)
    if not m:
        return tag
    r = segment.restore
    if m.group(1):
        raw, role = r.atoms.get(int(m.group(1)), (tag, ""))
        return f"{role or 'protected part'} {raw if raw.strip() == raw else repr(raw)}"
    pid = int(m.group(2) or m.group(3))
    if pid in r.pairs:
        opening, closing, piece = r.pairs[pid]
        return f"{piece.role or 'markup'} {opening}…{closing}"
    return tag


def _choose(
    markdown: str,
    pos: int,
    marks: list[tuple[str, str, int]],
    used: set[tuple[str, int]],
    open_pairs: list[int],
    long_opens: bool,
) -> tuple[str, str, int] | None:
    """The protected part that starts at ``pos``, if any."""
    cands = [m for m in marks if (m[1], m[2]) not in used and markdown.startswith(m[0], pos)]
    # only the innermost open pair can close: "***x***" nests
    close = next((m for m in cands if m[1] == "close" and open_pairs and open_pairs[-1] == m[2]), None)
    atoms = [m for m in cands if m[1] == "atom"]
    opens = [m for m in cands if m[1] == "open"]
    longest = max((len(m[0]) for m in atoms + opens), default=0)
    if close is not None and len(close[0]) >= longest:
        return close  # "**" closes the open pair before it opens another
    atom = max(atoms, key=lambda m: len(m[0]), default=None)
    if atom is not None and len(atom[0]) == longest:
        return atom
    if opens:
        return (max if long_opens else min)(opens, key=lambda m: len(m[0]))
    return close


def _scan(
    markdown: str, marks: list[tuple[str, str, int]], long_opens: bool, original: str | None = None
) -> tuple[str, list[str]]:
    """Placeholder text and the plain-text runs of ``markdown``. Where opening delimiters of
    different lengths start at one place (``***``), ``long_opens`` picks the longer first.
    ``original``: the same text before :func:`soft_breaks_as_spaces` (same length); marks are
    matched in ``markdown`` and the text runs taken from ``original``, so the reviewer's own
    line breaks stay in the page."""
    source = markdown if original is None else original
    used: set[tuple[str, int]] = set()
    open_pairs: list[int] = []
    out: list[str] = []
    text_runs: list[str] = []
    run: list[str] = []
    pos = 0
    while pos < len(markdown):
        choice = _choose(markdown, pos, marks, used, open_pairs, long_opens)
        if choice is None:
            run.append(source[pos])
            pos += 1
            continue
        raw, kind, mid = choice
        if run:
            text_runs.append("".join(run))
            out.append("".join(run))
            run = []
        used.add((kind, mid))
        if kind == "atom":
            out.append(f"<x{mid}/>")
        elif kind == "open":
            open_pairs.append(mid)
            out.append(f"<g{mid}>")
        else:
            open_pairs.remove(mid)
            out.append(f"</g{mid}>")
        pos += len(raw)
    if run:
        text_runs.append("".join(run))
        out.append("".join(run))
    return "".join(out), text_runs


def soft_breaks_as_spaces(text: str, *, fragment: bool = False) -> str:
    """``text`` with Markdown's soft line breaks as spaces; hard breaks (two spaces or a
    backslash before the newline) and blank lines stay. Same length, same rendering: a soft
    break renders as whitespace everywhere a segment can hold one (prose, code spans, link text,
    tag attributes). ``fragment``: ``text`` is a protected part cut out of a paragraph, which
    never holds a blank line and whose leading newline follows the paragraph's text.

    gettext's convention (mdpo and Sphinx join soft breaks too): a msgid must not change when a
    paragraph is only re-wrapped, or every review of a re-flowed page would go stale."""
    if "\n" not in text:
        return text
    lines = text.split("\n")
    out = [lines[0]]
    for before, line in itertools.pairwise(lines):
        blank = not fragment and not (before.strip() and line.strip())
        out.append("\n" if blank or before.endswith(("  ", "\\")) else " ")
        out.append(line)
    return "".join(out)


def from_readable(segment: Segment, markdown: str) -> Parsed:
    """The reviewer's ``markdown`` in placeholder form, or the reasons it cannot be used.

    Each protected part of the source (atom, pair delimiter) is found in ``markdown`` by its
    exact bytes, scanning left to right and preferring the longest match; a closing delimiter
    counts only when it closes the innermost open pair, and then wins over an opening one.
    A run such as ``***`` is read both ways (longer or shorter opening first) and the reading
    with fewer problems wins. Whatever is left is text and must not contain markup the
    source's own text did not. Soft line breaks count as spaces on both sides (a code span
    or link the source wraps over two lines matches the reviewer's one-line copy)."""
    r = segment.restore
    original, markdown = markdown, soft_breaks_as_spaces(markdown)
    marks: list[tuple[str, str, int]] = []  # (raw, kind, id)
    for aid, (raw, _role) in r.atoms.items():
        if raw:
            marks.append((soft_breaks_as_spaces(raw, fragment=True), "atom", aid))
    for pid, (opening, closing, _piece) in r.pairs.items():
        if opening:
            marks.append((soft_breaks_as_spaces(opening, fragment=True), "open", pid))
        if closing:
            marks.append((soft_breaks_as_spaces(closing, fragment=True), "close", pid))
    marks.sort(key=lambda m: -len(m[0]))
    best: Parsed | None = None
    for long_opens in (True, False):
        text, text_runs = _scan(markdown, marks, long_opens, original)
        parsed = Parsed(text, _problems(segment, markdown, text, text_runs))
        if best is None or len(parsed.problems) < len(best.problems):
            best = parsed
        if not best.problems:
            break
    assert best is not None
    return best


def markup_in(text: str) -> list[str]:
    """What in plain ``text`` could be read as markup or hide what it says (glossary terms
    are checked with this: they reach pages and templates like reviewed text does)."""
    problems = [f"contains {name}" for name, pattern in _MARKUP if pattern.search(text)]
    if '"' in text or "<" in text or ">" in text:
        problems.append("contains a quote or angle bracket")
    controls = invisible_controls(text)
    if controls:
        problems.append(f"contains invisible control characters ({', '.join(controls)})")
    return list(dict.fromkeys(problems))


def _problems(segment: Segment, markdown: str, text: str, text_runs: list[str]) -> list[str]:
    problems: list[str] = []
    source_text = "".join(str(v) for k, v in tokenize(segment.text) if k == "text")
    added = "".join(text_runs)
    for name, pattern in _MARKUP:
        if len(pattern.findall(added)) > len(pattern.findall(source_text)):
            problems.append(f"adds {name} the source does not have")
    controls = [c for c in invisible_controls(markdown) if c not in invisible_controls(segment.text)]
    if controls:
        problems.append(f"adds invisible control characters ({', '.join(controls)})")
    # Site strings and admonition titles end up inside quotes (attributes, `!!! note "…"`).
    if (segment.kind == "string" or segment.restore.insert_title) and added.count('"') > source_text.count('"'):
        problems.append("adds a double quote the source does not have")
    if TAG_RE.search(added):
        problems.append("contains placeholder tags")
    # Dropping bold or italics loses formatting only; the splice accepts that (as for the model).
    dropped = {pid for pid in segment.droppable_pairs if f"<g{pid}>" not in text and f"</g{pid}>" not in text}
    # a person's longer wording is theirs (runaway=False); only a model repeats itself
    for problem in validate(without_pairs(segment.text, dropped), text, runaway=False):
        tag = problem.split(" ", 1)[0]
        if problem.endswith("missing"):
            problems.append(f"lost the {_describe(segment, tag)}")
        elif problem == "empty translation":
            problems.append("is empty")
        elif "appears" in problem or "not in the source" in problem:
            problems.append(f"repeats the {_describe(segment, tag)}")
        else:
            problems.append(f"misplaces the {_describe(segment, tag)} ({problem})")
    if segment.restore.single_line and "\n\n" in markdown.strip():
        problems.append("splits a one-line text into paragraphs")
    elif re.search(r"\n[ \t]*\n", markdown.strip()):
        problems.append("adds a blank line (a new paragraph)")
    if not problems:
        problems.extend(_splice_problems(segment, text))
    return list(dict.fromkeys(problems))


def _splice_problems(segment: Segment, text: str) -> list[str]:
    """The splice's own verdict on a reviewed text, so a review accepted here is never dropped
    there unseen (an attribute value that cannot hold one of its characters)."""
    if restore_segment(segment, text, reviewed=True) is not None:
        return []
    held = sorted({c for c in text if c in (segment.restore.attr_quote or "")})
    return [f"has characters its place in the page cannot hold ({' '.join(held)})" if held else
            "cannot be written into the page"]

