"""The project's own inputs, which no output path may name: the reviewed PO files, the glossary
and the translation cache's database.

``-o mkdocs.yml`` was refused, but ``review report -o translations/zh/site.po``, ``md page.md -o
translations/zh/index.md.po``, ``docs --snippet translations/zh/site.po`` or ``report:
.zh-translate-cache/cache.db`` replaced reviewers' work or the cache with an HTML page, a
Markdown page, YAML or JSON. Every output option checks its path against these files
(:func:`~..owned.check_output`'s ``kept``), by name, whether they exist yet or not.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from ..owned import Owned
from .cache import cache_files
from .glossary import GLOSSARY_FILE

PO_SUFFIX = ".po"  # a page's reviewed file is <review_dir>/<src_uri>.po; the site's is site.po


def _reviewed(rel: PurePosixPath) -> bool:
    return rel.suffix.lower() == PO_SUFFIX or rel.as_posix() == GLOSSARY_FILE


def project_inputs(review_dir: Path | None, cache_dir: Path | None) -> list[Owned]:
    """The files in ``review_dir`` and ``cache_dir`` (either may be None: not known to the
    command) that an output must never replace."""
    kept: list[Owned] = []
    if review_dir is not None:
        kept.append(Owned(review_dir, _reviewed, "the reviewed PO files and the glossary"))
    if cache_dir is not None:
        kept.append(cache_files(cache_dir))
    return kept


__all__ = ["PO_SUFFIX", "project_inputs"]
