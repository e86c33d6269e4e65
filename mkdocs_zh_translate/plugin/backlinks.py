"""mkdocstrings backlinks in the zh build laid out exactly as the English build laid them out.

mkdocstrings' handlers (mkdocstrings-python 2.0) render an object's backlinks ("Referenced by:
Guide > User guide > Navigating APIs > Aliases") as a tree built by the ``backlink_tree`` Jinja
filter from a *set* of backlinks. That builder depends on the set's iteration order: when a
backlink ends at a crumb that another, longer backlink passes through ("Navigating APIs" and
"Navigating APIs > Aliases"), whichever comes later replaces the other's subtree. The order of a
set of crumbs follows the hashes of their titles, and string hashes change with every process
(``PYTHONHASHSEED``): the English site itself differs between two builds (measured: 6 of 61
backlink blocks of griffe's ``reference/api/models/alias`` page), and the zh build, whose crumb
titles are translated headings, gets another draw. That was the last difference between the en
and zh API pages of the real-world corpus (8 griffe pages "broken", links lost).

The fix keeps the English site exactly as mkdocstrings makes it and has the zh build follow it:

* in the English build a pass-through wrapper records, for each set of backlinks (by the URLs of
  their crumbs, which are the same in both builds), the tree the handler's own filter built and
  the order the template's ``dictsort`` shows its branches in;
* in the zh build the wrapper rebuilds that tree from the zh crumbs (translated titles) and hands
  the template keys that sort in the English order, so the zh page lists the same backlinks in
  the same places. A set the English build never rendered goes to the handler's own filter.

Only the Jinja filter of handlers that define one is wrapped; mkdocstrings' code is untouched.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

FILTER = "backlink_tree"

Chain = tuple[str, ...]  # the URLs of a backlink's crumbs ("" for a section without a page)
# A tree, branches in the order shown: (a backlink under the branch, by its chain; the branch's
# crumbs are that backlink's crumbs[start:end]; the branch's own branches).
Shape = tuple[tuple[Chain, int, int, "Shape"], ...]


class _Ordered(tuple):  # type: ignore[type-arg]
    """A tree key (a tuple of crumbs) that sorts by the English build's order, not its titles."""

    rank: int

    def __new__(cls, items: Iterable[Any], rank: int) -> _Ordered:
        made = super().__new__(cls, items)
        made.rank = rank
        return made

    def __lt__(self, other: object) -> bool:
        return self.rank < other.rank if isinstance(other, _Ordered) else NotImplemented

    def __gt__(self, other: object) -> bool:
        return self.rank > other.rank if isinstance(other, _Ordered) else NotImplemented

    def __hash__(self) -> int:
        return tuple.__hash__(self)

    def __eq__(self, other: object) -> bool:
        return tuple.__eq__(self, other)


def _urls(crumbs: Iterable[Any]) -> Chain:
    return tuple(str(getattr(c, "url", "")) for c in crumbs)


def _key(backlinks: Iterable[Any]) -> frozenset[Chain]:
    return frozenset(_urls(getattr(b, "crumbs", ())) for b in backlinks)


def _shape(tree: dict[Any, Any], depth: int = 0, prefix: Chain = ()) -> Shape:
    """The tree by backlinks, branches in the order the template shows them (dictsort).

    A branch is named by a backlink passing through it, not by its own URLs: two sections
    without pages ("Manipulating APIs", "How-to") both have the URL "", but every backlink's
    chain ends in a page anchor, so it is unique."""
    out = []
    for node in sorted(tree):
        chain = prefix + _urls(node)
        children = _shape(tree[node], len(chain), chain)
        out.append((children[0][0] if children else chain, depth, len(chain), children))
    return tuple(out)


def _rebuild(shape: Shape, backlinks: dict[Chain, Any]) -> dict[Any, Any] | None:
    """A tree of zh crumbs with the English tree's shape and order (None if a backlink is missing)."""
    tree: dict[Any, Any] = {}
    for rank, (chain, start, end, children) in enumerate(shape):
        backlink = backlinks.get(chain)
        child = _rebuild(children, backlinks)
        if backlink is None or child is None:
            return None
        tree[_Ordered(tuple(backlink.crumbs)[start:end], rank)] = child
    return tree


@dataclass
class BacklinkLayout:
    """The English build's backlink trees, kept across the two builds (the plugin's state)."""

    shapes: dict[frozenset[Chain], Shape] = field(default_factory=dict)
    followed: int = 0  # zh trees laid out from an English one
    missed: int = 0  # zh trees the English build never rendered

    def install(self, mkdocstrings: Any, *, zh: bool) -> None:
        """Wrap ``backlink_tree`` in every handler ``mkdocstrings`` has created so far: they
        render backlinks after all pages are rendered, so this runs in ``on_env``."""
        handlers = getattr(mkdocstrings, "handlers", None)
        for handler in getattr(handlers, "seen_handlers", ()) or ():
            filters = getattr(getattr(handler, "env", None), "filters", None)
            original = filters.get(FILTER) if isinstance(filters, dict) else None
            if original is None or getattr(original, "zh_translate_wrapped", False):
                continue
            assert isinstance(filters, dict)
            filters[FILTER] = self._follow(original) if zh else self._record(original)

    def _record(self, original: Callable[[Any], Any]) -> Callable[[Any], Any]:
        def record(backlinks: Any) -> Any:
            backlinks = list(backlinks)
            tree = original(backlinks)
            with contextlib.suppress(TypeError, AttributeError):  # crumbs unlike mkdocs-autorefs' own
                self.shapes[_key(backlinks)] = _shape(tree)
            return tree

        record.zh_translate_wrapped = True  # type: ignore[attr-defined]
        return record

    def _follow(self, original: Callable[[Any], Any]) -> Callable[[Any], Any]:
        def follow(backlinks: Any) -> Any:
            backlinks = list(backlinks)
            shape = self.shapes.get(_key(backlinks))
            if shape is not None:
                tree = _rebuild(shape, {_urls(b.crumbs): b for b in backlinks})
                if tree is not None:
                    self.followed += 1
                    return tree
            self.missed += 1
            return original(backlinks)

        follow.zh_translate_wrapped = True  # type: ignore[attr-defined]
        return follow
