"""mkdocstrings' own labels ("Parameters", "Source code in") in a Traditional variant's pages.

mkdocstrings renders its labels in the site's language: the handlers ship a Chinese table
(``languages/zh.html.jinja``, Simplified), which the Simplified site gets from its theme
language ``zh``. A variant's theme language (``zh-TW``, ``zh-Hant``) has no table, so its API
pages would fall back to English labels around translated prose. For the variant's nested
build the handlers' Chinese tables are converted by the variant's table (OpenCC: only the
Chinese values change; the Jinja around them is ASCII, which is never converted) and written
under the variant's locale into a templates folder handed to mkdocstrings as its
``custom_templates``: a copy of the site's own custom templates when it has some (which win:
a table the site wrote for that locale is kept), removed after the build. A site that pins
mkdocstrings' ``locale`` chose its labels: nothing is done.
"""

from __future__ import annotations

import importlib.util
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

SIMPLIFIED_TABLE = "zh.html.jinja"
PLUGIN = "mkdocstrings"
FALLBACK_THEME = "material"  # the handlers' fallback theme (mkdocstrings-python's ``fallback_theme``)


def handler_tables(site_theme: str) -> Iterator[tuple[str, str, Path]]:
    """(handler, theme, the file holding its Chinese table's words) for each installed handler
    (``mkdocstrings_handlers.<handler>/templates/<theme>/languages/zh.html.jinja``). A theme's
    table that only extends its ``_base`` one is read from there: a custom template may not
    override ``_base`` (the handler warns), so the words go into the theme's own file. A site
    theme the handler has no templates for (``mkdocs``) renders with its fallback theme's
    templates but reads custom ones under the site theme's name: it gets the fallback's words."""
    spec = importlib.util.find_spec("mkdocstrings_handlers")
    for location in (spec.submodule_search_locations or []) if spec is not None else []:
        for templates in sorted(Path(location).glob("*/templates")):
            words: dict[str, Path] = {}
            for table in sorted(templates.glob(f"*/languages/{SIMPLIFIED_TABLE}")):
                base = table.parent.parent / "_base" / "languages" / SIMPLIFIED_TABLE
                words[table.parent.parent.name] = base if base.is_file() else table
            if site_theme not in words and FALLBACK_THEME in words:
                words[site_theme] = words[FALLBACK_THEME]
            for theme, path in words.items():
                yield templates.parent.name, theme, path


class VariantLabels:
    """The converted tables of one variant build, installed before it and removed after."""

    def __init__(self) -> None:
        self._tmp: Path | None = None
        self._plugin: Any = None
        self._before: Any = None

    def install(self, config: Any, convert: Callable[[str], str]) -> None:
        """Point ``config``'s mkdocstrings at the converted tables of the variant's locale."""
        plugin = config.plugins.get(PLUGIN)
        if plugin is None or plugin.config.get("locale"):
            return
        locale = str(config.theme.get("language") or config.theme.get("locale") or "").replace("_", "-")
        if not locale or locale == "zh":
            return
        tmp = Path(tempfile.mkdtemp(prefix="mkdocs-zh-translate-labels-"))
        own = plugin.config.get("custom_templates")
        if own:
            shutil.copytree(own, tmp, dirs_exist_ok=True)
        name = f"{locale}.html.jinja"
        for handler, theme, words in handler_tables(str(config.theme.name)):
            # handler / theme / languages: the layout mkdocstrings reads custom templates in
            target = tmp / handler / theme / "languages" / name
            if target.exists():  # the site's own table for this locale
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(convert(words.read_text(encoding="utf-8")), encoding="utf-8")
        self._tmp, self._plugin, self._before = tmp, plugin, own
        plugin.config["custom_templates"] = str(tmp)

    def remove(self) -> None:
        """Give mkdocstrings its own setting back and delete the tables (after the build)."""
        if self._plugin is not None:
            self._plugin.config["custom_templates"] = self._before
        if self._tmp is not None:
            shutil.rmtree(self._tmp, ignore_errors=True)
        self._tmp = self._plugin = self._before = None
