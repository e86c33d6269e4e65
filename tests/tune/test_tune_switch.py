"""Switching a site to a tuned model: the build keeps every cached translation of the model it
succeeds and translates only what is new or changed; ``prefill --retranslate`` redoes the rest
when asked (worst first, with a count); ``review report`` names the model of each machine entry.

The models are stand-ins (``fake_model_loader``): what is tested is the machine cache's view of a
model directory, which only reads its manifest and ``tune.json``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from mkdocs_zh_translate.cli.app import main
from mkdocs_zh_translate.export.save import write_manifest
from mkdocs_zh_translate.pipeline.backends import TranslatorSpec
from mkdocs_zh_translate.pipeline.cache import MachineCache
from mkdocs_zh_translate.pipeline.lineage import predecessors
from mkdocs_zh_translate.pipeline.spec import bind_cache
from tests.plugin_sites import build_in_process, fake_model_loader, write_site

CHANGED = "Run the build command; the cache makes the second build fast."


def fake_export(root: Path, name: str, lineage: list[dict[str, str]] | None = None) -> Path:
    """A directory with a manifest as ``export`` writes it (and ``tune.json`` for a tuned one)."""
    out = root / name
    out.mkdir()
    (out / "weights.bin").write_bytes(name.encode() * 100)
    if lineage is not None:
        (out / "tune.json").write_text(json.dumps({"format": 1, "lineage": lineage}), encoding="utf-8")
    write_manifest(out, source="some/checkpoint", quantize="int8")
    return out


def _fingerprint(model: Path) -> str:
    return str(json.loads((model / "manifest.json").read_text(encoding="utf-8"))["fingerprint"])


def _use(config: Path, model: Path) -> None:
    data = yaml.safe_load(config.read_text(encoding="utf-8"))
    data["plugins"][1]["zh-translate"]["model"] = str(model)
    config.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


@pytest.fixture
def models(tmp_path: Path) -> tuple[Path, Path]:
    base = fake_export(tmp_path, "base")
    tuned = fake_export(tmp_path, "tuned", [{"fingerprint": _fingerprint(base), "model": "base"}])
    return base, tuned


def test_a_tuned_model_names_its_predecessors_and_the_cache_binds_them(models: tuple[Path, Path],
                                                                      tmp_path: Path) -> None:
    base, tuned = models
    assert predecessors(tuned) == [(_fingerprint(base), "base")]
    assert predecessors(base) == []
    odd = fake_export(tmp_path, "odd", [{"fingerprint": "f" * 32, "model": "evil\x1b[2J\u202e"}])
    assert predecessors(odd) == [("f" * 32, "f" * 12)]  # no control reaches a terminal
    machine = MachineCache(tmp_path / "cache")
    try:
        binding = bind_cache(TranslatorSpec("onnx", str(tuned)), machine)
        base_binding = bind_cache(TranslatorSpec("onnx", str(base)), machine)
        assert [fp for fp, _name in binding.earlier] == [base_binding.fingerprint]
        assert base_binding.earlier == ()
        # a damaged tuned model (a file changed since its manifest) declares nothing
        (tuned / "weights.bin").write_bytes(b"changed")
        assert bind_cache(TranslatorSpec("onnx", str(tuned)), machine).earlier == ()
    finally:
        machine.close()


def test_switching_to_the_tuned_model_translates_only_the_changed_segments(
    models: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    base, tuned = models
    made = fake_model_loader(monkeypatch)
    config = write_site(tmp_path / "site", plugin={"backend": "onnx", "model": str(base)})
    first = build_in_process(config)
    assert first.stats.translated == first.stats.unique > 5

    _use(config, tuned)
    usage = config.parent / "docs" / "guide" / "usage.md"
    usage.write_text(usage.read_text(encoding="utf-8").replace(CHANGED, "Run the build command twice."),
                     encoding="utf-8")
    second = build_in_process(config)
    assert second.stats.translated == 1  # the changed paragraph, nothing else
    assert second.stats.cached == second.stats.unique - 1
    assert made[-1].seen == ["Run the build command twice."]

    # review report: which model wrote each machine entry
    assert main(["review", "sync", "-f", str(config)]) == 0
    report = tmp_path / "report.html"
    assert main(["review", "report", "-f", str(config), "-o", str(report)]) == 0
    html = report.read_text(encoding="utf-8")
    assert html.count("model: tuned") == 1
    assert html.count("model: base") == second.stats.unique - 1

    # the explicit re-translation: a count first, then everything the base wrote
    capsys.readouterr()
    assert main(["prefill", "-f", str(config), "--retranslate", "--limit", "3"]) == 0
    captured = capsys.readouterr()
    assert "3 texts to re-translate, worst confidence first" in captured.err
    assert "3 of 3 texts re-translated" in captured.out
    assert main(["prefill", "-f", str(config), "--retranslate"]) == 0
    captured = capsys.readouterr()
    left = second.stats.unique - 1 - 3
    assert f"{left} texts to re-translate" in captured.err and f"{left} by base" in captured.err
    third = build_in_process(config)
    assert third.stats.translated == 0 and third.stats.cached == third.stats.unique
    assert main(["prefill", "-f", str(config), "--retranslate"]) == 0
    assert "0 texts to re-translate" in capsys.readouterr().err


def test_the_base_model_reads_the_cache_as_before(models: tuple[Path, Path], tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Going back to the base after a tuned model translated: the base's own entries are still
    its own (nothing was copied or rewritten), the tuned model's are not the base's."""
    base, tuned = models
    fake_model_loader(monkeypatch)
    config = write_site(tmp_path / "site", plugin={"backend": "onnx", "model": str(tuned)})
    first = build_in_process(config)
    assert first.stats.translated == first.stats.unique
    _use(config, base)
    again = build_in_process(config)
    assert again.stats.translated == again.stats.unique  # the base never serves a successor's text
