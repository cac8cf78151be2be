"""Local moves of the random HLO generator: elementwise, data movement, dot, reduce, ids.

Each move tries to append one small piece of program to the current computation of a `Gen`
and returns False (having emitted nothing that matters) when the pool has no suitable operand
or the result would break the exactness bounds of random_hlo_gen.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from neuron_cc.testing.random_hlo_gen import (
    INT32_WRAP,
    MAX_ELEMENTS,
    NUMERIC,
    Gen,
    Val,
    accumulation_exact,
    representable,
    rounded,
)

Move = Callable[[Gen], bool]

_ARITH = ("add", "subtract", "multiply")


def _numeric(v: Val) -> bool:
    return v.dtype in NUMERIC


def _binary_bound(op: str, a: Val, b: Val) -> tuple[float, int]:
    if op == "multiply":
        return a.bound * b.bound, a.grid + b.grid
    if op in ("add", "subtract"):
        return a.bound + b.bound, max(a.grid, b.grid)
    return max(a.bound, b.bound), max(a.grid, b.grid)


def _partner(g: Gen, a: Val) -> Val | None:
    """A second operand of a's type from the pool, or None for a constant."""
    if g.chance(0.25):
        return None
    return g.pick(lambda v: v.dtype == a.dtype and v.shape == a.shape)


def _emit_binary(g: Gen, op: str, a: Val, b: Val) -> Val | None:
    bound, grid = _binary_bound(op, a, b)
    wrapped = a.wrapped or b.wrapped
    if op in _ARITH and not wrapped and not representable(a.dtype, bound, grid):
        return None
    if wrapped:
        bound = INT32_WRAP
    return g.emit(
        op, [a, b], a.dtype, a.shape, bound=rounded(a.dtype, bound), grid=grid, wrapped=wrapped
    )


def move_binary(g: Gen) -> bool:
    a = g.pick(_numeric)
    if a is None:
        return False
    op = g.rng.choice(("add", "subtract", "multiply", "maximum", "minimum"))
    b = _partner(g, a)
    if b is None:
        value = g.small_constant(a.dtype)
        probe = Val("c", a.dtype, (), abs(value), g.grid_of(value))
        bound, grid = _binary_bound(op, a, probe)
        if op in _ARITH and not a.wrapped and not representable(a.dtype, bound, grid):
            return False
        b = g.splat(a.dtype, a.shape, value)
    return _emit_binary(g, op, a, b) is not None


def move_unary(g: Gen) -> bool:
    a = g.pick(lambda v: v.dtype in (*NUMERIC, "pred"))
    if a is None:
        return False
    op = "not" if a.dtype == "pred" else g.rng.choice(("negate", "abs"))
    g.emit(op, [a], a.dtype, a.shape, bound=a.bound, grid=a.grid, wrapped=a.wrapped)
    return True


def move_pred_logic(g: Gen) -> bool:
    a = g.pick(lambda v: v.dtype == "pred")
    if a is None:
        return False
    b = g.pick(lambda v: v.dtype == "pred" and v.shape == a.shape) or a
    g.emit(g.rng.choice(("and", "or", "xor")), [a, b], "pred", a.shape, bound=1)
    return True


def move_compare_select(g: Gen) -> bool:
    a = g.pick(_numeric)
    if a is None:
        return False
    b = _partner(g, a) or g.splat(a.dtype, a.shape, g.small_constant(a.dtype))
    direction = g.rng.choice(("EQ", "NE", "LT", "LE", "GT", "GE"))
    p = g.emit("compare", [a, b], "pred", a.shape, f"direction={direction}", bound=1)
    if g.chance(0.25):
        return True
    x = g.pick(lambda v: v.shape == a.shape and v.dtype != "pred") or a
    y = g.pick(lambda v: v.shape == x.shape and v.dtype == x.dtype) or (b if x is a else x)
    g.emit(
        "select",
        [p, x, y],
        x.dtype,
        x.shape,
        bound=max(x.bound, y.bound),
        grid=max(x.grid, y.grid),
        wrapped=x.wrapped or y.wrapped,
    )
    return True


def _convert_target(g: Gen, a: Val) -> str | None:
    options: list[str] = []
    if a.dtype != "f32" and not (a.dtype == "s32" and a.wrapped):
        options.append("f32")
    if a.dtype != "bf16" and (a.dtype != "s32" or (a.bound < 2**24 and not a.wrapped)):
        options.append("bf16")
    if a.dtype != "s32" and a.bound < 2**30:
        options.append("s32")
    if a.dtype in NUMERIC and g.chance(0.1):
        options.append("pred")
    return g.rng.choice(options) if options else None


def move_convert(g: Gen) -> bool:
    a = g.pick(lambda v: v.dtype in (*NUMERIC, "pred"))
    if a is None:
        return False
    target = _convert_target(g, a)
    if target is None:
        return False
    bound = 1.0 if a.dtype == "pred" else a.bound
    grid = 0 if target == "s32" or a.dtype == "pred" else a.grid
    g.emit("convert", [a], target, a.shape, bound=rounded(target, bound), grid=grid)
    g.features.add(f"convert-{a.dtype}-{target}")
    return True


def _like(g: Gen, a: Val, shape: tuple[int, ...], op: str, operands: list[Val], attrs: str) -> Val:
    return g.emit(
        op, operands, a.dtype, shape, attrs, bound=a.bound, grid=a.grid, wrapped=a.wrapped
    )


def _dims(values: list[int] | tuple[int, ...]) -> str:
    return "{" + ",".join(map(str, values)) + "}"


def move_broadcast(g: Gen) -> bool:
    a = g.pick(lambda v: v.size * 2 <= MAX_ELEMENTS and v.rank <= 2)
    if a is None:
        return False
    new = [g.rng.choice((1, 2, 4)) for _ in range(g.rng.randint(1, 2))]
    if a.size * math.prod(new) > MAX_ELEMENTS:
        return False
    rank = a.rank + len(new)
    kept = sorted(g.rng.sample(range(rank), a.rank))
    shape = [0] * rank
    for dim, size in zip(kept, a.shape, strict=True):
        shape[dim] = size
    extra = iter(new)
    shape = [s if i in kept else next(extra) for i, s in enumerate(shape)]
    _like(g, a, tuple(shape), "broadcast", [a], f"dimensions={_dims(kept)}")
    return True


def _factor(g: Gen, n: int) -> tuple[int, ...]:
    primes: list[int] = []
    k, p = n, 2
    while k > 1:
        while k % p == 0:
            primes.append(p)
            k //= p
        p += 1
    g.rng.shuffle(primes)
    rank = g.rng.randint(1, min(3, max(1, len(primes))))
    dims = [1] * rank
    for q in primes:
        dims[g.rng.randrange(rank)] *= q
    return tuple(dims)


def move_reshape(g: Gen) -> bool:
    a = g.pick(lambda v: v.size > 1)
    if a is None:
        return False
    _like(g, a, _factor(g, a.size), "reshape", [a], "")
    return True


def move_transpose(g: Gen) -> bool:
    a = g.pick(lambda v: v.rank >= 2)
    if a is None:
        return False
    perm = list(range(a.rank))
    while perm == sorted(perm):
        g.rng.shuffle(perm)
    shape = tuple(a.shape[p] for p in perm)
    _like(g, a, shape, "transpose", [a], f"dimensions={_dims(perm)}")
    return True


def move_slice(g: Gen) -> bool:
    a = g.pick(lambda v: v.rank >= 1 and v.size > 1)
    if a is None:
        return False
    parts: list[str] = []
    shape: list[int] = []
    for dim in a.shape:
        start = g.rng.randrange(dim)
        limit = g.rng.randint(start + 1, dim)
        stride = g.rng.choice((1, 1, 2))
        parts.append(f"[{start}:{limit}:{stride}]" if stride > 1 else f"[{start}:{limit}]")
        shape.append(-(-(limit - start) // stride))
    _like(g, a, tuple(shape), "slice", [a], "slice={" + ", ".join(parts) + "}")
    return True


def move_concatenate(g: Gen) -> bool:
    a = g.pick(lambda v: v.rank >= 1 and v.size * 2 <= MAX_ELEMENTS)
    if a is None:
        return False
    dim = g.rng.randrange(a.rank)

    def fits(v: Val) -> bool:
        if v.dtype != a.dtype or v.rank != a.rank:
            return False
        return all(v.shape[k] == a.shape[k] for k in range(a.rank) if k != dim)

    others = [g.pick(fits) or a for _ in range(g.rng.randint(1, 2))]
    operands = [a, *others]
    shape = list(a.shape)
    shape[dim] = sum(o.shape[dim] for o in operands)
    if math.prod(shape) > MAX_ELEMENTS:
        return False
    g.emit(
        "concatenate",
        operands,
        a.dtype,
        shape,
        f"dimensions={{{dim}}}",
        bound=max(o.bound for o in operands),
        grid=max(o.grid for o in operands),
        wrapped=any(o.wrapped for o in operands),
    )
    return True


def _index(g: Gen, limit: int) -> Val:
    """An s32 start index: a scalar s32 of the pool, or a constant (maybe out of range)."""
    v = g.pick(lambda v: v.dtype == "s32" and v.rank == 0)
    if v is not None and g.chance(0.5):
        if v.wrapped or v.bound > limit:
            g.features.add("ds-clamp")
        return v
    value = g.rng.randint(-1, limit + 1)
    if not 0 <= value <= limit:
        g.features.add("ds-clamp")
    return g.constant("s32", value)


def move_dynamic_slice(g: Gen) -> bool:
    a = g.pick(lambda v: v.rank >= 1)
    if a is None:
        return False
    sizes = [g.rng.randint(1, d) for d in a.shape]
    starts = [_index(g, d - s) for d, s in zip(a.shape, sizes, strict=True)]
    _like(g, a, tuple(sizes), "dynamic-slice", [a, *starts], f"dynamic_slice_sizes={_dims(sizes)}")
    return True


def move_dynamic_update_slice(g: Gen) -> bool:
    a = g.pick(lambda v: v.rank >= 1)
    if a is None:
        return False

    def fits(v: Val) -> bool:
        return (
            v.dtype == a.dtype
            and v.rank == a.rank
            and all(u <= d for u, d in zip(v.shape, a.shape, strict=True))
        )

    u = g.pick(fits)
    if u is None:
        return False
    starts = [
        g.constant("s32", g.rng.randint(0, d - s)) for d, s in zip(a.shape, u.shape, strict=True)
    ]
    g.emit(
        "dynamic-update-slice",
        [a, u, *starts],
        a.dtype,
        a.shape,
        bound=max(a.bound, u.bound),
        grid=max(a.grid, u.grid),
        wrapped=a.wrapped or u.wrapped,
    )
    return True


def _random_matrix(g: Gen, dtype: str, shape: tuple[int, ...]) -> Val:
    values = [g.small_constant(dtype) for _ in range(math.prod(shape))]
    text = ", ".join(str(int(x)) if dtype == "s32" else repr(x) for x in values)
    inside = "{" + text + "}" if len(shape) == 1 else _nested(text.split(", "), shape)
    bound = max(abs(x) for x in values)
    grid = max(g.grid_of(x) for x in values)
    return g.emit("constant", [], dtype, shape, inside=inside, bound=bound, grid=grid, pool=False)


def _nested(items: list[str], shape: tuple[int, ...]) -> str:
    if len(shape) == 1:
        return "{" + ", ".join(items) + "}"
    step = len(items) // shape[0]
    rows = [_nested(items[i * step : (i + 1) * step], shape[1:]) for i in range(shape[0])]
    return "{" + ", ".join(rows) + "}"


def move_dot(g: Gen) -> bool:
    a = g.pick(lambda v: v.dtype in NUMERIC and 1 <= v.rank <= 2 and not v.wrapped)
    if a is None:
        return False
    lc = g.rng.randrange(a.rank)
    k = a.shape[lc]

    def fits(v: Val) -> bool:
        return v.dtype == a.dtype and 1 <= v.rank <= 2 and k in v.shape and not v.wrapped

    b = g.pick(fits) if g.chance(0.7) else None
    if b is None:
        b = _random_matrix(g, a.dtype, (k, g.rng.choice((1, 2, 4))) if g.chance(0.5) else (k,))
    rc = b.shape.index(k)
    bound, grid = k * a.bound * b.bound, a.grid + b.grid
    exact = accumulation_exact if a.dtype != "s32" else lambda bd, gr: bd < 2**30
    if not exact(bound, grid):
        return False
    shape = [d for i, d in enumerate(a.shape) if i != lc] + [
        d for i, d in enumerate(b.shape) if i != rc
    ]
    attrs = f"lhs_contracting_dims={{{lc}}}, rhs_contracting_dims={{{rc}}}"
    g.emit("dot", [a, b], a.dtype, shape, attrs, bound=rounded(a.dtype, bound), grid=grid)
    return True


_REDUCE_INIT = {"add": 0.0, "maximum": -math.inf, "minimum": math.inf}
_S32_INIT = {"add": 0.0, "maximum": -(2.0**31), "minimum": 2.0**31 - 1}


def move_reduce(g: Gen) -> bool:
    a = g.pick(lambda v: v.dtype in NUMERIC and v.rank >= 1)
    if a is None:
        return False
    kind = g.rng.choice(("add", "add", "maximum", "minimum"))
    dims = sorted(g.rng.sample(range(a.rank), g.rng.randint(1, a.rank)))
    n = math.prod(a.shape[d] for d in dims)
    bound = a.bound * n if kind == "add" else a.bound
    if kind == "add" and not a.wrapped and not representable(a.dtype, bound, a.grid):
        return False
    init_value = (_S32_INIT if a.dtype == "s32" else _REDUCE_INIT)[kind]
    init = g.constant(a.dtype, init_value)
    shape = [d for i, d in enumerate(a.shape) if i not in dims]
    attrs = f"dimensions={_dims(dims)}, to_apply={g.reducer(kind, a.dtype)}"
    g.emit(
        "reduce",
        [a, init],
        a.dtype,
        shape,
        attrs,
        bound=INT32_WRAP if a.wrapped else rounded(a.dtype, bound),
        grid=a.grid,
        wrapped=a.wrapped,
    )
    g.features.add(f"reduce-{kind}")
    return True


def move_iota(g: Gen) -> bool:
    shape = g.random_shape(max_rank=2)
    if not shape:
        return False
    dim = g.rng.randrange(len(shape))
    dtype = g.rng.choice(NUMERIC)
    g.emit("iota", [], dtype, shape, f"iota_dimension={dim}", bound=shape[dim] - 1, inside="")
    return True


def move_constant(g: Gen) -> bool:
    dtype = g.rng.choice(NUMERIC)
    shape = (g.rng.choice((2, 4)),)
    c = _random_matrix(g, dtype, shape)
    g.scope.pool.append(c)
    return True


def move_s32_wrap(g: Gen) -> bool:
    """Deliberate 32-bit wraparound: an LCG step on an s32 value."""
    a = g.pick(lambda v: v.dtype == "s32")
    if a is None:
        return False
    mul = g.splat("s32", a.shape, 1103515245)
    x = g.emit("multiply", [a, mul], "s32", a.shape, bound=INT32_WRAP, wrapped=True, pool=False)
    inc = g.splat("s32", a.shape, 12345)
    g.emit("add", [x, inc], "s32", a.shape, bound=INT32_WRAP, wrapped=True)
    g.features.add("s32-wrap")
    return True


def device_index(g: Gen, which: str) -> Val:
    """An s32 scalar: replica-id, partition-id or the flattened id r * P + p."""
    if which == "flattened":
        r = device_index(g, "replica")
        p = device_index(g, "partition")
        scale = g.constant("s32", g.partitions)
        rp = g.emit("multiply", [r, scale], "s32", (), bound=g.devices, pool=False)
        return g.emit("add", [rp, p], "s32", (), bound=g.devices - 1)
    opcode = "replica-id" if which == "replica" else "partition-id"
    raw = g.emit(opcode, [], "u32", (), inside="", pool=False)
    limit = (g.replicas if which == "replica" else g.partitions) - 1
    return g.emit("convert", [raw], "s32", (), bound=limit)


def _scaled_index(g: Gen, idx: Val, chunk: int, dim: int) -> Val:
    """id * chunk, sometimes + 1 (out of range on the last device: dynamic-slice clamps)."""
    if chunk > 1 or g.chance(0.3):
        c = g.constant("s32", chunk)
        idx = g.emit("multiply", [idx, c], "s32", (), bound=dim - chunk, pool=False)
    if g.chance(0.2):
        one = g.constant("s32", 1)
        idx = g.emit("add", [idx, one], "s32", (), bound=dim, pool=False)
        g.features.update(("ds-clamp", "ds-by-id-off-by-one"))
    return idx


def move_slice_by_id(g: Gen) -> bool:
    """x[id * chunk : (id + 1) * chunk] along dim 0 with the id of this device (JAX's
    axis_index idiom); sometimes off by one, which dynamic-slice clamps."""
    which = g.rng.choice(("replica", "partition", "flattened"))
    count = {"replica": g.replicas, "partition": g.partitions, "flattened": g.devices}[which]
    a = g.pick(lambda v: v.rank >= 1 and v.shape[0] % count == 0 and v.shape[0] >= count)
    if a is None or count == 1:
        return False
    chunk = a.shape[0] // count
    if chunk == 1 and which != "flattened" and g.chance(0.3):
        # The u32 id itself as the offset (every start index then u32).
        opcode = "replica-id" if which == "replica" else "partition-id"
        idx = g.emit(opcode, [], "u32", (), inside="", pool=False)
        zeros = [g.constant("u32", 0) for _ in a.shape[1:]]
        g.features.add("u32-index")
    else:
        idx = _scaled_index(g, device_index(g, which), chunk, a.shape[0])
        zeros = [g.constant("s32", 0) for _ in a.shape[1:]]
    sizes = (chunk, *a.shape[1:])
    _like(g, a, sizes, "dynamic-slice", [a, idx, *zeros], f"dynamic_slice_sizes={_dims(sizes)}")
    g.features.add("dynamic-slice-by-id")
    return True
