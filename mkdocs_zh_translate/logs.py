"""The package's one logger.

MkDocs shows the records of loggers under ``mkdocs.plugins`` in its own format (and counts
warnings for ``--strict``), so every part that reports to the user during a build logs here:
the plugin, the machine cache and the static-i18n bridge alike. Named once so a rename cannot
split the output.
"""

from __future__ import annotations

import logging

LOGGER_NAME = "mkdocs.plugins.zh_translate"
log = logging.getLogger(LOGGER_NAME)
