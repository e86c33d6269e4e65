"""What the ``review`` commands know of one site: its PO units per file and the cached machine text.

``plugin.collect`` fills it from the real English build (it needs MkDocs); ``review sync``,
``review templates`` and ``eval`` only read it. It lives here, below the plugin, so ``review/``
and ``quality/`` never import ``plugin/``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..pipeline.backends import TranslatorSpec
from ..pipeline.glossary import Glossary
from .drafts import Former
from .memory import DEFAULT_THRESHOLD
from .powrap import DEFAULT_WIDTH
from .units import Unit


@dataclass
class Site:
    """What ``review`` commands need from one mkdocs.yml."""

    config_file: Path
    review_dir: Path
    docs_dir: Path | None = None  # no output of a command goes here
    cache_dir: Path | None = None  # the machine cache: its database is no output either
    pages: dict[Path, list[Unit]] = field(default_factory=dict)  # PO path -> units (page order)
    page_labels: dict[Path, str] = field(default_factory=dict)  # PO path -> docs page
    machine: dict[tuple[Path, tuple[str | None, str]], str] = field(default_factory=dict)
    # the model's confidence in each cached machine text (None: cached without a score)
    scores: dict[tuple[Path, tuple[str | None, str]], float | None] = field(default_factory=dict)
    # the model that wrote each cached machine text (its directory's name): the site's model,
    # or one it succeeds (a tuned model's base, whose texts the build keeps serving)
    models: dict[tuple[Path, tuple[str | None, str]], str] = field(default_factory=dict)
    site_name: str = ""
    po_width: int = DEFAULT_WIDTH
    spec: TranslatorSpec | None = None  # the site's translator (``eval`` runs it)
    glossary: Glossary | None = None  # the site's glossary, as the build applies it
    translation_memory: float = DEFAULT_THRESHOLD
    # the machine cache's text for English no longer on the site (:data:`.drafts.Former`): set
    # only while the English build's cache is open (``plugin.collect.with_site``), else None
    former: Former | None = None
    # the extra Chinese variants (option ``variants``): code, OpenCC table, and the conversion of
    # a placeholder text the build makes (``pipeline.variants.Converter``); review/variants.py
    variants: list[tuple[str, str, Callable[[str], str]]] = field(default_factory=list)
    # each unit's cached machine text in placeholder form, for the variants' conversions
    machine_source: dict[tuple[Path, tuple[str | None, str]], str] = field(default_factory=dict)
