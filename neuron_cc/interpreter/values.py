"""Runtime values of the SPMD interpreter (docs/interpreter.md §7).

Every SSA value of tensor type is a numpy array whose leading axis is the device axis of size
D = R*P (device index = flattened id r*P+p); tuples are Python tuples of values; tokens are
`TOKEN`. Element types map to numpy storage dtypes (`neuron_cc.dialects.hlo.dtypes`): bf16 and
the FP8/FP6/FP4 types are stored as float32 and rounded to the type by `ml_dtypes` after every
operation that produces them (XLA:CPU upcasts their elementwise ops to f32 and converts the
result back; measured bit for bit in tests/test_interp_element_types.py); s1..s4 / u1..u4 are
stored as int8 / uint8 and wrapped to their width; c64 / c128 are numpy complex64 / complex128.

bf16 rounding was hand-written (round to nearest even on the float32 bits, NaN payload kept
in its top 7 bits); `ml_dtypes.bfloat16` gives the same bits for every non-NaN float32
(checked on 1.1 million structured patterns, `test_bf16_rounding_*` in
tests/test_interp_element_types.py) and for a NaN the quiet NaN of the same sign with the
payload dropped (0x7FC0 / 0xFFC0), where the old code kept the top 7 payload bits. XLA:CPU
itself does not always keep the sign of a NaN an op produces (measured there: 2 of 1594 bf16
values differ from XLA's only in NaN bits).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    BFloat16Type,
    TensorType,
    TupleType,
)
from xdsl.interpreter import Interpreter, InterpreterFunctions
from xdsl.ir import Attribute, Operation

from neuron_cc.dialects.hlo.dtypes import (
    exact_dtype,
    exact_dtype_of_name,
    is_f32_stored,
    narrow_int_width,
    storage_dtype,
)
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
    """The numpy storage dtype of an element type (bf16 and FP8/FP6/FP4 are stored as
    float32, s1..s4 / u1..u4 as int8 / uint8)."""
    try:
        return storage_dtype(element)
    except ValueError:
        raise InterpretationError(f"unsupported element type {element}") from None


def is_bf16(element: Attribute) -> bool:
    return isinstance(element, BFloat16Type)


def round_to_bf16(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Round float32 values to the nearest bf16 (ties to even), kept in float32 storage.

    Overflow rounds to infinity like IEEE; a NaN becomes the quiet NaN of its sign (XLA:CPU's
    f32 -> bf16 convert; the payload is dropped)."""
    f = np.asarray(x, dtype=np.float32)
    return f.astype(exact_dtype_of_name("bf16")).astype(np.float32)


def round_to_type(x: np.ndarray[Any, Any], element: Attribute) -> np.ndarray[Any, Any]:
    """Round values (computed in f32) to a float32-stored type (`is_f32_stored`): nearest,
    ties to even, as `ml_dtypes` converts (overflow: inf, or NaN for types without inf; f4/f6
    saturate, as XLA:CPU does)."""
    f = np.asarray(x, dtype=np.float32)
    return f.astype(exact_dtype(element)).astype(np.float32)


def wrap_narrow_int(x: np.ndarray[Any, Any], width: int, signed: bool) -> np.ndarray[Any, Any]:
    """Integers wrapped to `width` bits (two's complement), in int8 / uint8 storage."""
    mask = (1 << width) - 1
    v = np.asarray(x).astype(np.int64) & mask
    if signed:
        v = np.where(v >= 1 << (width - 1), v - (1 << width), v)
    return v.astype(np.int8 if signed else np.uint8)


def normalize(x: np.ndarray[Any, Any], element: Attribute) -> np.ndarray[Any, Any]:
    """Bring a computed array to the exact storage of `element` (dtype, rounding, wrapping)."""
    how = _NORMALIZE.get(element)
    if how is None:
        how = _NORMALIZE[element] = _how_to_normalize(element)
    dtype, rounded, width = how
    if rounded:
        return round_to_type(x, element)
    if width is not None:
        return wrap_narrow_int(x, width, dtype == np.int8)
    if x.dtype != dtype:
        x = x.astype(dtype)
    return x


_NORMALIZE: dict[Attribute, tuple[np.dtype[Any], bool, int | None]] = {}
"""Per element type: storage dtype, rounded in f32 storage?, narrow integer width (every
interpreted op normalizes its results; one lookup instead of three)."""


def _how_to_normalize(element: Attribute) -> tuple[np.dtype[Any], bool, int | None]:
    return numpy_dtype(element), is_f32_stored(element), narrow_int_width(element)


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
    infeed: list[list[Any]] = field(default_factory=list[list[Any]])
    """Host infeed entries (`neuron_cc.interpreter.host_feeds`): tensors with the device axis."""
    infeed_taken: int = 0
    outfeed: list[list[Any]] = field(default_factory=list[list[Any]])
    """What the program's outfeeds wrote, in order."""
    constants: dict[Operation, Any] = field(default_factory=dict[Operation, Any])
    """The decoded value of every constant op run so far (one device, read-only): a constant
    in a loop body is decoded once, not once per iteration."""

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
