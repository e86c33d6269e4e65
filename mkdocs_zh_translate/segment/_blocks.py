"""Block rules for MkDocs syntax that markdown-it does not know.

Without them an admonition body is an indented code block (never translated) or, with no blank
line, part of the paragraph above (so its code would be translated); a snippet line would be
joined to its paragraph (Python-Markdown needs it alone on its line). The rules follow
Python-Markdown's behaviour: bodies are indented four columns past the marker and end at the
first non-blank line indented less; raw HTML blocks run to the matching closing tag, blank lines
included, and ``markdown="1"`` blocks have their inside parsed as Markdown.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock

from ._htmltags import HTML_BLOCK_TAGS, HTML_VOID_BLOCK_TAGS
from ._pymd import no_python_markdown_heading
from ._superfences import superfence_pairs
from ._titles import push_title, strip_closing_hashes

# The marker lines as Python-Markdown's processors read them (the whole line, at the block's
# left edge): admonition's `AdmonitionProcessor.RE` needs a type (`!!! "Title"` is paragraph
# text); details' `DetailsProcessor.START` takes a type, a quoted title, or both
# (`??? "Title"`, `???+ note`); tabbed's `TabbedProcessor.START` needs a space and a quoted title.
_TYPES = r"[\w-]+(?: +[\w-]+)*"
_CONTAINER_RES = {
    "!": re.compile(rf'(?P<marker>!!!) ?(?P<types>{_TYPES})(?: +"(?P<title>.*)")? *$'),
    "?": re.compile(rf'(?P<marker>\?\?\?\+?) ?(?:(?P<types>{_TYPES})?(?: +"(?P<title>.*)")|(?P<only>{_TYPES})) *$'),
    "=": re.compile(r'(?P<marker>===(?:\+!?|!\+?)?) +"(?P<title>.*)" *$'),
}
# A line that must stay alone and untouched: snippets, abbreviations, [TOC].
_VERBATIM_LINE_RE = re.compile(r"(?:-{1,}8<-{1,}(?:[ \t].*)?|\*\[[^\]\n]+\]:.*|\[TOC\])[ \t]*$")
_ATX_RE = re.compile(r"(#{1,6})(.*)$")
_CM_ATX_RE = re.compile(r"(#{1,6})((?:[ \t].*)?)$")
_CM_CLOSING_RE = re.compile(r"(?:^|[ \t]+)#+[ \t]*$")
_SETEXT_RE = re.compile(r"(?:=+|-+) *$")
_SNIPPET_FENCE_RE = re.compile(r"-{1,}8<-{1,}[ \t]*$")

# pymdownx.blocks (pymdownx/blocks/__init__.py RE_START / RE_END): `/// name | argument`, `///`.
_BLOCKS_START_RE = re.compile(r"(?P<slashes>/{3,})[ ]*(?P<name>[\w-]+)[ ]*(?:\|[ ]*(?P<arg>.*?)[ ]*)?$")
_BLOCKS_END_RE = re.compile(r"(/{3,})[ ]*$")
# mkdocstrings' AutoDocProcessor (`::: identifier`, also `## ::: identifier`) and mkdocs-click's
# `::: mkdocs-click`; the indented lines after it are YAML options (or `:module:` fields).
_DIRECTIVE_RE = re.compile(r"(?:#{1,6} *)?::: ?\S.*$")
_DIRECTIVE_OPTIONS_RE = re.compile(r"(?:handler|options):")
# pymdownx.arithmatex block math written as a LaTeX environment: a whole chunk from
# `\begin{env}` to `\end{env}` (its other block forms, `$$` and `\[`, are found inline).
_MATH_ENV_RE = re.compile(r"\\begin\{([a-z]+\*?)\}")
_CODE_FENCE_RE = re.compile(r"(`{3,}|~{3,})")
# Blocks whose argument is a title people read. Others take selectors (`html | div.x`), figure
# numbers (`caption | < 2`) or nothing, and a custom block's argument means what its code says:
# kept as written.
_TITLED_BLOCKS = frozenset({"admonition", "details", "tab"})
# Admonition/details types that show their name as the title when none is given: pymdownx's
# default ``types`` and the list Material for MkDocs tells users to configure.
_BLOCK_TYPES = frozenset(
    "note attention caution danger error tip hint warning important new settings abstract info "
    "success question failure bug example quote".split()
)
# Tags pymdownx.blocks.html treats as raw (atomic) content, and the options that force it.
_BLOCKS_RAW_TAGS = frozenset({"canvas", "math", "option", "pre", "script", "style", "textarea", "code"})
_BLOCKS_RAW_OPTION_RE = re.compile(r"^[ \t]*markdown[ \t]*:[ \t]*['\"]?(?:raw|html)['\"]?[ \t]*$", re.MULTILINE)
_SELECTOR_TAG_RE = re.compile(r"[A-Za-z][\w-]*")

_OPEN_TAG_RE = re.compile(r"<([A-Za-z][A-Za-z0-9-]*)(?=[\s/>])[^>]*>")
_MD_ATTR_RE = re.compile(r"""\smarkdown(?:\s*=\s*(?:"(?:1|block)"|'(?:1|block)'|1|block))?(?=[\s/>])""")


BlockRule = Callable[[StateBlock, int, int, bool], bool]


def _line(state: StateBlock, line: int) -> str:
    return state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]]


def _is_blank(state: StateBlock, line: int) -> bool:
    return state.bMarks[line] + state.tShift[line] >= state.eMarks[line]


def _push_lines(state: StateBlock, token_type: str, first: int, end: int) -> None:
    """One token holding lines ``[first, end)`` byte for byte (less the block's indent)."""
    token = state.push(token_type, "", 0)
    token.map = [first, end]
    token.content = state.getLines(first, end, state.blkIndent, True)


def _keep_verbatim(state: StateBlock, first: int, end: int) -> bool:
    """The rule takes lines ``[first, end)`` as one ``zh_verbatim`` token, which the segmenter
    leaves alone (the page keeps them as they are)."""
    _push_lines(state, "zh_verbatim", first, end)
    state.line = end
    return True


def container(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """Admonitions, collapsible details and content tabs with their indented bodies."""
    if state.sCount[start_line] - state.blkIndent >= 4:
        return False
    text = _line(state, start_line)
    pattern = _CONTAINER_RES.get(text[:1])
    m = pattern.match(text) if pattern is not None else None
    if not m:
        return False
    if silent:
        return True
    tab = m["marker"].startswith("=")
    types = None if tab else m["types"] or m.groupdict().get("only")

    body_indent = state.sCount[start_line] + 4
    last = start_line  # last non-blank body line
    line = start_line + 1
    while line < end_line:
        if _is_blank(state, line):
            line += 1
            continue
        if state.sCount[line] < body_indent:
            break
        last = line
        line += 1
    end = last + 1

    line_start = state.bMarks[start_line] + state.tShift[start_line]
    token = state.push("zh_container_open", "div", 1)
    token.markup = m["marker"]
    token.info = "tab" if tab else "admonition"
    token.map = [start_line, end]
    token.block = True
    if m["title"] is None and types:
        # Python-Markdown shows the first type, capitalised; a translation must say it in
        # Chinese, so the segmenter offers it as a title to insert.
        default = state.push("zh_default_title", "", 0)
        default.content = types.split()[0].capitalize()
        default.meta = {"zh_offset": line_start + m.end("types" if m["types"] else "only")}
    if m["title"]:
        kind = "tab_title" if tab else "admonition_title"
        details = m["marker"].startswith("?")  # pymdownx.details makes a `#` title a heading
        push_title(state, m["title"], line_start + m.start("title"), start_line, kind, heading=details)

    old = (state.parentType, state.lineMax, state.blkIndent)
    state.parentType = "zh_container"
    state.lineMax = end
    state.blkIndent = body_indent
    state.md.block.tokenize(state, start_line + 1, end)
    state.parentType, state.lineMax, state.blkIndent = old
    close = state.push("zh_container_close", "div", -1)
    close.block = True
    state.line = end
    return True


def verbatim_lines(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """Snippet includes, abbreviation definitions and ``[TOC]``: kept byte for byte."""
    if state.sCount[start_line] - state.blkIndent >= 4:
        return False
    text = _line(state, start_line)
    if not text or text[0] not in "-*[" or not _VERBATIM_LINE_RE.match(text):
        return False
    if silent:
        # `[TOC]` is a marker only as a paragraph of its own (toc's treeprocessor matches the
        # whole `<p>`): after a paragraph line it is that paragraph's text.
        return not text.startswith("[TOC]")
    end = start_line + 1
    if _SNIPPET_FENCE_RE.match(text):  # block form: --8<-- / file lines / --8<--
        probe = end
        while probe < end_line and not _is_blank(state, probe):
            if _SNIPPET_FENCE_RE.match(_line(state, probe)):
                end = probe + 1
                break
            probe += 1
    return _keep_verbatim(state, start_line, end)


def _blocks_end(state: StateBlock, first: int, end_line: int, slashes: int) -> int:
    """The line of the ``///`` closing a block opened with ``slashes`` slashes, or ``end_line``.

    pymdownx keeps a stack: an inner ``/// name`` opens a block that the next end fence of its
    own length closes, so equal-length nesting works; code fences hide their lines first
    (SuperFences is a preprocessor).
    """
    stack = [slashes]
    fence: str | None = None
    line = first
    while line < end_line:
        if _is_blank(state, line) or state.sCount[line] - state.blkIndent >= 4:
            line += 1
            continue
        text = _line(state, line)
        if fence is not None:
            m = _CODE_FENCE_RE.match(text)
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not text[m.end() :].strip():
                fence = None
        elif (m := _CODE_FENCE_RE.match(text)) is not None:
            fence = m.group(1)
        elif (m := _BLOCKS_END_RE.match(text)) is not None:
            if len(m.group(1)) == stack[-1]:
                stack.pop()
                if not stack:
                    return line
        elif (m := _BLOCKS_START_RE.match(text)) is not None:
            stack.append(len(m["slashes"]))
        line += 1
    return end_line


def blocks(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """pymdownx.blocks: ``/// name | argument``, indented YAML options, a Markdown body, ``///``.

    Fence lines and options are never segments; the argument is a title only for admonitions,
    details and tabs; a body pymdownx keeps raw (``html | pre``, ``markdown: raw``) stays whole.
    """
    if state.sCount[start_line] - state.blkIndent >= 4:
        return False
    text = _line(state, start_line)
    if not text.startswith("///"):
        return False
    m = _BLOCKS_START_RE.match(text)
    if not m:
        return False
    if silent:
        return True
    name = m["name"].lower()
    body = start_line + 1
    while body < end_line and not _is_blank(state, body) and state.sCount[body] - state.blkIndent >= 4:
        body += 1  # the YAML options: only lines indented four or more, right after the header
    close = _blocks_end(state, body, end_line, len(m["slashes"]))
    end = min(close + 1, end_line)

    line_start = state.bMarks[start_line] + state.tShift[start_line]
    token = state.push("zh_container_open", "div", 1)
    token.markup = m["slashes"]
    token.info = "blocks"
    token.map = [start_line, end]
    token.block = True
    titled = name in _TITLED_BLOCKS or name in _BLOCK_TYPES
    if m["arg"] is None and name in _BLOCK_TYPES:
        default = state.push("zh_default_title", "", 0)
        default.content = name.capitalize()
        default.meta = {"zh_offset": line_start + m.end("name"), "zh_form": "pipe"}
    elif m["arg"] and titled:
        kind = "tab_title" if name == "tab" else "admonition_title"
        # the blocks admonition and details make a `#` title a heading; a tab's title is text
        push_title(state, m["arg"], line_start + m.start("arg"), start_line, kind, heading=name != "tab")

    options = state.getLines(start_line + 1, body, state.blkIndent, False)
    tag = _SELECTOR_TAG_RE.match(m["arg"] or "") if name == "html" else None
    raw_tag = tag is not None and tag.group(0).lower() in _BLOCKS_RAW_TAGS
    raw = raw_tag or _BLOCKS_RAW_OPTION_RE.search(options) is not None
    if raw and body < close:
        _push_lines(state, "zh_verbatim", body, close)
    elif body < close:
        old = (state.parentType, state.lineMax)
        state.parentType = "zh_container"
        state.lineMax = close
        state.md.block.tokenize(state, body, close)
        state.parentType, state.lineMax = old
    closing = state.push("zh_container_close", "div", -1)
    closing.block = True
    state.line = end
    return True


def directive(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """``::: identifier`` with its indented options: replaced by generated HTML, never prose.

    Like mkdocstrings, the options are the indented lines right below, or, after a blank line,
    an indented chunk that starts with ``handler:`` or ``options:``.
    """
    if state.sCount[start_line] - state.blkIndent >= 4:
        return False
    text = _line(state, start_line)
    if not text or text[0] not in ":#" or not _DIRECTIVE_RE.match(text):
        return False
    if silent:
        return True

    def indented(line: int) -> bool:
        return not _is_blank(state, line) and state.sCount[line] - state.blkIndent >= 4

    end = start_line + 1
    while end < end_line and indented(end):
        end += 1
    if end == start_line + 1:
        probe = end
        while probe < end_line and _is_blank(state, probe):
            probe += 1
        if probe > end and probe < end_line and indented(probe) and _DIRECTIVE_OPTIONS_RE.match(_line(state, probe)):
            end = probe
            while end < end_line and indented(end):
                end += 1
    return _keep_verbatim(state, start_line, end)


def math_env(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """``\\begin{align}`` … ``\\end{align}`` filling a chunk: math, never prose."""
    if state.sCount[start_line] - state.blkIndent >= 4:
        return False
    text = _line(state, start_line)
    m = _MATH_ENV_RE.match(text)
    if not m:
        return False
    closing = f"\\end{{{m.group(1)}}}"
    line = start_line
    while line < end_line and not _is_blank(state, line):
        if _line(state, line).rstrip().endswith(closing) and (line > start_line or len(text.rstrip()) > m.end()):
            end = line + 1
            if end < end_line and not _is_blank(state, end):
                return False  # more text in the chunk: arithmatex would not take it either
            if silent:
                return True
            return _keep_verbatim(state, start_line, end)
        line += 1
    return False


def _matching_close(src: str, tag: str, pos: int, limit: int) -> int:
    """Offset just past the ``</tag>`` that balances the tag opened before ``pos``, or -1."""
    depth = 1
    pattern = re.compile(rf"<(/?){re.escape(tag)}(?=[\s/>])[^>]*>", re.IGNORECASE)
    for m in pattern.finditer(src, pos, limit):
        if m.group(0).endswith("/>") and not m.group(1):
            continue
        depth += -1 if m.group(1) else 1
        if depth == 0:
            return m.end()
    return -1


def _line_of(state: StateBlock, offset: int, first: int, last: int) -> int:
    line = first
    while line < last and state.eMarks[line] < offset:
        line += 1
    return line


def html_block(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """A raw HTML block the way Python-Markdown reads it: up to the matching closing tag."""
    if state.sCount[start_line] - state.blkIndent >= 4:
        return False
    begin = state.bMarks[start_line] + state.tShift[start_line]
    if ">" in state.src[state.src.rfind("\n", 0, begin) + 1 : begin]:
        return False  # in a blockquote Python-Markdown never sees raw HTML: the tags are inline
    m = _OPEN_TAG_RE.match(state.src, begin, state.eMarks[start_line])
    if not m or m.group(1).lower() not in HTML_BLOCK_TAGS:
        return False
    tag = m.group(1).lower()
    if tag in HTML_VOID_BLOCK_TAGS:
        # `<hr>` has no closing tag to wait for: Python-Markdown takes the line alone and reads
        # the next line as Markdown again (waiting for `</hr>` made the rest of the page raw HTML).
        if state.src[m.end() : state.eMarks[start_line]].strip():
            return False
        if not silent:
            _push_html(state, start_line, start_line + 1)
            state.line = start_line + 1
        return True
    if m.group(0).endswith("/>"):
        return False
    # The enclosing container (list item, admonition) ends at the first line indented less.
    stop = start_line + 1
    while stop < end_line and (_is_blank(state, stop) or state.sCount[stop] >= state.blkIndent):
        stop += 1
    end_line = stop
    limit = state.eMarks[end_line - 1]
    close_end = _matching_close(state.src, tag, m.end(), limit)
    if close_end < 0:
        # Python-Markdown never closes it: the rest of the document (or container) is raw HTML.
        if silent:
            return True
        if _MD_ATTR_RE.search(m.group(0)) and not state.src[m.end() : state.eMarks[start_line]].strip():
            _push_html(state, start_line, start_line + 1, inside=end_line)  # md_in_html: still Markdown inside
            state.md.block.tokenize(state, start_line + 1, end_line)
        else:
            _push_html(state, start_line, end_line)
        state.line = end_line
        return True
    last = _line_of(state, close_end, start_line, end_line - 1)
    if state.src[close_end : state.eMarks[last]].strip():
        return False  # text after the closing tag: leave it to the CommonMark rule
    if silent:
        return True
    nested = (
        _MD_ATTR_RE.search(m.group(0)) is not None
        and not state.src[m.end() : state.eMarks[start_line]].strip()
        and last > start_line
        and re.fullmatch(rf"</{tag}\s*>", _line(state, last).strip(), re.IGNORECASE) is not None
    )
    if nested:
        _push_html(state, start_line, start_line + 1, inside=last + 1)
        old_max = state.lineMax
        state.lineMax = last
        state.md.block.tokenize(state, start_line + 1, last)
        state.lineMax = old_max
        _push_html(state, last, last + 1)
    else:
        _push_html(state, start_line, last + 1)
    state.line = last + 1
    return True


def _push_html(state: StateBlock, first: int, end: int, *, inside: int | None = None) -> None:
    """``inside``: the tag opens Markdown (md_in_html) read as blocks of their own up to that
    line (its closing tag included): they lie inside this block, not beside it (``_toplevel``)."""
    _push_lines(state, "html_block", first, end)
    if inside is not None:
        state.tokens[-1].meta["zh_inside"] = inside


def _superfence_pairs(state: StateBlock) -> dict[int, int]:
    """SuperFences' pairing of the page's lines, computed once per parse."""
    pairs: dict[int, int] | None = state.env.get("zh_superfences")
    if pairs is None:
        pairs = state.env["zh_superfences"] = superfence_pairs(state.src.split("\n"))
    return pairs


def superfence_openers(state: StateBlock) -> list[int]:
    """The lines SuperFences opens a block on, in order (computed once per parse)."""
    openers: list[int] | None = state.env.get("zh_superfence_openers")
    if openers is None:
        openers = state.env["zh_superfence_openers"] = sorted(_superfence_pairs(state))
    return openers


def superfence(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """Code fences paired the way pymdownx.superfences pairs them (see ``_superfences``).

    A line SuperFences opens a block with becomes a fence up to the line it closes it with. A
    line CommonMark would open a fence with but SuperFences does not (a header it refuses, a
    block nothing closes or that leaves the container) is text to Python-Markdown, whose
    backticks pair with others around it: its lines up to the next blank line stay English
    (``zh_verbatim``; the segmenter leaves the whole chunk around it alone). Either way the
    paragraph above ends there.
    """
    if state.sCount[start_line] - state.blkIndent >= 4:
        return False
    text = _line(state, start_line)
    m = _CODE_FENCE_RE.match(text)
    if not m:
        return False
    markup = m.group(1)
    close = _superfence_pairs(state).get(start_line)
    if close is not None and close < end_line:
        if silent:
            return True
        token = state.push("fence", "code", 0)
        token.info = text[m.end() :]
        token.content = state.getLines(start_line + 1, close, state.sCount[start_line], True)
        token.markup = markup
        token.map = [start_line, close + 1]
        state.line = close + 1
        return True
    if markup[0] == "`" and "`" in text[m.end() :]:
        return False  # not a fence to CommonMark either: inline code in a paragraph
    if silent:
        return True
    pairs = _superfence_pairs(state)
    end = start_line + 1
    while end < end_line and not _is_blank(state, end) and end not in pairs:
        end += 1
    state.env.setdefault("zh_fence_text", []).append(start_line)
    return _keep_verbatim(state, start_line, end)


def _heading_ends_paragraph(state: StateBlock, line: int) -> bool:
    """Does the ``#`` line ``line`` end the paragraph above it?

    HashHeaderProcessor searches the whole block for a ``#`` at the start of a line and splits
    the paragraph there. The block is the container's body with its indentation removed, except
    in a list item, whose continuation lines keep theirs: there only a line at or left of the
    list marker's column is a heading (and ends the list); an item's indented ``## x`` is text.
    """
    text = _line(state, line)
    if not _ATX_RE.match(text) or no_python_markdown_heading(text):
        return False
    if state.listIndent >= 0:
        return state.sCount[line] <= state.listIndent
    return state.sCount[line] == state.blkIndent


def atx_heading(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """``#`` headings the way Python-Markdown reads them, where that differs from CommonMark.

    No space is needed after the hashes (``#5 bolt`` is a heading) and closing hashes count
    only at the very end of the line (``# C#`` is the heading "C"). A heading indented one to
    three spaces is a CommonMark heading but Python-Markdown paragraph text: it is segmented as
    a heading that gets no id pinned (the pin would show up as text).
    """
    if silent:
        return _heading_ends_paragraph(state, start_line)
    indent = state.sCount[start_line] - state.blkIndent
    if indent < 0 or indent >= 4:
        return False
    text = _line(state, start_line)
    m = (_ATX_RE if indent == 0 else _CM_ATX_RE).match(text)
    if not m:
        return False
    level = len(m.group(1))
    body = m.group(2)
    if indent == 0:
        body = strip_closing_hashes(body)
    else:
        closing = _CM_CLOSING_RE.search(body)
        body = body[: closing.start()] if closing else body
    state.line = start_line + 1
    token = state.push("heading_open", f"h{level}", 1)
    token.markup = "#" * level
    token.map = [start_line, state.line]
    if indent:
        token.meta["zh_no_id"] = True
    elif no_python_markdown_heading(text):
        token.meta["zh_english"] = True  # paragraph text there; a translation could make it a heading
    inline = state.push("inline", "", 0)
    inline.content = body.strip()
    inline.map = [start_line, state.line]
    inline.children = []
    state.push("heading_close", f"h{level}", -1).markup = "#" * level
    return True


def _python_markdown_setext(lheading: BlockRule) -> BlockRule:
    """Setext headings only where Python-Markdown sees one: one line of text, then an
    unindented ``===``/``---`` line. ``Foo\nBar\n---`` is a paragraph and a rule there."""

    def rule(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        underline = start_line + 1
        if underline >= end_line or state.sCount[underline] != state.blkIndent:
            return False
        if not _SETEXT_RE.match(_line(state, underline)):
            return False
        return lheading(state, start_line, end_line, silent)

    return rule


def _lists_interrupt_only_lists(list_rule: BlockRule) -> BlockRule:
    """A list marker line ends a paragraph only inside a list item.

    Python-Markdown's list processors match at the start of a block only, so ``Text\n- item``
    is one paragraph; within an item, the list processor itself splits the lines into items.
    """

    def rule(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        if silent and state.parentType == "paragraph" and state.listIndent < 0:
            return False
        return list_rule(state, start_line, end_line, silent)

    return rule


def _outside_lists(rule: BlockRule) -> BlockRule:
    """Run a container rule with no list around: its body is parsed afresh by Python-Markdown
    (a blockquote's, an admonition's), where list lines do not end a paragraph."""

    def wrapped(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        old = state.listIndent
        state.listIndent = -1
        try:
            return rule(state, start_line, end_line, silent)
        finally:
            state.listIndent = old

    return wrapped


def _rule(md: MarkdownIt, name: str) -> BlockRule:
    fn: BlockRule = next(r.fn for r in md.block.ruler.__rules__ if r.name == name)
    return fn


def install(md: MarkdownIt) -> None:
    alt = ["paragraph", "reference", "blockquote", "list"]
    # `ruler.at` resets a rule's `alt`: give the heading CommonMark's list back, so that a `#`
    # line ends the paragraph above it as HashHeaderProcessor does.
    md.block.ruler.at("heading", atx_heading, {"alt": alt[:3]})
    md.block.ruler.at("list", _lists_interrupt_only_lists(_rule(md, "list")), {"alt": alt[:3]})
    md.block.ruler.at("blockquote", _outside_lists(_rule(md, "blockquote")), {"alt": alt})
    md.block.ruler.at("lheading", _python_markdown_setext(_rule(md, "lheading")))
    md.block.ruler.before("fence", "zh_superfence", superfence, {"alt": alt})
    md.block.ruler.before("fence", "zh_container", _outside_lists(container), {"alt": alt})
    md.block.ruler.before("fence", "zh_blocks", _outside_lists(blocks), {"alt": alt})
    md.block.ruler.before("fence", "zh_directive", directive, {"alt": alt})
    # arithmatex takes a whole chunk only: it never interrupts a paragraph (and a silent probe
    # from every paragraph line would rescan the chunk)
    md.block.ruler.before("fence", "zh_math_env", math_env, {"alt": []})
    md.block.ruler.before("fence", "zh_verbatim", verbatim_lines, {"alt": alt})
    md.block.ruler.before("html_block", "zh_html_block", html_block, {"alt": alt})
