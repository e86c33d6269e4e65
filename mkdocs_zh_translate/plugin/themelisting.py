"""The theme's files listed once per run of the Chinese builds, not once per variant.

Every MkDocs build lists its theme's directories for the static files it copies
(``Files.add_files_from_theme``): Jinja walks every theme directory and MkDocs matches each name
against its exclusion patterns. Material ships about fourteen thousand icon files that are
walked and rejected each time, the cost of a few pages' render. A Traditional variant's build
(``modes/variant.py``) lists the same directories with the same patterns moments after the
Simplified build did: it takes that listing.

Only the listing MkDocs' own ``add_files_from_theme`` asks for is kept (its filter function,
recognised by its code), keyed by what that filter and the walk read (the theme's directories,
its static templates, MkDocs' Markdown suffixes). The Simplified build of each run lists afresh,
and the listing is dropped when the run ends (``clear``), so a file added to a theme between two
``mkdocs serve`` reloads is seen. MkDocs at a tested version only (``speedups.py``).
"""

from __future__ import annotations

import types
from collections.abc import Callable, Iterable
from typing import Any

from mkdocs import utils
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files


def _filter_code() -> types.CodeType | None:
    """The code of the filter ``Files.add_files_from_theme`` hands to ``list_templates``."""
    for const in Files.add_files_from_theme.__code__.co_consts:
        if isinstance(const, types.CodeType) and const.co_name == "filter":
            return const
    return None


_FILTER = _filter_code()


class ThemeListing:
    """The theme listing of this run's Simplified build, for its variant builds."""

    def __init__(self) -> None:
        self._names: dict[tuple[Any, ...], list[str]] = {}
        self.reused = 0  # listings taken instead of made (tests, log)

    def clear(self) -> None:
        """A new run of the Chinese builds: the next listing is made afresh."""
        self._names.clear()

    def install(self, config: MkDocsConfig, *, reuse: bool) -> None:
        """Make the environments of ``config``'s theme keep their listing (the Simplified
        build) or take the one kept (``reuse``: a variant build)."""
        theme = config.theme
        get_env: Callable[[], Any] = theme.get_env

        def env_with_listing() -> Any:
            env = get_env()
            env.list_templates = self._listing(env.list_templates, config, reuse)
            return env

        theme.get_env = env_with_listing  # type: ignore[method-assign]

    def _listing(self, list_templates: Callable[..., list[str]], config: MkDocsConfig, reuse: bool) -> Any:
        def listing(extensions: Iterable[str] | None = None, filter_func: Callable[[str], bool] | None = None) -> Any:
            if _FILTER is None or extensions is not None or getattr(filter_func, "__code__", None) is not _FILTER:
                return list_templates(extensions, filter_func)
            theme = config.theme
            key = (tuple(theme.dirs), tuple(sorted(theme.static_templates)), tuple(utils.markdown_extensions))
            names = self._names.get(key) if reuse else None
            if names is not None:
                self.reused += 1
                return list(names)
            names = list_templates(extensions, filter_func)
            self._names[key] = list(names)
            return names

        return listing
