"""Reviewed translations: PO files people edit, kept in step with the English site.

``store`` reads and writes PO files safely, ``units`` maps segments to PO entries, ``layer``
serves reviewed text to the build, ``sync`` merges the site into the PO files (msgmerge
semantics), ``status`` counts, ``report`` renders HTML, ``glossary`` fixes terms, ``cli`` wires
the ``mkdocs-zh-translate review`` sub-commands.
"""

from __future__ import annotations

from .store import ReviewError

__all__ = ["ReviewError"]
