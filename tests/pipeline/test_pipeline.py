"""The one translation pipeline, tested directly with fake translators (no MkDocs build).

What the front ends share: the cache key (pipeline format, glossary, droppable pairs), the
lookup/store, the lazy model, the fallback policy (``drop_pairs`` everywhere, union of the
pairs per text), the English fallback, the page guard hook and the progress reporter.
"""

from __future__ import annotations

import ast
import io
from pathlib import Path

import pytest

import mkdocs_zh_translate
from mkdocs_zh_translate import translate_markdown
from mkdocs_zh_translate.pipeline import spec as spec_module
from mkdocs_zh_translate.pipeline.backends import BackendError, TranslatorSpec
from mkdocs_zh_translate.pipeline.cache import Hit, MachineCache
from mkdocs_zh_translate.pipeline.lazy import LazyTranslator, TranslationFailed
from mkdocs_zh_translate.pipeline.origin import Origin
from mkdocs_zh_translate.pipeline.pages import PageJob, SiteTranslator
from mkdocs_zh_translate.pipeline.progress import NoProgress, TerminalProgress, progress_for
from mkdocs_zh_translate.pipeline.service import FunctionGuard, Requests, TranslationService
from mkdocs_zh_translate.pipeline.spec import PIPELINE_FORMAT, bind_cache
from mkdocs_zh_translate.segment import SegmentedPage
from tests.fakes import CountingTranslator, EmphasisBreaker, Scripted, site_translator

SPEC = TranslatorSpec("pseudo", None)
BOLD = "Press **Enter** to begin the setup.\n"
LINK = "Press [Enter](other.md) to begin the setup.\n"


def _site(tmp_path: Path, translator: object, **options: object) -> tuple[SiteTranslator, MachineCache]:
    machine = MachineCache(tmp_path / "cache")
    lazy = LazyTranslator(lambda *a, **k: translator)
    return site_translator(machine, lazy, SPEC, **options), machine  # type: ignore[arg-type]


def _pages(site: SiteTranslator, **pages: str) -> dict[str, str]:
    results, _strings, _stats = site.translate_pages([PageJob(k, k, v) for k, v in pages.items()])
    return {k: r.markdown for k, r in results.items()}


# -- the fallback policy --------------------------------------------------------------------


def test_site_translation_runs_the_drop_pairs_step(tmp_path: Path) -> None:
    site, machine = _site(tmp_path, EmphasisBreaker())
    results, _strings, stats = site.translate_pages([PageJob("a.md", "a.md", BOLD)])
    machine.close()
    assert results["a.md"].markdown == "PRESS ENTER TO BEGIN THE SETUP.\n"
    assert results["a.md"].fallbacks == ["a.md:1: translation fell back to 'drop_pairs'"]
    assert stats.fallbacks == 1


def test_a_text_that_is_emphasis_here_and_a_link_there_drops_only_the_emphasis(tmp_path: Path) -> None:
    # Same placeholder text on both pages; the union of droppable pairs lets the emphasis page
    # be translated, and the splice keeps the link page's segment English (link intact).
    site, machine = _site(tmp_path, EmphasisBreaker())
    out = _pages(site, **{"bold.md": BOLD, "link.md": LINK})
    machine.close()
    assert out["bold.md"] == "PRESS ENTER TO BEGIN THE SETUP.\n"
    assert out["link.md"] == LINK


def test_md_front_end_uses_the_same_policy() -> None:
    assert translate_markdown(BOLD + "\n" + LINK, EmphasisBreaker()) == "PRESS ENTER TO BEGIN THE SETUP.\n\n" + LINK
    # the link first: 0.1.0's md took the first occurrence's (empty) set and kept both English
    assert translate_markdown(LINK + "\n" + BOLD, EmphasisBreaker()) == LINK + "\nPRESS ENTER TO BEGIN THE SETUP.\n"


def test_translator_errors_become_one_translation_failed() -> None:
    def boom(text: str) -> str:
        raise RuntimeError("out of memory")

    with pytest.raises(TranslationFailed, match="the translator failed: out of memory"):
        translate_markdown("Hello.\n", Scripted(boom))


# -- the cache key --------------------------------------------------------------------------


def test_second_run_is_served_by_the_cache_and_never_loads_the_model(tmp_path: Path) -> None:
    first = CountingTranslator()
    site, machine = _site(tmp_path, first)
    _pages(site, **{"a.md": BOLD + "\nPlain words.\n"})
    machine.close()
    assert first.segments == 2
    loads: list[int] = []
    machine = MachineCache(tmp_path / "cache")
    lazy = LazyTranslator(lambda *a, **k: loads.append(1) or CountingTranslator())
    again = site_translator(machine, lazy, SPEC)
    results, _s, stats = again.translate_pages([PageJob("a.md", "a.md", BOLD + "\nPlain words.\n")])
    machine.close()
    assert loads == [] and stats.translated == 0 and stats.cached == stats.unique == 2
    assert stats.model == "model not loaded"
    assert results["a.md"].markdown == "PRESS **ENTER** TO BEGIN THE SETUP.\n\nPLAIN WORDS.\n"


def test_the_key_holds_the_pipeline_format_not_the_package_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    machine = MachineCache(tmp_path / "cache")
    fingerprint = bind_cache(SPEC, machine).fingerprint
    assert f"pipeline={PIPELINE_FORMAT}" in fingerprint
    monkeypatch.setattr(mkdocs_zh_translate, "__version__", "9.9.9")
    monkeypatch.setattr(mkdocs_zh_translate._version, "__version__", "9.9.9")
    assert bind_cache(SPEC, machine).fingerprint == fingerprint
    monkeypatch.setattr(spec_module, "PIPELINE_FORMAT", PIPELINE_FORMAT + 1)
    assert bind_cache(SPEC, machine).fingerprint != fingerprint
    machine.close()


def test_droppable_pairs_and_glossary_terms_are_part_of_the_key() -> None:
    service = TranslationService(CountingTranslator)
    assert service.key("Press <g1>Enter</g1>.") != service.key("Press <g1>Enter</g1>.", {1})
    assert service.key("Plain.", ()) == "Plain."


def test_only_the_current_key_is_read(tmp_path: Path) -> None:
    """The package was never released under another key: an entry stored under the package
    version's key of the development versions (``v=0.1.0``) is not read, the model is asked."""
    machine = MachineCache(tmp_path / "cache")
    binding = bind_cache(SPEC, machine)
    assert "v=0.1.0" not in binding.fingerprint and "pipeline=" in binding.fingerprint
    machine.store({"Kept.": Hit("留下。")}, binding.fingerprint.replace(f"pipeline={PIPELINE_FORMAT}", "v=0.1.0"))
    model = CountingTranslator()
    requests = Requests()
    requests.add("Kept.")
    hits = TranslationService(lambda: model, cache=binding).translate(requests)
    assert model.seen == ["Kept."] and hits["Kept."].origin == Origin.MODEL
    machine.close()


# -- the model: lazy, English fallback ---------------------------------------------------------


def test_without_a_model_misses_fail_unless_untranslated_is_allowed(tmp_path: Path) -> None:
    def fail(*args: object, **kwargs: object) -> CountingTranslator:
        raise BackendError("no model here")

    machine = MachineCache(tmp_path / "cache")
    jobs = [PageJob("a.md", "a.md", "Hello.\n\nWorld.\n"), PageJob("b.md", "b.md", "Again.\n")]
    machine.store({"Again.": Hit("又。", None, Origin.MODEL)}, bind_cache(SPEC, machine).fingerprint)
    partial = site_translator(machine, LazyTranslator(fail), SPEC, allow_untranslated=True)
    results, _s, stats = partial.translate_pages(jobs)
    assert results["a.md"].markdown == "Hello.\n\nWorld.\n" and results["b.md"].markdown == "又。\n"
    assert "no model here" in results["a.md"].warnings[0] and stats.fallbacks == 0
    assert (stats.untranslated, stats.untranslated_pages) == (2, 1)
    assert "2 kept in English (no model)" in stats.summary()
    strict = site_translator(machine, LazyTranslator(fail), SPEC)
    with pytest.raises(TranslationFailed, match=r"^2 segments on 1 page have no reviewed or cached .*no model here"):
        strict.translate_pages(jobs)
    # one segment missing: "1 segment on 1 page has"
    with pytest.raises(TranslationFailed, match=r"^1 segment on 1 page has no reviewed or cached .*no model here"):
        strict.translate_pages([PageJob("c.md", "c.md", "Alone.\n"), jobs[1]])
    # everything cached: no model needed, no failure
    assert strict.translate_pages(jobs[1:])[0]["b.md"].markdown == "又。\n"
    machine.close()


def test_origins_are_an_enum() -> None:
    assert Origin("reviewed") is Origin.REVIEWED
    assert Origin.CACHE.machine and Origin.MODEL.machine and not Origin.REVIEWED.machine


# -- the page guard hook ------------------------------------------------------------------------


def test_the_page_guard_sends_segments_back_to_english_with_a_warning(tmp_path: Path) -> None:
    seen: list[tuple[str, int, list[str | None]]] = []

    def guard(english: str, page: SegmentedPage, translations: list[str | None]) -> list[str | None]:
        seen.append((english, len(page.segments), list(translations)))
        return [None if t and "SECOND" in t else t for t in translations]

    site, machine = _site(tmp_path, CountingTranslator(), guard=FunctionGuard(guard))
    results, _s, _stats = site.translate_pages([PageJob("a.md", "a.md", "First.\n\nSecond.\n")])
    machine.close()
    assert seen == [("First.\n\nSecond.\n", 2, ["FIRST.", "SECOND."])]
    assert results["a.md"].markdown == "FIRST.\n\nSecond.\n"
    assert results["a.md"].warnings == [
        "a.md:3: the page guard kept 1 segment(s) in English because the translation changed "
        "the page's structure (lines 3)"
    ]


def test_translating_without_pages_stores_everything_and_never_runs_the_guard(tmp_path: Path) -> None:
    # prefill's mode: the guard decides what a page shows, never what is cached, so it is skipped
    guarded: list[str] = []

    def guard(english: str, page: SegmentedPage, translations: list[str | None]) -> list[str | None]:
        guarded.append(english)
        return [None] * len(translations)

    translator = CountingTranslator()
    site, machine = _site(tmp_path, translator, guard=FunctionGuard(guard))
    jobs = [PageJob("a.md", "a.md", "First.\n\nSecond.\n"), PageJob("b.md", "b.md", "Second.\n\nThird.\n")]
    results, _s, stats = site.translate_pages(jobs, pages=False)
    assert (results, guarded, stats.translated, translator.segments) == ({}, [], 3, 3)
    again, _s, build = site.translate_pages(jobs)  # the build: all cached, pages guarded
    machine.close()
    assert (build.translated, build.cached, translator.segments) == (0, 3, 3)
    assert guarded == ["First.\n\nSecond.\n", "Second.\n\nThird.\n"]
    assert again["a.md"].markdown == "First.\n\nSecond.\n"  # this guard keeps everything English


def test_translate_markdown_takes_a_guard() -> None:
    def english(english: str, page: SegmentedPage, translations: list[str | None]) -> list[str | None]:
        return [None] * len(translations)

    assert translate_markdown("# Title\n\nText.\n", CountingTranslator(), guard=FunctionGuard(english)) == "# Title\n\nText.\n"


# -- progress -----------------------------------------------------------------------------------


def test_progress_bar_only_when_asked_and_ends_its_line() -> None:
    stream = io.StringIO()
    bar = TerminalProgress(stream)
    bar.update(1, 2)
    bar.close()
    bar.close()
    assert stream.getvalue() == "\rzh-translate [###############...............] 1/2 segments\n"
    assert isinstance(progress_for(False), NoProgress)


def test_misses_are_reported_chunk_by_chunk(monkeypatch: pytest.MonkeyPatch) -> None:
    from mkdocs_zh_translate.pipeline import service as service_module

    monkeypatch.setattr(service_module, "CHUNK_CHARS", 10)
    stream = io.StringIO()
    service = TranslationService(CountingTranslator, progress=TerminalProgress(stream))
    requests = Requests()
    for text in ("One two.", "Three four.", "Five six."):
        requests.add(text)
    service.translate(requests)
    assert stream.getvalue().count("\r") == 4 and stream.getvalue().endswith("3/3 segments\n")


# -- one ladder call site -------------------------------------------------------------------------


def test_the_ladder_is_called_from_one_module_outside_segment() -> None:
    package = Path(mkdocs_zh_translate.__file__).parent
    callers = set()
    for path in package.rglob("*.py"):
        if "segment" in path.relative_to(package).parts[:1]:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                if name == "translate_segments":
                    callers.add(path.relative_to(package).as_posix())
    assert callers == {"pipeline/service.py"}


def test_review_sync_finds_what_the_build_stored_under_the_same_keys(tmp_path: Path) -> None:
    # review sync looks the machine text up per site (SiteTranslator.cached); the keys carry the
    # droppable pairs, so it must gather them exactly as the build did.
    from mkdocs_zh_translate.segment import segment_markdown

    pages = {"bold.md": BOLD, "link.md": LINK, "plain.md": "Plain words.\n"}
    site, machine = _site(tmp_path, CountingTranslator())
    site.translate_pages([PageJob(k, k, v) for k, v in pages.items()], ["Site name"])
    hits = site.cached([segment_markdown(v) for v in pages.values()], ["Site name"])
    machine.close()
    assert {t: h.text for t, h in hits.items()} == {
        "Press <g1>Enter</g1> to begin the setup.": "PRESS <g1>ENTER</g1> TO BEGIN THE SETUP.",
        "Plain words.": "PLAIN WORDS.",
        "Site name": "SITE NAME",
    }
    assert all(h.origin is Origin.CACHE for h in hits.values())


def test_without_a_terminal_progress_is_a_log_line_with_rate_and_eta() -> None:
    import threading

    from mkdocs_zh_translate.pipeline.progress import LogProgress

    stream = io.StringIO()
    progress = LogProgress(stream, interval=0.01)
    release = threading.Event()

    class Slow(CountingTranslator):
        def translate(self, texts):  # type: ignore[no-untyped-def]
            release.wait(5)  # until the reporter has written at least one line
            return super().translate(texts)

    def watch() -> None:
        while "ETA" not in stream.getvalue():
            threading.Event().wait(0.01)
        release.set()

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    service = TranslationService(Slow, progress=progress)
    requests = Requests()
    for text in ("One two.", "Three four."):
        requests.add(text)
    service.translate(requests)
    watcher.join(5)
    lines = stream.getvalue().splitlines()
    assert lines[0].startswith("zh-translate: 0/2 segments (0%)") and "ETA unknown" in lines[0]
    assert lines[-1].startswith("zh-translate: 2 segments translated in ")
    assert "\r" not in stream.getvalue()
    assert isinstance(progress_for(None), (LogProgress, TerminalProgress))


def test_log_progress_never_repeats_a_count_with_a_falling_rate() -> None:
    """Without a terminal, a line that comes due while no chunk finished says the run is alive;
    it does not repeat the count with the rate divided by the time that passed since."""
    from mkdocs_zh_translate.pipeline.progress import LogProgress

    now = [0.0]
    stream = io.StringIO()
    progress = LogProgress(stream, interval=10, clock=lambda: now[0], background=False)
    progress.update(0, 400)
    now[0] = 10.0
    progress.update(100, 400)  # due: the count and the rate
    for now[0] in (20.0, 30.0):  # a long chunk: alive, no new rate
        progress.tick()
    now[0] = 35.0
    progress.update(200, 400)  # 5 s after the last line: not due
    now[0] = 40.0
    progress.tick()  # due: the rate measured when the count last changed (at 35 s)
    progress.tick()  # not due again
    progress.close()
    assert stream.getvalue().splitlines() == [
        "zh-translate: 100/400 segments (25%), 10.0/s, ETA 30 s",
        "zh-translate: still translating: no chunk finished in 10 s",
        "zh-translate: still translating: no chunk finished in 20 s",
        "zh-translate: 200/400 segments (50%), 5.7/s, ETA 35 s",
        "zh-translate: 200 segments translated in 40 s",
    ]


def test_a_run_shorter_than_the_interval_prints_nothing() -> None:
    from mkdocs_zh_translate.pipeline.progress import LogProgress

    stream = io.StringIO()
    service = TranslationService(CountingTranslator, progress=LogProgress(stream, interval=3600))
    requests = Requests()
    requests.add("One two.")
    service.translate(requests)
    assert stream.getvalue() == ""


def test_interval_zero_is_a_line_per_chunk_and_a_closing_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from mkdocs_zh_translate.pipeline import service as service_module
    from mkdocs_zh_translate.pipeline.progress import LogProgress

    monkeypatch.setattr(service_module, "CHUNK_CHARS", 10)
    stream = io.StringIO()
    service = TranslationService(CountingTranslator, progress=LogProgress(stream, interval=0))
    requests = Requests()
    for text in ("One two.", "Three four.", "Five six."):
        requests.add(text)
    service.translate(requests)
    lines = stream.getvalue().splitlines()
    assert [line.split(" segments")[0] for line in lines[:4]] == [
        "zh-translate: 0/3", "zh-translate: 1/3", "zh-translate: 2/3", "zh-translate: 3/3"
    ]
    assert "/s, ETA " in lines[1] and lines[4].startswith("zh-translate: 3 segments translated in ")
    assert len(lines) == 5


def test_fallbacks_are_summarised_in_plain_words_most_frequent_first() -> None:
    from mkdocs_zh_translate.pipeline.pages import plain_fallbacks

    text = plain_fallbacks(["runs", "drop_pairs", "runs"])
    assert text.startswith("3 sentence(s) needed a fallback: 2 translated in pieces")
    assert "1 translated without some of its bold/italic marks" in text
    assert "drop_pairs" not in text and "runs" not in text.split(":", 1)[1].split()


def test_a_cache_filled_under_one_model_path_is_found_under_another(tmp_path: Path) -> None:
    """A laptop fills the cache with ``/home/me/docs/models/m``; CI restores it into another
    checkout path and has no model at all: the cached translations must still be found."""
    laptop = tmp_path / "laptop" / "models" / "m"
    laptop.mkdir(parents=True)
    (laptop / "config.json").write_text('{"d_model": 8}', encoding="utf-8")
    machine = MachineCache(tmp_path / "cache")
    filled = bind_cache(TranslatorSpec("onnx", str(laptop)), machine).fingerprint
    assert not filled.startswith("onnx:missing:")
    elsewhere = bind_cache(TranslatorSpec("onnx", str(tmp_path / "ci" / "models" / "m")), machine).fingerprint
    assert elsewhere == filled
    # a model that is present is always fingerprinted by its content, never by the cache's word
    other = tmp_path / "other"
    other.mkdir()
    (other / "config.json").write_text('{"d_model": 16}', encoding="utf-8")
    assert bind_cache(TranslatorSpec("onnx", str(other)), machine).fingerprint != filled
    # and an empty cache has nothing to offer
    fresh = MachineCache(tmp_path / "fresh")
    assert bind_cache(TranslatorSpec("onnx", str(laptop.parent / "gone")), fresh).fingerprint.startswith("onnx:missing:")
    machine.close()
    fresh.close()


def test_no_model_named_is_a_missing_model_not_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A backend that needs a model, given none (a tool that builds its own spec), must not
    fingerprint the working directory: that read every file of a checkout, .venv included."""
    work = tmp_path / "work"
    work.mkdir()
    (work / "config.json").write_text('{"d_model": 8}', encoding="utf-8")
    monkeypatch.chdir(work)
    read: list[Path] = []
    real = spec_module.model_fingerprint
    monkeypatch.setattr(spec_module, "model_fingerprint", lambda d: read.append(d) or real(d))
    machine = MachineCache(tmp_path / "cache")
    assert bind_cache(TranslatorSpec("onnx", None), machine).fingerprint.startswith("onnx:missing:")
    assert read == []
    machine.close()
