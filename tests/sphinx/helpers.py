"""Building the sample Sphinx project with the extension, in this process (so tests can patch the
model loader) or as ``python -m sphinx`` (``-j``, bad options)."""

from __future__ import annotations

import io
import shutil
from dataclasses import dataclass
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.util.docutils import docutils_namespace, patch_docutils

from tests.sphinx_helpers import SAMPLE

CONF = """
extensions = ["mkdocs_zh_translate.sphinx"]
zh_translate_backend = "pseudo"
zh_translate_cache_dir = {cache!r}
"""


def project(tmp: Path, extra: str = "") -> Path:
    """A copy of the sample project with the extension on (pseudo backend, a cache in ``tmp``)."""
    root = tmp / "project"
    shutil.copytree(SAMPLE, root, ignore=shutil.ignore_patterns("_build", "locale", "__pycache__"))
    with (root / "conf.py").open("a", encoding="utf-8") as fh:
        fh.write(CONF.format(cache=str(tmp / "cache")) + extra)
    return root


@dataclass
class Build:
    out: Path
    status: str
    warnings: str

    def page(self, name: str) -> str:
        return (self.out / name).read_text(encoding="utf-8")


def build(root: Path, out: str = "zh", language: str = "zh_CN", fresh: bool = True, **overrides: object) -> Build:
    """``sphinx-build -b html -D language=...`` in this process."""
    status, warning = io.StringIO(), io.StringIO()
    outdir = root / "_build" / out
    confoverrides = {"language": language, **overrides}
    with patch_docutils(root), docutils_namespace():
        app = Sphinx(
            str(root), str(root), str(outdir), str(root / "_build" / f"doctrees-{out}"), "html",
            confoverrides=confoverrides, status=status, warning=warning, freshenv=fresh,
        )
        app.build()
    return Build(outdir, status.getvalue(), warning.getvalue())
