"""The exact kernels a field ranks its matrices with, chosen in one place: ``kernel_for``.

A kernel offers ``rank``, ``null_space`` (an object with ``rank``, ``nullity`` and ``rows(mix)``),
``product`` ((left @ right) mod p as int64 residues) and ``bytes_per_entry`` (what a matrix it
eliminates costs in memory, for the estimates), ``seconds(rows, cols)`` (its price for a shape, from
the measured table of ``verify.exact.tuning``) and ``check`` (how its factorizations are verified, None
for FLINT), plus the ``name`` results record.  Rank code asks ``kernel_for(field, rows, cols)`` (or
``kernel_again`` for a block an earlier run ranked, and ``factorization_check`` for what a recorded name
checked) and never tests moduli or kernel names itself (as a galois ``FieldArray`` or a SymPy
``DomainMatrix`` owns its arithmetic).  The product plans are ``verify.exact.modp``'s.

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

from fractions import Fraction
from typing import TYPE_CHECKING, Protocol

import numpy as np

from . import tuning
from .blocklu import BLOCK_LU, VECTORS
from .device import CPU
from .elimination import CHECK, ELIMINATION, rank_mod_p
from .floatmod import MAX_PRIME, ModArith
from .modp import product, three_limb_product
from .nullspace import null_space

if TYPE_CHECKING:
    import flint

    from .device import Device, DeviceArray
    from .nullspace import NullSpace

__all__ = ["Kernel", "KernelField", "FloatKernel", "FlintKernel", "BlockLUKernel", "kernel_for", "KERNELS",
           "three_limb_product", "FLINT", "kernel_again", "large_bytes_per_entry", "factorization_check"]

#: How results name FLINT's elimination (nmod_mat over GF(p), fmpz_mat over Q): the field's own.
FLINT = "flint"
# ``tuning.FLOAT_MIN`` (shortest side of the float elimination), ``tuning.FLOAT_BYTES`` and
# ``tuning.FLINT_BYTES`` (bytes an entry, for the estimates): ``verify.exact.tuning`` says what measured them.


class KernelField(Protocol):
    """What a kernel reads of its field, a ``verify.exact.fields.Field`` (named structurally: this module imports
    no FLINT, and ``fields`` imports it): the modulus (None over Q) and a numpy array as a FLINT matrix."""

    @property
    def modulus(self) -> int | None: ...

    def from_rows(self, array: np.ndarray) -> flint.fmpz_mat | flint.nmod_mat: ...


class Kernel:
    """An exact kernel for one field (see the module notes)."""

    name: str = ""
    bytes_per_entry: int = 0
    #: Whether a rank costs far less than a null space (then worth trying against a proven bound first).
    rank_first: bool = False
    #: How its factorizations are verified before a rank is returned (``verify.exact.factorcheck``, or
    #: the block LU's own check); None when it computes none to check (FLINT).
    check: str | None = None
    #: The row of ``verify.exact.tuning.SECONDS`` that prices it.
    family: str = "flint"
    #: Whether it eliminates arrays of its device's array module (a slice may then be gathered on the
    #: device, ``verify.rank.degree_blocks``); False: it reads host numpy arrays (FLINT).
    device_arrays: bool = False
    device: Device
    field: KernelField

    @property
    def null_space_name(self) -> str:
        """How results name the elimination behind ``null_space``."""
        return self.name

    def __init__(self, field: KernelField, device: Device = CPU) -> None:
        self.field, self.device = field, device

    def rank(self, array: DeviceArray, overwrite: bool = False) -> int:
        raise NotImplementedError

    def null_space(self, array: DeviceArray, overwrite: bool = False) -> NullSpace | _FlintNullSpace:
        raise NotImplementedError

    def product(self, left: np.ndarray, right: np.ndarray, overwrite: bool = False) -> np.ndarray:
        """(left @ right) mod p as int64 residues in [0, p), for int64 inputs (any integers);
        ``overwrite`` lets the conversion of ``right`` reuse its memory (``right`` is consumed)."""
        return product(left, right, self.field.modulus, overwrite)  # the plan by prime (``verify.exact.modp``)

    def seconds(self, rows: int, cols: int) -> float:
        """Seconds to rank a rows x cols matrix, priced at its short side from the measured table of the
        kernel's family (``verify.exact.tuning.SECONDS``).  Only ratios between kernels are used."""
        return tuning.seconds(self.family, min(rows, cols))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name}, GF({self.field.modulus}))"


class FloatKernel(Kernel):
    """GF(p), p < 2^50: the float64 BLAS PLUQ, factorization checked."""

    name = ELIMINATION
    bytes_per_entry = tuning.FLOAT_BYTES
    check: str | None = CHECK
    family = "float"
    device_arrays = True

    def rank(self, array: DeviceArray, overwrite: bool = False) -> int:
        return rank_mod_p(array, self.field.modulus, xp=self.device.xp, overwrite=overwrite)

    def null_space(self, array: DeviceArray, overwrite: bool = False) -> NullSpace:
        return null_space(array, self.field.modulus, xp=self.device.xp, overwrite=overwrite)

    @classmethod
    def check_bound(cls, p: int) -> tuple[Fraction, str]:
        """A bound on a wrong factorization passing its check, per matrix, at GF(p), and how to print it."""
        return Fraction(1, 2**64), "2^-64"  # ``verify.exact.factorcheck.vector_count`` vectors


class BlockLUKernel(FloatKernel):
    """GF(p), one-limb products: ranks by block LU without pivoting (``verify.exact.blocklu``), exact
    (the Schur complement left by a singular diagonal block goes to the PLUQ); null spaces by the PLUQ."""

    name = BLOCK_LU
    rank_first = True
    check: str | None = "block LU: L (U x) = M x and A11^-1 A11 x = x"
    #: The leaf route (``verify.exact.leaves.ROUTES``); None: the device's default (``leaves.default_route``).
    leaf: str | None = None

    @classmethod
    def check_bound(cls, p: int) -> tuple[Fraction, str]:
        """p^-VECTORS for the block LU's own check, 2^-64 for the PLUQ that ranks a Schur complement."""
        if Fraction(1, p**VECTORS) > Fraction(1, 2**64):
            return Fraction(1, p**VECTORS), f"{p}^-{VECTORS}"
        return Fraction(1, 2**64), "2^-64"

    @property
    def null_space_name(self) -> str:
        return ELIMINATION

    def rank(self, array: DeviceArray, overwrite: bool = False) -> int:
        from .blocklu import rank as block_lu_rank

        ar = ModArith(self.field.modulus, self.device.xp)
        # a numpy input goes to the device in row bands, straight into the float64 array eliminated
        # (never a whole int64 copy there); the input itself is not modified unless ``overwrite``
        found = block_lu_rank(ar.from_ints(array, overwrite=overwrite), ar, small=max(array.shape), leaf=self.leaf)
        return found["rank"]


class _FlintNullSpace:
    """FLINT's right null space with the interface of ``verify.exact.nullspace.NullSpace``."""

    cols: int
    basis: flint.nmod_mat | flint.fmpz_mat
    nullity: int
    rank: int
    modulus: int | None

    def __init__(self, matrix: flint.nmod_mat | flint.fmpz_mat) -> None:
        self.cols = matrix.ncols()
        self.basis, self.nullity = matrix.nullspace()
        self.rank = self.cols - self.nullity
        self.modulus = matrix.modulus() if hasattr(matrix, "modulus") else None  # None over Q

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
    bytes_per_entry = tuning.FLINT_BYTES

    def rank(self, array: np.ndarray | flint.nmod_mat | flint.fmpz_mat | flint.fmpq_mat,
             overwrite: bool = False) -> int:
        """Rank of a numpy array, or of a matrix already in FLINT (``nmod_mat``/``fmpz_mat``/``fmpq_mat``: a
        sparse fill or a FLINT product, ranked where it is)."""
        if not hasattr(array, "shape"):
            return array.rank()
        return self.field.from_rows(np.ascontiguousarray(array)).rank()

    def null_space(self, array: np.ndarray, overwrite: bool = False) -> _FlintNullSpace:
        return _FlintNullSpace(self.field.from_rows(np.ascontiguousarray(array)))


#: The kernels ``kernel_for(..., kernel=NAME)`` may be asked for by name (tests and comparisons).
KERNELS: dict[str, type[Kernel]] = {"pluq": FloatKernel, "block-lu": BlockLUKernel, "flint": FlintKernel}


def _one_limb(p: int) -> bool:
    return ModArith(p).limbs == 1


def kernel_for(field: KernelField, rows: int, cols: int, device: Device = CPU, kernel: str | None = None) -> Kernel:
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
    if floats and min(rows, cols) >= tuning.FLOAT_MIN:
        if device.is_gpu and min(rows, cols) >= tuning.GPU_MIN and _one_limb(field.modulus):
            return BlockLUKernel(field, device)
        return FloatKernel(field, device)
    return FlintKernel(field)


def _named(name: str | None):
    """The kernel class results name ``name`` (its own or its null space's), or None."""
    for cls in (FloatKernel, BlockLUKernel, FlintKernel):
        if name == cls.name:
            return cls
    return None


def factorization_check(name: str | None, modulus: int | None) -> tuple[str, Fraction, str] | None:
    """What verified the factorizations of a matrix whose rank the kernel named ``name`` gave over
    GF(``modulus``): (the check, a bound on a wrong factorization passing it, that bound printed); None
    when that kernel checks none (FLINT), or the name is no kernel's.

    >>> factorization_check("float64-blas-pluq", 1048573)[2], factorization_check("flint", 7)
    ('2^-64', None)
    >>> factorization_check("float64-block-lu", 251)[2]
    '251^-4'
    """
    cls = _named(name)
    if cls is None or cls.check is None or modulus is None:
        return None
    bound, text = cls.check_bound(modulus)
    return cls.check, bound, text


def kernel_again(field: KernelField, rows: int, cols: int, earlier: str | None = None,
                 earlier_modulus: int | None = None, device: Device = CPU) -> Kernel:
    """The kernel that ranks, over ``field``, a rows x cols block that an earlier run ranked with the
    kernel named ``earlier`` over GF(``earlier_modulus``).  Where both primes are below ``MAX_PRIME``
    the earlier choice was made on the shape actually ranked (a compressed block is narrower than
    rows x cols), so it holds again: the float elimination again if the earlier kernel was a float one,
    FLINT if it was FLINT (any other name is a float one).  Otherwise ``kernel_for(field, rows, cols)``.

    >>> from verify.exact.fields import Field
    >>> kernel_again(Field(2**40 - 87), 4000, 4000, "flint", 1048573).name
    'flint'
    >>> kernel_again(Field(2**40 - 87), 4000, 4000).name, kernel_again(Field(2**63 - 25), 4000, 4000).name
    ('float64-blas-pluq', 'flint')
    """
    floats = field.modulus is not None and field.modulus < MAX_PRIME
    if floats and earlier is not None and earlier_modulus is not None and earlier_modulus < MAX_PRIME:
        return FlintKernel(field) if _named(earlier) is FlintKernel else FloatKernel(field, device or CPU)
    return kernel_for(field, rows, cols, device=device)


def large_bytes_per_entry(field: KernelField, device: Device = CPU) -> int:
    """Bytes an entry of a large matrix over ``field`` costs the kernel that ranks it (for the memory
    estimates: shortest side ``FLOAT_MIN`` and beyond)."""
    return kernel_for(field, tuning.FLOAT_MIN, tuning.FLOAT_MIN, device=device).bytes_per_entry
