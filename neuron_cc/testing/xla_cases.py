"""The programs the XLA oracle (`neuron_cc.testing.xla_oracle`) gives XLA and what it returns.

`XlaCase` (HLO text, mesh, per-device inputs and parameter dtypes), built from a module by
`xla_case` with the exact rewrites of `neuron_cc.testing.xla_rewrites` (and the manual
sharding of region parameters, marked on the text) or by `parse_case` for a parse-only case;
`XlaResult` (status, per-device outputs or why not).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute

from neuron_cc.dialects.hlo.types import element_type_name, tensor_type
from neuron_cc.dialects.replica_groups import device_counts
from neuron_cc.interpreter.runner import entry_function
from neuron_cc.testing.xla_rewrites import (
    explicit_all_to_all_groups,
    mark_manual,
    partitions_to_replicas,
    split_variadic_collectives,
    unique_channel_ids,
)
from neuron_cc.translate.hlo_text.exporter import export_hlo

Array = np.ndarray[Any, Any]


@dataclass(frozen=True)
class XlaCase:
    """One program for XLA: HLO text, its mesh and per-device inputs (leading axis R*P)."""

    name: str
    text: str
    replicas: int
    partitions: int
    inputs: Sequence[Array]
    params: Sequence[str]
    """The numpy dtype name of each parameter as XLA takes it (`bfloat16`, `float32`, ...)."""
    spmd: bool = False
    parse_only: bool = False
    """Only parse (and verify) the text: the result is "ok" (no outputs) or "rejected"."""

    @property
    def devices(self) -> int:
        return self.replicas * self.partitions


Status = Literal["ok", "rejected", "error", "crash", "timeout"]


@dataclass(frozen=True)
class XlaResult:
    """What XLA made of one case: per output its per-device values (status "ok"), else why
    not (`stage`: "parse" or "compile" for "rejected")."""

    status: Status
    outputs: list[Array] = field(default_factory=list[Array])
    message: str = ""
    stage: str = ""

    @property
    def ok(self) -> bool:
        return self.status == "ok"


def parse_case(text: str, name: str = "text") -> XlaCase:
    """A case that only parses `text` (it may share a batch with cases that run)."""
    return XlaCase(name, text, 1, 1, [], [], parse_only=True)


def _xla_dtype(t: Attribute) -> str:
    return numpy_name(element_type_name(tensor_type(t).element_type))


def numpy_name(name: str) -> str:
    """The numpy dtype name of XLA element type `name` (`bf16` -> `bfloat16`, `s32` ->
    `int32`, `c64` -> `complex64`, `pred` -> `bool`)."""
    if name == "pred":
        return "bool"
    if name == "bf16":
        return "bfloat16"
    kind = {"s": "int", "u": "uint", "f": "float", "c": "complex"}[name[0]]
    return f"{kind}{name[1:]}"


def xla_case(
    module: ModuleOp,
    inputs: Sequence[Array],
    name: str = "program",
    *,
    as_replicas: bool = False,
    exact_rewrites: bool = True,
    anonymous: bool = False,
) -> XlaCase:
    """The XLA case of `module` (not changed: a clone is rewritten) on `inputs`, the
    per-device entry arguments `neuron-run` takes. See the module docstring for the rewrites;
    `exact_rewrites=False` leaves out the split of variadic collectives, the explicit
    all_to_all groups and the unique channel ids (the program is then exported as it is).
    `anonymous` drops the value names (XLA-style names are given): structurally equal modules
    then have equal texts."""
    module = module.clone(clone_name_hints=not anonymous)
    if exact_rewrites:
        split_variadic_collectives(module)
        explicit_all_to_all_groups(module)
        unique_channel_ids(module)
    replicas, partitions = device_counts(module)
    spmd = False
    if as_replicas:
        partitions_to_replicas(module)
        replicas, partitions = partitions, 1
    elif partitions > 1:
        mark_manual(module)
        spmd = True
    params = [_xla_dtype(t) for t in entry_function(module).function_type.inputs.data]
    arrays = [np.asarray(a) for a in inputs]
    text = export_hlo(module)
    if spmd:
        text = _manual_parameters(text)
    return XlaCase(name, text, replicas, partitions, arrays, params, spmd)


_PARAMETER = re.compile(
    r"^(\s*(?:ROOT )?%\S+ = )(\S.*?) parameter\((\d+)\)((?:(?!sharding=).)*)$", re.M
)


def _manual_parameters(text: str) -> str:
    """Mark the parameters of every computation `sharding={manual}` (region arguments have no
    attributes in the IR, so this is done on the text)."""

    def mark(match: re.Match[str]) -> str:
        shape = match.group(2)
        leaves = shape.count("[") if shape.startswith("(") else 0
        sharding = "{" + ", ".join(["{manual}"] * leaves) + "}" if leaves else "{manual}"
        return f"{match.group(0)}, sharding={sharding}"

    return _PARAMETER.sub(mark, text)
