"""``prefill``: the whole site into the build's cache, in worker processes or on Ray, so the
next build translates nothing; results equal a single-process build's; resumable."""

from __future__ import annotations

import io
import os
import re
import shutil
import socket
import subprocess
import sys
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path

import pytest

from mkdocs_zh_translate.cli import main
from mkdocs_zh_translate.memory import MachineCache, TranslationMemory
from mkdocs_zh_translate.pipeline import service as service_module
from mkdocs_zh_translate.pipeline.service import Requests, TranslationService
from mkdocs_zh_translate.pipeline.spec import CacheBinding
from mkdocs_zh_translate.prefill.local import threads_per_worker
from mkdocs_zh_translate.prefill.progress import RateProgress
from mkdocs_zh_translate.segment import SegmentTranslation
from tests.fakes import CountingTranslator
from tests.plugin_sites import PAGES, build_in_process, page_pairs, write_site

REPO = Path(__file__).resolve().parents[1]
SUMMARY = re.compile(r"zh-translate: (\d+) segments \((\d+) unique\), (\d+) from memory, (\d+) translated, ")

# A few more pages than the plugin tests' site, so several chunks reach several workers.
MORE_PAGES = dict(PAGES)
for n in range(6):
    MORE_PAGES[f"more/page{n}.md"] = f"# Page {n}\n\n" + "".join(
        f"Sentence {i} of page {n} explains the **cache** and the build in some detail.\n\n" for i in range(40)
    )


def _prefill(config: Path, *args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, int]:
    """Run the command; return (translated, unique) from its summary line."""
    assert main(["prefill", "-f", str(config), "--no-progress", *args]) == 0
    out = capsys.readouterr().out
    match = SUMMARY.search(out)
    assert match, out
    return int(match[4]), int(match[2])


def _zh_pages(site: Path) -> dict[str, str]:
    return {
        zh.relative_to(site).as_posix(): re.sub(r"Build Date UTC : [^\n]*", "", zh.read_text(encoding="utf-8"))
        for _en, zh in page_pairs(site)
    }


def test_prefill_in_worker_processes_leaves_nothing_for_the_build(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_site(tmp_path, pages=MORE_PAGES)
    translated, unique = _prefill(config, "--workers", "2", capsys=capsys)
    assert translated == unique > 100
    again, _ = _prefill(config, "--workers", "2", capsys=capsys)
    assert again == 0  # everything is cached now; no worker is even started
    plugin = build_in_process(config)
    assert plugin.stats.translated == 0
    assert plugin.stats.cached == plugin.stats.unique == unique


def test_prefill_reports_a_missing_model_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = write_site(tmp_path, plugin={"backend": "onnx", "model": "no-such-model"})
    assert main(["prefill", "-f", str(config), "--no-progress", "--workers", "2"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "no-such-model" in err and "does not exist" in err


def test_threads_are_split_between_workers() -> None:
    assert threads_per_worker(1, cores=16) == 16
    assert threads_per_worker(2, cores=16) == 8
    assert threads_per_worker(3, cores=16) == 5
    assert threads_per_worker(4, cores=2) == 1  # never 0


def test_progress_shows_rate_and_eta() -> None:
    now = [100.0]
    stream = io.StringIO()
    progress = RateProgress(stream, terminal=False, interval=10, clock=lambda: now[0])
    now[0] = 110.0
    progress.update(50, 200)
    now[0] = 112.0
    progress.update(60, 200)  # within the interval: no new line
    now[0] = 140.0
    progress.update(200, 200)  # the last one always prints
    progress.close()
    lines = stream.getvalue().splitlines()
    assert lines == [
        "zh-translate prefill: 50/200 segments (25%), 5.0 segments/s, ETA 30s",
        "zh-translate prefill: 200/200 segments (100%), 5.0 segments/s, ETA 0s",
    ]


def test_an_interrupted_run_keeps_every_finished_chunk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(service_module, "CHUNK_CHARS", 40)
    texts = [f"Sentence number {i} is here." for i in range(12)]

    def interrupted(
        chunks: list[list[str]], droppable: Mapping[str, Collection[int]]
    ) -> Iterator[tuple[list[str], list[SegmentTranslation]]]:
        assert len(chunks) > 2
        yield chunks[0], [SegmentTranslation(t.upper()) for t in chunks[0]]
        raise KeyboardInterrupt  # the second chunk was in flight

    memory = TranslationMemory(MachineCache(tmp_path / "cache"))
    try:
        service = TranslationService(CountingTranslator, cache=CacheBinding(memory, "fp"))
        service.runner = interrupted
        with pytest.raises(KeyboardInterrupt):
            service.translate(Requests({t: set() for t in texts}))
        first = sorted(texts, key=len)[: service.translated]
        assert 0 < service.translated < len(texts)
        resumed = TranslationService(CountingTranslator, cache=CacheBinding(memory, "fp"))
        hits = resumed.translate(Requests({t: set() for t in texts}))
        assert resumed.cached == len(first) and resumed.translated == len(texts) - len(first)
        assert all(hits[t].text == t.upper() for t in first)
    finally:
        memory.machine.close()
