"""all-reduce-combiner, all-gather-combiner, reduce-scatter-combiner (issue 18).

- every module case of XLA's three combiner tests (tests/xla_conformance/*_combiner_test, also
  ported as lit tests under tests/filecheck/transforms/upstream-combiners/) runs before and
  after its pass on the interpreter: the outputs are equal on every device, bit for bit;
- the plan's rules on small programs: dependent collectives are not combined, the ops that
  depended on an earlier member move after the combined op, side effects keep their order,
  thresholds (bytes, count: operands), options (dtypes, dimensions, while bodies);
- a second run changes nothing (idempotent), two runs give the same text (deterministic).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from neuron_cc.interpreter.equivalence import assert_equivalent
from neuron_cc.testing.xla_oracle import apply_pass
from neuron_cc.tools.driver import read_hlo, tool_context
from neuron_cc.translate.hlo_text.exporter import export_hlo
from neuron_cc.translate.hlo_text.importer import import_hlo

CONFORMANCE = Path(__file__).resolve().parent / "xla_conformance"
SUITES = {
    "all_reduce_combiner_test": ("all-reduce-combiner", "hlo.all_reduce"),
    "all_gather_combiner_test": ("all-gather-combiner", "hlo.all_gather"),
    "reduce_scatter_combiner_test": ("reduce-scatter-combiner", "hlo.reduce_scatter"),
}
_OPTION = {
    "combine_threshold_in_bytes": "threshold_bytes",
    "combine_threshold_count": "threshold_count",
    "combine_by_dim": "combine_by_dim",
    "combine_different_dtypes": "combine_different_dtypes",
}


def _upstream_cases() -> list[tuple[str, dict[str, Any]]]:
    found: list[tuple[str, dict[str, Any]]] = []
    for suite in SUITES:
        manifest = json.loads((CONFORMANCE / suite / "MANIFEST.json").read_text())
        found += [(suite, case) for case in manifest["cases"]]
    return found


CASES = _upstream_cases()


def _options(suite: str, pass_options: dict[str, Any]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for key, value in pass_options.items():
        if key == "combine_while_loops":
            options["skip_while_bodies"] = not value
        elif not (key == "combine_by_dim" and suite == "all_reduce_combiner_test"):
            options[_OPTION[key]] = value
    return options


def _verified(text: str, name: str, replicas: int) -> ModuleOp:
    """The module with the replica count its shapes need (as the lit ports pass it)."""
    error: Exception | None = None
    for count in dict.fromkeys((replicas or 1, 1, 2, 4, 8, 16)):
        try:
            module, _ = read_hlo(tool_context(), text, name, num_replicas=count)
            module.verify()
        except Exception as e:  # the next count
            error = e
            continue
        return module
    raise AssertionError(f"{name}: no replica count verifies: {error}")


def _count(module: ModuleOp, name: str) -> int:
    return sum(1 for op in module.walk() if op.name == name)


@pytest.mark.parametrize(("suite", "case"), CASES, ids=[f"{s}.{c['name']}" for s, c in CASES])
def test_upstream_case_keeps_the_outputs(suite: str, case: dict[str, Any]) -> None:
    pass_name, op_name = SUITES[suite]
    text = (CONFORMANCE / suite / case["file"]).read_text()
    module = _verified(text, case["file"], case["replica_count"])
    after, refusal = apply_pass((pass_name, _options(suite, case["pass_options"])), module)
    assert after is not None, refusal
    after.verify()
    expect = case["expect"]
    changed = _count(after, op_name) != _count(module, op_name)
    assert changed == expect.get("changed", changed)
    if not changed:
        return
    assert_equivalent(module, after, rtol=0.0, atol=0.0)
    again, _ = apply_pass((pass_name, _options(suite, case["pass_options"])), after)
    assert again is not None
    assert export_hlo(again) == export_hlo(after), "a second run changed the module"


ADD = """add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
"""


def _module(body: str, params: str = "", replicas: int = 4) -> ModuleOp:
    text = f"HloModule m, replica_count={replicas}\n\n{ADD}\nENTRY main {{\n{params}{body}}}\n"
    module = import_hlo(text, "m")
    module.verify()
    return module


def _run(module: ModuleOp, name: str = "all-reduce-combiner", **options: Any) -> ModuleOp:
    after, refusal = apply_pass((name, options), module)
    assert after is not None, refusal
    after.verify()
    assert_equivalent(module, after, rtol=0.0, atol=0.0)
    return after


PARAMS = "".join(f"  p{i} = f32[{i + 2}] parameter({i})\n" for i in range(6))


def _ars(n: int) -> str:
    return "".join(
        f"  ar{i} = f32[{i + 2}] all-reduce(p{i}), replica_groups={{}}, to_apply=add\n"
        for i in range(n)
    )


def _root(names: list[str]) -> str:
    shapes = ", ".join(f"f32[{i + 2}]" for i in range(len(names)))
    return f"  ROOT t = ({shapes}) tuple({', '.join(names)})\n"


def test_independent_all_reduces_become_one_with_operands_in_order() -> None:
    after = _run(_module(_ars(5) + _root([f"ar{i}" for i in range(5)]), PARAMS))
    text = str(after)
    assert _count(after, "hlo.all_reduce") == 1
    assert "hlo.all_reduce(%p0, %p1, %p2, %p3, %p4)" in text
    assert text.count("hlo.get_tuple_element") == 5


def test_threshold_count_counts_operands_and_threshold_bytes_stops_a_group() -> None:
    module = _module(_ars(5) + _root([f"ar{i}" for i in range(5)]), PARAMS)
    assert _count(_run(module, threshold_count=2), "hlo.all_reduce") == 3
    # sizes 8, 12, 16, 20, 24 bytes: 8 + 12 + 16 = 36 <= 40, then 20 + 24 > 40
    assert _count(_run(module, threshold_bytes=40), "hlo.all_reduce") == 3
    # a member over the threshold alone is never combined; the others still are
    # 8 + 12 <= 21; 16 and 20 each alone (16 + 20 > 21); 24 over the threshold alone
    assert _count(_run(module, threshold_bytes=21), "hlo.all_reduce") == 4
    twice = _run(_run(module, threshold_count=2), threshold_count=2)
    assert _count(twice, "hlo.all_reduce") == 3, "a second run must change nothing"


def test_a_member_with_more_operands_than_the_count_stays_alone() -> None:
    # a variadic all-reduce of 3 operands cannot join any group of at most 2 operands; the
    # planner used to retry it forever (found by tests/test_properties.py)
    body = (
        "  v = (f32[2], f32[3], f32[4]) all-reduce(p0, p1, p2), replica_groups={}, to_apply=add\n"
        + "".join(
            f"  ar{i} = f32[{i + 2}] all-reduce(p{i}), replica_groups={{}}, to_apply=add\n"
            for i in (3, 4)
        )
        + "  ROOT t = ((f32[2], f32[3], f32[4]), f32[5], f32[6]) tuple(v, ar3, ar4)\n"
    )
    after = _run(_module(body, PARAMS), threshold_count=2)
    assert _count(after, "hlo.all_reduce") == 2
    assert "hlo.all_reduce(%p3, %p4)" in str(after)


def test_ops_that_read_an_earlier_member_move_after_the_combined_op() -> None:
    body = (
        "  ar0 = f32[2] all-reduce(p0), replica_groups={}, to_apply=add\n"
        "  n = f32[2] negate(ar0)\n"
        "  m = f32[2] multiply(n, n)\n"
        "  x = f32[3] negate(p1)\n"
        "  ar1 = f32[3] all-reduce(x), replica_groups={}, to_apply=add\n"
        "  ROOT t = (f32[2], f32[3]) tuple(m, ar1)\n"
    )
    after = _run(_module(body, PARAMS))
    names = [op.results[0].name_hint for op in after.walk() if op.results]
    assert _count(after, "hlo.all_reduce") == 1
    combined = next(i for i, op in enumerate(after.walk()) if op.name == "hlo.all_reduce")
    assert names.index("n") > combined
    assert names.index("m") > names.index("n")
    assert names.index("x") < combined


def test_dependent_all_reduces_are_not_combined_through_any_path() -> None:
    body = (
        "  ar0 = f32[2] all-reduce(p0), replica_groups={}, to_apply=add\n"
        "  n = f32[2] negate(ar0)\n"
        "  w = (s32[], f32[2]) tuple(s32[] constant(0), n)\n"
        "  g = f32[2] get-tuple-element(w), index=1\n"
        "  ar1 = f32[2] all-reduce(g), replica_groups={}, to_apply=add\n"
        "  ROOT t = (f32[2], f32[2]) tuple(ar0, ar1)\n"
    )
    assert _count(_run(_module(body, PARAMS)), "hlo.all_reduce") == 2


def test_members_without_a_reachability_bit_are_searched_from(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With bits for only two candidates (the cap lowered), ar2 and ar3 join the first round
    without one: ar4 reads ar3, which no mask shows, so the round must search and skip it."""
    from neuron_cc.analysis import combine_plan

    monkeypatch.setattr(combine_plan, "MAX_MASKED", 2)
    body = _ars(4) + (
        "  n = f32[5] negate(ar3)\n"
        "  ar4 = f32[5] all-reduce(n), replica_groups={}, to_apply=add\n"
        "  ROOT t = (f32[2], f32[3], f32[4], f32[5], f32[5]) tuple(ar0, ar1, ar2, ar3, ar4)\n"
    )
    after = _run(_module(body, PARAMS))
    assert _count(after, "hlo.all_reduce") == 2
    assert "hlo.all_reduce(%p0, %p1, %p2, %p3)" in str(after)


def test_side_effects_keep_their_order() -> None:
    """ar0 feeds a side-effecting custom call that runs before another one feeding ar1:
    combining would move the first call after the second."""
    body = (
        "  ar0 = f32[2] all-reduce(p0), replica_groups={}, to_apply=add\n"
        '  c0 = f32[2] custom-call(ar0), custom_call_target="log", custom_call_has_side_effect=true\n'
        '  c1 = f32[3] custom-call(p1), custom_call_target="log", custom_call_has_side_effect=true\n'
        "  ar1 = f32[3] all-reduce(c1), replica_groups={}, to_apply=add\n"
        "  ROOT t = (f32[2], f32[3]) tuple(c0, ar1)\n"
    )
    module = _module(body, PARAMS)
    after, _ = apply_pass(("all-reduce-combiner", {}), module)
    assert after is not None
    assert _count(after, "hlo.all_reduce") == 2


def test_keys_groups_reducers_dtypes_and_channels() -> None:
    body = (
        "  ar0 = f32[2] all-reduce(p0), replica_groups={{0,1},{2,3}}, to_apply=add\n"
        "  ar1 = f32[3] all-reduce(p1), replica_groups={{0,2},{1,3}}, to_apply=add\n"
        "  ar2 = f32[4] all-reduce(p2), replica_groups={{0,1},{2,3}}, to_apply=add, channel_id=7\n"
        "  ar3 = f32[5] all-reduce(p3), replica_groups={{0,1},{2,3}}, to_apply=add, channel_id=9\n"
        "  ROOT t = (f32[2], f32[3], f32[4], f32[5]) tuple(ar0, ar1, ar2, ar3)\n"
    )
    after = _run(_module(body, PARAMS))
    text = str(after)
    assert _count(after, "hlo.all_reduce") == 3  # ar2 + ar3: same groups and mode
    assert "channel_id = 7" in text
    assert "channel_id = 9" not in text


def test_combine_different_dtypes_false_keeps_dtypes_apart() -> None:
    params = "  p0 = f32[2] parameter(0)\n  p1 = s32[2] parameter(1)\n"
    body = (
        (
            "  a = f32[2] all-gather(p0), replica_groups={}, dimensions={0}\n"
            "  b = s32[2] all-gather(p1), replica_groups={}, dimensions={0}\n"
            "  ROOT t = (f32[8], s32[8]) tuple(a, b)\n"
        )
        .replace("f32[2] all-gather", "f32[8] all-gather")
        .replace("s32[2] all-gather", "s32[8] all-gather")
    )
    module = _module(body, params)
    assert _count(_run(module, "all-gather-combiner"), "hlo.all_gather") == 1
    kept = _run(module, "all-gather-combiner", combine_different_dtypes=False)
    assert _count(kept, "hlo.all_gather") == 2


def test_gathers_along_different_dimensions_combine_with_transposes() -> None:
    params = (
        "  p0 = f32[2,3] parameter(0)\n  p1 = f32[2,3] parameter(1)\n  p2 = f32[2,3] parameter(2)\n"
    )
    body = (
        "  a = f32[8,3] all-gather(p0), replica_groups={}, dimensions={0}\n"
        "  b = f32[2,12] all-gather(p1), replica_groups={}, dimensions={1}\n"
        "  c = f32[2,12] all-gather(p2), replica_groups={}, dimensions={1}\n"
        "  ROOT t = (f32[8,3], f32[2,12], f32[2,12]) tuple(a, b, c)\n"
    )
    module = _module(body, params)
    assert _count(_run(module, "all-gather-combiner"), "hlo.all_gather") == 2
    after = _run(module, "all-gather-combiner", combine_by_dim=False)
    assert _count(after, "hlo.all_gather") == 1
    assert "dim = 1" in str(after)
    assert _count(after, "hlo.transpose") == 2


def test_skip_while_bodies_leaves_loop_bodies_alone() -> None:
    text = f"""HloModule m, replica_count=2

{ADD}
cond {{
  s = (s32[], f32[4], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  ROOT lt = pred[] compare(i, s32[] constant(3)), direction=LT
}}

body {{
  s = (s32[], f32[4], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  x = f32[4] get-tuple-element(s), index=1
  y = f32[4] get-tuple-element(s), index=2
  ax = f32[4] all-reduce(x), replica_groups={{}}, to_apply=add
  ay = f32[4] all-reduce(y), replica_groups={{}}, to_apply=add
  n = s32[] add(i, s32[] constant(1))
  ROOT r = (s32[], f32[4], f32[4]) tuple(n, ax, ay)
}}

ENTRY main {{
  p = f32[4] parameter(0)
  init = (s32[], f32[4], f32[4]) tuple(s32[] constant(0), p, p)
  ROOT w = (s32[], f32[4], f32[4]) while(init), condition=cond, body=body
}}
"""
    module = import_hlo(text, "loop")
    assert _count(_run(module), "hlo.all_reduce") == 1
    assert _count(_run(module, skip_while_bodies=True), "hlo.all_reduce") == 2


def test_a_variadic_member_contributes_all_its_operands() -> None:
    body = (
        "  v = (f32[2], f32[3]) all-reduce(p0, p1), replica_groups={}, to_apply=add\n"
        "  ar2 = f32[4] all-reduce(p2), replica_groups={}, to_apply=add\n"
        "  ROOT t = ((f32[2], f32[3]), f32[4]) tuple(v, ar2)\n"
    )
    after = _run(_module(body, PARAMS))
    assert "hlo.all_reduce(%p0, %p1, %p2)" in str(after)


def test_a_chain_of_dependent_all_reduces_stays_as_it_is() -> None:
    lines = ["  c0 = f32[2] all-reduce(p0), replica_groups={}, to_apply=add\n"]
    for i in range(1, 80):
        lines.append(f"  n{i} = f32[2] negate(c{i - 1})\n")
        lines.append(f"  c{i} = f32[2] all-reduce(n{i}), replica_groups={{}}, to_apply=add\n")
    lines.append("  ROOT t = (f32[2], f32[2]) tuple(c79, c0)\n")
    module = _module("".join(lines), PARAMS)
    assert _count(_run(module), "hlo.all_reduce") == 80


def test_runs_are_deterministic() -> None:
    module = _module(_ars(5) + _root([f"ar{i}" for i in range(5)]), PARAMS)
    first = export_hlo(_run(module, threshold_count=3))
    assert first == export_hlo(_run(module, threshold_count=3))
    assert first.count(" all-reduce(") == 2


@pytest.mark.parametrize(
    ("name", "body"),
    [
        (
            "all-gather-combiner",
            "  a = f32[8,3] all-gather(p0), replica_groups={}, dimensions={0}\n"
            "  b = f32[8,3] all-gather(p1), replica_groups={}, dimensions={0}\n"
            "  c = f32[8,3] all-gather(p2), replica_groups={}, dimensions={0}\n"
            "  ROOT t = (f32[8,3], f32[8,3], f32[8,3]) tuple(a, b, c)\n",
        ),
        (
            "reduce-scatter-combiner",
            "  a = f32[1,3] reduce-scatter(p0), replica_groups={}, dimensions={0}, to_apply=add\n"
            "  b = f32[2,1] reduce-scatter(p1), replica_groups={}, dimensions={1}, to_apply=add\n"
            "  c = f32[1,3] reduce-scatter(p2), replica_groups={}, dimensions={0}, to_apply=add\n"
            "  ROOT t = (f32[1,3], f32[2,1], f32[1,3]) tuple(a, b, c)\n",
        ),
    ],
)
def test_a_combined_collective_lowers_to_one_bir_node_with_an_access_pattern_per_buffer(
    name: str, body: str
) -> None:
    params = "".join(
        f"  p{i} = f32[{'4,3' if 'scatter' in name else '2,3'}] parameter({i})\n" for i in range(3)
    )
    if "scatter" in name:
        params = params.replace("p1 = f32[4,3]", "p1 = f32[2,4]")
    module = _module(body, params)
    combined = _run(module, name, combine_by_dim=False)
    lowered, refusal = apply_pass(("convert-hlo-to-bir", {}), combined)
    assert lowered is not None, refusal
    nodes = [op for op in lowered.walk() if op.name == "bir.collective_compute"]
    assert len(nodes) == 1
    assert len(nodes[0].properties["input_aps"].data) == 3  # pyright: ignore[reportAttributeAccessIssue]
    assert len(nodes[0].properties["output_aps"].data) == 3  # pyright: ignore[reportAttributeAccessIssue]
    assert_equivalent(module, lowered, rtol=0.0, atol=0.0)


def _training_loop(k: int, m: int, trips: int) -> str:
    """K movable sum all-reduces (acc_i += psum(x_i)) and M max all-reduces the next
    iteration reads (s_j = s_j * 0.5 + pmax(s_j): not movable) in a loop of `trips`."""
    slots = ["s32[]"] + ["f32[4]"] * (2 * k + m)
    shape = "(" + ", ".join(slots) + ")"
    body = ["  p = " + shape + " parameter(0)", "  i = s32[] get-tuple-element(p), index=0"]
    out = ["n"]
    for a in range(k):
        body += [
            f"  x{a} = f32[4] get-tuple-element(p), index={1 + a}",
            f"  acc{a} = f32[4] get-tuple-element(p), index={1 + k + a}",
            f"  g{a} = f32[4] all-reduce(x{a}), replica_groups={{}}, to_apply=add",
            f"  nacc{a} = f32[4] add(acc{a}, g{a})",
        ]
    for b in range(m):
        body += [
            f"  s{b} = f32[4] get-tuple-element(p), index={1 + 2 * k + b}",
            f"  mx{b} = f32[4] all-reduce(s{b}), replica_groups={{}}, to_apply=max",
            f"  c{b} = f32[] constant(0.5)",
            f"  h{b} = f32[4] broadcast(c{b}), dimensions={{}}",
            f"  half{b} = f32[4] multiply(s{b}, h{b})",
            f"  ns{b} = f32[4] add(half{b}, mx{b})",
        ]
    body += ["  one = s32[] constant(1)", "  n = s32[] add(i, one)"]
    out += (
        [f"x{a}" for a in range(k)] + [f"nacc{a}" for a in range(k)] + [f"ns{b}" for b in range(m)]
    )
    body.append(f"  ROOT r = {shape} tuple({', '.join(out)})")
    init = ["zero"] + [f"px{a}" for a in range(k)] + ["z"] * k + [f"ps{b}" for b in range(m)]
    params = [f"  px{a} = f32[4] parameter({a})" for a in range(k)]
    params += [f"  ps{b} = f32[4] parameter({k + b})" for b in range(m)]
    return f"""HloModule loop, replica_count=4

{ADD}
max {{
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}}

cond {{
  p = {shape} parameter(0)
  i = s32[] get-tuple-element(p), index=0
  t = s32[] constant({trips})
  ROOT lt = pred[] compare(i, t), direction=LT
}}

body {{
{chr(10).join(body)}
}}

ENTRY main {{
{chr(10).join(params)}
  zero = s32[] constant(0)
  z = f32[4] broadcast(f32[] constant(0)), dimensions={{}}
  init = {shape} tuple({", ".join(init)})
  ROOT w = {shape} while(init), condition=cond, body=body
}}
"""


@pytest.mark.parametrize(("k", "m", "trips"), [(3, 2, 5), (30, 10, 4), (1, 1, 7)])
def test_the_default_pipeline_leaves_one_launch_per_iteration_plus_one(
    k: int, m: int, trips: int
) -> None:
    """Issue 18: K*T + M*T all-reduce launches as written; the pipeline leaves T + 1 (the K
    sums leave the loop and combine into one, the M maxima combine into one per iteration)."""
    from neuron_cc.interpreter.equivalence import random_inputs
    from neuron_cc.interpreter.runner import run_module

    module = import_hlo(_training_loop(k, m, trips), "loop")
    module.verify()
    after, refusal = apply_pass(("neuron-default-pipeline", {}), module)
    assert after is not None, refusal
    inputs = random_inputs(module, 0)
    before_run = run_module(module, inputs)
    after_run = run_module(after, inputs)
    assert before_run.state.stats["all-reduce"].launches == (k + m) * trips
    assert after_run.state.stats["all-reduce"].launches == trips + 1
    for a, b in zip(before_run.outputs, after_run.outputs, strict=True):
        np.testing.assert_allclose(np.asarray(b), np.asarray(a), rtol=1e-5, atol=1e-5)


def _sized(sizes: list[int]) -> ModuleOp:
    params = "".join(f"  p{i} = f32[{n}] parameter({i})\n" for i, n in enumerate(sizes))
    body = "".join(
        f"  ar{i} = f32[{n}] all-reduce(p{i}), replica_groups={{}}, to_apply=add\n"
        for i, n in enumerate(sizes)
    )
    shapes = ", ".join(f"f32[{n}]" for n in sizes)
    refs = ", ".join(f"ar{i}" for i in range(len(sizes)))
    return _module(body + f"  ROOT t = ({shapes}) tuple({refs})\n", params)


@pytest.mark.parametrize(
    ("sizes", "left"),
    [
        ([100, 100, 100], 1),  # 400 B each: 800 <= 1 x 1000, 1200 <= 2 x 1000
        ([200, 200], 2),  # 800 B each: 1600 > 1 x 1000
        # 200 + 1200 > 1000: ar0 stays alone; 1200 + 200 > 1000: ar1 too; ar2 + ar3 = 400
        ([50, 300, 50, 50], 3),
    ],
)
def test_threshold_bytes_auto_combines_while_the_wait_is_within_the_saved_latency(
    sizes: list[int], left: int
) -> None:
    """alpha 1 us at 1 GB/s: 1000 bytes of extra wait allowed per saved launch."""
    after = _run(_sized(sizes), threshold_bytes="auto", alpha_us=1.0, bandwidth_gbps=1.0)
    assert _count(after, "hlo.all_reduce") == left


def test_threshold_bytes_must_be_bytes_or_auto() -> None:
    after, refusal = apply_pass(("all-reduce-combiner", {"threshold_bytes": "big"}), _sized([2, 2]))
    assert after is None
    assert refusal == "threshold-bytes must be a number of bytes or 'auto', got 'big'"


def test_the_pipeline_passes_threshold_bytes_auto_through() -> None:
    module = import_hlo(_training_loop(3, 2, 5), "loop")
    after, refusal = apply_pass(("neuron-default-pipeline", {"threshold_bytes": "auto"}), module)
    assert after is not None, refusal
    assert _count(after, "hlo.all_reduce") == 2
