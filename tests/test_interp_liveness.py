"""The interpreter forgets a value after its last use (`neuron_cc.interpreter.liveness`).

The release plan is checked op by op on hand-written blocks (uses inside nested regions keep a
value alive until the op holding the region has run; unused results die with their op), and
the effect on a run: a long chain of element-wise ops peaks at a few live arrays, not one per
op, and computes the same values as before.
"""

from __future__ import annotations

import tracemalloc
from typing import Any

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.dialects.test import Test
from xdsl.ir import Block

from neuron_cc.interpreter.liveness import release_plan
from neuron_cc.interpreter.runner import run_module
from neuron_cc.testing.ir import parse_module
from neuron_cc.translate.hlo_text.importer import import_hlo


def _block(text: str) -> Block:
    ctx = Context()
    ctx.load_dialect(Builtin)
    ctx.load_dialect(Test)
    module = parse_module(text, verify=False, ctx=ctx)
    assert isinstance(module, ModuleOp)
    return module.body.block


def _dead_names(block: Block) -> list[list[str]]:
    plan = release_plan(block)
    return [sorted(v.name_hint or "?" for v in plan.get(op, ())) for op in block.ops]


def test_plan_follows_uses_into_regions() -> None:
    block = _block(
        """
        %a = "test.op"() : () -> i32
        %b = "test.op"() : () -> i32
        %unused = "test.op"() : () -> i32
        "test.op"() ({
          "test.op"(%a) : (i32) -> ()
        }) : () -> ()
        "test.op"(%b, %b) : (i32, i32) -> ()
        "test.op"() : () -> ()
        """
    )
    assert _dead_names(block) == [[], [], ["unused"], ["a"], ["b"], []]


def test_plan_releases_block_arguments_at_their_last_use() -> None:
    block = _block(
        """
        "test.op"() ({
        ^bb0(%x: i32, %y: i32):
          %s = "test.op"(%x) : (i32) -> i32
          "test.op"(%s, %x) : (i32, i32) -> ()
          "test.op"() : () -> ()
        }) : () -> ()
        """
    )
    region_op = block.first_op
    assert region_op is not None
    inner = region_op.regions[0].block
    # %y is never used: it stays (a block argument dies only at a use).
    assert _dead_names(inner) == [[], ["s", "x"], []]


def test_multi_block_regions_keep_everything() -> None:
    block = _block(
        """
        "test.op"() ({
          %v = "test.op"() : () -> i32
          "test.termop"() [^bb1] : () -> ()
        ^bb1:
          "test.op"(%v) : (i32) -> ()
        }) : () -> ()
        """
    )
    region_op = block.first_op
    assert region_op is not None
    assert release_plan(region_op.regions[0].blocks.first or block) == {}


ELEMENTS = 8192  # f32 per device: 32 KiB, 256 KiB on all 8 devices


def _chain_hlo(length: int) -> str:
    lines = [f"  p0 = f32[{ELEMENTS}] parameter(0)"]
    for i in range(length):
        prev = "p0" if i == 0 else f"v{i - 1}"
        lines.append(f"  v{i} = f32[{ELEMENTS}] add({prev}, p0)")
    body = "\n".join([*lines[:-1], f"  ROOT {lines[-1].strip()}"])
    return f"HloModule chain, num_partitions=8\n\nENTRY main {{\n{body}\n}}\n"


def _peak_bytes(length: int, x: np.ndarray[Any, Any]) -> int:
    module = import_hlo(_chain_hlo(length), "chain.hlo")
    tracemalloc.start()
    try:
        (out,) = run_module(module, [x]).outputs
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    expected = x.copy()
    for _ in range(length):
        expected = expected + x
    np.testing.assert_array_equal(out, expected)
    return peak


def test_a_long_chain_keeps_only_its_live_arrays() -> None:
    x = np.random.default_rng(0).standard_normal((8, ELEMENTS)).astype(np.float32)
    short, long = _peak_bytes(30, x), _peak_bytes(90, x)
    # Live at any time: the input, the previous link, the one being computed and one op's
    # temporaries, whatever the length. Keeping every link would make `long` about 3x `short`.
    assert long < 1.5 * short, (short, long)
    assert long < 30 * x.nbytes, (long, x.nbytes)
