"""The pass configurations the differential properties check, and which may reassociate.

`PASS_CONFIGS` is every hlo -> hlo pass of neuron-opt with the option sets worth checking;
tests/test_properties.py (against the interpreter) and `neuron_cc.testing.xla_oracle` (against
XLA:CPU) both run them. `REASSOCIATING` names the passes compared within a tolerance
(`F32_REASSOCIATION` / `BF16_REASSOCIATION` of the output's largest magnitude), every other
pass bit for bit.
"""

from __future__ import annotations

from typing import Any

F32_REASSOCIATION = 1e-4
BF16_REASSOCIATION = 2.0**-4

PassConfig = tuple[str, dict[str, Any]]

PASS_CONFIGS: list[PassConfig] = [
    ("hlo-dce", {}),
    ("hlo-sync-collectives", {}),
    ("decompose-cc-ops", {}),
    ("decompose-cc-ops", {"all_computations": True}),
    ("legalize-cpu-cc-ops", {}),
    ("legalize-cpu-cc-ops", {"all_computations": True}),
    ("legalize-ccops-for-tensorizer", {}),
    ("neuron-while-loop-all-reduce-code-motion", {}),
    (
        "neuron-while-loop-all-reduce-code-motion",
        {"enable_reduce_scatter": True, "run_setup_passes": True},
    ),
    ("neuron-move-reduce-scatter-while-loop", {}),
    ("neuron-move-all-gather-while-loop", {}),
    ("neuron-move-all-gather-while-loop", {"reference_replica_groups": "0,1,2,3;4,5,6,7"}),
    ("neuron-duplicate-parameter-all-gather-remover", {}),
    ("spmd-expand-reshard", {}),
    ("neuron-default-pipeline", {}),
    ("all-reduce-combiner", {}),
    ("all-reduce-combiner", {"threshold_count": 2, "combine_different_dtypes": False}),
    ("all-gather-combiner", {}),
    ("all-gather-combiner", {"combine_by_dim": False}),
    ("reduce-scatter-combiner", {}),
    ("reduce-scatter-combiner", {"combine_by_dim": False, "skip_while_bodies": True}),
]
"""Every hlo -> hlo pass of neuron-opt, with the option sets worth checking."""


REASSOCIATING = frozenset(
    {
        "neuron-while-loop-all-reduce-code-motion",
        "neuron-move-reduce-scatter-while-loop",
        "neuron-default-pipeline",
        "legalize-ccops-for-tensorizer",
    }
)
"""Passes whose sums are legitimately computed differently, compared with the "reassociated"
tolerance (every other pass bit for bit): the loop passes move an all-reduce / reduce-scatter of
a sum out of a loop (the sum is reassociated), and legalize-ccops-for-tensorizer computes a mixed
f32+s32 sum at f64 and rounds once (XLA:CPU adds the devices' f32 values one by one; HLO leaves
that order open, and one rounding is within the bound of any order's)."""


def config_id(config: PassConfig) -> str:
    name, options = config
    return name + "".join(f"[{k}={v}]" for k, v in sorted(options.items()))
