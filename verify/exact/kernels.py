"""The exact kernels a field ranks its matrices with, chosen in one place: ``kernel_for``.

A kernel offers ``rank``, ``null_space`` (an object with ``rank``, ``nullity`` and ``rows(mix)``),
``product`` ((left @ right) mod p as int64 residues) and ``bytes_per_entry`` (what a matrix it
eliminates costs in memory, for the estimates), plus the ``name`` results record.  Rank code asks
``kernel_for(field, rows, cols)`` and never tests moduli itself (as a galois ``FieldArray`` or a
SymPy ``DomainMatrix`` owns its arithmetic).

* ``FloatKernel`` (``verify.exact.elimination``, name ``float64-blas-pluq``): GF(p), p < 2^50,
  shortest side at least ``FLOAT_MIN``: the recursive PLUQ with float64 BLAS products, every
  factorization checked (``verify.exact.factorcheck``).  It imports no FLINT, so a GPU script can
  import this module (``xp=cupy``) without python-flint.
* ``FlintKernel`` (name ``flint``): everything else, FLINT's ``nmod_mat`` over GF(p) and
  ``fmpz_mat``/``fmpq_mat`` over Q.  Its products mod p use the float64 limbs of
  ``verify.exact.floatmod`` below 2^50 and three 21-bit limbs (``three_limb_product``) up to 2^63,
  so a large block never has to be copied entry by entry into FLINT (about 140 ns an entry).
* ``BlockLUKernel`` (``verify.exact.blocklu``, name ``float64-block-lu``): GF(p) with one-limb
  products, on a GPU, for ranks of matrices whose shortest side is at least ``GPU_MIN``: block LU
  without pivoting (every flop in a large product), its Schur complement ranked by the PLUQ on the
  same device.  Null spaces still come from the PLUQ.  Selectable on the CPU (``kernel="block-lu"``)
  for tests and comparison.

The device (``verify.exact.device``): ``kernel_for(..., device=)`` gives the float kernels the
device's array module; FLINT always runs on the CPU.
"""

from __future__ import annotations

import numpy as np

from .blocklu import BLOCK_LU
from .device import CPU, GPU_MIN
from .elimination import ELIMINATION, rank_mod_p
from .floatmod import MAX_PRIME, ModArith
from .nullspace import null_space

__all__ = ["Kernel", "FloatKernel", "FlintKernel", "BlockLUKernel", "kernel_for", "KERNELS", "three_limb_product", "FLINT", "FLOAT_MIN",
           "FLOAT_BYTES", "FLINT_BYTES"]

#: How results name FLINT's elimination (nmod_mat over GF(p), fmpz_mat over Q).
FLINT = "flint"
#: Shortest side from which a GF(p) matrix (p < 2^50) goes to the float64 elimination; below it
#: FLINT's conversion and elimination cost less (measured on 50..1600-sized squares).
FLOAT_MIN = 256
#: Bytes an entry held by the float elimination: one float64, eliminated in place.
FLOAT_BYTES = 8
#: Bytes an entry held by FLINT: the int64 slice, its transposed copy, the nmod_mat and the
#: null-space basis (25.8 measured on a 4000 x 4032 slice).
FLINT_BYTES = 28

LIMB_BITS = 21
#: Inner indices per float64 product of 21-bit limbs: (2^21 - 1)^2 * 2^11 < 2^53, every sum exact.
INNER_CHUNK = 2**11


class Kernel:
    """An exact kernel for one field (see the module notes)."""

    name = ""
    bytes_per_entry = 0
    #: Whether a rank costs far less than a null space (then worth trying against a proven bound first).
    rank_first = False

    @property
    def null_space_name(self) -> str:
        """How results name the elimination behind ``null_space``."""
        return self.name

    def __init__(self, field, device=CPU):
        self.field, self.device = field, device

    def rank(self, array, overwrite: bool = False) -> int:
        raise NotImplementedError

    def null_space(self, array, overwrite: bool = False):
        raise NotImplementedError

    def product(self, left: np.ndarray, right: np.ndarray, overwrite: bool = False) -> np.ndarray:
        """(left @ right) mod p as int64 residues in [0, p), for int64 inputs (any integers);
        ``overwrite`` lets the conversion of ``right`` reuse its memory (``right`` is consumed)."""
        p = self.field.modulus
        if p < MAX_PRIME:
            ar = ModArith(p)
            out = np.zeros((left.shape[0], right.shape[1]))
            ar.submul(out, ar.from_ints(left), ar.from_ints(right, overwrite))  # -(left @ right)
            return (-ar.to_ints(out)) % p
        return three_limb_product(np.mod(left, p), np.mod(right, p), p)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name}, GF({self.field.modulus}))"


class FloatKernel(Kernel):
    """GF(p), p < 2^50: the float64 BLAS PLUQ, factorization checked."""

    name = ELIMINATION
    bytes_per_entry = FLOAT_BYTES

    def rank(self, array, overwrite: bool = False) -> int:
        return rank_mod_p(array, self.field.modulus, xp=self.device.xp, overwrite=overwrite)

    def null_space(self, array, overwrite: bool = False):
        return null_space(array, self.field.modulus, xp=self.device.xp, overwrite=overwrite)


class BlockLUKernel(FloatKernel):
    """GF(p), one-limb products: ranks by block LU without pivoting (``verify.exact.blocklu``), exact
    (the Schur complement left by a singular diagonal block goes to the PLUQ); null spaces by the PLUQ."""

    name = BLOCK_LU
    rank_first = True

    @property
    def null_space_name(self) -> str:
        return ELIMINATION

    def rank(self, array, overwrite: bool = False) -> int:
        from .blocklu import rank as block_lu_rank

        ar = ModArith(self.field.modulus, self.device.xp)
        # a numpy input goes to the device in row bands, straight into the float64 array eliminated
        # (never a whole int64 copy there); the input itself is not modified unless ``overwrite``
        found = block_lu_rank(ar.from_ints(array, overwrite=overwrite), ar, small=max(array.shape))
        return found["rank"]


class _FlintNullSpace:
    """FLINT's right null space with the interface of ``verify.exact.nullspace.NullSpace``."""

    def __init__(self, matrix):
        self.cols = matrix.ncols()
        self.basis, self.nullity = matrix.nullspace()
        self.rank = self.cols - self.nullity
        self.modulus = matrix.modulus()

    def rows(self, mix: np.ndarray | None = None) -> np.ndarray:
        """Null vectors as rows: the basis (t = nullity) or the basis times ``mix`` (nullity x t)."""
        basis, cols, nullity = self.basis, self.cols, self.nullity
        if mix is None:  # python-flint cannot slice columns: read the first ``nullity`` entry by entry
            return np.array([int(basis[i, c]) for c in range(nullity) for i in range(cols)],
                            dtype=np.int64).reshape(nullity, cols)
        import flint

        pad = flint.nmod_mat(cols, mix.shape[1], self.modulus)
        for i in range(nullity):
            for j in range(mix.shape[1]):
                pad[i, j] = int(mix[i, j])
        mixed = basis * pad  # cols x t: random combinations of the null-space columns
        return np.array([int(v) for v in mixed.transpose().entries()], dtype=np.int64).reshape(mix.shape[1], cols)


class FlintKernel(Kernel):
    """FLINT: GF(p) for any word-size p (nmod_mat), and Q."""

    name = FLINT
    bytes_per_entry = FLINT_BYTES

    def rank(self, array, overwrite: bool = False) -> int:
        return self.field.from_rows(np.ascontiguousarray(array)).rank()

    def null_space(self, array, overwrite: bool = False):
        return _FlintNullSpace(self.field.from_rows(np.ascontiguousarray(array)))


#: The kernels ``kernel_for(..., kernel=NAME)`` may be asked for by name (tests and comparisons).
KERNELS = {"pluq": FloatKernel, "block-lu": BlockLUKernel, "flint": FlintKernel}


def _one_limb(p: int) -> bool:
    return ModArith(p).limbs == 1


def kernel_for(field, rows: int, cols: int, device=CPU, kernel: str | None = None) -> Kernel:
    """The kernel that ranks a rows x cols matrix over ``field`` (a ``verify.exact.fields.Field``):
    the float elimination for GF(p), p < 2^50, with shortest side at least ``FLOAT_MIN``; FLINT
    otherwise.  On a GPU ``device`` (``verify.exact.device``), a one-limb prime and a shortest side
    of at least ``GPU_MIN``: the block LU.  ``kernel`` ("pluq", "block-lu", "flint") asks for one by
    name where the field allows it.

    >>> from verify.exact.fields import Field
    >>> kernel_for(Field(8388593), 300, 400).name, kernel_for(Field(8388593), 100, 400).name
    ('float64-blas-pluq', 'flint')
    >>> kernel_for(Field(2**63 - 25), 300, 400).bytes_per_entry, kernel_for(Field(None), 9, 9).name
    (28, 'flint')
    """
    device = device or CPU
    floats = field.modulus is not None and field.modulus < MAX_PRIME
    if kernel is not None:
        if kernel not in KERNELS:
            raise ValueError(f"unknown kernel {kernel!r}; use one of {', '.join(KERNELS)}")
        if kernel == "flint" or not floats or (kernel == "block-lu" and not _one_limb(field.modulus)):
            return FlintKernel(field)
        return KERNELS[kernel](field, device)
    if floats and min(rows, cols) >= FLOAT_MIN:
        if device.is_gpu and min(rows, cols) >= GPU_MIN and _one_limb(field.modulus):
            return BlockLUKernel(field, device)
        return FloatKernel(field, device)
    return FlintKernel(field)


def _limbs(matrix: np.ndarray) -> list[np.ndarray]:
    mask = (1 << LIMB_BITS) - 1
    return [((matrix >> (LIMB_BITS * i)) & mask).astype(np.float64) for i in range(3)]


def three_limb_product(left: np.ndarray, right: np.ndarray, modulus: int) -> np.ndarray:
    """(left @ right) mod ``modulus`` exactly, for int64 entries in [0, modulus), modulus < 2^63.

    Entries are cut into three 21-bit limbs; a product of two limbs is below 2^42, so a float64
    product over at most 2^11 inner indices is an exact integer below 2^53.  The nine limb products
    are grouped by shift 21 (i + j), reduced mod p per inner chunk, and the five shifted sums
    (uint64) combined in Python integers.  Returns int64 residues.

    >>> p = 2**63 - 25
    >>> a = np.array([[p - 1, 2]], dtype=np.int64); b = np.array([[p - 1], [p - 2]], dtype=np.int64)
    >>> int(three_limb_product(a, b, p)[0, 0]) == ((p - 1) ** 2 + 2 * (p - 2)) % p
    True
    """
    if not 2 <= modulus < 2**63:
        raise ValueError(f"modulus {modulus} is outside 2..2^63-1")
    rows, inner = left.shape
    cols = right.shape[1]
    shifted = [np.zeros((rows, cols), dtype=np.uint64) for _ in range(5)]
    for start in range(0, inner, INNER_CHUNK):
        stacked = np.vstack(_limbs(left[:, start:start + INNER_CHUNK]))  # limb i of left in rows i*t..
        for j, limb in enumerate(_limbs(right[start:start + INNER_CHUNK])):
            # exact: each entry < 2^53; three of them added to a value < p < 2^63 stay < 2^64
            products = (stacked @ limb).astype(np.uint64)
            for i in range(3):
                shifted[i + j] += products[i * rows:(i + 1) * rows]
        for s in shifted:
            np.remainder(s, np.uint64(modulus), out=s)
    out = np.zeros((rows, cols), dtype=object)
    for s, part in enumerate(shifted):
        out += part.astype(object) * pow(2, LIMB_BITS * s, modulus)
    return (out % modulus).astype(np.int64)
