"""DecoderState.take: beam rows follow their source row, whether the cache is gathered afresh
or (few rows moved) patched in place; per-sentence caches are subset only when asked."""

from __future__ import annotations

import numpy as np
import pytest

from mkdocs_zh_translate.engine.session import DecoderState


def _state(rows: int, sentences: int) -> DecoderState:
    rng = np.random.default_rng(0)
    self_kv = [rng.standard_normal((rows, 2, 8, 4)).astype(np.float32) for _ in range(4)]
    cross_kv = [rng.standard_normal((sentences, 2, 5, 4)).astype(np.float32) for _ in range(4)]
    return DecoderState(self_kv, cross_kv, np.ones((sentences, 5), dtype=np.int64), length=3)


@pytest.mark.parametrize("rows", [
    [0, 1, 2, 3, 4, 5, 6, 7],  # nothing moves
    [0, 0, 2, 3, 4, 5, 6, 7],  # one row moves (in place)
    [1, 0, 3, 2, 4, 5, 6, 7],  # swaps: sources are overwritten by other moved rows
    [3, 3, 0, 1, 4, 4, 6, 7],  # exactly half move (in place)
    [7, 6, 5, 4, 3, 2, 1, 0],  # all move (fresh gather)
    [1, 1, 1, 1, 0, 0, 0, 0],  # most move, repeated sources
])
def test_take_reorders_rows_like_a_gather(rows: list[int]) -> None:
    state = _state(8, 2)
    expected = [t[rows].copy() for t in state.self_kv]
    cross = [t.copy() for t in state.cross_kv]
    state.take(np.array(rows))
    for got, want in zip(state.self_kv, expected, strict=True):
        np.testing.assert_array_equal(got, want)
    for got, want in zip(state.cross_kv, cross, strict=True):
        np.testing.assert_array_equal(got, want)
    assert state.rows == 8 and state.length == 3


def test_few_moved_rows_are_patched_into_the_same_buffers() -> None:
    state = _state(8, 2)
    before = list(state.self_kv)
    state.take(np.array([0, 0, 2, 3, 4, 5, 6, 6]))
    assert all(got is old for got, old in zip(state.self_kv, before, strict=True))
    state.take(np.array([7, 6, 5, 4, 3, 2, 1, 0]))
    assert not any(got is old for got, old in zip(state.self_kv, before, strict=True))


def test_take_with_leaving_sentences_shrinks_every_cache() -> None:
    state = _state(8, 2)
    rows = np.array([4, 5, 7, 7])
    expected = [t[rows].copy() for t in state.self_kv]
    cross = [t[[1]].copy() for t in state.cross_kv]
    state.take(rows, np.array([1]))
    for got, want in zip(state.self_kv, expected, strict=True):
        np.testing.assert_array_equal(got, want)
    for got, want in zip(state.cross_kv, cross, strict=True):
        np.testing.assert_array_equal(got, want)
    assert (state.rows, state.sentences) == (4, 1)


def test_reserve_grows_only_a_full_cache_and_keeps_what_is_filled() -> None:
    """The attention node writes position ``length`` in place, so a step needs
    ``capacity > length``; ``reserve`` grows full buffers by CACHE_GROWTH and keeps their data."""
    from mkdocs_zh_translate.engine.session import CACHE_GROWTH

    state = _state(4, 1)  # capacity 8, length 3
    before = list(state.self_kv)
    state.reserve()
    assert all(got is old for got, old in zip(state.self_kv, before, strict=True))
    state.length = state.capacity
    filled = [t.copy() for t in state.self_kv]
    state.reserve()
    assert state.capacity == 8 + CACHE_GROWTH and state.length == 8
    for got, want in zip(state.self_kv, filled, strict=True):
        np.testing.assert_array_equal(got[:, :, :8], want)
        assert got.flags.c_contiguous  # bound to ONNX Runtime as is
