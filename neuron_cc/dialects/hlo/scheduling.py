"""Ops that only order, annotate or move values: `hlo.add_dependency`, `hlo.domain`,
`hlo.copy_start` / `hlo.copy_done` (XLA semantics; the interpreter treats them as identities).

- `add_dependency(operand, token)`: the operand's value, after the token (XLA's kAddDependency).
- `domain(operand)`: the operand; `domain` keeps XLA's raw `{kind=..., entry=..., exit=...}`
  text for the round trip (we do not interpret sharding domains).
- `copy_start(operand)` -> `(T, T, u32[])` (destination, source, context) and
  `copy_done(start)` -> `T`: an asynchronous copy. XLA may give the destination another
  memory space (a layout `S(n)`); our types have no layouts, so both elements are `T`.
  `cross_program_prefetch_index` is kept.

```mlir
%y = hlo.add_dependency %x, %t : tensor<f32>
%s = hlo.copy_start %x : tensor<2xf32> -> tuple<tensor<2xf32>, tensor<2xf32>, tensor<ui32>>
```
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import I64, IntegerAttr, StringAttr, TupleType
from xdsl.ir import Attribute, Operation
from xdsl.irdl import (
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import NoMemoryEffect
from xdsl.utils.exceptions import VerifyException

from neuron_cc.dialects.hlo.p2p import U32_SCALAR
from neuron_cc.dialects.hlo.types import HLO_VALUE, TokenType, tuple_elements, tuple_type


def _no_token(t: Attribute, what: str) -> None:
    if isinstance(t, TokenType):
        raise VerifyException(f"{what} must not be a token")


@irdl_op_definition
class AddDependencyOp(IRDLOperation):
    """The operand's value, ordered after `token`: `%y = hlo.add_dependency %x, %t : T`."""

    name = "hlo.add_dependency"
    T: ClassVar = VarConstraint("T", HLO_VALUE)
    operand = operand_def(T)
    token = operand_def(TokenType)
    result = result_def(T)
    traits = traits_def(NoMemoryEffect())
    assembly_format = "$operand `,` $token attr-dict `:` type($operand)"


@irdl_op_definition
class DomainOp(IRDLOperation):
    """The operand, in a new domain: `%y = hlo.domain %x domain = "{kind=...}" : T`."""

    name = "hlo.domain"
    T: ClassVar = VarConstraint("T", HLO_VALUE)
    operand = operand_def(T)
    result = result_def(T)
    domain = prop_def(StringAttr)
    traits = traits_def(NoMemoryEffect())
    assembly_format = "$operand `domain` `=` $domain attr-dict `:` type($operand)"

    def verify_(self) -> None:
        _no_token(self.operand.type, "domain operand")
        if "kind=" not in self.domain.data:
            raise VerifyException(f"domain attribute must name a kind, got '{self.domain.data}'")


def copy_start_type(t: Attribute) -> TupleType:
    """(destination, source, context) of a copy of `t`."""
    return tuple_type([t, t, U32_SCALAR])


@irdl_op_definition
class CopyStartOp(IRDLOperation):
    """Starts copying the operand; the result is (destination, source, u32 context)."""

    name = "hlo.copy_start"
    operand = operand_def(HLO_VALUE)
    result = result_def(TupleType)
    cross_program_prefetch_index = opt_prop_def(IntegerAttr[I64])
    traits = traits_def(NoMemoryEffect())
    assembly_format = (
        "$operand (`cross_program_prefetch_index` `=` $cross_program_prefetch_index^)? "
        "attr-dict `:` type($operand) `->` type($result)"
    )

    def verify_(self) -> None:
        _no_token(self.operand.type, "copy_start operand")
        expected = copy_start_type(self.operand.type)
        if self.result.type != expected:
            raise VerifyException(f"copy_start result must be {expected}, got {self.result.type}")
        index = self.cross_program_prefetch_index
        if index is not None and index.value.data < 0:
            raise VerifyException(
                f"cross_program_prefetch_index must be non-negative, got {index.value.data}"
            )


@irdl_op_definition
class CopyDoneOp(IRDLOperation):
    """Waits for a copy and yields the destination (element 0 of the start's tuple)."""

    name = "hlo.copy_done"
    operand = operand_def(TupleType)
    result = result_def(HLO_VALUE)
    traits = traits_def(NoMemoryEffect())
    assembly_format = "$operand attr-dict `:` type($operand) `->` type($result)"

    def verify_(self) -> None:
        types = tuple_elements(self.operand.type)
        if len(types) != 3 or self.operand.type != copy_start_type(types[0]):
            raise VerifyException(
                f"copy_done operand must be a copy_start result (T, T, u32[]), got {self.operand.type}"
            )
        if self.result.type != types[0]:
            raise VerifyException(f"copy_done result must be {types[0]}, got {self.result.type}")


OPS: list[type[Operation]] = [AddDependencyOp, DomainOp, CopyStartOp, CopyDoneOp]
