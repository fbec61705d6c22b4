"""The probe of the conjecture on N (``wies2021_vocabulary_bottleneck.md`` §4 and B.2.2).

Exact separation rank for N = 2, 4, ... of a network on token inputs (vocabulary embedding of
rank r) or on continuous inputs, until the rank has been constant for ``patience`` steps (and
equals the N-independent limit where one is known), or N reaches the maximum.  The conjecture:
Corollary 1's lower bound ((floor((r - H)/2) over 3^(L-2))) already holds for N = Omega(r L / log3 r).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..defaults import PROBE, ProbeDefaults
from ..errors import InputError
from ..exact.fields import Field
from ..model.embeddings import VocabularyEmbedding
from ..model.partitions import default_partition
from ..model.spec import NetworkSpec, draw_weights
from ..rank.bound import conjecture_scale, corollary1_lower_bound, lemma7_lower_bound
from ..rank.certainty import PRIME_CONDITION
from ..rank.labels import label_row
from ..rank.routes import ROUTES, rank_once
from ..rank.token.caps import count_caps
from ..rank.token.gram import GramModel, token_prime
from ..rank.token.limit import MAX_LIMIT_EVALUATIONS, repeated_limit, token_limit
from ..rank.token.tokens import positional_bounds

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..exact.device import Device

__all__ = ["ProbeResult", "ProbeDefaults", "PROBE", "probe_tokens", "probe_step", "final_run", "cap_decided",
           "row_exceptions"]


@dataclass
class ProbeResult:
    spec: NetworkSpec
    mode: str
    vocab: int | None
    rank: int | None
    positional_rank: int
    ranks: list[Any] = field(default_factory=list)
    limit_rank: int | None = None
    stopped: str = ""
    seconds: float = 0.0
    compressed: bool = False
    limit: dict[Any, Any] | None = None  # token inputs: ``token.limit.TokenLimit.as_dict()``
    modulus: int | None = None  # token inputs: the prime of the Gram route's ranks
    patience: int | None = None  # the --patience the run stopped by

    @property
    def saturation(self) -> tuple[int | None, int | None]:
        """(first N of the final constant run, its rank) when that run has at least two steps.

        ``stopped`` says whether the run met the --patience criterion ("saturated") or simply
        reached --max-tokens.
        """
        return final_run(self.ranks)

    def as_dict(self) -> dict[Any, Any]:
        lower = corollary1_lower_bound(self.spec.depth, self.rank or self.spec.width, self.spec.heads)
        reaching = next((row["tokens"] for row in self.ranks if lower is not None and row["rank"] >= lower), None)
        tokens, rank = self.saturation
        v_equals_r = lemma7_lower_bound(self.spec.depth, self.rank or self.spec.width, self.spec.heads)
        exceptions, undetermined, above = row_exceptions(self.ranks, self.limit_rank)
        return {
            "mode": self.mode, "depth": self.spec.depth, "width": self.spec.width, "heads": self.spec.heads,
            "attn_dim": self.spec.attn_dim, "vocab": self.vocab, "rank": self.rank,
            "positional_rank": self.positional_rank, "ranks": self.ranks,
            "saturation_tokens": tokens, "saturated_rank": rank, "limit_rank": self.limit_rank,
            "lower_bound": lower, "tokens_reaching_lower_bound": reaching,
            "lemma7_lower_bound": v_equals_r,
            "tokens_reaching_lemma7_lower_bound": next((row["tokens"] for row in self.ranks if v_equals_r is not None
                                                         and row["rank"] >= v_equals_r), None),
            "limit": self.limit, "modulus": self.modulus, "patience": self.patience,
            "cap_decides": cap_decided(self.ranks),
            "below_min_of_cap_and_limit": exceptions, "sampled_below_min_of_cap_and_limit": undetermined,
            "above_limit": above,
            "conjecture_scale": conjecture_scale(self.spec.depth, self.rank or self.spec.width),
            "stopped": self.stopped, "compressed": self.compressed, "seconds": round(self.seconds, 3),
            "certified_lower_bound": True,
            "meaning": ("each rank is the exact rank of the full token grid at seeded integer weights and "
                        "embedding, mod p (Gram route, rows marked sampled: a sample of the sequences, a lower "
                        "bound, equal to the rank where it meets count_cap or the derivative bound, and where it "
                        "meets limit_rank unless the limit's own random event occurred); count_cap is the counting cap "
                        "binom(N/2 + V - 1, V - 1) without positional embeddings, V^(N/2) with them, a proven upper "
                        "bound for any weights, and where "
                        "rank == count_cap the cap, not the network, decides the rank; limit_rank is the "
                        "N-independent value, an upper bound on the rank at every N (when not certified_exact: "
                        "unless the limit's random event occurred, whose probability_bound is proven in "
                        "docs/mathematics.md §7, the rank lemma, and multiplied over the limit's independent runs by "
                        "Lemma R)" if self.mode == "tokens" else
                        "each rank is the coefficient-route rank at seeded integer weights, mod p")
                       + ": a certified lower bound on the generic separation rank at that N"
                       + ("; compressed ranks equal it with probability >= 1 - r/p" if self.compressed else "")
                       + "; a row's equality with the generic rank (its certainty and probability_bound) holds as its "
                         "label says, a probabilistic one " + PRIME_CONDITION + " (docs/mathematics.md §3); certainty "
                         "at the top is the weakest row's, field the prime the ranks were computed over",
        }


def final_run(rows: list[Any]) -> tuple[int | None, int | None]:
    """(first N of the rows' final constant run, its rank) when that run has at least two rows."""
    if len(rows) < 2 or rows[-1]["rank"] != rows[-2]["rank"]:
        return None, None
    first = rows[-1]["tokens"]
    for row in reversed(rows):
        if row["rank"] != rows[-1]["rank"]:
            break
        first = row["tokens"]
    return first, rows[-1]["rank"]


def cap_decided(rows: list[Any]) -> list[Any]:
    """The N of the rows whose rank equals their counting cap (token inputs): there the cap decides."""
    return [row["tokens"] for row in rows if row.get("count_cap") is not None and row["rank"] == row["count_cap"]]


def row_exceptions(rows: list[Any], limit_rank: int | None) -> tuple[list[Any], list[Any], list[Any]]:
    """From the rows alone: the N where the rank is below min(count_cap, limit) (rows exact at these weights;
    lower bounds only: a sample whose rank met no bound), and the N where it exceeds the limit (only if the
    limit's random event occurred: the limit is then a lower bound on the generic limit, not an upper bound on
    the rank).  A sampled rank that meets a bound (its label certified exact or probabilistic) is the rank at
    these weights: rows against every column stop as soon as they meet one (issue 39)."""
    if limit_rank is None:
        return [], [], []
    below = [row for row in rows if row.get("count_cap") is not None
             and row["rank"] < min(row["count_cap"], limit_rank)]
    return ([row["tokens"] for row in below if not undetermined(row)],
            [row["tokens"] for row in below if undetermined(row)],
            [row["tokens"] for row in rows if row["rank"] > limit_rank])


def undetermined(row: dict[Any, Any]) -> bool:
    """Whether a probe row is a lower bound only: a sample of the sequences whose rank met no bound."""
    return bool(row.get("sampled")) and row.get("label", "lower bound") == "lower bound"


def probe_step(spec: NetworkSpec, field: Field, seed: int, tokens: int, vocab: int | None = None,
               rank: int | None = None, positional_rank: int = 0, continuous: bool = False,
               weight_range: int = 2**31, max_memory_gib: float = 16.0, likely: int | None = None) -> dict[Any, Any]:
    """sep at one N: ``{"rank", "compressed"}`` (one independent task of a probe sweep); ``likely``: the
    computed token limit (with positions the sample of sequences stops once its rank meets it)."""
    at = spec.with_tokens(tokens)
    if continuous:
        found = rank_once(at, "coefficients", field=field, seed=seed, weight_range=weight_range,
                                max_memory_gib=max_memory_gib)
        return {"rank": found.rank, "compressed": False}
    weights = draw_weights(spec, seed, weight_range)
    embedding = VocabularyEmbedding(spec.width, vocab, rank, positional_rank, seed)
    found = ROUTES["tokens"].rank(at, weights, embedding, field, default_partition(tokens),
                                   max_memory_gib=max_memory_gib, seed=seed, likely=likely)
    out = {"rank": found.rank, "compressed": found.compressed_to is not None, "sampled": found.sampled,
           "modulus": found.modulus}
    if positional_rank and found.modulus is not None:  # eq. 7.4's bounds (cached: the sample aimed at them)
        model = GramModel(at, weights, embedding, found.modulus)
        out["bounds"] = positional_bounds(model, tokens)
    return out


def _repeated_limit(spec: NetworkSpec, embedding: VocabularyEmbedding, p: int, seed: int, weight_range: int):
    """The token limit, repeated with independent draws until its bound is <= 1e-6 (docs/mathematics.md §7, Lemma R;
    at most ``MAX_LIMIT_EVALUATIONS`` evaluations of F more than the first run)."""
    first = token_limit(spec, draw_weights(spec, seed, weight_range), embedding, p, seed, weight_range)
    return repeated_limit(spec, embedding, p, seed, weight_range, repeat_evaluations=MAX_LIMIT_EVALUATIONS,
                          first=first)


def probe_tokens(spec: NetworkSpec, field: Field, seed: int, max_tokens: int, patience: int, vocab: int | None = None,
                 rank: int | None = None, positional_rank: int = 0, continuous: bool = False, weight_range: int = 2**31,
                 max_memory_gib: float = 16.0, progress: Callable[[int, int], object] | None = None,
                 run_batch: Callable[..., list[dict[str, Any]]] | None = None, batch: int = 1,
                 device: Device | None = None) -> ProbeResult:
    """Exact sep(N) for N = 2, 4, ..., max_tokens; see the module docstring for when it stops.

    ``run_batch(list of N) -> list of probe_step values`` computes several N at once (a sweep
    through an executor, ``batch`` at a time); without it the steps run here, one by one.
    Stopping is decided on the ranks in order of N, so the result does not depend on ``batch``.
    ``device``: where the --continuous limit's reduced route eliminates (``verify.exact.device``).
    """
    if max_tokens < 2:
        raise InputError(f"--max-tokens must be at least 2, got {max_tokens}")
    if patience < 1:
        raise InputError(f"--patience must be at least 1, got {patience}")
    if batch < 1:
        raise InputError(f"batch must be at least 1, got {batch}")
    start = time.perf_counter()
    options = {"vocab": vocab, "rank": rank, "positional_rank": positional_rank, "continuous": continuous,
               "weight_range": weight_range, "max_memory_gib": max_memory_gib}
    if continuous:
        if vocab is not None or rank is not None or positional_rank:
            raise InputError("--continuous probes the plain network on continuous inputs; drop "
                             "--vocab/--rank/--pos-rank")
        result = ProbeResult(spec, "continuous", None, None, 0)
        result.limit_rank = rank_once(spec, "reduced", field=field, seed=seed, weight_range=weight_range,
                                            max_memory_gib=max_memory_gib, placement=device).rank
    else:
        if vocab is None or rank is None:
            raise InputError("token inputs need --vocab V and --rank r (or use --continuous)")
        embedding = VocabularyEmbedding(spec.width, vocab, rank, positional_rank, seed)  # validates first
        result = ProbeResult(spec, "tokens", vocab, rank, positional_rank)
        from ..rank.memory import guard_log2
        from ..rank.token.tokens import estimate_counts_log2_bytes

        # priced before any work, conservatively: the smallest token grid (N = 2) at this vocabulary
        guard_log2(estimate_counts_log2_bytes(vocab, 2, 1), max_memory_gib, f"the token grid with V = {vocab:,}",
                   "use a smaller --vocab")
        limit = _repeated_limit(spec, embedding, token_prime(field.modulus), seed, weight_range)
        result.limit_rank, result.limit, result.modulus = limit.rank, limit.as_dict(), limit.modulus
        if positional_rank:
            options["likely"] = limit.rank
    result.patience = patience
    if run_batch is None:
        def run_batch(token_counts, **extra):
            return [probe_step(spec, field, seed, n, **options) for n in token_counts]
    steps = list(range(2, max_tokens + 1, 2))
    done = 0
    while done < len(steps) and not result.stopped:
        wave = steps[done:done + batch]
        try:
            found_wave = run_batch(wave, **{k: options[k] for k in ("likely",) if k in options})
        except InputError as exc:  # refused by an estimate: keep what is computed, say where it stopped
            if not result.ranks:
                raise
            result.stopped = f"refused at N = {wave[0]} ({exc})"
            break
        for tokens, found in zip(wave, found_wave, strict=False):
            value = found["rank"]
            row = {"tokens": tokens, "rank": value}
            if not continuous:
                cap = count_caps(vocab, tokens, positional_rank > 0).cap
                row.update(count_cap=cap, cap_decides=value == cap, sampled=bool(found.get("sampled")))
                if "bounds" in found:
                    label_row(row, found, spec, result.limit, weight_range)
            result.ranks.append(row)
            result.compressed |= found["compressed"]
            done += 1
            if progress is not None:
                progress(done, len(steps))
            tail = [row["rank"] for row in result.ranks[-(patience + 1):]]
            steady = len(tail) == patience + 1 and len(set(tail)) == 1
            if steady and (result.limit_rank is None or value == result.limit_rank):
                result.stopped = "saturated"
                break
    if not result.stopped:
        result.stopped = "max-tokens"
    result.seconds = time.perf_counter() - start
    return result
