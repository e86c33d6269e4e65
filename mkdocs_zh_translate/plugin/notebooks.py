"""Jupyter notebooks (mkdocs-jupyter) translated like Markdown pages: their Markdown cells.

mkdocs-jupyter renders a notebook page (``.ipynb``, or a jupytext ``.py``/``.md``) from the
notebook file itself (it replaces the page's ``render``): the "Markdown" MkDocs hands to
plugins is the notebook's source, and whatever a plugin returns for it is never shown. So the
plugin takes the notebook apart instead: the Markdown cells, joined into one Markdown text with
a marker comment between cells, are the page's job, segmented, cached, reviewed (one PO file
per notebook, like any page) and guarded like any page's Markdown. For the Chinese build the
translated cells are put back into a copy of the notebook (code cells, their outputs and every
piece of metadata as they were), written outside ``docs_dir``, which mkdocs-jupyter reads
instead of the notebook (its cache key, its render; other plugins still read the notebook's
own file: sources.py): the page, its title and its table of contents come out Chinese.

Ids: the segmenter pins a translated heading to its English id (``{ #id }``), which
Python-Markdown reads and a notebook's Markdown renderer does not; the pins are taken off, and
the Chinese page gets the English render's ids back instead, heading by heading (in the page,
its anchor links and its table of contents), as well as the ids nbconvert makes up per render
(cell ids of notebooks saved without them, JavaScript outputs' uuids).

A notebook that mkdocs-jupyter executes runs from the folder of its translated copy: the files
and folders beside the original are linked there (:func:`link_siblings`), so that it reads its
data as the English build does.

mkdocs-jupyter's render cache evicts every entry its build did not use: the Chinese build's
instance gets a cache folder of its own (``<cache_dir>/<language>``), seeded with the English
renders, so that the two builds do not evict each other's renders and a notebook the plugin
did not translate comes out exactly as in the English site.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

# Between two cells of the joined Markdown: an HTML comment, which the segmenter leaves alone
# and splicing keeps byte for byte. Blank lines around it end any paragraph or HTML block.
_MARK = "<!-- zh-translate: notebook cell -->"
_JOIN = f"\n\n{_MARK}\n\n"
PLUGIN_MODULE = "mkdocs_jupyter"


def notebook_plugin(config: Any) -> Any:
    """The site's mkdocs-jupyter plugin instance, or None."""
    for plugin in config.plugins.values():
        if type(plugin).__module__.split(".")[0] == PLUGIN_MODULE:
            return plugin
    return None


def renders_notebook(plugin: Any, file: Any) -> bool:
    """Whether mkdocs-jupyter renders ``file`` from a notebook (its own test, its options)."""
    try:
        return bool(plugin.should_include(file))
    except Exception:  # a third-party check on an odd file: not a notebook we can take apart
        return False


def markdown_cells(source: str, suffix: str = ".ipynb") -> str | None:
    """The notebook's Markdown cells as one Markdown text (see the module), or None when
    ``source`` is not a notebook (``suffix``: ``.ipynb`` JSON, or a jupytext ``.py``/``.md``)."""
    loaded = _load(source, suffix)
    if loaded is None:
        return None
    return _JOIN.join(_text(cell) for cell in loaded[1] if cell.get("cell_type") == "markdown")


def translated_notebook(source: str, markdown: str, suffix: str = ".ipynb") -> str | None:
    """The notebook ``source`` with its Markdown cells replaced by the cells of the translated
    joined ``markdown``, in the notebook's own format; None if the two do not have as many
    cells (nothing is guessed)."""
    loaded = _load(source, suffix)
    if loaded is None:
        return None
    notebook, cells = loaded
    markdown_cells = [cell for cell in cells if cell.get("cell_type") == "markdown"]
    parts = markdown.split(_JOIN) if markdown_cells else []
    if len(parts) != len(markdown_cells):
        return None
    for cell, text in zip(markdown_cells, parts, strict=True):
        text = _unpinned(text)
        cell["source"] = text.splitlines(keepends=True) if isinstance(cell.get("source"), list) else text
    if suffix == ".ipynb":
        return json.dumps(notebook, ensure_ascii=False, indent=1) + "\n"
    import jupytext  # type: ignore[import-untyped]

    return str(jupytext.writes(notebook, fmt=suffix.lstrip(".")))


def _load(source: str, suffix: str) -> tuple[Any, list[dict[str, Any]]] | None:
    """The notebook and its cells (the objects themselves): JSON for ``.ipynb``, else read by
    jupytext (which mkdocs-jupyter reads ``.py`` and ``.md`` notebooks with)."""
    if suffix == ".ipynb":
        notebook = _notebook(source)
        cells = _cells_of(notebook) if notebook is not None else None
        return (notebook, cells) if cells is not None else None
    try:
        import jupytext

        notebook = jupytext.reads(source, fmt=suffix.lstrip("."))
    except Exception:  # jupytext missing, or a file it cannot read: not a notebook we can take apart
        return None
    return notebook, list(notebook.cells)


def separate_cache(plugin: Any, language: str) -> None:
    """Point the Chinese build's mkdocs-jupyter at a render cache of its own (see the module),
    seeded with the English renders: a notebook the plugin did not translate is the same file,
    found under the same key, and comes out exactly as in the English site."""
    options = getattr(plugin, "config", None)
    if options is None or not options.get("cache"):
        return
    cache_dir = options.get("cache_dir")
    if not isinstance(cache_dir, str) or not cache_dir:
        return
    english, own = Path(cache_dir), Path(cache_dir) / language
    options["cache_dir"] = str(own)
    try:
        entries = [entry for entry in english.glob("*.json") if not (own / entry.name).exists()]
        if entries:
            own.mkdir(parents=True, exist_ok=True)
        for entry in entries:  # named by a hash of the notebook and the options: never stale
            shutil.copyfile(entry, own / entry.name)
    except OSError:
        return  # a read-only or odd cache folder: the Chinese build renders them again


def link_siblings(origin: Path, folder: Path) -> None:
    """Link every file and folder beside the notebook (``origin``) into the folder of its
    translated copy, where mkdocs-jupyter executes it: a notebook that reads ``data.csv`` finds
    it there too. Names the folder already has (the translated notebooks) are left alone; where
    links cannot be made the copy runs without them."""
    try:
        entries = list(origin.iterdir())
    except OSError:
        return
    for entry in entries:
        target = folder / entry.name
        if target.exists() or target.is_symlink():
            continue
        try:
            target.symlink_to(entry, target_is_directory=entry.is_dir())
        except OSError:
            continue


def _notebook(source: str) -> dict[str, Any] | None:
    try:
        notebook = json.loads(source)
    except ValueError:
        return None
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        return None
    return notebook


def _cells_of(notebook: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The notebook's cells (the objects themselves), or None where one is not a mapping."""
    cells = notebook["cells"]
    return [cell for cell in cells if isinstance(cell, dict)] if all(isinstance(c, dict) for c in cells) else None


def _text(cell: dict[str, Any]) -> str:
    """A cell's source as one text (nbformat allows a string or a list of lines)."""
    source = cell.get("source", "")
    if isinstance(source, list):
        return "".join(str(line) for line in source)
    return str(source)


def _unpinned(text: str) -> str:
    """``text`` without the segmenter's heading pins: a trailing ``{ #id }`` on an ATX heading
    line, or on the text line of a setext heading (the line above its ``===``/``---``)."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        stripped = line.rstrip()
        setext = i + 1 < len(lines) and lines[i + 1].strip() != "" and set(lines[i + 1].strip()) <= {"=", "-"}
        if not (stripped.lstrip().startswith("#") or setext) or not stripped.endswith(" }"):
            continue
        at = stripped.rfind(" { #")
        slug = stripped[at + 4 : -2] if at > 0 else ""
        if slug and not any(ch.isspace() or ch in "{}" for ch in slug):
            lines[i] = stripped[:at]
    return "\n".join(lines)


# -- heading ids --------------------------------------------------------------------------
# nbconvert gives each heading the id of its text, so a translated notebook's headings would
# get new ids and every `#anchor` link to them would break. The English render's ids are put
# back, heading by heading, in the Chinese page and its table of contents.

_HEADING = re.compile(r"<h[1-6]\b[^>]*>", re.IGNORECASE)
_ID = re.compile(r'\bid="([^"]*)"')
_LINK = re.compile(r'href="#([^"]*)"')
# Ids nbconvert makes up per render: a cell's (for notebooks saved without cell ids) and a
# JavaScript output's uuid, which that output's own script looks up. Paired in order too.
_MADE_UP = re.compile(r"cell-id=[0-9a-f]{8}\b|\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b")


def made_up_ids(html: str) -> list[str]:
    """The render's made-up ids (see ``_MADE_UP``), each once, in order."""
    return list(dict.fromkeys(m.group(0) for m in _MADE_UP.finditer(html)))


def restore_made_up_ids(html: str, english: list[str]) -> str:
    """``html`` with its made-up ids replaced, everywhere, by the English render's, in order;
    unchanged when the two renders do not have as many."""
    chinese = made_up_ids(html)
    if len(chinese) != len(english) or chinese == english:
        return html
    mapping = dict(zip(chinese, english, strict=True))
    return _MADE_UP.sub(lambda m: mapping.get(m.group(0), m.group(0)), html)


def heading_ids(html: str) -> list[str]:
    """The ids of the headings of ``html``, in order (headings without an id left out)."""
    return [m.group(1) for tag in _HEADING.finditer(html) if (m := _ID.search(tag.group(0)))]


def toc_ids(toc: Any) -> list[str]:
    """The ids of a page's table of contents (MkDocs' ``AnchorLink`` tree), depth first."""
    found: list[str] = []
    for item in toc or []:
        found.append(str(getattr(item, "id", "")))
        found.extend(toc_ids(getattr(item, "children", [])))
    return found


def restore_ids(html: str, english: list[str]) -> str:
    """``html`` with its headings' ids, and the links to them within it, set back to the
    English ones, heading by heading; unchanged when the headings do not pair up. Paired by
    position: nbconvert gives every all-Chinese heading the same id (``id=""``), so a heading's
    own anchor link follows it, and only an id that one heading holds is followed elsewhere."""
    chinese = heading_ids(html)
    if len(chinese) != len(english) or chinese == english:
        return html
    unique = {zh: en for zh, en in zip(chinese, english, strict=True) if zh != en and chinese.count(zh) == 1}

    def links(text: str, mapping: dict[str, str]) -> str:  # one pass: no link is mapped twice
        return _LINK.sub(lambda m: f'href="#{mapping.get(m.group(1), m.group(1))}"', text) if mapping else text

    out: list[str] = []
    i = j = 0
    for tag in _HEADING.finditer(html):
        m = _ID.search(tag.group(0))
        if m is None:
            continue
        zh, en = chinese[j], english[j]
        j += 1
        if zh == en:
            continue
        out.append(links(html[i : tag.start() + m.start(1)], unique))
        out.append(en)
        i = tag.start() + m.end(1)
        close = html.find("</h", i)  # the heading's own anchor link, inside it
        if close != -1:
            out.append(links(html[i:close], {zh: en}))
            i = close
    out.append(links(html[i:], unique))
    return "".join(out)


def restore_toc(toc: Any, english: list[str]) -> None:
    """Set the ids of the table of contents back to the English ones (if they pair up)."""
    items: list[Any] = []

    def walk(nodes: Any) -> None:
        for node in nodes or []:
            items.append(node)
            walk(getattr(node, "children", []))

    walk(toc)
    if len(items) == len(english):
        for item, english_id in zip(items, english, strict=True):
            item.id = english_id
