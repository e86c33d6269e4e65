"""Page context in a decoder-only model's prompt, end to end: a site built with ``context`` on
sends each segment's page title and previous segment in the prompt's context block, caches
each translation with its context, and rebuilds warm without loading the model; with it off
no prompt holds a context block. The model is the project's tiny Qwen2 translator
(``tests/genai_models.py``), which was trained with context blocks in some prompts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("onnxruntime_genai")
pytest.importorskip("onnx_ir")

from mkdocs_zh_translate.engine.prompt import Prompt
from mkdocs_zh_translate.families import PROMPT_FORMS
from tests.genai_models import tiny_decoder_onnx
from tests.plugin_sites import build_in_process, write_site

SHARED = "You can open the file in your folder."
PAGES = {
    "index.md": f"# Build the site\n\nRun the command to build the site.\n\n{SHARED}\n",
    "guide.md": f"# Install the plugin\n\nSee the page for more help.\n\n{SHARED}\n",
}
BLOCK = PROMPT_FORMS["qwen"].context_block.split("{context}")[0]


@pytest.fixture(scope="module")
def fp32() -> Path:
    return tiny_decoder_onnx("none")


@pytest.fixture
def prompts(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Every (source, whole prompt) the engine renders."""
    seen: list[tuple[str, str]] = []
    render = Prompt.render

    def spy(self: Prompt, source: str, *args: Any, **kwargs: Any) -> str:
        text = render(self, source, *args, **kwargs)
        seen.append((source, text))
        return text

    monkeypatch.setattr(Prompt, "render", spy)
    return seen


def _site(root: Path, model: Path, context: str | None) -> Path:
    plugin: dict[str, Any] = {"backend": "genai", "model": str(model), "threads": 1}
    if context is not None:
        plugin["context"] = context
    return write_site(root, pages=PAGES, plugin=plugin)


def test_the_prompt_holds_the_page_title_and_previous_segment_and_a_warm_rebuild_loads_nothing(
    fp32: Path, tmp_path: Path, prompts: list[tuple[str, str]]
) -> None:
    config = _site(tmp_path, fp32, "title+previous")
    plugin = build_in_process(config)
    shared = [text for source, text in prompts if source == SHARED]
    assert len(shared) == 2, prompts  # one request per context, not one per text
    assert any(f"{BLOCK}Build the site\nRun the command to build the site.\n\n" in p for p in shared), shared
    assert any(f"{BLOCK}Install the plugin\nSee the page for more help.\n\n" in p for p in shared), shared
    title = [text for source, text in prompts if source == "Build the site"]
    assert title and all(BLOCK not in p for p in title)  # the title itself: no context to give
    first = plugin.stats
    assert first.translated == first.unique == first.segments  # the shared sentence twice: every one distinct
    prompts.clear()
    warm = build_in_process(config)
    assert warm.stats.translated == 0 and warm.stats.cached == first.unique and warm.lazy.loads == 0
    assert prompts == []
    html = (tmp_path / "site" / "zh" / "guide" / "index.html").read_text(encoding="utf-8")
    assert SHARED not in html


def test_with_context_off_no_prompt_holds_a_context_block(
    fp32: Path, tmp_path: Path, prompts: list[tuple[str, str]]
) -> None:
    plugin = build_in_process(_site(tmp_path, fp32, None))
    assert prompts and all(BLOCK not in text for _source, text in prompts)
    assert [source for source, _text in prompts].count(SHARED) == 1  # one text, one request
    assert plugin.stats.unique == plugin.stats.segments - 1  # the shared sentence once
