"""What the pipeline asks of reviewed translations (``review.layer`` answers): per segment,
before the machine cache. A module of its own so that the builder (``build``) and the site
translator (``pages``) both name it without importing each other."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from ..segment import SegmentedPage
from .cache import Hit


class ReviewedPage(Protocol):
    """Reviewed translations of one page (``review.layer.PageReview``)."""

    hits: dict[int, Hit]  # segment index -> reviewed hit
    warnings: list[str]  # rejected entries, "file:line: reason"
    stale: int  # reviewed entries of the page whose English changed (unused until re-reviewed)
    suggested: int  # translation-memory suggestions of the page (unused until accepted)


class Reviewer(Protocol):
    """Reviewed translations consulted per segment before the cache (``review.layer``).

    Per segment, not per text: the same placeholder text on two pages can be reviewed on one
    and not the other. Both methods raise ReviewError with a user-facing message on bad files."""

    def page(self, src_uri: str, page: SegmentedPage, location: str, line_offset: int = 0) -> ReviewedPage: ...

    def pages(
        self, jobs: Sequence[tuple[str, SegmentedPage, str, int]], strings: Sequence[str] = ()
    ) -> Mapping[str, ReviewedPage]:
        """Every page at once, ``(src_uri, page, location, line_offset)``: a review that moved
        to another page is found there (the site-wide view ``review sync`` has)."""
        ...

    def strings(self, strings: Sequence[str]) -> tuple[dict[str, str], list[str]]: ...

    def has_files(self) -> bool: ...
