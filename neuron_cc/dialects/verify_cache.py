"""Memoised IRDL verification for neuron-cc's ops (the definition checks only).

xDSL checks every op against its IRDL definition (operand, result, region, successor, property
and attribute constraints) on every verification: about 25 µs per op, most of the time of a
module verification (3.4 s of a 100,000-op module, done at pipeline start and end). Those checks
are a pure function of the op's *signature*: its definition, its operand and result types, the
block count and entry argument types of each region, its successor count, and its properties and
defined attributes (attributes are immutable values). Once an op of a given signature passed, any
op with an equal signature passes too, so `install` wraps each op definition's `verify` to look
the signature up first and to skip the constraint checks on a hit.

Ops whose own `verify_` also reads nothing but the signature (shape rules of elementwise, data
movement and dot ops) are passed as `local` to `install`: for them a hit skips `verify_` too.
Before memoising a `local` op's `verify_` whole, `install` checks its code (`nonlocal_reads`):
the verifier and every function of its module it calls, transitively, must not read an op's
surroundings (`parent`, uses, regions, neighbours, ...); otherwise `install` raises
`NotSignatureLocal` naming the op and what it reads.

What always runs: the op's traits (they may inspect parents and nested ops, e.g.
`IsolatedFromAbove`), the op's own `verify_`, and xDSL's structural checks around them
(terminators, erased operands, nested regions). Failures are never remembered, so every error
message is exactly xDSL's. Signatures are looked up first by the identities of their parts (the
cache keeps those objects alive, so an identity is never reused) and then by value; the cache is
bounded and simply cleared when full.

Linear in the size of the attributes: xDSL attributes do not cache their hash, so hashing a
signature whose operand is a 2,000-element tuple type walks all 2,000 elements, and every op that
reads the loop value would pay it (quadratic in the loop's width). Attribute parts are therefore
INTERNED: every distinct attribute object is hashed once (`_Interner`: id -> the canonical object
of its value), and the by-value key holds the canonical objects' ids, which hash in O(1).
"""

from __future__ import annotations

import types
from collections.abc import Callable, Iterable
from typing import Any

from xdsl.ir import Attribute, Operation
from xdsl.irdl import IRDLOperation

_MAX_ENTRIES = 100_000
_MAX_IDENTITIES = 20_000


class _Cache:
    """Verified signatures, by identity of their parts and by value."""

    def __init__(self) -> None:
        self.by_identity: dict[tuple[int, ...], tuple[object, ...]] = {}
        """identities of a signature's parts -> the parts (kept alive)."""
        self.by_value: set[tuple[object, ...]] = set()

    def remember(
        self, key: tuple[object, ...], identity: tuple[int, ...], parts: tuple[object, ...]
    ) -> None:
        # Parsed .mlir gives every op its own type objects: the identity map would grow with
        # the module, so it is bounded more tightly than the value set. It keeps `parts` (the
        # objects whose ids it is keyed by) alive.
        if len(self.by_identity) >= _MAX_IDENTITIES:
            self.by_identity.clear()
        if len(self.by_value) >= _MAX_ENTRIES:
            self.clear()
        self.by_identity[identity] = parts
        self.by_value.add(key)

    def clear(self) -> None:
        self.by_identity.clear()
        self.by_value.clear()


class _Interner:
    """Canonical attribute objects: one per value, found by the identity of any equal object."""

    def __init__(self) -> None:
        self.by_id: dict[int, tuple[object, object]] = {}
        """id(x) -> (x, canonical): x is kept alive, so its id is never reused while here."""
        self.by_value: dict[object, object] = {}

    def canonical_id(self, x: object) -> int:
        hit = self.by_id.get(id(x))
        if hit is None:
            canonical = self.by_value.setdefault(x, x)  # the one hash of this object
            hit = self.by_id[id(x)] = (x, canonical)
        return id(hit[1])

    def clear(self) -> None:
        self.by_id.clear()
        self.by_value.clear()


_INTERNER = _Interner()

_DEFINITION_CHECKS = _Cache()
"""Signatures whose IRDL definition checks passed."""
_WHOLE_VERIFIERS = _Cache()
"""Signatures of `local` ops whose whole `verify_` passed."""


_ATTRIBUTE_NAMES: dict[type, tuple[str, ...]] = {}
"""Per op class: the names of the attributes its IRDL definition declares."""


def _attribute_names(kind: type[Operation]) -> tuple[str, ...]:
    names = _ATTRIBUTE_NAMES.get(kind)
    if names is None:
        names = _ATTRIBUTE_NAMES[kind] = tuple(kind.get_irdl_definition().attributes)  # pyright: ignore[reportAttributeAccessIssue]
    return names


def signature(op: Operation) -> tuple[object, ...]:
    """Everything the IRDL definition checks of `op` depend on, as a flat tuple (its class
    stands for its definition). The operands are read from xDSL's tuple (`op.operands` builds
    a view per access)."""
    operands = op._operands
    results = op.results
    parts: list[object] = [type(op), len(operands), *[v._type for v in operands], len(results)]
    parts += [r._type for r in results]
    regions = op.regions
    parts.append(len(regions))
    for region in regions:
        block = region.first_block
        if block is None:
            parts.append(0)
            continue
        parts.append(1 if block.next_block is None else len(region.blocks))
        args = block.args
        parts.append(len(args))
        parts += [arg._type for arg in args]
    parts.append(len(op._successors))
    properties = op.properties
    parts.append(len(properties))
    for item in properties.items():
        parts += item
    attributes = op.attributes
    for name in _attribute_names(type(op)):
        parts.append(name)
        parts.append(attributes.get(name))
    return tuple(parts)


def _value_key(parts: tuple[object, ...]) -> tuple[object, ...]:
    """`parts` with every attribute replaced by its canonical object's id (O(1) to hash)."""
    if len(_INTERNER.by_id) + len(parts) >= _MAX_ENTRIES:
        clear()  # the caches' keys hold canonical ids: they go with the interner (never mid-key)
    return tuple(_INTERNER.canonical_id(p) if isinstance(p, Attribute) else p for p in parts)


def _memoised(
    cache: _Cache, check: Callable[[Any], None], traits: tuple[Any, ...]
) -> Callable[[Any], None]:
    """`check`, skipped (but for the traits) when an equal signature passed it before."""

    def verify(op: Operation) -> None:
        parts = signature(op)
        identity = tuple(map(id, parts))
        if identity not in cache.by_identity:
            try:
                key = _value_key(parts)
                known = key in cache.by_value
            except TypeError:  # an unhashable attribute: verify the slow way, remember nothing
                check(op)
                return
            if not known:
                check(op)  # raises on failure: nothing remembered
            cache.remember(key, identity, parts)
            if not known:
                return
        for trait in traits:
            trait.verify(op)

    verify.neuron_cc_memoised = True  # pyright: ignore[reportFunctionMemberAccess]
    return verify


NONLOCAL_NAMES = frozenset(
    {
        *("parent", "parent_op", "parent_block", "parent_region", "get_toplevel_object"),
        *("uses", "first_use", "get_unique_use", "get_user_of_unique_use", "users", "owner"),
        *("regions", "successors", "walk", "body", "blocks", "first_block", "ops"),
        *("next_op", "prev_op", "is_before_in_block", "is_ancestor", "get_attr_or_prop"),
    }
)
"""Attribute names through which a verifier would read more than the op's signature."""


class NotSignatureLocal(Exception):
    """A `local` op's verifier reads more than its signature: it cannot be memoised whole."""


def _code_objects(code: types.CodeType) -> Iterable[types.CodeType]:
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _code_objects(const)


def _callees(fn: Callable[..., Any], names: Iterable[str], owner: type | None) -> list[Any]:
    """The functions `fn` may call by these names: its module's functions, its closure's, and
    methods of `owner` defined in the same module as `owner` (not xDSL's own)."""
    module_globals: dict[str, Any] = getattr(fn, "__globals__", {})
    found = [c.cell_contents for c in getattr(fn, "__closure__", None) or ()]
    for name in names:
        found.append(module_globals.get(name))
        if owner is not None:
            method = getattr(owner, name, None)
            if getattr(method, "__module__", None) == owner.__module__:
                found.append(method)
    return [f for f in found if isinstance(f, types.FunctionType)]


def nonlocal_reads(function: Callable[..., Any], owner: type | None = None) -> set[str]:
    """The names of `NONLOCAL_NAMES` that `function` reads as an attribute or global, or that a
    function it may call reads (transitively: functions of its module and closure, nested code,
    and `owner`'s own methods)."""
    found: set[str] = set()
    seen: set[types.CodeType] = set()
    todo: list[Callable[..., Any]] = [function]
    while todo:
        fn = todo.pop()
        code = getattr(fn, "__code__", None)
        if not isinstance(code, types.CodeType) or code in seen:
            continue
        seen.add(code)
        for inner in _code_objects(code):
            found.update(NONLOCAL_NAMES.intersection(inner.co_names))
            todo.extend(_callees(fn, inner.co_names, owner))
    return found


def check_signature_local(op: type[Operation]) -> None:
    """Raise `NotSignatureLocal` if `op.verify_` may read more than the op's signature."""
    reads = nonlocal_reads(op.verify_, op)
    if reads:
        raise NotSignatureLocal(
            f"{op.__name__}.verify_ reads {', '.join(sorted(reads))}: its verdict may depend "
            "on more than the op's signature, so it cannot be memoised whole"
        )


def install(ops: Iterable[type[Operation]], local: Iterable[type[Operation]] = ()) -> None:
    """Memoise the IRDL definition checks of `ops`, and the whole `verify_` of the `local` ops
    (whose own checks read only the signature: checked first, `NotSignatureLocal`).
    Idempotent."""
    local_ops = set(local)
    for op in local_ops:
        if not getattr(op.verify_, "neuron_cc_memoised", False):
            check_signature_local(op)
    for op in ops:
        if not issubclass(op, IRDLOperation):
            continue
        op_def = op.get_irdl_definition()
        if "verify" in vars(op_def):
            continue
        traits = tuple(op_def.traits)
        vars(op_def)["verify"] = _memoised(_DEFINITION_CHECKS, op_def.verify, traits)
        if op in local_ops:
            op.verify_ = _memoised(_WHOLE_VERIFIERS, op.verify_, traits)  # pyright: ignore


def clear() -> None:
    """Forget every remembered signature (for tests and benchmarks)."""
    _DEFINITION_CHECKS.clear()
    _WHOLE_VERIFIERS.clear()
    _INTERNER.clear()


def cached_signatures() -> int:
    """How many distinct signatures are remembered."""
    return len(_DEFINITION_CHECKS.by_value) + len(_WHOLE_VERIFIERS.by_value)
