"""The text of a random HLO program that XLA:CPU (through jax) can compile and run.

XLA:CPU runs several partitions only through the SPMD partitioner, which refuses
`partition-id` unless it is manually sharded. `manual_text` therefore gives every instruction
of the entry `sharding={manual}` (the ROOT tuple a tuple of them; other tuple-shaped
instructions are left to sharding propagation, because jax's HLO -> StableHLO round trip
rejects tuple shardings on them): a fully manual module is exactly the program every device
runs, so partitions, replica ids and group modes stay real. Loop bodies and conditions are
annotated too (propagation does not reach dead tuple-shaped ops there: a CHECK failure). Compile it with num_replicas=R,
num_partitions=P and use_spmd_partitioning.

The SPMD partitioner supports only single-operand all-reduces in manual mode (a RET_CHECK, or
an abort), so a partitioned program with a variadic all-reduce is run as `replica_text`: R*P
replicas x 1 partition, every collective rewritten cross-replica over the flattened device
ids of its groups (random_hlo_groups), partition-id = replica-id mod P and replica-id =
replica-id / P. That form checks XLA's execution, not its reading of the group modes.
"""

from __future__ import annotations

from dataclasses import replace

from neuron_cc.testing import random_hlo_groups as G
from neuron_cc.testing.random_hlo import RandomProgram
from neuron_cc.testing.random_hlo_eval import group_mode_of
from neuron_cc.testing.random_hlo_text import (
    Instr,
    parse_instruction,
    render_instruction,
)

_GROUPED = ("all-reduce", "all-gather", "reduce-scatter", "all-to-all")


def xla_text(program: RandomProgram) -> str:
    """The text to run on XLA:CPU: `program.text` itself when P == 1, else the manual or the
    replica form (see the module docstring); `xla_mesh` gives the mesh to compile it for."""
    if program.partitions == 1:
        return program.text
    if needs_replica_form(program):
        return replica_text(program)
    return manual_text(program)


def xla_mesh(program: RandomProgram) -> tuple[int, int]:
    """(num_replicas, num_partitions) to compile `xla_text(program)` for."""
    if program.partitions > 1 and needs_replica_form(program):
        return program.replicas * program.partitions, 1
    return program.replicas, program.partitions


def needs_replica_form(program: RandomProgram) -> bool:
    return any(_is_variadic_all_reduce(line) for line in program.text.splitlines())


def _is_variadic_all_reduce(line: str) -> bool:
    return " all-reduce(" in line and line.split("=", 1)[1].lstrip().startswith("(")


def manual_text(program: RandomProgram) -> str:
    """Every array-shaped instruction of the entry and of the loop bodies and conditions
    (not of the `to_apply` reducers) `sharding={manual}`, and the entry's ROOT tuple."""
    out: list[str] = []
    computation = ""
    for line in program.text.splitlines():
        stripped = line.strip()
        if stripped.endswith("{") and not stripped.startswith("HloModule"):
            computation = stripped
            out.append(line)
        elif " = " in stripped and not computation.endswith(".red {"):
            out.append(_manual(line, computation.startswith("ENTRY")))
        else:
            out.append(line)
    return "\n".join(out) + "\n"


def _manual(line: str, entry: bool) -> str:
    instr = parse_instruction(line.strip())
    if not instr.type.is_tuple:
        return f"{line}, sharding={{manual}}"
    if instr.root and entry:
        leaves = ",".join("{manual}" for _ in instr.type.leaves)
        return f"{line}, sharding={{{leaves}}}"
    return line


def replica_text(program: RandomProgram) -> str:
    r, p = program.replicas, program.partitions
    out: list[str] = []
    for line in program.text.splitlines():
        stripped = line.strip()
        if stripped.startswith("HloModule"):
            name = stripped.split()[1].rstrip(",")
            out.append(f"HloModule {name}, replica_count={r * p}, num_partitions=1")
        elif " = " in stripped and "(" in stripped and not stripped.endswith("{"):
            out.extend(_as_replicas(parse_instruction(stripped), r, p))
        else:
            out.append(line)
    return "\n".join(out) + "\n"


def _as_replicas(instr: Instr, replicas: int, partitions: int) -> list[str]:
    attrs = dict(instr.attrs)
    if instr.opcode in _GROUPED:
        groups = G.device_groups(
            group_mode_of(instr),
            G.parse_groups(attrs.get("replica_groups", "{}")),
            replicas,
            partitions,
        )
        attrs = {k: v for k, v in attrs.items() if k not in ("channel_id", "use_global_device_ids")}
        attrs["replica_groups"] = G.explicit_text(groups)
        return [render_instruction(replace(instr, attrs=attrs))]
    if instr.opcode == "collective-permute":
        pairs = G.permute_device_pairs(
            group_mode_of(instr), G.parse_pairs(attrs["source_target_pairs"]), replicas, partitions
        )
        attrs.pop("channel_id", None)
        attrs["source_target_pairs"] = "{" + ",".join(f"{{{s},{t}}}" for s, t in pairs) + "}"
        return [render_instruction(replace(instr, attrs=attrs))]
    if instr.opcode in ("replica-id", "partition-id"):
        return _device_id(instr, partitions)
    return [render_instruction(instr)]


def _device_id(instr: Instr, partitions: int) -> list[str]:
    """replica-id = flat / P, partition-id = flat mod P, with flat the replica id of the
    flattened module."""
    flat, count = f"{instr.name}.flat", f"{instr.name}.count"
    op = "divide" if instr.opcode == "replica-id" else "remainder"
    return [
        f"  {flat} = u32[] replica-id()",
        f"  {count} = u32[] constant({partitions})",
        f"  {'ROOT ' if instr.root else ''}{instr.name} = u32[] {op}({flat}, {count})",
    ]
