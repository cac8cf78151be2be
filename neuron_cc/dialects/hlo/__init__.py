"""The hlo dialect: XLA HLO semantics in MLIR form (docs/dialects.md §3).

Ops are split by topic: `collectives`, `p2p` (permute, send/recv, ids), `control_flow`
(tuples, while, conditional, call, custom_call, ...), `elementwise`, `data_movement` and
`computation` (dot, reduce, reduce_window, gather, scatter, sort); `convolution`,
`select_and_scatter`, `elementwise_map` (map), `topk`, `ragged_all_to_all`, `scheduling`
(add_dependency, domain, copy_start/done), `host_feeds` (infeed/outfeed), `rng`, `batch_norm`
(training, inference, grad), `linalg` (cholesky, triangular_solve), `fft`, `combined_permute` and
`in_place_permute` (issue 17).
"""

from xdsl.ir import Dialect

from neuron_cc.dialects import (
    sharding,  # no hlo imports there: no cycle
    verify_cache,
)
from neuron_cc.dialects.hlo import (
    async_ops,
    attributes,
    batch_norm,
    collectives,
    combined_permute,
    computation,
    control_flow,
    convolution,
    data_movement,
    elementwise,
    elementwise_map,
    fft,
    host_feeds,
    in_place_permute,
    linalg,
    p2p,
    ragged_all_to_all,
    rng,
    scheduling,
    select_and_scatter,
    topk,
    types,
)

_OPS = [
    *collectives.OPS,
    *async_ops.OPS,
    *p2p.OPS,
    *combined_permute.OPS,
    *in_place_permute.OPS,
    *control_flow.OPS,
    *elementwise.OPS,
    *data_movement.OPS,
    *computation.OPS,
    *convolution.OPS,
    *select_and_scatter.OPS,
    *elementwise_map.OPS,
    *topk.OPS,
    *ragged_all_to_all.OPS,
    *scheduling.OPS,
    *host_feeds.OPS,
    *rng.OPS,
    *batch_norm.OPS,
    *linalg.OPS,
    *fft.OPS,
]
_ATTRS = [
    types.TokenType,
    attributes.ReplicaGroupsAttr,
    attributes.SourceTargetPairsAttr,
    attributes.DimensionsAttr,
    attributes.ComparisonDirectionAttr,
    attributes.ComparisonTypeAttr,
    *elementwise.ATTRS,
    *data_movement.ATTRS,
    *computation.ATTRS,
    *linalg.ATTRS,
    *fft.ATTRS,
    sharding.ShardingAttr,
]

HLO = Dialect("hlo", _OPS, _ATTRS)
"""The hlo dialect object, as registered with xDSL contexts."""

# Elementwise, data-movement and dot verifiers read only operand/result types and properties.
verify_cache.install(_OPS, local=[*elementwise.OPS, *data_movement.OPS, computation.DotOp])
