"""English around the pages that neither the theme nor the page's Markdown holds: the footer's
``copyright`` written as HTML, and the controls a site's JavaScript writes into the page.

``copyright`` in plain text is one site string (overrides.translatable_copyright); written as
HTML (``Copyright &copy; 2026 <a href="…">Acme</a>``), its text is translated piece by piece
between the tags, as override templates are (templates.py), and the markup stays as written.

Terminal animations (termynal: the mkdocs plugin ``termynal`` ships ``termynal.js``; FastAPI
and many sites keep a copy in ``docs_dir``) write their controls, "fast →" and "restart ↻",
from string literals no option sets. In the Chinese site's copy of such a script (any ``*.js``
the Chinese build wrote that is a termynal script) the known literals are replaced by fixed
Chinese ones (trusted text of this module, not model output); a script loaded from a URL keeps
them, and is named in a warning.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .overrides import translatable_copyright
from .templates import Template, read_template, translated_source

#: The controls of termynal.js, as its source writes them, and what the Chinese site shows.
SCRIPT_STRINGS = {"fast →": "快进 →", "restart ↻": "重新播放 ↻"}
_SCRIPT_MARKER = "termynal"
_QUOTES = ('"', "'", "`")
_LARGEST_SCRIPT = 4 << 20  # bundles larger than this are a theme's own, not a terminal animation


def html_copyright(copyright: str | None) -> Template | None:
    """The text pieces of a ``copyright`` written as HTML, or None (plain text, none, no English)."""
    if not copyright or translatable_copyright(copyright) or not any(ch in copyright for ch in "<&"):
        return None
    template = read_template(Path("copyright"), copyright)
    return template if template.pieces else None


def zh_copyright(template: Template, strings: dict[str, str]) -> str | None:
    """The copyright HTML with its translated text in place (escaped), or None if none was."""
    return translated_source(template, strings)


def _remote_scripts(config: Any) -> list[str]:
    """The ``extra_javascript`` entries the site loads from a URL (paths or ``script_tag``s)."""
    paths = [str(getattr(entry, "path", entry)) for entry in config.extra_javascript]
    return [path for path in dict.fromkeys(paths) if "://" in path or path.startswith("//")]


def translate_scripts(config: Any, site_dir: Path) -> list[str]:
    """Replace the known control strings in the Chinese site's scripts (every ``*.js`` under
    ``site_dir``: ``extra_javascript``, the termynal plugin's own copy, a theme's); warnings
    naming each script that keeps them (loaded from a URL, so not the Chinese build's)."""
    warnings: list[str] = []
    for url in _remote_scripts(config):
        if _SCRIPT_MARKER in url.lower():
            names = ", ".join(repr(s) for s in SCRIPT_STRINGS)
            warnings.append(f"extra_javascript {url}: the controls it writes ({names}) stay English")
    for script in sorted(site_dir.rglob("*.js")) if site_dir.is_dir() else []:
        try:
            if script.is_symlink() or script.stat().st_size > _LARGEST_SCRIPT:
                continue
            source = script.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        translated = translated_script(source)
        if translated != source:
            script.write_text(translated, encoding="utf-8")
    return warnings


def translated_script(source: str) -> str:
    """``source`` with each known control string literal in Chinese (only in a termynal script)."""
    if _SCRIPT_MARKER not in source.lower():
        return source
    for english, chinese in SCRIPT_STRINGS.items():
        for quote in _QUOTES:
            source = source.replace(f"{quote}{english}{quote}", f"{quote}{chinese}{quote}")
    return source
