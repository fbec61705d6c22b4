"""The probe's findings in whole sentences (``verify probe-n``'s prose), read off the rows of its record
(``verify.sweeps.probe.ProbeResult.as_dict``)."""

from __future__ import annotations

from typing import Any

from ..rank.certainty import PRIME_CONDITION, format_bound
from ..sweeps.probe import cap_decided, final_run, row_exceptions

__all__ = ["probe_summary"]


# over 80 lines: one sentence per finding (stop, steadiness, limit, cap, exceptions, labels, Corollary 1, scale),
# in the order it prints them; each branch is one sentence read off the same rows
def probe_summary(data: dict[str, Any]) -> str:
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
    limit = data.get("limit")
    certified_limit = limit_rank is not None and (limit is None or bool(limit.get("certified_exact")))
    if last is not None and limit_rank is not None and last["rank"] == limit_rank and tokens is None:
        # issue 39: the stop rule names the limit when the last rank meets it, certified or not
        steady_text = (f"at N = {last['tokens']} the rank meets the N-independent limit {limit_rank}"
                       + (", certified: no N can exceed it" if certified_limit else
                          ", which no N exceeds unless the limit's own random event occurred"))
    elif tokens is None:
        steady_text = "the rank was still changing at the last N" if len(rows) > 1 else "only one N was computed"
    else:
        steady_text = f"the rank is {rank} from N = {tokens} on" + _certainty(data.get("saturation_certainty"),
                                                                             "a row of the run is a lower bound only")
    lines = [f"{stop}; {steady_text}."]
    below, unsure, above = row_exceptions(rows, limit_rank)
    if limit is not None:
        how = ("certified exact: it meets the proven derivative bound" if limit["certified_exact"] else
               f"a certified lower bound on the generic limit, equal to it unless an event of probability "
               f"<= {format_bound(limit['probability_bound'])} occurred or p divides the content of every witness "
               f"minor (proven upper bound {limit['upper_bound']}; docs/mathematics.md §7, the rank lemma"
               + (f", Lemma R over {len(limit['runs'])} independent runs" if len(limit.get("runs") or []) > 1 else "")
               + ")")
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
        lines.extend(_below_sentences(rows, below))
    if unsure:
        lines.append(f"At N = {', '.join(map(str, unsure))} a sample of the sequences stopped below min(counting cap, "
                     "limit): those ranks are certified lower bounds only.")
    labels = [row["label"] for row in rows if "label" in row]
    if labels:
        counts = ", ".join(f"{labels.count(name)} {name}"
                           for name in ("certified exact", "probabilistic", "lower bound") if name in labels)
        lines.append(f"Against the positional bound of docs/mathematics.md eq. 7.4 the rows are: {counts}.")
    lower = data["lower_bound"]
    reached = next((row["tokens"] for row in rows if lower is not None and row["rank"] >= lower), None)
    if lower is None:
        lines.append("Corollary 1 gives no lower bound here (it needs depth >= 2 and r > H).")
    elif lower == 0:
        lines.append("Corollary 1's lower bound is 0 here (floor((r - H)/2) = 0): a bound with no content.")
    elif reached is None:
        lines.append(f"Corollary 1's lower bound {lower} was not reached at any N probed.")
    else:
        lines.append(f"Corollary 1's lower bound {lower} is first reached at N = {reached}" + _certainty(
            data.get("tokens_reaching_lower_bound_certainty"),
            f"a smaller N's rank is a lower bound only, so the first N is at most {reached}") + ".")
    if data["conjecture_scale"] is not None:
        lines.append(f"The conjectured scale r L / log3 r is {data['conjecture_scale']:.2f}.")
    if data.get("modulus") is not None:
        lines.append(f"Token ranks are mod p = {data['modulus']}.")
    lines.append(f"Time: {data['seconds']:.1f}s.")
    return " ".join(lines)


def _certainty(head: dict[str, Any] | None, unshown: str) -> str:
    """A headline's certainty in words (issue 47, item 1: ``verify.sweeps.headline``): certified, or the union
    bound of the events it rests on with the N they belong to and the prime condition, or not shown (why)."""
    if not head:
        return ""
    if head["certainty"] == "certified":
        return " (certified)"
    if head["certainty"] == "not shown":
        return f" (not shown: {unshown})"
    where = [f"N = {n}" for n in head["union_over"]] + (["the limit"] if head["limit_event"] else [])
    return (f" (with probability >= 1 - {format_bound(head['probability'])}: the union of the events of "
            f"{', '.join(where)}, {PRIME_CONDITION})")


def _below_sentences(rows: list, below: list) -> list:
    """The rows below min(counting cap, limit), said as their labels allow (issue 39): certified rows prove the
    generic rank below it; probabilistic ones only with the stated probability (and the prime condition);
    unlabelled rows (no positional embedding) are exact at these weights, a statement about the generic rank only
    where a label says so."""
    by_n = {row["tokens"]: row for row in rows}
    certified = [n for n in below if by_n[n].get("label") == "certified exact"]
    chance = [n for n in below if by_n[n].get("label") == "probabilistic"]
    plain = [n for n in below if n not in certified and n not in chance]
    out = []
    if certified:
        out.append(f"At N = {', '.join(map(str, certified))} the generic rank is below min(counting cap, limit), "
                   "certified: the rank meets a bound proven for every weight.")
    if chance:
        worst = max(by_n[n]["probability"] for n in chance)
        out.append(f"At N = {', '.join(map(str, chance))} the rank at these weights is below min(counting cap, limit), "
                   f"and so is the generic rank with probability >= 1 - {format_bound(worst)} (each row's own "
                   f"probability at most that) {PRIME_CONDITION}.")
    if plain:
        out.append(f"At N = {', '.join(map(str, plain))} the exact rank at these weights is below min(counting cap, "
                   "limit).")
    return out
