"""References with no definition in the page: mkdocs-autorefs' cross-references.

``[text][identifier]`` and ``[identifier][]`` are plain text to CommonMark when the page defines
no ``[identifier]: url``; mkdocs-autorefs (every mkdocstrings site) resolves them across the
site. The identifier is an object path or heading id, so it is never the model's: the text of
``[text][id]`` is a translated link label (a ``<gN>`` pair whose closing ``][id]`` is kept),
and ``[identifier][]`` is kept whole, because there the text is the identifier.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline

# Python-Markdown's reference id: anything but "]" (autorefs identifiers never span lines).
_ID_RE = re.compile(r"\[([^\]\n]*)\]")


def autoref(state: StateInline, silent: bool) -> bool:
    """Runs after markdown-it's ``link`` rule, so only where no definition made it a link."""
    src, start = state.src, state.pos
    if src[start] != "[" or state.linkLevel > 0:
        return False
    label_end = state.md.helpers.parseLinkLabel(state, start, True)
    if label_end < 0:
        return False
    m = _ID_RE.match(src, label_end + 1, state.posMax)
    if not m or label_end == start + 1:
        return False
    identifier = m.group(1)
    if silent:
        state.pos = m.end()
        return True
    if not identifier.strip():  # [identifier][]: the text is the identifier
        token = state.push("zh_atom", "", 0)
        token.info = "autoref"
        token.content = src[start : m.end()]
        token.meta["pos"] = (start, m.end())
        state.pos = m.end()
        return True
    old_max = state.posMax
    opener = state.push("link_open", "a", 1)
    opener.meta["pos"] = (start, m.end())
    opener.meta["label_end"] = label_end
    opener.info = "autoref"
    state.pos = start + 1
    state.posMax = label_end
    state.linkLevel += 1
    state.md.inline.tokenize(state)
    state.linkLevel -= 1
    closer = state.push("link_close", "a", -1)
    closer.meta["pos"] = (start, m.end())
    state.pos = m.end()
    state.posMax = old_max
    return True


def install(md: MarkdownIt) -> None:
    md.inline.ruler.after("link", "zh_autoref", autoref)
