"""What the console scripts know: xDSL's basic dialects and passes plus neuron-cc's."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import get_all_dialects as xdsl_dialects
from xdsl.ir import Dialect
from xdsl.passes import ModulePass
from xdsl.transforms import get_all_passes as xdsl_passes

from neuron_cc.dialects import get_all_dialects
from neuron_cc.transforms import get_all_passes

XDSL_DIALECTS = ("builtin", "func", "arith", "scf", "test")


def available_dialects() -> dict[str, Callable[[], Dialect]]:
    """xDSL's builtin/func/arith/scf/test dialects plus neuron-cc's."""
    upstream = xdsl_dialects()
    dialects = {name: upstream[name] for name in XDSL_DIALECTS}
    dialects.update(get_all_dialects())
    return dialects


def available_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """xDSL's passes plus neuron-cc's (ours win on a name clash)."""
    passes = dict(xdsl_passes())
    passes.update(get_all_passes())
    return passes
