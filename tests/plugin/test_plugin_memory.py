"""The machine cache per fingerprint, and the page banner."""

from __future__ import annotations

from pathlib import Path

from mkdocs_zh_translate.pipeline.cache import Hit, MachineCache
from mkdocs_zh_translate.pipeline.origin import Origin
from mkdocs_zh_translate.plugin.site import banner_html


def test_the_machine_cache_reads_and_writes_per_fingerprint(tmp_path: Path) -> None:
    machine = MachineCache(tmp_path / "cache")
    machine.store({"Hello": Hit("你好"), "Bye": Hit("再见", "runs")}, "fp")

    found = machine.lookup(["Hello", "Bye", "New"], "fp")
    assert found["Hello"] == Hit("你好", None, Origin.CACHE)
    assert found["Bye"] == Hit("再见", "runs", Origin.CACHE)
    assert "New" not in found
    assert machine.lookup(["Hello"], "other-fingerprint") == {}
    assert MachineCache(tmp_path / "cache").lookup(["Hello"], "fp")["Hello"].text == "你好"


def test_malformed_cache_values_are_misses(tmp_path: Path) -> None:
    from mkdocs_zh_translate.pipeline.cache import cache_key

    machine = MachineCache(tmp_path / "cache")
    machine._cache.set(cache_key("Hello", "fp"), "{not json")
    assert machine.lookup(["Hello"], "fp") == {}


def test_banner_says_how_much_was_reviewed() -> None:
    def body(**kw: object) -> str:
        options = dict(segments=4, reviewed=0, model="opus-mt-en-zh", translated=True)
        options.update(kw)
        return banner_html(True, **options)  # type: ignore[arg-type]

    assert "opus-mt-en-zh" in body() and "未经人工审校" in body()
    assert "4 个片段中有 1 个经人工审校" in body(reviewed=1)
    assert "全部经人工审校" in body(reviewed=4)
    assert "本页未翻译" in body(translated=False)
    assert banner_html(False, segments=4, reviewed=0, model="m", translated=True) == ""
    assert banner_html("演示模型。", segments=4, reviewed=0, model="m", translated=True).count("演示模型。") == 1
