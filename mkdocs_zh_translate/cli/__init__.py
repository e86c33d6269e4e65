"""The ``mkdocs-zh-translate`` console script: ``md``, ``translate``, ``export``, ``review``,
``po``, ``docs``, ``prefill``.

``app`` builds the parser and turns every ``ZhTranslateError`` into one line and exit code 2;
each other module wires one command and imports its machinery only when it runs.
"""

from __future__ import annotations

from .app import main

__all__ = ["main"]
