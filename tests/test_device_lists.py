"""Device lists (issue 8 §1): iota canonicalisation, lazy expansion, replica expansion, detection."""

from __future__ import annotations

import itertools
import math
from io import StringIO

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.printer import Printer

from neuron_cc.dialects.hlo.attributes import (
    Groups,
    IotaDeviceList,
    ReplicaGroupsAttr,
    canonical_iota_dims,
)
from neuron_cc.spmd.device_lists import (
    expand_partition_groups_across_replicas,
    find_iota_device_list,
    iota_or_explicit,
)


def _text(attr: ReplicaGroupsAttr) -> str:
    stream = StringIO()
    attr.print_body(Printer(stream=stream))
    return stream.getvalue()


def _numpy_groups(g: int, s: int, dims: tuple[int, ...], perm: tuple[int, ...]) -> Groups:
    rows = np.arange(g * s).reshape(dims).transpose(perm).reshape(g, s)
    return tuple(tuple(int(v) for v in row) for row in rows)


# --- the worked expansions -----------------------------------------------------------

WORKED = [
    (2, 4, (8,), (0,), ((0, 1, 2, 3), (4, 5, 6, 7))),
    (2, 4, (4, 2), (1, 0), ((0, 2, 4, 6), (1, 3, 5, 7))),
    (4, 2, (2, 4), (1, 0), ((0, 4), (1, 5), (2, 6), (3, 7))),
    (4, 2, (2, 2, 2), (0, 2, 1), ((0, 2), (1, 3), (4, 6), (5, 7))),
    (2, 4, (2, 2, 2), (1, 2, 0), ((0, 4, 1, 5), (2, 6, 3, 7))),
]


@pytest.mark.parametrize(("g", "s", "dims", "perm", "expected"), WORKED)
def test_worked_expansions(
    g: int, s: int, dims: tuple[int, ...], perm: tuple[int, ...], expected: Groups
) -> None:
    assert IotaDeviceList(g, s, dims, perm).expand() == expected
    assert ReplicaGroupsAttr.iota(g, s, dims, perm).groups() == expected


# --- canonicalisation ------------------------------------------------------------------------

CANONICAL = [
    # (dims, perm) -> (canonical dims, canonical perm)
    ((3, 4, 5), (1, 2, 0), (3, 20), (1, 0)),
    ((2, 4), (0, 1), (8,), (0,)),
    ((2, 1, 4), (2, 1, 0), (2, 4), (1, 0)),
    ((2, 2, 2), (1, 2, 0), (2, 4), (1, 0)),
    ((2, 2, 2), (0, 2, 1), (2, 2, 2), (0, 2, 1)),
    ((1, 8, 1), (2, 0, 1), (8,), (0,)),
    ((1, 1), (1, 0), (1,), (0,)),
    ((2, 3, 4, 5), (2, 3, 0, 1), (6, 20), (1, 0)),
    ((2, 3, 4, 5), (0, 1, 2, 3), (120,), (0,)),
    ((2, 3, 4), (2, 0, 1), (6, 4), (1, 0)),
    ((4, 2), (1, 0), (4, 2), (1, 0)),
]


@pytest.mark.parametrize(("dims", "perm", "cdims", "cperm"), CANONICAL)
def test_canonicalisation(
    dims: tuple[int, ...], perm: tuple[int, ...], cdims: tuple[int, ...], cperm: tuple[int, ...]
) -> None:
    total = math.prod(dims)
    iota = IotaDeviceList(1, total, dims, perm)
    assert (iota.reshape_dims, iota.perm) == (cdims, cperm)
    assert iota == IotaDeviceList(1, total, cdims, cperm)
    assert hash(iota) == hash(IotaDeviceList(1, total, cdims, cperm))
    assert iota.expand() == _numpy_groups(1, total, dims, perm)


@pytest.mark.parametrize(
    ("attr", "text"),
    [
        (ReplicaGroupsAttr.iota(1, 60, [3, 4, 5], [1, 2, 0]), "[1,60]<=[3,20]T(1,0)"),
        (ReplicaGroupsAttr.iota(2, 4, [2, 4], [0, 1]), "[2,4]<=[8]"),
        (ReplicaGroupsAttr.iota(2, 4, [2, 1, 4], [2, 1, 0]), "[2,4]<=[2,4]T(1,0)"),
        (ReplicaGroupsAttr.iota(2, 4, [2, 2, 2], [1, 2, 0]), "[2,4]<=[2,4]T(1,0)"),
        (ReplicaGroupsAttr.iota(4, 2, [2, 2, 2], [0, 2, 1]), "[4,2]<=[2,2,2]T(0,2,1)"),
        (ReplicaGroupsAttr.iota(1, 1, [1, 1], [1, 0]), "[1,1]<=[1]"),
    ],
)
def test_canonical_printing(attr: ReplicaGroupsAttr, text: str) -> None:
    assert _text(attr) == text


def test_malformed_lists_are_kept_verbatim() -> None:
    iota = IotaDeviceList(2, 4, (2, 1, 3), (0, 1, 2))
    assert iota.reshape_dims == (2, 1, 3)
    assert iota.problem() == "iota reshape dims [2, 1, 3] do not hold 2x4 devices"
    bad_perm = IotaDeviceList(2, 4, (2, 4), (0, 0))
    assert bad_perm.perm == (0, 0)
    assert bad_perm.problem() == "iota transpose [0, 0] is not a permutation of the reshape dims"


@st.composite
def raw_iota(draw: st.DrawFn) -> tuple[int, int, tuple[int, ...], tuple[int, ...]]:
    dims = tuple(draw(st.lists(st.integers(1, 4), min_size=1, max_size=5)))
    perm = tuple(draw(st.permutations(range(len(dims)))))
    total = math.prod(dims)
    num_groups = draw(st.sampled_from([d for d in range(1, total + 1) if total % d == 0]))
    return num_groups, total // num_groups, dims, perm


def _is_canonical(dims: tuple[int, ...], perm: tuple[int, ...]) -> bool:
    if len(dims) == 1:
        return perm == (0,)
    no_unit = all(d > 1 for d in dims)
    no_runs = all(b != a + 1 for a, b in itertools.pairwise(perm))
    return no_unit and no_runs


@settings(max_examples=300, deadline=None)
@given(raw_iota())
def test_canonical_expansion_equals_raw_expansion(
    case: tuple[int, int, tuple[int, ...], tuple[int, ...]],
) -> None:
    g, s, dims, perm = case
    iota = IotaDeviceList(g, s, dims, perm)
    assert iota.problem() is None
    assert _is_canonical(iota.reshape_dims, iota.perm)
    assert canonical_iota_dims(iota.reshape_dims, iota.perm) == (iota.reshape_dims, iota.perm)
    assert iota.expand() == _numpy_groups(g, s, dims, perm)
    # Different spellings of the same device order are one attribute.
    assert ReplicaGroupsAttr.iota(g, s, dims, perm) == ReplicaGroupsAttr(iota)


# --- lazy expansion --------------------------------------------------------------------------


def test_expansion_is_lazy(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[IotaDeviceList] = []
    expand = IotaDeviceList.expand

    def counting_expand(self: IotaDeviceList) -> Groups:
        calls.append(self)
        return expand(self)

    monkeypatch.setattr(IotaDeviceList, "expand", counting_expand)
    attr = ReplicaGroupsAttr.iota(4, 2, [2, 4], [1, 0])
    assert _text(attr) == "[4,2]<=[2,4]T(1,0)"
    assert attr == ReplicaGroupsAttr.iota(4, 2, [2, 1, 4], [2, 1, 0])
    assert "_groups" not in attr.__dict__  # the cached_property slot is still empty
    assert calls == []
    assert attr.groups() == ((0, 4), (1, 5), (2, 6), (3, 7))
    assert attr.__dict__["_groups"] == ((0, 4), (1, 5), (2, 6), (3, 7))
    assert attr.groups() is attr.groups()
    assert len(calls) == 1


# --- expand_partition_groups_across_replicas -------------------------------------------------


@pytest.mark.parametrize(
    ("groups", "text", "expected"),
    [
        (
            ReplicaGroupsAttr.iota(2, 2, [4]),
            "[4,2]<=[8]",
            ((0, 1), (2, 3), (4, 5), (6, 7)),
        ),
        (
            ReplicaGroupsAttr.iota(2, 2, [2, 2], [1, 0]),
            "[4,2]<=[2,2,2]T(0,2,1)",
            ((0, 2), (1, 3), (4, 6), (5, 7)),
        ),
        (
            ReplicaGroupsAttr.iota(1, 4, [4]),
            "[2,4]<=[8]",
            ((0, 1, 2, 3), (4, 5, 6, 7)),
        ),
        (
            ReplicaGroupsAttr.iota(4, 1, [4]),
            "[8,1]<=[8]",
            ((0,), (1,), (2,), (3,), (4,), (5,), (6,), (7,)),
        ),
    ],
)
def test_expand_iota_across_replicas(
    groups: ReplicaGroupsAttr, text: str, expected: Groups
) -> None:
    got = expand_partition_groups_across_replicas(groups, 2, 4)
    assert got.is_iota
    assert _text(got) == text
    assert got.groups() == expected
    # The iota form agrees with expanding the explicit groups.
    explicit = ReplicaGroupsAttr.explicit(groups.groups())
    assert expand_partition_groups_across_replicas(explicit, 2, 4).groups() == expected


@pytest.mark.parametrize(
    ("groups", "expected"),
    [
        ([[0, 1], [2, 3]], ((0, 1), (2, 3), (4, 5), (6, 7))),
        ([[0, 2], [1, 3]], ((0, 2), (1, 3), (4, 6), (5, 7))),
        ([[3, 0, 2, 1]], ((3, 0, 2, 1), (7, 4, 6, 5))),
        ([], ((0, 1, 2, 3), (4, 5, 6, 7))),
    ],
)
def test_expand_explicit_across_replicas(groups: list[list[int]], expected: Groups) -> None:
    got = expand_partition_groups_across_replicas(ReplicaGroupsAttr.explicit(groups), 2, 4)
    assert not got.is_iota
    assert got.groups() == expected


@given(raw_iota(), st.integers(1, 4))
@settings(max_examples=100, deadline=None)
def test_expand_across_replicas_matches_explicit(
    case: tuple[int, int, tuple[int, ...], tuple[int, ...]], replicas: int
) -> None:
    g, s, dims, perm = case
    iota = ReplicaGroupsAttr.iota(g, s, dims, perm)
    got = expand_partition_groups_across_replicas(iota, replicas, g * s)
    explicit = ReplicaGroupsAttr.explicit(iota.groups())
    assert (
        got.groups() == expand_partition_groups_across_replicas(explicit, replicas, g * s).groups()
    )


@pytest.mark.parametrize(
    ("groups", "message"),
    [
        (
            ReplicaGroupsAttr.iota(2, 2, [4]),
            "iota device list [2,2] covers 4 devices, not the 8 partitions",
        ),
        (ReplicaGroupsAttr.explicit([[0, 8]]), "partition id 8 is outside 0..7"),
    ],
)
def test_expand_across_replicas_errors(groups: ReplicaGroupsAttr, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        expand_partition_groups_across_replicas(groups, 2, 8)


# --- iota_or_explicit ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("groups", "text"),
    [
        ([[0, 1, 2, 3], [4, 5, 6, 7]], "[2,4]<=[8]"),
        ([[0, 2, 4, 6], [1, 3, 5, 7]], "[2,4]<=[4,2]T(1,0)"),
        ([[0, 4], [1, 5], [2, 6], [3, 7]], "[4,2]<=[2,4]T(1,0)"),
        ([[0, 2], [1, 3], [4, 6], [5, 7]], "[4,2]<=[2,2,2]T(0,2,1)"),
        ([[0, 4, 1, 5], [2, 6, 3, 7]], "[2,4]<=[2,4]T(1,0)"),
        ([[0, 1, 2, 3, 4, 5, 6, 7]], "[1,8]<=[8]"),
        ([[0]], "[1,1]<=[1]"),
        ([[0, 4, 8], [1, 5, 9], [2, 6, 10], [3, 7, 11]], "[4,3]<=[3,4]T(1,0)"),
    ],
)
def test_iota_or_explicit_finds_iota(groups: list[list[int]], text: str) -> None:
    explicit = ReplicaGroupsAttr.explicit(groups)
    got = iota_or_explicit(explicit)
    assert got.is_iota
    assert _text(got) == text
    assert got.groups() == explicit.groups()


@pytest.mark.parametrize(
    "groups",
    [
        [],
        [[1, 0], [2, 3]],
        [[0, 1], [2]],
        [[0, 1], [3, 4]],
        [[0, 3], [1, 2]],
        [[0, 0], [1, 2]],
    ],
)
def test_iota_or_explicit_keeps_explicit(groups: list[list[int]]) -> None:
    explicit = ReplicaGroupsAttr.explicit(groups)
    assert iota_or_explicit(explicit) is explicit
    assert find_iota_device_list(explicit.groups()) is None


def test_iota_or_explicit_keeps_iota() -> None:
    iota = ReplicaGroupsAttr.iota(2, 4, [4, 2], [1, 0])
    assert iota_or_explicit(iota) is iota


@st.composite
def searchable_iota(draw: st.DrawFn) -> tuple[int, int, tuple[int, ...], tuple[int, ...]]:
    dims = tuple(draw(st.lists(st.integers(1, 4), min_size=1, max_size=3)))
    perm = tuple(draw(st.permutations(range(len(dims)))))
    total = math.prod(dims)
    num_groups = draw(st.sampled_from([d for d in range(1, total + 1) if total % d == 0]))
    return num_groups, total // num_groups, dims, perm


@settings(max_examples=200, deadline=None)
@given(searchable_iota())
def test_iota_or_explicit_round_trips(
    case: tuple[int, int, tuple[int, ...], tuple[int, ...]],
) -> None:
    g, s, dims, perm = case
    iota = ReplicaGroupsAttr.iota(g, s, dims, perm)
    found = iota_or_explicit(ReplicaGroupsAttr.explicit(iota.groups()))
    assert found == iota
    assert found.groups() == iota.groups()
