"""The alt text of a raw-HTML ``<img>`` is translated like a Markdown image's alt.

It is plain text inside an attribute: the translation goes back escaped for it, so a quote,
``<`` or ``&`` from the model can end neither the attribute nor the tag.
"""

from __future__ import annotations

from seghelp import kinds_texts

from mkdocs_zh_translate import translate_markdown
from tests.fakes import Scripted
from tests.segment.test_segment_realsites import check, render

SOURCE = (
    '<p align="center">\n  <img src="logo.png" alt="Project logo" width="120">\n  A fast tool.\n</p>\n\n'
    'See the diagram <img src="d.png" alt=\'Data flow diagram\'> below.\n\n'
    '<pre><img src="x.png" alt="Inside code"></pre>\n\n'
    '<p><img src="y.png" alt="A &amp; B"> <img src="z.png" data-alt="Not the alt"></p>\n'
)


def test_raw_html_img_alts_are_segments() -> None:
    texts = kinds_texts(SOURCE)
    assert ("image_alt", "Project logo") in texts and ("image_alt", "Data flow diagram") in texts
    # code, an entity in the value (its text is not the source bytes), another attribute: left alone
    assert all(text not in ("Inside code", "A &amp; B", "Not the alt") for _kind, text in texts)
    check(SOURCE)


def test_the_translated_alt_is_escaped_for_its_attribute() -> None:
    translator = Scripted(lambda text: 'Say "hi" & <b>' if text in ("Project logo", "Data flow diagram") else text)
    out = translate_markdown(SOURCE, translator)
    assert 'alt="Say &quot;hi&quot; &amp; &lt;b&gt;"' in out
    assert "alt='Say &quot;hi&quot; &amp; &lt;b&gt;'" in out
    html = render(out)
    assert html.count("<img") == render(SOURCE).count("<img")
    assert "<b>" not in html
