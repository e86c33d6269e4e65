"""English written into a theme's override templates (``custom_dir``): a catalog, translated.

An announcement bar (``{% block announce %}New release!{% endblock %}``), a landing page's hero
(``template: home.html``, ``{% block tabs %}``) or a footer line written in an override template
reaches every Chinese page. Its literal text is a catalog like the interface strings of
mkdocs.yml (uistrings.py): the English build lists it with the site strings (machine-translated,
cached, reviewable in ``site.po``), and the Chinese build renders copies of the override
templates with the translations in place, from a folder put before ``custom_dir`` in the
theme's search path (nothing in ``custom_dir`` is written).

What is text: Jinja comments, statements and expressions are masked (same length, so every
offset stays the source's); what lies between tags outside ``<script>``, ``<style>``,
``<code>``, ``<pre>``, ``<svg>`` and ``<textarea>``, cut at each Jinja statement, plus the
values of ``title``, ``aria-label``, ``placeholder`` and ``alt``, is a string when it holds a
run of three ASCII letters. Text on both sides of a ``{{ expression }}`` is one sentence the
pipeline cannot take apart safely: it stays English and is named in a warning (once per file),
with the advice to branch on the language. A template that already branches on the language
(``config.theme.language``) is trusted and left alone.

Translations are untrusted: each is HTML-escaped (quotes too) and its braces written as
character references, so no translation can open a Jinja tag or close the attribute it is in.
"""

from __future__ import annotations

import html
import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from ..plaintext import for_template

_ENGLISH = re.compile(r"[A-Za-z]{3}")
_TEXT_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")
_ATTRIBUTE = re.compile(r"""(?<![\w-])(title|aria-label|placeholder|alt)\s*=\s*("[^"]*"|'[^']*')""", re.IGNORECASE)
_SKIPPED = ("script", "style", "code", "pre", "svg", "textarea")
_JINJA = (("{#", "#}"), ("{%", "%}"), ("{{", "}}"))
_STATEMENT, _EXPRESSION = "\x00", "\x01"  # the masks of statements/comments and of expressions
_LANGUAGE_AWARE = ("theme.language", "config.theme.language", "i18n_page_locale")
SAMPLES = 3


@dataclass(frozen=True)
class Piece:
    """One string of a template: ``source[start:end]`` shows ``text`` (unescaped, spaces joined)."""

    start: int
    end: int
    text: str
    attribute: bool = False


@dataclass
class Template:
    """One override template: its source, its strings, and its English that stays English."""

    path: Path
    source: str
    pieces: list[Piece] = field(default_factory=list)
    mixed: list[str] = field(default_factory=list)


def masked(source: str) -> str:
    """``source`` with every Jinja tag replaced, character for character, by a mask (an
    unclosed tag runs to the end), and the text of ``{% trans %}`` blocks too: the theme's own
    message catalog translates that. Linear: each opener is searched again only once passed."""
    out: list[str] = []
    nexts = {open_: source.find(open_) for open_, _close in _JINJA}
    i = 0
    in_trans = False
    while i < len(source):
        for open_ in nexts:
            if -1 < nexts[open_] < i:
                nexts[open_] = source.find(open_, i)
        found = [(pos, open_, close) for open_, close in _JINJA if (pos := nexts[open_]) != -1]
        if not found:
            out.append(_STATEMENT * (len(source) - i) if in_trans else source[i:])
            break
        start, open_, close = min(found)
        out.append(_STATEMENT * (start - i) if in_trans else source[i:start])
        end = source.find(close, start + 2)
        end = len(source) if end == -1 else end + 2
        if open_ == "{%":
            words = source[start + 2 : end - 2].strip("-+ \t\r\n").split(None, 1)
            in_trans = (words[0] == "trans") if words and words[0] in ("trans", "endtrans") else in_trans
        out.append((_EXPRESSION if open_ == "{{" else _STATEMENT) * (end - start))
        i = end
    return "".join(out)


_MASKS = re.compile("[\x00\x01]+")


def strip_jinja(source: str) -> str:
    """``source`` with every Jinja tag and ``{% trans %}`` block's text replaced by one space: the
    text a template writes of its own, for readers that need no offsets (theme404.py)."""
    return _MASKS.sub(" ", masked(source))


def _tag_end(text: str, start: int) -> int:
    """The index after the ``>`` closing the tag opened at ``start`` (quotes respected), or -1."""
    quote = ""
    for i in range(start + 1, len(text)):
        ch = text[i]
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == ">":
            return i + 1
    return -1


def _tag_name(tag: str) -> str:
    name = tag[1:].lstrip("/").split(None, 1)[0] if len(tag) > 2 else ""
    return name.rstrip(">/").lower()


def _english(text: str) -> bool:
    """Whether ``text`` (raw HTML) reads as English: three ASCII letters once its character
    references are read (``&laquo;`` is one character, not a word)."""
    return bool(_ENGLISH.search(html.unescape(text)))


def _plain(raw: str) -> str:
    return " ".join(html.unescape(raw).split())


class _Scanner:
    """Collects the pieces (and the mixed sentences) of one masked template."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.text = masked(source)
        self.lower = self.text.lower()
        self.pieces: list[Piece] = []
        self.mixed: list[str] = []

    def run(self) -> None:
        text, i = self.text, 0
        while i < len(text):
            lt = text.find("<", i)
            self._text(i, len(text) if lt == -1 else lt)
            if lt == -1:
                return
            if text.startswith("<!--", lt):
                end = text.find("-->", lt + 4)
                i = len(text) if end == -1 else end + 3
                continue
            end = _tag_end(text, lt)
            if end == -1:
                return
            name = _tag_name(text[lt:end])
            if not text.startswith("</", lt):
                self._attributes(lt, end)
            i = end
            if name in _SKIPPED and not text.startswith("</", lt) and not text[lt:end].endswith("/>"):
                close = self.lower.find(f"</{name}", end)
                i = len(text) if close == -1 else close

    def _text(self, start: int, end: int) -> None:
        """The text between two tags, cut at each Jinja statement."""
        i = start
        while i < end:
            stop = self.text.find(_STATEMENT, i, end)
            stop = end if stop == -1 else stop
            self._run(i, stop)
            i = stop
            while i < end and self.text[i] == _STATEMENT:
                i += 1

    def _run(self, start: int, end: int) -> None:
        """A run of text without statements: one piece, or its parts around expressions."""
        run = self.text[start:end]
        if _EXPRESSION not in run:
            self._piece(start, end)
            return
        parts: list[tuple[int, int]] = []
        i = start
        while i < end:
            stop = self.text.find(_EXPRESSION, i, end)
            stop = end if stop == -1 else stop
            if self.text[i:stop].strip():
                parts.append((i, stop))
            i = stop
            while i < end and self.text[i] == _EXPRESSION:
                i += 1
        worded = [(a, b) for a, b in parts if _english(self.text[a:b])]
        if len(worded) > 1:  # "Version {{ v }} is out": one sentence around an expression
            self.mixed.append(_plain(self.source[start:end]))
            return
        for a, b in worded:
            self._piece(a, b)

    def _piece(self, start: int, end: int, *, attribute: bool = False) -> None:
        raw = self.text[start:end]
        if not _english(raw):
            return
        lead = len(raw) - len(raw.lstrip())
        trail = len(raw.rstrip())
        self.pieces.append(Piece(start + lead, start + trail, _plain(raw), attribute))

    def _attributes(self, start: int, end: int) -> None:
        for m in _ATTRIBUTE.finditer(self.text, start, end):
            a, b = m.start(2) + 1, m.end(2) - 1
            value = self.text[a:b]
            if _STATEMENT in value or _EXPRESSION in value:
                if _english(value.replace(_STATEMENT, " ").replace(_EXPRESSION, " ")):
                    self.mixed.append(_plain(self.source[a:b]))
                continue
            self._piece(a, b, attribute=True)


def read_template(path: Path, source: str) -> Template:
    """The strings of one override template (none for a template that branches on the language)."""
    template = Template(path, source)
    if any(marker in source for marker in _LANGUAGE_AWARE):
        return template
    scanner = _Scanner(source)
    scanner.run()
    template.pieces, template.mixed = scanner.pieces, scanner.mixed
    return template


def _relative(path: Path) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:  # another drive (Windows)
        return str(path)


def _inert(translation: str) -> str:
    """A translation as template text: escaped, and no brace that Jinja could read."""
    return for_template(translation).replace("{", "&#123;").replace("}", "&#125;")


def translated_source(template: Template, strings: dict[str, str]) -> str | None:
    """The template with each translated piece in place; None when nothing was translated."""
    out: list[str] = []
    i = 0
    changed = False
    for piece in template.pieces:
        translation = strings.get(piece.text, "")
        if not translation.strip() or translation == piece.text:
            continue
        out.append(template.source[i : piece.start])
        out.append(_inert(translation))
        i = piece.end
        changed = True
    out.append(template.source[i:])
    return "".join(out) if changed else None


class ThemeText:
    """The site's override templates: their strings (English build), their Chinese copies
    (Chinese build)."""

    def __init__(self) -> None:
        self.root: Path | None = None
        self.templates: list[Template] = []
        # One folder for the instance's lifetime (removed at exit), so that a serve reload's
        # copies have the same file names as the last build's: compiled templates are kept by
        # name and file name (jinjacache.py), and a new folder per reload would only add entries.
        self._folder: tempfile.TemporaryDirectory[str] | None = None
        self._tmp: Path | None = None

    def collect(self, custom_dir: str | None) -> None:
        """Read every ``*.html`` under ``custom_dir`` (none: no override templates)."""
        self.root = Path(custom_dir) if custom_dir else None
        self.templates = []
        if self.root is None or not self.root.is_dir():
            return
        for path in sorted(self.root.rglob("*.html")):
            try:
                source = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            template = read_template(path, source)
            if template.pieces or template.mixed:
                self.templates.append(template)

    @property
    def texts(self) -> list[str]:
        """The strings to translate, each once, in file order."""
        return list(dict.fromkeys(p.text for t in self.templates for p in t.pieces))

    def english_left(self, named: set[Path]) -> list[str]:
        """A warning for each template with text that stays English (up to three samples),
        unless ``named`` holds it already; the templates named are added to ``named``."""
        messages: list[str] = []
        for template in self.templates:
            if not template.mixed or template.path in named:
                continue
            named.add(template.path)
            samples = ", ".join(repr(s[:40]) for s in template.mixed[:SAMPLES])
            messages.append(
                f"{_relative(template.path)}: template text stays English in the Chinese site ({samples}); "
                "wrap it in {% if config.theme.language == 'zh' %}…{% else %}…{% endif %}"
            )
        return messages

    def apply(self, theme: object, strings: dict[str, str]) -> int:
        """Put the translated copies before ``custom_dir`` in ``theme.dirs`` (the Chinese build's
        theme); how many templates were translated."""
        self.finish()
        dirs = getattr(theme, "dirs", None)
        if self.root is None or not isinstance(dirs, list):
            return 0
        copies = [(t, text) for t in self.templates if (text := translated_source(t, strings)) is not None]
        if not copies:
            return 0
        if self._folder is None:
            self._folder = tempfile.TemporaryDirectory(prefix="mkdocs-zh-translate-templates-")
        self._tmp = Path(self._folder.name)
        self._tmp.mkdir(parents=True, exist_ok=True)
        for template, text in copies:
            target = self._tmp / template.path.relative_to(self.root)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        dirs.insert(0, str(self._tmp))
        return len(copies)

    def finish(self) -> None:
        """Remove the translated copies (after the Chinese build); the folder stays for the next."""
        if self._tmp is not None:
            for entry in list(self._tmp.iterdir()) if self._tmp.is_dir() else []:
                if entry.is_dir() and not entry.is_symlink():
                    shutil.rmtree(entry, ignore_errors=True)
                else:
                    entry.unlink(missing_ok=True)
            self._tmp = None
