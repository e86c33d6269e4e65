"""Per-user directories: where small derived files go that must not be shared between users.

A world-writable place like ``/tmp`` is wrong for caches we load back: another user can own the
file (we cannot replace it) or plant one (jieba loads its cache with ``marshal``). The user's
own cache directory (``$XDG_CACHE_HOME`` or ``~/.cache``) is private and survives reboots.
Import-free (os/pathlib only): the engine uses it too.
"""

from __future__ import annotations

import os
from pathlib import Path

APP = "mkdocs-zh-translate"


def user_cache_dir() -> Path | None:
    """``~/.cache/mkdocs-zh-translate`` (created 0700), or None when it cannot be made ours."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    path = Path(base) / APP
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = path.stat()
    except OSError:
        return None
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        return None  # someone else's directory: do not read or write their files
    return path if os.access(path, os.W_OK | os.X_OK) else None
