"""Make the test helpers importable both as ``tests.x`` and as bare ``x``.

``tests/__init__.py`` (from the tiny-model branch) makes ``tests`` a package, so pytest puts
the repository root, not ``tests/``, on ``sys.path``; the segmenter's tests import their
helpers bare (``from seghelp import ...``). Both styles work with ``tests/`` on the path too.
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.append(_HERE)
