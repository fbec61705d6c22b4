"""Lemma 6 (first supplement): the vector rearrangement inequality, exhaustively on small sets."""

import random
from itertools import permutations

from verify.authoring import Claim, Property, converse

from ._common import MAIN, Source


def _search(distinct=True):
    rng = random.Random(0)
    cases = 0
    for _ in range(400):
        dim = rng.randint(1, 3)
        count = rng.randint(2, min(5, 4**dim))
        vectors = set()
        while len(vectors) < count:
            vectors.add(tuple(rng.randint(0, 3) for _ in range(dim)))
        vectors = list(vectors)
        if not distinct:  # drop the hypothesis: repeat the first vector
            vectors[-1] = vectors[0]
        diagonal = sum(sum(a * a for a in v) for v in vectors)
        for sigma in permutations(range(count)):
            if list(sigma) == list(range(count)):
                continue
            cases += 1
            cross = sum(sum(a * b for a, b in zip(vectors[i], vectors[sigma[i]], strict=False)) for i in range(count))
            if not cross < diagonal:
                return False, f"fails for {vectors}, sigma={sigma}", {"vectors": vectors, "sigma": list(sigma)}
    return True, f"strict inequality in all {cases} (set, permutation) cases, entries 0..3, exact integers", None


CLAIM = Claim(
    id="levine2020_supp1_lemma6_rearrangement",
    source=Source(MAIN, "supplement B.3", "Lemma 6 (vector rearrangement inequality)"),
    statement="For distinct non-negative vectors v^(1..N) and any permutation sigma != identity, "
              "sum_i <v^(i), v^(sigma(i))> < sum_i ||v^(i)||^2.",
    checks=[Property(_search, name="every permutation of 400 random small sets",
                     perturb={"the same for vectors that are not all different": converse(_search, distinct=False)})],
)
