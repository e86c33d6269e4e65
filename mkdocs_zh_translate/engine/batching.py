"""Length buckets: group inputs of similar length so padding wastes little decoder work."""

from __future__ import annotations

from collections.abc import Sequence


def dedupe(items: Sequence[str]) -> tuple[list[str], list[int]]:
    """Unique items in first-seen order, and for each input the index of its unique item."""
    index: dict[str, int] = {}
    where = []
    for item in items:
        where.append(index.setdefault(item, len(index)))
    return list(index), where


def plan_batches(lengths: Sequence[int], max_tokens: int, max_sentences: int) -> list[list[int]]:
    """Split indices into batches of similar length.

    Indices are sorted by length (longest first, so a batch's padded width is its first item's
    length) and a batch grows while ``rows × longest`` stays within ``max_tokens`` and it holds
    at most ``max_sentences``. An item longer than the budget still gets a batch of its own:
    the budget shapes batches, it never drops input.

    Of the budgets up to ``max_tokens`` that need no more batches than ``max_tokens`` itself,
    the smallest is used: the batches come out even instead of full ones and a small last one
    (the engine benchmark's 64 lines: 26, 18, 15, 5 sentences -> 23, 17, 13, 11, of 736-799
    padded tokens each). A decoding
    step's cost per sentence falls with its rows (int8 beam 4, 40-token sources, one thread:
    116 ms at 4 sentences, 95 at 8, 83 at 16, 82 at 32), so a small batch is the dearest, and
    the budget, what bounds memory, is never exceeded.

    The batches come back largest first (most sentences; ties keep length order). The decoder's
    per-step buffers and caches scale with a batch's rows, and ONNX Runtime's memory arena
    keeps what a batch used: starting with the largest lets every later batch fit in memory
    the arena already holds, instead of growing it again after smaller ones fragmented it.
    The translate CLI's peak RSS on the engine benchmark's 64 lines went from 406-416 MB to
    392 MB.
    """
    order = sorted(range(len(lengths)), key=lambda i: (-lengths[i], i))
    batches = _pack(order, lengths, max_tokens, max_sentences)
    # The batch count only falls as the budget grows: bisect for the smallest with as few.
    low, high = 0, max_tokens  # _pack(low) needs more batches, _pack(high) as few
    while high - low > 1:
        middle = (low + high) // 2
        packed = _pack(order, lengths, middle, max_sentences)
        if len(packed) <= len(batches):
            high, batches = middle, packed
        else:
            low = middle
    batches.sort(key=len, reverse=True)  # stable: equal sizes stay longest first
    return batches


def _pack(order: Sequence[int], lengths: Sequence[int], max_tokens: int, max_sentences: int) -> list[list[int]]:
    """``order`` cut greedily into batches of at most ``max_tokens`` padded tokens and ``max_sentences``."""
    batches: list[list[int]] = []
    current: list[int] = []
    width = 0
    for i in order:
        new_width = max(width, lengths[i])
        if current and ((len(current) + 1) * new_width > max_tokens or len(current) >= max_sentences):
            batches.append(current)
            current, new_width = [], lengths[i]
        current.append(i)
        width = new_width
    if current:
        batches.append(current)
    return batches
