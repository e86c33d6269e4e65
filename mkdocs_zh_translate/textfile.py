"""Decode the UTF-8 files users hand us, naming the line of the first bad byte.

Markdown pages, PO catalogs and stdin all fail the same way when a file was saved in another
encoding, and a user fixes it in an editor: so every reader says ``file:line`` and the byte, in
one place. A UTF-8 byte-order mark is accepted where editors write one (Markdown, stdin) and
handed back, so a file can be written back as it came. :func:`read_bytes` words the failures
to read a file the user named (a directory, missing, unreadable) the same way for every command.
"""

from __future__ import annotations

from pathlib import Path

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


def read_bytes(path: Path, name: str, kind: str, error: type[ZhTranslateError] = ZhTranslateError) -> bytes:
    """The bytes of the file at ``path``, or one ``error`` line naming it (as ``name``) when it
    is a directory (not a ``kind``), missing or unreadable: every command that reads a file the
    user named words these failures the same way, each raising its own error class."""
    try:
        return path.read_bytes()
    except IsADirectoryError:
        raise error(f"{name}: is a directory, not a {kind}") from None
    except FileNotFoundError:
        raise error(f"{name}: no such file") from None
    except OSError as exc:
        raise error(f"{name}: cannot read: {exc.strerror or exc}") from None


def split_bom(text: str) -> tuple[str, str]:
    """(text without a leading BOM, the BOM or "")."""
    return (text[1:], BOM) if text.startswith(BOM) else (text, "")


__all__ = ["BOM", "NotUtf8Error", "decode_utf8", "read_bytes", "split_bom"]
