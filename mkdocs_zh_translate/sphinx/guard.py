"""The message guard: a machine translation must render the references, code and ids of the English.

The Sphinx counterpart of the MkDocs page guard. ``pofill``'s validation already checks the
translation *text* (every protected part is there, byte for byte); this checks what docutils
makes of it in the document: the translated message is parsed the way Sphinx's own ``Locale``
transform will parse it, and the multiset of its links (URI or reference name), cross-references
(domain, role, target), inline literals, math, footnote/citation/substitution references and
inline targets must equal the English node's. Otherwise the message stays English. The check
runs before ``Locale``, so Sphinx never splices a message that would be reverted (reverting after
the splice would leave the document's reference tables pointing at the discarded nodes).

A reviewed catalog entry passes the same rule, stricter (:func:`markup_changed`): its text is
free-form, not our placeholders restored, so every element its parse makes (a role's node, raw
HTML, an image, a directive's block) must be one the English message's parse makes too. Only
emphasis may come and go; words may change.
"""

from __future__ import annotations

import inspect
import re
from collections import Counter
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms import i18n

Fact = tuple[str, ...]

_publish: Any = getattr(i18n, "_publish_msgstr", None) or getattr(i18n, "publish_msgstr", None)
_PUBLISH_TAKES_ENV = _publish is not None and "registry" in inspect.signature(_publish).parameters


def _norm(text: str) -> str:
    return " ".join(text.split())


def facts(node: nodes.Node, *, every_element: bool = False) -> Counter[Fact]:
    """What must survive translation, collected below ``node`` (its own ids are Sphinx's to keep).
    ``every_element``: ``node`` itself too, and each other element by its tag and classes
    (emphasis and the names a link defines aside), for text that is not our restored placeholders."""
    found: Counter[Fact] = Counter()
    for n in node.findall(include_self=every_element):
        fact = _inline_fact(n) or _reference_fact(n)
        if fact is None and every_element and isinstance(n, nodes.Element) and not isinstance(n, _FREE):
            fact = ("element", n.tagname, *sorted(str(c) for c in n.get("classes", [])))
        if fact is not None:
            found[fact] += 1
    return found


def _inline_fact(n: nodes.Node) -> Fact | None:
    """Raw markup, images, links, cross-references, code and math."""
    if isinstance(n, nodes.raw):  # before the Inline kinds: a raw role is text HTML gets as is
        return "raw", str(n.get("format", "")), n.astext()
    if isinstance(n, nodes.image):
        return "image", str(n.get("uri", ""))
    if isinstance(n, nodes.reference):
        target = n.get("refuri") or n.get("refname") or n.get("refid") or ""
        return "link", _norm(str(target)).lower() if n.get("refname") else str(target)
    if isinstance(n, addnodes.pending_xref):
        target = _norm(str(n.get("reftarget", "")))  # a msgid turned the source's line breaks into spaces
        return "xref", str(n.get("refdomain", "")), str(n.get("reftype", "")), target
    if isinstance(n, nodes.literal):
        return "code", _norm(n.astext())
    if isinstance(n, nodes.math):
        return "math", _norm(n.astext())
    return None


def _reference_fact(n: nodes.Node) -> Fact | None:
    """Footnote, citation and substitution references, inline targets, markup errors."""
    if isinstance(n, nodes.footnote_reference):
        return "footnote", str(n.get("refname") or ("auto" if n.get("auto") else n.astext()))
    if isinstance(n, nodes.citation_reference):
        return "citation", str(n.get("refname", ""))
    if isinstance(n, nodes.substitution_reference):
        return "substitution", str(n.get("refname", ""))
    if isinstance(n, nodes.target) and not n.get("refuri") and not n.get("refname"):
        # inline targets (_`name`); the target `text <url>`_ or `text <name_>`_ defines is
        # a name the translated form renames or does not define (pofill.rst keeps the text
        # of those another message refers to)
        return ("target", *sorted(str(x) for x in n.get("names", [])))
    if isinstance(n, (nodes.problematic, nodes.system_message)):
        return "markup error", _norm(n.astext())[:60]
    return None


# what a reviewer may add or drop: emphasis, and the name a link defines (``text <url>`_``
# defines "text", its anonymous form ``__`` none: the words changed, so may the name)
_FREE = (nodes.emphasis, nodes.strong, nodes.target)


def published(transform: Any, msgstr: str, node: nodes.Element) -> nodes.Node:
    """``msgstr`` parsed in the document's context as Sphinx's ``Locale`` transform parses it."""
    msgstr, _noqa = i18n.parse_noqa(msgstr)
    if msgstr.strip().endswith("::"):
        msgstr += "\n\n   dummy literal"
    source, line = transform.document["source"], node.line or 0
    if _PUBLISH_TAKES_ENV:
        patch: nodes.Node = _publish(
            msgstr,
            source,
            line,
            config=transform.config,
            env=transform.env,
            registry=transform.env._registry,
            settings=transform.document.settings,
        )
    else:  # Sphinx 7 and 8.0/8.1
        patch = _publish(transform.app, msgstr, source, line, transform.config, transform.document.settings)
    return patch


def lost(original: nodes.Element, patch: nodes.Node) -> str:
    """Why the translation's nodes differ from the original's ("" when they do not)."""
    return _difference(facts(original), facts(patch))


def _difference(before: Counter[Fact], after: Counter[Fact]) -> str:
    if before == after:
        return ""
    missing, extra = before - after, after - before
    parts = []
    if missing:
        parts.append("lost " + ", ".join(_show(f) for f in missing))
    if extra:
        parts.append("added " + ", ".join(_show(f) for f in extra))
    return "; ".join(parts)


def markup_changed(english: nodes.Node, reviewed: nodes.Node) -> str:
    """Why a reviewed translation's parse has other markup than the English message's parse
    ("" when it has the same): both parsed by :func:`published`, so a difference is the
    reviewer's markup (a role, link target, substitution, raw HTML, image, directive)."""
    if english.tagname != reviewed.tagname:
        return f"is a {reviewed.tagname} where the English is a {english.tagname} (a directive or other block markup)"
    before, after = facts(english, every_element=True), facts(reviewed, every_element=True)
    return _difference(before, after)


def _show(fact: Fact) -> str:
    text = " ".join(fact[1:])
    text = re.sub(r"\s+", " ", text)
    return f"{fact[0]} {text[:50]!r}"
