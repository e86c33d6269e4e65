"""Say which build a warning comes from: the nested Chinese build logs through MkDocs' loggers
like the English one, so without a prefix a ``--strict`` failure caused by a translated page
looks like a problem of the English docs. And the reverse: a strict English build that already
has warnings is not followed by a Chinese build (which would repeat them and abort first, as
``[zh build] Aborted``): MkDocs then aborts the English build with its own message."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

PREFIX = "[zh build] "


class _Prefix(logging.Filter):
    """Prefix warnings and errors (info lines keep their text: they already name the zh dir)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.WARNING and not str(record.msg).startswith(PREFIX):
            record.msg = PREFIX + str(record.msg)
        return True


@contextmanager
def prefixed_warnings() -> Iterator[None]:
    """While active, warnings reaching MkDocs' (or the root logger's) handlers carry
    :data:`PREFIX`. Filters go on the handlers: a logger's own filters miss its children."""
    prefix = _Prefix()
    handlers = {*logging.getLogger("mkdocs").handlers, *logging.getLogger().handlers}
    for handler in handlers:
        handler.addFilter(prefix)
    try:
        yield
    finally:
        for handler in handlers:
            handler.removeFilter(prefix)


class WarningCount(logging.Handler):
    """Counts what MkDocs' strict mode counts (warnings and errors reaching the ``mkdocs``
    logger) while attached: the English build's own, before the Chinese build starts."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1

    def start(self) -> WarningCount:
        logging.getLogger("mkdocs").addHandler(self)
        return self

    def stop(self) -> int:
        """Detach; the number of warnings counted."""
        logging.getLogger("mkdocs").removeHandler(self)
        return self.count
