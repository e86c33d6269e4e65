"""Batch streams: with two or more threads the engine decodes two batches at once, each on its
share of the threads, and the translations are the ones one stream gives."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from mkdocs_zh_translate.engine.session import in_streams, stream_plan

TEXTS = ["Open the file.", "Click the button to save the page.", "Run the build now.", "Close the window.",
         "The page is saved when you click the button.", "Read the guide first."]


@pytest.mark.parametrize(("threads", "plan"), [(1, (1, 1)), (2, (2, 1)), (3, (2, 1)), (4, (2, 2)), (8, (2, 4))])
def test_stream_plan_splits_the_threads(threads: int, plan: tuple[int, int]) -> None:
    assert stream_plan(threads) == plan


def test_streams_run_items_at_once_each_exactly_once() -> None:
    """Two streams: the first two items must be in progress together (a sequential loop would
    break the barrier), and every item runs once."""
    barrier = threading.Barrier(2, timeout=10)
    done: list[int] = []
    lock = threading.Lock()

    def work(item: int) -> None:
        if item < 2:
            barrier.wait()
        with lock:
            done.append(item)

    in_streams(list(range(7)), work, 2)
    assert sorted(done) == list(range(7))


def test_a_failing_item_is_reraised_and_stops_the_streams() -> None:
    seen: list[int] = []

    def work(item: int) -> None:
        seen.append(item)
        if item == 1:
            raise ValueError("bad batch 1")

    with pytest.raises(ValueError, match="bad batch 1"):
        in_streams(list(range(50)), work, 2)
    assert len(seen) < 50


def test_one_stream_runs_in_this_thread() -> None:
    threads: set[int] = set()
    in_streams([1, 2, 3], lambda _: threads.add(threading.get_ident()), 1)
    assert threads == {threading.get_ident()}


@pytest.mark.slow
def test_two_threads_decode_two_batches_at_once_with_the_same_translations(monkeypatch: pytest.MonkeyPatch) -> None:
    """fp32 (exact: a translation does not depend on its batch neighbours): two threads give
    the translations of one thread with one sentence per batch; the batches are encoded on
    two threads, each session has one ONNX Runtime thread, and sources that fit one batch are
    split so that the second stream has work."""
    from mkdocs_zh_translate.engine import OnnxTranslator
    from mkdocs_zh_translate.engine.session import MarianSessions
    from tests.models import tiny_onnx_model

    model: Path = tiny_onnx_model("none")
    alone = OnnxTranslator(model, num_beams=4, threads=1, max_batch_sentences=1).translate(TEXTS)
    two = OnnxTranslator(model, num_beams=4, threads=2)
    assert two.sessions.decoder.get_session_options().intra_op_num_threads == 1
    encoders: list[tuple[int, int]] = []  # (thread, sentences) of each encoder run
    encode = MarianSessions.encode

    def spy(self: MarianSessions, input_ids, mask, *args, **kwargs):  # type: ignore[no-untyped-def]
        encoders.append((threading.get_ident(), int(input_ids.shape[0])))
        return encode(self, input_ids, mask, *args, **kwargs)

    monkeypatch.setattr(MarianSessions, "encode", spy)
    assert two.translate(TEXTS) == alone
    assert len(encoders) == 2 and sum(n for _, n in encoders) == len(TEXTS)  # one batch's worth, split
    assert len({thread for thread, _ in encoders}) == 2
    encoders.clear()
    assert OnnxTranslator(model, num_beams=4, threads=1).translate(TEXTS) == alone
    assert len(encoders) == 1  # one thread: one batch, as before
