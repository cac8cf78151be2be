"""Interpretation of `hlo.ragged_all_to_all` on all devices at once.

Device d of rank i in its group copies `input[d][input_offsets[d][j] : +send_sizes[d][j]]`
(rows of dimension 0) into the output of the group's rank-j member at row
`output_offsets[d][j]`; every device's result starts as its `output` operand. The groups are
the ones `groups_of` gives every collective.

Where we differ from XLA: XLA:CPU does not run ragged-all-to-all at all (its thunk emitter
refuses the opcode), and the GPU runtime does not check the ranges; we raise a located
`InterpretationError` for a range outside a buffer, for rank-2 offsets and for offsets whose
length is not the group size (XLA's several updates per peer), which we do not implement.
`recv_sizes` does not change the result (XLA uses it only to size the transfers).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls

from neuron_cc.dialects.hlo.ragged_all_to_all import RaggedAllToAllOp
from neuron_cc.interpreter.collectives import groups_of
from neuron_cc.interpreter.values import InterpretationError, spmd_state, type_bytes

Array = np.ndarray[Any, Any]


def _ranges(op: RaggedAllToAllOp, args: PythonValues, size: int) -> tuple[Array, Array, Array]:
    io, ss, oo = (np.asarray(a, dtype=np.int64) for a in args[2:5])
    if io.ndim != 2 or io.shape[1] != size:
        raise InterpretationError(
            f"'{op.name}' supports rank-1 offsets of the group size {size} only, "
            f"got {op.input_offsets.type}",
            op,
        )
    return io, ss, oo


def ragged_all_to_all(op: RaggedAllToAllOp, groups: list[list[int]], args: PythonValues) -> Array:
    """The result on every device (leading device axis)."""
    inp: Array = np.asarray(args[0])
    out: Array = np.array(args[1], copy=True)
    rows_in, rows_out = inp.shape[1], out.shape[1]
    size = len(groups[0]) if groups else 0
    io, ss, oo = _ranges(op, args, size)
    for group in groups:
        if len(group) != size:
            raise InterpretationError(f"'{op.name}' needs groups of one size", op)
        for d in group:
            for j, peer in enumerate(group):
                start, count, dest = int(io[d, j]), int(ss[d, j]), int(oo[d, j])
                if count < 0 or start < 0 or dest < 0:
                    raise InterpretationError(
                        f"'{op.name}': device {d} has a negative offset or size for peer {j}", op
                    )
                if start + count > rows_in or dest + count > rows_out:
                    raise InterpretationError(
                        f"'{op.name}': device {d} sends rows [{start}, {start + count}) of "
                        f"{rows_in} to rows [{dest}, {dest + count}) of {rows_out} on device {peer}",
                        op,
                    )
                out[peer, dest : dest + count] = inp[d, start : start + count]
    return out


@register_impls
class HloRaggedAllToAllFunctions(InterpreterFunctions):
    """ragged_all_to_all."""

    @impl(RaggedAllToAllOp)
    def run_ragged_all_to_all(
        self, interpreter: Interpreter, op: RaggedAllToAllOp, args: PythonValues
    ) -> PythonValues:
        state = spmd_state(interpreter)
        result = ragged_all_to_all(op, groups_of(op, state), args)
        state.record("ragged-all-to-all", float(type_bytes(op.input.type)))
        return (result,)
