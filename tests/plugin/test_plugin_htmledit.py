"""The tag scanner the plugin edits HTML with: any quoting, nothing inside comments or scripts."""

from __future__ import annotations

import pytest

from mkdocs_zh_translate.plugin import htmledit

MINIFIED = (
    "<!doctype html><html lang=zh_CN><head><!-- <a href=x> --><script>if(a<b)'<a href=y>'</script>\n"
    "<link rel=alternate href=/en/ hreflang=en><link hreflang='zh' href=\"a&amp;b\" disabled></head>"
    "<body class='a  b'><a href=/x/>x</a></body></html>"
)


def test_attributes_are_found_whatever_their_quoting() -> None:
    links = [t for t in htmledit.tags(MINIFIED, chunk=7) if t.name in ("a", "link") and not t.end_tag]
    assert [t.attrs["href"].value for t in links] == ["/en/", "a&b", "/x/"]  # none from the comment or script
    assert [MINIFIED[t.attrs["href"].start : t.attrs["href"].end] for t in links] == ["/en/", '"a&amp;b"', "/x/"]
    assert links[1].attrs["disabled"].value == ""
    body = htmledit.first(MINIFIED, "body")
    assert body is not None and body.classes() == ["a", "b"]


def test_an_edit_replaces_only_the_value_span() -> None:
    link = next(t for t in htmledit.tags(MINIFIED) if t.name == "link")
    edited = htmledit.apply(MINIFIED, [htmledit.set_value(link.attrs["href"], '../"q"/')])
    assert edited == MINIFIED.replace("href=/en/", 'href="../&quot;q&quot;/"', 1)
    disabled = [t for t in htmledit.tags(MINIFIED) if t.name == "link"][1].attrs["disabled"]
    assert htmledit.apply(MINIFIED, [htmledit.set_value(disabled, "x")]).count('disabled="x">') == 1


def test_a_tag_in_the_head_is_found_without_parsing_the_body(monkeypatch: pytest.MonkeyPatch) -> None:
    fed: list[int] = []
    real = htmledit._Tags.feed
    monkeypatch.setattr(htmledit._Tags, "feed", lambda self, data: fed.append(len(data)) or real(self, data))
    body = "".join(f'<p id="p{i}">Paragraph <a href="#p{i}">{i}</a></p>\n' for i in range(20000))
    document = f'<!doctype html>\n<html lang="zh_Hans">\n<head><title>T</title></head>\n<body>\n{body}</body></html>\n'
    tag = htmledit.first(document, "html")
    assert tag is not None and tag.attrs["lang"].value == "zh_Hans"
    assert sum(fed) <= 8192  # not the first 64 KiB of a 1 MB page (issue 21: 160 ms a page)
    fed.clear()
    every = list(htmledit.tags(document))  # the whole document, in growing chunks: same tags, same offsets
    assert sum(fed) == len(document)
    closing = [t for t in every if t.name == "p" and t.end_tag]
    assert len(closing) == 20000
    last = [t for t in every if t.name == "a" and not t.end_tag][-1]
    assert document[last.start : last.end] == '<a href="#p19999">'
