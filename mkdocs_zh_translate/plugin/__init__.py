"""The MkDocs side: the only package that imports mkdocs.

``plugin`` is the ``zh-translate`` plugin (``ZhTranslatePlugin``, the entry point
``mkdocs_zh_translate.plugin:ZhTranslatePlugin``), ``config`` its options, ``site`` the zh
site's extras (banner, search index, 404, sitemap), ``coexist`` the other i18n plugins,
``overrides`` per-language config, ``docs_source`` and ``collect`` the English builds that the
``docs`` and ``review sync`` commands read, ``buildlog`` the build log's prefix.

The plugin class loads on first use, so that ``review`` and ``docs`` importing ``collect`` or
``docs_source`` do not pull in the whole plugin.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .plugin import ZhTranslatePlugin

__all__ = ["ZhTranslatePlugin"]


def __getattr__(name: str) -> object:
    if name == "ZhTranslatePlugin":
        from .plugin import ZhTranslatePlugin

        return ZhTranslatePlugin
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
