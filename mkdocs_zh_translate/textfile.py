"""Decode the UTF-8 files users hand us, naming the line of the first bad byte.

Markdown pages, PO catalogs and stdin all fail the same way when a file was saved in another
encoding, and a user fixes it in an editor: so every reader says ``file:line`` and the byte, in
one place. A UTF-8 byte-order mark is accepted where editors write one (Markdown, stdin) and
handed back, so a file can be written back as it came. :func:`read_bytes` words the failures
to read a file the user named (a directory, missing, unreadable) the same way for every command.
"""

from __future__ import annotations

from pathlib import Path
from typing import BinaryIO

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
    except OSError as exc:
        raise read_error(exc, name, kind, error) from None


def open_bytes(path: Path, name: str, kind: str, error: type[ZhTranslateError] = ZhTranslateError) -> BinaryIO:
    """:func:`read_bytes` for a file read a line at a time (a reference file larger than
    memory): the open file, or the same one-line ``error``."""
    try:
        handle = path.open("rb")
        if path.is_dir():  # open() of a directory succeeds on some systems
            handle.close()
            raise IsADirectoryError
        return handle
    except OSError as exc:
        raise read_error(exc, name, kind, error) from None


def read_error(exc: OSError, name: str, kind: str, error: type[ZhTranslateError]) -> ZhTranslateError:
    """The one line a failed read of the user's file ``name`` (a ``kind``) is reported as."""
    if isinstance(exc, IsADirectoryError):
        return error(f"{name}: is a directory, not a {kind}")
    if isinstance(exc, FileNotFoundError):
        return error(f"{name}: no such file")
    return error(f"{name}: cannot read: {exc.strerror or exc}")


def split_bom(text: str) -> tuple[str, str]:
    """(text without a leading BOM, the BOM or "")."""
    return (text[1:], BOM) if text.startswith(BOM) else (text, "")


__all__ = ["BOM", "NotUtf8Error", "decode_utf8", "open_bytes", "read_bytes", "read_error", "split_bom"]
