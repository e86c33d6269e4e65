"""The extension on a real Sphinx project: pluggy's documentation, from its sdist on PyPI.

Slow and opt-in like ``tests/realsites``: the sdist is downloaded once with pip into the corpus
cache (``$ZH_TRANSLATE_REALSITES_CACHE``/sdists, never committed); pluggy's docs need only
Sphinx's own extensions and the alabaster theme. The English and Chinese builds must report the
same warnings (their locations aside: a translated message's warning is located at
``page.rst:LINE:<translated>:1``), and every message but the ones Sphinx cannot splice is
translated by a model that writes "Chinese" next to the markup (``tests.fakes.HanTranslator``).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.sphinx_project import warnings
from tests.realsites.harness import REPO, CorpusError, unpack
from tests.realsites.sites import Site

pytestmark = pytest.mark.slow

PLUGGY = Site(name="pluggy", dist="pluggy", version="1.7.0", kind="sphinx", config="docs/conf.py")

CONF = """
extensions = list(extensions) + ["mkdocs_zh_translate.sphinx"]
zh_translate_backend = "pseudo"
zh_translate_cache_dir = {cache!r}
import mkdocs_zh_translate.pipeline.lazy as _lazy, tests.fakes as _fakes
_lazy.load_translator = lambda *a, **k: _fakes.HanTranslator()
"""


def _sphinx(docs: Path, out: str, *options: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", "html", *options, ".", out],
        cwd=docs, env=env, capture_output=True, text=True, timeout=900,
    )


def test_pluggy_docs_build_in_chinese_with_no_warning_of_their_own(tmp_path: Path) -> None:
    try:
        top = unpack(PLUGGY, tmp_path / "sdist")
    except CorpusError as exc:
        pytest.skip(str(exc))  # no network and no cached sdist
    docs = top / "docs"
    with (docs / "conf.py").open("a", encoding="utf-8") as fh:
        fh.write(CONF.format(cache=str(tmp_path / "cache")))
    en = _sphinx(docs, "_build/en")
    zh = _sphinx(docs, "_build/zh", "-D", "language=zh_CN")
    assert en.returncode == 0 and zh.returncode == 0, zh.stderr[-2000:]
    assert warnings(zh.stderr) == warnings(en.stderr)
    summary = re.search(r"zh-translate: (\d+) messages in \d+ documents: 0 reviewed, (\d+) machine", zh.stdout)
    assert summary is not None, zh.stdout[-2000:]
    messages, machine = int(summary.group(1)), int(summary.group(2))
    assert messages > 400 and machine >= messages - 2  # the type field's xref Sphinx cannot splice
