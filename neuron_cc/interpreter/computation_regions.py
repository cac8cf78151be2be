"""Regions of the hlo computation ops, as the interpreter runs them (`computation`).

Reducer recognition (`reducer_kinds`: a result k that is add / multiply / maximum / minimum /
and / or of arguments k and N+k, `UFUNC_KINDS`, `ufunc_for`), running a region on whole stacks
of elements at once (`run_region`, `run_ops`; values of shape (D,) broadcast to the stack) and
the helpers around them (`expand`, result packing, the compute dtype of a fold).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import TupleType
from xdsl.interpreter import Interpreter
from xdsl.ir import Attribute, Operation, OpResult, Region, SSAValue

from neuron_cc.dialects.hlo.control_flow import ReturnOp
from neuron_cc.dialects.hlo.elementwise import AddOp, AndOp, MaximumOp, MinimumOp, MultiplyOp, OrOp
from neuron_cc.dialects.hlo.types import tensor_type, tuple_elements
from neuron_cc.interpreter.values import InterpretationError, normalize

Array = np.ndarray[Any, Any]
Shape = tuple[int, ...]

# --- regions ---------------------------------------------------------------------------------

_BINARY_KINDS: dict[type[Operation], str] = {
    AddOp: "add",
    MultiplyOp: "multiply",
    MaximumOp: "maximum",
    MinimumOp: "minimum",
    AndOp: "and",
    OrOp: "or",
}
UFUNC_KINDS = frozenset(_BINARY_KINDS.values())

_BOOL_UFUNCS: dict[str, np.ufunc] = {
    "add": np.logical_or,
    "multiply": np.logical_and,
    "maximum": np.logical_or,
    "minimum": np.logical_and,
    "and": np.logical_and,
    "or": np.logical_or,
}
_UFUNCS: dict[str, np.ufunc] = {
    "add": np.add,
    "multiply": np.multiply,
    "maximum": np.maximum,
    "minimum": np.minimum,
    "and": np.bitwise_and,
    "or": np.bitwise_or,
}


def ufunc_for(kind: str, dtype: np.dtype[Any]) -> np.ufunc:
    """The numpy ufunc of a recognised reducer kind on `dtype` (pred add is or, as in XLA)."""
    return (_BOOL_UFUNCS if dtype == np.bool_ else _UFUNCS)[kind]


def _value_kind(value: SSAValue, acc: SSAValue, x: SSAValue) -> str | None:
    if value is x:
        return "replace"
    if value is acc:
        return "keep"
    if not isinstance(value, OpResult):
        return None
    kind = _BINARY_KINDS.get(type(value.op))
    operands = tuple(value.op.operands)
    if kind is None or operands not in ((acc, x), (x, acc)):
        return None
    return kind


def reducer_kinds(region: Region) -> list[str] | None:
    """Per result k of a 2N-argument region: the kind of `f(arg k, arg N+k)`, or None.

    Kinds are the ufunc names of `_BINARY_KINDS`, `replace` (returns arg N+k) and `keep`
    (returns arg k).
    """
    block = region.block
    last = block.last_op
    if not isinstance(last, ReturnOp):
        return None
    n = len(last.results_)
    if len(block.args) != 2 * n:
        return None
    kinds: list[str] = []
    for k, value in enumerate(last.results_):
        kind = _value_kind(value, block.args[k], block.args[n + k])
        if kind is None:
            return None
        kinds.append(kind)
    return kinds


def expand(x: Any, shape: Sequence[int]) -> Array:
    """Broadcast a (D, ...) value to `shape` by adding trailing axes (a (D,) scalar per device)."""
    a = np.asarray(x)
    if a.shape == tuple(shape):
        return a
    a = a.reshape(a.shape + (1,) * (len(shape) - a.ndim))
    return np.broadcast_to(a, tuple(shape))


def run_region(
    interpreter: Interpreter,
    region: Region,
    args: Sequence[Array],
    shape: Sequence[int],
    elements: Sequence[Attribute],
    name: str,
) -> list[Array]:
    """Run `region` on stacks of elements; results broadcast to `shape` and normalised.

    A region without nested regions runs op by op (through `interpreter.run_op`) with every
    value held at the full `shape`: values that do not depend on the arguments (constants,
    shape (D,)) are broadcast as soon as they are made, so elementwise implementations only
    ever see operands of one shape. Other regions go through `run_ssacfg_region`.
    """
    block = region.block
    if any(op.regions for op in block.ops):
        results = interpreter.run_ssacfg_region(region, tuple(args), name)
    else:
        env: dict[SSAValue, Any] = {a: expand(v, shape) for a, v in zip(block.args, args)}
        run_ops(interpreter, list(block.ops), env, tuple(shape))
        last = block.last_op
        if not isinstance(last, ReturnOp):
            raise InterpretationError(f"{name} region must end in hlo.return")
        results = [env[v] for v in last.results_]
    return [normalize(expand(r, shape), e) for r, e in zip(results, elements, strict=True)]


def run_ops(
    interpreter: Interpreter, ops: Sequence[Operation], env: dict[SSAValue, Any], shape: Shape
) -> None:
    """Run `ops` in order on the values of `env`, adding their results broadcast to `shape`
    (the terminator is skipped)."""
    for op in ops:
        if isinstance(op, ReturnOp):
            continue
        results = interpreter.run_op(op, tuple(env[o] for o in op.operands))
        for result, value in zip(op.results, results, strict=True):
            env[result] = _stacked(value, shape)


def _stacked(value: Any, shape: Shape) -> Any:
    """A (D, ...) array that is a prefix of `shape` (e.g. a (D,) constant), broadcast to it."""
    if not isinstance(value, np.ndarray):
        return value
    array: Array = value
    if array.shape != shape and array.shape == shape[: array.ndim]:
        return expand(array, shape)
    return array


def pack(outs: Sequence[Array], result_type: Attribute) -> Any:
    """One tensor, or a tuple for several (XLA's variadic form), in the result's storage."""
    types = tuple_elements(result_type)
    values = [
        normalize(np.ascontiguousarray(o), tensor_type(t).element_type)
        for o, t in zip(outs, types, strict=True)
    ]
    return tuple(values) if isinstance(result_type, TupleType) else values[0]


def compute_dtype(dtype: np.dtype[Any]) -> np.dtype[Any]:
    """f16 accumulates in f32 (bf16 is stored as f32 already)."""
    return np.dtype(np.float32) if dtype == np.float16 else dtype
