"""Structural and control-flow ops of the hlo dialect.

XLA carries ONE value through `while` (usually a tuple) and returns ONE value from
`conditional`, `call` and `custom_call`. While condition/body and conditional branches are
regions terminated by `hlo.return`; a shared XLA computation is cloned into each region.

```mlir
%r = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>> condition {
^bb0(%s: tuple<tensor<i32>, tensor<4xf32>>):
  ...
  hlo.return %p : tensor<i1>
} body {
^bb0(%s: tuple<tensor<i32>, tensor<4xf32>>):
  ...
  hlo.return %next : tuple<tensor<i32>, tensor<4xf32>>
}
```
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from typing import ClassVar, cast

from xdsl.dialects.builtin import (
    I32,
    I64,
    FlatSymbolRefAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    TensorType,
    TupleType,
    UnitAttr,
    i32,
)
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_region_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import (
    EffectInstance,
    IsTerminator,
    MemoryEffect,
    MemoryEffectKind,
    NoMemoryEffect,
    Pure,
    RecursiveMemoryEffect,
    SymbolTable,
)
from xdsl.utils.exceptions import VerifyException

from neuron_cc.dialects.hlo.types import (
    HLO_TENSOR,
    HLO_VALUE,
    TokenType,
    i64_attr,
    is_pred_type,
    tensor_type,
    tuple_elements,
    tuple_type,
)
from neuron_cc.dialects.op_classes import VALUE_CLASSES


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """Terminates hlo regions (reducers, while condition/body, conditional branches).

    `hlo.return %v : tensor<f32>`
    """

    name = "hlo.return"
    results_ = var_operand_def(HLO_VALUE)
    traits = traits_def(IsTerminator(), NoMemoryEffect())
    assembly_format = "$results_ attr-dict (`:` type($results_)^)?"


@irdl_op_definition
class TupleOp(IRDLOperation):
    """Builds a tuple from its operands: `%t = hlo.tuple %a, %b : tuple<tensor<4xf32>, tensor<i32>>`."""

    name = "hlo.tuple"
    elements = var_operand_def(HLO_VALUE)
    result = result_def(TupleType)
    traits = traits_def(Pure())

    def __init__(self, elements: Sequence[SSAValue | Operation]) -> None:
        # one variadic operand group and one result: set directly, as IRDL's generic builder
        # would (it checks every element again: a 2,000-slot loop tuple costs milliseconds)
        values = [_as_value(e) for e in elements]
        Operation.__init__(
            self, operands=values, result_types=[tuple_type([v.type for v in values])]
        )

    def verify_(self) -> None:
        expected = [e.type for e in self.elements]
        got = list(tuple_elements(self.result.type))
        if got != expected:
            raise VerifyException(
                f"tuple result type {self.result.type} does not match the operand types"
            )

    @classmethod
    def parse(cls, parser: Parser) -> TupleOp:
        unresolved = parser.parse_optional_undelimited_comma_separated_list(
            parser.parse_optional_unresolved_operand, parser.parse_unresolved_operand
        )
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        t = parser.parse_type()
        if not isinstance(t, TupleType):
            parser.raise_error(f"expected a tuple type, got {t}", pos, parser.pos)
        types = t.types.data
        unresolved = unresolved or []
        if len(types) != len(unresolved):
            parser.raise_error(
                f"tuple type has {len(types)} elements but {len(unresolved)} operands were given",
                pos,
                parser.pos,
            )
        operands = parser.resolve_operands(unresolved, types, pos)
        op = cls(operands)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        if self.elements:
            printer.print_string(" ")
            printer.print_list(self.elements, printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)


def _as_value(e: SSAValue | Operation) -> SSAValue:
    """`SSAValue.get(e)`, at once for a plain value."""
    return cast(SSAValue, e) if type(e) in VALUE_CLASSES else SSAValue.get(e)


@irdl_op_definition
class GetTupleElementOp(IRDLOperation):
    """Element `index` of a tuple: `%e = hlo.get_tuple_element %t[1] : tuple<tensor<f32>, tensor<i32>>`."""

    name = "hlo.get_tuple_element"
    tuple_ = operand_def(TupleType)
    index = prop_def(IntegerAttr[I64])
    result = result_def(HLO_VALUE)
    traits = traits_def(Pure())

    def __init__(self, tuple_: SSAValue | Operation, index: int) -> None:
        if type(tuple_) not in VALUE_CLASSES and isinstance(tuple_, Operation):
            if len(tuple_.results) != 1:
                raise ValueError(f"{tuple_.name} has {len(tuple_.results)} results, not one tuple")
            tuple_ = tuple_.results[0]
        value = cast(SSAValue, tuple_)
        t = value.type
        if not isinstance(t, TupleType) or not 0 <= index < len(t.types.data):
            raise ValueError(f"cannot take element {index} of {t}")
        # one operand, one result, one property: nothing for IRDL's generic builder to sort
        # out (it costs more than the op), so the fields are set directly
        Operation.__init__(
            self,
            operands=[value],
            result_types=[t.types.data[index]],
            properties={"index": i64_attr(index)},
        )

    def verify_(self) -> None:
        types = tuple_elements(self.tuple_.type)
        i = self.index.value.data
        if not 0 <= i < len(types):
            raise VerifyException(
                f"tuple index {i} is out of range for a tuple of {len(types)} elements"
            )
        if types[i] != self.result.type:
            raise VerifyException(
                f"result type {self.result.type} does not match tuple element {i} of type {types[i]}"
            )

    @classmethod
    def parse(cls, parser: Parser) -> GetTupleElementOp:
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        index = parser.parse_integer(allow_negative=False)
        parser.parse_punctuation("]")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        t = parser.parse_type()
        if not isinstance(t, TupleType):
            parser.raise_error(f"expected a tuple type, got {t}", pos, parser.pos)
        if index >= len(t.types.data):
            parser.raise_error(
                f"tuple index {index} is out of range for a tuple of {len(t.types.data)} elements",
                pos,
                parser.pos,
            )
        op = cls(parser.resolve_operand(operand, t), index)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.tuple_)
        printer.print_string(f"[{self.index.value.data}]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.tuple_.type)


def _block_signature(region: Region, what: str) -> tuple[list[Attribute], list[Attribute]]:
    """(argument types, returned types) of a single-block region ending in hlo.return."""
    if len(region.blocks) != 1:
        raise VerifyException(f"{what} region must have exactly one block")
    block = region.blocks[0]
    last = block.last_op
    if not isinstance(last, ReturnOp):
        raise VerifyException(f"{what} region must end in hlo.return")
    return [a.type for a in block.args], [o.type for o in last.results_]


def _fmt(types: Sequence[Attribute]) -> str:
    return "(" + ", ".join(str(t) for t in types) + ")"


def _is_scalar_pred(t: Attribute) -> bool:
    return isinstance(t, TensorType) and not t.get_shape() and is_pred_type(t.element_type)


@irdl_op_definition
class WhileOp(IRDLOperation):
    """XLA while: runs `body` while `condition` returns true; one carried value.

    The condition takes the carried value and returns `tensor<i1>`; the body takes and returns
    the carried value; the result is the final carried value.
    """

    name = "hlo.while"
    traits = traits_def(RecursiveMemoryEffect())
    T: ClassVar = VarConstraint("T", HLO_VALUE)
    init = operand_def(T)
    result = result_def(T)
    condition = region_def("single_block")
    body = region_def("single_block")

    assembly_format = "`(` $init `)` `:` type($init) `condition` $condition `body` $body attr-dict"

    def verify_(self) -> None:
        t = self.init.type
        args, rets = _block_signature(self.condition, "while condition")
        if args != [t]:
            raise VerifyException(
                f"while condition must take one argument of type {t}, got {_fmt(args)}"
            )
        if len(rets) != 1 or not _is_scalar_pred(rets[0]):
            raise VerifyException(f"while condition must return tensor<i1>, got {_fmt(rets)}")
        args, rets = _block_signature(self.body, "while body")
        if args != [t]:
            raise VerifyException(
                f"while body must take one argument of type {t}, got {_fmt(args)}"
            )
        if rets != [t]:
            raise VerifyException(f"while body must return {t}, got {_fmt(rets)}")


@irdl_op_definition
class ConditionalOp(IRDLOperation):
    """XLA conditional: runs branch `index` (or branch 0 = true / 1 = false for a pred).

    `index` is `tensor<i32>` (out-of-range picks the last branch) or `tensor<i1>` (exactly two
    branches: true_computation then false_computation). Branch k takes `branch_operands[k]`
    and every branch returns the result type.
    """

    name = "hlo.conditional"
    traits = traits_def(RecursiveMemoryEffect())
    index = operand_def(HLO_TENSOR)
    branch_operands = var_operand_def(HLO_VALUE)
    result = result_def(HLO_VALUE)
    branches = var_region_def("single_block")

    assembly_format = (
        "`(` $index `)` `(` $branch_operands `)` attr-dict `:` functional-type(operands, $result) "
        "$branches"
    )

    def verify_(self) -> None:
        t = tensor_type(self.index)
        n = len(self.branches)
        if t.get_shape():
            raise VerifyException(f"conditional index must be a scalar, got {t}")
        if is_pred_type(t.element_type):
            if n != 2:
                raise VerifyException(f"a predicated conditional needs exactly 2 branches, got {n}")
        elif t.element_type != i32:
            raise VerifyException(f"conditional index must be tensor<i1> or tensor<i32>, got {t}")
        if n == 0:
            raise VerifyException("conditional needs at least one branch")
        if len(self.branch_operands) != n:
            raise VerifyException(
                f"conditional has {n} branches but {len(self.branch_operands)} branch operands"
            )
        for k, (region, operand) in enumerate(
            zip(self.branches, self.branch_operands, strict=True)
        ):
            args, rets = _block_signature(region, f"conditional branch {k}")
            if args != [operand.type]:
                raise VerifyException(
                    f"conditional branch {k} must take {operand.type}, got {_fmt(args)}"
                )
            if rets != [self.result.type]:
                raise VerifyException(
                    f"conditional branch {k} must return {self.result.type}, got {_fmt(rets)}"
                )


def _enclosing_module(op: Operation) -> ModuleOp | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, ModuleOp):
        parent = parent.parent_op()
    return parent


# module -> {symbol name: top-level op}: verifying N calls with xDSL's linear
# SymbolTable.lookup_symbol is O(N^2) (a 10,000-computation module took minutes).
_SYMBOLS: weakref.WeakKeyDictionary[ModuleOp, dict[str, Operation]] = weakref.WeakKeyDictionary()


def _lookup_callee(op: Operation, callee: FlatSymbolRefAttr) -> Operation | None:
    """`SymbolTable.lookup_symbol` for a callee in the enclosing module, cached per module (a
    cached hit is re-checked, a miss rebuilds the table, so IR edits never give stale answers)."""
    module = _enclosing_module(op)
    if module is None:
        return SymbolTable.lookup_symbol(op, callee)
    name = callee.string_value()
    table = _SYMBOLS.get(module)
    hit = table.get(name) if table is not None else None
    if hit is not None and hit.parent_op() is module:
        sym = hit.properties.get("sym_name") or hit.attributes.get("sym_name")
        if isinstance(sym, StringAttr) and sym.data == name:
            return hit
    table = {}
    for top in module.ops:
        sym = top.properties.get("sym_name") or top.attributes.get("sym_name")
        if isinstance(sym, StringAttr):
            table.setdefault(sym.data, top)
    _SYMBOLS[module] = table
    return table.get(name)


@irdl_op_definition
class CallOp(IRDLOperation):
    """Calls another computation (a `func.func` in the module): `hlo.call @f(%a) : (...) -> T`."""

    name = "hlo.call"
    callee = prop_def(FlatSymbolRefAttr)
    args = var_operand_def(HLO_VALUE)
    result = result_def(HLO_VALUE)

    assembly_format = "$callee `(` $args `)` attr-dict `:` functional-type($args, $result)"

    def verify_(self) -> None:
        verify_callee(self, self.callee, [a.type for a in self.args], self.result.type)


def verify_callee(
    op: Operation, ref: FlatSymbolRefAttr, arg_types: Sequence[Attribute], result: Attribute
) -> None:
    """`ref` names a func.func of the enclosing module taking `arg_types` and returning
    `result` (not checked for a free-standing op, which has no module to look in)."""
    from xdsl.dialects.func import FuncOp

    callee = _lookup_callee(op, ref)
    if callee is None:
        if _enclosing_module(op) is None:
            return
        raise VerifyException(f"callee '@{ref.string_value()}' is not defined")
    if not isinstance(callee, FuncOp):
        raise VerifyException(f"'{ref.string_value()}' is not a func.func")
    ftype = callee.function_type
    if list(ftype.inputs.data) != list(arg_types) or list(ftype.outputs.data) != [result]:
        raise VerifyException(
            f"call to '{ref.string_value()}' has type {_fmt(arg_types)} -> "
            f"{result}, but the callee is {ftype}"
        )


_WRITE = frozenset({EffectInstance(MemoryEffectKind.WRITE)})


class CustomCallEffects(MemoryEffect):
    """A custom call writes (to the universe) when `has_side_effect` is set, as in XLA; it has
    no effect otherwise."""

    @classmethod
    def get_effects(cls, op: Operation) -> AbstractSet[EffectInstance]:
        side_effect = isinstance(op, CustomCallOp) and op.has_side_effect is not None
        return _WRITE if side_effect else frozenset()


@irdl_op_definition
class CustomCallOp(IRDLOperation):
    """An opaque call to a back-end target, e.g. `xla.sdy.GlobalToLocalShape`.

    Side-effecting only when `has_side_effect` is set (like XLA). `backend_config` is kept as a
    string; `api_version` as XLA's number.
    """

    name = "hlo.custom_call"
    traits = traits_def(CustomCallEffects())
    call_target_name = prop_def(StringAttr)
    inputs = var_operand_def(HLO_VALUE)
    result = result_def(HLO_VALUE)
    has_side_effect = opt_prop_def(UnitAttr)
    backend_config = opt_prop_def(StringAttr)
    api_version = opt_prop_def(IntegerAttr[I32])

    assembly_format = (
        "$call_target_name `(` $inputs `)` (`side_effect` $has_side_effect^)? "
        "(`backend_config` `=` $backend_config^)? (`api_version` `=` $api_version^)? "
        "attr-dict `:` functional-type($inputs, $result)"
    )

    def verify_(self) -> None:
        if not self.call_target_name.data:
            raise VerifyException("custom_call needs a non-empty call target name")


@irdl_op_definition
class OptimizationBarrierOp(IRDLOperation):
    """Identity that blocks optimisations across it: `hlo.optimization_barrier %t : T`."""

    name = "hlo.optimization_barrier"
    T: ClassVar = VarConstraint("T", HLO_VALUE)
    operand = operand_def(T)
    result = result_def(T)
    assembly_format = "$operand attr-dict `:` type($operand)"


@irdl_op_definition
class AfterAllOp(IRDLOperation):
    """Joins tokens into one (orders side effects): `%t = hlo.after_all(%a, %b)`."""

    name = "hlo.after_all"
    tokens = var_operand_def(TokenType)
    result = result_def(TokenType)
    traits = traits_def(Pure())
    assembly_format = "`(` $tokens `)` attr-dict"

    def __init__(self, tokens: Sequence[SSAValue | Operation] = ()) -> None:
        super().__init__(operands=[tokens], result_types=[TokenType()])


OPS: list[type[Operation]] = [
    ReturnOp,
    TupleOp,
    GetTupleElementOp,
    WhileOp,
    ConditionalOp,
    CallOp,
    CustomCallOp,
    OptimizationBarrierOp,
    AfterAllOp,
]
ATTRS: list[type[Attribute]] = []
