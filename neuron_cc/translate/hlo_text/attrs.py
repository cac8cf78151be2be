"""Interpreters of raw HLO attribute values (`dimensions={1,0}`, `replica_groups=...`, ...).

Each function takes the raw text captured by the parser and returns Python values or xDSL
attributes; malformed text raises `AttrError(message)`, which the importer locates at the
instruction.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import product

from neuron_cc.dialects.hlo.attributes import IotaDeviceList, ReplicaGroupsAttr
from neuron_cc.dialects.hlo.dimension_numbers import WindowAttr


class AttrError(ValueError):
    """A malformed attribute value."""


_INTS = re.compile(r"-?[0-9]+")
_IOTA = re.compile(r"\[([0-9, ]+)\]<=\[([0-9, ]+)\](?:T\(([0-9, ]+)\))?$")
_MESH = re.compile(r"mesh\[([^\]]*)\](?:\s*,\s*device_ids=\((.*)\))?\s*(?:\{([^}]*)\})?$", re.S)
_MESH_AXIS = re.compile(r"'([^']*)'\s*=\s*([0-9]+)")


def ints(raw: str) -> tuple[int, ...]:
    """`{1,0}` / `{}` -> (1, 0) / ()."""
    body = raw.strip()
    if not (body.startswith("{") and body.endswith("}")):
        raise AttrError(f"expected '{{...}}' with integers, got '{raw}'")
    inner = body[1:-1]
    values = tuple(int(v) for v in _INTS.findall(inner))
    if inner.replace(",", "").replace("-", "").replace(" ", "").strip("0123456789"):
        raise AttrError(f"expected integers in '{raw}'")
    return values


def integer(raw: str) -> int:
    """A signed 64-bit integer (every integer attribute of the dialect is an i64)."""
    try:
        value = int(raw.strip())
    except ValueError:
        raise AttrError(f"expected an integer, got '{raw}'") from None
    if not -(2**63) <= value < 2**63:
        raise AttrError(f"integer {value} does not fit in 64 bits")
    return value


def boolean(raw: str) -> bool:
    value = raw.strip()
    if value not in ("true", "false"):
        raise AttrError(f"expected true or false, got '{raw}'")
    return value == "true"


def single_dimension(raw: str) -> int:
    values = ints(raw)
    if len(values) != 1:
        raise AttrError(f"expected exactly one dimension, got '{raw}'")
    return values[0]


def computation_names(raw: str) -> list[str]:
    """`%f` / `{%a, %b}` -> names without `%`."""
    body = raw.strip()
    if body.startswith("{"):
        body = body[1:-1]
    names = [n.strip().lstrip("%") for n in body.split(",") if n.strip()]
    if not names:
        raise AttrError(f"expected computation names, got '{raw}'")
    return names


def nested_int_lists(raw: str) -> list[tuple[int, ...]]:
    """`{{0,1},{2,3}}` -> [(0, 1), (2, 3)]; `{}` -> []."""
    body = raw.strip()
    if not (body.startswith("{") and body.endswith("}")):
        raise AttrError(f"expected '{{{{...}}}}' groups, got '{raw}'")
    inner = body[1:-1].strip()
    if not inner:
        return []
    groups = re.findall(r"\{([^{}]*)\}", inner)
    if not groups or re.sub(r"\{[^{}]*\}", "", inner).replace(",", "").strip():
        raise AttrError(f"malformed groups '{raw}'")
    return [tuple(int(v) for v in _INTS.findall(g)) for g in groups]


def pairs(raw: str) -> tuple[tuple[int, int], ...]:
    """`{{0,1},{1,0}}` -> ((0, 1), (1, 0)); each entry must be a pair."""
    result: list[tuple[int, int]] = []
    for group in nested_int_lists(raw):
        if len(group) != 2:
            raise AttrError(f"a source-target pair needs exactly two ids, got {list(group)}")
        result.append((group[0], group[1]))
    return tuple(result)


def replica_groups(raw: str) -> ReplicaGroupsAttr:
    """Explicit `{{0,1},{2,3}}`, iota `[2,4]<=[4,2]T(1,0)` or mesh-axes `mesh['a'=2] {'a'}`."""
    body = raw.strip()
    if body.startswith("["):
        return ReplicaGroupsAttr(_iota(body))
    if body.startswith("mesh"):
        return ReplicaGroupsAttr(mesh_groups(body))
    return ReplicaGroupsAttr(tuple(nested_int_lists(body)))


def _iota(body: str) -> IotaDeviceList:
    m = _IOTA.match(body.replace(" ", ""))
    if m is None:
        raise AttrError(f"malformed iota replica groups '{body}'")
    gs = [int(v) for v in m.group(1).split(",")]
    dims = tuple(int(v) for v in m.group(2).split(","))
    perm = tuple(int(v) for v in m.group(3).split(",")) if m.group(3) else tuple(range(len(dims)))
    if len(gs) != 2:
        raise AttrError(f"iota replica groups need [num_groups,group_size], got '{body}'")
    iota = IotaDeviceList(gs[0], gs[1], dims, perm)
    problem = iota.problem()
    if problem is not None:
        raise AttrError(problem)
    return iota


def _device_array(spec: str | None, size: int) -> list[int]:
    """`device_ids=([2,4]T(1,0))` -> the flattened device order (default arange)."""
    if spec is None:
        return list(range(size))
    spec = spec.strip().replace(" ", "")
    m = re.match(r"\[([0-9,]+)\](?:T\(([0-9,]+)\))?$", spec)
    if m is not None:
        dims = tuple(int(v) for v in m.group(1).split(","))
        perm = (
            tuple(int(v) for v in m.group(2).split(",")) if m.group(2) else tuple(range(len(dims)))
        )
        total = 1
        for d in dims:
            total *= d
        iota = IotaDeviceList(1, total, dims, perm)
        if iota.problem() is not None or total != size:
            raise AttrError(f"device_ids {spec} do not fit a mesh of {size} devices")
        return list(iota.expand()[0])
    ids = [int(v) for v in _INTS.findall(spec)]
    if sorted(ids) != list(range(size)):
        raise AttrError(f"device_ids {spec} are not a permutation of the {size} mesh devices")
    return ids


def mesh_groups(body: str) -> tuple[tuple[int, ...], ...]:
    """Expand `mesh['a'=2,'b'=4], device_ids=(...) {'a'}` into explicit groups.

    Devices are laid out row-major over the mesh axes (through `device_ids` when given); a
    group collects the devices that differ only along the selected axes (in the order listed),
    one group per combination of the other axes, in row-major order.
    """
    m = _MESH.match(body)
    if m is None:
        raise AttrError(f"malformed mesh replica groups '{body}'")
    axes = [(name, int(size)) for name, size in _MESH_AXIS.findall(m.group(1))]
    if not axes:
        raise AttrError(f"mesh replica groups without axes '{body}'")
    names = [a for a, _ in axes]
    sizes = [s for _, s in axes]
    total = 1
    for s in sizes:
        total *= s
    devices = _device_array(m.group(2), total)
    selected = re.findall(r"'([^']*)'", m.group(3) or "") or names
    for a in selected:
        if a not in names:
            raise AttrError(f"mesh replica groups select unknown axis '{a}'")
    sel = [names.index(a) for a in selected]
    rest = [i for i in range(len(names)) if i not in sel]
    strides = [1] * len(sizes)
    for i in range(len(sizes) - 2, -1, -1):
        strides[i] = strides[i + 1] * sizes[i + 1]
    groups: list[tuple[int, ...]] = []
    for outer in product(*(range(sizes[i]) for i in rest)):
        base = sum(o * strides[i] for o, i in zip(outer, rest, strict=True))
        group = [
            devices[base + sum(v * strides[i] for v, i in zip(inner, sel, strict=True))]
            for inner in product(*(range(sizes[i]) for i in sel))
        ]
        groups.append(tuple(group))
    return tuple(groups)


def slice_ranges(raw: str) -> tuple[list[int], list[int], list[int]]:
    """`{[0:4], [1:8:2]}` -> (starts, limits, strides)."""
    body = raw.strip()
    parts = re.findall(r"\[([^\]]*)\]", body)
    starts: list[int] = []
    limits: list[int] = []
    strides: list[int] = []
    for part in parts:
        fields = [f.strip() for f in part.split(":")]
        if len(fields) not in (2, 3) or not all(_INTS.fullmatch(f) for f in fields):
            raise AttrError(f"malformed slice range '[{part}]'")
        starts.append(int(fields[0]))
        limits.append(int(fields[1]))
        strides.append(int(fields[2]) if len(fields) == 3 else 1)
    return starts, limits, strides


def padding(raw: str, rank: int) -> tuple[list[int], list[int], list[int]]:
    """`0_1_0x1_1_0` -> (low, high, interior); rank-0 pads are empty."""
    body = raw.strip()
    low: list[int] = []
    high: list[int] = []
    interior: list[int] = []
    if body:
        for dim in body.split("x"):
            fields = dim.split("_")
            if len(fields) not in (2, 3) or not all(_INTS.fullmatch(f) for f in fields):
                raise AttrError(f"malformed padding '{raw}'")
            low.append(int(fields[0]))
            high.append(int(fields[1]))
            interior.append(int(fields[2]) if len(fields) == 3 else 0)
    if len(low) != rank:
        raise AttrError(f"padding '{raw}' has {len(low)} dimensions, the operand has rank {rank}")
    return low, high, interior


def window(raw: str) -> WindowAttr:
    """`{size=2x2 stride=1x1 pad=0_0x0_1 lhs_dilate=1x1 rhs_dilate=1x1}`."""
    body = raw.strip()
    if not (body.startswith("{") and body.endswith("}")):
        raise AttrError(f"malformed window '{raw}'")
    if not body[1:-1].strip():
        return WindowAttr.make([])
    fields: dict[str, str] = {}
    for item in body[1:-1].split():
        key, _, value = item.partition("=")
        fields[key] = value
    unknown = set(fields) - {"size", "stride", "pad", "lhs_dilate", "rhs_dilate"}
    if unknown or "size" not in fields:
        raise AttrError(f"unsupported window '{raw}'")

    def xs(key: str) -> list[int] | None:
        value = fields.get(key)
        return None if value is None else [int(v) for v in value.split("x")]

    pads = None
    if "pad" in fields:
        pads = [tuple(int(v) for v in p.split("_")) for p in fields["pad"].split("x")]
    size = xs("size") or []
    return WindowAttr.make(size, xs("stride"), pads, xs("lhs_dilate"), xs("rhs_dilate"))


def mesh_partition_count(raw: str) -> int | None:
    """Number of devices of `xla.sdy.meshes={mesh = #sdy.mesh<["x"=8]>}` (first mesh)."""
    m = re.search(r"#sdy\.mesh<\[([^\]]*)\]", raw)
    if m is None:
        return None
    sizes = [int(v) for v in re.findall(r'"[^"]*"\s*=\s*([0-9]+)', m.group(1))]
    if not sizes:
        return None
    total = 1
    for s in sizes:
        total *= s
    return total


def check_rank(values: Sequence[int], rank: int, what: str) -> None:
    if len(values) != rank:
        raise AttrError(f"{what} has {len(values)} entries, expected {rank}")
