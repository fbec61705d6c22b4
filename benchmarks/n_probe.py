"""The probe of the conjecture on N on token inputs: each speed target beside its measured figure.

Targets (issue 19): depth 2, width 4, V = r = 3, positional rank 2, to saturation in under 5 s (281 s
with full enumeration before the Gram route); depth 3 with positional embeddings to saturation in
under 2 min; without positions N up to 200 at depths 2 and 3 in under 1 min.  One run at a time, in
this process (probe_tokens, no store), default field (token ranks mod 2^31 - 1).  Each run prints its
wall seconds (judged against the target) and its CPU seconds with the load average beside them: on a
shared machine the CPU time is what the run would take alone (the route is single-threaded).

Measured on the shared 2-core machine (load average 7-15 from other work, so CPU seconds are the figures
to compare), depth 3, d_x = 4, V = r = 3, positional rank 1 (limit 705), old code (commit aed10af) and
new (a48f8b7) in one run, CPU seconds: the limit 27.5 -> 6.0 (2.54 -> 1.50 million evaluations of F: a
doubled sample keeps its points); N = 14 (sample doubled to 1442 a side) 20.8 -> 7.2; N = 22
(saturated) 21.9 -> 1.7 (2.03 -> 0.52 million evaluations: the sample starts at the limit + 16, not
2t + 16; 10.8 -> 3.3 us of CPU per evaluation: limb matmuls, S and layer 1 once per side point, only
row p of the last layer).  Then (ad558c2, the last layer's row without S_L, a later run): limit 5.3,
N = 14 6.3, N = 22 1.3 (2.4 us per evaluation).  This script at ad558c2: the whole probe to saturation
36.5 s CPU, 172 s wall at load 12.7 (so MISSED on wall, met on CPU); before (aed10af) 230-260 s wall
at load 2-4 (its CPU-timed rerun hit a 900 s wall limit at load 12-15).
Run: python benchmarks/n_probe.py
"""

import os
import time

from verify import DEFAULT_PRIME, Field, NetworkSpec
from verify.cli.script_args import ScriptParser, run_script  # one-line refusals, exit 2, as the verify command
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
    ScriptParser(prog="n_probe.py", description=__doc__.splitlines()[0]).parse_args()  # no flags: any is refused
    print("| run | target | wall | cpu | load | stopped | limit (certified) | ranks (first 12) |")
    print("|---|---|---|---|---|---|---|---|")
    for what, depth, width, vocab, pos_rank, max_tokens, patience, target in RUNS:
        load = os.getloadavg()[0]
        start, cpu = time.perf_counter(), time.process_time()
        data = probe_tokens(NetworkSpec(depth=depth, width=width), GF, 0, max_tokens, patience, vocab=vocab,
                            rank=vocab, positional_rank=pos_rank).as_dict()
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        ranks = ", ".join(str(row["rank"]) for row in data["ranks"][:12])
        print(f"| {what} | < {target} s | {seconds:.1f} s{'' if seconds < target else ' (MISSED)'} | {cpu:.1f} s | "
              f"{load:.1f} | {data['stopped']} at N = {data['ranks'][-1]['tokens']} | {data['limit_rank']} "
              f"({data['limit']['certified_exact']}) | {ranks} |", flush=True)


if __name__ == "__main__":
    run_script(main, "n_probe.py")
