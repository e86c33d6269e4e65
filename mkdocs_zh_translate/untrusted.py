"""The one reader of files that contributors control: PO files, ``glossary.yml``, gettext catalogs.

A pull request can add ``translations/zh/index.md.po`` as a symbolic link to ``../../.env`` or
``/proc/self/environ``, or as a FIFO that blocks a CI build forever; and a parse error that
quoted the offending line would print the CI's secrets into a public log. So these files are
read here only, under one rule: the file lies inside its ``root`` directory (the review
directory, a catalog tree), no path component below ``root`` is a symbolic link (``root`` itself
may be one: that is the user's own configuration), the file is a regular file (no FIFO, device,
socket or directory) and at most :data:`MAX_BYTES` long. Components are opened one by one with
``O_NOFOLLOW`` relative to the directory before them, so a link swapped in between a check and
the open is refused as well. Errors name the file, never its content; :func:`excerpt` is the one
way a parser may quote a (short, escaped) piece of a line.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from .errors import ZhTranslateError
from .textfile import decode_utf8

MAX_BYTES = 32 * 1024 * 1024
"""The largest untrusted file read (32 MiB): a 50,000-entry PO file is 3.5 MB, a whole Sphinx
project's largest catalog well under 1 MB; anything bigger is refused rather than parsed."""

EXCERPT = 40  # the most characters of a file's line an error message may quote

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_FLAGS = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
_LINK_ERRNOS = {errno.ELOOP, errno.EMLINK}  # O_NOFOLLOW on a link: ELOOP (Linux), EMLINK (FreeBSD)


class UntrustedFileError(ZhTranslateError):
    """An untrusted file refused before reading: a link, outside its root, not a regular file, too big."""


def display(path: Path) -> str:
    """A path as the user wants to read it: relative to the working directory when possible."""
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """``text`` quoted for an error message: escaped (``repr``: controls, bidi overrides and other
    invisible characters show as ``\\x..``/``\\u....``) and cut to ``limit`` characters."""
    return repr(text[:limit]) + ("..." if len(text) > limit else "")


def _parts(path: Path, root: Path) -> tuple[Path, tuple[str, ...]]:
    """(absolute root, the components of ``path`` below it); lexical, nothing is resolved."""
    full, base = Path(os.path.abspath(path)), Path(os.path.abspath(root))
    try:
        parts = full.relative_to(base).parts
    except ValueError:
        parts = ()
    if not parts:
        raise UntrustedFileError(f"{display(path)}: outside {display(root)}; refusing to read it")
    return base, parts


def _link_error(path: Path, root: Path) -> UntrustedFileError:
    return UntrustedFileError(
        f"{display(path)}: is a symbolic link inside {display(root)}; refusing to read through it "
        "(replace it with a real directory or file)"
    )


def _open(path: Path, root: Path) -> int | None:
    """A read-only descriptor of ``path`` opened component by component below ``root``; None
    when something on the way does not exist."""
    base, parts = _parts(path, root)
    if not (_NOFOLLOW and _DIRECTORY and os.open in os.supports_dir_fd):  # e.g. Windows
        current = base
        for part in parts:
            current = current / part
            try:
                if stat.S_ISLNK(os.lstat(current).st_mode):
                    raise _link_error(current, root)
            except FileNotFoundError:
                return None
        return os.open(path, _FLAGS | getattr(os, "O_NONBLOCK", 0))
    try:
        fd = os.open(base, _FLAGS | _DIRECTORY)  # root itself may be a link: the user chose it
    except FileNotFoundError:
        return None
    try:
        current = base
        for i, part in enumerate(parts):
            current = current / part
            last = i == len(parts) - 1
            flags = _FLAGS | _NOFOLLOW | (getattr(os, "O_NONBLOCK", 0) if last else _DIRECTORY)
            try:
                nxt = os.open(part, flags, dir_fd=fd)
            except FileNotFoundError:
                return None
            except OSError as exc:
                if exc.errno in _LINK_ERRNOS or (exc.errno == errno.ENOTDIR and os.path.islink(current)):
                    raise _link_error(current, root) from None
                if exc.errno == errno.ENXIO:  # a socket, or a FIFO's open refused
                    raise UntrustedFileError(f"{display(current)}: not a regular file; refusing to read it") from None
                raise
            os.close(fd)
            fd = nxt
        return fd
    except BaseException:
        os.close(fd)
        raise


def read_untrusted(path: Path, root: Path | None = None, *, limit: int = MAX_BYTES) -> bytes | None:
    """The bytes of the regular file ``path`` inside ``root`` (default: its own directory, so
    only the file itself may not be a link), None when it does not exist. Raises
    :class:`UntrustedFileError` for a link, a path outside ``root``, a FIFO, device or directory,
    a file over ``limit`` bytes, or a failed read (naming the file, never quoting it)."""
    root = path.parent if root is None else root
    try:
        fd = _open(path, root)
        if fd is None:
            return None
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                kind = "a directory" if stat.S_ISDIR(st.st_mode) else "not a regular file"
                raise UntrustedFileError(f"{display(path)}: {kind}; refusing to read it")
            if st.st_size > limit:
                raise _too_big(path, limit)
            chunks: list[bytes] = []
            size = 0
            while size <= limit:  # st_size may be 0 or stale (a file still growing)
                chunk = os.read(fd, min(1 << 20, limit + 1 - size))
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
        finally:
            os.close(fd)
        if size > limit:
            raise _too_big(path, limit)
        return b"".join(chunks)
    except OSError as exc:
        raise UntrustedFileError(f"{display(path)}: cannot read: {exc.strerror or exc}") from None


def read_untrusted_text(path: Path, root: Path | None = None, *, hint: str = "") -> str | None:
    """:func:`read_untrusted` decoded as UTF-8 (``NotUtf8Error`` names file, line and byte)."""
    data = read_untrusted(path, root)
    return None if data is None else decode_utf8(data, display(path), hint=hint)


def _too_big(path: Path, limit: int) -> UntrustedFileError:
    return UntrustedFileError(f"{display(path)}: larger than {limit // (1024 * 1024)} MiB; refusing to read it")


__all__ = ["EXCERPT", "MAX_BYTES", "UntrustedFileError", "display", "excerpt", "read_untrusted", "read_untrusted_text"]
