"""XLA's while_loop_all_reduce_code_motion_test.cc modules, proven semantics-preserving by execution.

Every lit file of tests/filecheck/transforms/upstream-wlarcm/ (one upstream test case each, its
module text as test data) is imported with `import_hlo`, rewritten on a clone by
neuron-while-loop-all-reduce-code-motion with the options of the file's first RUN line, and both
modules run on the interpreter with the same inputs (`assert_equivalent`). A case where the pass
refuses must of course stay equivalent too. Inputs: seeded random values that differ per device,
except that every rank-0 integer argument (the loop bounds, and InvalidIndexing's update index)
is 3 on every device, and the dot-squaring loops (`%dot = dot(%gte.1, %gte.1)` sixteen times)
get per-device diagonal matrices with entries in [0.9, 1) so that X^(2^16) neither overflows nor
is constant. Files whose programs call custom-calls without semantics are skipped.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import IntegerType, ModuleOp, TensorType

from neuron_cc.dialects.replica_groups import device_counts
from neuron_cc.interpreter.runner import entry_function
from neuron_cc.interpreter.values import Value, numpy_dtype
from neuron_cc.testing import assert_equivalent, random_inputs
from neuron_cc.testing.ir import neuron_context
from neuron_cc.transforms.while_loop_all_reduce_code_motion import (
    WhileLoopAllReduceCodeMotionPass,
)
from neuron_cc.translate.hlo_text.importer import import_hlo

Array = np.ndarray[Any, Any]

DIR = Path(__file__).resolve().parent / "filecheck" / "transforms" / "upstream-wlarcm"
FILES = sorted(DIR.glob("*.hlo"))
PASS = "neuron-while-loop-all-reduce-code-motion"
_RUN = re.compile(rf"^// RUN: neuron-opt %s -p '?{PASS}(?:\{{([^}}]*)\}})?'? ")
TRIP_COUNT = 3

CUSTOM_CALL = "custom-calls without semantics (the interpreter runs only xla.sdy.* markers)"
SKIP = {
    "select-all-reduce-accumulate": CUSTOM_CALL,
    "select-reduce-scatter-accumulate": CUSTOM_CALL,
    "select-reduce-scatter-accumulate-not-scalar-predicate": CUSTOM_CALL,
    "dus-hoist-permitted-when-unrelated-gte-shares-index": CUSTOM_CALL,
    "scatter-all-reduce-accumulate": CUSTOM_CALL,
    "scatter-all-reduce-with-select-and-convert": CUSTOM_CALL,
    "scatter-all-reduce-buffer-used-elsewhere": CUSTOM_CALL,
    "scatter-all-reduce-invalid-select-pattern": CUSTOM_CALL,
}

XFAIL: dict[str, str] = {}
"""Cases where the pass fails or the rewritten program computes something else (issue 14)."""

F32_TOLERANCE = (1e-4, 1e-5)
"""(rtol, atol): the moved sums are reassociated (one all-reduce of the local sums)."""
F16_TOLERANCE = (2.0**-6, 0.1)
"""For modules with bf16/f16 values: one bf16 all-reduce of a local f32 sum instead of a sum of
bf16 all-reduces; inputs are N(0, 1) and partial sums stay below ~20, so 0.1 is a few ulps."""

SHRINK = (
    ("dot(%gte.1, %gte.1)", (("256", "64"),)),
    ("f32[2, 1024, 1024]", (("1024", "32"),)),
    ("4096", (("4096", "256"), ("1024", "64"))),
)
"""(marker, replacements): the module families that took over 2 s of CPU at the upstream shapes
(the 16-iteration 256x256 dot-squaring loops, the 8-partition dynamic-slice loops over
f32[2,1024,1024], the f32[4096,1024] reduce-scatters) run with every occurrence of those
dimensions replaced; 4096x1024 -> 256x64 keeps the reduce-scatter ratio of 4."""


def _shrunk(text: str) -> str:
    for marker, replacements in SHRINK:
        if marker in text:
            for old, new in replacements:
                text = text.replace(old, new)
            return text
    return text


def _pass(path: Path) -> WhileLoopAllReduceCodeMotionPass:
    """The pass with the options of the file's first RUN line (`{enable-reduce-scatter=true}`)."""
    for line in path.read_text().splitlines():
        match = _RUN.match(line)
        if match is None:
            continue
        options: dict[str, str] = {}
        for item in (match.group(1) or "").split():
            key, _, value = item.partition("=")
            options[key] = value
        assert set(options) <= {"enable-reduce-scatter", "run-setup-passes"}, options
        return WhileLoopAllReduceCodeMotionPass(
            enable_reduce_scatter=options.get("enable-reduce-scatter") == "true",
            run_setup_passes=options.get("run-setup-passes") == "true",
        )
    raise AssertionError(f"{path.name}: no `// RUN: neuron-opt %s -p '{PASS}...'` line")


def _diagonals(shape: tuple[int, ...], devices: int, dtype: Any, seed: int) -> Array:
    rng = np.random.default_rng(seed)
    out = np.zeros((devices, *shape), dtype=dtype)
    for d in range(devices):
        np.fill_diagonal(out[d], rng.uniform(0.9, 1.0, shape[0]))
    return out


def _inputs(module: ModuleOp, text: str) -> list[Value]:
    r, p = device_counts(module)
    devices = r * p
    squaring = "dot(%gte.1, %gte.1)" in text
    inputs = random_inputs(module)
    for i, t in enumerate(entry_function(module).function_type.inputs.data):
        if not isinstance(t, TensorType):
            continue
        shape = tuple(t.get_shape())
        element = t.element_type
        if not shape and isinstance(element, IntegerType):
            inputs[i] = np.full((devices,), TRIP_COUNT, dtype=numpy_dtype(element))
        elif squaring and len(shape) == 2 and shape[0] == shape[1]:
            inputs[i] = _diagonals(shape, devices, numpy_dtype(element), i)
    return inputs


def _param(path: Path) -> Any:
    name = path.stem
    marks: list[pytest.MarkDecorator] = []
    if name in SKIP:
        marks.append(pytest.mark.skip(reason=SKIP[name]))
    if name in XFAIL:
        marks.append(pytest.mark.xfail(strict=True, reason=XFAIL[name]))
    return pytest.param(path, id=name, marks=marks)


def test_every_upstream_case_is_here() -> None:
    """65 files: 50 TEST_F cases plus InvalidLoop x2, UserPreventsCodeMotion x5 and
    ChecksCarryPredicateReplication x8."""
    assert len(FILES) == 65
    assert set(SKIP) | set(XFAIL) <= {p.stem for p in FILES}


@pytest.mark.parametrize("path", [_param(p) for p in FILES])
def test_rewrite_is_equivalent(path: Path) -> None:
    text = _shrunk(path.read_text())
    before = import_hlo(text, path.name)
    before.verify()
    after = before.clone()
    _pass(path).apply(neuron_context(), after)
    after.verify()
    rtol, atol = F16_TOLERANCE if "f16[" in text else F32_TOLERANCE
    assert_equivalent(before, after, _inputs(before, text), rtol=rtol, atol=atol)
