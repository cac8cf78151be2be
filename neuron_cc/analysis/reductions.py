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
    """The op name of a region computing `op(arg0, arg1)` (either order), else None.

    Read off the block's two ops and its two arguments directly (no list or set is built: the
    passes ask this of every collective, several times)."""
    block = region.blocks.first
    if block is None:
        return None
    args = block.args
    combine = block.first_op
    if len(args) != 2 or combine is None or combine.name not in _SIMPLE:
        return None
    ret = combine.next_op
    if ret is None or ret.next_op is not None or ret.name != "hlo.return":
        return None
    returned = ret.operands
    operands = combine.operands
    if len(returned) != 1 or len(combine.results) != 1 or returned[0] is not combine.results[0]:
        return None
    if len(operands) != 2:
        return None
    a, b = operands
    x, y = args
    if not ((a is x and b is y) or (a is y and b is x)):
        return None
    return combine.name


_SIMPLE = frozenset(SIMPLE_REDUCERS)
