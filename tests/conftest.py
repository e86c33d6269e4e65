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


def pytest_collection_finish(session: object) -> None:
    """Under pytest-xdist (``make test``), the first two workers train the two tiny models at
    once, one each, before any test runs.

    Built on demand, the second model's training starts only when a test first needs it, often
    while the other worker waits for it on the cache's lock; each training runs on one thread, so
    two at once keep both cores busy. Only when the run holds slow tests (they need the models);
    a plain ``pytest`` run builds them on demand as before.
    """
    import os

    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker not in ("gw0", "gw1") or int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")) < 2:
        return
    items = getattr(session, "items", [])
    if not any(item.get_closest_marker("slow") for item in items):
        return
    from tests import models

    models.tiny_hf_model("test" if worker == "gw0" else models.TAGFREE)
