"""Interpretation of `hlo.ragged_all_to_all` on all devices at once.

A group of N devices exchanges U updates per peer: the offsets and sizes hold N*U entries,
peer-major (entry `j*U + u` is update u to the group's rank-j member), either as a rank-1
vector of N*U or as a rank-2 [N, U] array (the same entries row-major). Device d copies
`input[d][input_offsets[j*U+u] : +send_sizes[j*U+u]]` (rows of dimension 0) into the
output of rank j at row `output_offsets[j*U+u]`; every device's result starts as its
`output` operand. This is XLA's GPU runtime's layout (`num_updates_per_replica` = the
entries / N; update index = peer * U + update). The groups are the ones `groups_of` gives
every collective.

Where we differ from XLA: XLA:CPU does not run ragged-all-to-all at all (its thunk emitter
refuses the opcode), and the GPU runtime does not check the ranges; we raise a located
`InterpretationError` for a range outside a buffer and for an entry count that is not a
multiple of the group size. `recv_sizes` does not change the result (XLA uses it only to
size the transfers).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls
from xdsl.ir import Operation

from neuron_cc.dialects.hlo.ragged_all_to_all import RaggedAllToAllOp
from neuron_cc.interpreter.collectives import groups_of
from neuron_cc.interpreter.values import InterpretationError, spmd_state, type_bytes

Array = np.ndarray[Any, Any]


def _ranges(op: Operation, args: PythonValues, size: int) -> tuple[Array, Array, Array]:
    """Offsets and sizes as [device, peer, update]."""
    devices = np.asarray(args[2]).shape[0]
    io, ss, oo = (np.asarray(a, dtype=np.int64).reshape(devices, -1) for a in args[2:5])
    entries = io.shape[1]
    if size == 0 or entries % size != 0 or entries == 0:
        raise InterpretationError(
            f"'{op.name}': the offsets hold {entries} entries, not a positive multiple of the "
            f"group size {size} (one entry per peer and update)",
            op,
        )
    return tuple(a.reshape(devices, size, entries // size) for a in (io, ss, oo))  # pyright: ignore[reportReturnType]


def ragged_all_to_all(op: Operation, groups: list[list[int]], args: PythonValues) -> Array:
    """The result on every device (leading device axis); also bir AllToAllV's (its tables as
    args[2:6], one row per device)."""
    inp: Array = np.asarray(args[0])
    out: Array = np.array(args[1], copy=True)
    size = len(groups[0]) if groups else 0
    io, ss, oo = _ranges(op, args, size)
    for group in groups:
        if len(group) != size:
            raise InterpretationError(f"'{op.name}' needs groups of one size", op)
        for d in group:
            for j, peer in enumerate(group):
                for u in range(io.shape[2]):
                    _copy(op, out, inp, (d, j, u, peer), (io, ss, oo))
    return out


def _copy(
    op: Operation,
    out: Array,
    inp: Array,
    where: tuple[int, int, int, int],
    ranges: tuple[Array, Array, Array],
) -> None:
    """Update u of device d to its rank-j peer (device `peer`)."""
    d, j, u, peer = where
    io, ss, oo = ranges
    rows_in, rows_out = inp.shape[1], out.shape[1]
    start, count, dest = int(io[d, j, u]), int(ss[d, j, u]), int(oo[d, j, u])
    if count < 0 or start < 0 or dest < 0:
        raise InterpretationError(
            f"'{op.name}': device {d} has a negative offset or size for peer {j} (update {u})",
            op,
        )
    if start + count > rows_in or dest + count > rows_out:
        raise InterpretationError(
            f"'{op.name}': device {d} sends rows [{start}, {start + count}) of "
            f"{rows_in} to rows [{dest}, {dest + count}) of {rows_out} on device {peer}",
            op,
        )
    out[peer, dest : dest + count] = inp[d, start : start + count]


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
