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

    The batches come back largest first (most sentences; ties keep length order). The decoder's
    per-step buffers and caches scale with a batch's rows, and ONNX Runtime's memory arena
    keeps what a batch used: starting with the largest lets every later batch fit in memory
    the arena already holds, instead of growing it again after smaller ones fragmented it.
    The translate CLI's peak RSS on the engine benchmark's 64 lines went from 406-416 MB to
    392 MB.
    """
    order = sorted(range(len(lengths)), key=lambda i: (-lengths[i], i))
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
    batches.sort(key=len, reverse=True)  # stable: equal sizes stay longest first
    return batches
