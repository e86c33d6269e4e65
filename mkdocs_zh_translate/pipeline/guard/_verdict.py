"""What the guard did to one page, and how that verdict is kept across builds.

A verdict is cached under a hash of everything it depends on (:func:`verdict_key_parts`), so a
stored verdict is never stale; what is stored is only what the guard decided (the segments it
reverted, whether the whole page, the reason), applied again to the same translations.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ..stable import parts_key

# Bump when what the guard compares or how it searches changes: every stored verdict then misses
# (the package version is in the key too; this number covers a change between releases).
GUARD_FORMAT = 3  # 2: regions read raw HTML by the segmenter's block-tag list; 3: regions cut at the
# segmenter's top-level blocks (other cuts: a search may end in another verdict for the same inputs)


class VerdictStore(Protocol):
    """Where verdicts outlive the build (``cache.MachineCache``): short strings by key."""

    def get_verdict(self, key: str) -> str | None: ...

    def set_verdict(self, key: str, value: str) -> None: ...

    def save_verdicts(self) -> None:
        """Write the verdicts set so far (a store may keep them until then)."""


@dataclass
class GuardResult:
    """What the guard did to one page."""

    translations: list[str | None]
    reverted: list[int] = field(default_factory=list)  # segment indices put back to English
    whole_page: bool = False  # every translated segment put back (bisection found no smaller set, or all)
    reason: str = ""  # one line: what differed; empty when the page passed
    renders: int = 0
    rendered: int = 0  # characters of Markdown those renders read (the search's cost)
    reused: bool = False  # a stored verdict (no render)
    # The page spliced with ``translations`` (heading ids pinned), when the guard already made
    # it for the verdict's key: the caller's page, so it is not spliced a second time.
    spliced: str | None = None


def encode_verdict(result: GuardResult) -> str:
    return json.dumps(
        {"r": result.reverted, "w": result.whole_page, "s": result.reason}, ensure_ascii=False, separators=(",", ":")
    )


def decode_verdict(raw: str | None, translations: list[str | None], candidates: list[int]) -> GuardResult | None:
    """A stored verdict applied to ``translations``; None for a miss or anything malformed."""
    if raw is None:
        return None
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    reverted, whole, reason = data.get("r"), data.get("w"), data.get("s")
    allowed = set(candidates)
    if (
        not isinstance(reverted, list)
        or not all(isinstance(i, int) and i in allowed for i in reverted)
        or not isinstance(whole, bool)
        or not isinstance(reason, str)
    ):
        return None
    current = list(translations)
    for i in reverted:
        current[i] = None
    return GuardResult(current, reverted=sorted(reverted), whole_page=whole, reason=reason, reused=True)


def verdict_key(
    fingerprint: str,
    label: str,
    line_offset: int,
    english_markdown: str,
    source: str,
    spliced: str,
    translations: Sequence[str | None],
) -> str:
    """The hash a verdict is stored by: the guard's format and the package's version, the
    renderer's fingerprint, what the reason names (label, line offset), the English Markdown,
    the page (its source and as fully spliced) and the translations."""
    from ..._version import __version__

    parts = [
        f"guard={GUARD_FORMAT}",
        f"package={__version__}",
        fingerprint,
        label,
        str(line_offset),
        english_markdown,
        source,
        spliced,
        json.dumps(list(translations), ensure_ascii=False),
    ]
    return parts_key(parts)
