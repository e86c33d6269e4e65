"""``prefill`` and ``eval --compare`` with a decoder-only model (the ``genai`` backend): worker
processes and Ray actors fill the cache with what a single-process build makes, page context
included (each request key carries it to the worker), and a seq2seq model compares with a
decoder-only one as ``--compare model=A model=B``.

The models are the project's tiny ones (``tests/genai_models.py``, ``tests/models.py``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytest.importorskip("onnxruntime_genai")
pytest.importorskip("onnx_ir")

from mkdocs_zh_translate.cli.app import main
from tests.genai_models import heldout, tiny_decoder_onnx
from tests.plugin_sites import build_in_process, page_pairs, write_site

SUMMARY = re.compile(r"zh-translate: (\d+) segments \((\d+) unique\), (\d+) from cache, (\d+) translated, ")
PAGES = {
    "index.md": "# Build the site\n\nRun the command to build the site.\n\nYou can open the `file` in your "
                "**folder**.\n\nSee the page for more help.\n",
    "guide.md": "# Install the plugin\n\nSee the page for more help.\n\nYou can open the `file` in your "
                "**folder**.\n\n| Name | Use |\n|---|---|\n| file | open the folder |\n",
    "more.md": "# Open the folder\n\n" + "".join(f"Run the command {i} to build the site.\n\n" for i in range(12)),
}


@pytest.fixture(scope="module")
def genai_model() -> Path:
    return tiny_decoder_onnx("none")


def _site(root: Path, model: Path) -> Path:
    return write_site(root, pages=PAGES, plugin={"backend": "genai", "model": str(model), "threads": 1,
                                                 "context": "title+previous"})


def _zh_pages(site: Path) -> dict[str, str]:
    return {
        zh.relative_to(site).as_posix(): re.sub(r"Build Date UTC : [^\n]*", "", zh.read_text(encoding="utf-8"))
        for _en, zh in page_pairs(site)
    }


@pytest.fixture(scope="module")
def unique_without_context(tmp_path_factory: pytest.TempPathFactory) -> int:
    """The site's distinct texts without page context (the pseudo backend's build: no model)."""
    root = tmp_path_factory.mktemp("plain")
    return int(build_in_process(write_site(root, pages=PAGES, plugin={"backend": "pseudo"})).stats.unique)


@pytest.fixture(scope="module")
def single_process(genai_model: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The zh pages of a cold build in one process, context on."""
    root = tmp_path_factory.mktemp("single")
    plugin = build_in_process(_site(root, genai_model))
    assert plugin.stats.translated == plugin.stats.unique > 20
    return _zh_pages(root / "site")


def _prefill_then_build(root: Path, model: Path, capsys: pytest.CaptureFixture[str], plain: int,
                        *args: str) -> dict[str, str]:
    config = _site(root, model)
    assert main(["prefill", "-f", str(config), "--no-progress", *args]) == 0
    match = SUMMARY.search(capsys.readouterr().out)
    assert match and int(match[4]) == int(match[2]) > 20  # every distinct request translated there
    # the two sentences that index.md and guide.md share are two requests each: their contexts differ
    assert int(match[2]) == plain + 2
    plugin = build_in_process(config)
    assert plugin.stats.translated == 0 and plugin.lazy.loads == 0  # the build's keys are prefill's
    return _zh_pages(root / "site")


def test_worker_processes_prefill_a_genai_site_with_page_context(
    tmp_path: Path, genai_model: Path, single_process: dict[str, str], unique_without_context: int,
    capsys: pytest.CaptureFixture[str],
) -> None:
    pages = _prefill_then_build(tmp_path, genai_model, capsys, unique_without_context, "--workers", "2")
    assert pages == single_process


@pytest.mark.slow
def test_ray_actors_prefill_a_genai_site_with_page_context(
    tmp_path: Path, genai_model: Path, single_process: dict[str, str], unique_without_context: int,
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A local Ray cluster (127.0.0.1 only, ended with the run); the model shipped to the
    actors through the object store, loaded from a directory each deletes again."""
    pytest.importorskip("ray")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # no token of this machine's Ray
    for name in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH", "RAY_ADDRESS"):
        monkeypatch.delenv(name, raising=False)
    pages = _prefill_then_build(tmp_path, genai_model, capsys, unique_without_context, "--ray", "local",
                                "--workers", "2", "--ray-ship-model")
    assert pages == single_process


def test_eval_compares_a_seq2seq_model_with_a_decoder_only_one(
    tmp_path: Path, genai_model: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``model=DIR`` alone runs each directory with the backend its kind of export needs."""
    from tests.models import tiny_onnx_model

    seq2seq = tiny_onnx_model(quantize="none")
    refs = tmp_path / "refs.tsv"
    refs.write_text("".join(f"{src}\t{ref}\n" for src, ref in heldout(12, seed=99)), encoding="utf-8")
    for base in (["--model", str(seq2seq)], ["--backend", "genai", "--model", str(genai_model)]):
        code = main(["eval", "--references", str(refs), *base, "--threads", "1", "--json",
                     "--compare", f"model={seq2seq}", f"model={genai_model}"])
        out = capsys.readouterr()
        assert code == 0, out.err
        runs = json.loads(out.out)["runs"]
        assert [r["label"] for r in runs] == [f"model={seq2seq.name}", f"model={genai_model.name}"]
        assert [r["settings"]["backend"] for r in runs] == ["onnx", "genai"]
        assert all(r["chrf"] > 20 for r in runs), runs  # both models translated their lines
