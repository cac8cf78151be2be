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

What always runs: the op's traits (they may inspect parents and nested ops, e.g.
`IsolatedFromAbove`), the op's own `verify_`, and xDSL's structural checks around them
(terminators, erased operands, nested regions). Failures are never remembered, so every error
message is exactly xDSL's. Signatures are looked up first by the identities of their parts (the
cache keeps those objects alive, so an identity is never reused) and then by value; the cache is
bounded and simply cleared when full.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from xdsl.ir import Operation
from xdsl.irdl import IRDLOperation

_MAX_ENTRIES = 100_000
_MAX_IDENTITIES = 20_000


class _Cache:
    """Verified signatures, by identity of their parts and by value."""

    def __init__(self) -> None:
        self.by_identity: dict[tuple[int, ...], tuple[object, ...]] = {}
        self.by_value: set[tuple[object, ...]] = set()

    def remember(self, key: tuple[object, ...], identity: tuple[int, ...]) -> None:
        # Parsed .mlir gives every op its own type objects: the identity map would grow with
        # the module, so it is bounded more tightly than the value set.
        if len(self.by_identity) >= _MAX_IDENTITIES:
            self.by_identity.clear()
        if len(self.by_value) >= _MAX_ENTRIES:
            self.clear()
        self.by_identity[identity] = key
        self.by_value.add(key)

    def clear(self) -> None:
        self.by_identity.clear()
        self.by_value.clear()


_DEFINITION_CHECKS = _Cache()
"""Signatures whose IRDL definition checks passed."""
_WHOLE_VERIFIERS = _Cache()
"""Signatures of `local` ops whose whole `verify_` passed."""


def signature(op: Operation) -> tuple[object, ...]:
    """Everything the IRDL definition checks of `op` depend on, as a flat tuple (its class
    stands for its definition)."""
    parts: list[object] = [type(op), len(op.operands)]
    parts.extend(operand.type for operand in op.operands)
    parts.append(len(op.results))
    parts.extend(result.type for result in op.results)
    parts.append(len(op.regions))
    for region in op.regions:
        block = region.first_block
        if block is None:
            parts.append(0)
            continue
        parts.append(1 if block.next_block is None else len(region.blocks))
        parts.append(len(block.args))
        parts.extend(arg.type for arg in block.args)
    parts.append(len(op.successors))
    parts.append(len(op.properties))
    for name, value in op.properties.items():
        parts.append(name)
        parts.append(value)
    for name in type(op).get_irdl_definition().attributes:  # pyright: ignore[reportAttributeAccessIssue]
        parts.append(name)
        parts.append(op.attributes.get(name))
    return tuple(parts)


def _memoised(
    cache: _Cache, check: Callable[[Any], None], traits: tuple[Any, ...]
) -> Callable[[Any], None]:
    """`check`, skipped (but for the traits) when an equal signature passed it before."""

    def verify(op: Operation) -> None:
        key = signature(op)
        identity = tuple(map(id, key))
        if identity not in cache.by_identity:
            try:
                known = key in cache.by_value
            except TypeError:  # an unhashable attribute: verify the slow way, remember nothing
                check(op)
                return
            if not known:
                check(op)  # raises on failure: nothing remembered
            cache.remember(key, identity)
            if not known:
                return
        for trait in traits:
            trait.verify(op)

    return verify


def install(ops: Iterable[type[Operation]], local: Iterable[type[Operation]] = ()) -> None:
    """Memoise the IRDL definition checks of `ops`, and the whole `verify_` of the `local` ops
    (whose own checks read only the signature). Idempotent."""
    local_ops = set(local)
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


def cached_signatures() -> int:
    """How many distinct signatures are remembered."""
    return len(_DEFINITION_CHECKS.by_value) + len(_WHOLE_VERIFIERS.by_value)
