"""The Sphinx extension: ``extensions = ["mkdocs_zh_translate.sphinx"]`` in ``conf.py``.

``sphinx-build -b html -D language=zh_CN . _build/html/zh`` then machine-translates every
message no reviewed catalog in ``locale_dirs`` translates, during the build (``build``); an
English build (any other language) is untouched. ``sync`` writes the reviewable catalogs
(``python -m mkdocs_zh_translate.sphinx sync SRCDIR`` or ``mkdocs-zh-translate sphinx sync``).
This package is the only one that imports Sphinx or docutils.
"""

from __future__ import annotations

from typing import Any

from .config import check_config, config_values


def setup(app: Any) -> dict[str, Any]:
    """Register the options, the two transforms around Sphinx's ``Locale`` and the event handlers."""
    from .build import (
        MachineTranslations,
        RestoreTranslators,
        before_read,
        env_updated,
        merge_info,
        outdated,
        page_context,
        purge_doc,
    )

    for name, (default, rebuild) in config_values().items():
        app.add_config_value(name, default, rebuild)
    app.connect("config-inited", check_config)
    from .catalogs import refuse_links

    app.connect("config-inited", refuse_links)
    app.add_transform(MachineTranslations)
    app.add_transform(RestoreTranslators)
    app.connect("env-before-read-docs", before_read)
    app.connect("env-purge-doc", purge_doc)
    app.connect("env-merge-info", merge_info)
    app.connect("env-get-outdated", outdated)
    app.connect("env-updated", env_updated)
    app.connect("html-page-context", page_context)
    from .runtime import close_all

    app.connect("build-finished", lambda _app, _exc: close_all())
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True, "env_version": 1}
