"""Export an hlo-dialect module as XLA HLO text (the contract: notes/HLO_MAPPING.md).

`export_hlo(module)` prints XLA's current text style:

```
HloModule jit_f, entry_computation_layout={(f32[4]{0})->f32[4]{0}}, replica_count=1, num_partitions=1

%region_0 (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %add = f32[] add(%x, %y)
}

ENTRY %main (p: f32[4]) -> f32[4] {
  %p = f32[4]{0} parameter(0)
  ROOT %all-reduce = f32[4]{0} all-reduce(%p), replica_groups={}, to_apply=%region_0
}
```

- Every `func.func` becomes a computation; the entry one (attribute `hlo.entry`, else `@main`)
  is printed last with `ENTRY`. Callees of `hlo.call` are printed before their callers.
- Every region (reducer, while condition/body, conditional branch, comparator) becomes a
  computation `%region_<k>` printed before its user; regions that print identically (up to
  value names) share one computation.
- Instruction names are unique across the module: a value's SSA name hint when it has one
  (made unique with `.1`, `.2`, ... suffixes, like XLA's NameUniquer), else the opcode
  (`%add`, `%add.1`). Block arguments without a hint are `%param...`. Characters XLA does not
  allow become `_`, and names that spell an XLA type (`pred`, `s1`, `f32`) get a `_` suffix.
- Layouts are XLA's default unless an `xla.shape` attribute (or a bitcast `layout`) says
  otherwise; every other `xla.<key>` attribute is printed back as `key=value`.

Anything XLA cannot express (ops of other dialects, captured values other than constants,
multi-block regions, ...) raises `ExportError`.

Implementation: each computation is first printed as a template in which values are written
`\\0<local index>\\0`; the template with the instructions' base names is the deduplication key
of regions, and the final text substitutes module-unique names once. Everything is linear in the module size.
The per-op path avoids xDSL's generic accessors and ABC `isinstance` checks where it can: values
are indexed by `id()`, shape texts are cached per type object and small literal texts per
(type object, bytes) for one export, and the printable attribute keys and bitcast op classes
are remembered per process (tests/test_export_speed_caches.py shows none goes stale).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    TensorType,
    i1,
)
from xdsl.dialects.func import FuncOp
from xdsl.dialects.func import ReturnOp as FuncReturnOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from neuron_cc.dialects.hlo import (
    HLO,
    control_flow,
    data_movement,
    elementwise,
    elementwise_misc,
    p2p,
)
from neuron_cc.translate.hlo_text import export_ops, export_side_effects, export_structured
from neuron_cc.translate.hlo_text.export_collectives import COLLECTIVE_HANDLERS
from neuron_cc.translate.hlo_text.export_text import (
    NAMING_ATTRS,
    REFERENCE,
    SKIP_ARG_ATTRS,
    SKIP_OP_ATTRS,
    ExportError,
    UniqueNames,
    dims_text,
    instruction_name,
    int_value,
    opcode_of,
    raw_value,
    sanitize_name,
    substitute_names,
    xla_attrs,
)
from neuron_cc.translate.hlo_text.shapes import (
    API_VERSIONS,
    ShapeError,
    escape_string,
    literal_text,
    shape_matches,
    shape_text,
)

__all__ = ["EXECUTION_THREAD", "OPCODES", "ExportError", "export_hlo"]

EXECUTION_THREAD = "xla.execution_thread"
"""Function attribute: the computation's `execution_thread` (absent: the main thread)."""


_ALL_OPS: list[type[Operation]] = list(HLO.operations)
"""Every op of the dialect (one list: the dialect's)."""
OPCODES: dict[str, str] = {
    cls.name: opcode_of(cls.name) for cls in _ALL_OPS if cls is not control_flow.ReturnOp
}
"""hlo op name -> XLA opcode (`hlo.call` prints as `fusion` when it has `xla.fusion_kind`)."""


# --- computations ----------------------------------------------------------------------------


_CACHED_LITERAL_BYTES = 64
"""Literals of at most this many bytes are cached (scalars and small splats repeat a lot)."""


def _literal_text(value: DenseIntOrFPElementsAttr, what: str) -> str:
    """`literal_text(value)`, its ShapeError as an ExportError."""
    try:
        return literal_text(value)
    except ShapeError as e:
        raise ExportError(f"cannot export hlo.constant in {what}: {e}") from e


_BITCAST_TYPES: dict[type[Operation], bool] = {}
"""Op class -> whether it is a bitcast (`isinstance` of xDSL's ABC-based classes is slow)."""


def _is_bitcast(op: Operation) -> bool:
    """`isinstance(op, BitcastOp)`, memoized per op class."""
    cls = type(op)
    known = _BITCAST_TYPES.get(cls)
    if known is None:
        known = _BITCAST_TYPES[cls] = issubclass(cls, data_movement.BitcastOp)
    return known


_PLAIN_KEYS: dict[str, str] = {}
"""Op attribute key -> `, <key>=` (without `xla.`), for the keys seen so far that print as
`key=value` on every op (not skipped, not naming instructions, not `xla.backend_config`)."""


def _more_marks(marks: list[str], i: int) -> None:
    """Extend the table of template references `%\\0<k>\\0` past index `i`."""
    marks.extend([f"%\0{k}\0" for k in range(len(marks), 2 * i + 64)])


def _single_block(region: Region) -> Block | None:
    """The block of `region` if it has exactly one (`region.blocks` counts by iterating)."""
    block = region.first_block
    return block if block is not None and block is region.last_block else None


def _custom_call_config(op: Operation) -> bool:
    """Whether `op` is a custom call whose handler prints its `backend_config`."""
    return isinstance(op, control_flow.CustomCallOp) and op.backend_config is not None


class _Builder:
    """Prints one computation as a template (values are `\\0<index>\\0`)."""

    def __init__(self, exporter: _Exporter, what: str, is_region: bool) -> None:
        self.x = exporter
        self.what = what
        self.is_region = is_region
        self.lines: list[str] = []
        self.index: dict[int, int] = {}
        """`id()` of a defined value -> its local index (the module keeps the values alive;
        `SSAValue.__hash__` is a Python-level call, an `id` is not)."""
        self.marks = exporter.marks
        self.shape_cache = exporter.shape_cache
        self.bases: list[str] = []
        self.shapes: list[tuple[str, str]] = []
        self.params: list[int] = []
        self.op_name = what
        self.root = -1
        self.hlo_names: list[str | None] = []
        """Local index -> the HLO name of its SSA name hint (None: no hint)."""
        self.by_hint: dict[str, int] = {}
        """HLO name of an SSA name hint -> local index, of the first `self.hinted` instructions
        (filled when an attribute names instructions)."""
        self.hinted = 0

    def define(
        self, value: SSAValue | None, base: str | None, shapes: tuple[str, str], rhs: str
    ) -> int:
        """Add the instruction `%value = <shape> <rhs>` and return its local index; it is
        named by the value's hint, else `base`, else the opcode that `rhs` starts with."""
        i = len(self.bases)
        name = None
        if value is not None:
            self.index[id(value)] = i
            hint = value.name_hint
            if hint is not None:
                name, base = instruction_name(hint)
        if base is None:
            base = rhs[: rhs.index("(")]
        self.hlo_names.append(name)
        marks = self.marks
        if i >= len(marks):
            _more_marks(marks, i)
        mark = marks[i]
        self.bases.append(base)
        self.shapes.append(shapes)
        self.lines.append(f"  {mark} = {shapes[0]} {rhs}")
        return i

    def local(self, value: SSAValue) -> int:
        """The local index of `value` (a constant a region captures is cloned into it)."""
        i = self.index.get(id(value))
        if i is not None:
            return i
        owner = value.owner
        if self.is_region and isinstance(owner, elementwise_misc.ConstantOp):
            return self.emit(owner)  # XLA computations cannot capture: clone the constant
        raise ExportError(
            f"{self.op_name} in {self.what} uses a value defined outside it; "
            "XLA computations cannot capture values"
        )

    def ref(self, value: SSAValue) -> str:
        """The template reference of `value`."""
        i = self.index.get(id(value))
        return self.marks[self.local(value) if i is None else i]

    def refs(self, values: Iterable[SSAValue]) -> str:
        """The template references of `values`, comma separated."""
        index, marks = self.index, self.marks
        try:
            return ", ".join([marks[index[id(v)]] for v in values])
        except KeyError:  # a value defined outside: redo one by one (clones a constant)
            return ", ".join([self.ref(v) for v in values])

    def region_name(self, region: Region, op: Operation) -> str:
        return self.x.region(region, op, self.what)

    def add_params(self, block: Block, arg_attrs: ArrayAttr[DictionaryAttr] | None) -> None:
        attrs = arg_attrs.data if arg_attrs is not None else ()
        for n, arg in enumerate(block.args):
            if n < len(attrs) and attrs[n].data:
                extra = attrs[n].data
                shapes = self.x.shapes(
                    arg.type, extra.get("xla.shape"), f"argument {n} of {self.what}"
                )
                extras = xla_attrs(extra, SKIP_ARG_ATTRS, f"argument {n} of {self.what}")
            else:  # no attributes (every region parameter)
                shapes = self.x.shapes(arg.type, None, f"argument {n} of {self.what}")
                extras = ""
            self.params.append(self.define(arg, "param", shapes, f"parameter({n}){extras}"))

    def emit(self, op: Operation) -> int:
        """Add the instruction of `op` and return its local index."""
        name = op.name
        handler = _HANDLERS.get(name)
        if handler is None:
            why = "not an hlo op" if not name.startswith("hlo.") else "misplaced terminator"
            raise ExportError(f"cannot export {name} in {self.what}: {why}")
        results = op.results
        if len(results) != 1:
            raise ExportError(f"cannot export {name} in {self.what}: expected one result")
        outer, self.op_name = self.op_name, name
        rhs = handler(self, op)
        (result,) = results  # (not `results[0]`: SSAValues.__getitem__ is Python code)
        attributes = op.attributes
        t = result.type
        stored = attributes.get("xla.shape") if attributes else None
        entry = self.shape_cache.get(id(t))
        if entry is None or stored is not None or _BITCAST_TYPES.get(type(op)) is not False:
            shapes = self.x.result_shapes(op, t, stored, self.what)  # (fills _BITCAST_TYPES)
        else:
            shapes = entry[1]
        if attributes:
            rhs += self.attributes_text(op, attributes)
        self.op_name = outer
        return self.define(result, None, shapes, rhs)

    def attributes_text(self, op: Operation, attributes: Mapping[str, Attribute]) -> str:
        """`, key=value` for every raw `xla.<key>` attribute of `op`, in order, then those
        that name instructions (their `%name`s renamed)."""
        parts: list[str] = []
        naming = False
        for key, value in attributes.items():
            prefix = _PLAIN_KEYS.get(key)
            if prefix is not None and type(value) is StringAttr and "\0" not in value.data:
                parts.append(prefix + value.data)  # what raw_value returns for it
            elif key in NAMING_ATTRS:
                naming = True
            elif not key.startswith("xla.") or key in SKIP_OP_ATTRS:
                continue
            elif key == "xla.backend_config" and _custom_call_config(op):
                continue  # printed by the handler
            else:
                prefix = f", {key[4:]}="
                parts.append(prefix + raw_value(key, value, f"{op.name} in {self.what}"))
                if key != "xla.backend_config":
                    _PLAIN_KEYS[key] = prefix
        if naming:
            owner = f"{op.name} in {self.what}"
            for key in NAMING_ATTRS & attributes.keys():
                raw = raw_value(key, attributes[key], owner)
                parts.append(f", {key[4:]}={self.rename_references(raw, owner)}")
        return "".join(parts)

    def rename_references(self, raw: str, owner: str) -> str:
        """Point `%name` references (by SSA name hint) at the instructions' exported names."""

        by_hint = self.by_hint
        for i in range(self.hinted, len(self.hlo_names)):
            name = self.hlo_names[i]
            if name is not None:
                by_hint[name] = i
        self.hinted = len(self.hlo_names)

        def rename(m: re.Match[str]) -> str:
            i = by_hint.get(m.group(1))
            if i is None:
                raise ExportError(f"{owner} refers to %{m.group(1)}, not defined before it")
            return f"%\0{i}\0"

        return REFERENCE.sub(rename, raw)

    def emit_block(self, block: Block, terminator: type[Operation]) -> Sequence[SSAValue]:
        """Emit every op of `block` and return the values its terminator returns."""
        last = block.last_op
        if not isinstance(last, terminator):
            raise ExportError(f"{self.what} must end in {terminator.name}")
        op = block.first_op
        while op is not last and op is not None:
            self.emit(op)
            op = op.next_op
        return last.operands

    def finish_lines(self, results: Sequence[SSAValue]) -> str:
        """Mark the ROOT (a tuple of `results` unless there is exactly one) and return the
        signature template `(params) -> shape`; the body stays in `self.lines`."""
        if len(results) == 1:
            root = self.local(results[0])
        else:
            indices = [self.local(v) for v in results]
            shapes = (
                "(" + ", ".join(self.shapes[i][0] for i in indices) + ")",
                "(" + ", ".join(self.shapes[i][1] for i in indices) + ")",
            )
            operands = ", ".join(f"%\0{i}\0" for i in indices)
            root = self.define(None, "tuple", shapes, f"tuple({operands})")
        k = root  # one line per defined value, in definition order
        self.lines[k] = "  ROOT " + self.lines[k][2:]
        signature = ", ".join(f"\0{i}\0: {self.shapes[i][1]}" for i in self.params)
        self.root = root
        return f"({signature}) -> {self.shapes[root][1]}"


class _Exporter:
    def __init__(self, module: ModuleOp) -> None:
        self.module = module
        self.instruction_names = UniqueNames()
        self.computation_names = UniqueNames()
        self.shape_cache: dict[int, tuple[Attribute, tuple[str, str]]] = {}
        self.marks: list[str] = []
        """Local index -> its template reference `%\\0<index>\\0` (shared by all builders)."""
        self.stored_cache: dict[tuple[str, int], bool] = {}
        self.literal_cache: dict[tuple[int, bytes], tuple[Attribute, str]] = {}
        self.computations: list[list[str]] = []
        self.regions: dict[bytes, str] = {}
        self.funcs: dict[str, FuncOp] = {}
        self.func_names: dict[str, str] = {}
        self.emitted: set[str] = set()
        self.in_progress: set[str] = set()
        self.entry_layout = "()->()"
        self.entry_symbol = ""

    # shapes

    def shapes(self, t: Attribute, stored: Attribute | None, owner: str) -> tuple[str, str]:
        """(shape with layout, shape without layout) of a value of type `t`."""
        # Keyed by identity (hashing attributes is slow); the entry keeps `t` alive.
        entry = self.shape_cache.get(id(t))
        if entry is None:
            try:
                texts = (shape_text(t), shape_text(t, layout=False))
            except ShapeError as e:
                raise ExportError(f"cannot export {owner}: {e}") from e
            entry = self.shape_cache[id(t)] = (t, texts)
        if stored is not None and isinstance(stored, StringAttr):  # (None: no ABC check)
            key = (stored.data, id(t))
            matches = self.stored_cache.get(key)
            if matches is None:
                matches = self.stored_cache[key] = shape_matches(stored.data, t)
            if matches:
                return (stored.data, entry[1][1])
        return entry[1]

    def result_shapes(
        self, op: Operation, t: Attribute, stored: Attribute | None, what: str
    ) -> tuple[str, str]:
        """`shapes` of the result of `op` (type `t`, `xla.shape` attribute `stored`)."""
        entry = self.shape_cache.get(id(t))
        if entry is not None and stored is None:
            shapes = entry[1]
        else:
            shapes = self.shapes(t, stored, f"{op.name} in {what}")
        if (
            _is_bitcast(op)
            and isinstance(op, data_movement.BitcastOp)
            and op.layout is not None
            and shapes[0] == self.shape_cache[id(t)][1][0]
            and op.layout.data
        ):
            return (shapes[1] + dims_text(op.layout.data), shapes[1])
        return shapes

    def literal(self, value: DenseIntOrFPElementsAttr, what: str) -> str:
        """`literal_text(value)`; small literals are cached by (type, bytes), which is all the
        text depends on (keyed by the type's identity: the entry keeps the type alive)."""
        data = value.data.data
        if len(data) > _CACHED_LITERAL_BYTES or type(value) is not DenseIntOrFPElementsAttr:
            return _literal_text(value, what)
        t = value.type
        key = (id(t), data)
        entry = self.literal_cache.get(key)
        if entry is None:
            entry = self.literal_cache[key] = (t, _literal_text(value, what))
        return entry[1]

    # computations

    def finalize_lines(
        self, builder: _Builder, header: str, name: str, entry: bool, closing: str = "}"
    ) -> None:
        """Name the instructions of `builder`'s computation and add its text, substituting
        line by line, in place, so no whole-computation template string is ever built (peak
        memory)."""
        names = self.instruction_names.unique_all(builder.bases)
        prefix = "ENTRY %" if entry else "%"
        lines = builder.lines
        for i, line in enumerate(lines):
            lines[i] = substitute_names(line, names)
        lines.insert(0, f"{prefix}{name} {substitute_names(header, names)} {{")
        lines.append(closing)
        self.computations.append(lines)

    def region(self, region: Region, op: Operation, what: str) -> str:
        """The name of the computation printed for `region` of `op`."""
        block = _single_block(region)
        if block is None:
            raise ExportError(f"{op.name} in {what} needs a single-block region")
        builder = _Builder(self, f"a region of {op.name}", is_region=True)
        builder.add_params(block, None)
        results = builder.emit_block(block, control_flow.ReturnOp)
        header = builder.finish_lines(results)
        # Regions that are the same computation under the same names share one; regions whose
        # instructions are named apart (each imported reducer) keep their own, and so their names.
        # The key is a digest of the template and the names' bases, fed line by line: a loop
        # body of 100k instructions never becomes one string (nor two, key and text).
        digest = hashlib.blake2b(header.encode(), digest_size=24)
        for line in builder.lines:
            digest.update(b"\n")
            digest.update(line.encode())
        digest.update("\0".join(["", *builder.bases]).encode())
        key = digest.digest()
        name = self.regions.get(key)
        if name is None:
            name = self.computation_names.unique(f"region_{len(self.regions)}")
            self.regions[key] = name
            self.finalize_lines(builder, header, name, entry=False)
        return name

    def callee(self, symbol: str, caller: str) -> str:
        """The computation name of func `@symbol`, printing the func first if needed."""
        name = self.func_names.get(symbol)
        if name is None:
            raise ExportError(f"{caller} calls @{symbol}, which is not a func.func of the module")
        if symbol in self.in_progress:
            raise ExportError(f"{caller} calls @{symbol} recursively; XLA has no recursion")
        if symbol not in self.emitted:
            self.function(self.funcs[symbol], entry=symbol == self.entry_symbol)
        return name

    def function(self, func: FuncOp, entry: bool) -> None:
        symbol = func.sym_name.data
        what = f"@{symbol}"
        block = _single_block(func.body)
        if block is None:
            raise ExportError(f"{what} must have exactly one block (no declarations)")
        self.in_progress.add(symbol)
        builder = _Builder(self, what, is_region=False)
        builder.add_params(block, func.arg_attrs)
        results = builder.emit_block(block, FuncReturnOp)
        header = builder.finish_lines(results)
        closing = "}"
        thread = func.attributes.get(EXECUTION_THREAD)
        if isinstance(thread, StringAttr):
            closing += f', execution_thread="{escape_string(thread.data)}"'
        self.finalize_lines(builder, header, self.func_names[symbol], entry, closing)
        self.in_progress.discard(symbol)
        self.emitted.add(symbol)
        if entry:
            params = ", ".join(builder.shapes[i][0] for i in builder.params)
            self.entry_layout = f"({params})->{builder.shapes[builder.root][0]}"

    # module

    def collect_funcs(self) -> FuncOp:
        """Register every func.func and return the entry one."""
        for op in self.module.ops:
            if not isinstance(op, FuncOp):
                raise ExportError(f"cannot export {op.name}: only func.func may sit in the module")
            symbol = op.sym_name.data
            self.funcs[symbol] = op
            self.func_names[symbol] = self.computation_names.unique(sanitize_name(symbol))
        entries = [f for f in self.funcs.values() if "hlo.entry" in f.attributes]
        if len(entries) > 1:
            raise ExportError("more than one func.func carries hlo.entry")
        if entries:
            return entries[0]
        if "main" in self.funcs:
            return self.funcs["main"]
        if len(self.funcs) == 1:
            return next(iter(self.funcs.values()))
        raise ExportError(
            "no entry computation: mark one func.func with hlo.entry or name it @main"
        )

    def header(self) -> str:
        attrs = self.module.attributes
        name = self.module.sym_name.data if self.module.sym_name is not None else "module"
        parts = [
            f"HloModule {sanitize_name(name)}",
            f"entry_computation_layout={{{self.entry_layout}}}",
            f"replica_count={self.count('hlo.num_replicas')}",
            f"num_partitions={self.count('hlo.num_partitions')}",
        ]
        config = attrs.get("xla.module_config")
        if isinstance(config, DictionaryAttr):
            skip = ("entry_computation_layout", "replica_count", "num_partitions")
            parts += [
                f"{k}={raw_value(k, v, 'xla.module_config')}"
                for k, v in config.data.items()
                if k not in skip
            ]
        return ", ".join(parts)

    def count(self, key: str) -> int:
        value = self.module.attributes.get(key)
        if value is None:
            return 1
        if not isinstance(value, IntegerAttr):
            raise ExportError(f"module attribute {key} must be an integer, got {value}")
        return int_value(value)

    def export(self) -> str:
        return "\n".join(self.export_lines())

    def export_lines(self) -> list[str]:
        """The HLO text as lines (joined by newlines it is `export()`; writers can stream them
        without building the whole text: a 100k-op module is tens of MB)."""
        entry = self.collect_funcs()
        self.entry_symbol = entry.sym_name.data
        for symbol, func in self.funcs.items():
            if func is not entry and symbol not in self.emitted:
                self.function(func, entry=False)
        if self.entry_symbol not in self.emitted:
            self.function(entry, entry=True)
        chunks = [self.header()]
        frames = self.module.attributes.get("xla.stack_frames")
        if isinstance(frames, StringAttr) and frames.data.strip():
            chunks.append(frames.data.strip("\n"))
        pieces: list[str] = []
        for chunk in chunks:
            pieces += (chunk, "")
        for lines in self.computations:
            pieces += lines
            pieces.append("")
        self.computations = []
        return pieces


def export_hlo(module: ModuleOp) -> str:
    """XLA HLO text of `module` (raises ExportError for what XLA cannot express)."""
    return _Exporter(module).export()


def export_hlo_lines(module: ModuleOp) -> list[str]:
    """`export_hlo(module)` as a list of lines (to be joined with newlines)."""
    return _Exporter(module).export_lines()


# --- instruction handlers: op -> `opcode(operands), attr=value, ...` --------------------------

_Handler = Callable[[_Builder, Any], str]


def _simple(b: _Builder, op: Operation) -> str:
    return f"{OPCODES[op.name]}({b.refs(op._operands)})"  # (no OpOperands view: hot)


def _channel(b: _Builder, op: p2p.SendOp | p2p.SendDoneOp | p2p.RecvOp | p2p.RecvDoneOp) -> str:
    text = f"{OPCODES[op.name]}({b.refs(op.operands)}), channel_id={int_value(op.channel_id)}"
    if op.is_host_transfer is not None:
        text += ", is_host_transfer=true"
    return text


def _get_tuple_element(b: _Builder, op: control_flow.GetTupleElementOp) -> str:
    return f"get-tuple-element({b.ref(op.tuple_)}), index={int_value(op.index)}"


def _while(b: _Builder, op: control_flow.WhileOp) -> str:
    condition = b.x.region(op.condition, op, b.what)
    body = b.x.region(op.body, op, b.what)
    return f"while({b.ref(op.init)}), condition=%{condition}, body=%{body}"


def _conditional(b: _Builder, op: control_flow.ConditionalOp) -> str:
    names = [b.x.region(r, op, b.what) for r in op.branches]
    head = f"conditional({b.refs(op.operands)})"
    index_type = op.index.type
    if isinstance(index_type, TensorType) and index_type.element_type == i1:
        return f"{head}, true_computation=%{names[0]}, false_computation=%{names[1]}"
    return f"{head}, branch_computations={{{', '.join('%' + n for n in names)}}}"


def _call(b: _Builder, op: control_flow.CallOp) -> str:
    callee = b.x.callee(op.callee.root_reference.data, f"{op.name} in {b.what}")
    args = b.refs(op.args)
    kind = op.attributes.get("xla.fusion_kind")
    if kind is None:
        return f"call({args}), to_apply=%{callee}"
    if not isinstance(kind, StringAttr):
        raise ExportError(f"xla.fusion_kind of {op.name} in {b.what} must be a string")
    return f"fusion({args}), kind={kind.data}, calls=%{callee}"


def _custom_call(b: _Builder, op: control_flow.CustomCallOp) -> str:
    parts = [
        f"custom-call({b.refs(op.inputs)})",
        f'custom_call_target="{escape_string(op.call_target_name.data)}"',
    ]
    if op.has_side_effect is not None:
        parts.append("custom_call_has_side_effect=true")
    if op.backend_config is not None:
        parts.append(f'backend_config="{escape_string(op.backend_config.data)}"')
    if op.api_version is not None:
        version = API_VERSIONS.get(int_value(op.api_version))
        if version is None:
            raise ExportError(
                f"custom_call api_version {int_value(op.api_version)} in {b.what} is not one of "
                f"{sorted(API_VERSIONS)}"
            )
        parts.append(f"api_version={version}")
    return ", ".join(parts)


def _constant(b: _Builder, op: elementwise_misc.ConstantOp) -> str:
    return f"constant({b.x.literal(op.value, b.what)})"


def _iota(b: _Builder, op: elementwise_misc.IotaOp) -> str:
    return f"iota(), iota_dimension={int_value(op.iota_dimension)}"


def _compare(b: _Builder, op: elementwise_misc.CompareOp) -> str:
    text = f"compare({b.ref(op.lhs)}, {b.ref(op.rhs)}), direction={op.direction.data.value}"
    if op.compare_type is not None:
        text += f", type={op.compare_type.data.value}"
    return text


def _reduce_precision(b: _Builder, op: elementwise.ReducePrecisionOp) -> str:
    return (
        f"reduce-precision({b.ref(op.operand)}), exponent_bits={int_value(op.exponent_bits)}, "
        f"mantissa_bits={int_value(op.mantissa_bits)}"
    )


_SIMPLE_OPS: list[type[Operation]] = [
    *(op for op in elementwise.UNARY_OPS if op is not elementwise.ReducePrecisionOp),
    *elementwise.BINARY_OPS,
    elementwise_misc.SelectOp,
    elementwise_misc.ClampOp,
    elementwise_misc.ConvertOp,
    elementwise_misc.BitcastConvertOp,
    data_movement.ReshapeOp,
    data_movement.BitcastOp,
    data_movement.CopyOp,
    data_movement.DynamicUpdateSliceOp,
    control_flow.TupleOp,
    control_flow.OptimizationBarrierOp,
    control_flow.AfterAllOp,
    p2p.PartitionIdOp,
    p2p.ReplicaIdOp,
]
_SPECIAL_HANDLERS: dict[type[Operation], _Handler] = {
    **COLLECTIVE_HANDLERS,
    p2p.SendOp: _channel,
    p2p.SendDoneOp: _channel,
    p2p.RecvOp: _channel,
    p2p.RecvDoneOp: _channel,
    control_flow.GetTupleElementOp: _get_tuple_element,
    control_flow.WhileOp: _while,
    control_flow.ConditionalOp: _conditional,
    control_flow.CallOp: _call,
    control_flow.CustomCallOp: _custom_call,
    elementwise_misc.ConstantOp: _constant,
    elementwise_misc.IotaOp: _iota,
    elementwise_misc.CompareOp: _compare,
    elementwise.ReducePrecisionOp: _reduce_precision,
}
_HANDLERS: dict[str, _Handler] = {
    **{cls.name: _simple for cls in _SIMPLE_OPS},
    **{cls.name: handler for cls, handler in _SPECIAL_HANDLERS.items()},
    **export_ops.HANDLERS,
    **export_structured.HANDLERS,
    **export_side_effects.HANDLERS,
}
