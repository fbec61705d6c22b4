"""The probe of the conjecture on N on token inputs: each speed target beside its measured figure.

Targets (issue 19): depth 2, width 4, V = r = 3, positional rank 2, to saturation in under 5 s (281 s
with full enumeration before the Gram route); depth 3 with positional embeddings to saturation in
under 2 min; without positions N up to 200 at depths 2 and 3 in under 1 min.  One run at a time, in
this process (probe_tokens, no store), default field (token ranks mod 2^31 - 1).
Run: python benchmarks/n_probe.py
"""

import time

from verify import DEFAULT_PRIME, Field, NetworkSpec
from verify.sweeps.probe import probe_tokens

GF = Field(DEFAULT_PRIME)
#: (what, depth, width, V = r, positional rank, max N, patience, target seconds)
RUNS = [
    ("depth 2, V=r=3, R=2, to saturation", 2, 4, 3, 2, 40, 4, 5),
    ("depth 3, V=r=2, R=1, d_x=3, to saturation", 3, 3, 2, 1, 60, 4, 120),
    ("depth 3, V=r=3, R=1, d_x=4, to saturation (limit 705)", 3, 4, 3, 1, 30, 4, 120),
    ("depth 2, V=r=3, no positions, N = 2..200", 2, 4, 3, 0, 200, 1000, 60),
    ("depth 3, V=r=3, no positions, N = 2..200", 3, 4, 3, 0, 200, 1000, 60),
]


def main():
    print("| run | target | measured | stopped | limit (certified) | ranks (first 12) |")
    print("|---|---|---|---|---|---|")
    for what, depth, width, vocab, pos_rank, max_tokens, patience, target in RUNS:
        start = time.perf_counter()
        data = probe_tokens(NetworkSpec(depth=depth, width=width), GF, 0, max_tokens, patience, vocab=vocab,
                            rank=vocab, positional_rank=pos_rank).as_dict()
        seconds = time.perf_counter() - start
        ranks = ", ".join(str(row["rank"]) for row in data["ranks"][:12])
        print(f"| {what} | < {target} s | {seconds:.1f} s{'' if seconds < target else ' (MISSED)'} | "
              f"{data['stopped']} at N = {data['ranks'][-1]['tokens']} | {data['limit_rank']} "
              f"({data['limit']['certified_exact']}) | {ranks} |", flush=True)


if __name__ == "__main__":
    main()
