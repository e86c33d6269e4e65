"""Which config file a command reads when it is not told (``-f``): one list, one order.

``md`` looks upward from the page; ``docs``, ``prefill``, ``review`` and ``eval`` in the working
directory (:func:`find_config`); all take the first of :data:`CONFIG_NAMES` found.
``mkdocs.yml`` comes first: it is the file ``mkdocs build`` reads, the one Zensical reads, and
the one ProperDocs falls back to, so in a folder holding both a ``mkdocs.yml`` and a
``properdocs.yml`` (a site moving from MkDocs to ProperDocs) it is the config the most tools
build; ``-f properdocs.yml`` names the other. ProperDocs itself prefers ``properdocs.yml``
(ProperDocs 1.6.7 ``config/base.py``): a site built only with ProperDocs usually has just that
file, which is then found.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import ZhTranslateError
from ..owned import path_kind

CONFIG_NAMES = ("mkdocs.yml", "mkdocs.yaml", "properdocs.yml", "properdocs.yaml")
#: The ``-f`` help of the commands that look in the working directory.
CONFIG_HELP = f"the site's config (default: the first of {', '.join(CONFIG_NAMES)} in the working directory)"


class ConfigFileError(ZhTranslateError):
    """No config file where a command looked, or ``-f`` names none: one line, exit 2."""


def config_in(folder: Path) -> Path | None:
    """The first of :data:`CONFIG_NAMES` that is a file in ``folder``, or None."""
    for name in CONFIG_NAMES:
        if (folder / name).is_file():
            return folder / name
    return None


def nearest_config(start: Path) -> Path | None:
    """The config of the nearest folder holding one: ``start`` (a folder) or the folder of
    ``start`` (a file), then each folder above it."""
    here = start.resolve()
    for folder in [here, *here.parents] if here.is_dir() else here.parents:
        found = config_in(folder)
        if found is not None:
            return found
    return None


def find_config(option: str | None, cwd: Path | None = None) -> Path:
    """The config file of a command run in a site's folder: ``-f`` if given (it must be a
    file), else the first of :data:`CONFIG_NAMES` in the working directory (``cwd``)."""
    if option:
        path = Path(option)
        problem = path_kind(path)
        if problem is not None:
            raise ConfigFileError(f"{path}: {'no such config file' if problem == 'no such file' else problem}")
        return path
    here = cwd or Path.cwd()
    found = config_in(here)
    if found is not None:
        return found
    raise ConfigFileError(f"{here}: no mkdocs.yml or properdocs.yml here (use -f to name the config file)")
