"""A strict stand-in for cupy on the CPU: numpy arrays behind cupy's host/device boundary, for CI.

The engine's device code (``verify.exact.device``) runs with cupy on a GPU; no CI machine has one. Running
that code with plain numpy (``Device("gpu", numpy)``) hides every mistake at the boundary, because numpy
converts anything.  This module wraps numpy so that a "device" array behaves as a cupy array does where it
matters.  Each rule below was read in cupy's own source (``cupy/_core/core.pyx``, ``_routines_indexing.pyx``,
``_kernel.pyx``, ``_scalar.pyx``; github.com/cupy/cupy at 6b6d956, 2026):

* ``np.asarray(x)`` / ``x.__array__()``: TypeError, "Implicit conversion to a NumPy array is not
  allowed" (cupy's ``__array__``).  ``x.get()`` and ``cupy.asnumpy(x)`` are the ways to the host.
* cupy's functions, ufuncs and operators refuse a ``numpy.ndarray`` operand with TypeError
  ("Unsupported type"); Python and numpy scalars are accepted.  A numpy function given a device
  array dispatches to cupy's own (``__array_function__`` / ``__array_ufunc__``), as here.
* ``cupy.asarray``/``cupy.array`` accept host data (a host-to-device copy); so do indices and values
  in ``x[i]`` and ``x[i] = v`` (cupy converts numpy index arrays and values to the device); never an
  object array (cupy has no object dtype: ValueError "Unsupported dtype object").
* Reductions and integer indexing give 0-d *device* arrays, never host scalars.  A 0-d device array
  used as an index array works (``take`` with a 0-d index gives one row), but it has no
  ``__index__``: it cannot index a Python list, bound a slice or size a ``range`` (TypeError).
* ``bool``, ``int`` and ``float`` of a size-1 device array are *allowed* by cupy: each is a
  synchronising device-to-host copy (``int(self.get())``).  So they do not raise here either; they
  are counted (``STATS["syncs"]``), and inside ``no_sync()`` (code that promises no host round trip,
  such as the block LU's leaves) they raise ``HostRoundTrip``.  ``.get()`` is counted in
  ``STATS["gets"]``.
* Iteration yields device sub-arrays; a 0-d array is not iterable (TypeError), as in cupy.

What the device would queue and move is counted in ``STATS``, so that CI can hold the device code to a budget
(``tests/exact/test_launch_budget.py``): ``launches`` (every call that cupy runs as a kernel: ufuncs and operators,
functions that compute, methods such as ``copy``, fancy indexing and every assignment into a device array; not views,
``empty``, or a contiguous ``ascontiguousarray``), ``syncs`` and ``gets`` (host reads), ``h2d_bytes`` and ``d2h_bytes``
(bytes copied each way).  ``host_kernel(function, *arrays)`` stands in for a user kernel's launch (``numba.cuda`` or a
``RawKernel``): one launch, the function (the kernel's CPU twin) run on the arrays' host memory.

``install()`` puts the module in ``sys.modules`` as ``cupy`` (with ``cupyx.scipy.linalg.lu_factor``
for the cuSOLVER baseline), so ``verify.exact.device.gpu_device`` finds it through its own import.
By hand because no library offers a host-only cupy with cupy's conversion rules.
"""

from __future__ import annotations

import contextlib
import sys
import types
from collections.abc import Callable, Collection, Iterator
from typing import Any, NoReturn

import numpy as np
from numpy.lib.mixins import NDArrayOperatorsMixin

__all__ = ["FakeArray", "HostRoundTrip", "STATS", "module", "install", "no_sync", "reset", "host_reads"]

#: cupy's own words for an implicit conversion.
IMPLICIT = ("Implicit conversion to a NumPy array is not allowed. Please use `.get()` to construct a NumPy "
            "array explicitly.")
#: Counts of device-to-host reads (``syncs``: bool/int/float/item/tolist of a device array; ``gets``), of
#: kernel launches and of the bytes copied each way (module notes).
STATS = {"syncs": 0, "gets": 0, "launches": 0, "h2d_bytes": 0, "d2h_bytes": 0}
_NO_SYNC = [0]
#: Functions that allocate or only look at metadata: no kernel in cupy.
_NO_LAUNCH = {"empty", "empty_like", "shape", "ndim", "size", "result_type", "can_cast", "dtype", "iinfo", "finfo"}
#: Methods that give views.
_VIEWS = {"reshape", "view", "transpose", "swapaxes", "squeeze", "diagonal", "ravel"}


class HostRoundTrip(RuntimeError):
    """A device array was read back to the host inside ``no_sync()``."""


def reset() -> None:
    STATS.update(syncs=0, gets=0, launches=0, h2d_bytes=0, d2h_bytes=0)


def host_reads() -> int:
    """Device-to-host reads since ``reset``: synchronising scalars and ``.get()`` calls."""
    return STATS["syncs"] + STATS["gets"]


def _launch() -> None:
    STATS["launches"] += 1


def _fancy(key) -> bool:
    """Whether an index makes cupy gather or scatter (a kernel) rather than take a view."""
    keys = key if isinstance(key, tuple) else (key,)
    return any(isinstance(k, (FakeArray, np.ndarray, list)) for k in keys)


@contextlib.contextmanager
def no_sync():
    """Inside, any device-to-host read raises ``HostRoundTrip``."""
    _NO_SYNC[0] += 1
    try:
        yield
    finally:
        _NO_SYNC[0] -= 1


def _sync(what: str, count: str = "syncs", nbytes: int = 8) -> None:
    if _NO_SYNC[0]:
        raise HostRoundTrip(f"{what} of a device array inside a no-sync region (a host round trip)")
    STATS[count] += 1
    STATS["d2h_bytes"] += nbytes


def _wrap(value):
    """numpy results as device arrays (scalars as 0-d arrays, as cupy returns them)."""
    if isinstance(value, np.ndarray):
        return FakeArray(value)
    if isinstance(value, np.generic):
        return FakeArray(np.asarray(value))
    if isinstance(value, tuple):
        return tuple(_wrap(v) for v in value)
    if isinstance(value, list):
        return [_wrap(v) for v in value]
    return value


def _operand(value):
    """A device operand's numpy array; a host array is refused, as cupy's kernels refuse it."""
    if isinstance(value, FakeArray):
        return value._a
    if isinstance(value, np.ndarray):
        raise TypeError(f"Unsupported type {type(value)}")
    if isinstance(value, (list, tuple)):
        return type(value)(_operand(v) for v in value)
    return value


def _to_device(value):
    """Host data copied to the device (indices, values, asarray): allowed by cupy, but not Python objects
    (cupy has no object dtype: "Unsupported dtype object")."""
    if isinstance(value, FakeArray):
        return value._a
    if isinstance(value, np.ndarray) and value.dtype == object:
        raise ValueError("Unsupported dtype object")
    if isinstance(value, np.ndarray):
        STATS["h2d_bytes"] += value.nbytes
    if isinstance(value, tuple):
        return tuple(_to_device(v) for v in value)
    if isinstance(value, list) and any(isinstance(v, FakeArray) for v in value):
        raise TypeError("a list holding device arrays is not an index cupy accepts")
    return value


class FakeArray(NDArrayOperatorsMixin):
    """A numpy array on the stand-in device (see the module notes)."""

    __slots__ = ("_a",)
    __hash__ = None

    def __init__(self, array: np.ndarray) -> None:
        self._a = array

    # -- what cupy refuses, allows with a copy, or counts
    def __array__(self, dtype: object = None, copy: object = None) -> NoReturn:
        raise TypeError(IMPLICIT)

    def get(self, stream: object = None, order: str = "C", out: np.ndarray | None = None,
            blocking: bool = True) -> np.ndarray:
        _sync(".get()", "gets", self._a.nbytes)
        host = np.array(self._a, order=order)
        if out is not None:
            out[...] = host
            return out
        return host

    def __bool__(self) -> bool:
        _sync("bool()")
        return bool(self._a)

    def __int__(self) -> int:
        _sync("int()")
        return int(self._a)

    def __float__(self) -> float:
        _sync("float()")
        return float(self._a)

    def item(self) -> Any:
        _sync(".item()")
        return self._a.item()

    def tolist(self) -> Any:
        _sync(".tolist()")
        return self._a.tolist()

    def __iter__(self) -> Iterator[Any]:
        if self._a.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        return (FakeArray(self._a[i]) for i in range(self._a.shape[0]))

    def __len__(self) -> int:
        if self._a.ndim == 0:
            raise TypeError("len() of unsized object")
        return self._a.shape[0]

    def __repr__(self) -> str:
        return f"FakeArray({self._a!r})"

    # -- indexing: device or host indices and values
    def __getitem__(self, key: Any) -> Any:
        if _fancy(key):
            _launch()
        return _wrap(self._a[_to_device(key)])

    def __setitem__(self, key: Any, value: Any) -> None:
        _launch()
        self._a[_to_device(key)] = _to_device(value)

    # -- the array's attributes and methods, on the device
    @property
    def shape(self) -> tuple[int, ...]: return self._a.shape
    @property
    def dtype(self) -> np.dtype[Any]: return self._a.dtype
    @property
    def ndim(self) -> int: return self._a.ndim
    @property
    def size(self) -> int: return self._a.size
    @property
    def nbytes(self) -> int: return self._a.nbytes
    @property
    def strides(self) -> tuple[int, ...]: return self._a.strides
    @property
    def itemsize(self) -> int: return self._a.itemsize
    @property
    def T(self) -> FakeArray: return FakeArray(self._a.T)  # noqa: N802 (numpy's name)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in ("ctypes", "data", "tofile", "tobytes", "dump", "dumps"):
            raise AttributeError(name)
        attr = getattr(self._a, name)
        if not callable(attr):
            return _wrap(attr)

        def method(*args: Any, **kwargs: Any) -> Any:
            if name not in _VIEWS:
                _launch()
            out = kwargs.get("out")
            kwargs = {k: _operand(v) for k, v in kwargs.items()}
            result = attr(*_operand(args), **kwargs)
            return out if isinstance(out, FakeArray) else _wrap(result)
        return method

    # -- numpy's own functions given a device array dispatch to the module's, as cupy's do
    def __array_ufunc__(self, ufunc: np.ufunc, method: str, *inputs: Any, **kwargs: Any) -> Any:
        _launch()
        out = kwargs.get("out")
        if out is not None:
            kwargs["out"] = tuple(_operand(o) for o in out)
        result = getattr(ufunc, method)(*(_operand(x) for x in inputs), **kwargs)
        if out is not None:
            return out[0] if len(out) == 1 else out
        return _wrap(result)

    def __array_function__(self, func: Callable[..., Any], types_: Collection[type], args: tuple[Any, ...],
                           kwargs: dict[str, Any]) -> Any:
        found = getattr(module(), func.__name__, None)
        if found is None:
            return NotImplemented
        return found(*args, **kwargs)


def _device_function(name: str, fn):
    def call(*args, **kwargs):
        if name not in _NO_LAUNCH:
            _launch()
        out = kwargs.get("out")
        kwargs = {k: _operand(v) for k, v in kwargs.items()}
        result = fn(*_operand(args), **kwargs)
        return out if isinstance(out, FakeArray) else _wrap(result)
    call.__name__ = name
    return call


def _asarray(a, dtype=None, order=None):
    if isinstance(a, FakeArray):
        if dtype is None or a.dtype == np.dtype(dtype):
            return a
        _launch()
        return FakeArray(a._a.astype(dtype))
    return FakeArray(np.array(_to_device(np.asarray(a)), dtype=dtype, order=order or "K"))


def _array(a, dtype=None, copy: bool = True, order: str = "K"):
    if isinstance(a, FakeArray):
        if copy:
            _launch()
        return FakeArray(np.array(a._a, dtype=dtype, copy=True, order=order)) if copy else _asarray(a, dtype)
    return FakeArray(np.array(_to_device(np.asarray(a)), dtype=dtype, order=order))


def _asnumpy(a, stream=None, order: str = "C", out=None, blocking: bool = True):
    if isinstance(a, FakeArray):
        return a.get(order=order, out=out)
    return np.asarray(a, order=order)


def _ascontiguousarray(a, dtype=None):
    if not isinstance(a, FakeArray):  # cupy's _core.ascontiguousarray takes a device array only
        raise TypeError(f"Argument 'a' has incorrect type (expected cupy._core.core._ndarray_base, got "
                        f"{type(a).__name__})")
    if not a._a.flags.c_contiguous or (dtype is not None and a.dtype != np.dtype(dtype)):
        _launch()  # a copy kernel; a contiguous array is returned as it is
    return FakeArray(np.ascontiguousarray(a._a, dtype=dtype))


def _host_kernel(function, *args) -> None:
    """One user-kernel launch (module notes): ``function`` run on the device arrays' host memory in place."""
    _launch()
    function(*(a._a if isinstance(a, FakeArray) else a for a in args))


class _Pool:
    def free_all_blocks(self) -> None:
        pass

    def free_bytes(self) -> int:
        return 0


class _Runtime:
    #: Free and total bytes the stand-in reports (tests may change them).
    free, total = 2**36, 2**36

    def getDeviceCount(self) -> int:  # noqa: N802 - cupy's name
        return 1

    def memGetInfo(self) -> tuple[int, int]:  # noqa: N802 - cupy's name
        return self.free, self.total

    def getDeviceProperties(self, index: int) -> dict[Any, Any]:  # noqa: N802 - cupy's name
        return {"name": b"fake cupy (numpy, strict)"}


class _CudaDevice:
    def synchronize(self) -> None:
        pass


_MODULES: dict[str, types.ModuleType] = {}


def module() -> types.ModuleType:
    """The stand-in ``cupy`` module (one per process)."""
    if "cupy" in _MODULES:
        return _MODULES["cupy"]
    cp = types.ModuleType("cupy", "a strict stand-in for cupy on the CPU (verify.testing.fake_cupy)")
    special = {"asarray": _asarray, "array": _array, "asnumpy": _asnumpy, "ascontiguousarray": _ascontiguousarray,
               "host_kernel": _host_kernel, "ndarray": FakeArray, "get_array_module": lambda *a: cp,
               "get_default_memory_pool": lambda: _POOL,
               "cuda": types.SimpleNamespace(Device=_CudaDevice, runtime=_RUNTIME)}
    cp.__dict__.update(special)

    def lookup(name: str):
        found = getattr(np, name)  # AttributeError as a missing name should give
        if isinstance(found, type) or not callable(found):  # dtypes and constants are shared
            return found
        wrapped = _device_function(name, found)
        setattr(cp, name, wrapped)
        return wrapped
    cp.__getattr__ = lookup
    _MODULES["cupy"] = cp
    linalg = types.ModuleType("cupyx.scipy.linalg")

    def lu_factor(a, overwrite_a: bool = False, check_finite: bool = True):  # cuSOLVER's getrf: the same contract,
        lu = _operand(a) if overwrite_a else _operand(a).copy()  # LU with partial pivoting, one column a step
        piv = np.zeros(min(lu.shape), dtype=np.int32)
        for k in range(min(lu.shape)):
            piv[k] = k + int(np.argmax(np.abs(lu[k:, k])))
            lu[[k, piv[k]]] = lu[[piv[k], k]]
            if lu[k, k] != 0:
                lu[k + 1:, k] /= lu[k, k]
                lu[k + 1:, k + 1:] -= np.outer(lu[k + 1:, k], lu[k, k + 1:])
        return FakeArray(lu), FakeArray(piv)
    linalg.lu_factor = lu_factor
    scipy_ = types.ModuleType("cupyx.scipy")
    scipy_.linalg = linalg
    cupyx = types.ModuleType("cupyx")
    cupyx.scipy = scipy_
    _MODULES.update({"cupyx": cupyx, "cupyx.scipy": scipy_, "cupyx.scipy.linalg": linalg})
    return cp


_POOL, _RUNTIME = _Pool(), _Runtime()


@contextlib.contextmanager
def install():
    """``import cupy`` (and ``cupyx.scipy.linalg``) gives the stand-in inside; restored after."""
    module()
    saved = {name: sys.modules.get(name) for name in _MODULES}
    sys.modules.update(_MODULES)
    try:
        yield _MODULES["cupy"]
    finally:
        for name, old in saved.items():
            if old is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = old
