"""``po fill``: machine-translate the open entries of gettext catalogs, never a reviewed one.

Which entries are filled:

- untranslated entries (empty ``msgstr``);
- with ``refresh``, entries this command filled before and nobody touched since: carrying our
  translator comment ``# zh-translate: machine [translated] <hash>`` whose hash matches the
  current ``msgstr`` (a translator who edited the text keeps it), and still ``#, fuzzy`` or
  written translated (the ``translated`` word);
- never: reviewed entries (translated, not fuzzy, not ours), fuzzy entries that are not ours
  (msgmerge suggestions, a person's draft), obsolete entries, the header.

Plural entries are filled only when the catalog has a single plural form (``nplurals=1``, as
Chinese does): ``msgstr[0]`` is the translation of ``msgid_plural``. Otherwise they are skipped
and listed. By default every new translation is ``#, fuzzy``: Sphinx uses it only with
``gettext_allow_fuzzy_translations`` and reviewers see it as a draft. With ``translated`` it is
written as a translation (msgfmt, Weblate and Sphinx count and use it) and only the marker's
``translated`` word says it is unreviewed machine text; a refresh also moves our untouched
entries to the state asked for.

The machine cache defaults to ``.zh-translate-cache`` beside the PO tree, but never inside a
Sphinx source directory (:func:`default_cache_dir`).

The translation path is the plugin's pipeline (``pipeline.service``): reST or Markdown
protection into placeholders here, then the same cache key, lazy model, glossary, validation and
fallback ladder as ``mkdocs build``, and a final check here that the restored text still holds
every protected part. A text that fails stays untranslated and is listed with its file and line.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ZhTranslateError
from ..pipeline.backends import TranslatorSpec
from ..pipeline.build import SiteInputs, build_pipeline, build_variant_pipeline
from ..pipeline.cache import Hit, MachineCache
from ..pipeline.glossary import Glossary
from ..pipeline.lazy import LazyTranslator, TranslationFailed
from ..pipeline.origin import Origin
from ..pipeline.progress import progress_for
from ..pipeline.report import PageCounts
from ..pipeline.service import Requests
from ..pipeline.variants import Variant, parse_variants, traditional_code
from ..review.store import display
from ..segment import has_words
from ..untrusted import UntrustedFileError, excerpt, read_untrusted_text
from .catalog import Catalog, CatalogError, Edit, Entry, apply_edits_mapped, check_edits, parse_catalog
from .formats import RST_IN_MYST, Message, protect

# the format of one entry of a catalog (the catalog's path, the msgid) and its file's link
# reference definitions (MyST): ``sphinx sync``'s choice per message, as the Sphinx build makes it
FormatOf = Callable[[Path, str], tuple[str, Mapping[str, str]]]

DEFAULT_CACHE_DIRNAME = ".zh-translate-cache"


class FillError(ZhTranslateError):
    """A problem to report as one line naming the file (and line)."""


@dataclass
class Problem:
    where: str  # file:line (the line in the file as it is after the run)
    msgid: str
    reason: str
    path: str = ""
    line: int = 0  # 0-based line of the msgid in the file as read

    def __str__(self) -> str:
        short = self.msgid if len(self.msgid) <= 60 else self.msgid[:57] + "..."
        return f"{self.where}: {self.reason}: {short!r}"


@dataclass
class Summary:
    files: int = 0
    files_changed: int = 0
    entries: int = 0  # entries that are not the header and not obsolete
    filled: int = 0
    refreshed: int = 0
    reviewed: int = 0  # left alone: translated by a person
    fuzzy_kept: int = 0  # left alone: fuzzy but not ours (or edited)
    already: int = 0  # left alone: our own fuzzy text (no --refresh)
    already_translated: int = 0  # left alone: our own text written as translated (no --refresh)
    fallbacks: int = 0  # filled, but the fallback ladder was needed
    english: list[Problem] = field(default_factory=list)  # filled, but partly English (ladder)
    skipped: list[Problem] = field(default_factory=list)  # plural entries we cannot fill
    failed: list[Problem] = field(default_factory=list)  # validation failures
    cache_dir: Path | None = None  # the machine cache used
    pages: dict[str, PageCounts] = field(default_factory=dict)  # per PO file, for the JSON report

    def page(self, path: str) -> PageCounts:
        """The report's counts of one PO file (entries are its segments)."""
        return self.pages.setdefault(path, PageCounts())

    def line(self) -> str:
        return (
            f"po fill: {self.files} files ({self.files_changed} changed), {self.entries} entries: "
            f"{self.filled} filled{f' ({self.refreshed} refreshed)' if self.refreshed else ''}, "
            f"{self.reviewed} reviewed kept, {self.fuzzy_kept + self.already} fuzzy kept, "
            f"{f'{self.already_translated} machine kept, ' if self.already_translated else ''}"
            f"{len(self.skipped)} skipped, {len(self.failed)} failed validation; "
            f"{self.translated_share():.0%} of entries translated"
        )

    def translated_share(self) -> float:
        """Share of the entries that now hold a translation (reviewed or machine)."""
        done = self.filled + self.reviewed + self.fuzzy_kept + self.already + self.already_translated
        return done / self.entries if self.entries else 1.0


def find_po_files(paths: Sequence[Path]) -> dict[Path, Path]:
    """Every ``.po`` file under ``paths`` -> the directory it must be read inside: the directory
    given (catalog trees come from contributors: no symbolic link below it is followed, a linked
    file is refused rather than skipped), or a file's own directory for a file given directly."""
    found: dict[Path, Path] = {}
    for path in paths:
        if path.is_dir():
            for p in sorted(path.rglob("*.po")):
                if p.is_file() or p.is_symlink():
                    found.setdefault(p, path)
        elif path.is_file():
            if path.suffix != ".po":
                raise FillError(f"{path}: not a .po file")
            found.setdefault(path, path.parent)
        else:
            raise FillError(f"{path}: no such file or directory")
    return found


VCS_DIRS = (".git", ".hg", ".svn", ".bzr", ".jj")


def default_cache_dir(paths: Sequence[Path]) -> Path:
    """Where the machine cache goes when ``--cache-dir`` is not given.

    - Catalogs outside a Sphinx project (mdpo): ``.zh-translate-cache`` beside the PO tree
      (``locale/`` -> next to ``locale/``).
    - Catalogs inside a Sphinx source directory (the nearest ``conf.py`` at or above them,
      looked for up to the checkout's root): never in that directory, which sphinx-build scans
      and which gets copied and published whole. Beside it instead (``repo/docs/conf.py`` ->
      ``repo/.zh-translate-cache``, where the plugin's cache of a MkDocs site at the root would
      be) when that is still inside the same checkout (a ``.git``/``.hg``/... at or above it);
    - else (the source directory is the checkout's root, or there is no checkout) in the
      user's cache directory, one folder per source directory:
      ``~/.cache/mkdocs-zh-translate/po-fill/<name>-<hash of its path>``."""
    first = paths[0] if paths else Path(".")
    base = (first if first.is_dir() else first.parent).resolve()
    source = None
    for folder in (base, *base.parents):
        if (folder / "conf.py").is_file():
            source = folder
            break
        if any((folder / vcs).exists() for vcs in VCS_DIRS):
            break  # the checkout's root: a conf.py above it belongs to someone else
    if source is None:
        return base.parent / DEFAULT_CACHE_DIRNAME
    outside = source.parent
    if outside != source and any((d / vcs).exists() for d in (outside, *outside.parents) for vcs in VCS_DIRS):
        return outside / DEFAULT_CACHE_DIRNAME
    from ..userdirs import user_cache_dir

    user = user_cache_dir()
    if user is None:
        raise FillError(
            f"{display(source)}: is a Sphinx source directory and there is no user cache directory to keep "
            "the translation cache out of it: pass --cache-dir DIR"
        )
    key = hashlib.sha256(str(source).encode("utf-8")).hexdigest()[:16]
    return user / "po-fill" / f"{source.name or 'root'}-{key}"


@dataclass
class _Job:
    catalog: Catalog
    entry: Entry
    message: Message
    plural: bool
    refresh: bool


def fill(
    paths: Sequence[Path],
    spec: TranslatorSpec,
    *,
    fmt: str | FormatOf = "rst",
    default_role: str = "",
    refresh: bool = False,
    translated: bool = False,
    cache_dir: Path | None = None,
    glossary: Glossary | None = None,
    lazy: LazyTranslator | None = None,
    write: Callable[[Path, str], bool] | None = None,
    variant: str | None = None,
) -> Summary:
    """Fill the catalogs under ``paths``; returns what happened (files are written in place).

    ``translated`` writes the new entries as translations instead of ``#, fuzzy`` drafts;
    ``default_role``: Sphinx's, for reST written back as MyST (``rst-in-myst``). A catalog for
    a Traditional variant (``Language: zh_TW`` or a ``zh_TW`` folder, as Sphinx lays them out)
    is filled with the Simplified translation converted (``pipeline.variants``); ``variant``
    names the variant of every catalog instead."""
    from ..review.store import write_if_changed

    files = find_po_files(paths)
    summary = Summary(files=len(files))
    catalogs = [_read_catalog(path, root) for path, root in files.items()]  # every file checked before any work
    jobs: list[_Job] = []
    for path, _text, catalog in catalogs:
        jobs.extend(_jobs(path, catalog, summary, fmt, refresh, default_role))
    chosen = {catalog.path: catalog_variant(catalog, variant) for _path, _text, catalog in catalogs}
    requests: dict[Variant | None, Requests] = {}
    for job in jobs:
        wanted = requests.setdefault(chosen[job.catalog.path], Requests())
        for text, droppable in zip(job.message.texts, job.message.droppable):
            wanted.add(text, droppable)
    summary.cache_dir = cache_dir or default_cache_dir(paths)
    hits = _translate(requests, spec, summary.cache_dir, glossary, lazy or LazyTranslator())
    edits: dict[str, list[Edit]] = {}
    for job in jobs:
        edit = _edit(job, hits[chosen[job.catalog.path]], summary, translated)
        if edit is not None:
            edits.setdefault(job.catalog.path, []).append(edit)
    writer = write or write_if_changed
    for path, text, catalog in catalogs:
        todo = edits.get(catalog.path)
        if todo:
            _write_catalog(path, text, catalog, todo, summary, writer)
    return summary


def _read_catalog(path: Path, root: Path) -> tuple[Path, str, Catalog]:
    """One file read and parsed; refused unless it is a UTF-8 catalog."""
    text = _read(path, root)
    try:
        catalog = parse_catalog(text, display(path))
    except CatalogError as exc:
        raise FillError(str(exc)) from None
    charset = re.search(r"charset=([^\s;]+)", catalog.header_value("Content-Type") or "")
    if charset and charset.group(1).lower().replace("_", "-") not in ("utf-8", "utf8", "charset"):
        name = _charset_name(charset.group(1))
        raise FillError(f"{display(path)}:1: declares charset {name}; only UTF-8 catalogs are supported")
    return path, text, catalog


def _jobs(
    path: Path, catalog: Catalog, summary: Summary, fmt: str | FormatOf, refresh: bool, default_role: str
) -> list[_Job]:
    """The entries of one catalog to translate, each counted in ``summary`` (kept ones by why)."""
    from .rst import referenced_names

    nplurals = catalog.nplurals()
    formats = {e.msgid: fmt(path, e.msgid) if callable(fmt) else (fmt, {}) for e in catalog.entries if not e.is_header}
    keep_names = referenced_names(m for m, (f, _refs) in formats.items() if f in ("rst", RST_IN_MYST))
    jobs: list[_Job] = []
    for entry in catalog.entries:
        if entry.is_header or entry.obsolete:
            continue
        summary.entries += 1
        counts = summary.page(catalog.path)
        counts.segments += 1
        if entry.translated and _kept(catalog, entry, summary, counts, refresh):
            continue
        plural = entry.msgid_plural is not None
        if plural and nplurals != 1:
            _left_untranslated(counts)
            reason = f"plural entry with nplurals={nplurals}, not filled (translate by hand)"
            where = f"{display(path)}:{entry.msgid_line + 1}"
            summary.skipped.append(Problem(where, entry.msgid, reason, catalog.path, entry.msgid_line))
            continue
        source = entry.msgid_plural if plural and entry.msgid_plural is not None else entry.msgid
        fmt_of, references = formats[entry.msgid]
        message = protect(source, fmt_of, keep_names, default_role, references)
        jobs.append(_Job(catalog, entry, message, plural, entry.translated))
    return jobs


def _kept(catalog: Catalog, entry: Entry, summary: Summary, counts: PageCounts, refresh: bool) -> bool:
    """Whether a translated entry stays as it is (counted by why): a person's always, our own
    unless ``refresh`` asks to translate it again."""
    if not entry.is_untouched_machine():  # a person's: reviewed, or a draft of theirs
        if entry.fuzzy:
            summary.fuzzy_kept += 1
            counts.stale_reviews += _changed_source(catalog, entry)
        else:
            summary.reviewed += 1
            counts.reviewed += 1
        return True
    if refresh:
        return False
    if entry.fuzzy:
        summary.already += 1
    else:
        summary.already_translated += 1
    return True


def _edit(job: _Job, hits: Mapping[str, Hit], summary: Summary, translated: bool) -> Edit | None:
    """The edit that writes one job's translation, counted in ``summary``; None when it failed
    validation or a refresh found the text already stored as it would be written."""
    where = f"{job.catalog.path}:{job.entry.msgid_line + 1}"
    outcome = resolve(job.message, hits)
    restored = outcome.msgstr
    counts = summary.page(job.catalog.path)
    if restored is None:
        problem = Problem(where, job.entry.msgid, outcome.reason, job.catalog.path, job.entry.msgid_line)
        summary.failed.append(problem)
        _left_untranslated(counts)
        return None
    _count_filled(counts, [hits[t] for t in job.message.texts])
    if outcome.fallback:
        summary.fallbacks += 1
    if outcome.partly_english:
        reason = "partly kept in English (the model's translations broke its markup)"
        summary.english.append(Problem(where, job.entry.msgid, reason, job.catalog.path, job.entry.msgid_line))
    if job.refresh and restored == job.entry.msgstr_text() and job.entry.stored_as(not translated):
        if translated:
            summary.already_translated += 1
        else:
            summary.already += 1
        return None
    summary.filled += 1
    summary.refreshed += int(job.refresh)
    return Edit(job.entry, restored, job.plural, not translated)


def _write_catalog(
    path: Path, text: str, catalog: Catalog, todo: list[Edit], summary: Summary, writer: Callable[[Path, str], bool]
) -> None:
    """One catalog's edits made, checked by reading them back, and written; its problems then
    point at their lines in the file as written."""
    new_text, moved = apply_edits_mapped(catalog, todo)
    for problem in summary.skipped + summary.failed:
        if problem.path == catalog.path:
            problem.where = f"{catalog.path}:{moved[problem.line] + 1}"
    try:
        check_edits(text, new_text, todo, catalog.path)
    except CatalogError as exc:
        raise FillError(str(exc)) from None
    try:
        if writer(path, new_text):
            summary.files_changed += 1
    except OSError as exc:
        raise FillError(f"{display(path)}: cannot write: {exc.strerror or exc}") from None


@dataclass
class Resolved:
    """One message's translation as it will be written, or why there is none."""

    msgstr: str | None
    reason: str = ""  # why msgstr is None
    fallback: bool = False  # the fallback ladder was needed
    partly_english: bool = False  # some of its texts were kept in English by the ladder
    english: bool = False  # nothing translated: every text is English (no model, or the ladder gave up)


def resolve(message: Message, hits: Mapping[str, Hit]) -> Resolved:
    """The msgstr of ``message`` from the pipeline's ``hits`` (one per placeholder text): what
    ``po fill`` writes and the Sphinx extension hands to Sphinx, checked the same way."""
    results = [hits[t] for t in message.texts]
    if any(h.origin is Origin.ENGLISH for h in results):
        return Resolved(None, "no translation (the model is unavailable)", english=True)
    if any(h.fallback == "english" and h.text == t for h, t in zip(results, message.texts) if has_words(t)):
        return Resolved(None, "the translation lost or broke a protected part", english=True)
    restored, problems = message.restore([h.text for h in results])
    if restored is None:
        return Resolved(None, "; ".join(problems), english=True)
    return Resolved(
        restored,
        fallback=any(h.fallback for h in results),
        partly_english=any(h.fallback == "english" for h in results),
    )


def _charset_name(name: str) -> str:
    """A charset name as it is when it looks like one (``ISO-8859-1``), else a short escaped excerpt."""
    return name if re.fullmatch(r"[A-Za-z0-9_.:-]{1,40}", name) else excerpt(name)


def _changed_source(catalog: Catalog, entry: Entry) -> bool:
    """A fuzzy entry with the old source as ``#| msgid`` (msgmerge's, or ``review sync``'s): a
    translation whose English changed since it was written."""
    return any(catalog.lines[n].startswith("#| msgid") for n in range(entry.start, entry.end))


def _left_untranslated(counts: PageCounts) -> None:
    """An entry that stays empty (the reader sees the English msgid): strict counts it."""
    counts.untranslated += 1
    counts.left_behind += 1


def _count_filled(counts: PageCounts, results: Sequence[Hit]) -> None:
    """A filled entry: translated now if the model wrote any of its texts, else from the cache;
    by its worst ladder step (partly English counts for strict, as ``--strict`` does)."""
    if any(h.origin is Origin.MODEL for h in results):
        counts.translated += 1
    else:
        counts.cached += 1
    steps = [h.fallback for h in results if h.fallback]
    worst = "english" if "english" in steps else "runs" if "runs" in steps else steps[0] if steps else None
    counts.count_machine(worst)
    counts.left_behind += worst == "english"


def _read(path: Path, root: Path) -> str:
    try:
        text = read_untrusted_text(path, root, hint="; only UTF-8 catalogs are supported")
    except UntrustedFileError as exc:
        raise FillError(str(exc)) from None
    if text is None:
        raise FillError(f"{display(path)}: no such file")
    return text


def catalog_variant(catalog: Catalog, forced: str | None = None) -> Variant | None:
    """The Chinese variant a catalog is for: ``forced`` (``--variant``), else its ``Language``
    header, else a locale folder on its path (Sphinx's ``locales/zh_TW/LC_MESSAGES``); None for
    Simplified (``zh_CN``, ``zh``) and anything else."""
    if forced is not None:
        return next(iter(parse_variants([forced])), None)
    names = [catalog.header_value("Language") or "", *reversed(Path(catalog.path).parts)]
    for name in names:
        code = traditional_code(name)
        if code is not None:
            return parse_variants([code])[0]
    return None


def _translate(
    requests: Mapping[Variant | None, Requests], spec: TranslatorSpec, cache_dir: Path, glossary: Glossary | None,
    lazy: LazyTranslator,
) -> dict[Variant | None, dict[str, Hit]]:
    """Placeholder texts -> validated translations, through the one pipeline (per variant:
    the Simplified pipeline's text converted, ``build_variant_pipeline``)."""
    machine = MachineCache(cache_dir)
    try:
        site = SiteInputs(cache=machine, glossary=glossary)
        base = build_pipeline(spec, site, lazy=lazy, progress=progress_for(None))
        return {
            variant: (base if variant is None else build_variant_pipeline(base, variant)).translate(wanted)
            for variant, wanted in requests.items()
        }
    except TranslationFailed as exc:  # finished chunks stay cached
        raise FillError(f"{exc}; no PO file was changed") from None
    finally:
        machine.close()
