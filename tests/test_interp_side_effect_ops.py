"""ragged-all-to-all, add-dependency, domain, copy-start/-done, infeed/outfeed and the RNG ops
in the interpreter (issue 17).

- ragged-all-to-all: XLA:CPU refuses the opcode ("not supported by XLA:CPU ThunkEmitter",
  jax 0.10.2), so seeded random cases are compared with a numpy reference written from XLA's
  operation semantics (not with XLA), on 4 devices in two groups and in one group;
- add-dependency, domain: XLA:CPU's bits on one program (with jax); copy-start/-done (which
  XLA:CPU refuses) give the program's value without them;
- rng, rng-bit-generator, rng-get-and-update-state, and an infeed with nothing fed: a located
  refusal (infeed/outfeed themselves: tests/test_interp_host_feeds.py).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from neuron_cc.interpreter.runner import run_module
from neuron_cc.interpreter.values import InterpretationError
from neuron_cc.testing.xla_cases import xla_case
from neuron_cc.testing.xla_run import XLA_UNAVAILABLE, run_xla, xla_available
from neuron_cc.translate.hlo_text.importer import import_hlo

Array = np.ndarray[Any, Any]
DEVICES = 4

RAGGED = """HloModule ragged, replica_count=4

ENTRY main {{
  input = f32[{rows_in},3]{{1,0}} parameter(0)
  output = f32[{rows_out},3]{{1,0}} parameter(1)
  io = s32[{n}]{{0}} parameter(2)
  ss = s32[{n}]{{0}} parameter(3)
  oo = s32[{n}]{{0}} parameter(4)
  rs = s32[{n}]{{0}} parameter(5)
  ROOT r = f32[{rows_out},3]{{1,0}} ragged-all-to-all(input, output, io, ss, oo, rs), replica_groups={groups}
}}
"""


def _reference(groups: list[list[int]], ins: list[Array], updates: int = 1) -> Array:
    """XLA's semantics, one device, peer and update at a time (entry j*U+u: update u to j)."""
    inp, out = ins[:2]
    io, ss, oo = (a.reshape(DEVICES, -1) for a in ins[2:5])
    result = out.copy()
    for group in groups:
        for d in group:
            for j, peer in enumerate(group):
                for u in range(updates):
                    e = j * updates + u
                    n = ss[d, e]
                    result[peer, oo[d, e] : oo[d, e] + n] = inp[d, io[d, e] : io[d, e] + n]
    return result


def _ragged_case(
    rng: np.random.Generator, groups: list[list[int]], updates: int = 1
) -> list[Array]:
    """Each device splits its rows into consecutive chunks, one per peer and update; each
    receiver places its senders' chunks one after the other (recv_sizes: the sizes it gets)."""
    n = len(groups[0]) * updates
    rows_in, rows_out = 6, 8
    ss = np.zeros((DEVICES, n), np.int32)
    io = np.zeros_like(ss)
    for d in range(DEVICES):
        cuts = np.sort(rng.integers(0, rows_in // 2 + 1, n + 1))
        io[d] = cuts[:-1]
        ss[d] = np.diff(cuts)
    oo = np.zeros_like(ss)
    rs = np.zeros_like(ss)
    for group in groups:
        for j, peer in enumerate(group):
            at = 0
            for i, d in enumerate(group):
                for u in range(updates):
                    oo[d, j * updates + u] = at
                    rs[peer, i * updates + u] = ss[d, j * updates + u]
                    at += ss[d, j * updates + u]
    inp = rng.standard_normal((DEVICES, rows_in, 3)).astype(np.float32)
    out = rng.standard_normal((DEVICES, rows_out, 3)).astype(np.float32)
    return [inp, out, io, ss, oo, rs]


def _groups_text(groups: list[list[int]]) -> str:
    return "{" + ",".join("{" + ",".join(map(str, g)) + "}" for g in groups) + "}"


@pytest.mark.parametrize("groups", [[[0, 1], [2, 3]], [[0, 3], [1, 2]], [[0, 1, 2, 3]]])
@pytest.mark.parametrize("seed", range(4))
def test_ragged_all_to_all_matches_the_reference(groups: list[list[int]], seed: int) -> None:
    ins = _ragged_case(np.random.default_rng(seed), groups)
    text = RAGGED.format(rows_in=6, rows_out=8, n=len(groups[0]), groups=_groups_text(groups))
    (ours,) = run_module(import_hlo(text, "ragged"), ins).outputs
    expected = _reference(groups, ins)
    np.testing.assert_array_equal(np.asarray(ours), expected)
    assert not np.array_equal(expected, ins[1]), "the case must move some rows"


@pytest.mark.parametrize("rank2", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_ragged_all_to_all_with_several_updates_per_peer(rank2: bool, seed: int) -> None:
    """U = 2 updates per peer: N*U entries peer-major, as a vector or as an [N, U] array."""
    groups = [[0, 1], [2, 3]]
    ins = _ragged_case(np.random.default_rng(seed), groups, updates=2)
    shape = "2,2]{1,0" if rank2 else "4]{0"
    text = RAGGED.replace(
        "s32[{n}]{{0}}", "s32[" + shape.replace("{", "{{").replace("}", "}}") + "}}"
    )
    text = text.format(rows_in=6, rows_out=8, groups=_groups_text(groups))
    if rank2:
        ins[2:] = [a.reshape(DEVICES, 2, 2) for a in ins[2:]]
    (ours,) = run_module(import_hlo(text, "ragged"), ins).outputs
    expected = _reference(groups, ins, updates=2)
    np.testing.assert_array_equal(np.asarray(ours), expected)
    second = ins[3].reshape(DEVICES, 2, 2)[..., 1]
    assert (second > 0).any(), "the case must send rows as a second update"


def test_ragged_all_to_all_entries_not_a_multiple_of_the_group_are_refused() -> None:
    ins = _ragged_case(np.random.default_rng(0), [[0, 1, 2, 3]])
    ins[2:] = [a[:, :3] for a in ins[2:]]
    text = RAGGED.format(rows_in=6, rows_out=8, n=3, groups="{{0,1,2,3}}")
    with pytest.raises(
        InterpretationError, match="hold 3 entries, not a positive multiple of the group size 4"
    ) as e:
        run_module(import_hlo(text, "ragged"), ins)
    assert e.value.op is not None


def test_ragged_all_to_all_empty_groups_mean_all_devices() -> None:
    ins = _ragged_case(np.random.default_rng(7), [[0, 1, 2, 3]])
    text = RAGGED.format(rows_in=6, rows_out=8, n=4, groups="{}")
    (ours,) = run_module(import_hlo(text, "ragged"), ins).outputs
    np.testing.assert_array_equal(np.asarray(ours), _reference([[0, 1, 2, 3]], ins))


def test_ragged_all_to_all_out_of_range_is_a_located_error() -> None:
    ins = _ragged_case(np.random.default_rng(1), [[0, 1], [2, 3]])
    ins[4][2, 1] = 7  # device 2 writes past the end of device 3's output
    ins[3][2, 1] = 3
    text = RAGGED.format(rows_in=6, rows_out=8, n=2, groups="{{0,1},{2,3}}")
    with pytest.raises(InterpretationError, match=r"device 2 sends rows .* on device 3") as e:
        run_module(import_hlo(text, "ragged"), ins)
    assert e.value.op is not None
    assert e.value.op.name == "hlo.ragged_all_to_all"


IDENTITIES = """HloModule identities, replica_count=2

ENTRY main {
  p = f32[2,3]{1,0} parameter(0)
  neg = f32[2,3]{1,0} negate(p)
  tok = token[] after-all()
  dep = f32[2,3]{1,0} add-dependency(neg, tok)
  dom = f32[2,3]{1,0} domain(dep), domain={kind="sharding", entry={maximal device=0}, exit={maximal device=1}}
  ROOT e = f32[2,3]{1,0} multiply(dom, p)
}
"""
COPIES = IDENTITIES.replace(
    "  ROOT e = f32[2,3]{1,0} multiply(dom, p)",
    "  cs = (f32[2,3]{1,0}, f32[2,3]{1,0}, u32[]) copy-start(dom)\n"
    "  cd = f32[2,3]{1,0} copy-done(cs)\n"
    "  ROOT e = f32[2,3]{1,0} multiply(cd, p)",
)
"""With copy-start/-done, which XLA:CPU refuses ("not supported by XLA:CPU ThunkEmitter")."""


def test_copy_start_and_done_are_an_identity() -> None:
    ins = [np.random.default_rng(5).standard_normal((2, 2, 3)).astype(np.float32)]
    with_copies = run_module(import_hlo(COPIES, "copies"), ins).outputs
    without = run_module(import_hlo(IDENTITIES, "identities"), ins).outputs
    np.testing.assert_array_equal(np.asarray(with_copies[0]), -ins[0] * ins[0])
    np.testing.assert_array_equal(np.asarray(with_copies[0]), np.asarray(without[0]))


def test_add_dependency_and_domain_match_xla_bit_for_bit() -> None:
    module = import_hlo(IDENTITIES, "identities")
    ins = [np.random.default_rng(5).standard_normal((2, 2, 3)).astype(np.float32)]
    ours = run_module(module, ins).outputs
    if not xla_available():
        pytest.skip(XLA_UNAVAILABLE)
    (result,) = run_xla([xla_case(module, ins, "identities")])
    assert result.ok, (result.status, result.message)
    np.testing.assert_array_equal(np.asarray(ours[0]), result.outputs[0])


REFUSED = {
    "infeed": (
        "ROOT i = (f32[2]{0}, token[]) infeed(tok)",
        "hlo.infeed",
        "the infeed queue is empty",
    ),
    "rng": (
        "ROOT r = f32[4]{0} rng(a, b), distribution=rng_uniform",
        "hlo.rng",
        "not reproducible",
    ),
    "rng-bit-generator": (
        "ROOT g = (u64[2]{0}, u32[3]{0}) rng-bit-generator(s), algorithm=rng_philox",
        "hlo.rng_bit_generator",
        "not reproducible",
    ),
    "rng-get-and-update-state": (
        "ROOT s2 = u64[2]{0} rng-get-and-update-state(), delta=8",
        "hlo.rng_get_and_update_state",
        "not reproducible",
    ),
}


@pytest.mark.parametrize("opcode", sorted(REFUSED))
def test_an_empty_infeed_and_rng_ops_are_refused_with_a_located_error(opcode: str) -> None:
    root, name, message = REFUSED[opcode]
    text = (
        "HloModule refused\n\nENTRY main {\n  p = f32[2]{0} parameter(0)\n"
        "  s = u64[2]{0} parameter(1)\n  tok = token[] after-all()\n"
        "  a = f32[] constant(0)\n  b = f32[] constant(1)\n"
        f"  {root}\n}}\n"
    )
    module = import_hlo(text, opcode)
    ins = [np.zeros((1, 2), np.float32), np.zeros((1, 2), np.uint64)]
    with pytest.raises(InterpretationError, match=message) as e:
        run_module(module, ins)
    assert e.value.op is not None
    assert e.value.op.name == name
