"""The data the segmenter hands out: segments, and what each needs to be put back."""

from __future__ import annotations

from dataclasses import dataclass, field

EMPHASIS_ROLES = frozenset({"em", "strong", "s"})


@dataclass(frozen=True)
class SiteSyntax:
    """What the site's Markdown extensions change about a page's segments (default: nothing).

    ``tab_ids_from_titles``: content tabs take their ids from their titles (pymdownx.tabbed's or
    blocks.tab's ``slugify`` option). Tab titles then stay English: a tab title has no syntax
    to pin an id with, and a translated title would change the id that links select the tab by.

    ``fancy_lists``: pymdownx.fancylists is on, so ``a.``, ``B)``, ``iv.`` and ``#.`` start
    list items (without it they are paragraph text, and the letter is prose).

    ``emoji``: the shortcodes (``:smile:``, colons included) the site's pymdownx.emoji replaces
    with an image or icon. Any other ``:name:`` stays text in the English page, so its words are
    in the heading's id. ``None`` (not known): every shortcode is taken as replaced.
    """

    tab_ids_from_titles: bool = False
    fancy_lists: bool = False
    emoji: frozenset[str] | None = None


@dataclass(frozen=True)
class Piece:
    """One run of a segment's source: ``text`` (translated), ``atom`` (kept verbatim),
    ``open``/``close`` (a pair's delimiters, content translated) or ``break`` (a soft line break).

    ``start``/``end`` are offsets into the original page; ``role`` says which construct it is
    (``code``, ``url``, ``attr``, ``em``, ``link``, ...).
    """

    kind: str
    start: int
    end: int
    role: str = ""
    label: str = ""  # shortcut/collapsed reference links: the label that keys the link
    ref_style: str = ""  # "", "shortcut" or "collapsed"


@dataclass
class Restore:
    """Everything the splice needs besides the translation itself."""

    atoms: dict[int, tuple[str, str]] = field(default_factory=dict)  # id -> (bytes, role)
    pairs: dict[int, tuple[str, str, Piece]] = field(default_factory=dict)  # id -> (open, close, open piece)
    inner: dict[int, str] = field(default_factory=dict)  # id -> source text between the pair's tags
    line_break: str = "\n"  # what a "\n" in the segment text stands for in the page
    hard_breaks: bool = False  # the source has `  \n` line breaks: a translation's are kept
    single_line: bool = False  # headings, cells, titles: a "\n" from the model becomes a space
    block_start: bool = False  # the segment opens a block line: a leading "# " would make a heading
    table: bool = False
    raw_html: bool = False  # text inside a raw HTML block: only "<" and "&" mean anything there
    yaml_quote: str | None = None  # front matter values: '"', "'" or "" (plain)
    attr_quote: str | None = None  # a quoted value (a code block's title, an image's alt/title): none of these chars
    html_escape: bool = False  # a raw HTML attribute's value: the translation is escaped for it
    host: tuple[int, int] | None = None  # page span of the image syntax that holds this attribute text
    line_starts: frozenset[str] = frozenset()  # block markers the source text has at line starts
    text_chars: str = ""  # all source text runs, to tell which special characters the model added
    before: str = ""  # page character just before the segment
    after: str = ""  # page character just after it
    slug: str | None = None  # heading id to pin when the heading is translated
    pin_at: int | None = None  # page offset to insert "#slug " into an existing attr_list
    insert_title: bool = False  # the segment is a default admonition title, absent from the page
    title_form: str = "quoted"  # how to insert it: ` "Title"` (`!!! note`) or ` | Title` (`/// note`)


@dataclass(frozen=True)
class Segment:
    """A translatable run of a page.

    ``text`` carries ``<xN/>`` atoms for what must not be translated and ``<gN>…</gN>`` pairs
    for formatting whose content is translated, numbered from 1 within the segment.
    ``start``/``end`` are character offsets into the page, ``line`` is 1-based.
    """

    text: str
    start: int
    end: int
    line: int
    kind: str
    restore: Restore = field(repr=False, compare=False, default_factory=Restore)

    @property
    def droppable_pairs(self) -> frozenset[int]:
        """Pair ids whose loss only loses formatting (emphasis, strong, strikethrough), never a
        link: what the ``drop_pairs`` fallback may remove."""
        return frozenset(pid for pid, (_o, _c, piece) in self.restore.pairs.items() if piece.role in EMPHASIS_ROLES)
