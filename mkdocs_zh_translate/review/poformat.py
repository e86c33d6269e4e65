"""A PO file as text, laid out exactly as GNU gettext's ``msgcat`` writes it.

polib has a layout of its own (its own wrapping, comment order, reference lines), so a file it
saved and a file Poedit or ``msgcat`` saved differ on every long entry. This writer follows
gettext's ``write-po.c`` instead: header comment, header entry, then per entry translator
comments (``#``), extracted comments (``#.``), references (``#:``, wrapped at the page width),
flags (``#,``), previous strings (``#|``), ``msgctxt``, ``msgid``, ``msgstr``; obsolete entries
last with ``#~``. Strings are wrapped by :mod:`.powrap`. Pure: a parsed file in, text out.
"""

from __future__ import annotations

import polib

from .powrap import DEFAULT_WIDTH, wrap_string


def _comment(mark: str, text: str) -> list[str]:
    return [f"{mark} {line}" if line else mark for line in text.split("\n")]


def _references(occurrences: list[tuple[str, str]], width: int) -> list[str]:
    """``#:`` lines: references separated by spaces, a new line when the next would pass the
    page width (gettext wraps them even under ``--no-wrap``); a repeated one is written once."""
    lines: list[str] = []
    line = "#:"
    for path, number in dict.fromkeys(occurrences):
        ref = f" {path}:{number}" if number else f" {path}"
        if len(line) > 2 and len(line) + len(ref) > width:
            lines.append(line)
            line = "#:"
        line += ref
    if len(line) > 2:
        lines.append(line)
    return lines


def format_entry(entry: polib.POEntry, width: int = DEFAULT_WIDTH) -> list[str]:
    """The lines of one entry (no blank line around it)."""
    page = width if width > 0 else DEFAULT_WIDTH
    lines: list[str] = []
    if entry.tcomment:
        lines += _comment("#", entry.tcomment)
    if entry.comment:
        lines += _comment("#.", entry.comment)
    if entry.occurrences and not entry.obsolete:
        lines += _references(list(entry.occurrences), page)
    flags = list(entry.flags)
    if "fuzzy" in flags and not (entry.msgstr or entry.msgstr_plural):
        flags.remove("fuzzy")  # gettext: an untranslated entry is not fuzzy
    if flags:
        lines.append("#, " + ", ".join(flags))
    previous = "#~| " if entry.obsolete else "#| "
    if entry.previous_msgctxt is not None:
        lines += wrap_string("msgctxt", entry.previous_msgctxt, width, previous)
    if entry.previous_msgid is not None:
        lines += wrap_string("msgid", entry.previous_msgid, width, previous)
    if entry.previous_msgid_plural is not None:
        lines += wrap_string("msgid_plural", entry.previous_msgid_plural, width, previous)
    prefix = "#~ " if entry.obsolete else ""
    if entry.msgctxt is not None:
        lines += wrap_string("msgctxt", entry.msgctxt, width, prefix)
    lines += wrap_string("msgid", entry.msgid, width, prefix)
    if entry.msgid_plural:
        lines += wrap_string("msgid_plural", entry.msgid_plural, width, prefix)
        for index in sorted(entry.msgstr_plural, key=int):
            lines += wrap_string(f"msgstr[{index}]", entry.msgstr_plural[index], width, prefix)
    else:
        lines += wrap_string("msgstr", entry.msgstr, width, prefix)
    return lines


def header_text(metadata: dict[str, str]) -> str:
    """The header entry's msgstr: one ``Name: value`` line per field."""
    return "".join(f"{name}: {value}\n" for name, value in metadata.items())


def format_po(po: polib.POFile, width: int = DEFAULT_WIDTH) -> str:
    """The whole file as ``msgcat`` would write it (``width`` 0 or less: ``--no-wrap``)."""
    blocks: list[list[str]] = []
    head: list[str] = _comment("#", po.header) if po.header else []
    if po.metadata or po.header:
        fuzzy = po.metadata_is_fuzzy
        if fuzzy:
            head.append("#, " + ", ".join(fuzzy if isinstance(fuzzy, list) else ["fuzzy"]))
        head += wrap_string("msgid", "", width)
        head += wrap_string("msgstr", header_text(po.metadata), width)
        blocks.append(head)
    # an obsolete entry without a translation carries nothing: gettext drops it, so do we
    entries = [e for e in po if not e.obsolete] + [e for e in po if e.obsolete and (e.msgstr or e.msgstr_plural)]
    blocks.extend(format_entry(entry, width) for entry in entries)
    return "\n\n".join("\n".join(block) for block in blocks) + "\n"
