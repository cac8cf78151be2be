"""Interpreter safety (issue 10, item 4): hazardous programs get XLA's defined behaviour or a
clear `InterpretationError` that names the failing op; never a hang, a garbage result or a
Python traceback. The table of hazards is notes/INTERPRETER_SAFETY.md.

Expected values of the defined cases are XLA:CPU's, measured once on the jax 0.10 CPU backend
(`jax.lax` with `allow_negative_indices=False`, which lowers to a plain HLO dynamic-slice) and
written down here; when jax is importable the dynamic-slice clamping is also cross-checked live.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import neuron_cc.interpreter.data_movement as data_movement
from neuron_cc.interpreter.runner import RunResult, run_module
from neuron_cc.interpreter.values import DEFAULT_MAX_WHILE_ITERATIONS, InterpretationError
from neuron_cc.testing.ir import module_text
from neuron_cc.testing.ir import parse_module as parse
from neuron_cc.testing.loop_text import WhileLoop
from tests.conftest import run_tool

Array = np.ndarray[Any, Any]

INT_MIN = -(2**31)
INT_MAX = 2**31 - 1


def run(body: str, r: int, p: int, *inputs: Array, **limits: Any) -> RunResult:
    return run_module(parse(module_text(body, r, p)), list(inputs), **limits)


def run1(body: str, r: int, p: int, *inputs: Array, **limits: Any) -> Array:
    (out,) = run(body, r, p, *inputs, **limits).outputs
    return out


def failure(body: str, r: int, p: int, *inputs: Array, **limits: Any) -> InterpretationError:
    with pytest.raises(InterpretationError) as info:
        run(body, r, p, *inputs, **limits)
    return info.value


def failing_op(error: InterpretationError) -> str:
    assert error.op is not None, str(error)
    return error.op.name


def check(got: Array, expected: Array) -> None:
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    np.testing.assert_array_equal(got, expected)


ADD = """{
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = hlo.add %a, %b : tensor<f32>
    hlo.return %c : tensor<f32>
  }"""


# --- out-of-range dynamic indices: XLA clamps each start into [0, dim - size] ----------------

STARTS = [-5, -1, 0, 3, 7, 8, 100, INT_MAX, INT_MIN]
"""One start per device (9 replicas); the array has 10 elements and the slice 3."""

DS = """func.func @main(%x: tensor<10xf32>, %i: tensor<i32>) -> tensor<3xf32> {
  %s = hlo.dynamic_slice %x at [%i] sizes = [3] : (tensor<10xf32>, tensor<i32>) -> tensor<3xf32>
  func.return %s : tensor<3xf32>
}"""

DUS = """func.func @main(%x: tensor<10xf32>, %u: tensor<3xf32>, %i: tensor<i32>) -> tensor<10xf32> {
  %s = hlo.dynamic_update_slice %x, %u at [%i] : (tensor<10xf32>, tensor<3xf32>, tensor<i32>) -> tensor<10xf32>
  func.return %s : tensor<10xf32>
}"""

# XLA:CPU: the clamped start of each device (measured, see the module docstring)
XLA_CLAMPED = [0, 0, 0, 3, 7, 7, 7, 7, 0]


def test_dynamic_slice_clamps_out_of_range_starts_per_device() -> None:
    x = np.broadcast_to(np.arange(10, dtype=np.float32), (9, 10))
    got = run1(DS, 9, 1, x, np.array(STARTS, np.int32))
    check(got, np.stack([np.arange(s, s + 3, dtype=np.float32) for s in XLA_CLAMPED]))


def test_dynamic_update_slice_clamps_out_of_range_starts_per_device() -> None:
    x = np.broadcast_to(np.arange(10, dtype=np.float32), (9, 10))
    u = np.full((9, 3), -1.0, np.float32)
    got = run1(DUS, 9, 1, x, u, np.array(STARTS, np.int32))
    expected = np.array(x)
    for d, s in enumerate(XLA_CLAMPED):
        expected[d, s : s + 3] = -1.0
    check(got, expected)


def test_dynamic_slice_unsigned_start_beyond_int64_clamps_to_the_end() -> None:
    text = DS.replace("tensor<i32>", "tensor<ui64>")
    x = np.broadcast_to(np.arange(10, dtype=np.float32), (2, 10))
    got = run1(text, 2, 1, x, np.array([2**64 - 1, 2**63], np.uint64))
    check(got, np.stack([np.arange(7, 10, dtype=np.float32)] * 2))


def test_dynamic_slice_clamping_matches_jax() -> None:
    lax = pytest.importorskip("jax.lax")
    jnp = pytest.importorskip("jax.numpy")
    x = jnp.arange(10, dtype=jnp.float32)
    for s, clamped in zip(STARTS, XLA_CLAMPED, strict=True):
        got = lax.dynamic_slice(x, (jnp.int32(s),), (3,), allow_negative_indices=False)
        assert np.asarray(got).tolist() == list(range(clamped, clamped + 3)), s


# --- integer arithmetic with XLA-defined results ---------------------------------------------

BINARY = """func.func @main(%a: tensor<6xT>, %b: tensor<6xT>) -> tensor<6xT> {
  %r = hlo.OP %a, %b : tensor<6xT>
  func.return %r : tensor<6xT>
}"""


def binary(op: str, element: str, a: list[int], b: list[int], dtype: Any) -> Array:
    text = BINARY.replace("OP", op).replace("T", element)
    return run1(text, 1, 1, np.array([a], dtype), np.array([b], dtype))[0]


def test_integer_division_by_zero_and_overflow_follow_xla() -> None:
    a = [7, -7, INT_MIN, INT_MIN, 5, 0]
    b = [0, 0, -1, 0, 2, 0]
    # x / 0 = -1 (all bits set), INT_MIN / -1 = INT_MIN; x % 0 = x, INT_MIN % -1 = 0
    assert binary("divide", "i32", a, b, np.int32).tolist() == [-1, -1, INT_MIN, -1, 2, -1]
    assert binary("remainder", "i32", a, b, np.int32).tolist() == [7, -7, 0, INT_MIN, 1, 0]
    u = [7, 0, 2**32 - 1, 1, 9, 3]
    z = [0, 0, 0, 0, 2, 0]
    assert binary("divide", "ui32", u, z, np.uint32).tolist() == [2**32 - 1] * 4 + [4, 2**32 - 1]
    assert binary("remainder", "ui32", u, z, np.uint32).tolist() == [7, 0, 2**32 - 1, 1, 1, 3]


def test_shifts_by_the_bit_width_or_more_follow_xla() -> None:
    v = [1, -8, -8, 1, -1, 3]
    s = [32, 32, 33, -1, 31, 1]  # -1 is an unsigned amount of 2**32 - 1
    assert binary("shift_left", "i32", v, s, np.int32).tolist() == [0, 0, 0, 0, INT_MIN, 6]
    assert binary("shift_right_arithmetic", "i32", v, s, np.int32).tolist() == [
        0,
        -1,
        -1,
        0,
        -1,
        1,
    ]
    assert binary("shift_right_logical", "i32", v, s, np.int32).tolist() == [0, 0, 0, 0, 1, 1]


def test_convert_of_nan_and_inf_to_integers_saturates_like_xla() -> None:
    f = np.array([[np.nan, np.inf, -np.inf, 3e9, -3e9, -1.5, 2.5]], np.float32)
    expected = {
        "i32": [0, INT_MAX, INT_MIN, INT_MAX, INT_MIN, -1, 2],
        "ui32": [0, 2**32 - 1, 0, 3000000000, 0, 0, 2],
        "i8": [0, 127, -128, 127, -128, -1, 2],
        "ui8": [0, 255, 0, 255, 0, 0, 2],
    }
    for element, values in expected.items():
        text = f"""func.func @main(%x: tensor<7xf32>) -> tensor<7x{element}> {{
  %r = hlo.convert %x : tensor<7xf32> -> tensor<7x{element}>
  func.return %r : tensor<7x{element}>
}}"""
        assert run1(text, 1, 1, f)[0].tolist() == values, element


# --- divergent control flow ------------------------------------------------------------------

# Replica r runs the loop r times and all-reduces in every iteration: devices would wait for
# partners that left the loop (XLA deadlocks or is undefined).
_DIVERGENT = WhileLoop(
    ["tensor<ui32>", "tensor<4xf32>"],
    f"""
    %r = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3]] {ADD} : (tensor<4xf32>) -> tensor<4xf32>
    %one = hlo.constant dense<1> : tensor<ui32>
    %n = hlo.add %i, %one : tensor<ui32>
    """,
    ["%n", "%r"],
    condition="""
    %rid = hlo.replica_id : tensor<ui32>
    %p = hlo.compare LT, %i, %rid : tensor<ui32> -> tensor<i1>
    """,
    names=["%i", "%v"],
    arguments=("%s", "%s"),
)
DIVERGENT_WHILE = f"""func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {{
  %zero = hlo.constant dense<0> : tensor<ui32>
  %init = hlo.tuple %zero, %x : {_DIVERGENT.type}
{_DIVERGENT.text("%init", indent=2)}
  %out = hlo.get_tuple_element %w[1] : {_DIVERGENT.type}
  func.return %out : tensor<4xf32>
}}"""


def test_while_with_per_device_trip_counts_and_a_collective_is_an_error() -> None:
    error = failure(DIVERGENT_WHILE, 4, 1, np.ones((4, 4), np.float32))
    assert failing_op(error) == "hlo.while"
    message = str(error)
    assert message.startswith("divergent control flow at 'hlo.while' (%w)")
    assert "devices 0 and 1, 2, 3 disagree on the loop condition" in message


DIVERGENT_CASE = f"""func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {{
  %rid = hlo.replica_id : tensor<ui32>
  %idx = hlo.convert %rid : tensor<ui32> -> tensor<i32>
  %c = hlo.conditional(%idx) (%x, %x) : (tensor<i32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {{
  ^bb0(%u: tensor<4xf32>):
    %r = hlo.all_reduce(%u) replica_groups = [[0, 1]] {ADD} : (tensor<4xf32>) -> tensor<4xf32>
    hlo.return %r : tensor<4xf32>
  }}, {{
  ^bb0(%w: tensor<4xf32>):
    hlo.return %w : tensor<4xf32>
  }}
  func.return %c : tensor<4xf32>
}}"""


def test_conditional_taking_different_branches_per_device_is_an_error() -> None:
    # replica 0 would all-reduce with replica 1, which took the other branch
    error = failure(DIVERGENT_CASE, 2, 1, np.ones((2, 4), np.float32))
    assert failing_op(error) == "hlo.conditional"
    assert "divergent control flow at 'hlo.conditional' (%c)" in str(error)
    assert "disagree on the branch index (0 vs 1)" in str(error)


def test_conditional_index_out_of_range_runs_the_last_branch() -> None:
    # XLA: an index outside [0, N) selects branch N-1 (here: the identity, no all_reduce)
    text = DIVERGENT_CASE.replace(
        "%rid = hlo.replica_id : tensor<ui32>", "%rid = hlo.constant dense<7> : tensor<ui32>"
    )
    x = np.arange(8, dtype=np.float32).reshape(2, 4)
    check(run1(text, 2, 1, x), x)
    negative = text.replace("dense<7> : tensor<ui32>", "dense<-3> : tensor<i32>").replace(
        "hlo.convert %rid : tensor<ui32> -> tensor<i32>", "hlo.negate %rid : tensor<i32>"
    )
    check(run1(negative, 2, 1, x), x)


# --- collectives whose groups do not match the participants ----------------------------------

ALL_REDUCE = f"""func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {{
  %r = hlo.all_reduce(%x) replica_groups = [[0, 1]] {ADD} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}}"""


def test_devices_outside_every_group_are_an_error() -> None:
    # the module says 2 replicas; running it on 4 leaves replicas 2 and 3 in no group
    module = parse(module_text(ALL_REDUCE, 2, 1))
    with pytest.raises(InterpretationError) as info:
        run_module(module, [np.ones((4, 2), np.float32)], 4, 1)
    assert failing_op(info.value) == "hlo.all_reduce"
    assert "'hlo.all_reduce': devices [2, 3] are in none of its 1 groups" in str(info.value)


def test_permute_pairs_outside_the_run_are_an_error() -> None:
    text = """func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %r = hlo.collective_permute %x pairs = [[0, 3], [3, 0]] channel_id = 1 : tensor<2xf32>
  func.return %r : tensor<2xf32>
}"""
    module = parse(module_text(text, 1, 4))
    with pytest.raises(InterpretationError) as info:
        run_module(module, [np.ones((2, 2), np.float32)], 1, 2)
    assert failing_op(info.value) == "hlo.collective_permute"
    assert "names a partition outside the run's 2 partitions" in str(info.value)


# --- send / recv without a matching peer ------------------------------------------------------

PAIRS = 'xla.frontend_attributes = "{_xla_send_recv_source_target_pairs={{0,1},{1,0}}}"'
T3 = "tuple<tensor<2xf32>, tensor<ui32>, !hlo.token>"


def send(name: str = "s", channel: int = 1, attr: str = PAIRS) -> str:
    return f"""  %{name} = hlo.send %x, %t channel_id = {channel} {{{attr}}} : tensor<2xf32> -> {T3}
  %{name}d = hlo.send_done %{name} channel_id = {channel} {{{attr}}} : {T3}
"""


def recv(channel: int = 1, attr: str = PAIRS, t3: str = T3) -> str:
    data = t3.removeprefix("tuple<").split(",")[0]
    return f"""  %r = hlo.recv %t channel_id = {channel} {{{attr}}} : {t3}
  %rd = hlo.recv_done %r channel_id = {channel} {{{attr}}} : {t3} -> tuple<{data}, !hlo.token>
  %v = hlo.get_tuple_element %rd[0] : tuple<{data}, !hlo.token>
  func.return %v : {data}
"""


def p2p(body: str, result: str = "tensor<2xf32>") -> str:
    return f"""func.func @main(%x: tensor<2xf32>) -> {result} {{
  %t = hlo.after_all()
{body}}}"""


def test_send_recv_pair_routes() -> None:
    x = np.array([[1, 2], [3, 4]], np.float32)
    check(run1(p2p(send() + recv()), 1, 2, x), x[::-1])


def test_recv_without_a_send_is_an_error() -> None:
    error = failure(p2p(recv()), 1, 2, np.ones((2, 2), np.float32))
    assert failing_op(error) == "hlo.recv_done"
    assert "recv on channel 1 has no matching send before its hlo.recv_done" in str(error)


def test_recv_issued_before_its_send_takes_the_data_at_recv_done() -> None:
    # XLA's usual order (collective-permute decomposition): recv, send, recv_done, send_done.
    first, second = recv().split("  %v =")
    done = first.split("  %rd =")
    body = done[0] + send() + "  %rd =" + done[1] + "  %v =" + second
    x = np.array([[1, 2], [3, 4]], np.float32)
    check(run1(p2p(body), 1, 2, x), x[::-1])


def test_send_never_received_is_an_error() -> None:
    body = send() + "  func.return %x : tensor<2xf32>\n"
    error = failure(p2p(body), 1, 2, np.ones((2, 2), np.float32))
    assert failing_op(error) == "hlo.send"
    assert "send on channel 1 is never received" in str(error)


def test_second_send_before_the_recv_is_an_error() -> None:
    error = failure(p2p(send("a") + send("b") + recv()), 1, 2, np.ones((2, 2), np.float32))
    assert failing_op(error) == "hlo.send"
    assert "the previous send on it is not received" in str(error)


def test_recv_of_another_shape_is_an_error() -> None:
    t3 = "tuple<tensor<3xf32>, tensor<ui32>, !hlo.token>"
    body = send() + recv(t3=t3)
    error = failure(p2p(body, "tensor<3xf32>"), 1, 2, np.ones((2, 2), np.float32))
    assert failing_op(error) == "hlo.recv"
    assert "expects tensor<3xf32>, but the send sent tensor<2xf32>" in str(error)


def test_recv_with_other_pairs_than_its_send_is_an_error() -> None:
    other = 'xla.frontend_attributes = "{_xla_send_recv_source_target_pairs={{0,1}}}"'
    error = failure(p2p(send() + recv(attr=other)), 1, 2, np.ones((2, 2), np.float32))
    assert failing_op(error) == "hlo.recv"
    assert "lists source_target_pairs [(0, 1)], but its send lists [(0, 1), (1, 0)]" in str(error)


# --- huge results ------------------------------------------------------------------------------

HUGE_IOTA = """func.func @main() -> tensor<65536x65536xf32> {
  %i = hlo.iota dim = 0 : tensor<65536x65536xf32>
  func.return %i : tensor<65536x65536xf32>
}"""


def test_huge_iota_is_refused_before_it_is_allocated() -> None:
    error = failure(HUGE_IOTA, 1, 8)
    assert failing_op(error) == "hlo.iota"
    assert str(error) == (
        "'hlo.iota' would produce 137438953472 bytes (17179869184 bytes on each of 8 devices), "
        "over the interpreter's limit of 1073741824 bytes per value"
    )


def test_huge_broadcast_is_refused_and_the_limit_is_configurable() -> None:
    text = """func.func @main(%x: tensor<f32>) -> tensor<4x1024xbf16> {
  %b = hlo.broadcast %x, dims = [] : (tensor<f32>) -> tensor<4x1024xf32>
  %c = hlo.convert %b : tensor<4x1024xf32> -> tensor<4x1024xbf16>
  func.return %c : tensor<4x1024xbf16>
}"""
    x = np.ones(2, np.float32)
    assert run1(text, 2, 1, x).shape == (2, 4, 1024)
    # 2 devices x 4096 x 4 bytes (bf16 is stored as f32) = 32768 bytes per value
    assert run1(text, 2, 1, x, max_value_bytes=32768).shape == (2, 4, 1024)
    error = failure(text, 2, 1, x, max_value_bytes=32767)
    assert failing_op(error) == "hlo.broadcast"


def test_memory_error_becomes_an_interpretation_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def exhausted(*args: Any) -> Array:
        raise MemoryError

    monkeypatch.setattr(data_movement, "broadcast_in_dims", exhausted)
    text = """func.func @main(%x: tensor<f32>) -> tensor<4xf32> {
  %b = hlo.broadcast %x, dims = [] : (tensor<f32>) -> tensor<4xf32>
  func.return %b : tensor<4xf32>
}"""
    error = failure(text, 1, 1, np.ones(1, np.float32))
    assert failing_op(error) == "hlo.broadcast"
    assert str(error) == "out of memory while running 'hlo.broadcast'"


# --- recursion and deep nesting ------------------------------------------------------------------


def test_a_computation_calling_itself_is_an_error() -> None:
    text = """func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %r = hlo.call @f(%x) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}
func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  %r = hlo.call @g(%x) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}
func.func @g(%x: tensor<2xf32>) -> tensor<2xf32> {
  %r = hlo.call @f(%x) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}"""
    error = failure(text, 1, 1, np.ones((1, 2), np.float32))
    assert failing_op(error) == "hlo.call"
    assert str(error) == ("recursive call of @f (@f -> @g -> @f): HLO computations cannot recurse")


def test_calling_one_computation_twice_is_not_recursion() -> None:
    text = """func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %a = hlo.call @f(%x) : (tensor<2xf32>) -> tensor<2xf32>
  %b = hlo.call @f(%a) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %b : tensor<2xf32>
}
func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  %r = hlo.add %x, %x : tensor<2xf32>
  func.return %r : tensor<2xf32>
}"""
    check(run1(text, 1, 1, np.ones((1, 2), np.float32)), np.full((1, 2), 4.0, np.float32))


def test_too_deep_call_chain_is_an_error_not_a_recursion_error() -> None:
    depth = 300  # about 8 Python frames per level: past the default limit of 1000
    funcs = [
        f"""func.func @f{k}(%x: tensor<f32>) -> tensor<f32> {{
  %r = hlo.call @f{k + 1}(%x) : (tensor<f32>) -> tensor<f32>
  func.return %r : tensor<f32>
}}"""
        for k in range(depth)
    ]
    funcs.append(
        f"func.func @f{depth}(%x: tensor<f32>) -> tensor<f32> {{\n  func.return %x : tensor<f32>\n}}"
    )
    text = "\n".join(funcs).replace("@f0(", "@main(", 1)
    # In-process tool runs (tests of the CLIs) raise the recursion limit; this test is about
    # the default one.
    previous = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    try:
        error = failure(text, 1, 1, np.ones(1, np.float32))
    finally:
        sys.setrecursionlimit(previous)
    assert "nests regions or calls too deeply" in str(error)
    assert failing_op(error) == "hlo.call"


# --- infinite loops ------------------------------------------------------------------------------

_FOREVER = WhileLoop(
    ["tensor<i32>"],
    """
    %one = hlo.constant dense<1> : tensor<i32>
    %n = hlo.add %b, %one : tensor<i32>
    """,
    ["%n"],
    condition="""
    %t = hlo.constant dense<LIMIT> : tensor<i32>
    %p = hlo.compare LT, %c, %t : tensor<i32> -> tensor<i1>
    """,
    bare=True,
)
FOREVER = f"""func.func @main(%x: tensor<i32>) -> tensor<i32> {{
{_FOREVER.text("%x", indent=2)}
  func.return %w : tensor<i32>
}}"""


def test_constant_true_loop_stops_at_the_iteration_limit() -> None:
    forever = FOREVER.replace("LIMIT", "0").replace(
        "%p = hlo.compare LT, %c, %t : tensor<i32> -> tensor<i1>",
        "%p = hlo.constant dense<true> : tensor<i1>",
    )
    error = failure(forever, 1, 2, np.zeros(2, np.int32), max_while_iterations=100)
    assert failing_op(error) == "hlo.while"
    assert str(error) == (
        "'hlo.while' (%w) is still running after 100 iterations (an infinite loop?); "
        "raise the limit with --max-while-iterations"
    )


def test_iteration_limit_is_inclusive_and_zero_means_none() -> None:
    loop = FOREVER.replace("LIMIT", "100")
    x = np.zeros(2, np.int32)
    check(run1(loop, 1, 2, x, max_while_iterations=100), np.full(2, 100, np.int32))
    assert "after 99 iterations" in str(failure(loop, 1, 2, x, max_while_iterations=99))
    check(run1(loop, 1, 2, x, max_while_iterations=0), np.full(2, 100, np.int32))
    assert DEFAULT_MAX_WHILE_ITERATIONS == 50_000


# --- neuron-run reports every refusal at the op's location ---------------------------------------


def write(tmp_path: Path, name: str, body: str, r: int, p: int) -> Path:
    path = tmp_path / name
    path.write_text(module_text(body, r, p) + "\n")
    return path


def test_neuron_run_locates_interpreter_errors(tmp_path: Path) -> None:
    loop = FOREVER.replace("LIMIT", "1000")
    program = write(tmp_path, "loop.mlir", loop, 1, 1)
    out = tmp_path / "out.npz"
    proc = run_tool(
        "neuron-run",
        program,
        "--random-inputs",
        "0",
        "--outputs",
        out,
        "--max-while-iterations",
        "10",
    )
    assert proc.returncode == 1, proc.stderr
    # line 3 is `%w = hlo.while` (line 1 is the builtin.module line)
    assert proc.stderr.startswith(
        f"error: {program}:3:3: 'hlo.while' (%w) is still running after 10 iterations"
    ), proc.stderr
    assert "Traceback" not in proc.stderr
    assert not out.exists()


def test_neuron_run_refuses_huge_values_with_a_location(tmp_path: Path) -> None:
    program = write(tmp_path, "iota.mlir", HUGE_IOTA, 1, 8)
    proc = run_tool("neuron-run", program, "--random-inputs", "0", "--max-value-bytes", "100")
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.startswith(f"error: {program}:3:3: 'hlo.iota' would produce"), proc.stderr
    assert "over the interpreter's limit of 100 bytes" in proc.stderr
