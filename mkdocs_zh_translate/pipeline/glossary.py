"""The glossary: terms never translated (``keep``) and terms with a fixed translation (``terms``).

``translations/zh/glossary.yml``::

    keep: [MkDocs, ONNX Runtime]        # product names stay English, protected like code
    terms:
      cache: 缓存                        # always this Chinese
      plugin: 插件

Before the model sees a segment, each glossary term in its text runs becomes one more atom
placeholder, which the model must carry through like inline code; afterwards the atom becomes
the kept term or its fixed translation (*substitution*). With ``enforce: decoding`` in the file,
a ``terms:`` entry instead stays English in the source and its Chinese is a constraint of the
model's search (``engine/terms.py``): the translation is built around the term. Where that
cannot apply (a translator that cannot constrain, such as the pseudo backend; a term the model's
vocabulary cannot spell; the search ending without it) the sentence takes the substitution path.
The machine-cache key of a segment includes only the glossary entries that occur in it (and the
method, when not the default), so editing the glossary re-translates exactly the segments it
touches.
"""

from __future__ import annotations

import inspect
import json
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import yaml

from ..errors import ReviewError
from ..scored import Scored
from ..segment import TAG_RE, tokenize
from ..termpair import TermTarget
from ..textfile import NotUtf8Error
from ..untrusted import UntrustedFileError, display, excerpt, read_untrusted_text
from .translator import as_translator, bare

GLOSSARY_FILE = "glossary.yml"
#: How ``terms:`` entries are enforced (``enforce:`` in the file), the default first.
ENFORCE_METHODS = ("substitution", "decoding")

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Term:
    english: str
    chinese: str | None  # None: keep the English term as is
    pattern: re.Pattern[str]


@dataclass
class Glossary:
    terms: list[Term] = field(default_factory=list)
    enforce: str = ENFORCE_METHODS[0]

    def __bool__(self) -> bool:
        return bool(self.terms)

    # -- which entries touch a text ---------------------------------------------------------

    def _matches(self, text: str) -> list[tuple[int, int, Term]]:
        """Non-overlapping matches in the text runs of ``text`` (longest term first)."""
        spans: list[tuple[int, int, Term]] = []
        pos = 0
        runs: list[tuple[int, str]] = []
        for kind, value in tokenize(text):
            if kind == "text":
                runs.append((pos, str(value)))
                pos += len(str(value))
            else:
                pos += len({"atom": f"<x{value}/>", "open": f"<g{value}>", "close": f"</g{value}>"}[kind])
        taken: list[tuple[int, int]] = []
        for term in sorted(self.terms, key=lambda t: -len(t.english)):
            for start, run in runs:
                for m in term.pattern.finditer(run):
                    a, b = start + m.start(), start + m.end()
                    if any(a < e and s < b for s, e in taken):
                        continue
                    taken.append((a, b))
                    spans.append((a, b, term))
        return sorted(spans, key=lambda s: s[0])

    def entries_in(self, text: str) -> list[tuple[str, str | None]]:
        return sorted({(t.english, t.chinese) for _a, _b, t in self._matches(text)}, key=lambda e: (e[0], e[1] or ""))

    def cache_source(self, text: str) -> str:
        """The text the machine cache keys this segment by: the segment plus the glossary
        entries that occur in it (the segment alone when none does)."""
        entries = self.entries_in(text) if self.terms else []
        if not entries:
            return text
        method = "" if self.enforce == ENFORCE_METHODS[0] else f"\x00enforce:{self.enforce}"
        return text + "\x00glossary:" + json.dumps(entries, ensure_ascii=False) + method

    # -- protecting terms around a translator ---------------------------------------------------

    def protect(self, text: str, *, forced: bool = False) -> tuple[str, dict[int, str]]:
        """``text`` with each term replaced by a new atom, and atom id -> replacement.
        ``forced``: ``terms:`` entries stay in the text (their Chinese is forced in decoding,
        see :meth:`targets`); only ``keep:`` entries become atoms."""
        matches = [m for m in self._matches(text) if not (forced and m[2].chinese is not None)]
        if not matches:
            return text, {}
        ids = [int(a or b or c) for a, b, c in TAG_RE.findall(text)]
        next_id = max(ids, default=0) + 1
        out: list[str] = []
        pos = 0
        replacements: dict[int, str] = {}
        for a, b, term in matches:
            out.append(text[pos:a])
            out.append(f"<x{next_id}/>")
            replacements[next_id] = term.chinese if term.chinese is not None else text[a:b]
            next_id += 1
            pos = b
        out.append(text[pos:])
        return "".join(out), replacements

    def targets(self, text: str) -> list[str]:
        """The Chinese of each ``terms:`` entry in ``text``, once per occurrence."""
        return [TermTarget(t.chinese, text[a:b]) for a, b, t in self._matches(text) if t.chinese is not None]

    @staticmethod
    def restore(text: str, replacements: dict[int, str]) -> str | None:
        """Put the terms back; None when the translator lost one of them."""
        for aid, value in replacements.items():
            tag = f"<x{aid}/>"
            if text.count(tag) != 1:
                return None
            text = text.replace(tag, value)
        return text


_ANNOUNCED: set[str] = set()


def _announce(message: str) -> None:
    """Log ``message`` at info level the first time only (a wrapper is made per chunk)."""
    if message not in _ANNOUNCED:
        _ANNOUNCED.add(message)
        log.info("%s", message)


def takes_terms(translator: object) -> bool:
    """Whether ``translator.translate_nbest`` takes ``terms=`` (term-constrained decoding)."""
    method = getattr(translator, "translate_nbest", None)
    if method is None:
        return False
    try:
        return "terms" in inspect.signature(method).parameters
    except (TypeError, ValueError):
        return False


class GlossaryTranslator:
    """Wraps a translator so glossary terms pass through it as protected atoms, or, with
    ``enforce: decoding`` and a translator that takes ``terms=``, as decoding constraints."""

    speaks_scored: ClassVar[bool] = True

    def __init__(self, inner: object, glossary: Glossary) -> None:
        self.inner: Any = as_translator(inner)
        self.glossary = glossary
        self.constrains = takes_terms(bare(self.inner))
        self.decoding = glossary.enforce == "decoding" and self.constrains
        if glossary.enforce == "decoding":  # which path applies, said once per process
            name = getattr(inner, "name", type(inner).__name__)
            _announce("glossary terms: constrained decoding (substitution where it cannot apply)" if self.decoding
                      else f"glossary terms: substitution (the {name} translator cannot constrain decoding)")
        if hasattr(self.inner, "translate_nbest"):
            self.translate_nbest = self._translate_nbest

    def translate(self, texts: Sequence[str], contexts: Sequence[str] | None = None) -> list[Scored]:
        """``contexts``: each text's page context, handed on with it (``ladder.translate_segments``)."""
        if self.decoding:
            return [alts[0] for alts in self._translate_nbest(texts, 1, contexts)]
        return self._substitute(texts, contexts)

    def _decode(self, texts: Sequence[str], n: int, contexts: Sequence[str] | None) -> list[list[Scored] | None]:
        """Terms as decoding constraints; None for a text whose output lacks one of its terms
        (or lost a kept term's atom): it takes the substitution path."""
        protected = [self.glossary.protect(t, forced=True) for t in texts]
        targets = [self.glossary.targets(t) for t in texts]
        outputs = self.inner.translate_nbest([p for p, _r in protected], n, terms=targets, **_given(contexts))
        result: list[list[Scored] | None] = []
        for hyps, (_p, reps), wanted in zip(outputs, protected, targets):
            kept = [h for h in (self._restored(h, reps) for h in hyps)
                    if h is not None and all(h.text.count(t) >= wanted.count(t) for t in set(wanted))]
            result.append(kept or None)
        missed = sum(r is None for r, w in zip(result, targets) if w)
        if any(targets):
            log.debug("glossary terms: %d of %d texts by constrained decoding, %d by substitution",
                      sum(bool(w) for w in targets) - missed, sum(bool(w) for w in targets), missed)
        return result

    def _restored(self, out: Scored, reps: Any) -> Scored | None:
        """``out`` with its terms' placeholders replaced (None: the model lost one); the
        model's confidence stays with it."""
        if not reps:
            return out
        restored = self.glossary.restore(out.text, reps)
        return None if restored is None else out.with_text(restored)

    def _substitute(self, texts: Sequence[str], contexts: Sequence[str] | None = None) -> list[Scored]:
        protected = [self.glossary.protect(t) for t in texts]
        outputs: list[Scored] = list(self.inner.translate([p for p, _r in protected], **_given(contexts)))
        retry = []
        for i, (out, (_p, reps)) in enumerate(zip(outputs, protected)):
            restored = self._restored(out, reps)
            if restored is None:
                retry.append(i)
            else:
                outputs[i] = restored
        if retry:  # the model dropped a term's placeholder: translate those without protection
            for i, alts in zip(retry, self._unprotected([texts[i] for i in retry], 1, _at(contexts, retry))):
                outputs[i] = alts[0]
        return outputs

    def _unprotected(self, texts: Sequence[str], n: int, contexts: Sequence[str] | None = None) -> list[list[Scored]]:
        """``texts`` without placeholders for their terms (the model lost one): with the
        ``terms:`` entries' Chinese as decoding constraints where the translator can take
        them, so the term is still there (kept terms: as the model translates them)."""
        if self.constrains:
            log.debug("glossary terms: %d texts lost a term's placeholder; constrained decoding instead", len(texts))
            found = self.inner.translate_nbest(texts, n, terms=[self.glossary.targets(t) for t in texts],
                                               **_given(contexts))
            return [list(alts) for alts in found]
        if n == 1:
            return [[out] for out in self.inner.translate(texts, **_given(contexts))]
        return [list(alts) for alts in self.inner.translate_nbest(texts, n, **_given(contexts))]

    def _translate_nbest(self, texts: Sequence[str], n: int, contexts: Sequence[str] | None = None
                         ) -> list[list[Scored]]:
        if self.decoding:
            decoded = self._decode(texts, n, contexts)
            rest = [i for i, alts in enumerate(decoded) if alts is None]
            if rest:
                left, left_contexts = [texts[i] for i in rest], _at(contexts, rest)
                again = (self._substitute_nbest(left, n, left_contexts) if n > 1
                         else [[t] for t in self._substitute(left, left_contexts)])
                for i, alts in zip(rest, again):
                    decoded[i] = alts
            return [alts or [Scored("", None)] for alts in decoded]
        return self._substitute_nbest(texts, n, contexts)

    def _substitute_nbest(self, texts: Sequence[str], n: int, contexts: Sequence[str] | None = None
                          ) -> list[list[Scored]]:
        protected = [self.glossary.protect(t) for t in texts]
        outputs = self.inner.translate_nbest([p for p, _r in protected], n, **_given(contexts))
        result: list[list[Scored]] = []
        for i, (text, hyps, (_p, reps)) in enumerate(zip(texts, outputs, protected)):
            kept = [r for r in (self._restored(h, reps) for h in hyps) if r is not None]
            if not kept:
                kept = self._unprotected([text], n, _at(contexts, [i]))[0]
            result.append(kept)
        return result


def _given(contexts: Sequence[str] | None) -> dict[str, Any]:
    """``contexts=`` for the wrapped translator when the caller gave contexts (else nothing:
    a translator that takes none is called as it always was)."""
    return {} if contexts is None else {"contexts": list(contexts)}


def _at(contexts: Sequence[str] | None, indices: Sequence[int]) -> list[str] | None:
    """The contexts of the texts at ``indices`` (None when there are none)."""
    return None if contexts is None else [contexts[i] for i in indices]


def _pattern(term: str, *, ignore_case: bool) -> re.Pattern[str]:
    return re.compile(r"(?<![\w-])" + re.escape(term) + r"(?![\w-])", re.IGNORECASE if ignore_case else 0)


def _term_lines(text: str) -> dict[str, int]:
    """1-based line of every scalar in the YAML document (keys and list items), for messages."""
    lines: dict[str, int] = {}
    try:
        root = yaml.compose(text)
    except yaml.YAMLError:
        return lines
    stack = [root] if root is not None else []
    while stack:
        node = stack.pop()
        if isinstance(node, yaml.ScalarNode):
            lines.setdefault(str(node.value), node.start_mark.line + 1)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
        elif isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                stack.extend((key, value))
    return lines


# Every character str.splitlines breaks at: a term is one line (YAML's "\\L", "\\N" escapes
# made terms that wrote PO files no reader could read back).
_LINE_BREAKS = frozenset("\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029")


def _check_terms(path: Path, text: str, values: list[str]) -> None:
    """Glossary files come from contributors like PO files do: a term is plain text on one
    line, never markup, quotes or invisible controls (it reaches page text, site strings, PO
    files and the cache key, which a lone surrogate cannot even be encoded into)."""
    from ..segment import markup_in

    lines: dict[str, int] | None = None
    for value in values:
        problems = markup_in(value)
        if any(ch in _LINE_BREAKS for ch in value):
            problems.insert(0, "spans more than one line")
        if problems:
            lines = _term_lines(text) if lines is None else lines
            raise ReviewError(
                f"{display(path)}:{lines.get(value, 1)}: glossary term {excerpt(value.strip())} {'; '.join(problems)}: "
                "terms must be plain text"
            )


def _yaml_problem(exc: yaml.YAMLError) -> str:
    """PyYAML's reason without the file's text: its messages quote tokens (``found undefined
    alias 'x'``), which are cut to a short escaped excerpt."""
    problem = str(getattr(exc, "problem", None) or "syntax error")
    if not problem.isprintable():
        return "syntax error"
    return re.sub(r"'([^']*)'", lambda m: excerpt(m.group(1)), problem)[:200]


def load_glossary(path: Path, root: Path | None = None) -> Glossary:
    """The glossary at ``path`` (empty when absent); ReviewError for a malformed one. It is
    read like a PO file (:mod:`..untrusted`): inside ``root`` (default: its own directory) with
    no symbolic link on the way, and YAML errors quote at most a short escaped excerpt."""
    try:
        text = read_untrusted_text(path, root)
    except (UntrustedFileError, NotUtf8Error) as exc:
        raise ReviewError(str(exc)) from None
    if text is None:
        return Glossary()
    try:
        data = yaml.safe_load(text) or {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 1
        raise ReviewError(f"{display(path)}:{line}: malformed YAML: {_yaml_problem(exc)}") from None
    if not isinstance(data, dict) or set(data) - {"keep", "terms", "enforce"}:
        raise ReviewError(f"{display(path)}:1: expected a mapping with only 'keep:' (a list), 'terms:' (a mapping) "
                          f"and 'enforce:' ({' or '.join(ENFORCE_METHODS)})")
    enforce = data.get("enforce", ENFORCE_METHODS[0])
    if enforce not in ENFORCE_METHODS:
        line = _term_lines(text).get(str(enforce), 1)
        raise ReviewError(f"{display(path)}:{line}: 'enforce:' must be {' or '.join(ENFORCE_METHODS)}")
    keep, terms = data.get("keep") or [], data.get("terms") or {}
    if not isinstance(keep, list) or not all(isinstance(k, str) and k.strip() for k in keep):
        raise ReviewError(f"{display(path)}: 'keep:' must be a list of terms")
    if not isinstance(terms, dict) or not all(
        isinstance(k, str) and k.strip() and isinstance(v, str) and v.strip() for k, v in terms.items()
    ):
        raise ReviewError(f"{display(path)}: 'terms:' must map English terms to Chinese text")
    _check_terms(path, text, [*keep, *terms.keys(), *terms.values()])
    glossary = Glossary(enforce=enforce)
    for term in keep:
        glossary.terms.append(Term(term.strip(), None, _pattern(term.strip(), ignore_case=False)))
    for english, chinese in terms.items():
        glossary.terms.append(Term(english.strip(), chinese.strip(), _pattern(english.strip(), ignore_case=True)))
    return glossary
