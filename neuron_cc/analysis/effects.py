"""Which ops may be erased when nothing uses their results: xDSL's effect machinery.

The hlo ops say what they do through xDSL's effect traits (`Pure` / `NoMemoryEffect`:
elementwise, data movement, `partition_id`, `replica_id`, `hlo.return`;
`RecursiveMemoryEffect`: `while`, `conditional`, which have the effects of their bodies;
`CustomCallEffects`: a write when `has_side_effect` is set). An op without an effect trait
(collectives, send/recv, `call`, `optimization_barrier`, `after_all`) has unknown effects and is
never removable - XLA's HloDCE rule. `is_removable` is xDSL's `would_be_trivially_dead`
(not a terminator, not a symbol such as `func.func`, and no effect beyond its results); `hlo-dce`
runs xDSL's `region_dce` with it, and the loop analyses use it for what a moved slice may leave.
"""

from __future__ import annotations

from xdsl.ir import Operation
from xdsl.transforms.dead_code_elimination import would_be_trivially_dead


def is_removable(op: Operation) -> bool:
    """True if `op` may be erased when its results are unused."""
    return would_be_trivially_dead(op)
