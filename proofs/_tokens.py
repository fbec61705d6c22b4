"""Token-input computations shared by the vocabulary-bottleneck claims."""

from functools import lru_cache

from verify.authoring.network import DEFAULT_PRIME, Field, NetworkSpec
from verify.authoring.probe import probe_tokens

GF = Field(DEFAULT_PRIME)


@lru_cache(maxsize=None)
def probe(depth: int, width: int, heads: int, vocab: int, rank: int, max_tokens: int = 30, pos_rank: int = 0) -> dict:
    """The probe-n result (exact token ranks for N = 2, 4, ..., Gram route) at seed 0, cached per process."""
    spec = NetworkSpec(depth=depth, width=width, heads=heads)
    return probe_tokens(spec, GF, 0, max_tokens, 3, vocab=vocab, rank=rank, positional_rank=pos_rank).as_dict()
