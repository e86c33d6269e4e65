"""Machine translation inside ``sphinx-build -D language=zh_CN``: Sphinx's own i18n does the splicing.

Sphinx's ``Locale`` transform (priority 20) reads each document's catalogs through
``sphinx.locale.init``, which starts from ``sphinx.locale.translators[("general", domain)]`` and
adds the ``.mo`` files of ``locale_dirs`` as fallbacks. :class:`MachineTranslations` runs just
before it (priority 19): it extracts the document's messages the way Sphinx does, leaves every
message a reviewed catalog translates alone, translates the rest through the one pipeline
(``pofill``'s reST protection, cache, glossary, fallback ladder, validation), drops those the
:mod:`.guard` refuses, and puts the rest there as the first catalog of the chain. It holds only
messages the reviewed catalogs lack, so a reviewed translation always wins; the build works with
no catalog at all. :class:`RestoreTranslators` (priority 21) puts the table back.

What each document got is kept on the environment (pickled, merged from ``-j`` workers), so the
notice, the summary and ``zh_translate_strict`` see unchanged documents too.
"""

from __future__ import annotations

import gettext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.errors import SphinxError
from sphinx.locale import translators
from sphinx.transforms import SphinxTransform
from sphinx.util import logging
from sphinx.util.i18n import docname_to_domain
from sphinx.util.nodes import IMAGE_TYPE_NODES, LITERAL_TYPE_NODES, extract_messages

from ..errors import ZhTranslateError
from ..notice import banner_html, model_label
from ..pipeline.cache import Hit
from ..pipeline.origin import Origin
from ..pipeline.pages import strict_failure
from ..pipeline.service import Requests
from ..pofill.fill import resolve
from ..pofill.formats import RST_IN_MYST, Message, protect
from ..pofill.rst import referenced_names
from ..segment import has_words, strip_tags
from . import guard, ids
from .catalogs import merged, reviewed_sources
from .config import Settings, is_chinese, settings_of
from .extras import translate_extras
from .reviewed import check as check_reviewed
from .runtime import runtime_for
from .sources import Sources

logger = logging.getLogger(__name__)

ATTR = "zh_translate_docs"  # the environment attribute: docname -> DocRecord
_NAMESPACE = "general"  # the namespace sphinx.transforms.i18n.Locale reads catalogs under


class ZhTranslateBuildError(SphinxError, ZhTranslateError):
    """A build the extension refuses to finish (Sphinx prints it as one line, no traceback);
    a SphinxError for Sphinx, and one of the package's errors for everyone else."""

    category = "zh-translate error"


@dataclass
class DocRecord:
    """What one document's messages got (kept on the pickled environment)."""

    messages: int = 0  # translatable messages with words (node occurrences)
    reviewed: int = 0  # from a reviewed catalog
    machine: int = 0  # machine-translated
    english: int = 0  # kept English: validation, the ladder or the guard refused the translation
    rejected: int = 0  # reviewed entries ignored: they change markup (see :mod:`.reviewed`)
    untranslated: int = 0  # kept English because the model could not be loaded
    translated_now: int = 0  # distinct texts the model translated while reading this document
    places: list[str] = field(default_factory=list)  # "doc:line: why" of each English message
    unavailable: str = ""  # why the model could not be loaded


def records(env: Any) -> dict[str, DocRecord]:
    found = getattr(env, ATTR, None)
    if found is None:
        found = {}
        setattr(env, ATTR, found)
    return found


def _docname(env: Any) -> str:
    current = getattr(env, "current_document", None)
    return str(current.docname if current is not None else env.docname)


def active(transform: SphinxTransform) -> bool:
    """Only Chinese builds translate, and never the gettext builder (it extracts the English)."""
    from sphinx.builders.gettext import MessageCatalogBuilder

    if not is_chinese(transform.config.language):
        return False
    builder = getattr(transform.env, "_builder_cls", None)
    if builder is None:
        builder = type(transform.app.builder)
    return not issubclass(builder, MessageCatalogBuilder)


_SETTINGS: dict[tuple[object, ...], Settings] = {}


def settings(config: Any, srcdir: Path) -> Settings:
    """The checked settings (checked at ``config-inited``; memoised for every document)."""
    # repr: a value may be a list (zh_translate_providers), which cannot be a key itself
    key = (srcdir, *(repr(config[name]) for name in sorted(config.values) if name.startswith("zh_translate_")))
    if key not in _SETTINGS:
        _SETTINGS[key] = settings_of(config, srcdir)
    return _SETTINGS[key]


class _MachineCatalog(gettext.NullTranslations):
    """The machine translations of one document, in the shape ``Locale`` reads (``_catalog``)."""

    def __init__(self, catalog: dict[str, str]) -> None:
        super().__init__()
        self._catalog = catalog

    def gettext(self, message: str) -> str:  # Sphinx before 7.1 looked messages up this way
        if message in self._catalog:
            return self._catalog[message]
        return super().gettext(message)


def _machine_ok(node: nodes.Element) -> bool:
    """Messages whose text is prose: never code blocks, images (alt text), meta values, a
    directive's references (:func:`_references_only`), a field body of several blocks, or
    document metadata (:func:`_metadata`)."""
    if isinstance(node, (*LITERAL_TYPE_NODES, *IMAGE_TYPE_NODES, nodes.meta, nodes.raw)) or _metadata(node):
        return False
    return not _holds_blocks(node) and not _references_only(node)


def _metadata(node: nodes.Element) -> bool:
    """Inside the document's metadata: its first field list (MyST's front matter, ``orphan:
    true``, or reST's ``:orphan:``), which docutils makes the docinfo and Sphinx then takes
    out of the page into the document's metadata. No reader sees it; it is no message."""
    parent = node.parent
    while parent is not None:
        if isinstance(parent, nodes.docinfo):
            return True
        document = parent.parent
        if isinstance(parent, nodes.field_list) and isinstance(document, nodes.document):
            first = document.first_child_not_matching_class(nodes.PreBibliographic)
            return first is not None and document[first] is parent
        parent = document
    return False


def _holds_blocks(node: nodes.Element) -> bool:
    """An inline message around paragraphs, lists, footnotes: a typed field's body of several
    blocks, which Sphinx's docfields wrap whole as one message. ``Locale`` would put the one
    paragraph its translation parses to in place of them all (the list flattened to text, the
    footnote gone, the paragraphs' own translations never applied); left alone, each of its
    paragraphs is a message of its own and is translated."""
    return isinstance(node, nodes.Inline) and any(isinstance(child, nodes.Body) for child in node.children)


def _references_only(node: nodes.Element) -> bool:
    """A paragraph whose every word is a cross-reference its source text has no markup for (its
    text is its source: the directive made the references): a type option's or field's type
    (``bool``, ``Callable[[Any], Any] | None``). Nothing in it is prose, and Sphinx's re-parse
    of its text, the English too, would make plain words of the references; so it is no message
    (it used to be counted "kept in English")."""
    source = " ".join(node.rawsource.split())
    if not isinstance(node, nodes.paragraph) or source not in ("", " ".join(node.astext().split())):
        return False
    inside = {id(t) for x in node.findall(addnodes.pending_xref) for t in x.findall(nodes.Text)}
    words = (ch.isalpha() for t in node.findall(nodes.Text) if id(t) not in inside for ch in t)
    return bool(inside) and not any(words)


# the catalog table's entry of the document being read as it was before ``Locale``: put back
# afterwards, so neither our catalog nor the reviewed one ``Locale`` stores there outlives the
# document (a later build in the same process, an English one too, would otherwise find it)
_saved: dict[tuple[str, str], object] = {}
_ABSENT = object()


class MachineTranslations(SphinxTransform):
    """Machine translations for the messages no reviewed catalog translates (see the module)."""

    default_priority = 19  # just before sphinx.transforms.i18n.Locale (20)

    def apply(self, **kwargs: Any) -> None:
        if not active(self):
            return
        srcdir = Path(self.env.srcdir)
        config = settings(self.config, srcdir)
        docname = _docname(self.env)
        metadata = self.env.metadata.get(docname, {})
        if "myst_slugs" in metadata:  # see RestoreTranslators
            _slugs[docname] = metadata["myst_slugs"]
        domain = docname_to_domain(docname, self.config.gettext_compact)
        ids.english_contents(self.document)
        if config.glossary is not None:
            self.env.note_dependency(str(config.glossary))  # an edited glossary re-reads the document
        sources = reviewed_sources(srcdir, list(self.config.locale_dirs), self.config.language, domain)
        reviewed = merged(sources)
        rejected = check_reviewed(self, sources, reviewed)  # removed from ``reviewed``
        doc = self._messages(reviewed)
        doc.blocked = set(rejected)
        requests = Requests()
        for message in doc.todo.values():
            for text, droppable in zip(message.texts, message.droppable):
                requests.add(text, droppable)
        if _collecting is not None:  # a pre-read (:func:`prefetch`): only the texts are wanted
            for text, droppable in requests.droppable.items():
                _collecting.add(text, droppable)
            raise _Collected
        record = DocRecord()
        for rejection in rejected.values():
            record.rejected += 1
            record.places.append(rejection.line())
            logger.warning(
                "zh-translate: %s", rejection.message(), location=rejection.where, type="zh-translate", subtype="review"
            )
        runtime = runtime_for(config)
        before = runtime.service.translated
        hits = runtime.translate(requests) if len(requests) else {}
        record.translated_now = runtime.service.translated - before
        _resolve_all(doc, hits, record, runtime.service.unavailable)
        checked: set[str] = set()
        for node, msg in doc.pairs:
            self._count(doc, node, msg, record, checked, docname)
        records(self.env)[docname] = record
        _english_ids[docname] = [(n, found) for n, msg in doc.pairs if msg in doc.machine if (found := ids.english(n))]
        key = (_NAMESPACE, domain)
        _saved[key] = translators.get(key, _ABSENT)
        if doc.machine or doc.blocked:
            # a rejected review's message maps to itself unless machine-translated: Sphinx
            # then keeps the English instead of falling through to the reviewed catalog
            translators[key] = _MachineCatalog({**{m: m for m in doc.blocked}, **doc.machine})

    def _messages(self, reviewed: dict[str, str]) -> _DocMessages:
        """The document's messages, and those of them no reviewed catalog translates, protected."""
        pairs = [(node, msg) for node, msg in extract_messages(self.document) if _machine_ok(node)]
        formats = self._formats(pairs)
        keep = referenced_names(msg for msg, (fmt, _refs) in formats.items() if fmt in ("rst", RST_IN_MYST))
        doc = _DocMessages(pairs, reviewed)
        role = self.config.default_role or ""
        for _node, msg in pairs:
            if msg not in reviewed and msg not in doc.todo:
                fmt, refs = formats[msg]
                doc.todo[msg] = protect(msg, fmt, keep, default_role=role, references=refs)
        # messages without words (":ref:`genindex`") are translated too, as ``po fill`` does, so
        # that ``sphinx sync`` finds every entry in the cache; they are not counted
        doc.wordless = {msg for msg, message in doc.todo.items() if not any(has_words(t) for t in message.texts)}
        # words but no Latin letter: a label Sphinx wrote in Chinese already ("参数", "返回类型")
        # or text in another script; the English->Chinese model has nothing to do with it
        for msg in [m for m, message in doc.todo.items() if m not in doc.wordless and not _latin(message)]:
            del doc.todo[msg]
        return doc

    def _formats(self, pairs: list[tuple[nodes.Element, str]]) -> dict[str, tuple[str, dict[str, str]]]:
        """Each message's format and, for MyST, its file's link reference definitions (see
        :mod:`.sources`; a message met twice: its first node's)."""
        sources = Sources(self.config, getattr(self.env, "_registry", None) or self.env.app.registry)
        document = str(self.document["source"])
        doc_format = sources.document(document)
        formats: dict[str, tuple[str, dict[str, str]]] = {}
        for node, msg in pairs:
            if msg not in formats:
                source = str(node.source or document)
                fmt = sources.message(doc_format, source, node.line)
                myst_paragraph = fmt == "myst" and not isinstance(node, nodes.title)
                formats[msg] = fmt, sources.references(source, node.line) if myst_paragraph else {}
        return formats

    def _count(
        self, doc: _DocMessages, node: nodes.Element, msg: str, record: DocRecord, checked: set[str], docname: str
    ) -> None:
        """One occurrence of a message counted in the document's record (the guard checks each
        machine translation once, at its first occurrence); why it stays English is logged."""
        if msg in doc.reviewed:
            record.messages += 1
            record.reviewed += 1
            return
        if msg not in doc.todo or msg in doc.wordless:
            return
        record.messages += 1
        if msg in doc.machine and msg not in checked and not isinstance(node, addnodes.translatable):
            checked.add(msg)
            self._guard(doc, node, msg)
        if msg in doc.machine:
            record.machine += 1
        elif doc.why.get(msg) == "":
            record.untranslated += 1
        else:
            record.english += 1
            record.places.append(f"{docname}:{node.line or 0}: {doc.why[msg]}")
            logger.info("%s:%s: zh-translate: %s", docname, node.line or 0, doc.why[msg])

    def _guard(self, doc: _DocMessages, node: nodes.Element, msg: str) -> None:
        """A machine translation Sphinx's re-parse would lose part of is dropped (see :mod:`.guard`)."""
        reason = guard.lost(node, guard.published(self, doc.machine[msg], node))
        if reason and guard.lost(node, guard.published(self, msg, node)):
            # the English message itself does not survive Sphinx's re-parse (a type field's
            # xref the directive made, a reST docstring in a MyST page): no translation
            # can, a reviewed one neither; kept English without a warning
            del doc.machine[msg]
            doc.why[msg] = f"kept in English: Sphinx cannot splice any translation of it ({reason})"
        elif reason:
            del doc.machine[msg]
            doc.why[msg] = f"kept in English by the message guard: the translation {reason}"
            logger.warning("zh-translate: %s", doc.why[msg], location=node, type="zh-translate", subtype="guard")


def _latin(message: Message) -> bool:
    """Whether a Latin letter is left in the message's texts once the placeholders are out."""
    return any(("a" <= ch <= "z") or ("A" <= ch <= "Z") for t in message.texts for ch in strip_tags(t))


@dataclass
class _DocMessages:
    """One document's messages on their way through :meth:`MachineTranslations.apply`."""

    pairs: list[tuple[nodes.Element, str]]  # (node, message) as Sphinx's Locale will see them
    reviewed: dict[str, str]  # what the reviewed catalogs translate
    todo: dict[str, Message] = field(default_factory=dict)  # the rest, protected, to translate
    wordless: set[str] = field(default_factory=set)  # of todo: no words, translated but not counted
    machine: dict[str, str] = field(default_factory=dict)  # msg -> machine translation to hand Sphinx
    why: dict[str, str] = field(default_factory=dict)  # msg -> why it stays English ("": no model)
    blocked: set[str] = field(default_factory=set)  # rejected reviewed entries: never Sphinx's to use


def _resolve_all(doc: _DocMessages, hits: dict[str, Hit], record: DocRecord, unavailable: str | None) -> None:
    """Each message's translation checked as ``po fill`` checks it: kept, or why not."""
    for msg, message in doc.todo.items():
        outcome = resolve(message, hits)
        if outcome.msgstr is not None:
            doc.machine[msg] = outcome.msgstr
        elif any(hits[t].origin is Origin.ENGLISH for t in message.texts):
            doc.why[msg] = ""  # the model is unavailable: counted, reported once per build
            record.unavailable = unavailable or "the model could not be loaded"
        else:
            doc.why[msg] = outcome.reason


_slugs: dict[str, object] = {}  # docname -> MyST's heading slugs of the English parse
_english_ids: dict[str, list[tuple[nodes.Element, list[str]]]] = {}  # docname -> (node, its numbered ids)


class RestoreTranslators(SphinxTransform):
    """Puts back the catalog table entry :class:`MachineTranslations` replaced for ``Locale``,
    and MyST's heading slugs: MyST stores each parse's slugs as the *document's* metadata, so
    parsing a translated heading (the guard, then ``Locale``) replaced the English slugs that
    links from other pages (``page.md#a-heading``) are resolved against. The numbered ids of the
    spliced translations get their English numbers back (:mod:`.ids`)."""

    default_priority = 21

    def apply(self, **kwargs: Any) -> None:
        docname = _docname(self.env)
        for node, before in _english_ids.pop(docname, []):
            ids.restore(self.document, node, before)
        if docname in _slugs:
            self.env.metadata.setdefault(docname, {})["myst_slugs"] = _slugs.pop(docname)
        for key, saved in list(_saved.items()):
            if saved is _ABSENT:
                translators.pop(key, None)
            else:
                translators[key] = saved  # type: ignore[assignment]
        _saved.clear()


# -- events ------------------------------------------------------------------------------------


def purge_doc(app: Any, env: Any, docname: str) -> None:
    records(env).pop(docname, None)


def merge_info(app: Any, env: Any, docnames: set[str], other: Any) -> None:
    """``-j``: the records of the documents a worker process read."""
    theirs = records(other)
    records(env).update({d: theirs[d] for d in docnames if d in theirs})


def outdated(app: Any, env: Any, added: set[str], changed: set[str], removed: set[str]) -> list[str]:
    """Documents read while the model was unavailable are read again (the model may be back)."""
    return [d for d, r in records(env).items() if r.untranslated and d not in removed]


_read_now: set[str] = set()
_prefetched: list[int] = [0]  # texts the model translated in this build's pre-read


class _Collected(Exception):
    """Ends a document's pre-read at :class:`MachineTranslations`: its texts are collected."""


_collecting: Requests | None = None  # set while :func:`prefetch` pre-reads a document


def before_read(app: Any, env: Any, docnames: list[str]) -> None:
    _read_now.clear()
    _read_now.update(docnames)
    _prefetched[0] = 0
    if len(docnames) < 2 or not is_chinese(app.config.language) or app.builder.name == "gettext":
        return
    config = settings(app.config, Path(app.srcdir))
    if config.batch:
        prefetch(app, env, docnames, config)


def prefetch(app: Any, env: Any, docnames: list[str], config: Settings) -> None:
    """Cross-document batching: the model sees the cache misses of every document about to be
    read at once (the service chunks them and the engine buckets them by length), not one
    document's few at a time. Each document is pre-read up to :class:`MachineTranslations`
    (parsed, logging suppressed, then purged again, so the real read starts from what Sphinx
    would have); the real read then finds every translation in the cache. The pre-read stops at
    the first document with messages and no miss: a warm cache needs no batch, and a cached
    rebuild parses one document twice, not all of them."""
    global _collecting
    runtime = runtime_for(config)
    pending = Requests()
    read: list[str] = []
    try:
        with logging.suppress_logging():
            for docname in docnames:
                _collecting = found = Requests()
                read.append(docname)
                try:
                    app.builder.read_doc(docname)
                except _Collected:
                    pass
                except Exception:  # the real read reports what is wrong with the document
                    continue
                finally:
                    _collecting = None
                    _reset_document(env)
                if not len(found):
                    continue
                hits = runtime.service.lookup(found)
                misses = [t for t in found if t not in hits]
                for text in misses:
                    pending.add(text, found.droppable[text])
                if not pending:
                    break
    finally:
        _collecting = None
        for docname in read:
            app.events.emit("env-purge-doc", env, docname)
            env.clear_doc(docname)
    if len(pending):
        before = runtime.service.translated
        runtime.translate(pending)
        _prefetched[0] = runtime.service.translated - before


def _reset_document(env: Any) -> None:
    """What Sphinx resets after reading a document (a pre-read ends before it does)."""
    current = getattr(env, "current_document", None)
    if current is not None:
        env.current_document = type(current)()
    else:  # Sphinx before 8.2
        env.temp_data.clear()
    env.ref_context.clear()


def env_updated(app: Any, env: Any) -> None:
    """One summary line; then refuse the build when English is left behind and that is not allowed."""
    if not is_chinese(app.config.language) or app.builder.name == "gettext":
        return
    config = settings(app.config, Path(app.srcdir))
    docs = records(env)
    total = sum(r.messages for r in docs.values())
    reviewed = sum(r.reviewed for r in docs.values())
    machine = sum(r.machine for r in docs.values())
    english = sum(r.english for r in docs.values())
    untranslated = sum(r.untranslated for r in docs.values())
    rejected = sum(getattr(r, "rejected", 0) for r in docs.values())  # a record pickled before the count
    now = _prefetched[0] + sum(docs[d].translated_now for d in _read_now if d in docs)
    logger.info(
        "zh-translate: %d messages in %d documents: %d reviewed, %d machine-translated "
        "(%d texts translated by the model in this build), %d kept in English%s%s",
        total,
        len(docs),
        reviewed,
        machine,
        now,
        english,
        f", {untranslated} untranslated (no model)" if untranslated else "",
        f", {rejected} reviewed entries rejected (they change markup)" if rejected else "",
    )
    if untranslated:
        reason = next(r.unavailable for r in docs.values() if r.unavailable)
        line = (
            f"{untranslated} message(s) in {sum(1 for r in docs.values() if r.untranslated)} document(s) have no "
            f"reviewed or cached translation and the model cannot be loaded: {reason}"
        )
        if not config.allow_untranslated:
            raise ZhTranslateBuildError(line + ". Set zh_translate_allow_untranslated = True to build them in English")
        logger.warning("zh-translate: %s; they are built in English", line, type="zh-translate", subtype="model")
    if config.strict and (english or untranslated or rejected):
        for record in docs.values():
            for place in record.places:
                logger.info("zh-translate: english: %s", place)
        raise ZhTranslateBuildError(strict_failure(english + untranslated + rejected))


def page_context(app: Any, pagename: str, templatename: str, context: dict[str, Any], doctree: Any) -> None:
    """The machine-translation notice at the top of each translated page's body (added after the
    search index read the doctree, so the notice's words do not match every page); and the
    English other extensions write into the page (:mod:`.extras`)."""
    if not is_chinese(app.config.language):
        return
    config = settings(app.config, Path(app.srcdir))
    translate_extras(app, pagename, context, config)
    if doctree is None or "body" not in context:
        return
    record = records(app.env).get(pagename)
    if record is None or not record.messages or config.banner is False:
        return
    notice = banner_html(
        config.banner,
        segments=record.messages,
        reviewed=record.reviewed,
        model=model_label(config.backend, config.model),
        translated=bool(record.machine or record.reviewed),
    )
    context["body"] = notice + context["body"]
