"""The unit the program generators produce: a valid hlo module as text plus its device mesh.

Generators (`neuron_cc.testing.generate`, `neuron_cc.testing.generate_loops`) yield
`GeneratedProgram`s; property tests and the fuzzer parse `text` with the neuron-cc context, so a
generated program is always reproducible from what a failing example prints.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GeneratedProgram:
    """One generated module.

    `text` is a complete `builtin.module` in neuron-cc's pretty .mlir syntax, carrying
    `hlo.num_replicas` / `hlo.num_partitions` equal to `num_replicas` / `num_partitions`.
    `description` names the recipe (e.g. "while/all_reduce movable", "near-miss: max reducer")
    so failures and statistics can be grouped by kind.
    """

    text: str
    num_replicas: int
    num_partitions: int
    description: str

    @property
    def num_devices(self) -> int:
        return self.num_replicas * self.num_partitions
