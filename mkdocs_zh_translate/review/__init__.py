"""Reviewed translations: PO files people edit, kept in step with the English site.

``store`` reads and writes PO files safely, ``units`` maps segments to PO entries, ``layer``
serves reviewed text to the build, ``sync`` merges the site into the PO files (msgmerge
semantics), ``memory`` offers reviewed text for near-identical English, ``status`` counts,
``report`` renders HTML, ``pocheck`` applies msgfmt's syntax rules. The glossary lives in
``pipeline.glossary``, the sub-commands in ``cli.review``, and the English build they read in
``plugin.collect`` (the only package importing MkDocs), which fills a ``site.Site``; ``ReviewError``
is ``errors.ReviewError`` (the pipeline raises it too).
"""

from __future__ import annotations

from ..errors import ReviewError

__all__ = ["ReviewError"]
