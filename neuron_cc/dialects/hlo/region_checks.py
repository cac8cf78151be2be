"""Region signature checks shared by the ops added for issue 17 (map, select_and_scatter).

Each raises `VerifyException` naming the region (`what`) and the offending argument or result.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Region
from xdsl.utils.exceptions import VerifyException

from neuron_cc.dialects.hlo.control_flow import ReturnOp


def scalar(element: Attribute) -> TensorType[Attribute]:
    """The rank-0 tensor of `element`."""
    return TensorType(element, [])


def check_signature(
    region: Region, args: Sequence[Attribute], results: Sequence[Attribute], what: str
) -> None:
    """`region` takes exactly `args` and returns exactly `results` through `hlo.return`."""
    block = region.block
    got = [a.type for a in block.args]
    if len(got) != len(args):
        raise VerifyException(f"{what} region must take {len(args)} arguments, got {len(got)}")
    for i, (g, e) in enumerate(zip(got, args, strict=True)):
        if g != e:
            raise VerifyException(f"{what} region argument {i} has type {g}, expected {e}")
    last = block.last_op
    if not isinstance(last, ReturnOp):
        raise VerifyException(f"{what} region must end in hlo.return")
    returned = [o.type for o in last.operands]
    if returned != list(results):
        want = ", ".join(map(str, results))
        raise VerifyException(
            f"{what} region must return {want}, got {', '.join(map(str, returned)) or 'nothing'}"
        )
