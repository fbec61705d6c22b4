"""The parameter counts of §1, §2 and §5: 4LH weight matrices, 12 d_x^2 per layer, 12 L d_x^2 in all."""

from hypothesis import strategies as st

from verify.authoring import Cases, Claim, shifted
from verify.authoring.network import NetworkSpec, divisors, draw_weights

from ._common import MAIN, L, Source, d_x

#: W^FF1 in R^{4 d_x x d_x} and W^FF2 in R^{d_x x 4 d_x} (§2.1, after eq. 2): 8 d_x^2 per layer.
FEED_FORWARD = 4 * d_x * d_x + d_x * 4 * d_x
PRINTED_LAYER = 12 * d_x**2
PRINTED_NETWORK = 12 * L * d_x**2
#: Further specs for the derandomised hypothesis search: depth 1-6, width 1-40, every head count of the width.
SPECS = st.tuples(st.integers(1, 6), st.integers(1, 40)).flatmap(
    lambda t: st.sampled_from(divisors(t[1])).map(lambda h: (t[0], t[1], h)))
CASES = [(depth, width, heads) for depth in (1, 2, 3) for width in (1, 2, 3, 4, 6, 12) for heads in divisors(width)]


def _case(depth, width, heads, matrix_shift=0, layer_shift=0):
    """Count the matrices and entries the toolkit draws for eq. 3 (shapes of eq. 1), add eq. 2's feed-forward.

    ``matrix_shift`` / ``layer_shift`` state the perturbed counts 4LH + 1 and 12 d_x^2 + 1."""
    spec = NetworkSpec(depth=depth, width=width, heads=heads)
    weights = draw_weights(spec, 0)
    matrices = entries = 0
    for layer in weights.layers:
        for name in ("query", "key", "value", "output"):
            for m in getattr(layer, name):
                matrices += 1
                entries += len(m) * len(m[0])
    total = entries + depth * int(FEED_FORWARD.subs(d_x, width))
    want = {"matrices": 4 * depth * heads + matrix_shift,
            "per_layer": int(PRINTED_LAYER.subs(d_x, width)) + layer_shift,
            "network": int(PRINTED_NETWORK.subs({L: depth, d_x: width})) + depth * layer_shift}
    holds = matrices == want["matrices"] and total == depth * want["per_layer"] == want["network"]
    line = f"L={depth} d_x={width} H={heads}: {matrices} matrices, {entries}+{total - entries} = {total} parameters"
    return holds, line, None if holds else {"depth": depth, "width": width, "heads": heads,
                                            "matrices": matrices, "parameters": total, **want}


CLAIM = Claim(
    id="levine2020_parameter_count",
    source=Source(MAIN, "§2.1-2.2", "parameter count after eq. 2 (12 d_x^2 per layer), 4LH matrices after eq. 4, "
                                    "network size 12 L d_x^2 (§1, §5)"),
    statement="Theta holds 4LH weight matrices; with W^FF1 in R^{4d_x x d_x}, W^FF2 in R^{d_x x 4d_x} a layer has "
              "12 d_x^2 parameters and a depth-L network 12 L d_x^2 (no embeddings, no biases).",
    formulas={"feed_forward": FEED_FORWARD, "per_layer": PRINTED_LAYER, "network": PRINTED_NETWORK},
    domain="L = 1-3, d_x in {1, 2, 3, 4, 6, 12}, every head count H dividing d_x (d_a = d_x/H); 40 more specs "
           "up to L = 6, d_x = 40 from a derandomised hypothesis search",
    reading="Attention parameters are counted from the matrices the toolkit draws for eq. 3 (shapes of eq. 1: "
            "H heads of W^K, W^Q, W^V in R^{d_a x d_x} and W^O in R^{d_x x d_a}); biases and layer-norm gains are "
            "not counted, as in Kaplan et al.'s non-embedding size.",
    checks=[Cases(CASES, _case, name="matrices and parameters per spec", strategy=SPECS, search=40,
                  perturb={"4LH + 1 weight matrices": shifted(_case, matrix_shift=1),
                           "12 d_x^2 + 1 parameters per layer": shifted(_case, layer_shift=1)})],
)
