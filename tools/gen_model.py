"""Generate realistic SPMD training-step programs as XLA HLO text (per-partition, 8 partitions).

The program is what `jax.jit` + `shard_map` of a gradient-accumulation step looks like after
SPMD partitioning: an ENTRY computation whose parameters are the stacked microbatches and the
sharded weights of L layers, and a `while` loop over the microbatches whose body runs the L
layers. Per layer the body carries three tuple slots: the weight shard (passed through and
all-gathered), a gradient accumulator (`add(gte(acc), all-reduce(grad))`) and a stacked buffer
the reduce-scattered gradient is written into at the loop index (`dynamic-update-slice`). Each
layer also has non-movable collectives (an all-reduce with a `maximum` reducer whose result
feeds the computation, a collective-permute ring) and a random mix of elementwise / reshape /
transpose / reduce / convert / dot "filler" blocks sized so that the module has the requested
number of instructions (usually exactly; always within 5% for N >= 1000). The reducers
`%add_reducer` and `%max_reducer` are shared by every collective and reduce.

Usage:
    python tools/gen_model.py --ops 10000 [--seed 0] [--layers L] [--format hlo|mlir] [-o FILE]

`--format mlir` imports the HLO (`import_hlo`) and prints the module in MLIR generic form.
`generate_hlo(num_ops, seed)` is the reusable entry point (bench_import.py, tests).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from io import StringIO
from pathlib import Path

PARTITIONS = 8
BATCH = 16
"""Rows of one microbatch on one partition."""
HIDDEN = 64
"""Model width (divisible by PARTITIONS: weights are sharded along dimension 0)."""
MICROBATCHES = 4
"""While-loop trip count."""

GROUPS = "{{" + ",".join(str(i) for i in range(PARTITIONS)) + "}}"
RING = "{" + ",".join(f"{{{i},{(i + 1) % PARTITIONS}}}" for i in range(PARTITIONS)) + "}"


def shape(dims: Sequence[int], elem: str = "f32", layout: Sequence[int] | None = None) -> str:
    """`f32[16,64]{1,0}` (default descending layout unless `layout` is given); `f32[]` if rank 0."""
    if not dims:
        return f"{elem}[]"
    minor_to_major = layout if layout is not None else range(len(dims) - 1, -1, -1)
    return f"{elem}[{','.join(map(str, dims))}]{{{','.join(map(str, minor_to_major))}}}"


def tuple_shape(shapes: Sequence[str]) -> str:
    return "(" + ", ".join(shapes) + ")"


def strip_layout(text: str) -> str:
    """`(f32[4]{0}, s32[])` -> `(f32[4], s32[])`, as in computation signatures."""
    out: list[str] = []
    depth = 0
    for ch in text:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif depth == 0:
            out.append(ch)
    return "".join(out)


ACT = shape([BATCH, HIDDEN])
W_SHARD = shape([HIDDEN // PARTITIONS, HIDDEN])
W_FULL = shape([HIDDEN, HIDDEN])
RS_ROW = shape([1, HIDDEN // PARTITIONS, HIDDEN])
RS_BUF = shape([MICROBATCHES, HIDDEN // PARTITIONS, HIDDEN])
XS = shape([MICROBATCHES, BATCH, HIDDEN])
SCALAR_F = shape([])
SCALAR_I = shape([], "s32")


@dataclass
class _Module:
    """Module-wide state: unique instruction names, channel ids, source lines, the RNG."""

    rng: random.Random
    counter: int = 0
    channel: int = 0
    lines: dict[str, int] = field(default_factory=dict[str, int])
    next_line: int = 12

    def name(self, kind: str) -> str:
        self.counter += 1
        return f"%{kind}.{self.counter}"

    def channel_id(self) -> int:
        self.channel += 1
        return self.channel

    def source_line(self, key: str) -> int:
        """The same source construct (key) keeps its line in every layer, as in real traces."""
        line = self.lines.get(key)
        if line is None:
            line = self.lines[key] = self.next_line
            self.next_line += self.rng.randint(1, 4)
        return line


@dataclass
class _Computation:
    """Instruction lines of one computation, emitted in order (operands before users)."""

    module: _Module
    scope: str
    body: list[str] = field(default_factory=list[str])
    site: str = "main"
    """The source construct being emitted (a filler block's name): with the kind, it picks the
    `source_line`, which is the same in every layer since one `model.py` function makes them."""

    def emit(
        self, kind: str, ty: str, opcode: str, args: str, *, attrs: str = "", root: bool = False
    ) -> str:
        """Append `%kind.N = ty opcode(args), attrs, metadata={...}` and return `%kind.N`."""
        name = self.module.name(kind)
        op_name = f"jit(train)/{self.scope}/{kind}" if self.scope else f"jit(train)/{kind}"
        line = self.module.source_line(
            f"{self.scope.split('/')[-1].rstrip('0123456789')}{self.site}/{kind}"
        )
        meta = f'metadata={{op_name="{op_name}" source_file="model.py" source_line={line}}}'
        extra = f", {attrs}" if attrs else ""
        prefix = "ROOT " if root else ""
        self.body.append(f"  {prefix}{name} = {ty} {opcode}({args}){extra}, {meta}")
        return name

    def render(self, header: str) -> str:
        return header + " {\n" + "\n".join(self.body) + "\n}\n"


# --- filler blocks: each maps an f32[BATCH,HIDDEN] value to another, with a known op count ---

Block = Callable[[_Computation, str], str]


def _scale_tanh(c: _Computation, x: str) -> str:
    k = c.emit("constant", SCALAR_F, "constant", f"{c.module.rng.choice((0.5, 0.125, 2, 1.5))}")
    kb = c.emit("broadcast", ACT, "broadcast", k, attrs="dimensions={}")
    m = c.emit("mul", ACT, "multiply", f"{x}, {kb}")
    t = c.emit("tanh", ACT, "tanh", m)
    return c.emit("add", ACT, "add", f"{t}, {x}")


def _relu(c: _Computation, x: str) -> str:
    z = c.emit("constant", SCALAR_F, "constant", "0")
    zb = c.emit("broadcast", ACT, "broadcast", z, attrs="dimensions={}")
    return c.emit("max", ACT, "maximum", f"{x}, {zb}")


def _heads(c: _Computation, x: str) -> str:
    heads = [BATCH, PARTITIONS, HIDDEN // PARTITIONS]
    r = c.emit("reshape", shape(heads), "reshape", x)
    t = c.emit(
        "transpose",
        shape([BATCH, HIDDEN // PARTITIONS, PARTITIONS]),
        "transpose",
        r,
        attrs="dimensions={0,2,1}",
    )
    e = c.emit("exp", shape([BATCH, HIDDEN // PARTITIONS, PARTITIONS]), "exponential", t)
    return c.emit("reshape", ACT, "reshape", e)


def _normalize(c: _Computation, x: str) -> str:
    z = c.emit("constant", SCALAR_F, "constant", "0")
    s = c.emit(
        "reduce_sum",
        shape([BATCH]),
        "reduce",
        f"{x}, {z}",
        attrs="dimensions={1}, to_apply=%add_reducer",
    )
    sb = c.emit("broadcast", ACT, "broadcast", s, attrs="dimensions={0}")
    return c.emit("div", ACT, "divide", f"{x}, {sb}")


def _mixed_precision(c: _Computation, x: str) -> str:
    lo = c.emit("convert_element_type", shape([BATCH, HIDDEN], "bf16"), "convert", x)
    return c.emit("convert_element_type", ACT, "convert", lo)


def _projection(c: _Computation, x: str) -> str:
    k = c.emit("constant", SCALAR_F, "constant", "0.02")
    w = c.emit("broadcast", W_FULL, "broadcast", k, attrs="dimensions={}")
    d = c.emit(
        "dot_general",
        ACT,
        "dot",
        f"{x}, {w}",
        attrs="lhs_contracting_dims={1}, rhs_contracting_dims={0}",
    )
    return c.emit("sub", ACT, "subtract", f"{d}, {x}")


def _square(c: _Computation, x: str) -> str:
    return c.emit("integer_pow", ACT, "multiply", f"{x}, {x}")


_UNARY = (
    ("tanh", "tanh"),
    ("exp", "exponential"),
    ("neg", "negate"),
    ("logistic", "logistic"),
    ("abs", "abs"),
)

BLOCKS: tuple[tuple[int, Block], ...] = (
    (5, _scale_tanh),
    (3, _relu),
    (4, _heads),
    (4, _normalize),
    (2, _mixed_precision),
    (4, _projection),
    (1, _square),
)


def _fill(c: _Computation, x: str, budget: int) -> str:
    """Emit exactly `budget` instructions of random filler blocks on `x`."""
    rng = c.module.rng
    while budget > 0:
        fitting = [(n, b) for n, b in BLOCKS if n <= budget]
        n, block = rng.choice(fitting)
        c.site = block.__name__
        if n == 1:
            kind, opcode = rng.choice(_UNARY)
            x = c.emit(kind, ACT, opcode, x)
        else:
            x = block(c, x)
        budget -= n
    c.site = "main"
    return x


# --- the training step -----------------------------------------------------------------------


def _collective(kind: str, ty: str, opcode: str, c: _Computation, x: str, extra: str) -> str:
    channel = c.module.channel_id()
    attrs = f"channel_id={channel}, replica_groups={GROUPS}, use_global_device_ids=true{extra}"
    return c.emit(kind, ty, opcode, x, attrs=attrs)


def _gte(c: _Computation, tup: str, ty: str, slot: int) -> str:
    return c.emit("get-tuple-element", ty, "get-tuple-element", tup, attrs=f"index={slot}")


@dataclass(frozen=True)
class _Loop:
    """Values of the loop body shared by its layers."""

    body: _Computation
    param: str
    index: str
    zero: str


def _layer(loop: _Loop, layer: int, x: str, fill: int) -> tuple[str, list[str]]:
    """One layer: returns its output activation and its three new carried values."""
    c = _Computation(loop.body.module, f"while/body/layer_{layer}", loop.body.body)
    base = 2 + 3 * layer
    w = _gte(c, loop.param, W_SHARD, base)
    wf = _collective("all_gather", W_FULL, "all-gather", c, w, ", dimensions={0}")
    h = c.emit(
        "dot_general",
        ACT,
        "dot",
        f"{x}, {wf}",
        attrs="lhs_contracting_dims={1}, rhs_contracting_dims={0}",
    )
    h = _fill(c, h, fill)
    act = c.emit("tanh", ACT, "tanh", h)
    peak = _collective("pmax", ACT, "all-reduce", c, act, ", to_apply=%max_reducer")
    centered = c.emit("sub", ACT, "subtract", f"{act}, {peak}")
    e = c.emit("exp", ACT, "exponential", centered)
    shifted = c.emit(
        "ppermute",
        ACT,
        "collective-permute",
        e,
        attrs=f"channel_id={c.module.channel_id()}, source_target_pairs={RING}",
    )
    out = c.emit("add", ACT, "add", f"{shifted}, {x}")
    xt = c.emit(
        "transpose", shape([HIDDEN, BATCH], layout=[0, 1]), "transpose", x, attrs="dimensions={1,0}"
    )
    grad = c.emit(
        "dot_general",
        W_FULL,
        "dot",
        f"{xt}, {e}",
        attrs="lhs_contracting_dims={1}, rhs_contracting_dims={0}",
    )
    summed = _collective("psum", W_FULL, "all-reduce", c, grad, ", to_apply=%add_reducer")
    acc = _gte(c, loop.param, W_FULL, base + 1)
    new_acc = c.emit("add", W_FULL, "add", f"{acc}, {summed}")
    shard = _collective(
        "reduce_scatter",
        W_SHARD,
        "reduce-scatter",
        c,
        grad,
        ", dimensions={0}, to_apply=%add_reducer",
    )
    row = c.emit("broadcast_in_dim", RS_ROW, "reshape", shard)
    buf = _gte(c, loop.param, RS_BUF, base + 2)
    idx = f"{loop.index}, {loop.zero}, {loop.zero}"
    new_buf = c.emit("dynamic_update_slice", RS_BUF, "dynamic-update-slice", f"{buf}, {row}, {idx}")
    return out, [w, new_acc, new_buf]


def _carried_types(layers: int) -> list[str]:
    return [SCALAR_I, XS] + [W_SHARD, W_FULL, RS_BUF] * layers


def _body(m: _Module, layers: int, fills: Sequence[int]) -> str:
    carried = tuple_shape(_carried_types(layers))
    c = _Computation(m, "while/body")
    param = m.name("param")
    c.body.append(
        f'  {param} = {carried} parameter(0), metadata={{op_name="jit(train)/while/body"}}'
    )
    i = _gte(c, param, SCALAR_I, 0)
    one = c.emit("constant", SCALAR_I, "constant", "1")
    next_i = c.emit("add", SCALAR_I, "add", f"{i}, {one}")
    xs = _gte(c, param, XS, 1)
    zero = c.emit("constant", SCALAR_I, "constant", "0")
    loop = _Loop(c, param, i, zero)
    ds = c.emit(
        "dynamic_slice",
        shape([1, BATCH, HIDDEN]),
        "dynamic-slice",
        f"{xs}, {i}, {zero}, {zero}",
        attrs=f"dynamic_slice_sizes={{1,{BATCH},{HIDDEN}}}",
    )
    x = c.emit("squeeze", ACT, "reshape", ds)
    results = [next_i, xs]
    for layer in range(layers):
        x, carried_out = _layer(loop, layer, x, fills[layer])
        results.extend(carried_out)
    c.emit("tuple", carried, "tuple", ", ".join(results), root=True)
    return c.render(
        f"%train_body ({param[1:]}: {strip_layout(carried)}) -> {strip_layout(carried)}"
    )


def _cond(m: _Module, layers: int) -> str:
    carried = tuple_shape(_carried_types(layers))
    c = _Computation(m, "while/cond")
    param = m.name("param")
    c.body.append(
        f'  {param} = {carried} parameter(0), metadata={{op_name="jit(train)/while/cond"}}'
    )
    i = _gte(c, param, SCALAR_I, 0)
    trips = c.emit("constant", SCALAR_I, "constant", str(MICROBATCHES))
    c.emit("lt", shape([], "pred"), "compare", f"{i}, {trips}", attrs="direction=LT", root=True)
    return c.render(f"%train_cond ({param[1:]}: {strip_layout(carried)}) -> pred[]")


def _reducer(m: _Module, name: str, kind: str, opcode: str) -> str:
    c = _Computation(m, "")
    a = m.name("lhs")
    b = m.name("rhs")
    for p, number in ((a, 0), (b, 1)):
        c.body.append(f'  {p} = f32[] parameter({number}), metadata={{op_name="{kind}"}}')
    c.emit(kind, SCALAR_F, opcode, f"{a}, {b}", root=True)
    return c.render(f"%{name} ({a[1:]}: f32[], {b[1:]}: f32[]) -> f32[]")


def _entry(m: _Module, layers: int) -> tuple[str, str]:
    """The ENTRY computation and the module's entry_computation_layout."""
    c = _Computation(m, "")
    params = [m.name("xs")]
    c.body.append(
        f'  {params[0]} = {XS} parameter(0), sharding={{devices=[1,8,1]<=[8]}}, metadata={{op_name="xs"}}'
    )
    for layer in range(layers):
        p = m.name("param")
        params.append(p)
        c.body.append(
            f"  {p} = {W_SHARD} parameter({layer + 1}), sharding={{devices=[8,1]<=[8]}}, "
            f'metadata={{op_name="params[{layer}].w"}}'
        )
    zero_i = c.emit("constant", SCALAR_I, "constant", "0")
    zero_f = c.emit("constant", SCALAR_F, "constant", "0")
    init = [zero_i, params[0]]
    for layer in range(layers):
        acc = c.emit("broadcast_in_dim", W_FULL, "broadcast", zero_f, attrs="dimensions={}")
        buf = c.emit("broadcast_in_dim", RS_BUF, "broadcast", zero_f, attrs="dimensions={}")
        init += [params[layer + 1], acc, buf]
    carried = tuple_shape(_carried_types(layers))
    start = c.emit("tuple", carried, "tuple", ", ".join(init))
    loop = c.emit("while", carried, "while", start, attrs="condition=%train_cond, body=%train_body")
    lr = c.emit("constant", SCALAR_F, "constant", "0.001")
    lrb = c.emit("broadcast_in_dim", W_FULL, "broadcast", lr, attrs="dimensions={}")
    outs: list[str] = []
    bufs: list[str] = []
    for layer in range(layers):
        acc = _gte(c, loop, W_FULL, 3 + 3 * layer)
        outs.append(c.emit("mul", W_FULL, "multiply", f"{acc}, {lrb}"))
        bufs.append(_gte(c, loop, RS_BUF, 4 + 3 * layer))
    out_types = [W_FULL] * layers + [RS_BUF] * layers
    c.emit("tuple", tuple_shape(out_types), "tuple", ", ".join(outs + bufs), root=True)
    in_types = [XS] + [W_SHARD] * layers
    signature = ", ".join(
        f"{p[1:]}: {strip_layout(t)}" for p, t in zip(params, in_types, strict=True)
    )
    header = f"ENTRY %train_step ({signature}) -> {strip_layout(tuple_shape(out_types))}"
    layout = f"{{{tuple_shape(in_types)}->{tuple_shape(out_types)}}}"
    return c.render(header), layout


def _render(seed: int, layers: int, fills: Sequence[int]) -> str:
    m = _Module(random.Random(seed))
    add = _reducer(m, "add_reducer", "add", "add")
    mx = _reducer(m, "max_reducer", "max", "maximum")
    body = _body(m, layers, fills)
    cond = _cond(m, layers)
    entry, layout = _entry(m, layers)
    header = (
        f"HloModule jit_train, entry_computation_layout={layout}, num_partitions={PARTITIONS}\n\n"
    )
    return header + "\n".join((add, mx, body, cond, entry))


def count_instructions(text: str) -> int:
    """HLO instructions: lines with ` = ` (every instruction line, nothing else)."""
    return sum(1 for line in text.splitlines() if " = " in line)


def default_layers(num_ops: int) -> int:
    """~sqrt(N)/5 layers: 6 at 1k ops, 20 at 10k, 63 at 100k (layers grow with the model)."""
    return max(1, round(math.sqrt(num_ops) / 5))


def generate_hlo(num_ops: int, seed: int = 0, layers: int | None = None) -> str:
    """An SPMD training step of about `num_ops` HLO instructions (exact when reachable)."""
    count = layers if layers is not None else default_layers(num_ops)
    base = count_instructions(_render(seed, count, [0] * count))
    while count > 1 and base > num_ops and layers is None:
        count -= 1
        base = count_instructions(_render(seed, count, [0] * count))
    extra = max(0, num_ops - base)
    fills = [extra // count + (1 if i < extra % count else 0) for i in range(count)]
    return _render(seed, count, fills)


def to_generic_mlir(hlo_text: str) -> str:
    """Import the HLO and print the module in MLIR generic form."""
    from xdsl.printer import Printer

    from neuron_cc.translate.hlo_text.importer import import_hlo

    module = import_hlo(hlo_text, "<generated>")
    out = StringIO()
    Printer(stream=out, print_generic_format=True).print_op(module)
    out.write("\n")
    return out.getvalue()


def main(argv: Sequence[str] | None = None) -> None:
    cli = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    cli.add_argument(
        "--ops", type=int, default=1000, help="number of HLO instructions (1000, 10000, 100000)"
    )
    cli.add_argument("--seed", type=int, default=0)
    cli.add_argument("--layers", type=int, default=None, help="override the number of layers")
    cli.add_argument("--format", choices=("hlo", "mlir"), default="hlo")
    cli.add_argument("-o", "--output", type=Path, default=None)
    args = cli.parse_args(argv)
    text = generate_hlo(args.ops, args.seed, args.layers)
    if args.format == "mlir":
        text = to_generic_mlir(text)
    if args.output is None:
        sys.stdout.write(text)
    else:
        args.output.write_text(text)


if __name__ == "__main__":
    main()
