"""Runtime values of the SPMD interpreter (docs/interpreter.md §7).

Every SSA value of tensor type is a numpy array whose leading axis is the device axis of size
D = R*P (device index = flattened id r*P+p); tuples are Python tuples of values; tokens are
`TOKEN`. Element types map to numpy dtypes; bf16 has no numpy dtype and is emulated EXACTLY:
values are stored as float32 whose low 16 bits are zero, rounded to nearest-even after every
operation that produces bf16 (this is what XLA:CPU does when it upcasts bf16 elementwise ops).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    Signedness,
    TensorType,
    TupleType,
)
from xdsl.interpreter import Interpreter, InterpreterFunctions
from xdsl.ir import Attribute, Operation

from neuron_cc.dialects.hlo.types import TokenType, value_bytes


class Token:
    """The value of `!hlo.token`."""

    def __repr__(self) -> str:
        return "TOKEN"


TOKEN = Token()
Value = Any
"""np.ndarray (leading device axis), tuple of Values, or TOKEN."""


class InterpretationError(Exception):
    """A program the interpreter cannot run (divergent control flow, unknown custom call...).

    `op` is the operation that failed (set by whoever raises it, else by the runner to the
    innermost op running at the time) so tools can report its source location.
    """

    def __init__(self, message: str, op: Operation | None = None) -> None:
        super().__init__(message)
        self.op = op


DEFAULT_MAX_WHILE_ITERATIONS = 50_000
"""Iterations one `while` may run before the run stops with an error (an infinite loop guard)."""

DEFAULT_MAX_VALUE_BYTES = 1 << 30
"""Storage bytes one value may take, ALL simulated devices together (1 GiB)."""


def numpy_dtype(element: Attribute) -> np.dtype[Any]:
    """The numpy storage dtype of an element type (bf16 is stored as float32)."""
    if isinstance(element, IntegerType):
        width = element.width.data
        if width == 1:
            return np.dtype(np.bool_)
        unsigned = element.signedness.data == Signedness.UNSIGNED
        return np.dtype(f"{'u' if unsigned else ''}int{width}")
    if isinstance(element, BFloat16Type | Float32Type):
        return np.dtype(np.float32)
    if isinstance(element, Float16Type):
        return np.dtype(np.float16)
    if isinstance(element, Float64Type):
        return np.dtype(np.float64)
    raise InterpretationError(f"unsupported element type {element}")


def is_bf16(element: Attribute) -> bool:
    return isinstance(element, BFloat16Type)


def round_to_bf16(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Round float32 values to the nearest bf16 (ties to even), kept in float32 storage.

    NaNs stay NaN (quiet), infinities stay infinite, overflow rounds to infinity like IEEE.
    """
    f = np.ascontiguousarray(x, dtype=np.float32)
    bits = f.view(np.uint32)
    rounding = ((bits >> 16) & 1) + np.uint32(0x7FFF)
    rounded = ((bits + rounding) & np.uint32(0xFFFF0000)).astype(np.uint32)
    nan = np.isnan(f)
    if nan.any():
        rounded = np.where(nan, (bits | np.uint32(0x00400000)) & np.uint32(0xFFFF0000), rounded)
    return rounded.view(np.float32)


def normalize(x: np.ndarray[Any, Any], element: Attribute) -> np.ndarray[Any, Any]:
    """Bring a computed array to the exact storage of `element` (dtype, bf16 rounding)."""
    dtype = numpy_dtype(element)
    if x.dtype != dtype:
        x = x.astype(dtype)
    if is_bf16(element):
        x = round_to_bf16(x)
    return x


def element_of(t: Attribute) -> Attribute:
    if not isinstance(t, TensorType):
        raise InterpretationError(f"expected a tensor type, got {t}")
    return t.element_type


def zeros(t: Attribute, devices: int) -> Value:
    """The all-zero value of type `t` on every device (tuples element-wise)."""
    if isinstance(t, TupleType):
        return tuple(zeros(e, devices) for e in t.types.data)
    if isinstance(t, TokenType):
        return TOKEN
    if not isinstance(t, TensorType):
        raise InterpretationError(f"cannot build a value of type {t}")
    return np.zeros((devices, *t.get_shape()), dtype=numpy_dtype(t.element_type))


def type_bytes(t: Attribute, stored: bool = False) -> int:
    """Bytes of one device's value of type `t` (`value_bytes`: bf16 counted as 2 bytes per
    element), or, with `stored`, as the interpreter stores it (bf16 as float32)."""
    if not stored:
        return value_bytes(t)
    if isinstance(t, TupleType):
        return sum(type_bytes(e, stored) for e in t.types.data)
    if not isinstance(t, TensorType):
        return 0
    count = 1
    for d in t.get_shape():
        count *= max(d, 0)
    return count * numpy_dtype(t.element_type).itemsize


def storage_bytes(t: Attribute) -> int:
    """Bytes the interpreter stores for one device's value of type `t` (bf16 as float32)."""
    return type_bytes(t, stored=True)


@dataclass
class CollectiveRecord:
    """Statistics of one kind of collective."""

    launches: int = 0
    bytes_per_device: float = 0.0


@dataclass
class SpmdState:
    """Per-run state: the device grid and collective statistics."""

    num_replicas: int
    num_partitions: int
    stats: dict[str, CollectiveRecord] = field(default_factory=dict[str, CollectiveRecord])
    mailbox: dict[int, Any] = field(default_factory=dict[int, Any])
    """Values sent on a channel, routed to their targets, waiting for the matching recv."""
    senders: dict[int, Operation] = field(default_factory=dict[int, Operation])
    """The send op of every channel in `mailbox` (for errors about a send never received)."""
    max_while_iterations: int = DEFAULT_MAX_WHILE_ITERATIONS
    """Iterations one while may run (0: no limit)."""
    max_value_bytes: int = DEFAULT_MAX_VALUE_BYTES
    """Storage bytes one result may take, all devices together (0: no limit)."""

    @property
    def num_devices(self) -> int:
        return self.num_replicas * self.num_partitions

    def record(self, kind: str, bytes_per_device: float) -> None:
        entry = self.stats.setdefault(kind, CollectiveRecord())
        entry.launches += 1
        entry.bytes_per_device += bytes_per_device


_STATE_KEY = "neuron_cc.spmd"


class _SpmdData(InterpreterFunctions):
    """Key of the interpreter's per-run data slot that holds the SpmdState."""


def spmd_state(interpreter: Interpreter) -> SpmdState:
    """The SpmdState attached to an interpreter by `neuron_cc.interpreter.run`."""
    state = interpreter._impl_data.get(_SpmdData, {}).get(_STATE_KEY)
    if not isinstance(state, SpmdState):
        raise InterpretationError("the interpreter was not set up for SPMD execution")
    return state


def attach_state(interpreter: Interpreter, state: SpmdState) -> None:
    interpreter._impl_data.setdefault(_SpmdData, {})[_STATE_KEY] = state
