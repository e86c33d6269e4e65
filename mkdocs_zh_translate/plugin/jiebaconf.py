"""jieba's process-wide settings, made once per build before any Chinese is segmented.

jieba keeps its logger level and its dictionary cache directory in module globals shared by
every user of jieba in the process (Material's search plugin segments with it too). Changing
them is a side effect, so it lives here, apart from ``site.py``, whose functions are pure
transformations of a config, an HTML string or a built file.
"""

from __future__ import annotations

import logging
from pathlib import Path


def quiet_jieba(fallback_dir: Path | None = None) -> None:
    """jieba prints its dictionary loading to stderr at DEBUG level; both sites' search
    segmentation (Material's and ours) would put those lines into every build log.

    jieba also keeps its dictionary cache in the shared ``/tmp/jieba.cache``: another user's
    file there cannot be replaced (jieba prints a traceback) and would be loaded with
    ``marshal``. The cache goes to the user's cache directory instead (``fallback_dir``, our
    translation cache directory, when there is none), and a failed dump stays silent."""
    import jieba

    from ..userdirs import user_cache_dir

    jieba.setLogLevel(logging.CRITICAL)  # also hides "Dump cache file failed." + traceback
    if jieba.dt.tmp_dir is None:
        private = user_cache_dir() or fallback_dir
        if private is not None:
            jieba.dt.tmp_dir = str(private)
