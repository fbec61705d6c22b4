"""Shared computations for the claims on the form of eq. 3: degrees of y_p^i and layer compositions."""

from verify.authoring.network import Field, NetworkSpec, Weights, draw_weights, output_polynomial

QQ = Field(None)


def degrees(depth, width, heads, tokens=2, residual=False) -> set[int]:
    """The total degrees of the monomials of y_p^i (exact integer polynomial, seed 0)."""
    spec = NetworkSpec(depth=depth, width=width, heads=heads, tokens=tokens, residual=residual)
    poly = output_polynomial(spec, draw_weights(spec, 0), QQ)
    return {int(sum(m)) for m in poly.monoms()}


def symbolic_inputs(width, tokens):
    ctx = QQ.poly_context(("x", width * tokens))
    gens = ctx.gens()
    return [[gens[j * width + a] for a in range(width)] for j in range(tokens)]


def one_layer(weights: Weights, index: int) -> Weights:
    return Weights((weights.layers[index],), weights.seed, weights.weight_range)
