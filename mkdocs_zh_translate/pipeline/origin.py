"""Where a segment's Chinese came from: one vocabulary for the build, the review tools and tests.

An ``Enum`` rather than strings so a typo is an error, not a silently different origin. The
value is what a user may see in a message, so it stays a short readable word.
"""

from __future__ import annotations

from enum import Enum


class Origin(Enum):
    """The source of one translation, in order of authority."""

    REVIEWED = "reviewed"  # a person's text from the PO files
    CACHE = "cache"  # machine text stored by an earlier run
    MODEL = "model"  # machine text produced by this run
    ENGLISH = "english"  # no model could be loaded: the segment stays English
    GUARD = "guard"  # the page guard found the spliced page broken: the segment stays English

    @property
    def machine(self) -> bool:
        """True for text a model wrote (cached or fresh), which a person has not checked."""
        return self in (Origin.CACHE, Origin.MODEL)
