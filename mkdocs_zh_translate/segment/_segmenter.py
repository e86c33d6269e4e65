"""Page text -> segments with exact page offsets (the read half of the segmenter).

The builder walks the parse and makes segments; the page text it reads is ``_pagetext``'s, a
block's pieces are trimmed at their edges by ``_trim`` and cut at syntax inside running text
by ``_textruns`` before they become a segment.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence

from markdown_it.token import Token

from ..errors import ZhTranslateError
from ._codetitle import brace_options, code_title
from ._frontmatter import front_matter_segments
from ._html import html_text_runs
from ._identifiers import identifier_runs, only_identifiers
from ._imgattrs import html_alts, image_title, img_alt
from ._inline import inline_pieces
from ._locate import Locator, lines_map
from ._model import Piece, Restore, Segment, SiteSyntax
from ._pagetext import PageText, continuation
from ._placeholders import has_words, strip_tags
from ._pymd import fragile_emphasis, list_marker_length, near_heading_start, refdef_start, unclosed_fence_blocks
from ._slug import attr_id, heading_attr_start, heading_tail, heading_text, unique
from ._slug import slugify as default_slugify
from ._splice import line_start_markers
from ._textruns import split_abbreviations, split_magic, split_pairs
from ._toplevel import block_starts
from ._trim import UNDERLINE_RE, trim, word_attr

_ABBR_DEF_RE = re.compile(r"^[ \t]*\*\[([^\]\n]+)\]:", re.MULTILINE)
_FILE_NAME_RE = re.compile(r"[\w-]*[./\\][\w./\\-]*")
# Image attributes people read: attr_list's `title` and the lightbox captions (glightbox).
_IMAGE_ATTRS = {"title": "image_title", "data-title": "image_title", "data-description": "image_caption"}
# What an alt text must not gain: it would end the label or become markup.
_ALT_FORBIDDEN = "[]\\`*_<>&!{}$"


_CONTAINER_KINDS = {
    "list_item_open": "list_item",
    "dd_open": "definition",
    "footnote_open": "footnote",
    "footnote_reference_open": "footnote",
    "blockquote_open": "blockquote",
    "zh_container_open": "paragraph",
}
_MARKER_CONTAINERS = {"list_item_open", "blockquote_open"}


Slugify = Callable[[str, str], str]


class _Builder:
    def __init__(self, text: str, slugify: Slugify, syntax: SiteSyntax) -> None:
        self.slugify = slugify
        self.tab_ids_from_titles = syntax.tab_ids_from_titles
        self.emoji = syntax.emoji
        self.page = PageText(text, fancy_lists=syntax.fancy_lists)
        self.locator = Locator(self.page.lines)
        self.used_ids: set[str] = set()
        self.english_lines: list[tuple[int, int]] = []  # line ranges Python-Markdown reads otherwise
        self._callout_hit = False
        self.segments: list[Segment] = []
        # Abbreviations are matched by their exact spelling: translating the word loses them.
        keys = sorted({m.group(1) for m in _ABBR_DEF_RE.finditer(self.page.norm)}, key=len, reverse=True)
        self.abbr_re = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, keys)) + r")(?!\w)") if keys else None

    # -- pieces ------------------------------------------------------------------------------
    def _to_page(self, pieces: list[Piece], cmap: list[int]) -> list[Piece]:
        out = []
        for p in pieces:
            # Ends are the next piece's start, so the pieces tile the span: the "> " of a
            # continuation line belongs to the line break before it.
            start = self.page.orig(cmap[p.start])
            end = self.page.orig(cmap[p.end])
            out.append(Piece(p.kind, start, end, p.role, p.label, p.ref_style))
        return out

    def _raw(self, p: Piece) -> str:
        return self.page.text[p.start : p.end]

    # -- segments ----------------------------------------------------------------------------
    def _callout_title(self, pieces: list[Piece]) -> bool:
        """``NOTE: **Title.** Body``: markdown-callouts moves the bold run into the title only
        when it opens the paragraph, so the title is a segment of its own (its final period,
        which the extension strips, stays outside) and the body another; ``pieces`` keeps the
        body. False when the callout has no bold title."""
        if not pieces or pieces[0].kind != "open" or pieces[0].role != "strong":
            return False
        depth, index = 0, -1
        for at, p in enumerate(pieces):
            depth += 1 if p.kind == "open" else -1 if p.kind == "close" else 0
            if p.kind == "close" and depth == 0:
                index = at
                break
        if index < 0:
            return False
        title = pieces[1:index]
        if title and title[-1].kind == "text" and self._raw(title[-1]).endswith("."):
            last = title.pop()
            if last.end - 1 > last.start:
                title.append(Piece("text", last.start, last.end - 1))
        self._emit(title, "admonition_title", single_line=True, block_start=False)
        rest = pieces[index + 1 :]
        while rest and (
            rest[0].kind == "break"
            or (rest[0].kind == "atom" and rest[0].role == "break")  # the extension drops a <br> there
            or (rest[0].kind == "text" and not self._raw(rest[0]).strip())
        ):
            rest.pop(0)
        if rest and rest[0].kind == "text":
            first = rest.pop(0)
            lead = len(self._raw(first)) - len(self._raw(first).lstrip())
            rest.insert(0, Piece("text", first.start + lead, first.end))
        pieces[:] = rest
        return True

    def _only_alt_words(self, pieces: list[Piece]) -> bool:
        """Are image alts the only words of these pieces? Then the block is wordless: nothing
        is sent for it (a model given bare images invents text around them), and each alt is a
        segment of its own, spanning the alt text only."""
        depth = 0
        alts: list[Piece] = []
        for p in pieces:
            if p.role == "image" and p.kind == "open" and p.ref_style:
                return False  # a shortcut/collapsed reference: the alt is the label (the pair keeps it)
            if p.role == "image" and p.kind in ("open", "close"):
                depth += 1 if p.kind == "open" else -1
            elif p.kind == "text":
                if depth:
                    alts.append(p)
                elif has_words(self._raw(p)):
                    return False
        if not alts or depth:
            return False
        for p in alts:
            self._attribute_text(p.start, p.end, "image_alt", _ALT_FORBIDDEN, None)
        return True

    def _attribute_text(
        self, start: int, end: int, kind: str, forbidden: str, host: Piece | None, *, html: bool = False
    ) -> None:
        """A segment for plain text inside image syntax (alt, title, caption): translated as a
        value, with none of ``forbidden`` (its quote, markup) let in; ``html``: a raw HTML
        attribute, whose translation is escaped instead."""
        raw = self.page.text[start:end]
        lead = len(raw) - len(raw.lstrip())
        value = raw.strip()
        if not has_words(value) or any(ch in value for ch in forbidden) or "\n" in value:
            return
        start += lead
        restore = Restore(
            single_line=True,
            attr_quote=forbidden,
            html_escape=html,
            text_chars=value,
            host=(host.start, host.end) if host is not None else None,
        )
        self.segments.append(Segment(value, start, start + len(value), self.page.line_number(start), kind, restore))

    def _image_attributes(self, pieces: Sequence[Piece]) -> None:
        """Segments for an image's title (``![a](src "Title")``) and the title and caption
        attributes of the attr_list right after it (lightbox plugins' ``data-title`` and
        ``data-description``). They lie inside syntax a surrounding segment keeps verbatim:
        ``host`` says where, and the splice edits them into it."""
        previous: Piece | None = None
        for p in pieces:
            if p.role == "image" and p.kind in ("close", "atom"):
                found = image_title(self._raw(p))
                if found is not None:
                    start, end, quote = found
                    self._attribute_text(p.start + start, p.start + end, "image_title", quote + "\\", p)
            elif p.kind == "atom" and p.role == "attr" and previous is not None and previous.end == p.start:
                options = brace_options(self._raw(p)) or {}
                for key, kind in _IMAGE_ATTRS.items():
                    if key in options and options[key][2]:
                        start, end, quote = options[key]
                        self._attribute_text(p.start + start, p.start + end, kind, quote + "\\", p)
            elif p.kind == "atom" and p.role == "html" and (alt := img_alt(self._raw(p))) is not None:
                self._attribute_text(p.start + alt[0], p.start + alt[1], "image_alt", "", p, html=True)
            previous = p if p.role == "image" and p.kind in ("close", "atom") else None

    def _emit(self, pieces: list[Piece], kind: str, *, single_line: bool, block_start: bool) -> Restore | None:
        text = self.page.text
        pieces = split_magic(text, split_abbreviations(text, self.abbr_re, split_pairs(text, pieces)))
        pieces = identifier_runs(pieces, self.page.text)
        if not pieces:
            return None
        if self._only_alt_words(pieces):
            return None
        restore = Restore(
            single_line=single_line, block_start=block_start, table=kind == "table_cell", raw_html=kind == "html_text"
        )
        breaks = [p for p in pieces if p.kind == "break"]
        if breaks:
            restore.line_break = self._raw(breaks[0])
        elif not single_line:  # a one-line segment has no line break to restore (and a table
            # row's cells would each copy the row up to their start: quadratic in its width)
            restore.line_break = continuation(text, pieces[0].start, self.page.newline)
        out: list[str] = []
        stack: list[tuple[int, int]] = []  # (id, index in out after the open tag)
        text_runs: list[str] = []
        next_id = 1
        for p in pieces:
            raw = self._raw(p)
            if p.kind == "text":
                out.append(raw)
                text_runs.append(raw)
            elif p.kind == "break" and raw == restore.line_break:
                out.append("\n")
            elif p.kind in ("atom", "break"):
                restore.atoms[next_id] = (raw, p.role or "break")
                out.append(f"<x{next_id}/>")
                next_id += 1
            elif p.kind == "open":
                restore.pairs[next_id] = (raw, "", p)
                out.append(f"<g{next_id}>")
                stack.append((next_id, len(out)))
                next_id += 1
            else:  # close
                if not stack:
                    return None
                pid, at = stack.pop()
                open_raw, _, open_piece = restore.pairs[pid]
                restore.pairs[pid] = (open_raw, raw, open_piece)
                restore.inner[pid] = "".join(out[at:])
                out.append(f"</g{pid}>")
        if stack:
            return None
        seg_text = "".join(out)
        if not has_words(seg_text) or only_identifiers(seg_text):
            return None  # nothing to translate, or only names (`prompt_literal_start`): kept as written
        core = strip_tags(seg_text).strip()
        one_word = not any(ch.isspace() for ch in core)
        if kind == "tab_title" and self.tab_ids_from_titles:
            return None  # the tab's id is a slug of this title: translated, links lose the tab
        if kind == "tab_title" and one_word and (_FILE_NAME_RE.fullmatch(core) or core != seg_text):
            # `=== "pyproject.toml"`, `=== ":simple-python: pip"`: a file or tool name, and with
            # tabbed's `slugify` option the tab's id (a link target) comes from this title.
            return None
        start, end = pieces[0].start, pieces[-1].end
        restore.hard_breaks = "  \n" in seg_text
        restore.text_chars = "".join(text_runs)
        restore.line_starts = line_start_markers(seg_text)
        restore.before = text[start - 1 : start]
        restore.after = text[end : end + 1]
        self.segments.append(Segment(seg_text, start, end, self.page.line_number(start), kind, restore))
        return restore

    def inline(
        self,
        tok: Token,
        kind: str,
        how: str,
        *,
        lead_marker: bool = False,
        heading: bool = False,
        callout: bool = False,
    ) -> None:
        """Segments of one inline block; for a heading, also the id its English slug pins."""
        cmap = self.locator.locate(tok, how)
        pieces = inline_pieces(tok.children or [], tok.content) if cmap is not None else None
        prose = how == "lines" and not heading and kind != "definition_term"
        if pieces is not None and prose:
            pieces = self._python_markdown_syntax(tok, pieces)
        slug = self._heading_slug(tok) if heading else None
        if pieces is None:
            if heading and not self._explicit_id_in(tok.content):
                unique(slug or "", self.used_ids)
            return
        page_pieces = self._to_page(pieces, cmap)  # type: ignore[arg-type]
        self._image_attributes(page_pieces)
        page_pieces, trailing_attr, self._callout_hit = trim(
            self.page.text, page_pieces, lead_marker=lead_marker, atx=how == "atx", callout=callout
        )
        if heading and trailing_attr is None:
            trailing_attr = word_attr(self.page.text, page_pieces)
        if fragile_emphasis(page_pieces, self.page.text):
            page_pieces = []  # English: Python-Markdown could pair the translated runs otherwise
        single = how != "lines"
        titled = callout and self._callout_hit and self._callout_title(page_pieces)
        restore = self._emit(page_pieces, kind, single_line=single, block_start=not single and not titled)
        if heading:
            self._pin_heading_id(slug, trailing_attr, restore)

    def _heading_slug(self, tok: Token) -> str:
        """The slug the English heading gets (attr_list cut off), so links into the page keep
        working once its words are Chinese."""
        visible = heading_text(tok.children or [], self.emoji)
        cut = heading_attr_start(visible)
        if cut is not None and visible[cut : cut + 2] in ("{{", "{%"):
            cut = None  # mkdocs-macros output, rendered before Markdown sees the heading
        if cut is not None and cut < len(visible) - len(heading_text(heading_tail(tok.children or []), self.emoji)):
            cut = None  # the braces end a code span (`{name}`), not the heading's text: no attr_list
        return self.slugify(visible[:cut] if cut is not None else visible, "-")

    def _pin_heading_id(self, slug: str | None, trailing_attr: Piece | None, restore: Restore | None) -> None:
        """Without an explicit ``{#id}``, reserve the English slug and pin it on the translated
        heading (inside its attr_list when it has one, else as a new one)."""
        explicit = attr_id(self._raw(trailing_attr)) if trailing_attr else None
        if explicit is not None:
            return
        pinned = unique(slug or "", self.used_ids)
        if restore is None:
            return
        restore.slug = pinned
        if trailing_attr is not None:
            raw = self._raw(trailing_attr)
            restore.pin_at = trailing_attr.start + (2 if raw.startswith("{:") else 1)

    def _english(self, first: int, end: int) -> bool:
        """Do lines ``[first, end)`` touch a range that stays English? (Ranges are sorted and
        disjoint: one bisect, so a page with many of them stays linear.)"""
        ranges = self.english_lines
        at = bisect.bisect_right(ranges, (first, len(self.page.lines.starts) + 1)) - 1
        return any(0 <= i < len(ranges) and ranges[i][0] < end and first < ranges[i][1] for i in (at, at + 1))

    def _python_markdown_syntax(self, tok: Token, pieces: list[Piece]) -> list[Piece]:
        """Keep out of a prose block what Python-Markdown reads as syntax there: a setext
        underline on its first line, a list marker CommonMark refused, and lines from a reference
        definition or a near-heading on (those stay English), or the whole block beside a fence nothing closes."""
        if tok.map is not None and self._english(tok.map[0], tok.map[1]):
            return []
        cuts = [c for c in (refdef_start(tok.content), near_heading_start(tok.content)) if c is not None]
        if cuts:
            pieces = [p for p in pieces if p.end <= min(cuts)]
        if len(pieces) > 1 and pieces[1].kind == "break" and UNDERLINE_RE.fullmatch(tok.content, 0, pieces[0].end):
            # `===` opening a paragraph underlines the line above for Python-Markdown (a reference
            # definition, to CommonMark): the heading ends there, the rest is a new block
            pieces = pieces[2:]
        if pieces and pieces[0].kind == "text":
            first = pieces[0]
            lead = list_marker_length(tok.content[first.start : first.end])
            if lead and first.start == 0:
                rest = [Piece("text", lead, first.end)] if lead < first.end else []
                pieces = rest + pieces[1:]
        return pieces

    def default_title(self, tok: Token) -> None:
        start = self.page.orig(tok.meta["zh_offset"])
        restore = Restore(
            single_line=True, insert_title=True, text_chars=tok.content, title_form=tok.meta.get("zh_form", "quoted")
        )
        line = self.page.line_number(start)
        self.segments.append(Segment(tok.content, start, start, line, "admonition_title", restore))

    def html_block(self, tok: Token) -> None:
        if tok.map is None:
            return
        content = tok.content[:-1] if tok.content.endswith("\n") else tok.content
        cmap = lines_map(self.page.lines, tok.map[0], content)
        if cmap is None or not self.locator.verify(content, cmap, "lines"):
            return
        for run in html_text_runs(content):
            lead = list_marker_length(content[run[0].start : run[0].end]) if run[0].kind == "text" else 0
            if lead:  # `</script>1. *bar*`: Python-Markdown starts a list after the tag
                run = [Piece("text", run[0].start + lead, run[0].end), *run[1:]]
            pieces = self._to_page(run, cmap)
            self._emit(pieces, "html_text", single_line=False, block_start=False)
        for start, end in html_alts(content):  # `<img alt="…">`: an attribute people read
            page_start, page_end = self.page.orig(cmap[start]), self.page.orig(cmap[end])
            self._attribute_text(page_start, page_end, "image_alt", "", None, html=True)

    def fence_title(self, tok: Token) -> None:
        """A code block's ``title="…"`` when it is words (a closed fence Python-Markdown sees)."""
        if tok.map is None or tok.content.count("\n") != tok.map[1] - tok.map[0] - 2:
            return
        if self._english(tok.map[0], tok.map[0] + 1):
            return
        found = code_title(self.page.lines.line(tok.map[0]), tok.markup)
        if found is None:
            return
        base = self.page.lines.starts[tok.map[0]]
        start, end = self.page.orig(base + found[0]), self.page.orig(base + found[1])
        value = self.page.text[start:end]
        restore = Restore(single_line=True, attr_quote=found[2], text_chars=value)
        self.segments.append(Segment(value, start, end, self.page.line_number(start), "code_title", restore))

    def _explicit_id_in(self, content: str) -> bool:
        m = re.search(r"\{[^{}]*\}\s*#*\s*$", content)
        if m and attr_id(m.group(0)):
            return True
        cut = heading_attr_start(content)
        return cut is not None and attr_id(content[cut:]) is not None

    def collect_ids(self, tokens: Sequence[Token]) -> None:
        """Ids set by attr_lists anywhere in the page are taken before headings get theirs."""
        for i, tok in enumerate(tokens):
            if tok.type == "inline" and i and tokens[i - 1].type == "heading_open":
                cut = heading_attr_start(tok.content)
                found = attr_id(tok.content[cut:]) if cut is not None else None
                if found:
                    self.used_ids.add(found)
            for child in tok.children or []:
                if child.type == "zh_atom" and child.info == "attr":
                    found = attr_id(child.content)
                    if found:
                        self.used_ids.add(found)

    def walk(self, tokens: Sequence[Token], text_fences: Sequence[int] = ()) -> None:
        self.english_lines = unclosed_fence_blocks(tokens, self.page.norm.split("\n"), text_fences)
        stack: list[str] = []
        for i, tok in enumerate(tokens):
            if tok.nesting == 1:
                stack.append(tok.type)
            elif tok.nesting == -1 and stack:
                stack.pop()
            if tok.type == "front_matter":
                page = self.page
                self.segments.extend(front_matter_segments(page.text, page.norm, tok, page.orig, page.line_number))
                continue
            if tok.type == "zh_default_title":
                self.default_title(tok)
                continue
            if tok.type == "html_block":
                self.html_block(tok)
                continue
            if tok.type == "fence":
                self.fence_title(tok)
                continue
            if tok.type != "inline":
                continue
            parent = stack[-1] if stack else ""
            if parent == "heading_open":
                if tokens[i - 1].meta.get("zh_english"):
                    continue
                how = "atx" if tokens[i - 1].markup.startswith("#") else "lines"
                how = "explicit" if "zh_offset" in tok.meta else how  # a container title's heading
                self.inline(tok, "heading", how, heading=not tokens[i - 1].meta.get("zh_no_id"))
            elif parent in ("th_open", "td_open"):
                self.inline(tok, "table_cell", "cell")
            elif parent == "dt_open":
                self.inline(tok, "definition_term", "lines")
            elif parent == "zh_container_title_open":
                self.inline(tok, tok.meta.get("zh_kind", "title"), "explicit")
            else:
                kind = "paragraph"
                for outer in reversed(stack[:-1]):
                    if outer in _CONTAINER_KINDS:
                        kind = _CONTAINER_KINDS[outer]
                        break
                first_in = i >= 2 and tokens[i - 2].type in _MARKER_CONTAINERS
                self.inline(tok, kind, "lines", lead_marker=first_in, callout=kind in ("paragraph", "blockquote"))


class SegmentError(ZhTranslateError, ValueError):
    """A page the segmenter cannot take apart; ``line`` (1-based) says where."""

    def __init__(self, message: str, line: int = 1) -> None:
        super().__init__(message)
        self.line = line


_TOO_DEEP = "nesting too deep to segment (containers nested hundreds of levels)"


def build_segments(
    text: str, slugify: Slugify | None = None, *, syntax: SiteSyntax | None = None, front_matter: bool = True
) -> tuple[list[Segment], tuple[int, ...]]:
    """All segments of ``text`` in page order, and where its top-level blocks start (see
    ``_toplevel``: the same parse, so the page guard's regions follow the segmenter's reading);
    ``slugify(text, separator)`` makes heading ids; ``syntax`` is what the site's extensions
    change (see :class:`SiteSyntax`); ``front_matter`` says whether a leading ``---`` block is
    front matter (False: page body, see ``segment_markdown``)."""
    from ._parse import parse

    builder = _Builder(text, slugify or default_slugify, syntax or SiteSyntax())
    try:
        tokens, env = parse(builder.page.parsed, front_matter=front_matter)
        builder.collect_ids(tokens)
        builder.walk(tokens, env.get("zh_fence_text", ()))
    except RecursionError:
        # Nested containers (`<div markdown="1">` hundreds deep) are parsed recursively; a page
        # like that is refused as a whole rather than half-segmented.
        raise SegmentError(_TOO_DEEP) from None
    return sorted(builder.segments, key=lambda s: s.start), block_starts(tokens, builder.page)


def untitled_admonition_types(text: str, *, front_matter: bool = True) -> set[str]:
    """The types of the admonitions ``build_segments`` would offer a default title for (see
    ``_blocks``), lower-cased; from the parse alone, a third of what segmenting costs."""
    from ._parse import parse

    try:
        tokens, _ = parse(PageText(text).parsed, front_matter=front_matter)
    except RecursionError:
        raise SegmentError(_TOO_DEEP) from None
    return {tok.content.lower() for tok in tokens if tok.type == "zh_default_title"}
