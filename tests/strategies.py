"""Hypothesis strategies for small network specs shared by the tests."""

from hypothesis import strategies as st

from verify import NetworkSpec


@st.composite
def small_specs(draw, depths=(1, 2), widths=(2, 3), residual=None, tokens=None):
    depth = draw(st.sampled_from(depths))
    width = draw(st.sampled_from(widths))
    heads = draw(st.sampled_from([h for h in range(1, width + 1) if width % h == 0]))
    res = draw(st.booleans()) if residual is None else residual
    output = draw(st.integers(0, width - 1))
    return NetworkSpec(depth=depth, width=width, heads=heads, residual=res, output=output, tokens=tokens)
