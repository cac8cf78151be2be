"""neuron-move-reduce-scatter-while-loop preserves semantics and cuts collective launches.

Every case of the lit test (tests/filecheck/transforms/<pass>.mlir) is run before and after the
pass on 8 simulated partitions with random inputs; the real corpus loops are run on their
recorded inputs and compared with XLA's outputs.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from neuron_cc.dialects.hlo.collectives import AllReduceOp, ReduceScatterOp
from neuron_cc.dialects.hlo.control_flow import WhileOp
from neuron_cc.dialects.replica_groups import device_counts
from neuron_cc.interpreter.runner import entry_function, inputs_from_npz, run_module
from neuron_cc.testing import assert_equivalent, random_inputs
from neuron_cc.testing.ir import ops_in_loops
from neuron_cc.testing.ir import parse_module as _parse
from neuron_cc.transforms import get_all_passes
from neuron_cc.transforms.move_reduce_scatter_while_loop import MoveReduceScatterWhileLoopPass
from neuron_cc.translate.hlo_text.importer import import_hlo

ROOT = Path(__file__).resolve().parent
LIT = ROOT / "filecheck" / "transforms" / "neuron-move-reduce-scatter-while-loop.mlir"
CORPUS = ROOT / "corpus" / "jax"
NAME = "neuron-move-reduce-scatter-while-loop"

CASES = LIT.read_text().split("\n// -----\n")
NAMES = [re.search(r"func\.func @(\w+)", c).group(1) for c in CASES]  # pyright: ignore[reportOptionalMemberAccess]
MOVED = {
    "rs_reshape": 1,
    "ar_direct": 1,
    "ar_reshape_bf16": 1,
    "rs_direct_le": 1,
    "rs_direct_dim0": 1,
    "scalar_rows": 2,
    "jax_scan": 1,
    "countdown_remainder": 1,
    "nested": 1,
    "mixed": 2,
}
"""Cases where collectives leave the loop: how many (the rest must be unchanged)."""


def _in_loops(module: ModuleOp) -> list[Operation]:
    """Collectives with an enclosing while loop."""
    return ops_in_loops(module, (AllReduceOp, ReduceScatterOp))


def _launches(stats: dict[str, Any]) -> int:
    return sum(record.launches for record in stats.values())


def _sink(module: ModuleOp, remarks: bool = False) -> ModuleOp:
    after = module.clone()
    MoveReduceScatterWhileLoopPass(remarks=remarks).apply(Context(), after)
    after.verify()
    return after


def test_pass_is_registered() -> None:
    assert get_all_passes()[NAME]() is MoveReduceScatterWhileLoopPass
    assert MoveReduceScatterWhileLoopPass.name == NAME


def _inputs(module: ModuleOp, name: str, seed: int = 0, bound: int = 3) -> list[Any]:
    """Random inputs; a loop bound argument is the same on every device (no divergence)."""
    inputs = random_inputs(module, seed)
    if name == "unknown_trip_count":
        inputs[1] = np.full_like(inputs[1], bound)
    return inputs


@pytest.mark.parametrize("case", CASES, ids=NAMES)
def test_lit_case_is_equivalent(case: str) -> None:
    before = _parse(case)
    assert device_counts(before) == (1, 8)
    after = _sink(before)
    name = re.search(r"func\.func @(\w+)", case).group(1)  # pyright: ignore[reportOptionalMemberAccess]
    first, second = assert_equivalent(before, after, inputs=_inputs(before, name))
    moved = MOVED.get(name, 0)
    assert len(_in_loops(after)) == len(_in_loops(before)) - moved
    if moved:
        assert _launches(second.state.stats) < _launches(first.state.stats)
    else:
        assert str(after) == str(before)


def test_remarks_cover_every_collective_in_a_loop(capsys: pytest.CaptureFixture[str]) -> None:
    module = _parse(CASES[NAMES.index("mixed")])
    _sink(module, remarks=True)
    lines = capsys.readouterr().err.splitlines()
    assert lines == [
        f"remark: {NAME}: %rs (hlo.reduce_scatter): moved",
        f"remark: {NAME}: %ar (hlo.all_reduce): moved",
        f"remark: {NAME}: %total (hlo.all_reduce): result is not written into a loop-carried "
        "buffer by dynamic-update-slice",
    ]


def test_remarks_are_off_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    _sink(_parse(CASES[0]))
    assert capsys.readouterr().err == ""


def test_unknown_trip_count_with_other_bounds() -> None:
    before = _parse(CASES[NAMES.index("unknown_trip_count")])
    after = _sink(before)
    for bound in (0, 1, 4, 6):
        inputs = _inputs(before, "unknown_trip_count", seed=bound, bound=bound)
        assert_equivalent(before, after, inputs=inputs)


# ---------------------------------------------------------------------------
# the corpus
# ---------------------------------------------------------------------------


def _corpus(case: str) -> tuple[ModuleOp, list[Any], dict[str, Any]]:
    path = CORPUS / case / "spmd.hlo"
    module = import_hlo(path.read_text(), str(path))
    module.verify()
    with np.load(path.parent / "inputs.npz") as data:
        arrays = {k: data[k] for k in data.files}
    r, p = device_counts(module)
    return module, inputs_from_npz(entry_function(module), arrays, r * p), arrays


def test_corpus_reduce_scatter_is_sunk() -> None:
    before, inputs, oracle = _corpus("reduce_scatter_dus_sink")
    after = _sink(before)
    assert [op.name for op in _in_loops(before)] == ["hlo.reduce_scatter"]
    assert _in_loops(after) == []
    (scatter,) = [op for op in after.walk() if isinstance(op, ReduceScatterOp)]
    (loop,) = [op for op in after.walk() if isinstance(op, WhileOp)]
    assert scatter.parent_block() is loop.parent_block()
    assert scatter.scatter_dimension.value.data == 1
    assert scatter.channel_id is not None
    assert scatter.channel_id.value.data == 2
    result = run_module(after, inputs)
    assert result.state.stats["reduce-scatter"].launches == 1
    assert run_module(before, inputs).state.stats["reduce-scatter"].launches == 4
    for j, value in enumerate(result.outputs):
        for d in range(value.shape[0]):
            np.testing.assert_allclose(
                value[d], oracle[f"out{j}_dev{d}"], rtol=1e-5, atol=1e-6, err_msg=f"out{j}_dev{d}"
            )


LOOP_CASES = sorted(p.parent.name for p in CORPUS.glob("*/spmd.hlo") if " while(" in p.read_text())


@pytest.mark.parametrize("case", LOOP_CASES)
def test_corpus_loops_stay_equivalent(case: str) -> None:
    """Only reduce_scatter_dus_sink's collective is sinkable; every program keeps its outputs."""
    before, inputs, _ = _corpus(case)
    after = _sink(before)
    moved = len(_in_loops(before)) - len(_in_loops(after))
    assert moved == (1 if case == "reduce_scatter_dus_sink" else 0)
    assert_equivalent(before, after, inputs=inputs)
