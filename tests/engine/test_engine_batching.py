"""Length buckets and deduplication: every input translated once, order restored."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mkdocs_zh_translate.engine.batching import dedupe, plan_batches
from tests.growth import assert_scales, fastest


def test_dedupe_maps_back_to_every_input() -> None:
    unique, where = dedupe(["a", "b", "a", "", "b", ""])
    assert unique == ["a", "b", ""]
    assert [unique[i] for i in where] == ["a", "b", "a", "", "b", ""]


@given(st.lists(st.integers(min_value=1, max_value=300), max_size=60),
       st.integers(min_value=1, max_value=2000), st.integers(min_value=1, max_value=20))
def test_batches_partition_and_respect_budget(lengths: list[int], budget: int, max_rows: int) -> None:
    batches = plan_batches(lengths, budget, max_rows)
    flat = [i for b in batches for i in b]
    assert sorted(flat) == list(range(len(lengths)))
    for b in batches:
        assert len(b) <= max_rows
        width = max(lengths[i] for i in b)
        # Over budget only as a batch of one (a single long input is never dropped).
        assert len(b) * width <= budget or len(b) == 1


def test_batches_group_similar_lengths() -> None:
    lengths = [5, 50, 6, 48, 7, 52]
    batches = plan_batches(lengths, max_tokens=160, max_sentences=3)
    assert sorted(sorted(lengths[i] for i in b) for b in batches) == [[5, 6, 7], [48, 50, 52]]


def test_largest_batch_comes_first() -> None:
    """Short inputs make the batch with the most rows; it runs first so memory held for it
    serves every later batch."""
    lengths = [40, 40, 10, 10, 10, 10, 70]
    batches = plan_batches(lengths, max_tokens=80, max_sentences=10)
    assert [len(b) for b in batches] == [4, 2, 1]
    assert sorted(batches[0]) == [2, 3, 4, 5]
    assert batches[1] == [0, 1]  # equal lengths keep input order


def test_batches_come_out_even() -> None:
    """As many batches as the budget needs, but even: no small last batch, whose decoding steps
    cost the most per sentence."""
    batches = plan_batches([10] * 50, max_tokens=160, max_sentences=64)
    assert [len(b) for b in batches] == [13, 13, 13, 11]  # the full budget alone: 16, 16, 16, 2


def test_even_batches_stay_linear() -> None:
    """Evening the batches re-plans at a bisected budget: log(budget) linear passes."""
    lengths = [5 + (i * 37) % 120 for i in range(3000)]
    assert_scales("plan_batches", lambda k: fastest(lambda: plan_batches(lengths * k, 1024, 64)))
