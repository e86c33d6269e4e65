"""The tag scanner the plugin edits HTML with: any quoting, nothing inside comments or scripts."""

from __future__ import annotations

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
