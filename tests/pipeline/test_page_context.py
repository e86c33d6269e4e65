"""The ``context`` option: each segment's page title and previous segment go with its request to
a backend that reads context, and into its cache key; elsewhere, and when off, nothing changes.

A fake backend that reads context (registered like the genai one, ``takes_context``) records
what it is asked; the real decoder-only model's prompt is checked in
``tests/engine/test_genai_context.py``."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

import pytest

from mkdocs_zh_translate.pipeline import backends
from mkdocs_zh_translate.pipeline.backends import Backend, TranslatorSpec
from mkdocs_zh_translate.pipeline.build import SiteInputs, build_pipeline
from mkdocs_zh_translate.pipeline.cache import MachineCache
from mkdocs_zh_translate.pipeline.context import (
    MARK,
    MAX_PREVIOUS_CHARS,
    context_key,
    page_contexts,
    split_context,
)
from mkdocs_zh_translate.pipeline.glossary import Glossary, Term, _pattern
from mkdocs_zh_translate.pipeline.pages import PageJob, SiteTranslator
from mkdocs_zh_translate.pipeline.spec import bind_cache
from mkdocs_zh_translate.segment import segment_markdown
from tests.fakes import upper_outside_tags

SHARED = "Open the **cache** folder to see the `files`."
PAGES = {
    "install.md": f"# Install the plugin\n\nRun the installer first.\n\n{SHARED}\n",
    "cache.md": f"# Clear the cache\n\nDelete old entries first.\n\n{SHARED}\n\n| Name | Use |\n|---|---|\n| a | b |\n",
}


class ContextRecorder:
    """A model that reads context: upper-cases like the counting fake, remembers every
    (text, context) it was asked, and how often it was made."""

    made: ClassVar[int] = 0
    asked: ClassVar[list[tuple[str, str]]] = []

    def __init__(self) -> None:
        ContextRecorder.made += 1

    def translate(self, texts: Sequence[str], contexts: Sequence[str] | None = None) -> list[str]:
        given = list(contexts) if contexts is not None else [""] * len(texts)
        ContextRecorder.asked.extend(zip(texts, given))
        return [upper_outside_tags(t) for t in texts]

    def translate_nbest(self, texts: Sequence[str], n: int, contexts: Sequence[str] | None = None
                        ) -> list[list[str]]:
        return [[out] for out in self.translate(texts, contexts)]


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> type[ContextRecorder]:
    monkeypatch.setitem(backends.BACKENDS, "ctxfake", Backend(
        "ctxfake", lambda spec: ContextRecorder(), "records its context", fingerprint="ctxfake-1",
        takes_context=True,
    ))
    ContextRecorder.made, ContextRecorder.asked = 0, []
    return ContextRecorder


def _jobs() -> list[PageJob]:
    return [PageJob(name, name, text) for name, text in PAGES.items()]


def _translate(cache_dir: Path, context: str, backend: str = "ctxfake",
               glossary: Glossary | None = None) -> tuple[dict[str, str], SiteTranslator, MachineCache]:
    machine = MachineCache(cache_dir)
    spec = TranslatorSpec.of({"backend": backend, "context": context})
    pipeline = build_pipeline(spec, SiteInputs(cache=machine, glossary=glossary))
    translator = SiteTranslator(pipeline)
    results, _strings, _stats = translator.translate_pages(_jobs(), ["Site name"])
    return {k: r.markdown for k, r in results.items()}, translator, machine


def test_each_segment_gets_its_page_title_and_previous_prose_segment() -> None:
    page = segment_markdown(PAGES["cache.md"], front_matter=False)
    texts = [s.text for s in page.segments]
    assert texts[:3] == ["Clear the cache", "Delete old entries first.",
                         "Open the <g1>cache</g1> folder to see the <x2/>."]
    contexts = page_contexts(page, "title+previous")
    assert contexts[0] == ""  # the title itself: no title, nothing before it
    assert contexts[1] == "Clear the cache"  # the previous segment is the title: said once
    assert contexts[2] == "Clear the cache\nDelete old entries first."
    # a table cell: the prose before the table, inline code as its text, markup dropped
    assert contexts[-1] == "Clear the cache\nOpen the cache folder to see the files."
    assert page_contexts(page, "title") == ["", *["Clear the cache"] * (len(texts) - 1)]
    assert page_contexts(page, "off") == [""] * len(texts)
    long = segment_markdown("# T\n\n" + "word " * 200 + "end.\n\nNext.\n", front_matter=False)
    previous = page_contexts(long, "title+previous")[2].split("\n")[1]
    assert len(previous) <= MAX_PREVIOUS_CHARS and previous.endswith("word end.") and previous.startswith("word")


def test_request_keys_split_back_into_what_made_them() -> None:
    for text, context in [("Open it.", ""), ("Open it.", "Title\nBefore."), ("a\x00context\x00b", ""),
                          ("a\x00context\x00b", "T")]:
        key = context_key(text, context)
        assert split_context(key) == (text, context)
    assert context_key("Open it.", "") == "Open it."  # no context: the text itself, as before
    assert MARK not in "".join(page_contexts(segment_markdown("# A\x00B\n\nC.\n"), "title+previous"))


def test_the_same_sentence_under_two_titles_is_two_requests_and_two_cache_entries(
    tmp_path: Path, recorder: type[ContextRecorder]
) -> None:
    pages, translator, machine = _translate(tmp_path / "cache", "title+previous")
    try:
        shared = [c for t, c in recorder.asked if t == "Open the <g1>cache</g1> folder to see the <x2/>."]
        assert sorted(shared) == ["Clear the cache\nDelete old entries first.",
                                  "Install the plugin\nRun the installer first."]
        assert ("Site name", "") in recorder.asked  # short strings: no page, no context
        requests = [r for r in translator.machine_requests(_jobs(), ["Site name"]) if r.startswith("Open the")]
        keys = [translator.service.key(r) for r in requests]
        assert len(requests) == 2 and len(set(keys)) == 2
        assert all(k.endswith("\x00context:" + split_context(r)[1]) for k, r in zip(keys, requests))
        assert "OPEN THE **CACHE** FOLDER" in pages["install.md"] and "OPEN THE **CACHE** FOLDER" in pages["cache.md"]
    finally:
        machine.close()


def test_a_warm_rebuild_with_context_loads_no_model_and_gives_the_same_pages(
    tmp_path: Path, recorder: type[ContextRecorder]
) -> None:
    cold, _t, machine = _translate(tmp_path / "cache", "title+previous")
    machine.close()
    made = recorder.made
    warm, translator, machine = _translate(tmp_path / "cache", "title+previous")
    try:
        assert recorder.made == made and translator.service.translated == 0 and warm == cold
        # ``title`` asks other contexts (no previous segment): translated again, not mistaken for these
        _pages, title_only, again = _translate(tmp_path / "cache", "title")
        again.close()
        assert title_only.service.translated > 0
    finally:
        machine.close()


def test_with_context_off_keys_and_requests_are_the_texts(tmp_path: Path, recorder: type[ContextRecorder]) -> None:
    _pages, translator, machine = _translate(tmp_path / "cache", "off")
    try:
        assert all(c == "" for _t, c in recorder.asked)
        requests = translator.machine_requests(_jobs(), ["Site name"])
        texts = [s.text for text in PAGES.values() for s in segment_markdown(text, front_matter=False).segments]
        assert list(requests) == list(dict.fromkeys([*texts, "Site name"]))
        assert all(translator.service.key(t) == t for t in requests)
    finally:
        machine.close()
    machine = MachineCache(tmp_path / "cache")
    try:
        off = bind_cache(TranslatorSpec.of({"backend": "ctxfake"}), machine).fingerprint
        on = bind_cache(TranslatorSpec.of({"backend": "ctxfake", "context": "title"}), machine).fingerprint
        assert off != on and "context=title;" in on and "context" not in off
    finally:
        machine.close()


@pytest.mark.parametrize("backend", ["pseudo"])
def test_a_backend_that_reads_no_context_is_given_none_and_keeps_its_cache(tmp_path: Path, backend: str) -> None:
    """The option changes nothing for such a backend: same fingerprint, same requests, and a
    rebuild with it on after one without translates nothing."""
    machine = MachineCache(tmp_path / "cache")
    try:
        plain = bind_cache(TranslatorSpec.of({"backend": backend}), machine).fingerprint
        with_context = bind_cache(TranslatorSpec.of({"backend": backend, "context": "title+previous"}), machine)
        assert with_context.fingerprint == plain
    finally:
        machine.close()
    off, _t, machine = _translate(tmp_path / "cache", "off", backend)
    machine.close()
    on, translator, machine = _translate(tmp_path / "cache", "title+previous", backend)
    try:
        assert on == off and translator.service.translated == 0 and not translator.service.context
    finally:
        machine.close()


def test_context_reaches_the_model_through_the_glossary_and_the_ladder(
    tmp_path: Path, recorder: type[ContextRecorder]
) -> None:
    """A glossary term becomes a placeholder (substitution) and a fragment the ladder translates
    on its own: each piece the model is asked for carries its segment's context."""
    glossary = Glossary([Term("folder", "文件夹", _pattern("folder", ignore_case=True))])
    pages, _translator, machine = _translate(tmp_path / "cache", "title", glossary=glossary)
    machine.close()
    asked = dict(recorder.asked)
    protected = "Open the <g1>cache</g1> <x3/> to see the <x2/>."
    assert protected in asked and "文件夹" in pages["cache.md"]
    by_context = sorted(c for t, c in recorder.asked if t == protected)
    assert by_context == ["Clear the cache", "Install the plugin"]


def test_a_converted_variant_keys_and_translates_with_the_same_context(
    tmp_path: Path, recorder: type[ContextRecorder]
) -> None:
    """A Traditional variant made by conversion: the Simplified text of each (text, context)
    converted, stored under the variant's key with that context; a rebuild converts nothing."""
    from mkdocs_zh_translate.pipeline.build import build_variant_pipeline
    from mkdocs_zh_translate.pipeline.variants import Variant

    def variant_pass() -> tuple[dict[str, str], SiteTranslator]:
        spec = TranslatorSpec.of({"backend": "ctxfake", "context": "title+previous"})
        base = build_pipeline(spec, SiteInputs(cache=machine))
        translator = SiteTranslator(build_variant_pipeline(base, Variant("zh-TW", "s2twp")))
        results, _strings, _stats = translator.translate_pages(_jobs(), ["Site name"])
        return {k: r.markdown for k, r in results.items()}, translator

    machine = MachineCache(tmp_path / "cache")
    try:
        first, translator = variant_pass()
        shared = sorted(c for t, c in recorder.asked if t.startswith("Open the"))
        assert shared == ["Clear the cache\nDelete old entries first.", "Install the plugin\nRun the installer first."]
        assert translator.service.translated > 0 and "OPEN THE **CACHE** FOLDER" in first["cache.md"]
        recorder.asked.clear()
        again, translator = variant_pass()
        assert again == first and translator.service.translated == 0 and recorder.asked == []
    finally:
        machine.close()
