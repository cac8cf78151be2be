"""Filtering ops by class in one pass, with the class test made once per op class.

`isinstance(op, SomeOp)` on an xDSL op class goes through `ABCMeta.__instancecheck__` (a Python
frame, ~0.2 us for a negative answer), and the passes ask it of every op of a module in the
walks that look for their candidates. `of_class` asks `issubclass` once per distinct op class
met in the walk and reads the answer from a dict for the rest: the same ops, in the same order
as `[op for op in ops if isinstance(op, kinds)]`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar, overload

from xdsl.ir import BlockArgument, Operation, OpResult

T = TypeVar("T", bound=Operation)

VALUE_CLASSES = frozenset({OpResult, BlockArgument})
"""The exact classes of a live SSA value (not an `ErasedSSAValue`): `type(v) in VALUE_CLASSES`
answers what `isinstance(v, SSAValue)` would for them without the ABC's Python frame."""


@overload
def of_class(ops: Iterable[Operation], kinds: type[T]) -> list[T]: ...


@overload
def of_class(ops: Iterable[Operation], kinds: tuple[type[Operation], ...]) -> list[Operation]: ...


def of_class(
    ops: Iterable[Operation], kinds: type[Operation] | tuple[type[Operation], ...]
) -> list[Any]:
    """The ops of `ops` that are instances of `kinds`, in order."""
    answers: dict[type, bool] = {}
    found: list[Any] = []
    for op in ops:
        cls = type(op)
        hit = answers.get(cls)
        if hit is None:
            hit = answers[cls] = issubclass(cls, kinds)
        if hit:
            found.append(op)
    return found
