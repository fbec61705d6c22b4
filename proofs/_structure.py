"""Computations shared by the structural claims (partition invariance, grid bounds)."""

from verify.authoring.network import NetworkSpec, balanced_partitions
from verify.authoring.ranks import rank_once as separation_rank  # one run at the given seed

SMALL = [(1, 2, 1, 4), (1, 3, 3, 4), (2, 2, 1, 4), (2, 2, 2, 4), (1, 2, 2, 6), (2, 2, 1, 6)]


def partition_invariance(outputs_and_positions=((0, 0),)):
    """Ranks over every balanced partition agree, for each small spec and (output, position)."""
    def check():
        cases = 0
        for depth, width, heads, tokens in SMALL:
            for output, position in outputs_and_positions:
                if output >= width or position >= tokens:
                    continue
                spec = NetworkSpec(depth=depth, width=width, heads=heads, tokens=tokens,
                                   output=output, position=position)
                ranks = {part: separation_rank(spec, partition=part).rank for part in balanced_partitions(tokens)}
                cases += len(ranks)
                if len(set(ranks.values())) != 1:
                    return False, f"ranks differ for {spec}: {ranks}", {"spec": str(spec), "ranks": str(ranks)}
        return True, f"equal ranks over every balanced partition ({cases} partition ranks, coefficient route)", None
    return check
