"""Make the test helpers importable both as ``tests.x`` and as bare ``x``.

``tests/__init__.py`` (from the tiny-model branch) makes ``tests`` a package, so pytest puts
the repository root, not ``tests/``, on ``sys.path``; the segmenter's tests import their
helpers bare (``from seghelp import ...``). Both styles work with ``tests/`` on the path too.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.append(_HERE)

# The test models' cache is resolved once for the run and its subprocesses: a test that points
# XDG_CACHE_HOME at a temporary folder (to keep the product's own user cache out of ~/.cache)
# must not move the models with it, or it trains them again inside the test.
from tests.models import cache_root  # noqa: E402

os.environ["ZH_TRANSLATE_TEST_CACHE"] = str(cache_root())


def pytest_collection_finish(session: object) -> None:
    """Under pytest-xdist (``make test``), the first two workers train the two tiny models at
    once, one each, before any test runs.

    Built on demand, the second model's training starts only when a test first needs it, often
    while the other worker waits for it on the cache's lock; each training runs on one thread, so
    two at once keep both cores busy. Only when the run holds slow tests (they need the models);
    a plain ``pytest`` run builds them on demand as before. ``make test`` starts both builds
    before the gates (``python -m tests.models``) and sets ``ZH_TRANSLATE_MODELS_AHEAD``: then
    no worker waits here; the tests that need a model wait on the cache's lock when they run.
    """
    if os.environ.get("ZH_TRANSLATE_MODELS_AHEAD"):
        return
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker not in ("gw0", "gw1") or int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")) < 2:
        return
    items = getattr(session, "items", [])
    if not any(item.get_closest_marker("slow") for item in items):
        return
    from tests import models

    if worker == "gw0":
        models.tiny_hf_model("test")
    else:  # the tag-free model trains faster: its export fits while gw0 still trains
        models.tagfree_onnx_model("none")



def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    """Under pytest-xdist (``make test``): a test file's tests go to one worker, so that its module
    fixtures (a built site, a loaded model) are made once, except the real-site tests, which go
    per site (each site is a module-scoped fixture of its own; on one worker the corpus alone
    would be the longest path of the run). pytest-xdist's ``--dist loadgroup`` would say this
    with marks, but it does not group here (xdist 3.8 with pytest 9); this is its documented
    scheduler hook with the scope rule ``--dist loadfile`` uses, refined."""
    from xdist.scheduler import LoadScopeScheduling

    class _PerFileAndSite(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return _scope(nodeid)

    # the queue keeps the order pytest_collection_modifyitems gave (longest scopes first)
    config.option.loadscopereorder = False
    return _PerFileAndSite(config, log)


def _scope(nodeid: str) -> str:
    """The scheduler's unit: a test file, or one site of the real-site corpus."""
    path = nodeid.split("::", 1)[0]
    if path.startswith("tests/realsites/") and nodeid.endswith("]") and "[" in nodeid:
        return path + nodeid[nodeid.index("[") :]
    return path


def _needs_a_model(item: pytest.Item) -> bool:
    """Whether a test's file asks the model cache for a tiny model (``tests.models``): under
    ``make test`` such a test waits for the background training, so its file is best run last.
    Read from the file's text (some import it inside a test); a wrong guess costs only time."""
    path = Path(str(item.fspath))
    text = _SOURCES.get(path)
    if text is None:
        text = _SOURCES[path] = path.read_text(encoding="utf-8") if path.is_file() else ""
    return "tests.models" in text or "from tests import models" in text


_SOURCES: dict[Path, str] = {}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-xdist, the order the scheduler hands scopes out in (xdist keeps it).

    A real site is one whole-site build (3-170 s) behind three quick tests; ordered by test
    count, as xdist does by default, the sites came last and the largest (instructor) left one
    worker building it alone for minutes at the end of a fresh-clone run. And under ``make
    test`` the suite starts while the tiny models still train (``ZH_TRANSLATE_MODELS_AHEAD``): a
    file that needs one would hold its worker on the cache's lock. So: the corpus first, its
    known-largest sites first (``SLOWEST_FIRST``), then the files that need no model, then
    those that do, each group by its files' number of tests, as before."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    from tests.realsites.sites import SLOWEST_FIRST

    sizes: dict[str, int] = {}
    model_scopes: set[str] = set()
    for item in items:
        scope = _scope(item.nodeid)
        sizes[scope] = sizes.get(scope, 0) + 1
        if _needs_a_model(item):
            model_scopes.add(scope)

    def rank(item: pytest.Item) -> tuple[int, int]:
        scope = _scope(item.nodeid)
        if scope.startswith("tests/realsites/test_realsites.py["):
            site = scope[scope.index("[") + 1 : -1]
            return (0, SLOWEST_FIRST.index(site) if site in SLOWEST_FIRST else len(SLOWEST_FIRST))
        return (2 if scope in model_scopes else 1, -sizes[scope])

    items.sort(key=rank)  # stable: a scope's tests keep their order
