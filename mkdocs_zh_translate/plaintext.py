"""Untrusted text as plain text: the one place that makes it safe for pages and templates.

Trust model (the user guide's "Threat model" page): mkdocs.yml, docs_dir and the exported model directory
are the user's own; PO files, glossary.yml and the model's output are not. MkDocs' Jinja
templates do not autoescape, so any string the plugin hands them (``site_name``,
``site_description``, nav titles, front-matter ``title``/``description``) goes out through
:func:`for_template`. Reviewed text and glossary terms are also refused when they carry
invisible controls (:func:`invisible_controls`): bidi overrides and zero-width characters make
a page say something other than what a reviewer of the PO diff saw.

Pure functions, no dependencies: the segmenter's reviewed-text check uses them too.
"""

from __future__ import annotations

import html
import unicodedata

# Bidi embeddings/overrides/isolates and marks: reorder what the reader sees.
_BIDI = {0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F, 0x061C}
# Zero-width and invisible formatting characters (ZWJ is allowed inside emoji sequences).
_ZERO_WIDTH = {0x200B, 0x200C, 0x200D, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0xFEFF, 0x180E, 0x00AD}
_ZWJ = 0x200D


def for_template(text: str) -> str:
    """``text`` HTML-escaped (quotes included) for a Jinja template that does not escape.

    Entities already in the text are read first, so a source that spelled ``&amp;`` is not
    shown as ``&amp;amp;``, and a payload spelled with entities stays inert text. Angle
    brackets become their full-width forms (usual in Chinese text): templates also pass these
    strings through ``striptags``, which unescapes ``&lt;`` back into a live ``<``."""
    plain = html.unescape(text).replace("<", "\uff1c").replace(">", "\uff1e")
    return html.escape(plain, quote=True)


def _emoji(ch: str) -> bool:
    code = ord(ch)
    return (
        code >= 0x1F000
        or 0x2600 <= code <= 0x27BF
        or code in (0xFE0F, 0x20E3)
        or unicodedata.category(ch) == "So"
    )


def invisible_controls(text: str) -> list[str]:
    """Descriptions (``U+202E RIGHT-TO-LEFT OVERRIDE``) of the invisible control characters
    in ``text``, in order of first appearance; a ZWJ between two emoji is allowed (👩‍💻)."""
    found: list[str] = []
    for i, ch in enumerate(text):
        code = ord(ch)
        if code not in _BIDI and code not in _ZERO_WIDTH:
            continue
        if code == _ZWJ and 0 < i < len(text) - 1 and _emoji(text[i - 1]) and _emoji(text[i + 1]):
            continue
        name = f"U+{code:04X} {unicodedata.name(ch, 'FORMAT CHARACTER')}"
        if name not in found:
            found.append(name)
    return found
