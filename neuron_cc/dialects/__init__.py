"""Lazy name -> factory registry of neuron-cc's dialects."""

from collections.abc import Callable

from xdsl.ir import Dialect

from neuron_cc.dialects import xdsl_patches

# The one point where neuron-cc changes xDSL (before any of our dialects is defined).
xdsl_patches.install()


def get_hlo() -> Dialect:
    from neuron_cc.dialects.hlo import HLO

    return HLO


def get_bir() -> Dialect:
    from neuron_cc.dialects.bir import BIR

    return BIR


def get_all_dialects() -> dict[str, Callable[[], Dialect]]:
    """Every dialect neuron-cc defines, by name."""
    return {"hlo": get_hlo, "bir": get_bir}
