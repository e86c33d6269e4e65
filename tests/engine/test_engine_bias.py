"""The cheap plain path (top-k without the bias, banned ids dropped) equals the biased top-k."""

from __future__ import annotations

import numpy as np
import pytest

from mkdocs_zh_translate.engine.beam import SearchOptions, _Biases


def _options(**kw: object) -> SearchOptions:
    base = dict(num_beams=2, max_length=10, min_length=5, length_penalty=1.0, early_stopping=False,
                decoder_start_id=3, eos_id=0, pad_id=3, vocab_size=12, bad_words_ids=((3,),))
    base.update(kw)
    return SearchOptions(**base)  # type: ignore[arg-type]


def _fake_call(log_probs: np.ndarray, seen: list[bool]):
    def call(bias: np.ndarray | None, k: int):
        seen.append(bias is None)
        scores = log_probs if bias is None else log_probs + bias
        order = np.argsort(-scores, axis=1, kind="stable")[:, :k]
        return np.take_along_axis(scores, order, axis=1), order.astype(np.int64), None
    return call


@pytest.mark.parametrize("cur_len", [1, 4, 5, 8])
@pytest.mark.parametrize("k", [1, 4])
def test_plain_path_equals_biased_topk(cur_len: int, k: int) -> None:
    rng = np.random.default_rng(cur_len * 10 + k)
    opts = _options()
    biases = _Biases.build(opts)
    log_probs = np.log(rng.dirichlet(np.ones(12), size=6)).astype(np.float32)
    log_probs[:, 0] = log_probs.max(axis=1) + 1  # EOS best in every row: must drop out below min length
    log_probs[0, 3] = 5.0                          # pad best in one row: always banned
    log_probs[1, 5] = log_probs[1, 6]              # a tie keeps the lower id first
    seen: list[bool] = []
    got_s, got_i, _ = biases.query(_fake_call(log_probs, seen), cur_len, opts, lambda: np.zeros((6, cur_len)), k)
    want_s, want_i, _ = _fake_call(log_probs, [])(biases.for_step(cur_len, opts, np.zeros((6, cur_len))), k)
    assert seen == [True]  # the bias was not fed
    np.testing.assert_array_equal(got_i, want_i)
    np.testing.assert_array_equal(got_s, want_s)
    assert 3 not in got_i and (cur_len >= opts.min_length or 0 not in got_i)


def test_renormalize_and_multi_token_bad_words_feed_the_bias() -> None:
    log_probs = np.log(np.full((2, 12), 1 / 12, dtype=np.float32))
    for opts in (_options(renormalize=True), _options(bad_words_ids=((3,), (4, 5)))):
        seen: list[bool] = []
        _Biases.build(opts).query(_fake_call(log_probs, seen), 6, opts, lambda: np.zeros((2, 6), dtype=np.int64), 2)
        assert seen == [False]
