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
from docutils.languages import get_language
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


def english_contents(document: nodes.document) -> None:
    """A ``.. contents::`` without a title is named by the language's label, and Chinese
    "目录" makes no id: docutils numbers the topic (``id1``), so the English ``#contents`` is
    missing and every later numbered id of the page is one higher than in English. Such a topic
    gets the id the English label makes, and the later numbers move back by one (their
    references, names and the counter too), as the English parse numbered them."""
    language = document.settings.language_code
    local = nodes.fully_normalize_name(get_language(language, None).labels["contents"])
    english = nodes.make_id(get_language("en", None).labels["contents"])
    for topic in list(document.findall(nodes.topic)):
        title = topic.next_node(nodes.title)
        m = _NUMBERED.fullmatch(topic["ids"][0]) if len(topic["ids"]) == 1 else None
        if m is None or topic["names"] != [local] or english in document.ids or (title and title.rawsource):
            continue
        prefix, number = m.group(1), int(m.group(2))
        later = (_NUMBERED.fullmatch(i) for i in list(document.ids))
        mapping = {x.group(0): f"{prefix}{int(x.group(2)) - 1}" for x in later if x and x.group(1) == prefix}
        mapping = {old: new for old, new in mapping.items() if int(old[len(prefix) :]) > number}
        mapping[topic["ids"][0]] = english
        _rename(document, document, mapping)
        document.nameids.update({n: mapping[i] for n, i in document.nameids.items() if i in mapping})
        document.id_counter[prefix] -= 1


def _kind(ident: str) -> str:
    m = _NUMBERED.fullmatch(ident)
    return m.group(1) if m else ident


def _rename(document: nodes.document, node: nodes.Element, mapping: dict[str, str]) -> None:
    """Every id, reference to an id and index entry target below ``node`` renamed."""
    renamed = [n for n in node.findall(nodes.Element, include_self=False) if any(i in mapping for i in n["ids"])]
    for n in renamed:  # all old entries out before any new one is in: names may swap
        for i in n["ids"]:
            if document.ids.get(i) is n:
                del document.ids[i]
    for n in renamed:
        n["ids"] = [mapping.get(i, i) for i in n["ids"]]
        document.ids.update((i, n) for i in n["ids"])
    for n in node.findall(nodes.Element, include_self=False):
        if n.get("refid") in mapping:
            n["refid"] = mapping[n["refid"]]
        if n.get("backrefs"):
            n["backrefs"] = [mapping.get(i, i) for i in n["backrefs"]]
        if isinstance(n, addnodes.index):
            n["entries"] = [(*e[:2], mapping.get(e[2], e[2]), *e[3:]) for e in n["entries"]]
