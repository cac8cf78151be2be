"""neuron-cc: the collective-communication layer of an ML-accelerator compiler, on xDSL.

The Python API (`neuron_cc.api`) is re-exported here and imported on first use, so that
`import neuron_cc.dialects...` stays as light as it was: `neuron_cc.import_hlo(...)`,
`neuron_cc.run_pipeline(...)`, `neuron_cc.NeuronError`, ...
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # for type checkers; at run time `__getattr__` imports the API on first use
    from neuron_cc.api import (
        NeuronError,
        collective_stats,
        export_hlo,
        import_hlo,
        parse_mlir,
        remarks,
        run,
        run_pipeline,
        to_bir_json,
    )

__all__ = [
    "NeuronError",
    "collective_stats",
    "export_hlo",
    "import_hlo",
    "parse_mlir",
    "remarks",
    "run",
    "run_pipeline",
    "to_bir_json",
]
_API = frozenset(__all__)


def __getattr__(name: str) -> Any:
    if name in _API:
        from neuron_cc import api

        return getattr(api, name)
    raise AttributeError(f"module 'neuron_cc' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_API])
