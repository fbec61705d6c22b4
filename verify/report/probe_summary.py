"""The probe's findings in whole sentences (``verify probe-n``'s prose), read off the rows of its record
(``verify.sweeps.probe.ProbeResult.as_dict``)."""

from __future__ import annotations

from ..sweeps.probe import cap_decided, final_run, row_exceptions

__all__ = ["probe_summary"]


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
