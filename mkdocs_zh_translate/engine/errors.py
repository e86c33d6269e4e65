"""The engine's one exception type, so callers (CLI, plugin) can turn it into a one-line message."""

from __future__ import annotations


class EngineError(Exception):
    """The model directory or an input cannot be used; the message names the path and the fix."""
