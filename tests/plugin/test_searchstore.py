"""Search entries read back from the machine cache: taken only when Material could have written them."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from mkdocs_zh_translate.plugin.searchstore import checked, strip_search_attributes


def _page(meta: dict[str, Any] | None = None) -> Any:
    return SimpleNamespace(url="guide/usage/", meta=meta or {})


def _entry(**changes: Any) -> dict[str, Any]:
    entry = {"location": "guide/usage/#install", "title": "安裝", "text": "<p>用 <code>pip</code> 安裝 a &lt;b&gt;</p>"}
    entry.update(changes)
    return entry


def test_what_material_writes_is_taken() -> None:
    entries = [_entry(), _entry(location="guide/usage/", text="<ul><li>一</li></ul>")]
    assert checked(entries, _page()) == entries
    tagged = [_entry(tags=["a", "1"], boost=2)]
    assert checked(tagged, _page({"tags": ["a", 1, None], "search": {"boost": 2}})) == tagged
    assert checked([], _page({"search": {"exclude": True}})) == []


def test_markup_material_never_writes_is_refused() -> None:
    for bad in (
        _entry(text='<p onclick="x()">a</p>'),
        _entry(text="<img src=x onerror=alert(1)>"),
        _entry(title="<script>alert(1)</script>"),
        _entry(text="a > b"),
        _entry(location="javascript:alert(1)"),
        _entry(location="other/page/#install"),
        _entry(location='guide/usage/#a"onmouseover="x'),
        _entry(extra="x"),
        _entry(tags=["a"]),  # the page has no tags
        _entry(title=["安裝"]),
        "not an entry",
    ):
        assert checked([_entry(), bad], _page()) is None, bad
    assert checked({"location": "guide/usage/"}, _page()) is None
    assert checked([_entry(tags=["b"])], _page({"tags": ["a"]})) is None


def test_the_content_is_edited_as_the_indexer_edits_it() -> None:
    html = '<h2 id="a" data-search-exclude="true">A</h2><p data-search-boost="2">b</p>'
    assert strip_search_attributes(html) == '<h2 id="a">A</h2><p>b</p>'
