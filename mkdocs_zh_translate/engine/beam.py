"""Batched beam search (and greedy search) in numpy with transformers ``generate()`` semantics.

The ONNX decoder already returns each row's top-k processed log-probabilities, so this
module only does bookkeeping: combine running scores, pick 2·beams candidates per sentence,
split them into finished and running hypotheses, and decide when a sentence is done. The
rules and the float32 arithmetic follow transformers 4.57's vectorised ``_beam_search`` step
by step, because the goal is identical token ids, not merely similar translations. A sentence
whose result can no longer change leaves the batch at once, so its rows stop costing decoder
time (transformers keeps computing them until the whole batch is done).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from .session import DecoderState
from .tags import START, Constraint, Mask

NEG = np.float32(-1.0e9)  # transformers' "impossible" score offset
NEG_INF = np.float32(-np.inf)


@dataclass(frozen=True)
class SearchOptions:
    """Decoding settings with transformers' meaning (lengths count the decoder start token)."""

    num_beams: int
    max_length: int
    min_length: int
    length_penalty: float
    early_stopping: bool | str
    decoder_start_id: int
    eos_id: int
    pad_id: int
    vocab_size: int
    forced_eos_id: int | None = None
    #: The first generated token, forced (M2M100's and NLLB's target language; None: free).
    forced_bos_id: int | None = None
    bad_words_ids: tuple[tuple[int, ...], ...] = ()
    num_return: int = 1
    renormalize: bool = False
    max_topk: int | None = None  # the most entries the graph's top-k returns (None: vocab_size)


@dataclass
class Hypothesis:
    """One finished output: generated ids (EOS included when produced) and its final score:
    the summed log-probabilities of the generated ids (EOS included; a forced EOS counts 0)
    over their number ** length_penalty, the length-normalised log-probability that ranks the
    beams (transformers' ``sequences_scores``)."""

    ids: list[int]
    score: float


class Decoder(Protocol):
    """``bias`` None selects the graph's plain path: top-k of the log-softmax, nothing added.

    The search starts from the encoder's state (one row per sentence, empty self cache); the
    first step feeds the decoder start token like any other.
    """

    def step(self, tokens: np.ndarray, state: DecoderState, bias: np.ndarray | None,
             k: int) -> tuple[np.ndarray, np.ndarray, DecoderState]: ...


#: At most this many single-token bans are filtered outside the graph (see ``_Biases.query``).
MAX_FILTERED_BANS = 8


@dataclass
class _Biases:
    """The logits processors of one search, applied as cheaply as each step allows.

    transformers adds -inf for bad words always and for EOS below the minimum length. When a
    step bans only a few single tokens (opus-mt bans ``<pad>``, and EOS below the minimum
    length) it uses the graph's plain path, asks for ``k + len(banned)`` entries and drops
    the banned ids here: exactly the biased top-k, because a -inf column can only drop out,
    never reorder the others. Steps that need more (multi-token bad words, renormalized
    scores, many bans) feed the ``[1 or rows, vocab]`` bias: ``base`` (bad words) or
    ``no_eos`` (bad words + EOS), with per-row rows for multi-token bad words.
    """

    base: np.ndarray
    no_eos: np.ndarray
    multi: tuple[tuple[int, ...], ...]
    banned: np.ndarray
    renormalize: bool
    # A [rows, vocab] bias kept equal to ``scratch_row`` in every row between steps: tag masks
    # change a few rows and put them back, instead of building 65,001 × rows floats a step.
    scratch: np.ndarray | None = None
    scratch_row: np.ndarray | None = None

    @classmethod
    def build(cls, opts: SearchOptions) -> _Biases:
        base = np.zeros((1, opts.vocab_size), dtype=np.float32)
        multi = []
        banned: list[int] = []
        for seq in opts.bad_words_ids:
            if list(seq) == [opts.eos_id]:
                continue  # transformers drops a bad word that is just EOS
            if len(seq) == 1:
                base[0, seq[0]] = NEG_INF
                if seq[0] not in banned:
                    banned.append(seq[0])
            elif seq:
                multi.append(tuple(seq))
        no_eos = base.copy()
        no_eos[0, opts.eos_id] = NEG_INF
        return cls(base, no_eos, tuple(multi), np.array(banned, dtype=np.int64), opts.renormalize)

    def banned_at(self, cur_len: int, opts: SearchOptions) -> np.ndarray:
        """Single tokens banned at this length: the bad words, plus EOS below the minimum length."""
        if cur_len < opts.min_length and opts.eos_id not in self.banned:
            return np.append(self.banned, np.int64(opts.eos_id))
        return self.banned

    def query(self, call: Callable[[np.ndarray | None, int], tuple[np.ndarray, np.ndarray, DecoderState]],
              cur_len: int, opts: SearchOptions, seqs: Callable[[], np.ndarray],
              k: int) -> tuple[np.ndarray, np.ndarray, DecoderState]:
        """Run one decoder step through ``call(bias, k)``; returns exactly the biased top-k."""
        banned = self.banned_at(cur_len, opts)
        plain = (not self.renormalize and not self.multi and banned.size <= MAX_FILTERED_BANS
                 and k + banned.size <= opts.vocab_size)
        if not plain:
            return call(self.for_step(cur_len, opts, seqs()), k)
        if not banned.size:
            return call(None, k)
        scores, ids, state = call(None, k + int(banned.size))
        hit = np.isin(ids, banned)
        if not hit.any():
            return scores[:, :k], ids[:, :k], state
        order = np.argsort(hit, axis=1, kind="stable")[:, :k]  # unbanned first, order kept
        return np.take_along_axis(scores, order, axis=1), np.take_along_axis(ids, order, axis=1), state

    def for_step(self, cur_len: int, opts: SearchOptions, seqs: np.ndarray) -> np.ndarray:
        """Bias at sequence length ``cur_len`` (``seqs``: each row's ids so far)."""
        bias = self.no_eos if cur_len < opts.min_length else self.base
        if not self.multi:
            return bias
        rows = np.repeat(bias, seqs.shape[0], axis=0)
        for seq in self.multi:
            prefix = np.asarray(seq[:-1], dtype=seqs.dtype)
            if cur_len < len(prefix):
                continue
            hit = np.all(seqs[:, cur_len - len(prefix) : cur_len] == prefix, axis=1)
            rows[hit, seq[-1]] = NEG_INF
        return rows


Call = Callable[[np.ndarray | None, int], tuple[np.ndarray, np.ndarray, DecoderState]]


def _masked_query(biases: _Biases, call: Call, cur_len: int, opts: SearchOptions,
                  seqs: Callable[[], np.ndarray], k: int,
                  masks: list[Mask | None]) -> tuple[np.ndarray, np.ndarray, DecoderState]:
    """``biases.query`` plus one tag-constraint mask per row (``tags.Mask``; None: none).

    Rows that only ban a few ids (a tag the state does not allow, EOS before every tag is
    out) keep the graph's plain path: ask for ``k`` plus the most bans of any row and drop
    each row's banned ids here, exactly as ``_Biases.query`` does for its global bans. Only
    when a row is in the middle of spelling a tag (``only``: every id but a few is banned)
    or the search needs the bias anyway is the ``[rows, vocab]`` bias built and fed.
    """
    if all(m is None or (not m.only and not m.ids.size) for m in masks):
        return biases.query(call, cur_len, opts, seqs, k)
    scores, ids, state = _masked_call(biases, call, cur_len, opts, seqs, k, masks)
    scores, ids = np.array(scores), np.array(ids)  # own, writable copies ([rows, k]: small)
    for row, m in enumerate(masks):
        if m is not None and m.eos_to >= 0:
            _redirect_eos(scores[row], ids[row], opts.eos_id, m.eos_to)
    return scores, ids, state


def _redirect_eos(scores: np.ndarray, ids: np.ndarray, eos_id: int, to: int) -> None:
    """In one row's top-k (best first), EOS becomes ``to`` (``tags.Mask.eos_to``); where
    ``to`` then appears twice, the lower-scored copy is dropped to -inf (never chosen)."""
    eos = np.flatnonzero(ids == eos_id)
    if not eos.size:
        return
    ids[eos] = to
    same = np.flatnonzero(ids == to)
    if same.size > 1:
        scores[same[1:]] = NEG_INF


def _masked_call(biases: _Biases, call: Call, cur_len: int, opts: SearchOptions,
                 seqs: Callable[[], np.ndarray], k: int,
                 masks: list[Mask | None]) -> tuple[np.ndarray, np.ndarray, DecoderState]:
    """The masked top-k, EOS kept (``_masked_query`` redirects it where a mask says)."""
    masks = [None if m is None else (Mask(m.ids[m.ids != opts.eos_id], m.only) if m.eos_to >= 0 else m)
             for m in masks]
    banned = biases.banned_at(cur_len, opts)
    extra = int(banned.size) + max(m.ids.size for m in masks if m is not None)
    limit = min(opts.max_topk or opts.vocab_size, opts.vocab_size)
    if (not any(m is not None and m.only for m in masks) and not biases.renormalize and not biases.multi
            and k + extra <= limit):
        scores, ids, state = call(None, k + extra)
        hit = np.isin(ids, banned) if banned.size else np.zeros(ids.shape, dtype=bool)
        for row, m in enumerate(masks):
            if m is not None and m.ids.size:
                hit[row] |= np.isin(ids[row], m.ids)
        order = np.argsort(hit, axis=1, kind="stable")[:, :k]  # allowed first, order kept
        return np.take_along_axis(scores, order, axis=1), np.take_along_axis(ids, order, axis=1), state
    rows = len(masks)
    base = biases.for_step(cur_len, opts, seqs())
    if base.shape[0] != 1:  # per-row bad words: a fresh bias
        bias = np.array(base)
        _apply_masks(bias, masks)
        return call(bias, k)
    if biases.scratch is None or biases.scratch.shape[0] < rows:
        biases.scratch, biases.scratch_row = np.repeat(base, rows, axis=0), base
    elif biases.scratch_row is not base:  # EOS ban lifted at the minimum length: once a search
        biases.scratch[:] = base
        biases.scratch_row = base
    bias = biases.scratch[:rows]
    touched = _apply_masks(bias, masks)
    try:
        return call(bias, k)
    finally:
        bias[touched] = base


def _apply_masks(bias: np.ndarray, masks: list[Mask | None]) -> list[int]:
    """Write each row's mask into ``bias`` (``only``: -inf but the listed ids); returns the rows."""
    touched = []
    for row, m in enumerate(masks):
        if m is None or (not m.only and not m.ids.size):
            continue
        touched.append(row)
        if m.only:
            keep = bias[row, m.ids]
            bias[row] = NEG_INF
            bias[row, m.ids] = keep
        else:
            bias[row, m.ids] = NEG_INF
    return touched


def _advance(automata: list[Constraint | None], states: list[Any], tokens: np.ndarray,
             sentence: np.ndarray) -> list[Any]:
    """Each row's state after its new token (row ``r`` belongs to sentence ``sentence[r]``).

    A token that breaks the tags can only come from a row whose score is already -inf (the
    masks let no other through); such a row keeps its state, its score rules it out anyway.
    """
    out = list(states)
    for r in range(len(states)):
        auto = automata[int(sentence[r])]
        if auto is not None:
            nxt = auto.feed(states[r], int(tokens[r]))
            if nxt is not None:
                out[r] = nxt
    return out


def _row_masks(automata: list[Constraint | None], states: list[Any], sentence: np.ndarray) -> list[Mask | None]:
    masks: list[Mask | None] = []
    for r, st in enumerate(states):
        auto = automata[int(sentence[r])]
        masks.append(None if auto is None else auto.mask(st))
    return masks


def _desc_order(x: np.ndarray) -> np.ndarray:
    """Indices sorting each row by descending value; ties keep the lower index first."""
    return np.argsort(-x, axis=-1, kind="stable")


def _forced_token(cur_len: int, opts: SearchOptions) -> int | None:
    """The token this step must emit, or None: EOS at the last position when the model forces
    it, else the forced first token (transformers' ForcedBOS/ForcedEOS logits processors set
    every other score to -inf, so the forced token's log-probability counts 0; where both
    apply, ForcedEOS runs last and wins)."""
    if cur_len == opts.max_length - 1 and opts.forced_eos_id is not None:
        return opts.forced_eos_id
    return opts.forced_bos_id if cur_len == 1 else None


def _cached_step(decoder: Decoder, tokens: np.ndarray, state: DecoderState, cur_len: int,
                 opts: SearchOptions) -> DecoderState:
    """Run a step whose token is forced for its cache alone: the next step attends to this
    position (a forced first token is followed by more; a forced last one is not, so skipped)."""
    if cur_len + 1 >= opts.max_length:
        return state
    return decoder.step(tokens, state, None, 1)[2]


def _constraints(tags: Sequence[Constraint | None] | None, n: int) -> list[Constraint | None] | None:
    """The per-sentence automata, or None when no sentence has any (the unconstrained search)."""
    if tags is None or all(a is None for a in tags):
        return None
    if len(tags) != n:
        raise ValueError(f"{len(tags)} tag constraints for {n} sentences")
    return list(tags)


def _starts(automata: list[Constraint | None] | None, n: int, beams: int) -> list[Any]:
    """Each row's start state (``beams`` rows per sentence; unconstrained rows: tags' START)."""
    if automata is None:
        return [START] * (n * beams)
    return [START if a is None else a.start for a in automata for _ in range(beams)]


def greedy_search(decoder: Decoder, state: DecoderState, opts: SearchOptions,
                  tags: Sequence[Constraint | None] | None = None) -> list[list[Hypothesis]]:
    """transformers' greedy decoding (num_beams=1): argmax of the processed scores. Each
    hypothesis is scored as ``beam_search`` scores a finished one (transformers' greedy
    search scores nothing), so a confidence means the same whatever the beam width.

    ``tags``: per sentence, a placeholder automaton (``tags.TagAutomaton``) or None."""
    n = state.sentences
    biases = _Biases.build(opts)
    automata = _constraints(tags, n)
    states: list[Any] = _starts(automata, n, 1)
    seqs = np.full((n, opts.max_length), opts.pad_id, dtype=np.int64)
    seqs[:, 0] = opts.decoder_start_id
    results: list[list[Hypothesis]] = [[] for _ in range(n)]
    active = np.arange(n)
    sums = np.zeros(n, dtype=np.float32)  # each sentence's summed log-probabilities
    cur_len = 1
    while active.size:
        forced = _forced_token(cur_len, opts)
        if forced is not None:
            state = _cached_step(decoder, seqs[active, cur_len - 1], state, cur_len, opts)
            tokens = np.full(active.size, forced, dtype=np.int64)  # log-probability 0, as in beam_search
        else:
            # The lambdas here and in beam_search run inside biases.query, in this iteration:
            # binding the loop variables late (B023) is what we want.
            call = lambda bias, k, st=state: decoder.step(seqs[active, cur_len - 1], st, bias, k)  # noqa: E731, B023
            if automata is None:
                scores, ids, state = biases.query(call, cur_len, opts, lambda: seqs[active, :cur_len], 1)  # noqa: B023
            else:
                masks = _row_masks(automata, states, active)
                scores, ids, state = _masked_query(biases, call, cur_len, opts,
                                                   lambda: seqs[active, :cur_len], 1, masks)  # noqa: B023
            del call  # holds the previous step's cache; free it before the next gather
            tokens = ids[:, 0]
            sums[active] += scores[:, 0]
        seqs[active, cur_len] = tokens
        if automata is not None:
            states = _advance(automata, states, tokens, active)
        cur_len += 1
        finished = (tokens == opts.eos_id) | (cur_len >= opts.max_length)
        for row in np.flatnonzero(finished):
            sent = int(active[row])
            # beam_search's score: summed log-probabilities over length ** length_penalty
            score = sums[sent] / np.float32(float(cur_len - 1) ** opts.length_penalty)
            results[sent] = [Hypothesis(seqs[sent, 1:cur_len].tolist(), float(score))]
        if finished.any():
            keep = np.flatnonzero(~finished)
            active = active[keep]
            states = [states[int(i)] for i in keep]
            if active.size:
                state.take(keep, keep)
    return results


def beam_search(decoder: Decoder, state: DecoderState, opts: SearchOptions,
                tags: Sequence[Constraint | None] | None = None) -> list[list[Hypothesis]]:
    """Batched beam search; returns the ``num_return`` best finished hypotheses per sentence.

    ``tags``: per sentence, a placeholder automaton (``tags.TagAutomaton``) or None; its
    masks apply to every hypothesis of the sentence, so each finished one holds the source's
    tags exactly once, properly nested (unless it hit the maximum length first)."""
    n_sent = state.sentences
    beams = opts.num_beams
    keep_k = 2 * beams  # transformers: max(2, 1 + n_eos) * num_beams with one EOS id
    length = opts.max_length
    lp = opts.length_penalty
    biases = _Biases.build(opts)

    # Per active sentence (axis 0) and beam (axis 1).
    run_scores = np.zeros((n_sent, beams), dtype=np.float32)
    run_scores[:, 1:] = NEG
    run_seqs = np.full((n_sent, beams, length), opts.pad_id, dtype=np.int64)
    run_seqs[:, :, 0] = opts.decoder_start_id
    fin_scores = np.full((n_sent, beams), NEG, dtype=np.float32)
    fin_seqs = np.full((n_sent, beams, length), opts.pad_id, dtype=np.int64)
    fin_lens = np.zeros((n_sent, beams), dtype=np.int64)
    fin_done = np.zeros((n_sent, beams), dtype=bool)
    unsatisfied = np.ones(n_sent, dtype=bool)
    active = np.arange(n_sent)
    results: list[list[Hypothesis]] = [[] for _ in range(n_sent)]
    top_mask = np.arange(keep_k) < beams
    automata = _constraints(tags, n_sent)
    states: list[Any] = _starts(automata, n_sent, beams)  # row a·beams + b: sentence a's beam b

    cur_len = 1
    while active.size:
        n = active.size
        # 1. top-k log-probs per row, from the graph (or the forced EOS step, without it).
        forced = _forced_token(cur_len, opts)
        if forced is not None:
            fed = run_seqs[:, 0] if state.rows == n else run_seqs.reshape(n * beams, length)
            state = _cached_step(decoder, fed[:, cur_len - 1], state, cur_len, opts)
            k = keep_k
            step_scores = np.full((n, beams, k), NEG_INF, dtype=np.float32)
            step_scores[:, :, 0] = 0.0
            step_ids = np.full((n, beams, k), opts.pad_id, dtype=np.int64)
            step_ids[:, :, 0] = forced
        else:
            k = min(keep_k, opts.vocab_size)
            if state.rows == n:  # first step: one row per sentence, all beams alike
                first, st = run_seqs[:, 0, 0], state
                call: Call = lambda bias, kk: decoder.step(first, st, bias, kk)  # noqa: E731, B023
                if automata is None:
                    s, i, state = biases.query(call, cur_len, opts, lambda: run_seqs[:, 0, :cur_len], k)  # noqa: B023
                else:
                    masks = _row_masks(automata, states[::beams], active)
                    s, i, state = _masked_query(biases, call, cur_len, opts,
                                                lambda: run_seqs[:, 0, :cur_len], k, masks)  # noqa: B023
                del call
                del st
                # Every beam starts identical; beams 1.. carry the -1e9 start score.
                step_scores = np.broadcast_to(s[:, None, :], (n, beams, k))
                step_ids = np.broadcast_to(i[:, None, :], (n, beams, k))
            else:
                flat = run_seqs.reshape(n * beams, length)
                tokens, st = flat[:, cur_len - 1], state
                call = lambda bias, kk: decoder.step(tokens, st, bias, kk)  # noqa: E731, B023
                if automata is None:
                    s, i, state = biases.query(call, cur_len, opts, lambda: flat[:, :cur_len], k)  # noqa: B023
                else:
                    masks = _row_masks(automata, states, np.repeat(active, beams))
                    s, i, state = _masked_query(biases, call, cur_len, opts,
                                                lambda: flat[:, :cur_len], k, masks)  # noqa: B023
                del call
                del st  # the previous cache: freed now, before the gather below copies the new one
                step_scores = s.reshape(n, beams, k)
                step_ids = i.reshape(n, beams, k)

        # 2. best 2·beams continuations per sentence over all its beams.
        cand_all = (run_scores[:, :, None] + step_scores).reshape(n, beams * k)
        order = _desc_order(cand_all)[:, :keep_k]
        cand_scores = np.take_along_axis(cand_all, order, axis=1)
        cand_beam = order // k
        cand_tok = np.take_along_axis(step_ids.reshape(n, beams * k), order, axis=1)
        hits = (cand_tok == opts.eos_id) | (cur_len + 1 >= length)

        # 3. running beams for the next step: best non-finished candidates.
        running = cand_scores + hits.astype(np.float32) * NEG
        pick = _desc_order(running)[:, :beams]
        src_beam = np.take_along_axis(cand_beam, pick, axis=1)
        new_tok = np.take_along_axis(cand_tok, pick, axis=1)
        sent_idx = np.arange(n)[:, None]
        did = hits & top_mask[None, :]

        # 4. finished hypotheses (only when a top-beams candidate just finished).
        if did.any():
            scored = cand_scores / np.float32(float(cur_len) ** lp)
            full = np.logical_and.reduce(fin_done, axis=1) & (opts.early_stopping is True)
            scored = scored + full[:, None].astype(np.float32) * NEG
            scored = scored + (~unsatisfied)[:, None].astype(np.float32) * NEG
            scored = scored + (~did).astype(np.float32) * NEG
            cand_seqs = run_seqs[sent_idx, cand_beam]
            cand_seqs[:, :, cur_len] = cand_tok
            merged_scores = np.concatenate([fin_scores, scored], axis=1)
            best = _desc_order(merged_scores)[:, :beams]
            fin_scores = np.take_along_axis(merged_scores, best, axis=1)
            fin_seqs = np.take_along_axis(np.concatenate([fin_seqs, cand_seqs], axis=1), best[:, :, None], axis=1)
            merged_lens = np.concatenate([fin_lens, np.full((n, keep_k), cur_len + 1)], axis=1)
            fin_lens = np.take_along_axis(merged_lens, best, axis=1)
            fin_done = np.take_along_axis(np.concatenate([fin_done, did], axis=1), best, axis=1)

        run_scores = np.take_along_axis(running, pick, axis=1)
        run_seqs = run_seqs[sent_idx, src_beam]
        run_seqs[:, :, cur_len] = new_tok
        if automata is not None:
            src_rows = (np.arange(n)[:, None] * beams + src_beam).reshape(-1)
            states = _advance(automata, [states[int(r)] for r in src_rows], new_tok.reshape(-1),
                              np.repeat(active, beams))
        cur_len += 1

        # 5. which sentences can no longer change (transformers' stopping rules, per sentence).
        if opts.early_stopping == "never" and lp > 0.0:
            best_len = length - 1
        else:
            best_len = cur_len - 1
        best_possible = run_scores[:, :1] / np.float32(float(best_len) ** lp)
        worst = np.where(fin_done, fin_scores.min(axis=1, keepdims=True), NEG)
        unsatisfied = unsatisfied & np.any(best_possible > worst, axis=1)
        done = ~unsatisfied | hits.all(axis=1)
        if opts.early_stopping is True:
            done |= fin_done.all(axis=1)

        for a in np.flatnonzero(done):
            sent = int(active[a])
            results[sent] = [
                Hypothesis(fin_seqs[a, j, 1 : fin_lens[a, j]].tolist(), float(fin_scores[a, j]))
                for j in range(min(opts.num_return, beams))
                if fin_done[a, j]
            ]
        keep = np.flatnonzero(~done)
        if keep.size == 0:
            break
        if keep.size != n:
            active = active[keep]
            states = [states[int(a) * beams + b] for a in keep for b in range(beams)]
            run_scores, run_seqs = run_scores[keep], run_seqs[keep]
            fin_scores, fin_seqs, fin_lens, fin_done = fin_scores[keep], fin_seqs[keep], fin_lens[keep], fin_done[keep]
            unsatisfied = unsatisfied[keep]
            src_beam = src_beam[keep]
        # 6. gather caches: rows follow their source beam; skip when nothing moved.
        if state.rows == n:  # after the first step: one row per sentence -> one per beam
            state.take(np.repeat(keep, beams), keep if keep.size != n else None)
        else:
            rows_src = (keep[:, None] * beams + src_beam).reshape(-1)
            if keep.size != n:
                state.take(rows_src, keep)
            elif not np.array_equal(rows_src, np.arange(rows_src.size)):
                state.take(rows_src)
    return results
