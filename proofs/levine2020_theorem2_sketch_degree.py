"""The proof sketch of Theorem 2 says y_p^i is 'a polynomial of degree 2C = 3^L - 1'.

Rule 4 reread: this stays ambiguous, because the text itself uses 'degree' both ways.  As printed in the sketch,
'y is a polynomial of degree 2C' is the total degree (3^L: false).  But the formal proof the sketch summarises
(supplement A.3, 'an upper bound on the separation rank is implied by the polynomial degree of y') groups the
monomials by 'the powers' n_1 + ... + n_{d_x} = 2C(L) of the summed inputs' coordinates, the query coordinate
x^(i)_{alpha_{C(L)+1}} summed separately: the degree it calls y's is 2C in the summed inputs (true)."""

from verify.authoring import Claim, Property, neighbour
from verify.authoring.network import Field, NetworkSpec, draw_weights, output_polynomial

from ._common import MAIN, Source

SPECS = [(1, 2, 1, 2), (2, 2, 2, 2), (1, 3, 3, 2), (3, 1, 1, 2)]


def _degrees(degree_of):
    def check():
        seen = []
        for depth, width, heads, tokens in SPECS:
            spec = NetworkSpec(depth=depth, width=width, heads=heads, tokens=tokens)
            poly = output_polynomial(spec, draw_weights(spec, 0), Field(2**61 - 1))
            got, want = degree_of(spec, poly)
            seen.append(f"L={depth}: {got} (stated {want})")
            if got != want:
                return False, "; ".join(seen), {"depth": depth, "degree": got, "stated": want}
        return True, "; ".join(seen), None
    return check


def _total(spec, poly):
    return int(poly.total_degree()), 3**spec.depth - 1


def _split(spec, poly):
    """Corrected: total degree 3^L, of which 2C in the non-query positions (the query's x^i is one more)."""
    query = set(range(spec.position * spec.width, (spec.position + 1) * spec.width))
    others = max(sum(e for v, e in enumerate(m) if v not in query) for m in poly.monoms())
    return (int(poly.total_degree()), others), (3**spec.depth, 3**spec.depth - 1)


def _split_shifted(spec, poly):
    """Perturbed: the stated degrees one higher."""
    got, (total, others) = _split(spec, poly)
    return got, (total, others + 1)


CLAIM = Claim(
    id="levine2020_theorem2_sketch_degree",
    source=Source(MAIN, "§4.2", "proof sketch of Theorem 2"),
    statement="y_p^i is a polynomial of degree 2C = 3^L - 1.",
    reading="Two readings of 'degree 2C', each in the text.  Total degree, the sketch's own words 'y_p^i is a "
            "polynomial of degree 2C' (3^L, not 2C: erratum).  Degree in the summed inputs x^{j_1..j_C} of eq. 4, "
            "to which 'note that C is as defined in eq. 4' points, and which the formal proof (first supplement A.3, "
            "'implied by the polynomial degree of y') counts: 'n_1 + ... + n_{d_x} = 2C(L) (The powers)', the query "
            "coordinate x^(i)_{alpha_{C(L)+1}} summed apart (holds).  The outcomes differ: ambiguous.",
    checks=[Property(_degrees(_total), name="total degree of y_p^i", reading="total degree"),
            Property(_degrees(_split), name="degree in the summed (non-query) positions", reading="summed inputs",
                     perturb={"degree 2C + 1 in the summed positions":
                              neighbour(_degrees, factory=True, claim=_split, degree_of=_split_shifted)})],
    expected="ambiguous",
    corrected_statement="y_p^i has total degree 3^L = 2C + 1; its degree in the non-query positions is 2C = 3^L - 1 "
                        "(the query x^i contributes one more factor).",
    corrected_checks=[Property(_degrees(_split), name="total and non-query degrees")],
)
