"""The device the exact kernels run on: the CPU (numpy) or one CUDA GPU (cupy), chosen in one place.

The kernels of ``verify.exact`` are written once against an array module (``floatmod``,
``elimination``, ``blocklu``), so a ``Device`` is little more than that module plus what differs
between them: synchronising for timings, freeing the memory pool, and how much memory is free.
``resolve_device`` turns what a user asked for (``auto``, ``cpu``, ``gpu``) into a ``Device``:

* ``cpu``: numpy, always.
* ``gpu``: cupy with a CUDA device, or an ``InputError`` (one line: exit status 2 on the command
  line) naming the optional extra to install; also refused when the work's memory estimate does
  not fit the device's free memory (priced before anything is allocated on it).
* ``auto``: the GPU only when one is present, the estimate fits its free memory, and the work pays
  for the copies and kernel launches (its largest matrix has a side of at least ``GPU_MIN``);
  else the CPU.

cupy is optional (``pip install 'seprank-verify[gpu-cuda12]'`` or ``[gpu-cuda13]``, for the driver's CUDA); nothing here
imports it unless a GPU is asked for, and no test needs it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeAlias

import numpy as np

from ..errors import InputError
from . import tuning

if TYPE_CHECKING:
    from types import ModuleType

__all__ = ["Device", "CPU", "DEVICES", "GPU_EXTRA", "GPU_EXTRAS", "gpu_extra", "driver_cuda_major", "resolve_device",
           "gpu_device"]

#: What ``--device`` and ``device=`` accept.
DEVICES = ("auto", "cpu", "gpu")
#: The optional extras that install cupy and numba-cuda, by the CUDA major version of the driver.
GPU_EXTRAS = {12: "pip install 'seprank-verify[gpu-cuda12]'", 13: "pip install 'seprank-verify[gpu-cuda13]'"}
#: The extra named when the driver's CUDA cannot be read.
GPU_EXTRA = (f"{GPU_EXTRAS[12]} (CUDA 12) or {GPU_EXTRAS[13]} (CUDA 13; nvidia-smi shows the driver's "
             "CUDA Version)")


def driver_cuda_major() -> int | None:
    """The CUDA major version the installed NVIDIA driver supports (``cuDriverGetVersion`` of libcuda), or
    None without a driver.  Read through ctypes: it needs neither cupy nor a device."""
    import ctypes

    try:
        lib = ctypes.CDLL("libcuda.so.1")
        version = ctypes.c_int()
        if lib.cuDriverGetVersion(ctypes.byref(version)) != 0:
            return None
    except (OSError, AttributeError):
        return None
    return version.value // 1000


def gpu_extra(major: int | None = None) -> str:
    """The install line for the GPU extra that matches the driver (``driver_cuda_major``), else both.

    >>> gpu_extra(13)
    "pip install 'seprank-verify[gpu-cuda13]'"
    >>> gpu_extra(12), gpu_extra(14)
    ("pip install 'seprank-verify[gpu-cuda12]'", "pip install 'seprank-verify[gpu-cuda13]'")
    """
    major = driver_cuda_major() if major is None else major
    if major is None or major < 12:
        return GPU_EXTRA
    return GPU_EXTRAS[min(major, 13)]


#: A numpy or cupy ndarray on a ``Device`` (cupy ships no type stubs, so type checkers see ``Any``).
DeviceArray: TypeAlias = Any


class Device:
    """An array module and its housekeeping: ``name`` is "cpu" or "gpu", ``xp`` numpy or cupy."""

    name: str
    xp: ModuleType

    def __init__(self, name: str, xp: ModuleType) -> None:
        self.name, self.xp = name, xp

    @property
    def is_gpu(self) -> bool:
        return self.name == "gpu"

    def synchronize(self) -> None:
        """Wait for the device's queued work (for timings)."""
        if self.is_gpu:
            self.xp.cuda.Device().synchronize()

    def free(self) -> None:
        """Give the memory pool's cached blocks back (between large stages)."""
        if self.is_gpu:
            self.xp.get_default_memory_pool().free_all_blocks()

    def free_bytes(self) -> int | None:
        """Free device memory in bytes (None on the CPU: the routes' own ``--max-memory-gib`` prices it)."""
        if not self.is_gpu:
            return None
        return int(self.xp.cuda.runtime.memGetInfo()[0]) + int(self.xp.get_default_memory_pool().free_bytes())

    def to_host(self, array: DeviceArray) -> np.ndarray:
        """A numpy copy (or the array itself on the CPU)."""
        return array.get() if hasattr(array, "get") else np.asarray(array)

    def describe(self) -> str:
        if not self.is_gpu:
            return "cpu (numpy)"
        props = self.xp.cuda.runtime.getDeviceProperties(0)
        total = self.xp.cuda.runtime.memGetInfo()[1]
        return f"gpu: {props['name'].decode()} ({total / 2**30:.0f} GiB, cupy)"

    def __repr__(self) -> str:
        return f"Device({self.name})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Device) and (self.name, self.xp) == (other.name, other.xp)

    def __hash__(self) -> int:
        return hash(self.name)


#: The CPU: numpy.
CPU = Device("cpu", np)


def gpu_device() -> Device | str:
    """The GPU as a ``Device``, or a short reason why there is none (cupy missing, no CUDA device)."""
    try:
        import cupy
    except ImportError:
        return "cupy is not installed"
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as exc:  # cupy without a driver raises its own CUDARuntimeError
        return f"no CUDA device ({type(exc).__name__})"
    if count < 1:
        return "no CUDA device"
    return Device("gpu", cupy)


def _gib(n_bytes: float) -> str:
    return f"{n_bytes / 2**30:.3g} GiB"


def resolve_device(choice: str | Device | None = "cpu", need_bytes: float | None = None,
                   largest_side: int | None = None, what: str = "the work") -> Device:
    """The ``Device`` for ``choice`` ("auto", "cpu", "gpu", a ``Device``, or None for the CPU).

    ``need_bytes``: the work's memory estimate (what it holds at once), compared with the GPU's free
    memory before anything is allocated there; ``largest_side``: the shortest side of its largest
    matrix, for whether ``auto`` pays (``GPU_MIN``).

    >>> resolve_device("cpu").name, resolve_device(None) is CPU
    ('cpu', True)
    """
    if isinstance(choice, Device):
        return choice
    if choice is None or choice == "cpu":
        return CPU
    if choice not in DEVICES:
        raise InputError(f"unknown device {choice!r}; use --device auto, cpu or gpu")
    found = gpu_device()
    if choice == "gpu":
        if isinstance(found, str):
            raise InputError(f"--device gpu needs cupy and a CUDA device ({found}); install the GPU extra with "
                             f"{gpu_extra()}, or use --device cpu")
        free = found.free_bytes()
        if need_bytes is not None and free is not None and need_bytes > free:
            raise InputError(f"{what} needs about {_gib(need_bytes)} of GPU memory, more than the {_gib(free)} free "
                             f"on the device; use --device cpu, or a smaller depth or width")
        return found
    if isinstance(found, str):  # auto
        return CPU
    free = found.free_bytes()
    if need_bytes is not None and free is not None and need_bytes > free:
        return CPU
    if largest_side is not None and largest_side < tuning.GPU_MIN:
        return CPU
    return found
