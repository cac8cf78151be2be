"""xDSL plugin entry point: makes `xdsl-opt` know neuron-cc's dialects and passes."""

from xdsl.universe import Universe

from neuron_cc.dialects import get_all_dialects
from neuron_cc.transforms import get_all_passes

NEURON_CC_UNIVERSE = Universe(all_dialects=get_all_dialects(), all_passes=get_all_passes())
