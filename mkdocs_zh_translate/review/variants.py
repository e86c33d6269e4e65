"""``review sync`` for the extra Chinese variants: ``translations/zh-TW/*.po`` beside ``translations/zh/``.

A variant's PO files hold the same entries as the Simplified ones (the same English, the same
keys), reviewed by the variant's own reviewers. Where they hold no person's text, a sync offers
what the build shows: the Simplified review converted, as a fuzzy *suggestion* for the variant's
reviewers (marked like a translation-memory suggestion, so ``review status`` counts it as
suggested and accepting it is deleting ``#, fuzzy``); else the Simplified machine text converted,
fuzzy, as the Simplified files hold theirs. Conversions go through the placeholder form, so code
spans and link targets in a reviewed Markdown text are never handed to OpenCC.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..segment import Segment, from_readable, soft_breaks_as_spaces, to_readable
from .memory import DEFAULT_THRESHOLD, open_to_suggestion
from .site import Site
from .store import SUGGESTION_MARK, entry_state, render_po
from .sync import Planned, plan_sync
from .units import Key, Unit, entry_key

Convert = Callable[[str], str]


def converted_mark(code: str, table: str) -> str:
    """The translator comment of a converted Simplified review: a suggestion, as memory's are."""
    return f"{SUGGESTION_MARK} (the zh-Hans review, converted to {code} with OpenCC {table})"


@dataclass
class VariantSite:
    """One variant's review site: the Simplified site's units under ``review_dir``, and how the
    variant converts (``convert`` on placeholder text)."""

    code: str
    table: str
    site: Site
    convert: Convert = field(repr=False, default=str)


def segment_of(unit: Unit) -> Segment:
    """The unit's segment (a site string is a segment of its own)."""
    return unit.segment or Segment(unit.text, 0, 0, 1, "string")


def convert_readable(unit: Unit, text: str, convert: Convert) -> str | None:
    """A readable (PO) text converted through the unit's placeholder form: its code spans and
    link targets as they were. None when the text does not fit the unit (a review the build
    rejects is not offered either)."""
    parsed = from_readable(segment_of(unit), text)
    if parsed.problems:
        return None
    return soft_breaks_as_spaces(to_readable(segment_of(unit), convert(parsed.text)))


def variant_sites(site: Site) -> list[VariantSite]:
    """Each extra variant's review site (``site.variants``): ``site``'s units with their PO
    paths moved to the variant's review directory (beside the Simplified one), and the
    variant's machine text: the cached Simplified text converted, as the build shows it."""
    found = []
    for code, table, convert in site.variants:
        review_dir = site.review_dir.parent / code
        moved = {path: review_dir / path.relative_to(site.review_dir) for path in site.pages}
        machine: dict[tuple[Path, Key], str] = {}
        for path, units in site.pages.items():
            for unit in units:
                source = site.machine_source.get((path, unit.key))
                if source is not None:
                    text = to_readable(segment_of(unit), convert(source))
                    machine[(moved[path], unit.key)] = soft_breaks_as_spaces(text)
        own = Site(
            site.config_file, review_dir, site.docs_dir, site.cache_dir,
            pages={moved[p]: units for p, units in site.pages.items()},
            page_labels={moved[p]: label for p, label in site.page_labels.items()},
            machine=machine, site_name=site.site_name, po_width=site.po_width, spec=site.spec,
            glossary=site.glossary, translation_memory=site.translation_memory,
        )
        found.append(VariantSite(code, table, own, convert))
    return found


def plan_variant_sync(
    variant: VariantSite, simplified: Sequence[Planned], simplified_dir: Path, width: int | None = None,
    memory: float = DEFAULT_THRESHOLD,
) -> list[Planned]:
    """The variant's PO files as a sync writes them: planned as the Simplified ones are (its own
    reviews kept, moved, remembered), then each entry that holds no person's text offered the
    Simplified review of the same entry, converted, as a marked fuzzy suggestion."""
    planned = plan_sync(variant.site, width, memory=memory)
    reviewed: dict[tuple[Path, Key], str] = {}
    for plan in simplified:
        relative = plan.path.relative_to(simplified_dir)
        for entry in plan.po:
            if not entry.obsolete and entry_state(entry) == "reviewed":
                reviewed[(relative, entry_key(entry))] = entry.msgstr
    mark = converted_mark(variant.code, variant.table)
    width = variant.site.po_width if width is None else width
    for plan in planned:
        relative = plan.path.relative_to(variant.site.review_dir)
        units = {u.key: u for u in variant.site.pages.get(plan.path, [])}
        changed = plan.seen is None  # a new file: the variant's own language in its header
        if changed:
            plan.po.metadata.update(_language(variant.code))
        for entry in plan.po:
            unit = units.get(entry_key(entry))
            text = reviewed.get((relative, entry_key(entry)))
            machine = variant.site.machine.get((plan.path, entry_key(entry)))
            if entry.obsolete or unit is None or text is None or not open_to_suggestion(entry, machine):
                continue  # a person's text (the variant's review, a draft) is never replaced
            offered = convert_readable(unit, text, variant.convert)
            if offered is None:
                continue
            entry.msgstr = offered
            entry.flags = ["fuzzy", *(f for f in entry.flags if f != "fuzzy")]
            entry.tcomment = _with_line(entry.tcomment, mark)
            changed = True
        if changed and plan.text is not None:
            plan.text = render_po(plan.po, width)
    return planned


def _with_line(tcomment: str | None, line: str) -> str:
    lines = [t for t in (tcomment or "").split("\n") if t and not t.startswith(SUGGESTION_MARK)]
    return "\n".join([*lines, line])


_TEAMS = {"zh-TW": "Chinese (Traditional, Taiwan)", "zh-HK": "Chinese (Traditional, Hong Kong)"}


def _language(code: str) -> dict[str, str]:
    """A variant's PO header: gettext's locale (``zh_TW``) and its team's name."""
    return {"Language": code.replace("-", "_"), "Language-Team": _TEAMS.get(code, "Chinese (Traditional)")}
