"""Machine-translating gettext catalogs (Sphinx, mdpo) with the plugin's engine, cache and glossary.

``rst`` protects reST inline markup, ``formats`` picks reST or Markdown protection per msgid,
``catalog`` edits PO files in place without re-wrapping them, ``fill`` decides which entries to
translate and runs the translation; ``cli.po`` wires ``mkdocs-zh-translate po fill``.
"""

from __future__ import annotations

from .fill import FillError, Summary, fill
from .rst import RstMessage, protect_rst

__all__ = ["FillError", "RstMessage", "Summary", "fill", "protect_rst"]
