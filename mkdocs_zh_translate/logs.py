"""The package's one logger and the one prefix it speaks with.

MkDocs shows the records of loggers under ``mkdocs.plugins`` in its own format (and counts
warnings for ``--strict``), so every part that reports to the user during a build logs here:
the plugin, the machine cache and the static-i18n bridge alike. The plugin package takes its
logger from MkDocs' ``get_plugin_logger(PLUGIN_NAME)``; the packages that must not import mkdocs
(``pipeline``'s cache, the CLI's prints) use :data:`log` and :data:`PREFIX`, which are the same
logger and the same ``zh-translate: `` prefix. Named once so a rename cannot split the output.
"""

from __future__ import annotations

import logging
from collections.abc import MutableMapping
from typing import Any

PLUGIN_NAME = "zh-translate"
"""The name users write under ``plugins:``; it prefixes every message."""
PREFIX = f"{PLUGIN_NAME}: "
LOGGER_NAME = f"mkdocs.plugins.{PLUGIN_NAME}"
"""The logger ``mkdocs.plugins.get_plugin_logger(PLUGIN_NAME)`` wraps."""


class _Prefixed(logging.LoggerAdapter):  # type: ignore[type-arg]
    """Behaves like MkDocs' ``PrefixedLogger`` without importing mkdocs."""

    def process(self, msg: Any, kwargs: MutableMapping[str, Any]) -> tuple[Any, MutableMapping[str, Any]]:
        return f"{PREFIX}{msg}", kwargs


log: logging.LoggerAdapter[logging.Logger] = _Prefixed(logging.getLogger(LOGGER_NAME), {})
