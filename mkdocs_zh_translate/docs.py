"""``mkdocs-zh-translate docs``: the site's translation as files, for stacks that build from files.

Zensical runs no third-party plugins and mkdocs-static-i18n / zensical-i18n build each language
from its own Markdown files, so for them the Chinese site is a docs tree: a copy of ``docs_dir``
plus every page's translation as ``page.zh.md`` beside ``page.md`` (``suffix`` layout, the
default of both plugins) or ``en/page.md`` + ``zh/page.md`` (``folder`` layout), and a YAML
snippet with the language's strings (site name, nav and admonition titles) for their config.
Each translated page starts with the build's machine-translation notice (:mod:`.notice`); a
page the plugin excludes is written as the English page under the build's "not translated"
notice, so both i18n plugins show the same thing (static-i18n's own fallback has no notice).
With ``config_out`` a ready-to-build config is written too: it inherits the user's config
(``INHERIT``, which MkDocs and Zensical both read) and sets ``docs_dir`` and the plugins.

This module only shapes and writes files. The pages, the site's strings and the pipeline
(cache, reviewed PO, glossary, page guard) come from :mod:`.docs_source`, which configures the
pipeline exactly as the plugin does, so the files hold what the plugin's zh build would show.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import types
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import yaml

from .errors import ZhTranslateError
from .logs import PREFIX
from .notice import banner_html
from .owned import Owned, PathError, atomic_write, check_output, copy_if_changed, write_if_changed
from .pipeline.inputs import project_inputs
from .pipeline.lazy import TranslationFailed
from .pipeline.pages import PageJob, PageResult, SiteTranslator, Stats, strict_failure
from .plaintext import for_template
from .segment import SegmentError, untitled_admonitions

Layout = Literal["suffix", "folder"]
LAYOUTS: tuple[Layout, ...] = ("suffix", "folder")

_FRONT_KEY = re.compile(r"^(title|description)([ \t]*:[ \t]*)(.*)$", re.MULTILINE)


class DocsError(ZhTranslateError):
    """Bad input for ``docs``: reported as one line, exit code 2."""


@dataclass
class DocsPage:
    """One English page: ``body`` is what MkDocs hands the plugin (front matter removed, snippets
    included: the translated file then holds the included text, translated)."""

    src_uri: str
    label: str  # the path shown in messages
    front_matter: str  # the raw front matter block, delimiters included ("" when none)
    body: str
    meta: dict[str, str] = field(default_factory=dict)  # title / description to translate
    warnings: list[str] = field(default_factory=list)  # found while reading (a snippet not included)
    translate: bool = True  # False: excluded by the plugin (written in English, "not translated")

    @property
    def line_offset(self) -> int:
        return self.front_matter.count("\n")


@dataclass
class DocsSource:
    """Everything ``docs`` writes from, gathered by :mod:`.docs_source` from the config."""

    docs_dir: Path
    language: str  # the locale and URL prefix of the translation ("zh")
    default_locale: str  # the English pages' locale ("en")
    files: list[str]  # every file under docs_dir to copy, POSIX paths
    pages: list[DocsPage]  # the pages to translate (excludes and existing translations left out)
    translator: SiteTranslator
    site_strings: list[str] = field(default_factory=list)  # nav titles, site_name, description
    nav_titles: list[str] = field(default_factory=list)
    site_name: str = ""
    site_description: str | None = None
    languages: list[dict[str, Any]] = field(default_factory=list)  # static-i18n's, if configured
    overrides: dict[str, Any] = field(default_factory=dict)  # the language's own settings
    copyright: str | None = None  # plain-text copyright (translated)
    state_dir: Path | None = None  # where the list of files written last time is kept (cache dir)
    review_dir: Path | None = None  # the PO files and glossary: never overwritten by an output
    config_file: Path | None = None  # never overwritten by an output
    banner: object = True  # the plugin's ``banner`` option (True, False or a string)
    model_label: str = "model"  # the model's name as the notice shows it
    plugins: Any = None  # the config file's own ``plugins`` value as written (None: not set)
    # The language's ``theme`` settings from the translated strings (palette toggle names), as
    # the plugin's zh build sets them: one source (``plugin.uistrings``) for both.
    zh_theme: Callable[[dict[str, str]], dict[str, Any]] = field(default=lambda strings: {})
    # The config's ``markdown_extensions`` as written, with the folders that extensions read
    # relative to the working directory made absolute (:func:`rebased_extensions`); None when
    # no extension reads one. Written into ``--config-out``.
    markdown_extensions: list[Any] | None = None
    # the notices' Chinese into a variant's (``--variant zh-TW``: pipeline.variants.Converter)
    convert: Callable[[str], str] = str


@dataclass
class DocsReport:
    """What one run did: files written / left alone, the pipeline's statistics, messages."""

    written: list[str] = field(default_factory=list)
    unchanged: int = 0
    removed: list[str] = field(default_factory=list)  # written by an earlier run, gone from the source
    translated_pages: int = 0
    stats: Stats | None = None
    warnings: list[str] = field(default_factory=list)
    english: list[str] = field(default_factory=list)  # sentences the ladder left in English
    fallbacks: list[str] = field(default_factory=list)
    snippet: str = ""
    config: str = ""  # the ready-to-build config (with ``config_out``)


def admonition_types(markdown: str) -> set[str]:
    """Admonition types used without an explicit title (their title is the type's name), as the
    segmenter recognises them. A page it cannot segment has none here: the pipeline reports it."""
    try:
        return untitled_admonitions(markdown, front_matter=False)
    except SegmentError:
        return set()


def translated_path(src_uri: str, language: str, layout: Layout, default_locale: str) -> tuple[str, str]:
    """(where the English file goes, where its translation goes) in the output tree."""
    if layout == "folder":
        return f"{default_locale}/{src_uri}", f"{language}/{src_uri}"
    stem, dot, ext = src_uri.rpartition(".")
    return src_uri, f"{stem}.{language}.{ext}" if dot else f"{src_uri}.{language}"


def translate_front_matter(front_matter: str, strings: dict[str, str]) -> str:
    """The front matter with its one-line ``title`` / ``description`` values translated,
    everything else byte for byte (JSON strings are valid YAML double-quoted scalars)."""

    def replace(match: re.Match[str]) -> str:
        raw = match.group(3).strip()
        try:
            value = yaml.safe_load(raw) if raw else None
        except yaml.YAMLError:
            return match.group(0)
        if not isinstance(value, str) or value not in strings or strings[value] == value:
            return match.group(0)
        text = for_template(strings[value])  # themes print page.title / meta unescaped
        return f"{match.group(1)}{match.group(2)}{json.dumps(text, ensure_ascii=False)}"

    return _FRONT_KEY.sub(replace, front_matter)


def snippet(source: DocsSource, strings: dict[str, str], admonitions: dict[str, str], layout: Layout) -> str:
    """The i18n plugin block (mkdocs-static-i18n 1.3 and zensical-i18n 0.3 read the same keys)
    with the site's own languages, if any, and the translation's strings.

    Written by ``yaml.safe_dump`` (quotes, newlines and YAML syntax in a translation stay inside
    their scalar), and every translated string is escaped for the templates the i18n plugins
    hand it to unescaped, as the plugin does (:func:`~.plaintext.for_template`)."""
    zh: dict[str, Any] = {"locale": source.language, "name": "中文"}
    if source.site_name:
        zh["site_name"] = for_template(strings.get(source.site_name, source.site_name))
    if source.site_description:
        zh["site_description"] = for_template(strings.get(source.site_description, source.site_description))
    if source.copyright:
        zh["copyright"] = for_template(strings.get(source.copyright, source.copyright))
    nav = {t: for_template(strings[t]) for t in source.nav_titles if strings.get(t, t) != t}
    if nav:
        zh["nav_translations"] = nav
    if admonitions:
        zh["admonition_translations"] = admonitions
    theme = source.zh_theme(strings)
    if theme:  # the palette toggles' names, as the build sets them (the user's overrides win)
        zh["theme"] = theme
    zh.update(source.overrides)
    languages = [dict(lang) for lang in source.languages if lang.get("locale") != source.language]
    if not languages:
        languages = [{"locale": source.default_locale, "name": "English", "default": True}]
    block = {"plugins": [{"i18n": {"docs_structure": layout, "languages": [*languages, zh]}}]}
    head = (
        "# Written by `mkdocs-zh-translate docs`: the Chinese language for mkdocs-static-i18n 1.3\n"
        "# and zensical-i18n 0.3. Merge this plugin entry into the config that builds the tree.\n"
    )
    return head + yaml.safe_dump(block, allow_unicode=True, sort_keys=False, width=100)


def _write(path: Path, data: bytes, report: DocsReport, name: str) -> None:
    """Write ``data`` atomically unless the file already holds exactly it (keeps mtimes, so
    watchers and incremental builds downstream see only real changes)."""
    if write_if_changed(path, data):
        report.written.append(name)
    else:
        report.unchanged += 1


def _copy(src: Path, path: Path, report: DocsReport, name: str) -> None:
    if copy_if_changed(src, path):
        report.written.append(name)
    else:
        report.unchanged += 1


def _manifest(state_dir: Path, out: Path) -> Path:
    digest = hashlib.sha256(str(out).encode("utf-8")).hexdigest()[:16]
    return state_dir / f"docs-output-{digest}.json"


def _remove_stale(out: Path, state_dir: Path | None, names: list[str], report: DocsReport) -> None:
    """Delete the files an earlier run wrote that this run did not (a page deleted or newly
    excluded): only files listed in our own manifest, never anything else in ``out``, never
    through a symbolic link (:class:`~.owned.Owned`)."""
    if state_dir is None:
        return
    manifest = _manifest(state_dir, out)
    try:
        before = json.loads(manifest.read_text(encoding="utf-8")).get("files", [])
    except (OSError, ValueError, AttributeError):
        before = []
    current = set(names)
    listed = {name for name in before if isinstance(name, str) and name not in current}
    ours = Owned(out, lambda rel: rel.as_posix() in listed, "the files an earlier `docs` run wrote")
    for name in sorted(listed):
        path = out / name
        if ours.owns(path) and ours.remove(path):
            report.removed.append(name)
    with contextlib.suppress(PathError):  # else the next run cannot clean up; the tree is complete
        atomic_write(manifest, json.dumps({"out": str(out), "files": sorted(current)}).encode("utf-8"))


def check_out_dir(out: Path, docs_dir: Path, config_file: Path | None = None) -> Path:
    """The output directory, refused where writing it would touch the English docs, the config
    file or a system directory."""
    check_output(out, "--out")
    out, docs = out.resolve(), docs_dir.resolve()
    if out == docs or docs in out.parents or out in docs.parents:
        raise DocsError(f"{out}: the output directory must not contain or be inside docs_dir {docs}")
    if config_file is not None and out in config_file.resolve().parents:
        raise DocsError(f"{out}: the output directory must not contain the config file {config_file}")
    if out.exists() and not out.is_dir():
        raise DocsError(f"{out}: exists and is not a directory")
    return out


@dataclass
class Translation:
    """The translated pages as file contents (``{zh path: text}``) and the language's strings."""

    contents: dict[str, str]
    strings: dict[str, str]  # English string -> Chinese (site name, nav titles, front matter)
    admonitions: dict[str, str]  # admonition type -> zh title (for titles the pages don't write)
    stats: Stats
    warnings: list[str] = field(default_factory=list)
    english: list[str] = field(default_factory=list)
    fallbacks: list[str] = field(default_factory=list)
    counts: dict[str, tuple[int, int]] = field(default_factory=dict)  # zh path -> (segments, reviewed)
    machine: dict[str, int] = field(default_factory=dict)  # zh path -> segments showing machine text
    body_at: dict[str, int] = field(default_factory=dict)  # zh path -> where the body starts (after front matter)


def translate_tree(
    translator: SiteTranslator,
    pages: Sequence[DocsPage],
    site_strings: Sequence[str],
    *,
    language: str,
    layout: Layout = "suffix",
    default_locale: str = "en",
) -> Translation:
    """Every page and string in one pass of the pipeline; pages kept wholly in English get no
    file (the i18n plugins then show the English page with their "not translated" notice).

    Shared by ``docs`` and the plugin beside mkdocs-static-i18n (``coexist``). Raises
    :class:`~.pipeline.lazy.TranslationFailed`."""
    pages = [p for p in pages if p.translate]
    used: set[str] = set()
    for page in pages:
        used |= admonition_types(page.body)
    # The title Python-Markdown shows for an untitled admonition, which the build translates as
    # a segment of the page: the same text through the same pipeline (site.po reviews it here).
    titles = {a: a.capitalize() for a in sorted(used)}
    jobs = [PageJob(p.src_uri, p.label, p.body, p.line_offset) for p in pages]
    strings = list(site_strings) + list(titles.values()) + [v for p in pages for v in p.meta.values()]
    results, translated, stats = translator.translate_pages(jobs, list(dict.fromkeys(strings)))
    done = Translation({}, translated, {}, stats)
    for page in pages:
        done.warnings.extend(page.warnings)
    for result in results.values():
        done.warnings.extend(result.warnings)
        done.english.extend(result.english)
        done.fallbacks.extend(result.fallbacks)
    for page in pages:
        page_result: PageResult | None = results.get(page.src_uri)
        if page_result is None or not page_result.translated:
            continue
        result = page_result
        _, target = translated_path(page.src_uri, language, layout, default_locale)
        front = translate_front_matter(page.front_matter, translated)
        done.contents[target] = front + result.markdown
        done.counts[target] = (result.segments, result.reviewed)
        done.machine[target] = result.machine
        done.body_at[target] = len(front)
    done.admonitions = {a: translated[t] for a, t in titles.items() if translated.get(t, t) != t}
    return done


def write_docs(
    source: DocsSource,
    out: Path,
    *,
    layout: Layout = "suffix",
    snippet_path: Path | None = None,
    config_out: Path | None = None,
    strict: bool = False,
    log: Callable[[str], None] = lambda message: None,
) -> DocsReport:
    """Translate ``source`` through its pipeline and write the tree under ``out``.

    Raises :class:`DocsError` on bad input or, with ``strict``, when English is left behind or
    a review is ignored (:func:`~.pipeline.pages.strict_failure`)."""
    out = check_out_dir(out, source.docs_dir, source.config_file)
    if snippet_path is not None:
        check_output(snippet_path, "--snippet", config=source.config_file, docs_dir=source.docs_dir,
                     kept=project_inputs(source.review_dir, source.state_dir))
    if config_out is not None:
        config_out = check_config_out(config_out, out, source, snippet_path)
    report = DocsReport()
    try:
        done = translate_tree(
            source.translator,
            source.pages,
            source.site_strings,
            language=source.language,
            layout=layout,
            default_locale=source.default_locale,
        )
    except TranslationFailed as exc:
        raise DocsError(str(exc)) from None
    report.stats, report.warnings, report.english, report.fallbacks = (
        done.stats, done.warnings, done.english, done.fallbacks
    )
    if strict and (report.warnings or report.english):
        for message in report.warnings + report.english:
            log(message)
        raise DocsError(strict_failure(len(report.warnings) + len(report.english)))
    for name in source.files:
        target = f"{source.default_locale}/{name}" if layout == "folder" else name
        _copy(source.docs_dir / name, out / target, report, target)
    for target, text in done.contents.items():
        segments, reviewed = done.counts[target]
        notice = source.convert(banner_html(
            source.banner, segments=segments, reviewed=reviewed, model=source.model_label, translated=True,
            machine=bool(done.machine.get(target, 1)),  # as the build's banner: no model named over none of its text
        ))
        _write(out / target, with_notice(text, done.body_at[target], notice).encode("utf-8"), report, target)
        report.translated_pages += 1
    written = list(done.contents)
    untranslated = source.convert(
        banner_html(source.banner, segments=0, reviewed=0, model=source.model_label, translated=False)
    )
    for page in source.pages:
        _, target = translated_path(page.src_uri, source.language, layout, source.default_locale)
        if page.translate or not untranslated or target in done.contents:
            continue
        text = with_notice(page.front_matter + page.body, len(page.front_matter), untranslated)
        _write(out / target, text.encode("utf-8"), report, target)
        written.append(target)
    targets = [f"{source.default_locale}/{n}" if layout == "folder" else n for n in source.files]
    _remove_stale(out, source.state_dir, targets + written, report)
    report.snippet = snippet(source, done.strings, done.admonitions, layout)
    if snippet_path is not None:
        _write(snippet_path, report.snippet.encode("utf-8"), report, str(snippet_path))
    if config_out is not None:
        report.config = build_config(source, config_out, out, report.snippet)
        _write(config_out, report.config.encode("utf-8"), report, str(config_out))
    return report


def with_notice(text: str, body_at: int, notice: str) -> str:
    """``text`` with ``notice`` (an HTML block, escaped) first in its body, after the front
    matter, and a blank line after it so the Markdown below is read as Markdown."""
    return text[:body_at] + notice + "\n" + text[body_at:] if notice else text


def check_config_out(config_out: Path, out: Path, source: DocsSource, snippet_path: Path | None) -> Path:
    """``--config-out``: never an input (config, docs_dir), never inside the output tree (it
    would be published), never the snippet; and beside or above ``--out``: zensical-i18n builds
    only a ``docs_dir`` inside the config's folder."""
    kept = project_inputs(source.review_dir, source.state_dir)
    path = check_output(config_out, "--config-out", config=source.config_file, docs_dir=source.docs_dir,
                        kept=kept).resolve()
    if path == out or out in path.parents:
        raise DocsError(f"--config-out {config_out}: is inside the output directory {out}; write it beside it")
    if snippet_path is not None and path == snippet_path.resolve():
        raise DocsError(f"--config-out {config_out}: is the --snippet file; write them to two files")
    if path.parent not in out.parents:
        raise DocsError(
            f"--config-out {config_out}: the output directory {out} must be inside the config's folder "
            f"{path.parent} (zensical-i18n builds only a docs_dir there)"
        )
    if path.exists() and not path.is_file():
        raise DocsError(f"--config-out {config_out}: exists and is not a file")
    return path


def _plugin_name(entry: Any) -> str | None:
    if isinstance(entry, str):
        return entry
    if isinstance(entry, dict) and len(entry) == 1:
        name = next(iter(entry))
        return name if isinstance(name, str) else None
    return None


# Markdown extensions that read files from folders named relative to the working directory of
# the build, and those options with their defaults: pymdownx.snippets and markdown-include.
PATH_OPTIONS: dict[str, tuple[str, Any]] = {
    "pymdownx.snippets": ("base_path", ["."]),
    "markdown_include.include": ("base_path", "."),
}


def rebased_extensions(raw: Any, cwd: Path) -> list[Any] | None:
    """``markdown_extensions`` as written (a list, or a mapping) with each path option of
    :data:`PATH_OPTIONS`, given or default, made absolute from ``cwd`` (where ``docs`` read the
    included files); None when no listed extension is used.

    The written config is built from another working directory: zensical-i18n runs the build
    in the config's folder, mkdocs from wherever it is called. A relative ``base_path`` would
    then name another folder and the includes would vanish with exit code 0; an absolute one
    names the same folder for both."""
    entries = [{k: v} for k, v in raw.items()] if isinstance(raw, dict) else list(raw) if isinstance(raw, list) else []
    changed = False
    rebased: list[Any] = []
    for entry in entries:
        name = _plugin_name(entry)
        if name in PATH_OPTIONS:
            key, default = PATH_OPTIONS[name]
            given = entry.get(name) if isinstance(entry, dict) else None
            options = dict(given) if isinstance(given, dict) else {}
            value = options.get(key, default)
            folders = value if isinstance(value, list) else [value]
            absolute = [str((cwd / str(v)).resolve()) for v in folders]
            options[key] = absolute if isinstance(value, list) else absolute[0]
            entry, changed = {name: options}, True
        rebased.append(entry)
    return rebased if changed else None


class _ConfigDumper(yaml.SafeDumper):
    """YAML for ``--config-out``: what ``yaml.safe_dump`` writes, plus the ``!!python/name:``
    references MkDocs configs use for functions and classes (``pymdownx.emoji``'s index)."""


def _python_name(dumper: yaml.SafeDumper, value: Any) -> yaml.Node:
    name = f"{value.__module__}.{value.__qualname__}"
    return dumper.represent_scalar(f"tag:yaml.org,2002:python/name:{name}", "")


_ConfigDumper.add_multi_representer(types.FunctionType, _python_name)
_ConfigDumper.add_multi_representer(types.BuiltinFunctionType, _python_name)
_ConfigDumper.add_multi_representer(type, _python_name)


def build_config(source: DocsSource, config_out: Path, out: Path, snippet_text: str) -> str:
    """The config that builds ``out``: ``INHERIT`` the user's config (MkDocs and Zensical both
    resolve it, YAML tags and all), ``docs_dir`` the tree, and the plugins: the user's own
    without ``zh-translate`` (the tree is already translated) and without an ``i18n`` entry,
    then the Chinese language's i18n block. Relative paths in it are relative to its folder."""
    if source.config_file is None:
        raise DocsError("--config-out needs the config file the tree was written from")
    base = config_out.resolve().parent
    raw = source.plugins if source.plugins is not None else ["search"]  # MkDocs' default
    entries = [{k: v} for k, v in raw.items()] if isinstance(raw, dict) else list(raw) if isinstance(raw, list) else []
    plugins: list[Any] = [e for e in entries if _plugin_name(e) not in ("zh-translate", "i18n")]
    block = yaml.safe_load(snippet_text)
    plugins.extend(block["plugins"])
    data: dict[str, Any] = {
        "INHERIT": os.path.relpath(source.config_file.resolve(), base),
        "docs_dir": os.path.relpath(out, base),
        "plugins": plugins,
    }
    if source.markdown_extensions is not None:  # a list: INHERIT replaces it whole
        data["markdown_extensions"] = source.markdown_extensions
    head = (
        f"# Written by `mkdocs-zh-translate docs`: the site of {os.path.basename(source.config_file)} with its\n"
        "# Chinese translation. Build it with `mkdocs build -f THIS` (mkdocs-static-i18n 1.3) or\n"
        "# `zensical-i18n build -f THIS` (zensical-i18n 0.3). Paths here are relative to this folder.\n"
    )
    try:
        return head + yaml.dump(data, Dumper=_ConfigDumper, allow_unicode=True, sort_keys=False, width=100)
    except yaml.YAMLError as exc:  # an option holds an object from a YAML tag
        raise DocsError(
            f"{source.config_file}: the plugins' or extensions' options cannot be written to --config-out "
            f"({exc}); use the --snippet block in a config of your own"
        ) from None


def default_snippet_path(out: Path) -> Path:
    """``<out>.i18n.yml`` beside the output directory: outside the tree, so never published."""
    out = check_output(out, "--out").resolve()
    return out.with_name(out.name + ".i18n.yml")


def summary(report: DocsReport, out: Path, snippet_path: Path | None, config_out: Path | None = None) -> Sequence[str]:
    """The lines ``docs`` prints at the end."""
    lines = []
    if report.stats is not None:
        lines.append(PREFIX + report.stats.summary())
    lines.append(
        f"{PREFIX}{report.translated_pages} translated page(s); {len(report.written)} file(s) written, "
        f"{report.unchanged} unchanged, {len(report.removed)} stale removed, in {os.path.relpath(out)}"
    )
    if snippet_path is not None:
        lines.append(f"{PREFIX}i18n settings for the Chinese language in {os.path.relpath(snippet_path)}")
    if config_out is not None:
        name = os.path.relpath(config_out)
        lines.append(f"{PREFIX}build it: mkdocs build -f {name}  (or: zensical-i18n build -f {name})")
    return lines
