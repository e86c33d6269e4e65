"""One msgid -> the placeholder texts to translate, and the translations -> the msgstr.

``rst`` (Sphinx catalogs) uses this package's own reST protection: one text per msgid.
``md`` (mdpo / mkdocs-mdpo-plugin catalogs, whose msgids are Markdown) reuses the segmenter:
a msgid is segmented like a small page (usually one segment, sometimes none, e.g. only code)
and the translations are spliced back with its byte-exact splice. ``myst`` (a Sphinx page MyST
parses) is ``md`` whose roles (``{py:class}`Foo```) and substitutions (``{{ release }}``) are
each one protected code span for the segmenter, unwrapped again after the splice.
A MyST message whose reference links (``[text]``, ``[text][label]``) are defined elsewhere in
its file gets those definitions appended (``references``): Sphinx parses a msgstr on its own,
and a definition yields no node, so the translated link resolves as the English one did.
``rst-in-myst`` (reST inside a MyST page: a docstring, an ``{eval-rst}`` block; Sphinx parses
its translation as MyST) is protected as ``rst`` and written back in MyST syntax (:mod:`.rstmyst`).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from ..segment import SegmentedPage, segment_markdown, validate
from .rst import RstMessage, protect_rst
from .rstmyst import restore_myst

FORMATS = ("rst", "md", "myst")
RST_IN_MYST = "rst-in-myst"  # chosen per message by the Sphinx extension, not a ``po fill`` option
_MYST_ROLE = re.compile(r"\{[A-Za-z][\w:.+-]*\}(`+)")  # {name} and its opening backticks
_MYST_SUBSTITUTION = re.compile(r"\{\{[^{}\n]{1,200}\}\}")
_FOOTNOTE_REF = re.compile(r"\[\^([^\]\s^]+)\]")  # [^label]; linear (no nesting)
_BRACKETS = re.compile(r"\[([^\[\]\n]{1,999})\]")  # a link's text or label (no nesting)


@dataclass
class Message:
    """What the translator sees of one msgid and how its answers become the msgstr."""

    source: str
    texts: list[str]
    droppable: list[set[int]] = field(default_factory=list)
    rst: RstMessage | None = None
    page: SegmentedPage | None = None
    definitions: str = ""  # footnote definitions appended for the parser (md), cut off again
    wrapped: dict[str, str] = field(default_factory=dict)  # myst: code span -> the role it stands for
    myst_role: str | None = None  # rst-in-myst: the role reST's `text` has (None: written as reST)

    def restore(self, translations: Sequence[str]) -> tuple[str | None, list[str]]:
        if self.rst is not None and self.myst_role is not None:
            return restore_myst(self.rst, translations[0], self.myst_role)
        if self.rst is not None:
            return self.rst.restore(translations[0])
        assert self.page is not None
        problems = [p for text, out in zip(self.texts, translations) for p in validate(text, out)]
        if problems:
            return None, problems
        result = self.page.splice(list(translations), heading_ids=False)
        if self.definitions:
            if not result.endswith(self.definitions):
                return None, ["the footnote definitions changed"]
            result = result[: -len(self.definitions)]
        for span, original in self.wrapped.items():
            result = result.replace(span, original)
        return result, []


def protect(
    source: str,
    fmt: str,
    keep_names: Collection[str] = (),
    default_role: str = "",
    references: Mapping[str, str] | None = None,
) -> Message:
    """``keep_names``: reST reference names the catalog's other messages refer to;
    ``default_role``: Sphinx's ``default_role`` (``rst-in-myst`` writes ```x``` with it);
    ``references``: a MyST file's link reference definitions (:func:`link_label` -> line)."""
    if fmt in ("rst", RST_IN_MYST):
        msg = protect_rst(source, keep_names)
        role = default_role if fmt == RST_IN_MYST else None
        return Message(source, [msg.text], [msg.droppable], rst=msg, myst_role=role)
    if fmt == "myst":
        wrapped, spans = _wrap_myst(source)
        used = dict.fromkeys((references or {}).get(link_label(m.group(1)), "") for m in _BRACKETS.finditer(source))
        lines = "\n".join(line for line in used if line)
        message = protect(wrapped + ("\n\n" + lines if lines else ""), "md")
        message.source, message.wrapped = source, spans
        return message
    if fmt == "md":
        # a msgid is one paragraph: its footnote references ("fast[^perf]") have their
        # definitions elsewhere, and without one the parser reads "[^perf]" as text the model
        # may rewrite; a definition with no words per label makes them protected references
        labels = dict.fromkeys(m.group(1) for m in _FOOTNOTE_REF.finditer(source))
        definitions = "".join(f"\n\n[^{label}]: 0" for label in labels) + "\n" if labels else ""
        page = segment_markdown(source + definitions)
        texts = [s.text for s in page.segments]
        return Message(
            source, texts, [set(s.droppable_pairs) for s in page.segments], page=page, definitions=definitions
        )
    raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")


def link_label(text: str) -> str:
    """A link label as Markdown matches it (case and runs of whitespace do not matter)."""
    return " ".join(text.split()).casefold()


def _myst_parts(source: str) -> list[tuple[int, int]]:
    """Where MyST's roles (``{name}`` + a code span) and substitutions are, in order; code
    spans are skipped whole (``{x}`` inside one is code). One pass: each search starts after
    the previous match."""
    parts: list[tuple[int, int]] = []
    pos = 0
    role, sub = _MYST_ROLE.search(source), _MYST_SUBSTITUTION.search(source)
    while True:
        tick = source.find("`", pos)
        if role is not None and role.start() < pos:  # searched again only once passed: linear
            role = _MYST_ROLE.search(source, pos)
        if sub is not None and sub.start() < pos:
            sub = _MYST_SUBSTITUTION.search(source, pos)
        starts = [x for x in (tick, role.start() if role else -1, sub.start() if sub else -1) if x != -1]
        if not starts:
            return parts
        first = min(starts)
        if sub is not None and sub.start() == first:
            parts.append(sub.span())
            pos = sub.end()
            continue
        is_role = role is not None and role.start() == first
        opener = role.end() if role is not None and is_role else tick
        fence_start = opener - len(role.group(1)) if role is not None and is_role else tick
        run_end = fence_start
        while run_end < len(source) and source[run_end] == "`":
            run_end += 1
        fence = source[fence_start:run_end]
        close = source.find(fence, run_end)
        while close != -1 and source.startswith("`", close + len(fence)):  # a longer run
            close = source.find(fence, close + len(fence) + 1)
        if close == -1:  # no closing run: the backticks are text
            pos = run_end
            continue
        if is_role:
            parts.append((first, close + len(fence)))
        pos = close + len(fence)


def _wrap_myst(source: str) -> tuple[str, dict[str, str]]:
    """``source`` with each role/substitution as a code span (one placeholder for the model)."""
    out, spans, last = [], {}, 0
    for start, end in _myst_parts(source):
        original = source[start:end]
        longest = max((len(run) for run in re.findall(r"`+", original)), default=0)
        fence = "`" * (longest + 1)
        span = f"{fence} {original} {fence}"
        spans[span] = original
        out.append(source[last:start] + span)
        last = end
    out.append(source[last:])
    return "".join(out), spans
