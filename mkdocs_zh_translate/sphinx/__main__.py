"""``python -m mkdocs_zh_translate.sphinx sync SRCDIR``: the same as ``mkdocs-zh-translate sphinx sync``."""

from __future__ import annotations

import sys

from ..cli.app import main

if __name__ == "__main__":
    sys.exit(main(["sphinx", *sys.argv[1:]]))
