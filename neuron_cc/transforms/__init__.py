"""Lazy name -> class registry of neuron-cc's passes (one module per pass)."""

from collections.abc import Callable

from xdsl.passes import ModulePass


def get_hlo_dce() -> type[ModulePass]:
    from neuron_cc.transforms.hlo_dce import HloDcePass

    return HloDcePass


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Every pass neuron-cc defines, by its command-line name."""
    return {"hlo-dce": get_hlo_dce}
