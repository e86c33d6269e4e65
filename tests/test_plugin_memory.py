"""Translation memory layering (the seam for reviewed translations) and the page banner."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from mkdocs_zh_translate.memory import MACHINE, REVIEWED, Hit, MachineCache, TranslationMemory
from mkdocs_zh_translate.site import banner_html


class Reviewed:
    def __init__(self, table: dict[str, str]) -> None:
        self.table = table
        self.asked: list[list[str]] = []

    def lookup(self, sources: Sequence[str]) -> dict[str, Hit]:
        self.asked.append(list(sources))
        return {s: Hit(self.table[s], None, REVIEWED) for s in sources if s in self.table}


def test_reviewed_layer_wins_and_only_the_machine_cache_is_written(tmp_path: Path) -> None:
    machine = MachineCache(tmp_path / "cache")
    machine.store({"Hello": Hit("机器你好"), "Bye": Hit("机器再见", "keep-english")}, "fp")
    reviewed = Reviewed({"Hello": "你好"})
    memory = TranslationMemory(machine, [reviewed])

    found = memory.lookup(["Hello", "Bye", "New"], "fp")
    assert found["Hello"] == Hit("你好", None, REVIEWED)
    assert found["Bye"] == Hit("机器再见", "keep-english", MACHINE)
    assert "New" not in found
    assert memory.lookup(["Bye"], "other-fingerprint") == {}

    memory.store({"New": Hit("新")}, "fp")
    assert machine.lookup(["New"], "fp")["New"].text == "新"
    assert "New" not in reviewed.table


def test_malformed_cache_values_are_misses(tmp_path: Path) -> None:
    from mkdocs_zh_translate.memory import cache_key

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
