"""Jupyter notebooks (mkdocs-jupyter) translated like Markdown pages: their Markdown cells.

mkdocs-jupyter renders a ``.ipynb`` page from the notebook file itself (it replaces the page's
``render``): the "Markdown" MkDocs hands to plugins is the notebook's JSON, and whatever a
plugin returns for it is never shown. So the plugin takes the notebook apart instead: the
Markdown cells, joined into one Markdown text with a marker comment between cells, are the
page's job, segmented, cached, reviewed (one PO file per notebook, like any page) and guarded
like any page's Markdown. For the Chinese build the translated cells are put back into a copy
of the notebook (code cells, their outputs and every piece of metadata as they were), written
outside ``docs_dir``, and the notebook's file is pointed at that copy before mkdocs-jupyter
reads it: the page, its title and its table of contents come out Chinese.

Heading ids: the segmenter pins a translated heading to its English id (``{ #id }``), which
Python-Markdown reads and a notebook's Markdown renderer does not; the pins are taken off again,
and a notebook's translated headings get the ids nbconvert gives them.

mkdocs-jupyter's render cache evicts every entry its build did not use: the Chinese build's
instance gets a cache folder of its own (``<cache_dir>/<language>``) so that the two builds
do not evict each other's renders.
"""

from __future__ import annotations

import json
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


def markdown_cells(source: str) -> str | None:
    """The notebook's Markdown cells as one Markdown text (see the module), or None when
    ``source`` is not a notebook's JSON (a jupytext ``.py``/``.md`` notebook, say)."""
    cells = _cells(source)
    if cells is None:
        return None
    return _JOIN.join(_text(cell) for cell in cells if cell.get("cell_type") == "markdown")


def translated_notebook(source: str, markdown: str) -> str | None:
    """The notebook ``source`` with its Markdown cells replaced by the cells of the translated
    joined ``markdown``; None if the two do not have as many cells (nothing is guessed)."""
    notebook = _notebook(source)
    cells = _cells_of(notebook) if notebook is not None else None
    if notebook is None or cells is None:
        return None
    markdown_cells = [cell for cell in cells if cell.get("cell_type") == "markdown"]
    parts = markdown.split(_JOIN) if markdown_cells else []
    if len(parts) != len(markdown_cells):
        return None
    for cell, text in zip(markdown_cells, parts, strict=True):
        text = _unpinned(text)
        cell["source"] = text.splitlines(keepends=True) if isinstance(cell.get("source"), list) else text
    return json.dumps(notebook, ensure_ascii=False, indent=1) + "\n"


def separate_cache(plugin: Any, language: str) -> None:
    """Point the Chinese build's mkdocs-jupyter at a render cache of its own (see the module)."""
    options = getattr(plugin, "config", None)
    if options is None or not options.get("cache"):
        return
    cache_dir = options.get("cache_dir")
    if isinstance(cache_dir, str) and cache_dir:
        options["cache_dir"] = str(Path(cache_dir) / language)


def _notebook(source: str) -> dict[str, Any] | None:
    try:
        notebook = json.loads(source)
    except ValueError:
        return None
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        return None
    return notebook


def _cells(source: str) -> list[dict[str, Any]] | None:
    notebook = _notebook(source)
    return _cells_of(notebook) if notebook is not None else None


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
