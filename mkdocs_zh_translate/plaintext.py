"""Untrusted text as plain text: the one place that makes it safe for pages, templates and terminals.

Trust model (the user guide's "Threat model" page): mkdocs.yml, docs_dir and the exported model directory
are the user's own; PO files, glossary.yml and the model's output are not. MkDocs' Jinja
templates do not autoescape, so any string the plugin hands them (``site_name``,
``site_description``, nav titles, front-matter ``title``/``description``) goes out through
:func:`for_template`. Reviewed text and glossary terms are also refused when they carry
invisible controls (:func:`invisible_controls`): bidi overrides and zero-width characters make
a page say something other than what a reviewer of the PO diff saw; C0 and C1 control
characters (NUL, ESC, backspace, NEL: all but tab and newline) reach the HTML as bytes no page
should hold (one glossary term put 193 NULs into a page) and hide text from a diff; the line
and paragraph separators U+2028/U+2029 break lines no reviewer sees; and a lone surrogate (a
YAML ``"\\ud800"`` escape) cannot even be encoded as UTF-8.

Text from PO files printed to a terminal (``review report --worst``, ``eval``'s JSON) goes out
through :func:`for_terminal` or :func:`json_text`: a msgstr starting ``\\x1b]0;pwned\\x07\\x1b[2J``
retitled the maintainer's window and cleared the screen, and other sequences can do worse.

Pure functions, no dependencies: the segmenter's reviewed-text check uses them too.
"""

from __future__ import annotations

import html
import json
import re
import unicodedata

# Bidi embeddings/overrides/isolates and marks: reorder what the reader sees.
_BIDI = {0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F, 0x061C}
# Zero-width and invisible formatting characters (ZWJ is allowed inside emoji sequences).
_ZERO_WIDTH = {0x200B, 0x200C, 0x200D, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0xFEFF, 0x180E, 0x00AD}
_ZWJ = 0x200D
# Names for what unicodedata leaves unnamed (controls, surrogates), by general category.
_UNNAMED = {"Cc": "CONTROL CHARACTER", "Cs": "LONE SURROGATE"}
# Every invisible control, as one character class: C0 but tab and newline, DEL and C1, the line
# and paragraph separators, surrogates, and the bidi and zero-width sets.
_INVISIBLE = re.compile(
    "[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f\\u2028\\u2029\\ud800-\\udfff"
    + "".join(f"\\u{code:04x}" for code in sorted(_BIDI | _ZERO_WIDTH))
    + "]"
)

# What a terminal line must not receive raw: every invisible control, and tab and newline too.
_TERMINAL = re.compile(_INVISIBLE.pattern[:-1] + "\\t\\n]")
# What JSON text may not show raw: json.dumps already escapes C0 (tab and newline included).
_JSON_RAW = re.compile(_INVISIBLE.pattern)


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def for_terminal(text: str) -> str:
    """``text`` safe to print on one terminal line: each control character (ESC starts the
    sequences that retitle a window, clear the screen or move the cursor; C1's CSI does the
    same in one byte), bidi and zero-width character, line separator, tab and newline written as
    a Python-style escape (``\\x1b``, ``\\u202e``), the way error messages quote untrusted text."""
    return _TERMINAL.sub(_escaped, text)


def json_text(value: object) -> str:
    """``value`` as indented JSON (non-ASCII as it is, so Chinese stays readable) with every
    invisible control that ``json.dumps`` leaves raw (C1, DEL, bidi, zero-width, U+2028/U+2029,
    lone surrogates) written as a ``\\uXXXX`` escape: the same JSON value, safe on a terminal
    and encodable as UTF-8."""
    text = json.dumps(value, ensure_ascii=False, indent=2)
    return _JSON_RAW.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


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
    """Descriptions (``U+202E RIGHT-TO-LEFT OVERRIDE``, ``U+001B CONTROL CHARACTER``) of the
    invisible control characters in ``text``, in order of first appearance: bidi controls,
    zero-width characters, C0/C1 controls but tab and newline, U+2028/U+2029 and lone
    surrogates. A ZWJ between two emoji is allowed (👩‍💻)."""
    found: list[str] = []
    for match in _INVISIBLE.finditer(text):  # one scan; most texts hold none
        i, ch = match.start(), match.group()
        code = ord(ch)
        if code == _ZWJ and 0 < i < len(text) - 1 and _emoji(text[i - 1]) and _emoji(text[i + 1]):
            continue
        unnamed = _UNNAMED.get(unicodedata.category(ch), "FORMAT CHARACTER")
        name = f"U+{code:04X} {unicodedata.name(ch, unnamed)}"
        if name not in found:
            found.append(name)
    return found
