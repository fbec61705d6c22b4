"""Section D of the revised supplement: 'the network sizes range between 1.1e6 and 5.8e8', recomputed from
Table 1.  'Network size' is read as the paper defines it (rule 4): 'the overall (non-embedding) network size,
given by 12 L d_x^2' (main text, §1); the count with the vocabulary embedding is shown as information."""

from verify.authoring import Claim, QuotedNumber

from ._common import REVISED, Source
from ._tables_revised import TABLE1, VOCABULARY, non_embedding_parameters, parameters_with_embedding


def _smallest(count):
    return lambda: min(count(depth, width) for depth, width in TABLE1)


def _largest(count):
    return lambda: max(count(depth, width) for depth, width in TABLE1)


def _checks(count, reading):
    return [QuotedNumber(_smallest(count), "1.1e6", "0.05e6", label=f"smallest network ({reading})",
                         name=f"smallest size, {reading}"),
            QuotedNumber(_largest(count), "5.8e8", "0.05e8", label=f"largest network ({reading})",
                         name=f"largest size, {reading}")]


def with_embedding_range() -> str:
    """The smallest and largest sizes counting the vocabulary embedding V d_x too (information)."""
    sizes = [parameters_with_embedding(depth, width) for depth, width in TABLE1]
    return f"{min(sizes):,} to {max(sizes):,}"


def embedding_fraction() -> str:
    """The largest share of the vocabulary embedding V d_x in 12 L d_x^2 + V d_x over Table 1 (information)."""
    share, depth, width = max((VOCABULARY * w / parameters_with_embedding(d, w), d, w) for d, w in TABLE1)
    return f"{share:.3f} at L={depth} d_x={width} (float)"


CLAIM = Claim(
    id="levine2020_revised_training_sizes",
    source=Source(REVISED, "D (experimental details)", "'network sizes range between 1.1e6 and 5.8e8'"),
    statement="Over the trained networks (Table 1) the network sizes range between 1.1e6 and 5.8e8.",
    formulas={"non_embedding": "12 L d_x^2", "with_embedding": f"12 L d_x^2 + {VOCABULARY} d_x"},
    domain="every cell of Table 1; printed values taken to +-half a unit of their last digit",
    reading="Read as printed (rule 4): the paper defines the term, 'the overall (non-embedding) network size, given "
            "by 12 L d_x^2' (main text, §1, after Kaplan et al. 2020), so the sizes are 12 L d_x^2 over Table 1's "
            "cells.  Section D mentions the embedding only as 'a small fraction of the learned parameters', not as "
            f"part of the size.  Information: counting the embedding V d_x (V = {VOCABULARY}) too, the sizes run "
            "from " + with_embedding_range() + "; largest embedding share " + embedding_fraction() + ".",
    checks=_checks(non_embedding_parameters, "12 L d_x^2"),
)
