"""mkdocstrings backlinks: the zh build lays them out as the English build did (issue 12).

mkdocstrings-python builds a backlink tree in the iteration order of a set, and a backlink
that ends at a crumb another one passes through replaces that crumb's branch when it comes
later; the set's order follows string hashes (per process) of the crumb titles, which the zh
build translates. These tests feed the handler's own filter the same backlinks in two orders.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

autorefs = pytest.importorskip("mkdocs_autorefs")
python_handler = pytest.importorskip("mkdocstrings_handlers.python")

from mkdocs_zh_translate.plugin.backlinks import FILTER, BacklinkLayout  # noqa: E402

Crumb, Backlink = autorefs.BacklinkCrumb, autorefs.Backlink


def _backlinks(mark: str = "") -> list[Any]:
    """Guide > Manipulating > Navigating (#top) [> Aliases (#aliases)], and Guide > How-to > Parse."""

    def c(title: str, url: str) -> Any:
        return Crumb(title=f"{mark}{title}{mark}", url=url)

    guide, manip, howto = c("Guide", "guide/"), c("Manipulating", ""), c("How-to", "")
    top, aliases = c("Navigating", "nav/#top"), c("Aliases", "nav/#aliases")
    parse = c("Parse", "parse/#parse")
    return [
        Backlink((guide, manip, top)),
        Backlink((guide, manip, top, aliases)),
        Backlink((guide, howto, parse)),
    ]


def _mkdocstrings(layout: BacklinkLayout, zh: bool) -> dict[str, Any]:
    filters = {FILTER: python_handler.do_backlink_tree}
    handler = SimpleNamespace(env=SimpleNamespace(filters=filters))
    layout.install(SimpleNamespace(handlers=SimpleNamespace(seen_handlers=[handler])), zh=zh)
    return filters


def _shown(tree: dict[Any, Any]) -> list[Any]:
    """What the template shows: branches sorted as dictsort sorts them, crumbs as (title, url)."""
    return [
        ([(c.title.strip("「」"), c.url) for c in node], _shown(tree[node]))
        for node, _ in sorted(tree.items(), key=lambda item: item[0])
    ]


def test_the_handler_filter_depends_on_the_order_it_is_given() -> None:
    # the upstream behaviour this module exists for: same set, two orders, two trees
    links = _backlinks()
    assert _shown(python_handler.do_backlink_tree(links)) != _shown(python_handler.do_backlink_tree(links[::-1]))


@pytest.mark.parametrize("english_order", [1, -1])
def test_zh_follows_the_english_layout_whatever_its_own_order(english_order: int) -> None:
    layout = BacklinkLayout()
    english = _mkdocstrings(layout, zh=False)[FILTER](_backlinks()[::english_order])
    zh = _mkdocstrings(layout, zh=True)[FILTER](_backlinks("「")[::-english_order])
    assert _shown(zh) == _shown(english)
    assert layout.followed == 1 and layout.missed == 0
    # the zh crumbs are the translated ones
    assert all(c.title.startswith("「") for node in zh for c in node)


def test_english_output_is_the_handlers_own() -> None:
    layout = BacklinkLayout()
    links = _backlinks()
    assert _shown(_mkdocstrings(layout, zh=False)[FILTER](links)) == _shown(python_handler.do_backlink_tree(links))


def test_backlinks_the_english_build_never_rendered_use_the_handlers_filter() -> None:
    layout = BacklinkLayout()
    zh_links = _backlinks("「")
    zh = _mkdocstrings(layout, zh=True)[FILTER](zh_links)
    assert _shown(zh) == _shown(python_handler.do_backlink_tree(zh_links))
    assert layout.missed == 1


def test_a_filter_is_wrapped_once() -> None:
    layout = BacklinkLayout()
    filters = _mkdocstrings(layout, zh=False)
    wrapped = filters[FILTER]
    layout.install(SimpleNamespace(handlers=SimpleNamespace(seen_handlers=[SimpleNamespace(env=SimpleNamespace(filters=filters))])), zh=True)
    assert filters[FILTER] is wrapped
