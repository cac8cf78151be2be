"""HLO programs grown along ONE dimension at a time (issue 20), for `tools/bench_dimensions.py`.

Every program is an SPMD step on 8 partitions whose collectives the default pipeline can move
(add-accumulations of all-reduces into zero-initialised loop slots), so the passes do real work
at every size. `generate(dimension, n)` returns the HLO text; the dimensions and the n of their
1x size (`BASE`; the benchmark also runs 10x):

- `width`: one while loop whose tuple carries n accumulators (each `acc += all-reduce(x*x)`,
  a movable accumulation) and the n values they read - a JAX scan over a pytree of n gradients;
- `loops`: n while loops one after another, each with two accumulators;
- `nesting`: n while loops nested in each other's bodies, one accumulator per level (a
  compiler input: run it would take 4^n iterations);
- `functions`: n computations `call`ed from the entry, each with a loop of two accumulators;
- `users`: one value (a loop-body parameter slot) read by n ops (n all-reduces of it, summed);
- `region`: one loop body of about n instructions (a chain of elementwise ops between
  accumulations);
- `gathers`: one loop carrying n shards, each all-gathered in the body (FSDP in a scan: the
  all-gather hoist);
- `scatters`: one loop of n accumulations of reduce-scatters (ZeRO gradients);
- `stacked`: one loop storing a reduce-scatter per iteration in row i of n buffers (the
  reduce-scatter sink);
- `flags`: one loop of n threshold flags (`flag |= pmax(x) > 0`);
- `conditional`: one loop whose body runs one conditional over n accumulators (`lax.cond`
  over a gradient pytree in a scan);
- `overwrites`: one loop of n slots each overwritten by an all-reduce every iteration;
- `guarded`: `width` whose loop condition also reads the n values (a `while_loop` that stops
  once one of them is no longer finite-looking).

`tools/gen_scanned_dimensions.py` has the dimensions scanned once and not benchmarked on every
run (`SIZES` and `generate` cover both). `width(n, partitions)` also serves the interpreter's device scaling (the same program on 8 and
64 partitions).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen_scanned_dimensions as scanned

PARTITIONS = 8
VEC = "f32[4]"
TRIPS = 4

BASE: dict[str, int] = {
    "width": 200,
    "loops": 40,
    "nesting": 8,
    "functions": 40,
    "users": 400,
    "region": 2000,
    "gathers": 200,
    "scatters": 200,
    "stacked": 200,
    "flags": 200,
    "conditional": 200,
    "overwrites": 200,
    "guarded": 200,
}
"""The 1x size of every dimension: each 1x program has ~1,000 instructions or more, so a 1x step
takes milliseconds, not microseconds (the ratio then measures the step, not the clock)."""


class _Text:
    """Builds one module: computations as text, fresh names and channel ids."""

    def __init__(self, name: str, partitions: int = PARTITIONS, reducers: str = "") -> None:
        self.name = name
        self.partitions = partitions
        self.reducers = reducers
        self.groups = "{{" + ",".join(str(i) for i in range(partitions)) + "}}"
        self.computations: list[str] = []
        self.counter = 0
        self.channel = 0

    def fresh(self, stem: str) -> str:
        self.counter += 1
        return f"%{stem}.{self.counter}"

    def all_reduce(self, lines: list[str], value: str) -> str:
        self.channel += 1
        r = self.fresh("ar")
        lines.append(
            f"  {r} = {VEC} all-reduce({value}), channel_id={self.channel}, "
            f"replica_groups={self.groups}, use_global_device_ids=true, to_apply=%add_reducer"
        )
        return r

    def render(self, entry: str) -> str:
        reducer = (
            "%add_reducer (a: f32[], b: f32[]) -> f32[] {\n  %a = f32[] parameter(0)\n"
            "  %b = f32[] parameter(1)\n  ROOT %s = f32[] add(%a, %b)\n}\n"
        )
        head = f"HloModule {self.name}, num_partitions={self.partitions}\n\n"
        computations = "\n".join(self.computations)
        return head + reducer + self.reducers + "\n" + computations + "\n" + entry


def _loop(
    t: _Text,
    slots: int,
    body_extra: Callable[[list[str], list[str]], None] | None = None,
    guarded: bool = False,
) -> tuple[str, str]:
    """A while loop carrying (i, acc_0..acc_{k-1}, x_0..x_{k-1}); returns (cond, body) names.

    Each acc_j += all-reduce(x_j * x_j); `body_extra(lines, xs)` may add ops reading the xs.
    `guarded`: the condition also reads every x_j (runs while all of them are below 1e30)."""
    carried = "(s32[], " + ", ".join([VEC] * (2 * slots)) + ")"
    body, cond = t.fresh("body")[1:], t.fresh("cond")[1:]
    lines = [f"%{body} (p: {carried}) -> {carried} {{", f"  %p = {carried} parameter(0)"]
    lines += ["  %i = s32[] get-tuple-element(%p), index=0", "  %one = s32[] constant(1)"]
    lines.append("  %next = s32[] add(%i, %one)")
    accs, xs = [], []
    for j in range(slots):
        a, x = t.fresh("acc"), t.fresh("x")
        lines.append(f"  {a} = {VEC} get-tuple-element(%p), index={1 + j}")
        lines.append(f"  {x} = {VEC} get-tuple-element(%p), index={1 + slots + j}")
        accs.append(a)
        xs.append(x)
    if body_extra is not None:
        body_extra(lines, xs)
    news = []
    for a, x in zip(accs, xs, strict=True):
        sq = t.fresh("sq")
        lines.append(f"  {sq} = {VEC} multiply({x}, {x})")
        r = t.all_reduce(lines, sq)
        n = t.fresh("new")
        lines.append(f"  {n} = {VEC} add({a}, {r})")
        news.append(n)
    lines.append(f"  ROOT %t = {carried} tuple(%next, {', '.join(news + xs)})")
    lines.append("}\n")
    t.computations.append("\n".join(lines))
    t.computations.append(
        _condition(cond, carried, range(1 + slots, 1 + 2 * slots) if guarded else None)
    )
    return cond, body


def _condition(name: str, carried: str, guards: range | None = None) -> str:
    """`i < TRIPS`, and with `guards` also every guarded slot's elements below 1e30."""
    lines = [f"%{name} (p: {carried}) -> pred[] {{", f"  %p = {carried} parameter(0)"]
    lines += ["  %i = s32[] get-tuple-element(%p), index=0", f"  %n = s32[] constant({TRIPS})"]
    if guards is None:
        lines.append("  ROOT %lt = pred[] compare(%i, %n), direction=LT\n}\n")
        return "\n".join(lines)
    lines += ["  %go.0 = pred[] compare(%i, %n), direction=LT", "  %big = f32[] constant(1e30)"]
    lines += [
        f"  %bigs = {VEC} broadcast(%big), dimensions={{}}",
        "  %true = pred[] constant(true)",
    ]
    for k, slot in enumerate(guards):
        lines.append(f"  %g.{k} = {VEC} get-tuple-element(%p), index={slot}")
        lines.append(f"  %lt.{k} = pred[4] compare(%g.{k}, %bigs), direction=LT")
        lines.append(f"  %all.{k} = pred[] reduce(%lt.{k}, %true), dimensions={{0}}, to_apply=%and")
        lines.append(f"  %go.{k + 1} = pred[] and(%go.{k}, %all.{k})")
    lines.append(f"  ROOT %go = pred[] copy(%go.{len(guards)})\n}}\n")
    return "\n".join(lines)


def _run_loop(t: _Text, lines: list[str], cond: str, body: str, slots: int, x: str) -> str:
    """Emit the init tuple and the while; returns the sum of the accumulators."""
    carried = "(s32[], " + ", ".join([VEC] * (2 * slots)) + ")"
    zero, zf, zv = t.fresh("zero"), t.fresh("zf"), t.fresh("zv")
    lines.append(f"  {zero} = s32[] constant(0)")
    lines.append(f"  {zf} = f32[] constant(0)")
    lines.append(f"  {zv} = {VEC} broadcast({zf}), dimensions={{}}")
    init, w = t.fresh("init"), t.fresh("w")
    lines.append(f"  {init} = {carried} tuple({zero}, {', '.join([zv] * slots + [x] * slots)})")
    lines.append(f"  {w} = {carried} while({init}), condition=%{cond}, body=%{body}")
    total = x
    for j in range(slots):
        g, s = t.fresh("out"), t.fresh("sum")
        lines.append(f"  {g} = {VEC} get-tuple-element({w}), index={1 + j}")
        lines.append(f"  {s} = {VEC} add({total}, {g})")
        total = s
    return total


def _entry(lines: list[str], result: str) -> str:
    head = f"ENTRY %main (x: {VEC}) -> {VEC} {{\n  %x = {VEC} parameter(0)\n"
    body = "\n".join(lines)
    return head + body + f"\n  ROOT %result = {VEC} copy({result})\n}}\n"


def width(n: int, partitions: int = PARTITIONS) -> str:
    t = _Text(f"width_{n}", partitions)
    cond, body = _loop(t, n)
    lines: list[str] = []
    return t.render(_entry(lines, _run_loop(t, lines, cond, body, n, "%x")))


_AND_REDUCER = (
    "\n%and (a: pred[], b: pred[]) -> pred[] {\n  %a = pred[] parameter(0)\n"
    "  %b = pred[] parameter(1)\n  ROOT %s = pred[] and(%a, %b)\n}\n"
)


def guarded(n: int) -> str:
    """`width` whose loop condition also reads every x_j (a while_loop stopping once a value
    is no longer finite-looking): the motion checks each accumulator against the condition."""
    t = _Text(f"guarded_{n}", reducers=_AND_REDUCER)
    cond, body = _loop(t, n, guarded=True)
    lines: list[str] = []
    return t.render(_entry(lines, _run_loop(t, lines, cond, body, n, "%x")))


def loops(n: int) -> str:
    t = _Text(f"loops_{n}")
    lines: list[str] = []
    value = "%x"
    for _ in range(n):
        cond, body = _loop(t, 2)
        value = _run_loop(t, lines, cond, body, 2, value)
    return t.render(_entry(lines, value))


def nesting(n: int) -> str:
    """Level k's body runs level k+1's loop on its x and accumulates and carries x + result."""
    t = _Text(f"nesting_{n}")
    inner: tuple[str, str] | None = None
    for _ in range(n):
        child = inner

        def extra(lines: list[str], xs: list[str], child: tuple[str, str] | None = child) -> None:
            if child is not None:
                out = _run_loop(t, lines, child[0], child[1], 1, xs[0])
                mixed = t.fresh("mixed")
                lines.append(f"  {mixed} = {VEC} add({xs[0]}, {out})")
                xs[0] = mixed  # accumulated and carried: the inner loop is live

        inner = _loop(t, 1, extra)
    assert inner is not None
    lines: list[str] = []
    return t.render(_entry(lines, _run_loop(t, lines, inner[0], inner[1], 1, "%x")))


def functions(n: int) -> str:
    t = _Text(f"functions_{n}")
    lines: list[str] = []
    value = "%x"
    for _ in range(n):
        cond, body = _loop(t, 2)
        fn = t.fresh("fn")[1:]
        inner: list[str] = []
        out = _run_loop(t, inner, cond, body, 2, "%y")
        t.computations.append(
            f"%{fn} (y: {VEC}) -> {VEC} {{\n  %y = {VEC} parameter(0)\n"
            + "\n".join(inner)
            + f"\n  ROOT %r = {VEC} copy({out})\n}}\n"
        )
        c = t.fresh("call")
        lines.append(f"  {c} = {VEC} call({value}), to_apply=%{fn}")
        value = c
    return t.render(_entry(lines, value))


def users(n: int) -> str:
    """One loop slot read by n all-reduces (summed into the accumulator: n movable sums)."""
    t = _Text(f"users_{n}")

    def extra(lines: list[str], xs: list[str]) -> None:
        total = xs[0]
        for _ in range(n):
            r = t.all_reduce(lines, xs[0])
            s = t.fresh("use")
            lines.append(f"  {s} = {VEC} add({total}, {r})")
            total = s

    cond, body = _loop(t, 1, extra)
    lines: list[str] = []
    return t.render(_entry(lines, _run_loop(t, lines, cond, body, 1, "%x")))


def region(n: int) -> str:
    """One body of ~n instructions: chains of 8 elementwise ops, an accumulation per 10 ops."""
    t = _Text(f"region_{n}")
    slots = max(1, n // 10)

    def extra(lines: list[str], xs: list[str]) -> None:
        for x in xs:
            value = x
            for k in range(4):
                a = t.fresh("e")
                lines.append(f"  {a} = {VEC} {'tanh' if k % 2 else 'negate'}({value})")
                value = a

    cond, body = _loop(t, slots, extra)
    lines: list[str] = []
    return t.render(_entry(lines, _run_loop(t, lines, cond, body, slots, "%x")))


_MAX_REDUCER = (
    "\n%max_reducer (a: s32[], b: s32[]) -> s32[] {\n  %a = s32[] parameter(0)\n"
    "  %b = s32[] parameter(1)\n  ROOT %m = s32[] maximum(%a, %b)\n}\n"
)

Step = Callable[["_Text", list[str], str, str], str]
"""Emits one slot's update in a loop body (lines, accumulator, x) and returns its new value."""


def _slotted(
    t: _Text,
    n: int,
    acc: str,
    x: str,
    init: str,
    step: Step,
    prologue: tuple[str, ...] = (),
) -> str:
    """A loop carrying (i, acc_0..acc_{n-1}, x_0..x_{n-1}), each acc_j updated by `step` from
    x_j; `init` emits the accumulators' initial value into the entry (named `%init_acc`).
    The entry returns the loop's whole tuple (every slot live)."""
    carried = "(s32[], " + ", ".join([acc] * n + [x] * n) + ")"
    lines = [f"%body (p: {carried}) -> {carried} {{", f"  %p = {carried} parameter(0)"]
    lines += ["  %i = s32[] get-tuple-element(%p), index=0", "  %one = s32[] constant(1)"]
    lines += ["  %next = s32[] add(%i, %one)", *prologue]
    news: list[str] = []
    xs: list[str] = []
    for j in range(n):
        a, v = t.fresh("acc"), t.fresh("x")
        lines.append(f"  {a} = {acc} get-tuple-element(%p), index={1 + j}")
        lines.append(f"  {v} = {x} get-tuple-element(%p), index={1 + n + j}")
        news.append(step(t, lines, a, v))
        xs.append(v)
    lines.append(f"  ROOT %t = {carried} tuple(%next, {', '.join(news + xs)})\n}}\n")
    t.computations.append("\n".join(lines))
    t.computations.append(_condition("cond", carried))
    entry = [f"ENTRY %main (x: {x}) -> {carried} {{", f"  %x = {x} parameter(0)"]
    entry += ["  %zero = s32[] constant(0)", init]
    entry.append(f"  %init = {carried} tuple(%zero, {', '.join(['%init_acc'] * n + ['%x'] * n)})")
    entry.append(f"  ROOT %w = {carried} while(%init), condition=%cond, body=%body\n}}\n")
    return t.render("\n".join(entry))


def _zeros(shape: str) -> str:
    return f"  %zf = f32[] constant(0)\n  %init_acc = {shape} broadcast(%zf), dimensions={{}}"


def gathers(n: int) -> str:
    """n loop-invariant shards, each all-gathered and used every iteration (FSDP in a scan)."""
    t = _Text(f"gathers_{n}")

    def step(t: _Text, lines: list[str], a: str, x: str) -> str:
        t.channel += 1
        g, new = t.fresh("ag"), t.fresh("new")
        lines.append(
            f"  {g} = f32[16] all-gather({x}), channel_id={t.channel}, replica_groups="
            f"{t.groups}, dimensions={{0}}, use_global_device_ids=true"
        )
        lines.append(f"  {new} = f32[16] add({a}, {g})")
        return new

    return _slotted(t, n, "f32[16]", "f32[2]", _zeros("f32[16]"), step)


def _reduce_scatter(t: _Text, lines: list[str], value: str) -> str:
    t.channel += 1
    r = t.fresh("rs")
    lines.append(
        f"  {r} = f32[2] reduce-scatter({value}), channel_id={t.channel}, replica_groups="
        f"{t.groups}, dimensions={{0}}, use_global_device_ids=true, to_apply=%add_reducer"
    )
    return r


def scatters(n: int) -> str:
    """n accumulations of reduce-scatters (acc += psum_scatter(x * x): ZeRO gradients)."""
    t = _Text(f"scatters_{n}")

    def step(t: _Text, lines: list[str], a: str, x: str) -> str:
        sq, new = t.fresh("sq"), t.fresh("new")
        lines.append(f"  {sq} = f32[16] multiply({x}, {x})")
        lines.append(f"  {new} = f32[2] add({a}, {_reduce_scatter(t, lines, sq)})")
        return new

    return _slotted(t, n, "f32[2]", "f32[16]", _zeros("f32[2]"), step)


def stacked(n: int) -> str:
    """n buffers whose row i is the reduce-scatter of iteration i (the reduce-scatter sink)."""
    t = _Text(f"stacked_{n}")

    def step(t: _Text, lines: list[str], a: str, x: str) -> str:
        row, new = t.fresh("row"), t.fresh("new")
        lines.append(f"  {row} = f32[1,2] reshape({_reduce_scatter(t, lines, x)})")
        lines.append(f"  {new} = f32[{TRIPS},2] dynamic-update-slice({a}, {row}, %i, %c0)")
        return new

    zeros = _zeros(f"f32[{TRIPS},2]")
    return _slotted(t, n, f"f32[{TRIPS},2]", "f32[16]", zeros, step, ("  %c0 = s32[] constant(0)",))


def flags(n: int) -> str:
    """n threshold flags (flag |= pmax(x) > 0), each carried as a running maximum."""
    t = _Text(f"flags_{n}", reducers=_MAX_REDUCER)

    def step(t: _Text, lines: list[str], a: str, x: str) -> str:
        t.channel += 1
        m, g, new = t.fresh("max"), t.fresh("seen"), t.fresh("new")
        lines.append(
            f"  {m} = s32[4] all-reduce({x}), channel_id={t.channel}, replica_groups={t.groups}, "
            "use_global_device_ids=true, to_apply=%max_reducer"
        )
        lines.append(f"  {g} = pred[4] compare({m}, %zeros), direction=GT")
        lines.append(f"  {new} = pred[4] or({a}, {g})")
        return new

    init = "  %no = pred[] constant(false)\n  %init_acc = pred[4] broadcast(%no), dimensions={}"
    zeros = ("  %z = s32[] constant(0)", "  %zeros = s32[4] broadcast(%z), dimensions={}")
    return _slotted(t, n, "pred[4]", "s32[4]", init, step, zeros)


def overwrites(n: int) -> str:
    """n slots each overwritten by an all-reduce every iteration (the last one is kept)."""
    t = _Text(f"overwrites_{n}")

    def step(t: _Text, lines: list[str], a: str, x: str) -> str:
        del a  # overwritten: the carried value is never read
        sq = t.fresh("sq")
        lines.append(f"  {sq} = {VEC} multiply({x}, {x})")
        return t.all_reduce(lines, sq)

    return _slotted(t, n, VEC, VEC, _zeros(VEC), step)


def conditional(n: int) -> str:
    """One conditional per iteration over n accumulators (lax.cond over a gradient pytree in
    a scan): the taken branch returns acc_j + psum(x_j), the other acc_j."""
    t = _Text(f"conditional_{n}")
    both = "(" + ", ".join([VEC] * (2 * n)) + ")"
    accs = "(" + ", ".join([VEC] * n) + ")"
    take = [f"%take (q: {both}) -> {accs} {{", f"  %q = {both} parameter(0)"]
    skip = [f"%skip (q: {both}) -> {accs} {{", f"  %q = {both} parameter(0)"]
    sums: list[str] = []
    for j in range(n):
        take.append(f"  %a{j} = {VEC} get-tuple-element(%q), index={j}")
        take.append(f"  %v{j} = {VEC} get-tuple-element(%q), index={n + j}")
        sums.append(t.fresh("sum"))
        take.append(f"  {sums[-1]} = {VEC} add(%a{j}, {t.all_reduce(take, f'%v{j}')})")
        skip.append(f"  %a{j} = {VEC} get-tuple-element(%q), index={j}")
    take.append(f"  ROOT %r = {accs} tuple({', '.join(sums)})\n}}\n")
    skip.append(f"  ROOT %r = {accs} tuple({', '.join(f'%a{j}' for j in range(n))})\n}}\n")
    t.computations += ["\n".join(take), "\n".join(skip)]
    prologue = ("  %two = s32[] constant(2)", "  %early = pred[] compare(%i, %two), direction=LT")
    body: list[str] = []

    def step(t: _Text, lines: list[str], a: str, x: str) -> str:
        body.append(a)
        body.append(x)
        return f"%got.{len(body) // 2 - 1}"

    text = _slotted(t, n, VEC, VEC, _zeros(VEC), step, prologue)
    ops = body[0::2] + body[1::2]
    branch = (
        f"  %ops = {both} tuple({', '.join(ops)})\n"
        f"  %c = {accs} conditional(%early, %ops, %ops), true_computation=%take, "
        "false_computation=%skip\n"
        + "\n".join(f"  %got.{j} = {VEC} get-tuple-element(%c), index={j}" for j in range(n))
    )
    return text.replace("\n  ROOT %t = ", "\n" + branch + "\n  ROOT %t = ", 1)


GENERATORS: dict[str, Callable[[int], str]] = {
    "width": width,
    "loops": loops,
    "nesting": nesting,
    "functions": functions,
    "users": users,
    "region": region,
    "gathers": gathers,
    "scatters": scatters,
    "stacked": stacked,
    "flags": flags,
    "conditional": conditional,
    "overwrites": overwrites,
    "guarded": guarded,
}


SIZES: dict[str, int] = {**BASE, **scanned.BASE}
"""The 1x size of every dimension, benchmarked (`BASE`) or scanned
(`tools/gen_scanned_dimensions.py`)."""


def generate(dimension: str, n: int) -> str:
    """The program of `dimension` (benchmarked or scanned) at size n."""
    make = GENERATORS.get(dimension) or scanned.GENERATORS[dimension]
    return make(n)


def main(argv: list[str] | None = None) -> None:
    cli = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    cli.add_argument("dimension", choices=sorted(SIZES))
    cli.add_argument("n", type=int)
    args = cli.parse_args(argv)
    sys.stdout.write(generate(args.dimension, args.n))


if __name__ == "__main__":
    main()
