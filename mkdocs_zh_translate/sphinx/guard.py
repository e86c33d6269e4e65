"""The message guard: a machine translation must render the references, code and ids of the English.

The Sphinx counterpart of the MkDocs page guard. ``pofill``'s validation already checks the
translation *text* (every protected part is there, byte for byte); this checks what docutils
makes of it in the document: the translated message is parsed the way Sphinx's own ``Locale``
transform will parse it, and the multiset of its links (URI or reference name), cross-references
(domain, role, target), inline literals, math, footnote/citation/substitution references and
inline targets must equal the English node's. Otherwise the message stays English. The check
runs before ``Locale``, so Sphinx never splices a message that would be reverted (reverting after
the splice would leave the document's reference tables pointing at the discarded nodes).
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


def facts(node: nodes.Node) -> Counter[Fact]:
    """What must survive translation, collected below ``node`` (its own ids are Sphinx's to keep)."""
    found: Counter[Fact] = Counter()
    for n in node.findall(include_self=False):
        if isinstance(n, nodes.reference):
            target = n.get("refuri") or n.get("refname") or n.get("refid") or ""
            found["link", _norm(str(target)).lower() if n.get("refname") else str(target)] += 1
        elif isinstance(n, addnodes.pending_xref):
            target = _norm(str(n.get("reftarget", "")))  # a msgid turned the source's line breaks into spaces
            found["xref", str(n.get("refdomain", "")), str(n.get("reftype", "")), target] += 1
        elif isinstance(n, nodes.literal):
            found["code", _norm(n.astext())] += 1
        elif isinstance(n, nodes.math):
            found["math", _norm(n.astext())] += 1
        elif isinstance(n, nodes.footnote_reference):
            found["footnote", str(n.get("refname") or ("auto" if n.get("auto") else n.astext()))] += 1
        elif isinstance(n, nodes.citation_reference):
            found["citation", str(n.get("refname", ""))] += 1
        elif isinstance(n, nodes.substitution_reference):
            found["substitution", str(n.get("refname", ""))] += 1
        elif isinstance(n, nodes.target) and not n.get("refuri") and not n.get("refname"):
            # inline targets (_`name`); the target `text <url>`_ or `text <name_>`_ defines is
            # a name the translated form renames or does not define (pofill.rst keeps the text
            # of those another message refers to)
            names: Fact = ("target", *sorted(str(x) for x in n.get("names", [])))
            found[names] += 1
        elif isinstance(n, (nodes.problematic, nodes.system_message)):
            found["markup error", _norm(n.astext())[:60]] += 1
    return found


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
    before, after = facts(original), facts(patch)
    if before == after:
        return ""
    missing, extra = before - after, after - before
    parts = []
    if missing:
        parts.append("lost " + ", ".join(_show(f) for f in missing))
    if extra:
        parts.append("added " + ", ".join(_show(f) for f in extra))
    return "; ".join(parts)


def _show(fact: Fact) -> str:
    text = " ".join(fact[1:])
    text = re.sub(r"\s+", " ", text)
    return f"{fact[0]} {text[:50]!r}"
