"""Interpreter: every bir op and collective kind, against hand-computed arrays.

Device d holds `arange(n).reshape(shape) + 100*d`; expected values are written with plain numpy
from the definitions in neuron_cc/interpreter/bir.py (access patterns decide the geometry).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from neuron_cc.dialects.bir_attributes import AccessPatternAttr
from neuron_cc.interpreter.bir import ap_indices, stats_name
from neuron_cc.interpreter.runner import RunResult, run_module
from neuron_cc.interpreter.values import InterpretationError
from neuron_cc.testing.ir import parse_module as parse

Array = np.ndarray[Any, Any]
ALL8 = "[[0, 1, 2, 3, 4, 5, 6, 7]]"


def run(
    body: str, in_types: list[str], out_type: str, *inputs: Array, r: int = 1, p: int = 8
) -> RunResult:
    args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(in_types))
    text = (
        f"builtin.module attributes {{hlo.num_partitions = {p} : i64, hlo.num_replicas = {r} : i64}} {{\n"
        f"func.func @main({args}) -> {out_type} {{\n{body}\nfunc.return %y : {out_type}\n}}\n}}"
    )
    return run_module(parse(text), list(inputs))


def run1(
    body: str, in_types: list[str], out_type: str, *inputs: Array, r: int = 1, p: int = 8
) -> Array:
    (out,) = run(body, in_types, out_type, *inputs, r=r, p=p).outputs
    return out


def dev_arange(shape: tuple[int, ...], devices: int = 8, dtype: Any = np.float32) -> Array:
    n = int(np.prod(shape))
    base = np.arange(n).reshape(shape)
    return np.stack([base + 100 * d for d in range(devices)]).astype(dtype)


def check(got: Any, expected: Any) -> None:
    got_a, expected_a = np.asarray(got), np.asarray(expected)
    assert got_a.dtype == expected_a.dtype, (got_a.dtype, expected_a.dtype)
    assert got_a.shape == expected_a.shape, (got_a.shape, expected_a.shape)
    np.testing.assert_array_equal(got_a, expected_a)


def compute(kind: str, fields: str, in_t: str, out_t: str, in_aps: str, out_aps: str) -> str:
    return (
        f"%y = bir.collective_compute {kind}(%a0) {fields} input_aps = [{in_aps}] "
        f"output_aps = [{out_aps}] : ({in_t}) -> {out_t}"
    )


# --- access patterns -------------------------------------------------------------------------


def test_ap_indices_and_helpers() -> None:
    ap = AccessPatternAttr(0, [[4, 8], [32, 8], [1, 4]])
    idx = ap_indices(ap)
    assert idx.shape == (256,)
    assert list(idx[:6]) == [0, 1, 2, 3, 32, 33]
    assert list(idx[32:34]) == [4, 5]
    assert ap.elements() == 256
    assert ap.extent() == 256
    rm = AccessPatternAttr.row_major([8, 4])
    assert rm.pairs == ((4, 8), (1, 4))
    assert rm.offset == 0
    assert AccessPatternAttr.row_major([]).pairs == ((1, 1),)
    assert list(ap_indices(AccessPatternAttr(5, [[-1, 3]]))) == [5, 4, 3]


def test_stats_names() -> None:
    from neuron_cc.dialects.bir_attributes import CollectiveKind

    assert stats_name(CollectiveKind.AllGather) == "all-gather"
    assert stats_name(CollectiveKind.SendRecvCCE) == "send-recv-cce"
    assert stats_name(CollectiveKind.AllToAllV) == "all-to-all-v"


# --- AllGather -------------------------------------------------------------------------------


def test_all_gather_dim1() -> None:
    x = dev_arange((8, 4))
    body = compute(
        "AllGather",
        f"replica_groups = {ALL8} cc_type_hint = TP stream_id = 0",
        "tensor<8x4xf32>",
        "tensor<8x32xf32>",
        "#bir.ap<0, [[4, 8], [1, 4]]>",
        "#bir.ap<0, [[4, 8], [32, 8], [1, 4]]>",
    )
    result = run(body, ["tensor<8x4xf32>"], "tensor<8x32xf32>", x)
    expected = np.concatenate([x[k] for k in range(8)], axis=1)
    check(result.outputs[0], np.stack([expected] * 8))
    stats = result.state.stats["all-gather"]
    assert stats.launches == 1
    assert stats.bytes_per_device == 7 / 8 * 8 * 32 * 4


def test_all_gather_dim0_two_groups() -> None:
    x = dev_arange((2, 4))
    body = compute(
        "AllGather",
        "replica_groups = [[0, 2, 4, 6], [1, 3, 5, 7]] stream_id = 1",
        "tensor<2x4xf32>",
        "tensor<8x4xf32>",
        "#bir.ap<0, [[4, 2], [1, 4]]>",
        "#bir.ap<0, [[8, 4], [4, 2], [1, 4]]>",
    )
    got = run1(body, ["tensor<2x4xf32>"], "tensor<8x4xf32>", x)
    even = np.concatenate([x[0], x[2], x[4], x[6]], axis=0)
    odd = np.concatenate([x[1], x[3], x[5], x[7]], axis=0)
    check(got, np.stack([even if d % 2 == 0 else odd for d in range(8)]))


# --- ReduceScatter ---------------------------------------------------------------------------


def test_reduce_scatter_dim0() -> None:
    x = dev_arange((16, 4))
    body = compute(
        "ReduceScatter",
        f"op = add replica_groups = {ALL8} cc_type_hint = FSDP stream_id = 1",
        "tensor<16x4xf32>",
        "tensor<2x4xf32>",
        "#bir.ap<0, [[8, 8], [4, 2], [1, 4]]>",
        "#bir.ap<0, [[4, 2], [1, 4]]>",
    )
    got = run1(body, ["tensor<16x4xf32>"], "tensor<2x4xf32>", x)
    total = x.sum(axis=0)
    check(got, np.stack([total[2 * d : 2 * d + 2] for d in range(8)]))


def test_reduce_scatter_dim1_max() -> None:
    x = dev_arange((4, 16))
    x[3] += 1000  # device 3 holds the maximum everywhere
    body = compute(
        "ReduceScatter",
        f"op = max replica_groups = {ALL8} stream_id = 0",
        "tensor<4x16xf32>",
        "tensor<4x2xf32>",
        "#bir.ap<0, [[2, 8], [16, 4], [1, 2]]>",
        "#bir.ap<0, [[2, 4], [1, 2]]>",
    )
    got = run1(body, ["tensor<4x16xf32>"], "tensor<4x2xf32>", x)
    check(got, np.stack([x[3][:, 2 * d : 2 * d + 2] for d in range(8)]))


# --- AllReduce -------------------------------------------------------------------------------


def _all_reduce(op: str, t: str = "tensor<4xf32>", groups: str = ALL8) -> str:
    ap = "#bir.ap<0, [[1, 4]]>"
    return compute("AllReduce", f"op = {op} replica_groups = {groups} stream_id = 0", t, t, ap, ap)


@pytest.mark.parametrize(
    ("op", "fn"),
    [
        ("add", lambda x: x.sum(axis=0)),
        ("mult", lambda x: x.prod(axis=0)),
        ("max", lambda x: x.max(axis=0)),
        ("min", lambda x: x.min(axis=0)),
        ("average", lambda x: x.sum(axis=0) / 8),
    ],
)
def test_all_reduce_ops(op: str, fn: Any) -> None:
    x = (dev_arange((4,)) / 100).astype(np.float32)
    got = run1(_all_reduce(op), ["tensor<4xf32>"], "tensor<4xf32>", x)
    np.testing.assert_allclose(
        got, np.stack([fn(x.astype(np.float64))] * 8).astype(np.float32), rtol=1e-6
    )


def test_all_reduce_groups_and_int_average() -> None:
    x = dev_arange((4,), dtype=np.int32)
    body = _all_reduce("average", "tensor<4xi32>", "[[0, 2, 4, 6], [1, 3, 5, 7]]")
    got = run1(body, ["tensor<4xi32>"], "tensor<4xi32>", x)
    even = (x[0] + x[2] + x[4] + x[6]) // 4
    odd = (x[1] + x[3] + x[5] + x[7]) // 4
    check(got, np.stack([even if d % 2 == 0 else odd for d in range(8)]).astype(np.int32))


def test_all_reduce_bf16_accumulates_in_f32() -> None:
    # 1 + 7 * 2^-8: every partial sum rounds back to 1 in bf16; the f32 total rounds once to
    # 1 + 4 * 2^-7 (tie to even).
    x = np.full((8, 1), 2.0**-8, dtype=np.float32)
    x[0] = 1.0
    ap = "#bir.ap<0, [[1, 1]]>"
    body = compute(
        "AllReduce",
        f"op = add replica_groups = {ALL8} stream_id = 0",
        "tensor<1xbf16>",
        "tensor<1xbf16>",
        ap,
        ap,
    )
    got = run1(body, ["tensor<1xbf16>"], "tensor<1xbf16>", x)
    check(got, np.full((8, 1), 1.03125, dtype=np.float32))


def test_all_reduce_stats() -> None:
    x = dev_arange((4,))
    result = run(_all_reduce("add"), ["tensor<4xf32>"], "tensor<4xf32>", x)
    assert result.state.stats["all-reduce"].bytes_per_device == 2 * 7 / 8 * 16


# --- AllToAll --------------------------------------------------------------------------------


def test_all_to_all_split0_concat1() -> None:
    x = dev_arange((8, 4))
    body = compute(
        "AllToAll",
        f"replica_groups = {ALL8} stream_id = 0 split_count = 8",
        "tensor<8x4xf32>",
        "tensor<1x32xf32>",
        "#bir.ap<0, [[4, 8], [4, 1], [1, 4]]>",
        "#bir.ap<0, [[4, 8], [32, 1], [1, 4]]>",
    )
    got = run1(body, ["tensor<8x4xf32>"], "tensor<1x32xf32>", x)
    expected = [np.concatenate([x[j][d : d + 1] for j in range(8)], axis=1) for d in range(8)]
    check(got, np.stack(expected))


def compute2(kind: str, fields: str, in_t: str, out_t: str, aps: tuple[str, str, str]) -> str:
    """A collective_compute with two inputs (%a0 sent, %a1 local / initial output)."""
    return (
        f"%y = bir.collective_compute {kind}(%a0, %a1) {fields} input_aps = [{aps[0]}, "
        f"{aps[1]}] output_aps = [{aps[2]}] : ({in_t}, {out_t}) -> {out_t}"
    )


def test_all_to_all_v_ragged_rows() -> None:
    """Groups [[0, 1], ...]: rank j gets rows io[j*U+u] : +ss of each member at row oo[...]."""
    x = dev_arange((6, 2))
    init = np.full((8, 5, 2), -1.0, np.float32)
    fields = (
        "replica_groups = [[0, 1], [2, 3], [4, 5], [6, 7]] stream_id = 0 "
        "input_offsets = [0, 2] send_sizes = [2, 3] output_offsets = [0, 2] recv_sizes = [2, 3]"
    )
    aps = (
        "#bir.ap<0, [[2, 6], [1, 2]]>",
        "#bir.ap<0, [[2, 5], [1, 2]]>",
        "#bir.ap<0, [[2, 5], [1, 2]]>",
    )
    body = compute2("AllToAllV", fields, "tensor<6x2xf32>", "tensor<5x2xf32>", aps)
    result = run(body, ["tensor<6x2xf32>", "tensor<5x2xf32>"], "tensor<5x2xf32>", x, init)
    expected = init.copy()
    for d in range(8):
        group = [d - d % 2, d - d % 2 + 1]
        for j, peer in enumerate(group):
            start, count, dest = (0, 2, 0) if j == 0 else (2, 3, 2)
            expected[peer, dest : dest + count] = x[d, start : start + count]
    check(result.outputs[0], expected)
    assert result.state.stats["all-to-all-v"].launches == 1


# --- tiled forms -----------------------------------------------------------------------------


def test_tiled_all_reduce() -> None:
    x = dev_arange((8, 4))
    tiles = "#bir.ap<0, [[1, 16]]>, #bir.ap<16, [[1, 16]]>"
    body = compute(
        "AllReduce",
        f"op = add replica_groups = {ALL8} stream_id = 0 tiled",
        "tensor<8x4xf32>",
        "tensor<8x4xf32>",
        tiles,
        tiles,
    )
    got = run1(body, ["tensor<8x4xf32>"], "tensor<8x4xf32>", x)
    check(got, np.stack([x.sum(axis=0)] * 8))


def test_tiled_all_gather_rows() -> None:
    # tensor<4x2> gathered on dim 1 over 2 ranks, in two tiles of 2 rows each.
    x = dev_arange((4, 2))
    in_tiles = "#bir.ap<0, [[2, 2], [1, 2]]>, #bir.ap<4, [[2, 2], [1, 2]]>"
    out_tiles = "#bir.ap<0, [[2, 2], [4, 2], [1, 2]]>, #bir.ap<8, [[2, 2], [4, 2], [1, 2]]>"
    body = compute(
        "AllGather",
        "replica_groups = [[0, 1], [2, 3], [4, 5], [6, 7]] stream_id = 0 tiled",
        "tensor<4x2xf32>",
        "tensor<4x4xf32>",
        in_tiles,
        out_tiles,
    )
    got = run1(body, ["tensor<4x2xf32>"], "tensor<4x4xf32>", x)
    expected = [np.concatenate([x[(d // 2) * 2], x[(d // 2) * 2 + 1]], axis=1) for d in range(8)]
    check(got, np.stack(expected))


def test_tiled_permute_with_channel() -> None:
    x = dev_arange((4,))
    tiles = "#bir.ap<0, [[1, 2]]>, #bir.ap<2, [[1, 2]]>"
    chain = "[[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 6], [6, 7], [7, 0]]"
    body = compute(
        "Permute",
        f"permute_chain = {chain} stream_id = 0 channel_id = 2 tiled",
        "tensor<4xf32>",
        "tensor<4xf32>",
        tiles,
        tiles,
    )
    got = run1(body, ["tensor<4xf32>"], "tensor<4xf32>", x)
    check(got, np.roll(x, 1, axis=0))


# --- permutes and point to point -------------------------------------------------------------

ROW = "#bir.ap<0, [[1, 4]]>"


def test_permute_zero_fill() -> None:
    x = dev_arange((4,))
    body = compute(
        "Permute",
        "permute_chain = [[0, 1], [1, 0], [5, 3]] stream_id = 0",
        "tensor<4xf32>",
        "tensor<4xf32>",
        ROW,
        ROW,
    )
    result = run(body, ["tensor<4xf32>"], "tensor<4xf32>", x)
    expected = np.zeros_like(x)
    expected[1], expected[0], expected[3] = x[0], x[1], x[5]
    check(result.outputs[0], expected)
    assert result.state.stats["permute"].bytes_per_device == 16


def test_permute_broadcast_chain() -> None:
    x = dev_arange((4,))
    chain = "[[2, 0], [2, 1], [2, 2], [2, 3]]"
    body = compute(
        "Permute",
        f"permute_chain = {chain} stream_id = 0",
        "tensor<4xf32>",
        "tensor<4xf32>",
        ROW,
        ROW,
    )
    got = run1(body, ["tensor<4xf32>"], "tensor<4xf32>", x)
    check(got, np.stack([x[2]] * 4 + [np.zeros(4, np.float32)] * 4))


def test_permute_implicit_rings() -> None:
    """Member k of a ring receives from member k-1: ring order [0, 3, 2, 1] is a shift by -1."""
    x = dev_arange((4,))
    groups = "[[0, 3, 2, 1], [4, 5, 6, 7]]"
    body = compute(
        "PermuteImplicit",
        f"replica_groups = {groups} stream_id = 0",
        "tensor<4xf32>",
        "tensor<4xf32>",
        ROW,
        ROW,
    )
    got = run1(body, ["tensor<4xf32>"], "tensor<4xf32>", x)
    source = [1, 2, 3, 0, 7, 4, 5, 6]
    check(got, x[source])


@pytest.mark.parametrize(
    ("op", "fn"), [("add", np.add), ("mult", np.multiply), ("max", np.maximum), ("min", np.minimum)]
)
def test_permute_reduce_combines_with_the_local_input(op: str, fn: Any) -> None:
    """out = op(local, received); device 2.. receive nothing, i.e. zeros, as in hlo."""
    x = dev_arange((4,)) - 250
    local = dev_arange((4,)) * -1.5
    body = compute2(
        "PermuteReduce",
        f"op = {op} permute_chain = [[0, 1], [1, 0]] stream_id = 0",
        "tensor<4xf32>",
        "tensor<4xf32>",
        (ROW, ROW, ROW),
    )
    got = run1(body, ["tensor<4xf32>", "tensor<4xf32>"], "tensor<4xf32>", x, local)
    received = np.zeros_like(x)
    received[[0, 1]] = x[[1, 0]]
    check(got, fn(local, received).astype(np.float32))


def test_permute_reduce_implicit_adds_over_the_ring() -> None:
    x, local = dev_arange((4,)), dev_arange((4,)) * 3
    body = compute2(
        "PermuteReduceImplicit",
        f"replica_groups = {ALL8} stream_id = 0",
        "tensor<4xf32>",
        "tensor<4xf32>",
        (ROW, ROW, ROW),
    )
    got = run1(body, ["tensor<4xf32>", "tensor<4xf32>"], "tensor<4xf32>", x, local)
    check(got, local + x[[7, 0, 1, 2, 3, 4, 5, 6]])


def test_tiled_permute_reduce_tiles_both_inputs() -> None:
    x, local = dev_arange((4,)), dev_arange((4,)) + 0.5
    tiles = "#bir.ap<0, [[1, 2]]>, #bir.ap<2, [[1, 2]]>"
    body = (
        "%y = bir.collective_compute PermuteReduce(%a0, %a1) op = max permute_chain = [[3, 0]] "
        f"stream_id = 0 channel_id = 2 tiled input_aps = [{tiles}, {tiles}] output_aps = "
        f"[{tiles}] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>"
    )
    got = run1(body, ["tensor<4xf32>", "tensor<4xf32>"], "tensor<4xf32>", x, local)
    received = np.zeros_like(x)
    received[0] = x[3]
    check(got, np.maximum(local, received))


def test_send_recv_table() -> None:
    x = dev_arange((4,))
    table = "[1, 0, 3, 2, -1, -1, -1, -1]"
    body = compute(
        "SendRecv",
        f"pipe_id = 1 dyn_pipe_id = 0 recv_from_rank = {table} "
        f"send_to_rank = {table} local initial_core_barrier",
        "tensor<4xf32>",
        "tensor<4xf32>",
        ROW,
        ROW,
    )
    result = run(body, ["tensor<4xf32>"], "tensor<4xf32>", x)
    expected = np.zeros_like(x)
    expected[[0, 1, 2, 3]] = x[[1, 0, 3, 2]]
    check(result.outputs[0], expected)
    assert result.state.stats["send-recv"].launches == 1


def test_send_recv_cce_reduces_sources() -> None:
    """Receiver r folds its sources in order (s = r: its own value); others get zeros."""
    x = dev_arange((4,))
    body = compute(
        "SendRecvCCE",
        "op = max recv_from_ranks = [[0, 1], [0, 0], [0, 2], [3, 4]] barrier_id = 3",
        "tensor<4xf32>",
        "tensor<4xf32>",
        ROW,
        ROW,
    )
    result = run(body, ["tensor<4xf32>"], "tensor<4xf32>", x - 150)
    expected = np.zeros_like(x)
    expected[0] = np.maximum(np.maximum(x[1], x[0]), x[2]) - 150
    expected[3] = x[4] - 150
    check(result.outputs[0], expected)
    assert result.state.stats["send-recv-cce"].launches == 1


def test_broadcast_partition_repeats_the_row() -> None:
    x = dev_arange((3,))
    body = (
        "%y = bir.broadcast_partition %a0 partitions = 4 channels = 16 input_aps = "
        "[#bir.ap<0, [[1, 3]]>] output_aps = [#bir.ap<0, [[3, 4], [1, 3]]>] : "
        "(tensor<3xf32>) -> tensor<4x3xf32>"
    )
    got = run1(body, ["tensor<3xf32>"], "tensor<4x3xf32>", x)
    check(got, np.repeat(x[:, None], 4, axis=1))


def test_collective_send_recv() -> None:
    x = dev_arange((2, 2))
    body = (
        "bir.collective_send %a0 peer_id = [1, 2, 0, -1, -1, -1, -1, -1] channel_id = 5 : tensor<2x2xf32>\n"
        "%y = bir.collective_recv peer_id = [2, 0, 1, -1, -1, -1, -1, -1] channel_id = 5 : tensor<2x2xf32>"
    )
    result = run(body, ["tensor<2x2xf32>"], "tensor<2x2xf32>", x)
    expected = np.zeros_like(x)
    expected[1], expected[2], expected[0] = x[0], x[1], x[2]
    check(result.outputs[0], expected)
    assert result.state.stats["collective-send"].bytes_per_device == 16


def test_collective_recv_mismatch_and_missing() -> None:
    x = dev_arange((2,))
    body = (
        "bir.collective_send %a0 peer_id = [1, -1, -1, -1, -1, -1, -1, -1] channel_id = 5 : tensor<2xf32>\n"
        "%y = bir.collective_recv peer_id = [-1, -1, 0, -1, -1, -1, -1, -1] channel_id = 5 : tensor<2xf32>"
    )
    with pytest.raises(
        InterpretationError, match="device 2 receives from 0, but device 0 sends to 1"
    ):
        run(body, ["tensor<2xf32>"], "tensor<2xf32>", x)
    lonely = "%y = bir.collective_recv peer_id = [1, 0, -1, -1, -1, -1, -1, -1] channel_id = 5 : tensor<2xf32>"
    with pytest.raises(InterpretationError, match="no matching collective_send"):
        run(lonely, ["tensor<2xf32>"], "tensor<2xf32>", x)


# --- core_barrier, get_global_rank_id --------------------------------------------------------


def test_core_barrier_identity() -> None:
    x = dev_arange((1,), dtype=np.int32)
    body = "%y = bir.core_barrier %a0 cores = [0, 1] engine = Pool cb_id = 2 : tensor<1xi32>"
    check(run1(body, ["tensor<1xi32>"], "tensor<1xi32>", x), x)


@pytest.mark.parametrize(
    ("world", "expected"),
    [(4, [0, 1, 2, 3, 0, 1, 2, 3]), (2, [0, 0, 0, 0, 1, 1, 1, 1]), (8, list(range(8)))],
)
def test_get_global_rank_id(world: int, expected: list[int]) -> None:
    body = f"%y = bir.get_global_rank_id world_size = {world} engine = ALL : tensor<ui32>"
    got = run1(body, [], "tensor<ui32>", r=2, p=4)
    check(got, np.array(expected, dtype=np.uint32))


def test_get_global_rank_id_errors() -> None:
    body = "%y = bir.get_global_rank_id world_size = 2 engine = ALL : tensor<ui32>"
    with pytest.raises(InterpretationError, match="ambiguous"):
        run(body, [], "tensor<ui32>", r=2, p=2)
    body3 = body.replace("= 2", "= 3")
    with pytest.raises(InterpretationError, match="matches neither"):
        run(body3, [], "tensor<ui32>", r=2, p=2)
