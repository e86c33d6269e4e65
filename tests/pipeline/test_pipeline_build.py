"""One builder wires the pipeline (``pipeline/build.py``) and nothing rewires it afterwards.

Before, six modules bound the cache, wrapped the model and chose the fallback policy by hand,
and ``prefill`` rewired a service after it was built. These tests hold the package to one
builder and a service that cannot be changed once built; and the names: the machine cache is
the machine cache, "translation memory" is the review suggestions only.
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

import mkdocs_zh_translate
from mkdocs_zh_translate.pipeline import cache as cache_module
from mkdocs_zh_translate.pipeline.backends import TranslatorSpec
from mkdocs_zh_translate.pipeline.build import SiteInputs, build_pipeline
from mkdocs_zh_translate.pipeline.cache import Hit, MachineCache
from mkdocs_zh_translate.pipeline.lazy import LazyTranslator
from mkdocs_zh_translate.pipeline.pages import PageJob, Stats
from mkdocs_zh_translate.pipeline.report import run_report
from mkdocs_zh_translate.pipeline.service import Requests, TranslationService
from mkdocs_zh_translate.pipeline.spec import bind_cache
from tests.fakes import CountingTranslator, site_translator

PACKAGE = Path(mkdocs_zh_translate.__file__).parent
SPEC = TranslatorSpec("pseudo", None)


def _calls_to(name: str) -> dict[str, int]:
    """Modules of the package (relative paths) that call ``name``, with how often."""
    found: dict[str, int] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
                if called == name:
                    key = path.relative_to(PACKAGE).as_posix()
                    found[key] = found.get(key, 0) + 1
    return found


def test_only_the_builder_constructs_the_service_and_binds_the_cache() -> None:
    assert set(_calls_to("TranslationService")) == {"pipeline/build.py"}
    assert set(_calls_to("bind_cache")) == {"pipeline/build.py"}


def test_every_front_end_calls_the_builder() -> None:
    callers = set(_calls_to("build_pipeline"))
    front_ends = {
        "plugin/factory.py",  # mkdocs build, serve, the docs command, review sync's collect mode
        "pofill/fill.py",
        "sphinx/runtime.py",
        "quality/run.py",
        "pipeline/markdown.py",  # translate_markdown, the library's
        "cli/app.py",  # md
        "prefill/run.py",
    }
    assert front_ends <= callers


@pytest.mark.parametrize("wire", ["model", "cache", "glossary", "english_fallback", "progress", "guard", "runner"])
def test_a_built_service_cannot_be_rewired(wire: str) -> None:
    service = TranslationService(CountingTranslator)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(service, wire, None)


def test_a_built_pipeline_cannot_be_rewired_and_counts_on(tmp_path: Path) -> None:
    machine = MachineCache(tmp_path / "cache")
    try:
        pipeline = build_pipeline(SPEC, SiteInputs(cache=machine), load=lambda _spec: CountingTranslator())
        with pytest.raises(dataclasses.FrozenInstanceError):
            pipeline.spec = TranslatorSpec("pseudo", None, beams=2)  # type: ignore[misc]
        with pytest.raises(dataclasses.FrozenInstanceError):
            pipeline.site.cache = None  # type: ignore[misc]
        assert pipeline.cache == bind_cache(SPEC, machine) and pipeline.machine is machine
        requests = Requests({"Hello.": set(), "World.": set()})
        pipeline.translate(requests)
        again = build_pipeline(SPEC, SiteInputs(cache=machine), load=lambda _spec: CountingTranslator())
        hits = again.translate(requests)
        # only the tally counts on: the first translated, the second found it all in the cache
        assert (pipeline.service.translated, again.service.cached, again.service.translated) == (2, 2, 0)
        assert hits["Hello."] == Hit("HELLO.", None, hits["Hello."].origin)
    finally:
        machine.close()


def test_prefill_builds_its_own_pipeline_and_leaves_the_builds_as_built(tmp_path: Path) -> None:
    from mkdocs_zh_translate.prefill.run import Where, _prefill_translator

    machine = MachineCache(tmp_path / "cache")
    try:
        built = site_translator(machine, LazyTranslator(), SPEC, segmented={})
        before = (built.spec, built.service.cache, built.service.runner, built.service.english_fallback)
        # the command line's engine options override the plugin's before the English build
        # (collect.with_english_build): prefill runs the build's own spec and key
        prefilling, label = _prefill_translator(built, Where(), None)
        assert (built.spec, built.service.cache, built.service.runner, built.service.english_fallback) == before
        assert prefilling.service is not built.service and prefilling.spec == built.spec
        assert prefilling.service.cache == bind_cache(built.spec, machine)
        assert prefilling.service.english_fallback is False and label == ""
        assert prefilling.segmented is built.segmented and prefilling.lazy is built.lazy
        _results, _strings, stats = prefilling.translate_pages([PageJob("a.md", "a.md", "Hello.\n")], pages=False)
        assert stats.translated == 1
    finally:
        machine.close()


def test_translation_memory_names_the_review_suggestions_only() -> None:
    """The machine cache is ``MachineCache``; the report counts its answers as ``from_cache``
    (report format 2: ``from_memory`` went away)."""
    assert not hasattr(cache_module, "TranslationMemory")
    assert not any("TranslationMemory" in p.read_text(encoding="utf-8") for p in PACKAGE.rglob("*.py"))
    report = run_report("build", {}, Stats(cached=3).run_json())
    assert report["format"] == 2
    assert report["run"]["from_cache"] == 3 and "from_memory" not in report["run"]
