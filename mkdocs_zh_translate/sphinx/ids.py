"""Numbered ids inside translated messages given back their English numbers.

Sphinx's ``Locale`` parses each translated message again and splices the result into the
document. Markup that numbers its ids as it is parsed numbers them again: an ``:index:`` or
``:pep:`` role's target takes the document's next ``index-N`` (the English parse used the
earlier ones), a docutils ``idN`` the next number of the message's own small document. So
``page.html#index-0`` of the English site would be ``#index-3`` in Chinese and deep links break.

Before ``Locale`` (:func:`english`), each machine-translated node's numbered ids are noted in
document order; after it (:func:`restore`), the ids of the same kind the spliced translation
carries are renamed to those, in order, together with what points at them inside the message
(index entries, ``refid``, ``backrefs``) and the document's id table. A kind whose count
changed (the translation dropped or added such markup; the guard refuses most of that) is left
as Sphinx numbered it: no id is ever given to two nodes.
"""

from __future__ import annotations

import re

from docutils import nodes
from sphinx import addnodes

_NUMBERED = re.compile(r"(index-|id)(\d+)")


def english(node: nodes.Element) -> list[str]:
    """The numbered ids below ``node`` (not its own: Sphinx keeps those), in document order."""
    return [i for n in node.findall(nodes.Element, include_self=False) for i in n["ids"] if _NUMBERED.fullmatch(i)]


def restore(document: nodes.document, node: nodes.Element, before: list[str]) -> None:
    """Rename the numbered ids Sphinx's splice gave ``node``'s new children to ``before``."""
    mapping: dict[str, str] = {}
    now = english(node)
    kept = set(now) & set(before)  # Sphinx gives footnote references theirs back itself
    for kind in {_kind(i) for i in before}:
        old = [i for i in before if _kind(i) == kind and i not in kept]
        new = [i for i in now if _kind(i) == kind and i not in kept]
        if len(old) == len(new):
            mapping.update((n, o) for n, o in zip(new, old) if n != o)
    if mapping:
        _rename(document, node, mapping)


def _kind(ident: str) -> str:
    m = _NUMBERED.fullmatch(ident)
    return m.group(1) if m else ident


def _rename(document: nodes.document, node: nodes.Element, mapping: dict[str, str]) -> None:
    """Every id, reference to an id and index entry target below ``node`` renamed."""
    for n in node.findall(nodes.Element, include_self=False):
        if any(i in mapping for i in n["ids"]):
            for i in n["ids"]:
                if document.ids.get(i) is n:
                    del document.ids[i]
            n["ids"] = [mapping.get(i, i) for i in n["ids"]]
            for i in n["ids"]:
                document.ids[i] = n
        if n.get("refid") in mapping:
            n["refid"] = mapping[n["refid"]]
        if n.get("backrefs"):
            n["backrefs"] = [mapping.get(i, i) for i in n["backrefs"]]
        if isinstance(n, addnodes.index):
            n["entries"] = [(*e[:2], mapping.get(e[2], e[2]), *e[3:]) for e in n["entries"]]
