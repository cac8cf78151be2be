"""Unit tests of replica groups: iota device lists, group modes, participants (docs/collective-semantics.md §5)."""

from __future__ import annotations

import math
from io import StringIO

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.dialects.func import Func, FuncOp
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.printer import Printer

from neuron_cc.dialects.hlo import HLO
from neuron_cc.dialects.hlo.attributes import IotaDeviceList, ReplicaGroupsAttr
from neuron_cc.dialects.replica_groups import (
    GroupMode,
    GroupModeError,
    device_counts,
    effective_groups,
    flattened_participants,
    group_mode,
    group_size,
    groups_problem,
    id_space_size,
    participants,
)

CR = GroupMode.CROSS_REPLICA
CP = GroupMode.CROSS_PARTITION
CRP = GroupMode.CROSS_REPLICA_AND_PARTITION
FLAT = GroupMode.FLATTENED_ID


# --- iota device lists ------------------------------------------------------------------------

IOTA_CASES = [
    # (num_groups, group_size, reshape dims, perm, expected groups)
    (2, 4, (8,), (0,), ((0, 1, 2, 3), (4, 5, 6, 7))),
    (2, 4, (4, 2), (1, 0), ((0, 2, 4, 6), (1, 3, 5, 7))),
    (4, 2, (2, 4), (1, 0), ((0, 4), (1, 5), (2, 6), (3, 7))),
    (4, 2, (2, 2, 2), (0, 2, 1), ((0, 2), (1, 3), (4, 6), (5, 7))),
    (2, 4, (2, 2, 2), (1, 2, 0), ((0, 4, 1, 5), (2, 6, 3, 7))),
    (1, 8, (8,), (0,), ((0, 1, 2, 3, 4, 5, 6, 7),)),
    (8, 1, (2, 4), (1, 0), ((0,), (4,), (1,), (5,), (2,), (6,), (3,), (7,))),
    (2, 4, (2, 4), (0, 1), ((0, 1, 2, 3), (4, 5, 6, 7))),
]


@pytest.mark.parametrize(("g", "s", "dims", "perm", "expected"), IOTA_CASES)
def test_iota_expansion(
    g: int,
    s: int,
    dims: tuple[int, ...],
    perm: tuple[int, ...],
    expected: tuple[tuple[int, ...], ...],
) -> None:
    iota = IotaDeviceList(g, s, dims, perm)
    assert iota.problem() is None
    assert iota.expand() == expected
    attr = ReplicaGroupsAttr.iota(g, s, dims, perm)
    assert attr.is_iota
    assert attr.problem() is None
    assert attr.groups() == expected


def test_iota_default_perm_is_identity() -> None:
    attr = ReplicaGroupsAttr.iota(2, 4, [4, 2])
    assert attr.data == IotaDeviceList(2, 4, (4, 2), (0, 1))
    assert attr.groups() == ((0, 1, 2, 3), (4, 5, 6, 7))


@st.composite
def iota_lists(draw: st.DrawFn) -> IotaDeviceList:
    dims = tuple(draw(st.lists(st.integers(1, 4), min_size=1, max_size=4)))
    perm = tuple(draw(st.permutations(range(len(dims)))))
    total = math.prod(dims)
    divisors = [d for d in range(1, total + 1) if total % d == 0]
    num_groups = draw(st.sampled_from(divisors))
    return IotaDeviceList(num_groups, total // num_groups, dims, perm)


@settings(max_examples=200, deadline=None)
@given(iota_lists())
def test_iota_expansion_matches_numpy(iota: IotaDeviceList) -> None:
    total = iota.num_groups * iota.group_size
    expected = (
        np.arange(total)
        .reshape(iota.reshape_dims)
        .transpose(iota.perm)
        .reshape(iota.num_groups, iota.group_size)
    )
    assert iota.problem() is None
    got = iota.expand()
    assert got == tuple(tuple(int(v) for v in row) for row in expected)
    # Every id appears exactly once.
    assert sorted(i for g in got for i in g) == list(range(total))


@pytest.mark.parametrize(
    ("iota", "message"),
    [
        (
            IotaDeviceList(2, 4, (4, 3), (0, 1)),
            "iota reshape dims [4, 3] do not hold 2x4 devices",
        ),
        (IotaDeviceList(2, 4, (8, 0), (0, 1)), "iota reshape dims [8, 0] do not hold 2x4 devices"),
        (
            IotaDeviceList(2, 4, (-2, -4), (0, 1)),
            "iota reshape dims [-2, -4] do not hold 2x4 devices",
        ),
        (
            IotaDeviceList(2, 4, (4, 2), (0, 0)),
            "iota transpose [0, 0] is not a permutation of the reshape dims",
        ),
        (
            IotaDeviceList(2, 4, (4, 2), (1, 0, 2)),
            "iota transpose [1, 0, 2] is not a permutation of the reshape dims",
        ),
        (
            IotaDeviceList(2, 4, (8,), (1,)),
            "iota transpose [1] is not a permutation of the reshape dims",
        ),
        (
            IotaDeviceList(0, 4, (0,), (0,)),
            "iota replica groups need a positive group count and size",
        ),
        (
            IotaDeviceList(2, -4, (8,), (0,)),
            "iota replica groups need a positive group count and size",
        ),
    ],
)
def test_iota_problem(iota: IotaDeviceList, message: str) -> None:
    assert iota.problem() == message
    assert ReplicaGroupsAttr(iota).problem() == message


def _print_body(attr: ReplicaGroupsAttr) -> str:
    stream = StringIO()
    attr.print_body(Printer(stream=stream))
    return stream.getvalue()


@pytest.mark.parametrize(
    ("attr", "text"),
    [
        (ReplicaGroupsAttr.iota(2, 4, [4, 2], [1, 0]), "[2,4]<=[4,2]T(1,0)"),
        (ReplicaGroupsAttr.iota(2, 4, [8]), "[2,4]<=[8]"),
        (ReplicaGroupsAttr.iota(2, 4, [2, 4], [0, 1]), "[2,4]<=[8]"),  # canonicalised
        (ReplicaGroupsAttr.iota(4, 2, [2, 2, 2], [0, 2, 1]), "[4,2]<=[2,2,2]T(0,2,1)"),
        (ReplicaGroupsAttr.explicit([[0, 1], [2, 3]]), "[[0, 1], [2, 3]]"),
        (ReplicaGroupsAttr.explicit([]), "[]"),
    ],
)
def test_replica_groups_print(attr: ReplicaGroupsAttr, text: str) -> None:
    assert _print_body(attr) == text


def _context() -> Context:
    ctx = Context()
    ctx.load_dialect(Builtin)
    ctx.load_dialect(Func)
    ctx.load_dialect(HLO)
    return ctx


@pytest.mark.parametrize(
    ("text", "groups", "is_iota"),
    [
        ("#hlo.replica_groups<[2,4]<=[4,2]T(1,0)>", ((0, 2, 4, 6), (1, 3, 5, 7)), True),
        ("#hlo.replica_groups<[2,4]<=[8]>", ((0, 1, 2, 3), (4, 5, 6, 7)), True),
        ("#hlo.replica_groups<[[0, 1], [3, 2]]>", ((0, 1), (3, 2)), False),
        ("#hlo.replica_groups<[]>", (), False),
        ("#hlo.replica_groups<[[]]>", ((),), False),
    ],
)
def test_replica_groups_parse_and_roundtrip(
    text: str, groups: tuple[tuple[int, ...], ...], is_iota: bool
) -> None:
    attr = Parser(_context(), text).parse_attribute()
    assert isinstance(attr, ReplicaGroupsAttr)
    assert attr.groups() == groups
    assert attr.is_iota == is_iota
    assert "#hlo.replica_groups<" + _print_body(attr) + ">" == text


def test_explicit_groups_are_normalised_to_int_tuples() -> None:
    attr = ReplicaGroupsAttr([[0, 1], [2, 3]])  # pyright: ignore[reportArgumentType]
    assert attr.data == ((0, 1), (2, 3))
    assert attr == ReplicaGroupsAttr.explicit(((0, 1), (2, 3)))
    assert not attr.is_iota
    assert attr.problem() is None


# --- group modes (docs/collective-semantics.md §5 table) ------------------------------------------------------------


@pytest.mark.parametrize(
    ("has_channel", "use_global", "has_flag", "mode"),
    [
        (False, False, True, CR),
        (True, False, True, CRP),
        (True, True, True, FLAT),
        # all_to_all, collective_permute, collective_broadcast: no use_global_device_ids flag.
        (False, False, False, CR),
        (True, False, False, CP),
    ],
)
def test_group_mode_table(
    has_channel: bool, use_global: bool, has_flag: bool, mode: GroupMode
) -> None:
    assert group_mode(has_channel, use_global, has_flag) == mode


def test_group_mode_default_has_global_ids_flag() -> None:
    assert group_mode(True, False) == CRP
    assert group_mode(True, True) == FLAT
    assert group_mode(False, False) == CR


@pytest.mark.parametrize("has_flag", [True, False])
def test_group_mode_global_ids_without_channel_is_invalid(has_flag: bool) -> None:
    with pytest.raises(GroupModeError, match="use_global_device_ids requires a channel_id"):
        group_mode(False, True, has_flag)


def test_group_mode_error_is_a_value_error() -> None:
    assert issubclass(GroupModeError, ValueError)


@pytest.mark.parametrize(("mode", "size"), [(CR, 2), (CP, 4), (CRP, 2), (FLAT, 8)])
def test_id_space_size(mode: GroupMode, size: int) -> None:
    assert id_space_size(mode, 2, 4) == size


def test_mode_names() -> None:
    assert [str(m) for m in GroupMode] == [
        "cross_replica",
        "cross_partition",
        "cross_replica_and_partition",
        "flattened_id",
    ]


# --- participants on 2 replicas x 4 partitions ------------------------------------------------

R, P = 2, 4

PARTICIPANT_CASES = [
    # cross_replica: per partition p, the replicas of each group.
    (
        [[0, 1]],
        CR,
        [
            [(0, 0), (1, 0)],
            [(0, 1), (1, 1)],
            [(0, 2), (1, 2)],
            [(0, 3), (1, 3)],
        ],
    ),
    ([], CR, [[(0, p), (1, p)] for p in range(P)]),
    # Rank order is the group order.
    ([[1, 0]], CR, [[(1, p), (0, p)] for p in range(P)]),
    (
        [[0], [1]],
        CR,
        [[(0, 0)], [(1, 0)], [(0, 1)], [(1, 1)], [(0, 2)], [(1, 2)], [(0, 3)], [(1, 3)]],
    ),
    # cross_partition: per replica r, the partitions of each group.
    (
        [[0, 1], [2, 3]],
        CP,
        [
            [(0, 0), (0, 1)],
            [(0, 2), (0, 3)],
            [(1, 0), (1, 1)],
            [(1, 2), (1, 3)],
        ],
    ),
    (
        [[3, 1], [0, 2]],
        CP,
        [[(0, 3), (0, 1)], [(0, 0), (0, 2)], [(1, 3), (1, 1)], [(1, 0), (1, 2)]],
    ),
    ([], CP, [[(0, 0), (0, 1), (0, 2), (0, 3)], [(1, 0), (1, 1), (1, 2), (1, 3)]]),
    # cross_replica_and_partition: replica-major, every partition of each replica of the group.
    (
        [[0, 1]],
        CRP,
        [[(0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (1, 2), (1, 3)]],
    ),
    (
        [[1, 0]],
        CRP,
        [[(1, 0), (1, 1), (1, 2), (1, 3), (0, 0), (0, 1), (0, 2), (0, 3)]],
    ),
    ([[0], [1]], CRP, [[(0, 0), (0, 1), (0, 2), (0, 3)], [(1, 0), (1, 1), (1, 2), (1, 3)]]),
    ([], CRP, [[(0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (1, 2), (1, 3)]]),
    # flattened_id: id -> (id // P, id % P).
    (
        [[0, 2, 4, 6], [1, 3, 5, 7]],
        FLAT,
        [[(0, 0), (0, 2), (1, 0), (1, 2)], [(0, 1), (0, 3), (1, 1), (1, 3)]],
    ),
    (
        [[7, 0], [3, 4], [1, 6], [2, 5]],
        FLAT,
        [[(1, 3), (0, 0)], [(0, 3), (1, 0)], [(0, 1), (1, 2)], [(0, 2), (1, 1)]],
    ),
]


@pytest.mark.parametrize(("groups", "mode", "expected"), PARTICIPANT_CASES)
def test_participants(
    groups: list[list[int]], mode: GroupMode, expected: list[list[tuple[int, int]]]
) -> None:
    assert participants(groups, mode, R, P) == expected
    flat = flattened_participants(groups, mode, R, P)
    assert flat == [[r * P + p for r, p in g] for g in expected]


def test_participants_flattened_examples() -> None:
    assert flattened_participants([[0, 1]], CR, R, P) == [[0, 4], [1, 5], [2, 6], [3, 7]]
    assert flattened_participants([[0, 1], [2, 3]], CP, R, P) == [[0, 1], [2, 3], [4, 5], [6, 7]]
    assert flattened_participants([[0, 1]], CRP, R, P) == [[0, 1, 2, 3, 4, 5, 6, 7]]
    assert flattened_participants([[0, 2, 4, 6], [1, 3, 5, 7]], FLAT, R, P) == [
        [0, 2, 4, 6],
        [1, 3, 5, 7],
    ]


def test_participants_iota_groups() -> None:
    groups = ReplicaGroupsAttr.iota(2, 4, [4, 2], [1, 0]).groups()
    assert flattened_participants(groups, FLAT, R, P) == [[0, 2, 4, 6], [1, 3, 5, 7]]


@pytest.mark.parametrize(
    ("groups", "mode", "size"),
    [
        ([[0, 1]], CR, 2),
        ([], CR, 2),
        ([[0], [1]], CR, 1),
        ([[0, 1], [2, 3]], CP, 2),
        ([], CP, 4),
        ([[0, 1]], CRP, 8),
        ([[0], [1]], CRP, 4),
        ([], CRP, 8),
        ([[0, 2, 4, 6], [1, 3, 5, 7]], FLAT, 4),
        ([[0, 1, 2], [3, 4, 5, 6, 7]], FLAT, 3),
    ],
)
def test_group_size(groups: list[list[int]], mode: GroupMode, size: int) -> None:
    assert group_size(groups, mode, R, P) == size
    # The size is the device count of the first participant group.
    assert len(participants(groups, mode, R, P)[0]) == size


def test_effective_groups() -> None:
    assert effective_groups([], 3) == [[0, 1, 2]]
    assert effective_groups([(1, 0), (2,)], 3) == [[1, 0], [2]]


# --- groups_problem ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("groups", "id_space", "uniform", "cover", "message"),
    [
        ([[0, 1], []], 2, True, True, "replica group 1 is empty"),
        ([[0, 2]], 2, True, True, "replica group 0 contains id 2 outside [0, 2)"),
        ([[0], [-1]], 2, True, True, "replica group 1 contains id -1 outside [0, 2)"),
        ([[0, 1], [1, 2]], 4, True, True, "id 1 appears in more than one replica group position"),
        ([[0, 0]], 2, False, False, "id 0 appears in more than one replica group position"),
        ([[0, 1, 2], [3]], 4, True, True, "replica groups have non-uniform sizes [1, 3]"),
        (
            [[0], [1, 2], [3, 4, 5]],
            6,
            True,
            True,
            "replica groups have non-uniform sizes [1, 2, 3]",
        ),
        ([[0, 1]], 4, True, True, "replica groups do not cover every id in [0, 4): missing [2, 3]"),
        (
            [[0]],
            12,
            True,
            True,
            "replica groups do not cover every id in [0, 12): missing [1, 2, 3, 4, 5, 6, 7, 8]",
        ),
        # Uniformity is checked before coverage.
        ([[0, 1], [2]], 8, True, True, "replica groups have non-uniform sizes [1, 2]"),
    ],
)
def test_groups_problem(
    groups: list[list[int]], id_space: int, uniform: bool, cover: bool, message: str
) -> None:
    assert groups_problem(groups, id_space, require_uniform=uniform, require_cover=cover) == message


@pytest.mark.parametrize(
    ("groups", "id_space", "uniform", "cover"),
    [
        ([], 4, True, True),
        ([], 0, True, True),
        ([[0, 1], [2, 3]], 4, True, True),
        ([[3, 2, 1, 0]], 4, True, True),
        ([[0, 1, 2], [3]], 4, False, True),
        ([[0, 1]], 4, True, False),
        ([[2], [0, 3]], 4, False, False),
    ],
)
def test_groups_problem_accepts(
    groups: list[list[int]], id_space: int, uniform: bool, cover: bool
) -> None:
    assert groups_problem(groups, id_space, require_uniform=uniform, require_cover=cover) is None


def test_groups_problem_custom_name() -> None:
    assert (
        groups_problem([[0], []], 2, require_uniform=True, require_cover=True, what="pair")
        == "pair 1 is empty"
    )
    assert (
        groups_problem([[0], [1, 0]], 2, require_uniform=False, require_cover=False, what="pair")
        == "id 0 appears in more than one pair position"
    )
    assert (
        groups_problem([[0], [1, 2]], 3, require_uniform=True, require_cover=True, what="pair")
        == "pairs have non-uniform sizes [1, 2]"
    )


# --- device_counts ----------------------------------------------------------------------------


def _parse(text: str) -> ModuleOp:
    return Parser(_context(), text).parse_module()


def _first(root: Operation, name: str) -> Operation:
    for op in root.walk():
        if op.name == name:
            return op
    raise AssertionError(f"no {name} under {root.name}")


PROGRAM = """
builtin.module attributes {{{attrs}}} {{
  func.func @f() -> tensor<ui32> {{
    %p = hlo.partition_id : tensor<ui32>
    func.return %p : tensor<ui32>
  }}
}}
"""


@pytest.mark.parametrize(
    ("attrs", "counts"),
    [
        ("", (1, 1)),
        ("hlo.num_partitions = 8 : i64", (1, 8)),
        ("hlo.num_replicas = 4 : i64", (4, 1)),
        ("hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64", (2, 4)),
        ("hlo.num_replicas = 2 : i64, hlo.num_partitions = 4 : i64, other = 7 : i64", (2, 4)),
        # A non-integer attribute is ignored (default 1).
        ('hlo.num_replicas = "two", hlo.num_partitions = 3 : i64', (1, 3)),
    ],
)
def test_device_counts(attrs: str, counts: tuple[int, int]) -> None:
    module = _parse(PROGRAM.format(attrs=attrs))
    assert device_counts(_first(module, "hlo.partition_id")) == counts
    assert device_counts(_first(module, "func.func")) == counts
    assert device_counts(module) == counts


def test_device_counts_nearest_module_wins() -> None:
    module = _parse(
        """
builtin.module attributes {hlo.num_replicas = 2 : i64, hlo.num_partitions = 4 : i64} {
  builtin.module @inner attributes {hlo.num_partitions = 16 : i64} {
    func.func @g() {
      %r = hlo.replica_id : tensor<ui32>
      func.return
    }
  }
  func.func @f() {
    %p = hlo.partition_id : tensor<ui32>
    func.return
  }
}
"""
    )
    assert device_counts(_first(module, "hlo.replica_id")) == (1, 16)
    assert device_counts(_first(module, "hlo.partition_id")) == (2, 4)


def test_device_counts_without_module() -> None:
    module = _parse(PROGRAM.format(attrs="hlo.num_partitions = 8 : i64"))
    func = _first(module, "func.func")
    assert isinstance(func, FuncOp)
    func.detach()
    assert device_counts(func) == (1, 1)
    assert device_counts(_first(func, "hlo.partition_id")) == (1, 1)
