"""Import XLA HLO text into the hlo dialect (phase 2: records -> IR). See notes in README.

`import_hlo(text, name)` parses with `HloTextParser` and builds IR directly (no .mlir text in
between): the ENTRY computation and every computation reached by `call`/`fusion` become
`func.func`s; computations used as `to_apply`/`condition`/`body`/branches are cloned into the
regions of their users; instruction names become SSA name hints; attributes the dialect does
not model are kept verbatim as `xla.<key>` string attributes so export reproduces them, except
`sharding=`, which becomes an `xla.sharding = #hlo.sharding<...>` attribute (raw text if it
does not parse).

Refusals follow XLA's parser (tests/test_hlo_import_refusals.py measures each against it):
literals as `literals.py` reads them, layouts as `layouts.py`, the module header's keys and
values and `result_accuracy` as `values.py` (kept raw once checked), and a declared operand
shape (`f32[4] %a`) must be the operand's shape. Each refusal is a located `HloImportError`.

Differences from XLA's own parser: mesh-axes replica groups are expanded to explicit groups;
`entry_computation_layout` is recomputed on export; when the header has no `num_partitions`
but names an sdy mesh, the mesh size is used; `hlo.use_spmd_partitioning` is set when
num_partitions > 1. Refused although XLA's parser accepts them: elided constants (unless
allowed), layouts that are not a permutation of the dimensions (XLA's layout validation refuses
them later), and whatever the verifier refuses. Accepted although XLA's parser refuses it: a
`{}` layout on a scalar (`f32[]{}`, older dumps).
"""

from __future__ import annotations

import gc
import re
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    TensorType,
    TupleType,
    UnitAttr,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import IRDLOperation, VariadicDef

from neuron_cc.dialects.hlo import HLO
from neuron_cc.dialects.hlo.attributes import DimensionsAttr
from neuron_cc.dialects.hlo.combined_permute import CombinedCollectivePermuteOp
from neuron_cc.dialects.hlo.control_flow import ReturnOp, TupleOp
from neuron_cc.dialects.hlo.data_movement import ReshapeOp, SliceOp
from neuron_cc.dialects.hlo.elementwise_misc import ConstantOp
from neuron_cc.dialects.hlo.in_place_permute import InPlaceCollectivePermuteOp
from neuron_cc.dialects.hlo.types import is_pred_type
from neuron_cc.dialects.replica_groups import (
    NUM_PARTITIONS_ATTR,
    NUM_REPLICAS_ATTR,
    USE_SPMD_ATTR,
)
from neuron_cc.dialects.sharding import ShardingAttr, ShardingSyntaxError
from neuron_cc.translate.hlo_text import attrs as A
from neuron_cc.translate.hlo_text.attr_checks import (
    check_operand_layout_constraints,
    check_record_attrs,
)
from neuron_cc.translate.hlo_text.attrs import AttrError
from neuron_cc.translate.hlo_text.builders import (
    OPCODE_PROPERTIES,
    REGION_KEYS,
    Consumer,
    op_name,
)
from neuron_cc.translate.hlo_text.lexer import HloParseError
from neuron_cc.translate.hlo_text.literals import (
    LiteralSyntaxError,
    parse_literal,
    split_tuple_literal,
)
from neuron_cc.translate.hlo_text.names import hint_of
from neuron_cc.translate.hlo_text.parser import (
    INFERRED,
    Computation,
    HloModuleRecord,
    HloTextParser,
    Instruction,
    parse_shapes,
)
from neuron_cc.translate.hlo_text.shape_inference import infer_shape
from neuron_cc.translate.hlo_text.shapes import ShapeError, shape_text
from neuron_cc.translate.hlo_text.values import (
    RESULT_ACCURACY_OPCODES,
    Problem,
    alias_problem,
    aliases,
    check_bool,
    check_bool_list,
    check_computation_layout,
    check_frontend_attributes,
    check_result_accuracy,
    donors,
)

ENTRY_ATTR = "hlo.entry"
# XLA's module header attributes and the syntax check of each value (None: checked on use).
_HEADER_CHECKS: dict[str, Callable[[str], Problem] | None] = {
    "is_scheduled": check_bool,
    "replica_count": None,
    "num_partitions": None,
    "input_output_alias": lambda raw: aliases(raw)[1],
    "buffer_donor": lambda raw: donors(raw)[1],
    "alias_passthrough_params": check_bool,
    "entry_computation_layout": check_computation_layout,
    "frontend_attributes": check_frontend_attributes,
    "allow_spmd_sharding_propagation_to_parameters": check_bool_list,
    "allow_spmd_sharding_propagation_to_output": check_bool_list,
    "origin_recovery_table": None,
}
_CACHED_LITERAL_LENGTH = 256
"""Literals up to this many characters are built once per import (see `_Importer.literal`)."""
_VARIADIC_REDUCERS = frozenset({"reduce", "reduce-window", "scatter"})
_OPS: dict[str, type[Operation]] = {op.name: op for op in HLO.operations}


@dataclass(frozen=True)
class ImportOptions:
    allow_elided_constants: bool = False
    """Turn `constant({...})` into zeros instead of failing."""
    num_replicas: int | None = None
    """The replica count of a header without `replica_count` (XLA's module config, as XLA's
    tests pass it beside the text); a header that says otherwise is an error."""
    num_partitions: int | None = None
    """The same for `num_partitions`."""
    max_depth: int | None = None
    """Refuse tuple shapes and literals, inline operands and inline computations nested deeper
    (XLA's `HloParserOptions::max_recursion_depth`); None: as deep as the stack allows (deeper
    input is refused as "nested too deeply")."""


class HloImportError(Exception):
    """Malformed or unsupported HLO, located as `name:line:col`."""

    def __init__(self, message: str, location: str) -> None:
        super().__init__(f"{location}: {message}")
        self.message = message
        self.location = location


def import_hlo(
    text: str,
    name: str = "<hlo>",
    options: ImportOptions | None = None,
    positions: dict[Operation, int] | None = None,
) -> ModuleOp:
    """Parse XLA HLO text and build an hlo-dialect module.

    When `positions` is given, it receives each created op's offset in `text` (for located
    verifier errors).
    """
    parser = HloTextParser(text, options.max_depth if options is not None else None)
    enabled = gc.isenabled()
    gc.disable()
    try:
        record = parser.module()
        importer = _Importer(record, options or ImportOptions(), positions is not None)
        module = importer.module()
        if positions is not None:
            positions.update(importer.positions)
        return module
    except HloParseError as e:
        line, col = parser.c.line_col(e.pos)
        raise HloImportError(e.message, f"{name}:{line}:{col}") from None
    finally:
        if enabled:
            gc.enable()


_REGION_ATTRS = (
    "to_apply",
    "condition",
    "body",
    "branch_computations",
    "true_computation",
    "false_computation",
)

_REGION_ATTR_SET = frozenset(_REGION_ATTRS)


_CALLS_OPCODES = frozenset({"fusion", "async-start", "async-update", "async-done"})
"""Opcodes whose `calls=` computation becomes a func (not a region)."""


def _count(raw: str | None, given: int | None, key: str, flag: str) -> int:
    """A device count: the header's, else the option's, else 1; both must agree."""
    if given is not None and given < 1:
        raise AttrError(f"{flag} must be positive, got {given}")
    if raw is None:
        return given or 1
    value = A.integer(raw)
    if given is not None and given != value:
        raise AttrError(f"{key}={value} in the header, but {flag}={given}")
    return value


def _region_computations(record: HloModuleRecord) -> set[str]:
    """Computations cloned into regions (their records are needed until the end)."""
    names: set[str] = set()
    for comp in record.computations.values():
        for inst in comp.instructions:
            if inst.opcode == "call" or _REGION_ATTR_SET.isdisjoint(inst.attrs):
                continue
            for key in _REGION_ATTRS:
                raw = inst.attrs.get(key)
                if raw is not None:
                    names.update(A.computation_names(raw))
    return names


def _called_computations(record: HloModuleRecord) -> set[str]:
    called = {record.entry.name}
    for comp in record.computations.values():
        for inst in comp.instructions:
            key = (
                "calls"
                if inst.opcode in _CALLS_OPCODES
                else "to_apply"
                if inst.opcode == "call"
                else None
            )
            if key is not None and key in inst.attrs:
                called.update(A.computation_names(inst.attrs[key]))
            # A custom call's computations stay functions (the attribute is kept as text).
            if "called_computations" in inst.attrs:
                called.update(A.computation_names(inst.attrs["called_computations"]))
    return called


_INDEXED = {"dynamic-slice": 1, "dynamic-update-slice": 2}
"""Opcodes with start indices, and the operand position of the first index."""

_FIXED_OPERANDS: dict[type[Operation], int | None] = {}
_OP_CLASSES: dict[str, type[Operation]] = {}
"""Opcode -> op class, for the opcodes seen so far that have one."""
_REGION_OPCODES = frozenset({*REGION_KEYS, "conditional"})
"""The opcodes whose ops have regions (`_Importer.regions`)."""
_OPERAND_ATTR_OPCODES = frozenset({"custom-call", "conditional"})
"""The opcodes `_check_operand_attrs` has rules for."""


def _op_class(opcode: str) -> type[Operation] | None:
    """The op class of an HLO opcode (None: not in the dialect)."""
    cls = _OP_CLASSES.get(opcode)
    if cls is None:
        cls = _OPS.get(op_name(opcode))
        if cls is not None:
            _OP_CLASSES[opcode] = cls
    return cls


def _fixed_operand_count(cls: type[Operation]) -> int | None:
    """The operand count of an op class without variadic operands (None if it has some)."""
    if cls not in _FIXED_OPERANDS:
        defs = cls.get_irdl_definition().operands if issubclass(cls, IRDLOperation) else None
        variadic = defs is None or any(isinstance(d, VariadicDef) for _, d in defs)
        _FIXED_OPERANDS[cls] = None if variadic or defs is None else len(defs)
    return _FIXED_OPERANDS[cls]


def _combined_permute(inst: Instruction) -> type[Operation]:
    """The op of a collective-permute with several operands: in-place with `slice_sizes=`
    (kept as text), else combined (variadic)."""
    if "slice_sizes" in inst.attrs:
        return InPlaceCollectivePermuteOp
    return CombinedCollectivePermuteOp


def _check_operand_attrs(inst: Instruction, operands: list[SSAValue]) -> None:
    """The attribute rules that need the operand types (AttrError)."""
    raw = inst.attrs.get("operand_layout_constraints")
    if raw is not None and inst.opcode == "custom-call":
        try:
            shapes = parse_shapes(raw)
        except HloParseError as e:
            raise AttrError(f"operand_layout_constraints: {e.message}") from None
        check_operand_layout_constraints(shapes, [v.type for v in operands])
    if (
        inst.opcode == "conditional"
        and "branch_computations" in inst.attrs
        and operands
        and isinstance(operands[0].type, TensorType)
        and is_pred_type(operands[0].type.element_type)
    ):
        raise AttrError(
            "unexpected attribute 'branch_computations': a conditional on a pred takes "
            "true_computation and false_computation"
        )


def _returned_type(region: Region) -> Attribute:
    """The type of the one value `region` returns."""
    terminator = region.block.last_op
    if not isinstance(terminator, ReturnOp) or len(terminator.operands) != 1:
        raise AttrError("a branch computation returns one value")
    return terminator.operands[0].type


class _Importer:
    def __init__(
        self, record: HloModuleRecord, options: ImportOptions, track_positions: bool = True
    ) -> None:
        self.record = record
        self.options = options
        self.string_cache: dict[str, StringAttr] = {}
        self.literal_cache: dict[tuple[str, Attribute], DenseIntOrFPElementsAttr] = {}
        """Array literals already built, by (payload, type): a model repeats its small
        constants (`f32[] constant(0.02)`) thousands of times; attributes are immutable."""
        self.positions: dict[Operation, int] = {}
        self.track_positions = track_positions
        """Whether to fill `positions` (only `import_hlo`'s callers that ask read it)."""
        self.building: list[str] = []
        """Computations whose bodies are being built (to reject recursion)."""

    def check_header(self) -> None:
        """XLA's header attributes only, each once, with values XLA's parser accepts."""
        record = self.record
        seen: set[str] = set()
        for (key, raw), pos in zip(record.header, record.header_pos, strict=True):
            if key not in _HEADER_CHECKS:
                known = ", ".join(sorted(_HEADER_CHECKS))
                raise HloParseError(f"unknown HloModule attribute '{key}' (XLA knows {known})", pos)
            if key in seen:
                raise HloParseError(f"HloModule attribute '{key}' is given twice", pos)
            seen.add(key)
            check = _HEADER_CHECKS[key]
            problem = check(raw) if check is not None else None
            if problem is None and key in ("input_output_alias", "buffer_donor"):
                entries = aliases(raw)[0] if key == "input_output_alias" else donors(raw)[0]
                problem = alias_problem(entries, record.entry.root.type)
            if problem is not None:
                raise HloParseError(f"HloModule attribute {key}: {problem[0]}", pos + problem[1])

    def check_attrs(self) -> None:
        """XLA's per-opcode attribute rules for the attributes kept as text."""
        for comp in self.record.computations.values():
            defined = {inst.name for inst in comp.instructions}
            defined.update(p.name for p in comp.params.values())
            for inst in comp.instructions:
                problem = check_record_attrs(inst, defined)
                if problem is not None:
                    key, message = problem
                    where = f"{inst.opcode} '%{inst.name}'"
                    raise HloParseError(f"{where}: {message}", inst.attr_pos.get(key, inst.pos))

    def module(self) -> ModuleOp:
        record = self.record
        self.check_header()
        self.check_attrs()
        funcs: list[Operation] = []
        called = _called_computations(record)
        regions = _region_computations(record)
        for name in list(record.computations):
            comp = record.computations[name]
            if name in called:
                funcs.append(self.function(comp))
                if name not in regions:
                    del record.computations[name]  # free its records early (peak memory)
        module = ModuleOp(funcs)
        module.sym_name = StringAttr(record.name)
        try:
            self.module_attributes(module)
        except AttrError as e:
            raise HloParseError(f"HloModule header: {e}", 0) from None
        return module

    def module_attributes(self, module: ModuleOp) -> None:
        header = dict(self.record.header)
        replicas_raw = header.pop("replica_count", None)
        replicas = _count(
            replicas_raw, self.options.num_replicas, "replica_count", "--num-replicas"
        )
        partitions_raw = header.pop("num_partitions", None)
        partitions = _count(
            partitions_raw, self.options.num_partitions, "num_partitions", "--num-partitions"
        )
        if partitions_raw is None and self.options.num_partitions is None:
            partitions = A.mesh_partition_count(header.get("frontend_attributes", "")) or 1
        header.pop("entry_computation_layout", None)
        module.attributes[NUM_REPLICAS_ATTR] = IntegerAttr(replicas, 64)
        module.attributes[NUM_PARTITIONS_ATTR] = IntegerAttr(partitions, 64)
        if partitions > 1:
            module.attributes[USE_SPMD_ATTR] = UnitAttr()
        if header:
            module.attributes["xla.module_config"] = DictionaryAttr(
                {k: StringAttr(v) for k, v in header.items()}
            )
        if self.record.sections is not None:
            module.attributes["xla.stack_frames"] = StringAttr(self.record.sections)

    def string(self, raw: str) -> StringAttr:
        attr = self.string_cache.get(raw)
        if attr is None:
            attr = self.string_cache[raw] = StringAttr(raw)
        return attr

    # --- computations ----------------------------------------------------------------------

    def function(self, comp: Computation) -> func.FuncOp:
        block = self.body(comp, is_function=True)
        arg_types = [a.type for a in block.args]
        result_type = block.last_op.operands[0].type if block.last_op else None
        fn = func.FuncOp(
            comp.name, (arg_types, [result_type] if result_type else []), Region(block)
        )
        if comp.is_entry:
            fn.attributes[ENTRY_ATTR] = UnitAttr()
        if comp.execution_thread is not None:
            fn.attributes["xla.execution_thread"] = StringAttr(comp.execution_thread)
        arg_attrs = [self.param_attrs(comp.params[i]) for i in range(len(comp.params))]
        if any(arg_attrs):
            fn.arg_attrs = ArrayAttr([DictionaryAttr(d) for d in arg_attrs])
        return fn

    def attribute(self, key: str, raw: str) -> Attribute:
        """`sharding=` becomes a `#hlo.sharding` (when it parses); everything else raw text."""
        if key == "sharding":
            try:
                return ShardingAttr.from_hlo_text(raw)
            except ShardingSyntaxError:
                pass
        return self.string(raw)

    def param_attrs(self, inst: Instruction) -> dict[str, Attribute]:
        extras: dict[str, Attribute] = {
            f"xla.{k}": self.attribute(k, v) for k, v in inst.attrs.items()
        }
        if inst.shape_text is not None:
            extras["xla.shape"] = self.string(inst.shape_text)
        return extras

    def region(self, name: str, user: Instruction, flatten_root: bool = False) -> Region:
        comp = self.record.computations.get(name)
        if comp is None:
            raise HloParseError(f"{user.opcode} refers to unknown computation '{name}'", user.pos)
        if name in self.building:
            raise HloParseError(f"computation '{name}' is used recursively", user.pos)
        return Region(self.body(comp, is_function=False, flatten_root=flatten_root))

    def body(self, comp: Computation, is_function: bool, flatten_root: bool = False) -> Block:
        self.building.append(comp.name)
        try:
            return self._body(comp, is_function, flatten_root)
        finally:
            self.building.pop()

    def _body(self, comp: Computation, is_function: bool, flatten_root: bool) -> Block:
        params = comp.params
        block = Block(arg_types=[params[i].type for i in range(len(params))])
        values: dict[str, SSAValue] = {}
        for i, arg in enumerate(block.args):
            arg.name_hint = hint_of(params[i].name)
            values[params[i].name] = arg
        ops: list[Operation] = []
        # A variadic reducer's ROOT tuple becomes the region's several returned values.
        unpack = flatten_root and comp.root.opcode == "tuple"
        for inst in _topological(comp):
            if inst.opcode != "parameter" and not (unpack and inst is comp.root):
                ops.append(self.instruction(inst, values, ops))
        block.add_ops(ops)
        if unpack:
            returned = self.checked_operands(comp.root, values, ops)
        else:
            root = values.get(comp.root.name)
            if root is None:
                raise HloParseError(f"ROOT '{comp.root.name}' is undefined", comp.root.pos)
            returned = [root]
        block.add_op(
            func.ReturnOp(*returned) if is_function else ReturnOp.create(operands=returned)
        )
        return block

    def operand(
        self,
        operand: str | Instruction,
        user: Instruction,
        values: dict[str, SSAValue],
        ops: list[Operation],
    ) -> SSAValue:
        if isinstance(operand, Instruction):
            op = self.instruction(operand, values, ops)
            ops.append(op)
            operand = operand.name
        value = values.get(operand)
        if value is None:
            raise HloParseError(f"operand '%{operand}' of '%{user.name}' is not defined", user.pos)
        return value

    def checked_operands(
        self, inst: Instruction, values: dict[str, SSAValue], ops: list[Operation]
    ) -> list[SSAValue]:
        """The operands' values; a declared operand shape (`f32[4] %a`) must be the operand's
        shape, layouts aside (XLA's parser refuses the module otherwise)."""
        operands: list[SSAValue] = []
        for o in inst.operands:
            value = values.get(o) if isinstance(o, str) else None
            operands.append(value if value is not None else self.operand(o, inst, values, ops))
        for index, (declared, pos) in inst.operand_shapes.items():
            actual = operands[index].type
            if actual != declared:
                name = inst.operands[index]
                raise HloParseError(
                    f"operand '%{name}' of '%{inst.name}' is declared {_shape(declared)} but is "
                    f"{_shape(actual)}",
                    pos,
                )
        return operands

    # --- instructions ----------------------------------------------------------------------

    def instruction(
        self, inst: Instruction, values: dict[str, SSAValue], ops: list[Operation]
    ) -> Operation:
        operands = self.checked_operands(inst, values, ops)
        try:
            if inst.type is INFERRED and inst.opcode != "conditional":
                inst.type = infer_shape(inst.opcode, [v.type for v in operands], inst.attrs)
            op = self.build(inst, operands, ops)
        except LiteralSyntaxError as e:
            raise HloParseError(
                f"{inst.opcode} '%{inst.name}': {e}", inst.payload_pos + e.offset
            ) from None
        except AttrError as e:
            raise HloParseError(f"{inst.opcode} '%{inst.name}': {e}", inst.pos) from None
        if self.track_positions:
            self.positions[op] = inst.pos
        for result in op.results:  # the first result, if any
            result.name_hint = hint_of(inst.name)
            values[inst.name] = result
            break
        return op

    def check_result_accuracy(self, inst: Instruction) -> None:
        raw = inst.attrs.get("result_accuracy")
        if raw is None:
            return
        pos = inst.attr_pos.get("result_accuracy", inst.pos)
        where = f"{inst.opcode} '%{inst.name}'"
        if inst.opcode not in RESULT_ACCURACY_OPCODES:
            raise HloParseError(f"{where}: {inst.opcode} takes no result_accuracy attribute", pos)
        problem = check_result_accuracy(raw)
        if problem is not None:
            raise HloParseError(f"{where}: result_accuracy: {problem[0]}", pos + problem[1])

    def build(self, inst: Instruction, operands: list[SSAValue], ops: list[Operation]) -> Operation:
        if "result_accuracy" in inst.attrs:
            self.check_result_accuracy(inst)
        consumer = Consumer(inst)
        if inst.opcode == "constant":
            op = self.constant(inst.payload or "", inst.type, inst, ops)
            return self.finish(op, inst, consumer)
        cls = _op_class(inst.opcode)
        if inst.opcode == "collective-permute" and len(operands) > 1:
            cls = _combined_permute(inst)
        if cls is None or inst.opcode in ("return",):
            raise AttrError(f"unsupported opcode '{inst.opcode}'")
        if inst.opcode in _OPERAND_ATTR_OPCODES:
            _check_operand_attrs(inst, operands)
        if inst.opcode in _INDEXED:
            operands = self.scalar_indices(inst, operands, ops)
        props_builder = OPCODE_PROPERTIES.get(inst.opcode)
        props = props_builder(inst, consumer) if props_builder is not None else {}
        regions = self.regions(inst, consumer) if inst.opcode in _REGION_OPCODES else []
        if inst.type is INFERRED:  # a conditional: the shape its first branch returns
            inst.type = _returned_type(regions[0])
        fixed = _fixed_operand_count(cls)
        if fixed is not None and fixed != len(operands):
            raise AttrError(f"{inst.opcode} takes {fixed} operands, got {len(operands)}")
        op = cls.create(
            operands=operands, result_types=[inst.type], properties=props, regions=regions
        )
        return self.finish(op, inst, consumer)

    def constant(
        self,
        payload: str,
        t: Attribute,
        inst: Instruction,
        ops: list[Operation],
        offset: int = 0,
        name: str = "",
        depth: int = 1,
    ) -> Operation:
        """The constant op of literal `payload`. A tuple constant becomes one constant per
        element and a `tuple` of them (the dialect's constants are arrays; the exporter then
        writes the elements and the tuple: the same value)."""
        if not isinstance(t, TupleType):
            value = self.literal(payload, t, offset)
            return ConstantOp.create(result_types=[t], properties={"value": value})
        limit = self.options.max_depth
        if limit is not None and depth > limit:
            raise LiteralSyntaxError(f"maximum recursion depth exceeded ({limit})", offset)
        parts = split_tuple_literal(payload)
        types = t.types.data
        if len(parts) != len(types):
            raise LiteralSyntaxError(
                f"the tuple constant has {len(parts)} elements, its shape {len(types)}", offset
            )
        elements: list[Operation] = []
        for i, ((text, at), element_type) in enumerate(zip(parts, types, strict=True)):
            path = f"{name or inst.name}.element{i}"
            element = self.constant(text, element_type, inst, ops, offset + at, path, depth + 1)
            element.results[0].name_hint = hint_of(path)
            if self.track_positions:
                self.positions[element] = inst.pos
            ops.append(element)
            elements.append(element)
        return TupleOp(elements)

    def literal(self, payload: str, t: Attribute, offset: int) -> DenseIntOrFPElementsAttr:
        """The value of array literal `payload` of type `t` (`offset`: where the payload is in
        the instruction's, for errors); short literals are built once per (text, type), and
        only successful builds are kept, so every malformed one reports its own error."""
        key = (payload, t)
        if len(payload) <= _CACHED_LITERAL_LENGTH:
            cached = self.literal_cache.get(key)
            if cached is not None:
                return cached
        try:
            value = parse_literal(payload, t, self.options.allow_elided_constants)
        except LiteralSyntaxError as e:
            raise LiteralSyntaxError(str(e), offset + e.offset) from None
        if len(payload) <= _CACHED_LITERAL_LENGTH:
            self.literal_cache[key] = value
        return value

    def scalar_indices(
        self, inst: Instruction, operands: list[SSAValue], ops: list[Operation]
    ) -> list[SSAValue]:
        """The old form of dynamic-slice / dynamic-update-slice with one rank-1 index vector
        (XLA's parser still reads it): one scalar index per dimension, sliced out of the
        vector and reshaped, as XLA's parser rewrites it."""
        first = _INDEXED[inst.opcode]
        if len(operands) != first + 1:
            return operands
        vector = operands[first].type
        source = operands[0].type
        if not isinstance(vector, TensorType) or len(vector.get_shape()) != 1:
            return operands
        if not isinstance(source, TensorType):
            return operands
        rank = len(source.get_shape())
        if vector.get_shape()[0] != rank:
            raise AttrError(
                f"the index vector has {vector.get_shape()[0]} elements, the operand rank {rank}"
            )
        scalars: list[SSAValue] = []
        element = vector.element_type
        for i in range(rank):
            piece = SliceOp.create(
                operands=[operands[first]],
                result_types=[TensorType(element, [1])],
                properties={
                    "start_indices": DimensionsAttr((i,)),
                    "limit_indices": DimensionsAttr((i + 1,)),
                    "strides": DimensionsAttr((1,)),
                },
            )
            scalar = ReshapeOp.create(
                operands=[piece.results[0]], result_types=[TensorType(element, [])]
            )
            for op in (piece, scalar):
                if self.track_positions:
                    self.positions[op] = inst.pos
                ops.append(op)
            scalars.append(scalar.results[0])
        return [*operands[:first], *scalars]

    def regions(self, inst: Instruction, c: Consumer) -> list[Region]:
        keys = REGION_KEYS.get(inst.opcode)
        if keys is not None:
            inputs = (len(inst.operands) - (inst.opcode == "scatter")) // 2
            variadic = inst.opcode in _VARIADIC_REDUCERS and inputs > 1
            return [self.region(_single(c.need(k), inst), inst, variadic) for k in keys]
        if inst.opcode != "conditional":
            return []
        branches = c.get("branch_computations")
        if branches is not None:
            names = A.computation_names(branches)
        else:
            names = [
                _single(c.need("true_computation"), inst),
                _single(c.need("false_computation"), inst),
            ]
        return [self.region(n, inst) for n in names]

    def finish(self, op: Operation, inst: Instruction, c: Consumer) -> Operation:
        """Keep the attributes no builder consumed as `xla.<key>` (a fusion's `kind` as
        `xla.fusion_kind`), and a shape with a non-default layout as `xla.shape`."""
        used = c.used
        attributes = op.attributes
        fusion = inst.opcode == "fusion"
        for key, raw in inst.attrs.items():
            if key in used:
                continue
            attr = self.string_cache.get(raw) if key != "sharding" else None
            name = "xla.fusion_kind" if fusion and key == "kind" else _xla_name(key)
            attributes[name] = attr if attr is not None else self.attribute(key, raw)
        if inst.shape_text is not None:
            op.attributes["xla.shape"] = self.string(inst.shape_text)
            if inst.opcode == "bitcast":
                layout = _layout_of(inst.shape_text)
                if layout is not None:
                    op.properties["layout"] = DimensionsAttr(layout)
        return op


_XLA_NAMES: dict[str, str] = {}


def _xla_name(key: str) -> str:
    """`xla.<key>`, one string per key (its hash is kept: every op stores such names)."""
    name = _XLA_NAMES.get(key)
    if name is None:
        name = "xla." + key
        if len(_XLA_NAMES) < 4096:
            _XLA_NAMES[key] = name
    return name


def _layout_of(shape_text: str) -> tuple[int, ...] | None:
    """The minor-to-major list of an array shape `f32[4,8]{0,1}` (None if absent/tiled)."""
    m = re.search(r"\{([0-9,\s]*)\}$", shape_text)
    if m is None or ":" in shape_text:
        return None
    return tuple(int(v) for v in m.group(1).split(",") if v.strip())


def _shape(t: Attribute) -> str:
    try:
        return shape_text(t, layout=False)
    except ShapeError:
        return str(t)


def _single(raw: str, inst: Instruction) -> str:
    names = A.computation_names(raw)
    if len(names) != 1:
        raise AttrError(f"{inst.opcode} expects one computation, got {names}")
    return names[0]


def _topological(comp: Computation) -> list[Instruction]:
    """Instructions ordered so that operands come first (text order when already so)."""
    defined: set[str] = set()
    later: list[str] = []
    """Operands not defined before their user (defined after it, or nowhere)."""
    for inst in comp.instructions:
        for o in inst.operands:
            if isinstance(o, str) and o not in defined:
                later.append(o)
        if inst.name in defined:
            raise HloParseError(f"instruction '%{inst.name}' is defined twice", inst.pos)
        defined.add(inst.name)
    # Operands defined nowhere are left for the importer to report.
    if not any(o in defined for o in later):
        return comp.instructions
    return _kahn(comp, defined)


def _kahn(comp: Computation, defined: set[str]) -> list[Instruction]:
    users: dict[str, list[Instruction]] = {}
    pending: dict[str, int] = {}
    for inst in comp.instructions:
        deps = {o for o in inst.operands if isinstance(o, str)}
        for d in deps:
            if d not in defined:
                raise HloParseError(f"operand '%{d}' of '%{inst.name}' is not defined", inst.pos)
            users.setdefault(d, []).append(inst)
        pending[inst.name] = len(deps)
    ready = [inst for inst in comp.instructions if pending[inst.name] == 0]
    order: list[Instruction] = []
    while ready:
        inst = ready.pop()
        order.append(inst)
        for user in users.get(inst.name, ()):
            pending[user.name] -= 1
            if pending[user.name] == 0:
                ready.append(user)
    if len(order) != len(comp.instructions):
        stuck = next(i for i in comp.instructions if pending[i.name] > 0)
        raise HloParseError(f"instruction '%{stuck.name}' is part of a cycle", stuck.pos)
    return order
