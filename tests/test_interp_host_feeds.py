"""infeed / outfeed in the interpreter and neuron-run (issue 17): the host queues of one run.

XLA:CPU of jax 0.10.2 has no host transfer API left in Python (`Device.transfer_to_infeed` is
gone), so the oracle is the program computed by hand with numpy: a loop that reads one infeed
entry per iteration, all-reduces it and writes the sum to the outfeed; every pass must keep
what the outfeeds write (compared by `assert_equivalent`).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from neuron_cc.interpreter.equivalence import EquivalenceError, assert_equivalent
from neuron_cc.interpreter.runner import run_module
from neuron_cc.interpreter.values import InterpretationError
from neuron_cc.testing.xla_oracle import apply_pass
from neuron_cc.translate.hlo_text.importer import import_hlo
from tests.conftest import run_tool

Array = np.ndarray[Any, Any]
DEVICES = 2
STEPS = 3

FEEDS = """HloModule feeds, replica_count=2

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

cond {
  s = (s32[], f32[2]{0}, token[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(3)
  ROOT lt = pred[] compare(i, n), direction=LT
}

body {
  s = (s32[], f32[2]{0}, token[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  acc = f32[2]{0} get-tuple-element(s), index=1
  tok = token[] get-tuple-element(s), index=2
  in = ((f32[2]{0}, s32[]), token[]) infeed(tok)
  data = (f32[2]{0}, s32[]) get-tuple-element(in), index=0
  x = f32[2]{0} get-tuple-element(data), index=0
  k = s32[] get-tuple-element(data), index=1
  kf = f32[] convert(k)
  kb = f32[2]{0} broadcast(kf), dimensions={}
  y = f32[2]{0} multiply(x, kb)
  sum = f32[2]{0} all-reduce(y), replica_groups={}, to_apply=add
  t1 = token[] get-tuple-element(in), index=1
  t2 = token[] outfeed(sum, t1), outfeed_shape=f32[2]{0}
  one = s32[] constant(1)
  n = s32[] add(i, one)
  a2 = f32[2]{0} add(acc, sum)
  ROOT r = (s32[], f32[2]{0}, token[]) tuple(n, a2, t2)
}

ENTRY main {
  p = f32[2]{0} parameter(0)
  zero = s32[] constant(0)
  tok = token[] after-all()
  init = (s32[], f32[2]{0}, token[]) tuple(zero, p, tok)
  w = (s32[], f32[2]{0}, token[]) while(init), condition=cond, body=body
  acc = f32[2]{0} get-tuple-element(w), index=1
  t = token[] get-tuple-element(w), index=2
  last = token[] outfeed(acc, t), outfeed_shape=f32[2]{0}
  ROOT r = f32[2]{0} copy(acc)
}
"""


def _feed(seed: int = 0) -> list[list[Array]]:
    rng = np.random.default_rng(seed)
    return [
        [
            rng.integers(-4, 5, (DEVICES, 2)).astype(np.float32),
            rng.integers(-3, 4, (DEVICES,)).astype(np.int32),
        ]
        for _ in range(STEPS)
    ]


def _expected(p: Array, feed: list[list[Array]]) -> tuple[Array, list[Array]]:
    """Per step: the all-reduced x * k; the accumulator starts at p (integers: exact)."""
    acc = p.astype(np.float64)
    written: list[Array] = []
    for x, k in feed:
        total = (x.astype(np.float64) * k[:, None]).sum(axis=0)
        written.append(np.broadcast_to(total, (DEVICES, 2)))
        acc = acc + total
    written.append(acc)
    return acc, written


def test_each_infeed_takes_the_next_entry_and_outfeeds_write_in_program_order() -> None:
    module = import_hlo(FEEDS, "feeds")
    p = np.array([[1, 2], [3, 4]], np.float32)
    feed = _feed()
    result = run_module(module, [p], infeed=feed)
    acc, written = _expected(p, feed)
    np.testing.assert_array_equal(np.asarray(result.outputs[0]), acc)
    assert [len(entry) for entry in result.state.outfeed] == [1] * (STEPS + 1)
    for got, want in zip(result.state.outfeed, written, strict=True):
        np.testing.assert_array_equal(got[0], want)
    assert result.state.infeed_taken == STEPS


def test_the_default_pipeline_keeps_what_the_outfeeds_write() -> None:
    module = import_hlo(FEEDS, "feeds")
    after, refusal = apply_pass(("neuron-default-pipeline", {}), module)
    assert after is not None, refusal
    p = np.array([[1, 2], [3, 4]], np.float32)
    first, _ = assert_equivalent(module, after, [p], infeed=_feed())
    assert len(first.state.outfeed) == STEPS + 1


def test_equivalence_compares_the_outfeed() -> None:
    module = import_hlo(FEEDS, "feeds")
    changed = import_hlo(FEEDS.replace("outfeed(acc, t)", "outfeed(p, t)"), "changed")
    p = np.array([[1, 2], [3, 4]], np.float32)
    with pytest.raises(EquivalenceError, match="outfeed array 3 differs on device 0"):
        assert_equivalent(module, changed, [p], infeed=_feed())


def _refusal(feed: list[list[Array]]) -> InterpretationError:
    module = import_hlo(FEEDS, "feeds")
    with pytest.raises(InterpretationError) as e:
        run_module(module, [np.zeros((DEVICES, 2), np.float32)], infeed=feed)
    return e.value


def test_an_empty_queue_is_refused_at_the_infeed() -> None:
    error = _refusal(_feed()[:2])
    assert "the infeed queue is empty: this is infeed number 2 of the run" in str(error)
    assert error.op is not None
    assert error.op.name == "hlo.infeed"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda e: e[:1], "infeed entry 0 has 1 arrays, the infeed reads 2 tensors"),
        (
            lambda e: [e[0][:, :1], e[1]],
            r"infeed entry 0 array 0: expected shape \[2\], got \[1\]",
        ),
        (
            lambda e: [e[0].astype(np.float64) + 0.1, e[1]],
            "infeed entry 0 array 0: values of dtype float64 do not fit f32 exactly",
        ),
        (
            lambda e: [e[0], e[1][:1]],
            "infeed entry 0 array 1: expected a leading device axis of 2, got shape",
        ),
    ],
)
def test_an_entry_that_does_not_match_the_infeed_type_is_refused(change: Any, message: str) -> None:
    feed = _feed()
    feed[0] = change(feed[0])
    error = _refusal(feed)
    assert error.op is not None
    assert error.op.name == "hlo.infeed"
    assert re.search(message, str(error)), str(error)


def test_an_entry_nobody_reads_is_reported() -> None:
    error = _refusal([*_feed(), _feed(1)[0]])
    assert "1 infeed entry was fed but never read (the program ran 3 infeeds)" in str(error)


def test_neuron_run_reads_the_infeed_and_writes_the_outfeed(tmp_path: Path) -> None:
    program = tmp_path / "feeds.hlo"
    program.write_text(FEEDS)
    feed = _feed()
    arrays: dict[str, Array] = {"arg0": np.array([5, 6], np.float32)}
    for k, (x, kk) in enumerate(feed):
        arrays[f"infeed{k}_1"] = kk[0]  # the same k on every device
        for d in range(DEVICES):
            arrays[f"infeed{k}_0_dev{d}"] = x[d]
        feed[k][1] = np.broadcast_to(kk[0], (DEVICES,))
    np.savez(tmp_path / "in.npz", **arrays)  # pyright: ignore[reportArgumentType]
    np.savez(tmp_path / "feed.npz", **arrays)  # pyright: ignore[reportArgumentType]
    proc = run_tool(
        "neuron-run",
        program,
        "--inputs",
        tmp_path / "in.npz",
        "--infeed",
        tmp_path / "feed.npz",
        "--outfeed",
        tmp_path / "outfeed.npz",
    )
    assert proc.returncode == 0, proc.stderr
    _, written = _expected(np.broadcast_to(arrays["arg0"], (DEVICES, 2)), feed)
    with np.load(tmp_path / "outfeed.npz") as got:
        assert sorted(got.files) == sorted(
            f"outfeed{k}_0_dev{d}" for k in range(STEPS + 1) for d in range(DEVICES)
        )
        for k, want in enumerate(written):
            for d in range(DEVICES):
                np.testing.assert_array_equal(got[f"outfeed{k}_0_dev{d}"], want[d])


def test_neuron_run_with_a_short_infeed_entry_fails_at_the_infeed(tmp_path: Path) -> None:
    program = tmp_path / "feeds.hlo"
    program.write_text(FEEDS)
    np.savez(tmp_path / "feed.npz", infeed0_0=np.zeros(2, np.float32))
    out = tmp_path / "outfeed.npz"
    proc = run_tool(
        "neuron-run",
        program,
        "--random-inputs",
        "0",
        "--infeed",
        tmp_path / "feed.npz",
        "--outfeed",
        out,
    )
    assert proc.returncode == 1
    assert proc.stderr.startswith(f"error: {program}:21:3: infeed entry 0 has 1 arrays"), (
        proc.stderr
    )
    assert "Traceback" not in proc.stderr
    assert not out.exists()
