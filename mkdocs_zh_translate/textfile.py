"""Decode the UTF-8 files users hand us, naming the line of the first bad byte.

Markdown pages, PO catalogs and stdin all fail the same way when a file was saved in another
encoding, and a user fixes it in an editor: so every reader says ``file:line`` and the byte, in
one place. A UTF-8 byte-order mark is accepted where editors write one (Markdown, stdin) and
handed back, so a file can be written back as it came.
"""

from __future__ import annotations

from .errors import ZhTranslateError

BOM = "\ufeff"


class NotUtf8Error(ZhTranslateError, ValueError):
    """``where:line: not valid UTF-8 (byte 0x..)``; ``line`` is 1-based."""

    def __init__(self, where: str, line: int, byte: int, hint: str = "") -> None:
        super().__init__(f"{where}:{line}: not valid UTF-8 (byte 0x{byte:02x}){hint}")
        self.line = line


def decode_utf8(data: bytes, where: str, *, hint: str = "") -> str:
    """``data`` as text (a leading BOM kept in the result), or :class:`NotUtf8Error` for the first
    undecodable byte. ``hint`` ends the message (say what the reader expected)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise NotUtf8Error(where, line, data[exc.start], hint) from None


def split_bom(text: str) -> tuple[str, str]:
    """(text without a leading BOM, the BOM or "")."""
    return (text[1:], BOM) if text.startswith(BOM) else (text, "")


__all__ = ["BOM", "NotUtf8Error", "decode_utf8", "split_bom"]
