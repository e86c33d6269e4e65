"""The engine's one exception type, so callers (CLI, plugin) can turn it into a one-line message."""

from __future__ import annotations

from ..errors import ZhTranslateError


class EngineError(ZhTranslateError):
    """The model directory or an input cannot be used; the message names the path and the fix."""
