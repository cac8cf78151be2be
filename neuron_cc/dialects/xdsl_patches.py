"""Every change neuron-cc makes to xDSL itself, in one place, for the pinned xDSL only.

`install()` is called once, by `neuron_cc/dialects/__init__.py` (so before any dialect module of
ours is defined or any IR is parsed). It refuses, with `XdslVersionError`, to patch any xDSL but
`PINNED_XDSL`: each patch replaces a private method whose code is only known for that version.
`unpatched()` restores xDSL's originals for the length of a `with` block; the tests in
tests/test_xdsl_patches.py use it to show that each bug still exists upstream (each test fails
the day xDSL fixes its bug, and then the patch can be deleted).

The patches (`PATCHES`):

1. Speed: xDSL 0.75's `AttrParser._parse_dense_literal_type` rebuilds the constraint
   `base(RankedStructure[IntegerType | IndexType | AnyFloat | ComplexType])` on EVERY
   `dense<...>` literal (about 2 ms each): on a 10,000-op module with ~800 constants that is a
   fifth of the parse time. We build that constraint once and keep the method's behaviour and
   messages otherwise unchanged.
2. Bug: `dense<0x7F800000> : tensor<f32>` (how xDSL itself prints inf/nan and some integral
   floats) was read back as the INTEGER 2139095040 converted to float. A hexadecimal element of
   a float dense literal is now its bit pattern, as in MLIR.
3. Bug: `DenseIntOrFPElementsAttr.is_splat` compared values with `==`, so `{-0.0, 0.0}` printed
   as the splat `dense<-0.0>`. It now compares the stored bytes (also much faster).
4. Bug: a NaN or infinity of an FP8/FP6/FP4 type was printed by re-encoding the decoded Python
   float (`dense<0x7f>` for f8E4M3FN 0xff: sign and payload lost), and a complex element with a
   non-finite part as `(0x7fc00000,...)`, which xDSL's own parser rejects. A dense attribute of
   such an element type that holds a non-finite value is now printed in xDSL's exact
   hexadecimal form `dense<"0x...">` (the raw little-endian bytes, which the parser reads
   back bit for bit); every other attribute prints as before.
5. Speed: `Operation.walk` is a chain of nested generators (op -> region -> block -> op ...), so
   every op it yields passes through three frames per level of nesting: walking n ops nested d
   deep costs n * d (a program of 40 nested loops walks 25x slower than 4 for 10x the ops). The
   walk is now one generator with an explicit stack of its blocks' op iterators, for every
   `reverse=` / `region_first=` combination (the pattern rewriter walks in reverse): same order,
   linear, and as lazy as xDSL's (an op's successor is read only after its subtree). The
   forward pre-order (the default, and what the analyses use) follows the ops' links with no
   generator per block; `Block.walk` and `Region.walk` in that order are the same single
   generator (xDSL's start one `Operation.walk` per op of the block: 2x slower on a flat body).
   `for op in block.ops` (and `reversed(block.ops)`) is a generator over the links too (xDSL's
   iterator object pays a Python `__next__` and two property reads per op); both read an op's
   neighbour when they yield it, as xDSL's does.
6. Speed: `Operation.__init__` (every op built, parsed, imported or cloned goes through it)
   wraps its operands twice, builds its successor list through a property setter and, for IRDL
   ops, looks the definition up and scans every property and attribute definition for a default
   on every op (~10 us of a ~15 us `create`). The patched constructor sets the same fields in the
   same order (operand uses added first to last, so use lists read as xDSL's do) and fills the
   defaults from a table built once per op class; an op class that defines its own
   `__post_init__` still gets it called. It also sets `parent`, `_next_op` and `_prev_op`
   (xDSL leaves them to the class defaults until the op is linked into a block): on CPython
   3.11 an instance keeps its fields in a compact values array only while its class's shared
   key table can take each new name, and that table's room shrinks with every instance built,
   so a class whose first few dozen ops were built before one was linked (the importer builds
   a body, then links it) gave every op of it a dict of its own: 15% more memory per op of a
   loop body and a cache line more per field read (tests/test_op_instance_layout.py).
7. Speed: `IntegerAttr(v, 64)` builds a new `IntegerType` and runs the generic parameter
   verification on every call (~30 us; an op's index or channel id costs more than the op). For
   an `int` value and a signless 8/16/32/64-bit type (given as a width or the type), the
   patched constructor normalises the value exactly as xDSL does (the signless range
   `[-2**(w-1), 2**w)`, the upper half read as negative) and sets the two fields; anything else
   (other types, `truncate_bits`, a value out of range, which must raise xDSL's error) takes
   xDSL's constructor.

8. Speed: `IsolatedFromAbove.verify` walks every op of the isolated op's regions and, for each
   operand, climbs the defining op's parents until it meets the isolated op (`is_ancestor`),
   and asks each op's class for the trait again: 0.5 s of a 2 s verification of a
   100,000-op loop body. An operand defined in the block being walked is inside by
   construction, so only the others climb; the trait is read once per op class; same walk
   order, same error.

9. Speed: `Operation.verify`, `Block.verify` and `Region.verify` (the structure checks around
   every op's verifier) build an operand view and a successor view per op, compare blocks
   through a Python `__eq__` and count a region's blocks by walking them: about 0.5 s of a
   100,000-op verification. The patched three read the fields, in the same order, with the
   same checks and messages. The outermost `Operation.verify` opens a `frozen_ir.frozen()`
   scope, so the collectives' verifiers find their module's device counts climbing once per
   block, not once per op (quadratic in the nesting).
10. Speed: `IRDLOperation.__hash__` / `__eq__` are Python functions returning `id(self)` /
   `self is other`, so every dict or set keyed by ops pays a Python call per lookup (millions
   per pipeline run). They are now `object`'s (the same identity semantics, in C).
11. Speed: `SSAValue.erase` (every erased op's results) builds an `ErasedSSAValue`, copies the
   (empty) use list and validates a name hint even when the value has no use left, which is
   how every pass erases (a few microseconds per op). Without uses it now returns at once;
   with uses it is xDSL's.
12. Speed: a named single operand or result (`op.lhs`, `gte.result`: xDSL's
   `BeforeVariadicSingleAccessor`) is read through `get_op_constructs`, an `OpOperands` view
   built per access and `SSAValues.__getitem__` (five Python frames, ~1 us); `op.results[0]`
   pays the last one. The patched accessor indexes the op's operand or result tuple directly;
   `SSAValues[int]` is the tuple's own item (a slice still gives `SSAValues`); a named region
   (`loop.body`) is the op's region tuple item. An op's only operand (or result) definition,
   variadic (`tuple.elements`, `return` operands), is the op's operand (result) tuple itself:
   xDSL slices a copy of it on every access, so `root.elements[k]` cost the tuple's width
   and a loop over a wide loop's slots was quadratic.
13. Speed: `SSAValue.replace_all_uses_with` copies the use list into a tuple through a
   generator and rewrites each use through an `OpOperands` view (which rebuilds the user's
   operand tuple through three slices). The patched one walks the use list by its links and
   moves each use (the same `Use` object, so the new value's use list has the same order),
   rebuilding each user's operand tuple once, however many of its operands were `self`
   (`value_edits.replace_values`; xDSL rebuilds it per use: quadratic for a tuple reading one
   value n times); the name hint carries over as in xDSL.
14. Speed: `region.blocks[i]` starts an iterator object and enumerates it (~2 us; the passes
   ask `loop.body.blocks[0]` per collective). For `i >= 0` the patched one follows the blocks'
   links from the first; a negative index or a slice is xDSL's.
15. Speed: `Block._attach_op` and `Region._attach_block` (every op inserted into a block,
   every block into a region) check that the op (block) does not contain its new parent by
   climbing from the parent to the top of the IR (`is_ancestor`): an insertion at nesting
   depth d cost d, so a pass inserting a few ops after each of n nested loops was quadratic
   in n. The patched checks climb from the parent and walk the inserted op's (block's)
   contents in lockstep, and stop at whichever ends first (`_encloses`): O(min(depth, size of
   what is inserted)); an op without regions (a block without ops) contains nothing and is
   not walked. Same verdicts, same messages.

Not a patch of xDSL: `verify_cache.py` memoises the verification of our own op definitions.
"""

from __future__ import annotations

import importlib.metadata
import math
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    UNKNOWN_LOC,
    AnyFloat,
    ComplexType,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    RankedStructure,
    ReducedPrecisionFloatType,
    Signedness,
    i8,
    i16,
    i32,
    i64,
)
from xdsl.ir import Block, BlockOps, IRNode, Operation, OpResult, Region, SSAValue, Use
from xdsl.ir.core import ErasedSSAValue, RegionBlocks, SSAValues
from xdsl.irdl import IRDLOperation, OptionalDef, base
from xdsl.irdl.operations import (
    BaseAccessor,
    BeforeVariadicSingleAccessor,
    UniqueVariadicAccessor,
    VarIRConstruct,
)
from xdsl.parser.attribute_parser import AttrParser
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove, IsTerminator, NoTerminator
from xdsl.utils.exceptions import VerifyException

from neuron_cc.dialects.frozen_ir import frozen, is_frozen
from neuron_cc.dialects.op_classes import VALUE_CLASSES
from neuron_cc.dialects.value_edits import replace_values

PINNED_XDSL = "0.75.0"
"""The one xDSL version these patches are written for (pyproject pins it exactly)."""


class XdslVersionError(ImportError):
    """The installed xDSL is not the one neuron-cc's patches are written for."""


_DENSE_LITERAL_TYPE = base(RankedStructure[IntegerType | IndexType | AnyFloat | ComplexType])


def _parse_dense_literal_type(self: AttrParser) -> Any:
    t = self.expect(self.parse_optional_type, "Dense attribute must be typed!")
    if not _DENSE_LITERAL_TYPE.verifies(t):
        self.raise_error(
            "Expected memref, vector or tensor type of integer, index, float, or complex type"
        )
    if any(dim == DYNAMIC_INDEX for dim in t.get_shape()):
        self.raise_error("Dense literal attribute should have a static shape.")
    return t


_TensorLiteralElement = AttrParser._TensorLiteralElement
_element_to_type: Callable[..., Any] = _TensorLiteralElement.to_type


def _to_type(self: Any, parser: AttrParser, type: Any) -> Any:
    text = self.span.text.lstrip("-")
    if isinstance(type, AnyFloat) and text[:2] in ("0x", "0X") and isinstance(self.value, int):
        raw = int(text, 16)
        if raw.bit_length() > type.bitwidth:
            parser.raise_error("Hexadecimal float constant out of range for type", self.span)
        return next(type.iter_unpack(raw.to_bytes(type.compile_time_size, "little")))
    return _element_to_type(self, parser, type)


_print_without_type: Callable[..., Any] = DenseIntOrFPElementsAttr.print_without_type


def _non_finite(dense: DenseIntOrFPElementsAttr) -> bool:
    t = dense.get_element_type()
    if isinstance(t, ComplexType):
        return any(not math.isfinite(part) for v in dense.get_values() for part in v)  # pyright: ignore[reportGeneralTypeIssues]
    if isinstance(t, ReducedPrecisionFloatType):
        return any(not math.isfinite(v) for v in dense.get_values())  # pyright: ignore[reportArgumentType]
    return False


def _print_dense(self: DenseIntOrFPElementsAttr, printer: Printer) -> None:
    if len(self) == 0 or not _non_finite(self):
        _print_without_type(self, printer)
        return
    printer.print_string(f'dense<"0x{self.data.data.hex().upper()}">')


def _is_splat(self: DenseIntOrFPElementsAttr) -> bool:
    data = self.data.data
    size = self.type.element_type.compile_time_size
    return len(data) <= size or data == data[:size] * (len(data) // size)


def _children(op: Operation, reverse: bool) -> Iterator[Operation]:
    """The ops directly in `op`'s regions, in xDSL's walk order (lazily, like xDSL: an op's
    neighbour is read when the op is yielded, so the caller may erase the op it was given)."""
    for region in reversed(op.regions) if reverse else op.regions:
        for block in reversed(region.blocks) if reverse else region.blocks:
            if reverse:
                current = block.last_op
                while current is not None:
                    following = current._prev_op
                    yield current
                    current = following
            else:
                current = block.first_op
                while current is not None:
                    following = current._next_op
                    yield current
                    current = following


def _blocks(op: Operation) -> Iterator[Block]:
    """The blocks of `op`'s regions in order (read lazily, as xDSL's walk reads them)."""
    for region in op.regions:
        yield from region.blocks


def _pre_order(first: Operation | None, blocks: Iterator[Block]) -> Iterator[Operation]:
    """`first` (if any), then every op of `blocks` and of their ops' regions in xDSL's forward
    pre-order, in one generator: the ops of a block are followed by their links, and an op
    with regions saves where its block goes on (each op's neighbour is read when the op is
    yielded, as xDSL does, so the caller may erase the op it was given)."""
    if first is not None:
        yield first
    saved: list[tuple[Iterator[Block], Operation | None]] = []
    op: Operation | None = None
    while True:
        while op is None:
            block = next(blocks, None)
            if block is not None:
                op = block.first_op
            elif saved:
                blocks, op = saved.pop()
            else:
                return
        following = op._next_op
        yield op
        if op.regions:
            saved.append((blocks, following))
            blocks = _blocks(op)
            op = None
        else:
            op = following


def _walk(
    self: Operation, *, reverse: bool = False, region_first: bool = False
) -> Iterator[Operation]:
    """xDSL's `Operation.walk` (same order for every flag), one generator with a stack."""
    if not reverse and not region_first:
        return _pre_order(self, _blocks(self))
    return _general_walk(self, reverse, region_first)


def _general_walk(self: Operation, reverse: bool, region_first: bool) -> Iterator[Operation]:
    if not region_first:
        yield self
    stack = [(self, _children(self, reverse))]
    while stack:
        holder, children = stack[-1]
        op = next(children, None)
        if op is None:
            stack.pop()
            if region_first:
                yield holder
            continue
        if not region_first:
            yield op
        if op.regions:
            stack.append((op, _children(op, reverse)))
        elif region_first:
            yield op


def _block_ops_iter(self: BlockOps) -> Iterator[Operation]:
    """xDSL's `BlockOps.__iter__`: the ops by their links, each op's successor read when the op
    is yielded (so the caller may detach it), in a generator (xDSL: an iterator object whose
    `__next__` is a Python call reading two properties)."""
    op = self.block.first_op
    while op is not None:
        following = op._next_op
        yield op
        op = following


def _block_ops_reversed(self: BlockOps) -> Iterator[Operation]:
    """xDSL's `BlockOps.__reversed__`, as `_block_ops_iter` backwards."""
    op = self.block.last_op
    while op is not None:
        preceding = op._prev_op
        yield op
        op = preceding


_BLOCK_WALK = Block.walk
_REGION_WALK = Region.walk


def _block_walk(
    self: Block, *, reverse: bool = False, region_first: bool = False
) -> Iterable[Operation]:
    """xDSL's `Block.walk`; the forward pre-order in one generator (xDSL: one per op)."""
    if not reverse and not region_first:
        return _pre_order(None, iter((self,)))
    return _BLOCK_WALK(self, reverse=reverse, region_first=region_first)


def _region_walk(
    self: Region, *, reverse: bool = False, region_first: bool = False
) -> Iterator[Operation]:
    """xDSL's `Region.walk`; the forward pre-order in one generator (xDSL: one per op)."""
    if not reverse and not region_first:
        return _pre_order(None, iter(self.blocks))
    return _REGION_WALK(self, reverse=reverse, region_first=region_first)


_IRDL_POST_INIT = IRDLOperation.__post_init__
_OPERATION_POST_INIT = Operation.__post_init__
_DEFAULTS: dict[type, tuple[tuple[tuple[str, Any], ...], tuple[tuple[str, Any], ...]] | None] = {}
"""Per op class: its (property, attribute) defaults, or None when the class has its own
`__post_init__` (then that is called, as xDSL does)."""


def _defaults(cls: type) -> tuple[tuple[tuple[str, Any], ...], tuple[tuple[str, Any], ...]] | None:
    found = _DEFAULTS.get(cls, False)
    if found is not False:
        return found  # pyright: ignore[reportReturnType]
    table = None
    post_init = getattr(cls, "__post_init__", None)
    if post_init is _IRDL_POST_INIT:
        op_def = cls.get_irdl_definition()

        def of(defs: Any) -> tuple[tuple[str, Any], ...]:
            return tuple(
                (name, d.default_value)
                for name, d in defs.items()
                if not isinstance(d, OptionalDef) and d.default_value is not None
            )

        table = (of(op_def.properties), of(op_def.attributes))
    elif post_init is not _OPERATION_POST_INIT:
        table = None
    else:
        table = ((), ())
    _DEFAULTS[cls] = table
    return table


def _operation_init(
    self: Operation,
    *,
    operands: Any = (),
    result_types: Any = (),
    properties: Any = {},
    attributes: Any = {},
    location: Any = None,
    successors: Any = (),
    regions: Any = (),
) -> None:
    """xDSL's `Operation.__init__` (same fields, same use-list order), without its detours; the
    link fields set too, so they enter the class's shared key table with its first op."""
    values = operands if type(operands) is SSAValues else SSAValues(operands)
    uses = tuple([Use(self, i) for i in range(len(values))])
    for value, use in zip(values, uses):
        value.add_use(use)
    self._operands = values
    self._operand_uses = uses
    self.results = SSAValues([OpResult(t, self, i) for i, t in enumerate(result_types)])
    props = dict(properties)
    attrs = dict(attributes)
    self.properties = props
    self.attributes = attrs
    self.location = UNKNOWN_LOC if location is None else location
    self.parent = None
    self._next_op = None
    self._prev_op = None
    if successors:
        self.successors = list(successors)
    self.regions = ()
    for region in regions:
        self.add_region(region)
    table = _defaults(type(self))
    if table is None:
        self.__post_init__()
        return
    for name, value in table[0]:
        if name not in props:
            props[name] = value
    for name, value in table[1]:
        if name not in attrs:
            attrs[name] = value
    if not self.name or not isinstance(self.name, str):
        raise AssertionError(f"operation class {type(self).__name__} has no name")


_INTEGER_ATTR_INIT = IntegerAttr.__init__
_SIGNLESS: dict[int, IntegerType] = {8: i8, 16: i16, 32: i32, 64: i64}
_SIGNLESS_BY_ID = {id(t): w for w, t in _SIGNLESS.items()}


def _integer_attr_init(
    self: IntegerAttr[Any], value: Any, value_type: Any, *, truncate_bits: bool = False
) -> None:
    """xDSL's `IntegerAttr.__init__`, direct for an int in a signless 8-64 bit type."""
    if type(value) is int and not truncate_bits:
        width = _SIGNLESS_BY_ID.get(id(value_type))
        if width is None:
            if type(value_type) is int:
                if value_type in _SIGNLESS:
                    width, value_type = value_type, _SIGNLESS[value_type]
            elif (
                type(value_type) is IntegerType
                and value_type.signedness.data is Signedness.SIGNLESS
                and value_type.width.data in _SIGNLESS
            ):
                width = value_type.width.data
        if width is not None and -(1 << (width - 1)) <= value < (1 << width):
            if value >= 1 << (width - 1):
                value -= 1 << width
            object.__setattr__(self, "value", IntAttr(value))
            object.__setattr__(self, "type", value_type)
            return
    _INTEGER_ATTR_INIT(self, value, value_type, truncate_bits=truncate_bits)  # pyright: ignore[reportArgumentType]


_SSA_VALUE_ERASE = SSAValue.erase
_ACCESSOR_GET = BaseAccessor.__get__
_SSA_VALUES_GETITEM = SSAValues.__getitem__
_TUPLE_ITEM = tuple.__getitem__


def _replace_all_uses_with(self: SSAValue, value: SSAValue) -> None:
    """xDSL's `SSAValue.replace_all_uses_with`: every use of `self` becomes a use of `value`,
    in the order xDSL moves them (first to last), each user's operand tuple rebuilt once."""
    replace_values(((self, value),))


def _accessor_get(self: BaseAccessor, obj: Operation | None, objtype: type | None = None) -> Any:
    """xDSL's `BaseAccessor.__get__`; a single operand or result before any variadic one is
    the op's own tuple item, and the op's only operand or result definition, variadic, is the
    op's own operand or result tuple (xDSL slices a copy of it)."""
    if obj is not None:
        kind = type(self)
        if kind is BeforeVariadicSingleAccessor:
            construct = self.construct
            if construct is VarIRConstruct.OPERAND:
                return _TUPLE_ITEM(obj._operands, self.idx)
            if construct is VarIRConstruct.RESULT:
                return _TUPLE_ITEM(obj.results, self.idx)
            if construct is VarIRConstruct.REGION:
                return obj.regions[self.idx]
        elif kind is UniqueVariadicAccessor and self.num_defs == 1:  # pyright: ignore[reportAttributeAccessIssue]
            construct = self.construct
            if construct is VarIRConstruct.OPERAND and type(obj._operands) is SSAValues:
                return obj._operands
            if construct is VarIRConstruct.RESULT and type(obj.results) is SSAValues:
                return obj.results
    return _ACCESSOR_GET(self, obj, objtype)  # pyright: ignore[reportArgumentType]


_REGION_BLOCKS_GETITEM = RegionBlocks.__getitem__


def _region_blocks_getitem(self: RegionBlocks, idx: int | slice) -> Any:
    """xDSL's `RegionBlocks.__getitem__` (same blocks, same IndexError)."""
    if type(idx) is int and idx >= 0:
        block = self._region.first_block
        while block is not None and idx:
            block = block.next_block
            idx -= 1
        if block is None:
            raise IndexError
        return block
    return _REGION_BLOCKS_GETITEM(self, idx)


def _ssa_values_getitem(self: SSAValues[Any], idx: int | slice) -> Any:
    """xDSL's `SSAValues.__getitem__` (an int: the tuple's item; a slice: `SSAValues`)."""
    if type(idx) is int:
        return _TUPLE_ITEM(self, idx)
    return _SSA_VALUES_GETITEM(self, idx)


def _links(node: IRNode) -> list[IRNode | None]:
    """What `_nested` follows from `node`: the next op and the regions of an op, the first
    block of a region, the next block and the first op of a block."""
    if isinstance(node, Operation):
        return [node._next_op, *node.regions]
    if isinstance(node, Region):
        return [node.first_block]
    assert isinstance(node, Block)
    return [node.next_block, node.first_op]


def _nested(root: Operation | Block) -> Iterator[IRNode]:
    """Every region, block and op inside `root` (not `root`), one per step and in no
    particular order: a block's ops are followed by their links, one at a time."""
    pending: list[IRNode | None] = (
        [root.first_op] if isinstance(root, Block) else list(root.regions)
    )
    while pending:
        node = pending.pop()
        if node is not None:
            yield node
            pending += _links(node)


_QUICK_CLIMB = 12
"""Steps `_encloses` climbs before it also walks the inserted op (a constant: still
O(min(depth, size)) + 12)."""


def _encloses(root: Operation | Block, node: Block | Region) -> bool:
    """Whether `node` is inside `root` (which has no parent: its tree's top). Climbs from
    `node` and walks `root`'s contents in lockstep: O(min(depth of node, size of root))."""
    up: IRNode | None = node
    for _ in range(_QUICK_CLIMB):  # most insertions are shallow: no walk of root at all
        if up is None:
            return False
        if up is root:
            return True
        up = up.parent_node
    down = _nested(root)
    while True:
        if up is None:  # the top of node's tree, and not root
            return False
        if up is root:
            return True
        up = up.parent_node
        inner = next(down, None)
        if inner is None:  # all of root, and not node
            return False
        if inner is node:
            return True


def _block_attach_op(self: Block, operation: Operation) -> None:
    if operation.parent:
        raise ValueError("Can't add to a block an operation already attached to a block.")
    if operation.regions and _encloses(operation, self):
        raise ValueError("Can't add an operation to a block contained in the operation.")
    operation.parent = self


def _region_attach_block(self: Region, block: Block) -> None:
    if block.parent:
        raise ValueError("Can't add to a region a block already attached to a region.")
    if block.first_op is not None and _encloses(block, self):
        raise ValueError("Can't add a block to a region contained in the block.")
    block.parent = self


def _ssa_value_erase(self: SSAValue, safe_erase: bool = True) -> None:
    """xDSL's `SSAValue.erase`; a value without uses has nothing to replace."""
    if self.first_use is not None:
        _SSA_VALUE_ERASE(self, safe_erase)


def _isolated_from_above_verify(self: IsolatedFromAbove, op: Operation) -> None:
    """xDSL's `IsolatedFromAbove.verify` (same walk, same error): an operand defined in the
    block being walked (its result or argument) is inside `op` without the parent walk of
    `is_ancestor`, which the others still take; whether an op class is itself isolated is read
    once per class and verification."""
    regions: list[Region] = list(op.regions)
    isolated: dict[type, bool] = {}
    while regions:
        region = regions.pop()
        for block in region.blocks:
            for child_op in block.ops:
                for operand in child_op._operands:
                    owner = operand.owner
                    if owner is block or owner.parent is block:
                        continue
                    if not op.is_ancestor(owner) or owner is op:
                        raise VerifyException(
                            "Operation using value defined out of its "
                            f"IsolatedFromAbove parent: {child_op}"
                        )
                kind = type(child_op)
                nested = isolated.get(kind)
                if nested is None:
                    nested = isolated[kind] = child_op.has_trait(IsolatedFromAbove)
                if not nested:
                    regions += child_op.regions


def _operation_verify(self: Operation, verify_nested_ops: bool = True) -> None:
    """xDSL's `Operation.verify`: the same checks in the same order with the same errors,
    reading the fields (xDSL builds an operand and a successor view, compares blocks with a
    Python `__eq__`, counts the region's blocks by walking them, and recurses through
    `Region.verify` / `Block.verify`, which this inlines). The outermost call runs in a
    `frozen_ir.frozen()` scope: verifiers only read the IR."""
    if not is_frozen():
        with frozen():
            _operation_verify(self, verify_nested_ops)
        return
    for operand in self._operands:
        if type(operand) not in VALUE_CLASSES and isinstance(operand, ErasedSSAValue):
            raise ValueError("Erased SSA value is used by the operation")
    parent_block = self.parent
    parent_region = None if parent_block is None else parent_block.parent
    if self._successors:
        _verify_successors(self, parent_block, parent_region)
    if parent_block is not None and parent_region is not None and parent_block._last_op is self:
        _verify_terminator(self, parent_region)
    if verify_nested_ops:
        for region in self.regions:
            region.verify()
    try:
        self.verify_()
    except VerifyException as err:
        self.emit_error(f"Operation does not verify: {err}", err)


def _verify_successors(op: Operation, block: Block | None, region: Region | None) -> None:
    if block is None or region is None:
        raise VerifyException(
            f"Operation {op.name} with block successors does not belong to a block or a region"
        )
    if block._last_op is not op:
        raise VerifyException(
            f"Operation {op.name} with block successors must terminate its parent block"
        )
    for successor in op._successors:
        if successor.parent is not region:
            raise VerifyException(
                f"Operation {op.name} is branching to a block of a different region"
            )


def _verify_terminator(op: Operation, region: Region) -> None:
    """xDSL's check of the last op of a block of `region`."""
    first = region._first_block
    single = first is not None and first._next_block is None
    if single:
        holder = region.parent
        if holder is not None and not holder.has_trait(NoTerminator):
            if not op.has_trait(IsTerminator):
                raise VerifyException(
                    f"Operation {op.name} terminates block in "
                    "single-block region but is not a terminator"
                )
    elif first is not None and not op.has_trait(IsTerminator):
        raise VerifyException(
            f"Operation {op.name} terminates block in multi-block region but is not a terminator"
        )


def _block_verify(self: Block) -> None:
    """xDSL's `Block.verify` (same checks and errors), its ops followed by their links."""
    op = self._first_op
    while op is not None:
        following = op._next_op
        if op.parent is not self:
            raise ValueError("Parent pointer of operation does not refer to containing region")
        op.verify()
        op = following
    if self._first_op is None:
        region = self.parent
        holder = None if region is None else region.parent
        if region is not None and holder is not None:
            first = region._first_block
            if (
                first is not None
                and first._next_block is None
                and not holder.has_trait(NoTerminator)
            ):
                raise VerifyException(
                    f"Operation {holder.name} contains empty block in "
                    "single-block region that expects at least a terminator"
                )


def _region_verify(self: Region) -> None:
    """xDSL's `Region.verify` (same checks and errors)."""
    block = self._first_block
    while block is not None:
        following = block._next_block
        block.verify()
        if block.parent is not self:
            raise ValueError("Parent pointer of block does not refer to containing region")
        block = following


@dataclass(frozen=True)
class Patch:
    """`owner.attribute = replacement`, and why."""

    name: str
    owner: type
    attribute: str
    replacement: Callable[..., Any]


PATCHES = (
    Patch("dense-literal-type-built-once", AttrParser, "_parse_dense_literal_type",
          _parse_dense_literal_type),
    Patch("hex-float-dense-elements", _TensorLiteralElement, "to_type", _to_type),
    Patch("is-splat-compares-bytes", DenseIntOrFPElementsAttr, "is_splat", _is_splat),
    Patch("narrow-float-complex-non-finite-print", DenseIntOrFPElementsAttr,
          "print_without_type", _print_dense),
    Patch("walk-linear-in-nesting", Operation, "walk", _walk),
    Patch("block-walk-one-generator", Block, "walk", _block_walk),
    Patch("region-walk-one-generator", Region, "walk", _region_walk),
    Patch("block-ops-iterate-by-links", BlockOps, "__iter__", _block_ops_iter),
    Patch("block-ops-reverse-by-links", BlockOps, "__reversed__", _block_ops_reversed),
    Patch("isolated-from-above-local-operands", IsolatedFromAbove, "verify",
          _isolated_from_above_verify),
    Patch("operation-verify-fields", Operation, "verify", _operation_verify),
    Patch("block-verify-links", Block, "verify", _block_verify),
    Patch("region-verify-links", Region, "verify", _region_verify),
    Patch("op-hash-identity-in-c", IRDLOperation, "__hash__", object.__hash__),
    Patch("op-eq-identity-in-c", IRDLOperation, "__eq__", object.__eq__),
    Patch("operation-init-direct", Operation, "__init__", _operation_init),
    Patch("integer-attr-init-direct", IntegerAttr, "__init__", _integer_attr_init),
    Patch("erase-unused-value-directly", SSAValue, "erase", _ssa_value_erase),
    Patch("single-accessor-reads-the-tuple", BaseAccessor, "__get__", _accessor_get),
    Patch("ssa-values-int-item", SSAValues, "__getitem__", _ssa_values_getitem),
    Patch("replace-all-uses-by-links", SSAValue, "replace_all_uses_with", _replace_all_uses_with),
    Patch("region-blocks-index-by-links", RegionBlocks, "__getitem__", _region_blocks_getitem),
    Patch("attach-op-checks-in-lockstep", Block, "_attach_op", _block_attach_op),
    Patch("attach-block-checks-in-lockstep", Region, "_attach_block", _region_attach_block),
)  # fmt: skip

_ORIGINALS: dict[str, Any] = {p.name: vars(p.owner)[p.attribute] for p in PATCHES}
"""xDSL's own definitions, as they were when this module was imported."""


def installed_xdsl() -> str:
    """The version of the installed xDSL distribution."""
    return importlib.metadata.version("xdsl")


def check_version(version: str | None = None) -> None:
    """Raise `XdslVersionError` unless `version` (default: the installed one) is the pinned one."""
    found = installed_xdsl() if version is None else version
    if found != PINNED_XDSL:
        raise XdslVersionError(
            f"neuron-cc patches xDSL {PINNED_XDSL} (neuron_cc/dialects/xdsl_patches.py) and "
            f"refuses to patch xdsl {found}: install the pinned version "
            f"(pip install 'xdsl=={PINNED_XDSL}', or `make venv`)"
        )


def _apply(values: dict[str, Any]) -> None:
    for patch in PATCHES:
        setattr(patch.owner, patch.attribute, values[patch.name])


def install() -> None:
    """Check the xDSL version, then install every patch (idempotent)."""
    check_version()
    _apply({p.name: p.replacement for p in PATCHES})


def is_installed() -> bool:
    """Whether every patch is in place."""
    return all(vars(p.owner)[p.attribute] is p.replacement for p in PATCHES)


@contextmanager
def unpatched() -> Generator[None]:
    """xDSL's own definitions within the block (for tests of the upstream bugs)."""
    was_installed = is_installed()
    _apply(_ORIGINALS)
    try:
        yield
    finally:
        if was_installed:
            _apply({p.name: p.replacement for p in PATCHES})
