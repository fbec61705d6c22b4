"""The probe of the conjecture on N (``wies2021_vocabulary_bottleneck.md`` §4 and B.2.2).

Exact separation rank for N = 2, 4, ... of a network on token inputs (vocabulary embedding of
rank r) or on continuous inputs, until the rank has been constant for ``patience`` steps (and
equals the N-independent limit where one is known), or N reaches the maximum.  The conjecture:
Corollary 1's lower bound ((floor((r - H)/2) over 3^(L-2))) already holds for N = Omega(r L / log3 r).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from ..model.embeddings import VocabularyEmbedding
from ..errors import InputError
from ..exact.fields import DEFAULT_PRIME, Field
from ..rank.memory import DEFAULT_MEMORY_GIB
from ..model.partitions import default_partition
from ..rank.routes import rank_once
from ..model.spec import DEFAULT_WEIGHT_RANGE, NetworkSpec, draw_weights
from ..rank.tokens import token_rank
from ..rank.token_caps import count_caps
from ..rank.token_gram import token_prime
from ..rank.token_route import token_limit
from ..rank.positional_bound import positional_label
from ..rank.token_gram import GramModel
from ..rank.tokens import positional_bounds

__all__ = ["ProbeResult", "ProbeDefaults", "PROBE", "probe_tokens", "probe_plan",
           "corollary1_lower_bound", "lemma7_lower_bound",
           "conjecture_scale", "probe_summary"]


@dataclass(frozen=True)
class ProbeDefaults:
    """The defaults of ``verify.probe_n`` and ``verify probe-n`` (the parser reads them from ``PROBE``)."""

    max_tokens: int = 40
    patience: int = 4
    positional_rank: int = 0
    field: str = f"gf:{DEFAULT_PRIME}"
    seed: int = 0
    weight_range: int = DEFAULT_WEIGHT_RANGE
    max_memory_gib: float = DEFAULT_MEMORY_GIB
    device: str = "auto"  # verify.exact.device: the --continuous limit only (probe_sweep.probe_device)


PROBE = ProbeDefaults()


def corollary1_lower_bound(depth: int, rank: int, heads: int) -> int | None:
    """((floor((r - H)/2) over 3^(L-2))) (vocabulary paper, Corollary 1); None for depth 1 or r <= H.

    >>> corollary1_lower_bound(3, 9, 1)  # ((4 over 3)) = binom(6, 3)
    20
    """
    if depth < 2 or rank <= heads:
        return None
    n, k = (rank - heads) // 2, 3 ** (depth - 2)
    return math.comb(n + k - 1, k) if n > 0 else 0


def lemma7_lower_bound(depth: int, rank: int, heads: int) -> int | None:
    """((floor((r - 1 - H)/2) over 3^(L-2))): Theorem 2's bound as its proof gives it for V = r
    (vocabulary paper, Corollary 2 with Lemma 7, footnote 3); None for depth 1 or r - 1 <= H.

    >>> lemma7_lower_bound(3, 9, 1)  # ((3 over 3)) = binom(5, 3)
    10
    """
    if depth < 2 or rank - 1 <= heads:
        return None
    n, k = (rank - 1 - heads) // 2, 3 ** (depth - 2)
    return math.comb(n + k - 1, k) if n > 0 else 0


def conjecture_scale(depth: int, rank: int) -> float | None:
    """r L / log3 r, the conjectured N (a float, for orientation only; None for r = 1)."""
    return None if rank < 2 else rank * depth / math.log(rank, 3)


@dataclass
class ProbeResult:
    spec: NetworkSpec
    mode: str
    vocab: int | None
    rank: int | None
    positional_rank: int
    ranks: list = field(default_factory=list)
    limit_rank: int | None = None
    stopped: str = ""
    seconds: float = 0.0
    compressed: bool = False
    limit: dict | None = None  # token inputs: ``token_route.TokenLimit.as_dict()``
    modulus: int | None = None  # token inputs: the prime of the Gram route's ranks
    patience: int | None = None  # the --patience the run stopped by

    @property
    def saturation(self) -> tuple[int | None, int | None]:
        """(first N of the final constant run, its rank) when that run has at least two steps.

        ``stopped`` says whether the run met the --patience criterion ("saturated") or simply
        reached --max-tokens.
        """
        return final_run(self.ranks)

    def as_dict(self) -> dict:
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
                        "meets limit_rank unless the limit's own random event occurred); count_cap is the counting cap binom(N/2 + V - 1, V - 1) without positional "
                        "embeddings, V^(N/2) with them, a proven upper bound for any weights, and where "
                        "rank == count_cap the cap, not the network, decides the rank; limit_rank is the "
                        "N-independent value, an upper bound on the rank at every N (when not certified_exact: "
                        "unless the limit's random event occurred)" if self.mode == "tokens" else
                        "each rank is the coefficient-route rank at seeded integer weights, mod p")
                       + ": a certified lower bound on the generic separation rank at that N"
                       + ("; compressed ranks equal it with probability >= 1 - r/p" if self.compressed else ""),
        }


def final_run(rows: list) -> tuple[int | None, int | None]:
    """(first N of the rows' final constant run, its rank) when that run has at least two rows."""
    if len(rows) < 2 or rows[-1]["rank"] != rows[-2]["rank"]:
        return None, None
    first = rows[-1]["tokens"]
    for row in reversed(rows):
        if row["rank"] != rows[-1]["rank"]:
            break
        first = row["tokens"]
    return first, rows[-1]["rank"]


def cap_decided(rows: list) -> list:
    """The N of the rows whose rank equals their counting cap (token inputs): there the cap decides."""
    return [row["tokens"] for row in rows if row.get("count_cap") is not None and row["rank"] == row["count_cap"]]


def row_exceptions(rows: list, limit_rank: int | None) -> tuple[list, list, list]:
    """From the rows alone: the N where the rank is below min(count_cap, limit) (exact rows; sampled
    rows, lower bounds only), and the N where it exceeds the limit (only if the limit's random event
    occurred: the limit is then a lower bound on the generic limit, not an upper bound on the rank)."""
    if limit_rank is None:
        return [], [], []
    below = [row for row in rows if row.get("count_cap") is not None
             and row["rank"] < min(row["count_cap"], limit_rank)]
    return ([row["tokens"] for row in below if not row.get("sampled")],
            [row["tokens"] for row in below if row.get("sampled")],
            [row["tokens"] for row in rows if row["rank"] > limit_rank])


def probe_step(spec: NetworkSpec, field: Field, seed: int, tokens: int, vocab: int | None = None,
               rank: int | None = None, positional_rank: int = 0, continuous: bool = False,
               weight_range: int = 2**31, max_memory_gib: float = 16.0, likely: int | None = None) -> dict:
    """sep at one N: ``{"rank", "compressed"}`` (one independent task of a probe sweep); ``likely``: the
    computed token limit (with positions the sample of sequences stops once its rank meets it)."""
    at = spec.with_tokens(tokens)
    if continuous:
        found = rank_once(at, "coefficients", field=field, seed=seed, weight_range=weight_range,
                                max_memory_gib=max_memory_gib)
        return {"rank": found.rank, "compressed": False}
    weights = draw_weights(spec, seed, weight_range)
    embedding = VocabularyEmbedding(spec.width, vocab, rank, positional_rank, seed)
    found = token_rank(at, weights, embedding, field, default_partition(tokens), max_memory_gib=max_memory_gib,
                       seed=seed, likely=likely)
    out = {"rank": found.rank, "compressed": found.compressed_to is not None, "sampled": found.sampled,
           "modulus": found.modulus}
    if positional_rank and found.modulus is not None:  # eq. 7.4's bounds (cached: the sample aimed at them)
        model = GramModel(at, weights, embedding, found.modulus)
        out["bounds"] = positional_bounds(model, tokens)
    return out


def label_row(row: dict, found: dict, spec: NetworkSpec, limit: dict | None,
              weight_range: int = DEFAULT_WEIGHT_RANGE) -> None:
    """Adds a positional row's label (``positional_bound.row_certainty``): "certified exact" where the rank meets
    a bound proven for every weight (eq. 7.4's caps, the counting cap, the derivative bound, a certified limit),
    "probabilistic" with its probability where it meets eq. 7.4 with H at these positions, the computed limit,
    or every sequence was kept (Schwartz-Zippel over the weights), else "lower bound" with how far short."""
    from ..rank.certainty import format_bound

    bounds = found["bounds"]
    proven = min(row["count_cap"], bounds["certified"], *([limit["upper_bound"]] if limit else []))
    label, probability, aim = positional_label(row["rank"], proven, bounds, spec, not found.get("sampled"), weight_range,
                                               found["modulus"], limit["rank"] if limit else None,
                                               bool(limit and limit["certified_exact"]),
                                               limit["probability_bound"] if limit else None)
    if limit and limit["certified_exact"]:
        proven = min(proven, limit["rank"])  # the label text names the smallest proven bound
    row.update(label=label, probability=probability, bound_eq74=bounds["certified"],
               bound_eq74_at_positions=bounds["at_positions"], aim=aim, short_by=aim - row["rank"])
    row["label_text"] = {  # the probability rounded up (format_bound): a printed bound stays a bound
        "certified exact": f"certified exact ({bounds['certified'] if row['rank'] == bounds['certified'] else proven})",
        "probabilistic": f"probabilistic: generic unless an event of probability <= {format_bound(probability or 0.0)}",
    }.get(label, f"lower bound: {aim - row['rank']} below the bound {aim} it aimed at")


def probe_tokens(spec: NetworkSpec, field: Field, seed: int, max_tokens: int, patience: int,
                 vocab: int | None = None, rank: int | None = None, positional_rank: int = 0,
                 continuous: bool = False, weight_range: int = 2**31, max_memory_gib: float = 16.0,
                 progress=None, run_batch=None, batch: int = 1, device=None) -> ProbeResult:
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
            raise InputError("--continuous probes the plain network on continuous inputs; drop --vocab/--rank/--pos-rank")
        result = ProbeResult(spec, "continuous", None, None, 0)
        result.limit_rank = rank_once(spec, "reduced", field=field, seed=seed, weight_range=weight_range,
                                            max_memory_gib=max_memory_gib, placement=device).rank
    else:
        if vocab is None or rank is None:
            raise InputError("token inputs need --vocab V and --rank r (or use --continuous)")
        embedding = VocabularyEmbedding(spec.width, vocab, rank, positional_rank, seed)  # validates first
        result = ProbeResult(spec, "tokens", vocab, rank, positional_rank)
        from ..rank.memory import guard_log2
        from ..rank.tokens import estimate_counts_log2_bytes

        # priced before any work, conservatively: the smallest token grid (N = 2) at this vocabulary
        guard_log2(estimate_counts_log2_bytes(vocab, 2, 1), max_memory_gib, f"the token grid with V = {vocab:,}",
                   "use a smaller --vocab")
        limit = token_limit(spec, draw_weights(spec, seed, weight_range), embedding, token_prime(field.modulus),
                            seed, weight_range)
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
        for tokens, found in zip(wave, found_wave):
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


def probe_plan(spec: NetworkSpec, max_memory_gib: float, vocab: int | None = None, rank: int | None = None,
               positional_rank: int = 0, continuous: bool = False, weight_range: int = 2**31) -> dict:
    """Closed-form estimates for ``--dry-run``: ``{"cost": task -> number, "memory": task -> bytes}``
    for the probe's steps (memory as the cost: both grow with the count vectors or monomials)."""
    from ..rank.memory import log2_multichoose
    from ..rank.token_caps import gram_log2_bytes

    def memory(task) -> float | None:
        n = dict(task.params)["tokens"]
        if continuous:  # at least binom(C + (N-1) d - 1, C) monomials at 500 bytes (rank.routes.coefficient_size)
            log2 = log2_multichoose(spec.depth * math.log2(3) - 1, (n - 1) * spec.width - 1) + math.log2(500)
            return 2.0**log2 if log2 < 1000 else math.inf
        if vocab is None:
            return None
        # the estimate the step itself is refused by (the Gram route's guard in rank.tokens.token_rank)
        log2 = gram_log2_bytes(vocab, n, spec.layer_degree, positional_rank > 0)
        return 2.0**log2 if log2 < 1000 else math.inf

    return {"cost": lambda task: memory(task) or 1.0, "memory": memory}


def probe_summary(data: dict) -> str:
    """The probe's findings in whole sentences (no None: a value that does not exist is said so).

    Every number and list is read off the rows (``data["ranks"]``) and the limit, not from flags set
    while the probe ran; the stop reason says "equals the limit" only where the last rows show it."""
    rows, limit_rank, patience = data["ranks"], data["limit_rank"], data.get("patience")
    last = rows[-1] if rows else None
    tail = rows[-(patience + 1):] if patience else []
    steady = bool(tail) and len(tail) == patience + 1 and len({row["rank"] for row in tail}) == 1
    if data["stopped"] == "saturated" and steady and limit_rank in (None, last["rank"]):
        stop = (f"Stopped because the rank was {last['rank']} at each of the last {patience + 1} N"
                + (" and equals the limit" if limit_rank is not None else ""))
    elif data["stopped"] == "max-tokens" and last is not None:
        stop = f"Stopped at --max-tokens (N = {last['tokens']})"
    elif data["stopped"] in ("saturated", "max-tokens"):
        stop = f"Stopped at N = {last['tokens']}" if last is not None else "Stopped before any N"
    else:
        stop = f"Stopped: {data['stopped']}"
    tokens, rank = final_run(rows)
    if tokens is None:
        steady_text = "the rank was still changing at the last N" if len(rows) > 1 else "only one N was computed"
    else:
        steady_text = f"the rank is {rank} from N = {tokens} on"
    lines = [f"{stop}; {steady_text}."]
    below, unsure, above = row_exceptions(rows, limit_rank)
    limit = data.get("limit")
    if limit is not None:
        how = ("certified exact: it meets the proven derivative bound" if limit["certified_exact"] else
               f"a certified lower bound on the generic limit, equal to it unless an event of probability "
               f"<= {limit['probability_bound']:.2g} occurred (proven upper bound {limit['upper_bound']})")
        if above:
            bound = (f"the rank exceeds it at N = {', '.join(map(str, above))}, so it is below the generic limit "
                     "there")
        else:
            bound = "no N can exceed it" if limit["certified_exact"] else "no N exceeds it unless that event occurred"
        lines.append(f"The N-independent limit is {limit_rank} ({how}); {bound}.")
    elif limit_rank is not None:
        lines.append(f"The N-independent limit is {limit_rank}.")
    decided = cap_decided(rows)
    if decided:
        counted = "sequences" if data.get("positional_rank") else "multisets"
        lines.append(f"At N = {', '.join(map(str, decided))} the rank equals the counting cap: there the number of "
                     f"distinct token {counted}, not the network, decides the rank.")
    if below:
        lines.append(f"At N = {', '.join(map(str, below))} the exact rank is below min(counting cap, limit).")
    if unsure:
        lines.append(f"At N = {', '.join(map(str, unsure))} a sample of the sequences stopped below min(counting cap, "
                     "limit): those ranks are certified lower bounds only.")
    labels = [row["label"] for row in rows if "label" in row]
    if labels:
        counts = ", ".join(f"{labels.count(name)} {name}" for name in ("certified exact", "probabilistic", "lower bound")
                           if name in labels)
        lines.append(f"Against the positional bound of docs/mathematics.md eq. 7.4 the rows are: {counts}.")
    lower = data["lower_bound"]
    reached = next((row["tokens"] for row in rows if lower is not None and row["rank"] >= lower), None)
    if lower is None:
        lines.append("Corollary 1 gives no lower bound here (it needs depth >= 2 and r > H).")
    elif reached is None:
        lines.append(f"Corollary 1's lower bound {lower} was not reached at any N probed.")
    else:
        lines.append(f"Corollary 1's lower bound {lower} is first reached at N = {reached}.")
    if data["conjecture_scale"] is not None:
        lines.append(f"The conjectured scale r L / log3 r is {data['conjecture_scale']:.2f}.")
    if data.get("modulus") is not None:
        lines.append(f"Token ranks are mod p = {data['modulus']}.")
    lines.append(f"Time: {data['seconds']:.1f}s.")
    return " ".join(lines)
