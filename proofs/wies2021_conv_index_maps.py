"""The convolution embedding's index maps: eq. 2's input index (M/N)(i-1)+j, Theorem 4's identification of
[N] x [M/N] with [M], and steps (1)-(2) of Lemma 5's proof (alpha = k(lambda-1)+l has one solution;
alpha = k floor((alpha-1)/k) + ((alpha-1) mod k) + 1)."""

from verify.authoring import Claim, Property, shifted

from ._common import WIES, Source


def _patches(shift: int = 0):
    """eq. 2: (i, j) -> (M/N)(i-1) + j + shift is a bijection of [N] x [M/N] onto [M]."""
    for positions in range(1, 9):
        for width in range(1, 7):
            m = positions * width
            image = sorted(width * (i - 1) + j + shift for i in range(1, positions + 1) for j in range(1, width + 1))
            if image != list(range(1, m + 1)):
                return False, f"N={positions}, M/N={width}: image is not [M] (first {image[0]}, last {image[-1]})", \
                    {"N": positions, "M/N": width}
    return True, "N = 1..8, M/N = 1..6: (M/N)(i-1)+j runs over [M] exactly once", None


def _digits(shift: int = 0):
    """Lemma 5 (2): alpha = k floor((alpha-1)/k) + ((alpha-1) mod k) + 1 + shift."""
    for k in range(1, 13):
        for alpha in range(1, 201):
            if k * ((alpha - 1) // k) + (alpha - 1) % k + 1 + shift != alpha:
                return False, f"k={k}, alpha={alpha}", {"k": k, "alpha": alpha}
    return True, "k = 1..12, alpha = 1..200", None


def _unique(shift: int = 0):
    """Lemma 5 (1): for d_input >= ceil(d_x/k), each alpha in [d_x] has exactly one (l, lambda) in
    [k] x [d_input] with alpha = k(lambda-1) + l (+ shift), namely l = ((alpha-1) mod k)+1,
    lambda = floor((alpha-1)/k)+1, which is the template entry step (1) reads."""
    for width in range(1, 13):
        for k in range(1, 7):
            d_input = -(-width // k)
            for alpha in range(1, width + 1):
                hits = [(l, lam) for l in range(1, k + 1) for lam in range(1, d_input + 1)
                        if k * (lam - 1) + l + shift == alpha]
                if hits != [((alpha - 1) % k + 1, (alpha - 1) // k + 1)]:
                    return False, f"d_x={width}, k={k}, alpha={alpha}: solutions {hits}", {"d_x": width, "k": k,
                                                                                           "alpha": alpha}
    return True, "d_x = 1..12, k = 1..6, d_input = ceil(d_x/k): one (l, lambda) per alpha, the one step (1) reads", None


SHIFT = "index map shifted by one"

CLAIM = Claim(
    id="wies2021_conv_index_maps",
    source=Source(WIES, "§2.1 eq. 2; appendix A.3; appendix B.2.1", "index maps of the convolution embedding (eq. 2, "
                                                                    "Theorem 4's [N] x [M/N] = [M], Lemma 5 steps "
                                                                    "(1)-(2))"),
    statement="(M/N)(i-1)+j is a bijection [N] x [M/N] -> [M]; for each alpha there is a single (l, lambda) in "
              "[k] x [d_input] with alpha = k(lambda-1)+l; alpha = k floor((alpha-1)/k) + ((alpha-1) mod k) + 1.",
    domain="N = 1..8 and M/N = 1..6; d_x = 1..12, k = 1..6; alpha = 1..200, k = 1..12",
    reading="Lemma 5 needs d_input >= ceil(d_x/k) for every coordinate alpha to be read (the kernel has k d_input "
            "inputs per position); that is the domain checked.",
    checks=[Property(_patches, name="eq. 2 / Theorem 4: [N] x [M/N] -> [M]",
                     perturb={SHIFT: shifted(_patches, shift=1)}),
            Property(_unique, name="Lemma 5 step (1): one (l, lambda) per alpha",
                     perturb={SHIFT: shifted(_unique, shift=1)}),
            Property(_digits, name="Lemma 5 step (2): alpha's digits", perturb={SHIFT: shifted(_digits, shift=1)})],
)
