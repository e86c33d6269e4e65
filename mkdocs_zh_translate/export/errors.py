"""The export's one error type (its own module so every step can raise it without importing
the orchestrator)."""

from __future__ import annotations

from ..errors import ZhTranslateError


class ExportError(ZhTranslateError):
    """An export failed for a reason the user can act on; the message is one line."""
