"""A team's own Chinese edition, linked with Material's ``extra.alternate``.

Some teams write their Chinese docs by hand as a second MkDocs project and publish it at
``/zh/``, linked from the English site's language selector. The machine site would be written
to the same place (``site/<language>/``) and, deployed together, replace those human pages
without a word. So an alternate for Chinese that points where the machine site goes stops the
build with one line that names the two ways out: another path for the machine site (option
``language``), or the human pages as ``page.zh.md`` beside the English ones, which win over the
machine translation page by page.

A Chinese alternate that points elsewhere is such an edition too: it is kept in the selector
next to the machine site (see :func:`human_editions`), whose entry then says it is a machine
translation, so a reader can tell the two apart.
"""

from __future__ import annotations

import posixpath
import re
from typing import Any
from urllib.parse import urlsplit

from mkdocs.exceptions import PluginError

from ..logs import PREFIX
from . import site
from .site import Languages

MACHINE_LABEL = "中文（机器翻译）"  # the machine site's entry when a human edition is listed too
_SUBTAG = re.compile(r"[-_]")


def is_chinese(lang: object) -> bool:
    """Whether a language code (``zh``, ``zh-CN``, ``zh_Hant``) names Chinese."""
    return isinstance(lang, str) and _SUBTAG.split(lang.strip(), maxsplit=1)[0].casefold() == "zh"


def _dir_path(path: str) -> str:
    """``path`` as a directory path: ``index.html`` dropped, dots resolved, one trailing slash."""
    if path.endswith("/index.html"):
        path = path[: -len("index.html")]
    normal = posixpath.normpath(path or "/")
    normal = "/" if normal in (".", "//") else normal
    return normal.rstrip("/") + "/"


def _target(link: str, langs: Languages) -> str | None:
    """Where ``link`` leads as ``//host/path/`` (with a host) or ``/path/`` (same host), read as
    MkDocs' ``url`` filter reads an alternate's link: relative links are relative to the site's
    root (``site_url``'s path, ``/`` without one), ``/…`` stays on the host. None when there is
    nothing to compare (a bare fragment, a mail link)."""
    parts = urlsplit(link.strip())
    if parts.scheme and parts.scheme not in ("http", "https"):
        return None
    if parts.netloc:
        return f"//{parts.netloc.casefold()}{_dir_path(parts.path or '/')}"
    if not parts.path:
        return None
    if parts.path.startswith("/"):
        return _dir_path(parts.path)
    mount = urlsplit(langs.site_url or "/").path or "/"
    return _dir_path(posixpath.join(mount.rstrip("/") + "/", parts.path))


def _machine_targets(langs: Languages) -> set[str]:
    """The machine site's root, as :func:`_target` spells links to it."""
    zh = langs.zh_site_url() or ""
    found = {_dir_path(urlsplit(zh).path) if zh else _dir_path(f"/{langs.prefix}/")}
    if zh:
        parts = urlsplit(zh)
        found.add(f"//{parts.netloc.casefold()}{_dir_path(parts.path)}")
    return found


def _chinese_entries(config: Any) -> list[dict[str, Any]]:
    alternates = config.extra.get("alternate") if hasattr(config, "extra") else None
    if not isinstance(alternates, list):
        return []
    entries = [a for a in alternates if isinstance(a, dict) and isinstance(a.get("link"), str)]
    return [a for a in entries if is_chinese(a.get("lang"))]


def overwritten_edition(config: Any, langs: Languages) -> str | None:
    """The one-line refusal when an ``extra.alternate`` entry for Chinese points where the
    machine site would be written; None when none does."""
    ours = _machine_targets(langs)
    for entry in _chinese_entries(config):
        if _target(entry["link"], langs) in ours:
            name = entry.get("name") if isinstance(entry.get("name"), str) else entry["lang"]
            return (
                f"extra.alternate links Chinese ({name!r}) to {entry['link']!r}, where this plugin would write "
                f"its machine-translated site (site/{langs.prefix}/) over that edition; choose one: "
                "set option 'language' to another path for the machine site (e.g. 'zh-mt'), or move "
                "the human pages beside the English ones as page.zh.md (each wins over the machine "
                "translation of its page) and drop that entry"
            )
    return None


def human_editions(config: Any, langs: Languages) -> list[dict[str, Any]]:
    """The ``extra.alternate`` entries for Chinese that lead somewhere other than the machine
    site: a team's own edition, kept in the language selector beside the machine site."""
    ours = _machine_targets(langs)
    return [e for e in _chinese_entries(config) if _target(e["link"], langs) not in ours]


def set_alternates(config: Any, langs: Languages) -> None:
    """Material's language selector for one of the two builds: the refusal above first (a
    ``PluginError``, one line), then both languages, and a team's own Chinese edition kept."""
    problem = overwritten_edition(config, langs)
    if problem:
        raise PluginError(f"{PREFIX}{problem}")
    human = human_editions(config, langs)
    site.set_alternates(config, langs, human, MACHINE_LABEL if human else site.ZH_LABEL)
