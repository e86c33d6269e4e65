"""``eval`` streams its references: memory bounded by a part, ``--limit`` stops the reading.

On main ``eval`` read the whole TSV and applied ``--limit`` afterwards, and scored the corpus
at once (~125 bytes of memory per byte of references: 6 GB for 50 MB). The memory is measured
as allocations (tracemalloc), which are exact for a given input, at n, 2n and 4n references:
what the run holds above the references themselves must not grow with them. The numbers at
5/10/20 MB are in BENCHMARKS.md (``benchmarks/eval_memory.py``). Both tests failed on main.
"""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest

from mkdocs_zh_translate.cli.app import main as cli_main
from mkdocs_zh_translate.pipeline.backends import TranslatorSpec
from mkdocs_zh_translate.quality import run as run_module
from mkdocs_zh_translate.quality.references import read_tsv

WORDS = "the cache makes every build fast and the plugin keeps links in place".split()


def _tsv(path: Path, lines: int) -> Path:
    path.write_text(
        "".join(f"{' '.join(WORDS[i % 5 :])} number {i}.\t缓存让构建更快，插件保留链接。{i}\n" for i in range(lines)),
        encoding="utf-8",
    )
    return path


def _held_while_scoring(path: Path) -> int:
    """Bytes allocated at the peak of one evaluate() beyond what the references hold."""
    references = read_tsv(path).references
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        result = run_module.evaluate(references, TranslatorSpec("pseudo", None), worst=3)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert result.sentences == len(references) and len(result.english_left) <= 3
    return peak - before


def test_scoring_memory_does_not_grow_with_the_references(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(run_module, "PART", 50, raising=False)  # parts of 50: n = 4 parts
    _held_while_scoring(_tsv(tmp_path / "warm.tsv", 20))  # imports and first-use caches, not counted
    held = [_held_while_scoring(_tsv(tmp_path / f"refs{k}.tsv", 200 * k)) for k in (1, 2, 4)]
    # linear growth would be 4x at 4n (sacrebleu's memos included); a bounded run stays near 1x
    assert held[2] / held[0] < 1.6, [f"{h / 1e6:.2f} MB" for h in held]


def test_limit_stops_reading_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _tsv(tmp_path / "refs.tsv", 5)
    with path.open("ab") as out:
        out.write(b"a line with no tab, never read\n\xff\xfe not even UTF-8\n")
    assert cli_main(["eval", "--references", str(path), "--backend", "pseudo", "--limit", "3"]) == 0
    assert "eval: 3 references" in capsys.readouterr().out
    assert len(read_tsv(path, limit=5).references) == 5
