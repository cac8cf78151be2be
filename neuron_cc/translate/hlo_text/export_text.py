"""Names and attribute text of the HLO text exporter (`neuron_cc.translate.hlo_text.exporter`).

`ExportError`; XLA-valid, module-unique instruction and computation names (`sanitize_name`,
`UniqueNames`, XLA's NameUniquer) and the substitution of names into a computation's template
(`substitute_names`); the text of attribute values (dimension lists, replica groups, windows,
padding, slices) and of raw `xla.<key>` attributes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from xdsl.dialects.builtin import (
    IntegerAttr,
    StringAttr,
    UnitAttr,
)
from xdsl.ir import Attribute

from neuron_cc.dialects.hlo.attributes import IotaDeviceList, ReplicaGroupsAttr
from neuron_cc.dialects.hlo.dimension_numbers import Window
from neuron_cc.dialects.sharding import ShardingAttr
from neuron_cc.translate.hlo_text.names import hlo_name_of

SPECIAL_OPCODES = {
    "hlo.clz": "count-leading-zeros",
    "hlo.optimization_barrier": "opt-barrier",
    "hlo.combined_collective_permute": "collective-permute",
    "hlo.in_place_collective_permute": "collective-permute",
}
"""The hlo ops whose XLA opcode is not their name with `_` -> `-`."""


def opcode_of(op_name: str) -> str:
    """The XLA opcode an hlo op prints as (`hlo.all_reduce` -> `all-reduce`)."""
    special = SPECIAL_OPCODES.get(op_name)
    return special if special is not None else op_name.removeprefix("hlo.").replace("_", "-")


class ExportError(Exception):
    """The module holds something that XLA HLO text cannot express."""


# --- names -----------------------------------------------------------------------------------

_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*")
_BAD_NAME_CHARS = re.compile(r"[^A-Za-z0-9_.\-]")
# XLA rejects names that spell a primitive type (`%pred`, `%s1`, `%f8e4m3fn`): add a `_`.
_TYPE_NAME_RE = re.compile(
    r"pred|token|opaque|[su](1|2|4|8|16|32|64)|b?f(16|32|64)|c(64|128)|f[48]e\d+m\d+[a-z0-9]*"
)


def sanitize_name(name: str) -> str:
    """A valid XLA name close to `name`."""
    if _NAME_RE.fullmatch(name) is None:
        name = _BAD_NAME_CHARS.sub("_", name)
        if not name or not (name[0].isalpha() or name[0] == "_"):
            name = "_" + name
    if _TYPE_NAME_RE.fullmatch(name) is not None:
        name += "_"
    return name


_PLAIN_NAME_RE = re.compile(rf"(?!(?:{_TYPE_NAME_RE.pattern})\Z){_NAME_RE.pattern}")
"""Names `sanitize_name` keeps as they are: valid, and not spelling a type."""


def instruction_name(hint: str) -> tuple[str, str]:
    """`(hlo_name_of(hint), sanitize_name(hlo_name_of(hint)))`: the HLO name of an SSA name
    hint and the base of its instruction name (one regex for the usual hint, which neither
    changes: a valid name that does not end in `_`, so `hlo_name_of` keeps it)."""
    if hint[-1:] != "_" and _PLAIN_NAME_RE.fullmatch(hint) is not None:
        return hint, hint
    name = hlo_name_of(hint)
    return name, sanitize_name(name)


class UniqueNames:
    """Hands out unique names: `base`, then `base.1`, `base.2`, ... (XLA's NameUniquer)."""

    def __init__(self) -> None:
        self.used: set[str] = set()
        self.counters: dict[str, int] = {}

    def unique(self, base: str) -> str:
        if base not in self.used:
            self.used.add(base)
            return base
        k = self.counters.get(base, 0)
        while True:
            k += 1
            candidate = f"{base}.{k}"
            if candidate not in self.used:
                break
        self.counters[base] = k
        self.used.add(candidate)
        return candidate

    def unique_all(self, bases: Iterable[str]) -> list[str]:
        """`[self.unique(base) for base in bases]` (the first use of a base inline)."""
        used, unique = self.used, self.unique
        names: list[str] = []
        for base in bases:
            if base in used:
                names.append(unique(base))
            else:
                used.add(base)
                names.append(base)
        return names


def substitute_names(template: str, names: Sequence[str]) -> str:
    parts = template.split("\0")
    parts[1::2] = [names[int(p)] for p in parts[1::2]]
    return "".join(parts)


# --- attribute text --------------------------------------------------------------------------


def dims_text(values: Iterable[int]) -> str:
    return "{" + ",".join(map(str, values)) + "}"


def groups_text(attr: ReplicaGroupsAttr) -> str:
    data = attr.data
    if isinstance(data, IotaDeviceList):
        text = f"[{data.num_groups},{data.group_size}]<=[{','.join(map(str, data.reshape_dims))}]"
        # XLA's parser wants T(...) after several reshape dims; canonical lists of >1 dims are
        # always transposed, so printing T only when non-identity satisfies it.
        if data.is_transposed:
            text += "T(" + ",".join(map(str, data.perm)) + ")"
        return text
    return "{" + ",".join(dims_text(g) for g in data) + "}"


def window_text(w: Window) -> str:
    ones = (1,) * len(w.size)
    fields = ["size=" + "x".join(map(str, w.size))]
    if w.stride != ones:
        fields.append("stride=" + "x".join(map(str, w.stride)))
    if any(p != (0, 0) for p in w.padding):
        fields.append("pad=" + "x".join(f"{lo}_{hi}" for lo, hi in w.padding))
    if w.base_dilation != ones:
        fields.append("lhs_dilate=" + "x".join(map(str, w.base_dilation)))
    if w.window_dilation != ones:
        fields.append("rhs_dilate=" + "x".join(map(str, w.window_dilation)))
    return "{" + " ".join(fields) + "}" if w.size else "{}"


def padding_text(low: Sequence[int], high: Sequence[int], interior: Sequence[int]) -> str:
    if any(interior):
        return "x".join(f"{lo}_{hi}_{i}" for lo, hi, i in zip(low, high, interior, strict=True))
    return "x".join(f"{lo}_{hi}" for lo, hi in zip(low, high, strict=True))


def slice_text(starts: Sequence[int], limits: Sequence[int], strides: Sequence[int]) -> str:
    parts = [
        f"[{a}:{b}]" if s == 1 else f"[{a}:{b}:{s}]"
        for a, b, s in zip(starts, limits, strides, strict=True)
    ]
    return "{" + ", ".join(parts) + "}"


def int_value(attr: IntegerAttr[Any]) -> int:
    return attr.value.data


SKIP_OP_ATTRS = frozenset({"xla.shape", "xla.fusion_kind"})
SKIP_ARG_ATTRS = frozenset({"xla.shape"})
NAMING_ATTRS = frozenset({"xla.control-predecessors"})
"""Raw attributes whose text names other instructions of the computation."""
REFERENCE = re.compile(r"%([A-Za-z_][A-Za-z0-9_.\-]*)")


def raw_value(key: str, value: Attribute, owner: str) -> str:
    if isinstance(value, ShardingAttr):
        return value.to_hlo_text()
    if isinstance(value, StringAttr):
        if "\0" in value.data:
            raise ExportError(f"attribute {key} of {owner} contains a NUL character")
        return value.data
    if isinstance(value, IntegerAttr):
        return str(value.value.data)
    if isinstance(value, UnitAttr):
        return "true"
    raise ExportError(f"attribute {key} of {owner} must be a string, got {value}")


def xla_attrs(attributes: Mapping[str, Attribute], skip: frozenset[str], owner: str) -> str:
    """`, key=value` for every `xla.key` attribute not in `skip`."""
    parts = [
        f", {key[4:]}={raw_value(key, value, owner)}"
        for key, value in attributes.items()
        if key.startswith("xla.") and key not in skip
    ]
    return "".join(parts)
