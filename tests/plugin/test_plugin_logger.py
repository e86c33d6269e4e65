"""One logger, one prefix: the plugin takes MkDocs' ``get_plugin_logger`` and the packages that
may not import mkdocs use ``logs.log``; both must reach the same logger with ``zh-translate: ``
exactly once, or ``--strict`` counting and users' log filters would split."""

from __future__ import annotations

import logging

import pytest
from mkdocs.plugins import get_plugin_logger

from mkdocs_zh_translate import logs
from mkdocs_zh_translate.pipeline.pages import Stats
from mkdocs_zh_translate.plugin import plugin


def test_plugin_logger_and_package_logger_are_one(caplog: pytest.LogCaptureFixture) -> None:
    assert get_plugin_logger(logs.PLUGIN_NAME).logger is logs.log.logger
    assert plugin.log.logger is logs.log.logger
    with caplog.at_level(logging.INFO, logger=logs.LOGGER_NAME):
        plugin.log.warning("from the plugin")
        logs.log.warning("from the cache")
    assert [r.getMessage() for r in caplog.records] == ["zh-translate: from the plugin", "zh-translate: from the cache"]
    assert all(r.name == "mkdocs.plugins.zh-translate" for r in caplog.records)


def test_summary_is_prefixed_once(caplog: pytest.LogCaptureFixture) -> None:
    """The statistics line is logged by the plugin and printed by the CLI; the prefix is added by
    whoever writes it, so it appears once."""
    line = Stats().summary()
    assert not line.startswith(logs.PREFIX)
    with caplog.at_level(logging.INFO, logger=logs.LOGGER_NAME):
        plugin.log.info(line)
    assert caplog.records[0].getMessage().count("zh-translate:") == 1
