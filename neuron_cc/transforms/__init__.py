"""Lazy name -> class registry of neuron-cc's passes (one module per pass)."""

from collections.abc import Callable
from importlib import import_module

from xdsl.passes import ModulePass

_PASSES = {
    "hlo-dce": ("hlo_dce", "HloDcePass"),
    "hlo-sync-collectives": ("hlo_sync_collectives", "HloSyncCollectivesPass"),
    "decompose-cc-ops": ("decompose_cc_ops", "DecomposeCcOpsPass"),
    "legalize-cpu-cc-ops": ("legalize_cpu_cc_ops", "LegalizeCpuCcOpsPass"),
    "legalize-ccops-for-tensorizer": (
        "legalize_ccops_for_tensorizer",
        "LegalizeCcopsForTensorizerPass",
    ),
    "neuron-while-loop-all-reduce-code-motion": (
        "while_loop_all_reduce_code_motion",
        "WhileLoopAllReduceCodeMotionPass",
    ),
    "neuron-move-reduce-scatter-while-loop": (
        "move_reduce_scatter_while_loop",
        "MoveReduceScatterWhileLoopPass",
    ),
    "neuron-move-all-gather-while-loop": (
        "move_all_gather_while_loop",
        "MoveAllGatherWhileLoopPass",
    ),
    "neuron-default-pipeline": ("default_pipeline", "NeuronDefaultPipelinePass"),
    "all-reduce-combiner": ("all_reduce_combiner", "AllReduceCombinerPass"),
    "all-gather-combiner": ("all_gather_combiner", "AllGatherCombinerPass"),
    "reduce-scatter-combiner": ("reduce_scatter_combiner", "ReduceScatterCombinerPass"),
    "neuron-duplicate-parameter-all-gather-remover": (
        "duplicate_parameter_all_gather_remover",
        "DuplicateParameterAllGatherRemoverPass",
    ),
    "convert-hlo-to-bir": ("convert_hlo_to_bir", "ConvertHloToBirPass"),
    "spmd-expand-reshard": ("spmd_expand_reshard", "SpmdExpandReshardPass"),
}


def _loader(module: str, cls: str) -> Callable[[], type[ModulePass]]:
    def load() -> type[ModulePass]:
        return getattr(import_module(f"neuron_cc.transforms.{module}"), cls)

    return load


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Every pass neuron-cc defines, by its command-line name (imported on first use)."""
    return {name: _loader(module, cls) for name, (module, cls) in _PASSES.items()}
