"""More dimensions of a program, scanned for growth faster than the program (issue 20).

`tools/gen_dimensions.py` holds the dimensions `make bench` times on every run. These are the
other directions a program grows in that were checked once for super-linear passes (none found;
README, "Growth along each dimension"); `tools/bench_dimensions.py --scan` times them the same
way, 1x (`BASE`) and 10x, and `tools/gen_dimensions.py DIMENSION N` prints one:

- `branches`: a loop body runs one conditional with n branches, each all-reducing;
- `callers`: one computation (an all-reduce) called from n call sites;
- `call_depth`: n computations, each calling the next; the last all-reduces;
- `devices`: 100 all-reduces over n devices in groups of two (replica groups of n / 2 groups);
- `chain`: n all-reduces, each of the previous one's result (nothing can be combined);
- `variadic`: one all-reduce of n operands in a loop, each result accumulated;
- `mixed`: one all-reduce of n operands of four element types (decomposed by type);
- `duplicates`: n parameters, each all-gathered twice (the duplicate remover's pattern);
- `reduce_scatters`: one value reduce-scattered n times (the reduce-scatter combiner);
- `reshards`: n "Sharding" custom calls resharding one parameter (spmd-expand-reshard);
- `sliced`: a scan over n stacked inputs, `acc_j += psum(xs_j[i])`;
- `shapes`: n pairs of all-reduces of n distinct shapes (n combiner keys).
"""

from __future__ import annotations

from collections.abc import Callable

GROUP = "{{0,1,2,3,4,5,6,7}}"
V = "f32[4]"
TYPES = ("f32", "bf16", "s32", "f16")


def _reducer(name: str, ty: str) -> str:
    return (
        f"%{name} (a: {ty}[], b: {ty}[]) -> {ty}[] {{\n  %a = {ty}[] parameter(0)\n"
        f"  %b = {ty}[] parameter(1)\n  ROOT %s = {ty}[] add(%a, %b)\n}}\n"
    )


def _module(name: str, computations: list[str], entry: list[str], partitions: int = 8) -> str:
    head = f"HloModule {name}, num_partitions={partitions}\n\n" + _reducer("add", "f32")
    return head + "\n" + "\n".join(computations) + "\n" + "\n".join(entry) + "\n}\n"


def _all_reduce(name: str, value: str, channel: int, ty: str = V, groups: str = GROUP) -> str:
    return (
        f"  {name} = {ty} all-reduce({value}), channel_id={channel}, replica_groups={groups}, "
        "use_global_device_ids=true, to_apply=%add"
    )


def _sum(entry: list[str], values: list[str], ty: str = V) -> str:
    """Emit adds folding `values` into one; returns it."""
    total = values[0]
    for k, v in enumerate(values[1:]):
        entry.append(f"  %sum.{k} = {ty} add({total}, {v})")
        total = f"%sum.{k}"
    return total


def _loop(carried: str, body: list[str], init: str) -> tuple[list[str], list[str]]:
    """A 4-trip while loop over `carried` (slot 0 the counter); `body` computes its ops after
    `%p`, `%i` and `%next` and ends with the root. Returns (computations, entry lines)."""
    head = [f"%body (p: {carried}) -> {carried} {{", f"  %p = {carried} parameter(0)"]
    head += ["  %i = s32[] get-tuple-element(%p), index=0", "  %one = s32[] constant(1)"]
    head.append("  %next = s32[] add(%i, %one)")
    cond = (
        f"%cond (p: {carried}) -> pred[] {{\n  %p = {carried} parameter(0)\n"
        "  %i = s32[] get-tuple-element(%p), index=0\n  %n = s32[] constant(4)\n"
        "  ROOT %lt = pred[] compare(%i, %n), direction=LT\n}\n"
    )
    entry = [f"  ROOT %w = {carried} while({init}), condition=%cond, body=%body"]
    return ["\n".join([*head, *body]) + "\n}\n", cond], entry


def _accumulating(name: str, n: int, x_type: str, x: str, body: list[str]) -> str:
    """A loop carrying (i, acc_0..acc_{n-1}, x_0..x_{n-1}) from zeros and the entry's `x`:
    `body` reads slot 1 + j as `%acc.j` and 1 + n + j as `<x>.j` and defines `%new.j`, the
    next accumulators (the xs pass through)."""
    carried = "(s32[], " + ", ".join([V] * n + [x_type] * n) + ")"
    slots = [f"%new.{j}" for j in range(n)] + [f"{x}.{j}" for j in range(n)]
    root = f"  ROOT %t = {carried} tuple(%next, {', '.join(slots)})"
    loop, tail = _loop(carried, [*body, root], "%init")
    entry = [f"ENTRY %main (x: {x_type}) -> {carried} {{", f"  %x = {x_type} parameter(0)"]
    entry += ["  %z = s32[] constant(0)", "  %zf = f32[] constant(0)"]
    entry.append(f"  %zv = {V} broadcast(%zf), dimensions={{}}")
    entry.append(f"  %init = {carried} tuple(%z, {', '.join(['%zv'] * n + ['%x'] * n)})")
    return _module(f"{name}_{n}", loop, entry + tail)


def branches(n: int) -> str:
    comps = [
        f"%branch.{j} (q: {V}) -> {V} {{\n  %q = {V} parameter(0)\n  %c = f32[] constant({j})\n"
        f"  %cb = {V} broadcast(%c), dimensions={{}}\n  %m = {V} multiply(%q, %cb)\n"
        + _all_reduce("ROOT %r", "%m", j + 1)
        + "\n}\n"
        for j in range(n)
    ]
    carried = f"(s32[], {V})"
    names = ", ".join(f"%branch.{j}" for j in range(n))
    body = [f"  %x = {V} get-tuple-element(%p), index=1"]
    body.append(
        f"  %c = {V} conditional(%i, {', '.join(['%x'] * n)}), branch_computations={{{names}}}"
    )
    body.append(f"  ROOT %t = {carried} tuple(%next, %c)")
    loop, tail = _loop(carried, body, "%init")
    entry = [f"ENTRY %main (x: {V}) -> {carried} {{", f"  %x = {V} parameter(0)"]
    entry += ["  %z = s32[] constant(0)", f"  %init = {carried} tuple(%z, %x)", *tail]
    return _module(f"branches_{n}", comps + loop, entry)


def callers(n: int) -> str:
    f = f"%f (q: {V}) -> {V} {{\n  %q = {V} parameter(0)\n" + _all_reduce("ROOT %r", "%q", 1)
    entry = [f"ENTRY %main (x: {V}) -> {V} {{", f"  %s.0 = {V} parameter(0)"]
    entry += [f"  %s.{j + 1} = {V} call(%s.{j}), to_apply=%f" for j in range(n)]
    entry.append(f"  ROOT %out = {V} copy(%s.{n})")
    return _module(f"callers_{n}", [f + "\n}\n"], entry)


def call_depth(n: int) -> str:
    comps = [
        f"%f.{n} (q: {V}) -> {V} {{\n  %q = {V} parameter(0)\n" + _all_reduce("ROOT %r", "%q", 1)
    ]
    comps[0] += "\n}\n"
    for j in range(n - 1, -1, -1):
        comps.append(
            f"%f.{j} (q: {V}) -> {V} {{\n  %q = {V} parameter(0)\n"
            f"  %c = {V} call(%q), to_apply=%f.{j + 1}\n  ROOT %s = {V} add(%q, %c)\n}}\n"
        )
    entry = [f"ENTRY %main (x: {V}) -> {V} {{", f"  %x = {V} parameter(0)"]
    entry.append(f"  ROOT %r = {V} call(%x), to_apply=%f.0")
    return _module(f"call_depth_{n}", comps, entry)


def devices(n: int) -> str:
    groups = "{" + ",".join(f"{{{2 * k},{2 * k + 1}}}" for k in range(n // 2)) + "}"
    entry = [f"ENTRY %main (x: {V}) -> {V} {{", f"  %x = {V} parameter(0)"]
    entry += [_all_reduce(f"%a.{j}", "%x", j + 1, groups=groups) for j in range(100)]
    entry.append(f"  ROOT %out = {V} copy({_sum(entry, [f'%a.{j}' for j in range(100)])})")
    return _module(f"devices_{n}", [], entry, partitions=n)


def chain(n: int) -> str:
    entry = [f"ENTRY %main (x: {V}) -> {V} {{", f"  %v.0 = {V} parameter(0)"]
    entry += [_all_reduce(f"%v.{j + 1}", f"%v.{j}", j + 1) for j in range(n)]
    entry.append(f"  ROOT %out = {V} copy(%v.{n})")
    return _module(f"chain_{n}", [], entry)


def variadic(n: int) -> str:
    body: list[str] = []
    for j in range(n):
        body.append(f"  %acc.{j} = {V} get-tuple-element(%p), index={1 + j}")
        body.append(f"  %x.{j} = {V} get-tuple-element(%p), index={1 + n + j}")
        body.append(f"  %sq.{j} = {V} multiply(%x.{j}, %x.{j})")
    results = "(" + ", ".join([V] * n) + ")"
    squares = ", ".join(f"%sq.{j}" for j in range(n))
    body.append(_all_reduce("%ar", squares, 1, ty=results))
    for j in range(n):
        body.append(f"  %r.{j} = {V} get-tuple-element(%ar), index={j}")
        body.append(f"  %new.{j} = {V} add(%acc.{j}, %r.{j})")
    return _accumulating("variadic", n, V, "%x", body)


def mixed(n: int) -> str:
    types = [f"{TYPES[j % 4]}[4]" for j in range(n)]
    results = "(" + ", ".join(types) + ")"
    params = ", ".join(f"p.{j}: {t}" for j, t in enumerate(types))
    entry = [f"ENTRY %main ({params}) -> {results} {{"]
    entry += [f"  %p.{j} = {t} parameter({j})" for j, t in enumerate(types)]
    operands = ", ".join(f"%p.{j}" for j in range(n))
    entry.append(_all_reduce("ROOT %ar", operands, 1, ty=results))
    return _module(f"mixed_{n}", [], entry)


def duplicates(n: int) -> str:
    shard, full = "f32[2]", "f32[16]"
    params = ", ".join(f"p.{j}: {shard}" for j in range(n))
    entry = [f"ENTRY %main ({params}) -> {full} {{"]
    sums: list[str] = []
    for j in range(n):
        entry.append(f"  %p.{j} = {shard} parameter({j})")
        for k in range(2):
            entry.append(
                f"  %g.{j}.{k} = {full} all-gather(%p.{j}), channel_id={2 * j + k + 1}, "
                f"replica_groups={GROUP}, dimensions={{0}}, use_global_device_ids=true"
            )
        entry.append(f"  %both.{j} = {full} add(%g.{j}.0, %g.{j}.1)")
        sums.append(f"%both.{j}")
    entry.append(f"  ROOT %out = {full} copy({_sum(entry, sums, full)})")
    return _module(f"duplicates_{n}", [], entry)


def reduce_scatters(n: int) -> str:
    full, shard = "f32[16]", "f32[2]"
    entry = [f"ENTRY %main (x: {full}) -> {shard} {{", f"  %x = {full} parameter(0)"]
    for j in range(n):
        entry.append(f"  %m.{j} = {full} multiply(%x, %x)")
        entry.append(
            f"  %r.{j} = {shard} reduce-scatter(%m.{j}), channel_id={j + 1}, replica_groups="
            f"{GROUP}, dimensions={{0}}, use_global_device_ids=true, to_apply=%add"
        )
    entry.append(f"  ROOT %out = {shard} copy({_sum(entry, [f'%r.{j}' for j in range(n)], shard)})")
    return _module(f"reduce_scatters_{n}", [], entry)


def reshards(n: int) -> str:
    entry = ["ENTRY %main (x: f32[1,16]) -> f32[8,2] {"]
    entry.append("  %x = f32[1,16] parameter(0), sharding={devices=[8,1]<=[8]}")
    entry += [
        f'  %r.{j} = f32[8,2] custom-call(%x), custom_call_target="Sharding", '
        "sharding={devices=[1,8]<=[8]}"
        for j in range(n)
    ]
    entry.append(
        f"  ROOT %out = f32[8,2] copy({_sum(entry, [f'%r.{j}' for j in range(n)], 'f32[8,2]')})"
    )
    return _module(f"reshards_{n}", [], entry)


def sliced(n: int) -> str:
    rows = "f32[4,4]"
    body = ["  %c0 = s32[] constant(0)"]
    for j in range(n):
        body.append(f"  %acc.{j} = {V} get-tuple-element(%p), index={1 + j}")
        body.append(f"  %xs.{j} = {rows} get-tuple-element(%p), index={1 + n + j}")
        body.append(
            f"  %row.{j} = f32[1,4] dynamic-slice(%xs.{j}, %i, %c0), dynamic_slice_sizes={{1,4}}"
        )
        body.append(f"  %v.{j} = {V} reshape(%row.{j})")
        body.append(_all_reduce(f"%r.{j}", f"%v.{j}", j + 1))
        body.append(f"  %new.{j} = {V} add(%acc.{j}, %r.{j})")
    return _accumulating("sliced", n, rows, "%xs", body)


def shapes(n: int) -> str:
    types = [f"f32[{j + 1}]" for j in range(n)]
    results = "(" + ", ".join(types) + ")"
    entry = [f"ENTRY %main (x: {V}) -> {results} {{", f"  %x = {V} parameter(0)"]
    outs: list[str] = []
    for j, t in enumerate(types):
        entry.append(f"  %c.{j} = f32[] constant({j})")
        entry.append(f"  %b.{j} = {t} broadcast(%c.{j}), dimensions={{}}")
        entry += [_all_reduce(f"%a.{j}.{k}", f"%b.{j}", 2 * j + k + 1, ty=t) for k in range(2)]
        entry.append(f"  %s.{j} = {t} add(%a.{j}.0, %a.{j}.1)")
        outs.append(f"%s.{j}")
    entry.append(f"  ROOT %t = {results} tuple({', '.join(outs)})")
    return _module(f"shapes_{n}", [], entry)


BASE: dict[str, int] = {
    "branches": 100,
    "callers": 200,
    "call_depth": 100,
    "devices": 256,
    "chain": 300,
    "variadic": 200,
    "mixed": 200,
    "duplicates": 200,
    "reduce_scatters": 300,
    "reshards": 200,
    "sliced": 200,
    "shapes": 200,
}
"""The 1x size of every scanned dimension."""

GENERATORS: dict[str, Callable[[int], str]] = {
    "branches": branches,
    "callers": callers,
    "call_depth": call_depth,
    "devices": devices,
    "chain": chain,
    "variadic": variadic,
    "mixed": mixed,
    "duplicates": duplicates,
    "reduce_scatters": reduce_scatters,
    "reshards": reshards,
    "sliced": sliced,
    "shapes": shapes,
}
