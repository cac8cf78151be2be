"""Which entry parameters decide control flow, and random inputs that keep them uniform."""

from __future__ import annotations

import re

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from neuron_cc.interpreter.control_inputs import control_parameters
from neuron_cc.interpreter.equivalence import CONTROL_INTEGER_BOUND, random_value
from neuron_cc.interpreter.runner import entry_function
from neuron_cc.interpreter.values import InterpretationError
from neuron_cc.testing import assert_equivalent, random_inputs
from neuron_cc.testing.ir import parse_module
from neuron_cc.testing.loop_text import WhileLoop, tuple_type

SLOTS = ["tensor<i32>", "tensor<i32>", "tensor<4xf32>", "tensor<4xf32>"]
S = tuple_type(SLOTS)
MODULE = "builtin.module attributes {hlo.num_partitions = 4 : i64} {\n%s\n}"

# `fori_loop(0, n, ...)`: %n reaches the condition only through the while init (slot 1); %x
# and %y are data (slots 2 and 3, and the add after the loop); %flag is a conditional's
# predicate. An all-reduce in the body makes the devices talk.
_TRACED = WhileLoop(
    SLOTS,
    """
    %sum = hlo.all_reduce(%w) replica_groups = [[0, 1, 2, 3]] channel_id = 1 use_global_device_ids {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<4xf32>) -> tensor<4xf32>
    %acc2 = hlo.add %acc, %sum : tensor<4xf32>
    %one = hlo.constant dense<1> : tensor<i32>
    %i2 = hlo.add %i, %one : tensor<i32>
    """,
    ["%i2", "%bound", "%acc2", "%w"],
    condition="%p = hlo.compare LT, %i, %bound : tensor<i32> -> tensor<i1>",
    names=["%i", "%bound", "%acc", "%w"],
    arguments=("%s", "%s"),
)
TRACED_LOOP = f"""
func.func @main(%n: tensor<i32>, %x: tensor<4xf32>, %flag: tensor<i1>, %y: tensor<4xf32>) -> tensor<4xf32> attributes {{hlo.entry}} {{
  %i0 = hlo.constant dense<0> : tensor<i32>
  %init = hlo.tuple %i0, %n, %x, %y : {S}
{_TRACED.text("%init", result="%loop", indent=2)}
  %total = hlo.get_tuple_element %loop[2] : {S}
  %r = hlo.conditional(%flag) (%total, %total) : (tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {{
  ^bb0(%t: tensor<4xf32>):
    hlo.return %t : tensor<4xf32>
  }}, {{
  ^bb0(%f: tensor<4xf32>):
    %neg = hlo.negate %f : tensor<4xf32>
    hlo.return %neg : tensor<4xf32>
  }}
  %out = hlo.add %r, %y : tensor<4xf32>
  func.return %out : tensor<4xf32>
}}
"""

# The loop state is built by a call (`@state` returns the tuple (0, %m, %x, %x)) and the
# condition asks another call (`@below`) whether slot 0 < slot 1: %m decides, %x does not.
_THROUGH_CALLS = WhileLoop(
    SLOTS,
    """
    %acc2 = hlo.add %acc, %w : tensor<4xf32>
    %one = hlo.constant dense<1> : tensor<i32>
    %i2 = hlo.add %i, %one : tensor<i32>
    """,
    ["%i2", "%bound", "%acc2", "%w"],
    condition="%p = hlo.call @below(%i, %bound) : (tensor<i32>, tensor<i32>) -> tensor<i1>",
    names=["%i", "%bound", "%acc", "%w"],
    arguments=("%s", "%s"),
)
THROUGH_CALLS = f"""
func.func @state(%k: tensor<i32>, %v: tensor<4xf32>) -> {S} {{
  %i0 = hlo.constant dense<0> : tensor<i32>
  %t = hlo.tuple %i0, %k, %v, %v : {S}
  func.return %t : {S}
}}
func.func @below(%a: tensor<i32>, %b: tensor<i32>) -> tensor<i1> {{
  %p = hlo.compare LT, %a, %b : tensor<i32> -> tensor<i1>
  func.return %p : tensor<i1>
}}
func.func @main(%x: tensor<4xf32>, %m: tensor<i32>) -> {S} attributes {{hlo.entry}} {{
  %init = hlo.call @state(%m, %x) : (tensor<i32>, tensor<4xf32>) -> {S}
{_THROUGH_CALLS.text("%init", result="%loop", indent=2)}
  func.return %loop : {S}
}}
"""

# A branch index computed by arithmetic and a convert from %k (not %z, the branch operand).
BRANCH_INDEX = """
func.func @main(%z: tensor<4xf32>, %k: tensor<i64>) -> tensor<4xf32> attributes {hlo.entry} {
  %one = hlo.constant dense<1> : tensor<i64>
  %j = hlo.add %k, %one : tensor<i64>
  %index = hlo.convert %j : tensor<i64> -> tensor<i32>
  %r = hlo.conditional(%index) (%z, %z) : (tensor<i32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    hlo.return %a : tensor<4xf32>
  }, {
  ^bb0(%b: tensor<4xf32>):
    %neg = hlo.negate %b : tensor<4xf32>
    hlo.return %neg : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}
"""

# The loop's trip count comes from a conditional's result (through its branch operands and
# branch results): %lo and %hi decide through the branches, %p as the predicate; %x is data.
_BOUND_FROM_BRANCH = WhileLoop(
    ["tensor<i32>", "tensor<i32>", "tensor<4xf32>"],
    """
    %one = hlo.constant dense<1> : tensor<i32>
    %i2 = hlo.add %i, %one : tensor<i32>
    %v2 = hlo.multiply %v, %v : tensor<4xf32>
    """,
    ["%i2", "%bound", "%v2"],
    condition="%lt = hlo.compare LT, %i, %bound : tensor<i32> -> tensor<i1>",
    names=["%i", "%bound", "%v"],
    arguments=("%s", "%s"),
    predicate="%lt",
)
T = _BOUND_FROM_BRANCH.type
BOUND_FROM_BRANCH = f"""
func.func @main(%p: tensor<i1>, %lo: tensor<i32>, %hi: tensor<i32>, %x: tensor<4xf32>) -> {T} attributes {{hlo.entry}} {{
  %n = hlo.conditional(%p) (%lo, %hi) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32> {{
  ^bb0(%a: tensor<i32>):
    hlo.return %a : tensor<i32>
  }}, {{
  ^bb0(%b: tensor<i32>):
    %c = hlo.negate %b : tensor<i32>
    hlo.return %c : tensor<i32>
  }}
  %i0 = hlo.constant dense<0> : tensor<i32>
  %init = hlo.tuple %i0, %n, %x : {T}
{_BOUND_FROM_BRANCH.text("%init", result="%loop", indent=2)}
  func.return %loop : {T}
}}
"""

# `while acc < limit`: a float vector parameter that reaches the condition through a reduce
# (captured from the enclosing function) decides too, whatever its shape; the step %d is added to the compared slot, so it decides as well,
# while %x (slot 2, never compared) does not.
_FLOAT_LIMIT = WhileLoop(
    ["tensor<f32>", "tensor<f32>", "tensor<4xf32>"],
    """
    %acc2 = hlo.add %acc, %step : tensor<f32>
    %v2 = hlo.add %v, %v : tensor<4xf32>
    """,
    ["%acc2", "%step", "%v2"],
    condition="""
    %low = hlo.constant dense<-1.000000e+00> : tensor<f32>
    %limit = hlo.reduce(%limits : tensor<3xf32>) init(%low : tensor<f32>) dimensions = [0] {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.maximum %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } -> tensor<f32>
    %lt = hlo.compare LT, %acc, %limit : tensor<f32> -> tensor<i1>
    """,
    names=["%acc", "%step", "%v"],
    arguments=("%s", "%s"),
    predicate="%lt",
)
F = _FLOAT_LIMIT.type
FLOAT_LIMIT = f"""
func.func @main(%limits: tensor<3xf32>, %d: tensor<f32>, %x: tensor<4xf32>) -> {F} attributes {{hlo.entry}} {{
  %zero = hlo.constant dense<0.000000e+00> : tensor<f32>
  %init = hlo.tuple %zero, %d, %x : {F}
{_FLOAT_LIMIT.text("%init", result="%loop", indent=2)}
  func.return %loop : {F}
}}
"""

# Nested tuples: only element (0, 0) of the state is compared, so %n decides and %a, %b,
# %c (elements (0, 1), (1, 0) and the whole slot 1 otherwise) do not.
_NESTED = WhileLoop(
    ["tuple<tensor<i32>, tensor<4xf32>>"] * 2,
    """
    %k = hlo.get_tuple_element %first[0] : tuple<tensor<i32>, tensor<4xf32>>
    %v = hlo.get_tuple_element %first[1] : tuple<tensor<i32>, tensor<4xf32>>
    %one = hlo.constant dense<1> : tensor<i32>
    %k2 = hlo.subtract %k, %one : tensor<i32>
    %inner = hlo.tuple %k2, %v : tuple<tensor<i32>, tensor<4xf32>>
    """,
    ["%inner", "%second"],
    condition="""
    %k = hlo.get_tuple_element %first[0] : tuple<tensor<i32>, tensor<4xf32>>
    %zero = hlo.constant dense<0> : tensor<i32>
    %gt = hlo.compare GT, %k, %zero : tensor<i32> -> tensor<i1>
    """,
    names=["%first", "%second"],
    arguments=("%s", "%s"),
    predicate="%gt",
)
N = _NESTED.type
NESTED = f"""
func.func @main(%n: tensor<i32>, %a: tensor<4xf32>, %b: tensor<i32>, %c: tensor<4xf32>) -> {N} attributes {{hlo.entry}} {{
  %inner0 = hlo.tuple %n, %a : tuple<tensor<i32>, tensor<4xf32>>
  %inner1 = hlo.tuple %b, %c : tuple<tensor<i32>, tensor<4xf32>>
  %init = hlo.tuple %inner0, %inner1 : {N}
{_NESTED.text("%init", result="%loop", indent=2)}
  func.return %loop : {N}
}}
"""

# No control flow at all: an integer scalar parameter stays per device.
STRAIGHT_LINE = """
func.func @main(%i: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
  %f = hlo.convert %i : tensor<i32> -> tensor<f32>
  %b = hlo.broadcast %f, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %r = hlo.add %x, %b : tensor<4xf32>
  func.return %r : tensor<4xf32>
}
"""


def _module(body: str) -> ModuleOp:
    return parse_module(MODULE % body)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (TRACED_LOOP, {0, 2}),
        (THROUGH_CALLS, {1}),
        (BRANCH_INDEX, {1}),
        (BOUND_FROM_BRANCH, {0, 1, 2}),
        (FLOAT_LIMIT, {0, 1}),
        (NESTED, {0}),
        (STRAIGHT_LINE, set[int]()),
    ],
    ids=[
        "traced-loop",
        "through-calls",
        "branch-index",
        "bound-from-branch",
        "float-limit",
        "nested",
        "straight-line",
    ],
)
def test_control_parameters(body: str, expected: set[int]) -> None:
    assert control_parameters(_module(body)) == expected


def test_control_parameters_are_uniform_and_small() -> None:
    module = _module(TRACED_LOOP)
    n, x, flag, y = random_inputs(module, seed=0)
    assert n.shape == (4,)
    assert flag.shape == (4,)
    assert x.shape == (4, 4)
    assert len(set(n.tolist())) == 1
    assert len(set(flag.tolist())) == 1
    assert 0 <= int(n[0]) < CONTROL_INTEGER_BOUND
    assert not np.array_equal(x[0], x[1])
    assert not np.array_equal(y[0], y[1])


def test_random_inputs_are_deterministic_with_the_seed() -> None:
    module = _module(TRACED_LOOP)
    a = random_inputs(module, seed=7)
    b = random_inputs(module, seed=7)
    for u, v in zip(a, b, strict=True):
        np.testing.assert_array_equal(u, v)
    many = [random_inputs(module, seed=s) for s in range(8)]
    assert len({int(inputs[0][0]) for inputs in many}) > 1
    assert len({inputs[1].tobytes() for inputs in many}) == 8


def test_inputs_without_control_flow_keep_the_per_device_stream() -> None:
    module = _module(STRAIGHT_LINE)
    rng = np.random.default_rng(5)
    types = entry_function(module).function_type.inputs.data
    expected = [random_value(t, 4, rng) for t in types]
    for got, want in zip(random_inputs(module, seed=5), expected, strict=True):
        np.testing.assert_array_equal(got, want)
    assert len(set(expected[0].tolist())) > 1


def test_per_device_opt_out_and_device_count() -> None:
    module = _module(TRACED_LOOP)
    n = random_inputs(module, seed=0, per_device=True)[0]
    assert len(set(n.tolist())) > 1
    wide = random_inputs(module, seed=0, devices=8)
    assert wide[0].shape == (8,)
    assert len(set(wide[0].tolist())) == 1
    assert wide[1].shape == (8, 4)


def test_traced_bounds_run_equivalent_only_with_uniform_control_inputs() -> None:
    module = _module(TRACED_LOOP)
    first, _ = assert_equivalent(module, module.clone())
    n = int(random_inputs(module)[0][0])
    assert n > 0
    assert first.state.stats["all-reduce"].launches == n
    with pytest.raises(
        InterpretationError, match=re.escape("divergent control flow at 'hlo.while'")
    ):
        assert_equivalent(module, module.clone(), per_device_inputs=True)


def test_neuron_run_opt_out_needs_random_inputs(capsys: pytest.CaptureFixture[str]) -> None:
    from neuron_cc.tools.neuron_run import main

    with pytest.raises(SystemExit) as exit_info:
        main(["x.mlir", "--inputs", "in.npz", "--per-device-random-inputs"])
    assert exit_info.value.code == 1
    assert capsys.readouterr().err == "error: --per-device-random-inputs needs --random-inputs\n"
