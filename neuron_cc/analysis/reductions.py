"""Reduction regions (`to_apply`): recognising the common ones.

A "simple" reducer computes `op(arg0, arg1)` (either order) with op one of add, multiply,
maximum, minimum, and, or, xor and returns it. Passes use `reduction_kind` to rebuild a reducer
at another element type (`neuron_cc.dialects.hlo.builders.build_reduction_region`); the
interpreter uses it to run reductions as numpy ufuncs.
"""

from __future__ import annotations

from xdsl.ir import Region

SIMPLE_REDUCERS = (
    "hlo.add",
    "hlo.multiply",
    "hlo.maximum",
    "hlo.minimum",
    "hlo.and",
    "hlo.or",
    "hlo.xor",
)


def reduction_kind(region: Region) -> str | None:
    """The op name of a region computing `op(arg0, arg1)` (either order), else None."""
    block = region.blocks.first
    if block is None or len(block.args) != 2:
        return None
    ops = list(block.ops)
    if len(ops) != 2 or ops[0].name not in SIMPLE_REDUCERS:
        return None
    combine, ret = ops
    if ret.name != "hlo.return" or list(ret.operands) != [combine.results[0]]:
        return None
    if set(combine.operands) != set(block.args) or len(set(combine.operands)) != 2:
        return None
    return combine.name
