"""The host's infeed and outfeed queues of one run, and exact casting of host arrays.

XLA gives every device an infeed queue the host fills (`TransferToInfeed`) and an outfeed
queue it drains (`TransferFromOutfeed`). Our values hold all devices at once, so one queue
serves them all: an entry is the list of the data's tensors in tuple order (leaves of a
nested tuple depth first), each with the leading device axis. The K-th `hlo.infeed` the
program executes takes entry K (an infeed whose data has no tensor, e.g. `()`, takes none);
every `hlo.outfeed` appends its data's tensors. An entry that does not match the infeed's
type, or an empty queue, is a located `InterpretationError`; so is an entry nobody read
(XLA would leave it in the queue for a later program: we report it, as an unread feed
usually means the program and its data disagree).

`.npz` naming (`neuron-run --infeed/--outfeed`): `infeed<K>_<L>_dev<D>` (or `infeed<K>_<L>`
for one array every device reads) is leaf L of entry K; the outfeed is written as
`outfeed<K>_<L>_dev<D>`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import TensorType, TupleType
from xdsl.ir import Attribute, Operation

from neuron_cc.interpreter.values import (
    InterpretationError,
    SpmdState,
    Value,
    normalize,
    numpy_dtype,
)

Array = np.ndarray[Any, Any]


def cast_host_array(name: str, array: Array, t: Attribute, devices: int, per_device: bool) -> Array:
    """`array` as a value of tensor type `t` (device axis first); refused unless exact.

    `per_device`: `array` already has the device axis; otherwise every device gets it.
    """
    if not isinstance(t, TensorType):
        raise InterpretationError(f"{name}: only tensors can be fed, got {t}")
    shape = tuple(t.get_shape())
    if per_device and (array.ndim == 0 or array.shape[0] != devices):
        raise InterpretationError(
            f"{name}: expected a leading device axis of {devices}, got shape {list(array.shape)}"
        )
    got = array.shape[1:] if per_device else array.shape
    if got != shape:
        raise InterpretationError(f"{name}: expected shape {list(shape)}, got {list(got)}")
    value = array if per_device else np.broadcast_to(array, (devices, *shape))
    element = t.element_type
    target = numpy_dtype(element)
    if value.dtype.kind == "c" and target.kind != "c":
        raise InterpretationError(
            f"{name}: complex values of dtype {value.dtype} do not fit {element}"
        )
    cast = normalize(value.astype(target), element)
    wide = np.complex128 if target.kind == "c" else np.float64
    lossless = np.array_equal(cast.astype(wide), value.astype(wide), equal_nan=True)
    if value.dtype.kind in "fiubc" and not lossless:
        raise InterpretationError(
            f"{name}: values of dtype {value.dtype} do not fit {element} exactly"
        )
    return np.ascontiguousarray(cast)


def leaf_types(t: Attribute) -> list[Attribute]:
    """The tensors of a (nested) tuple type, depth first."""
    if isinstance(t, TupleType):
        return [leaf for e in t.types.data for leaf in leaf_types(e)]
    return [t]


def _build(t: Attribute, leaves: Iterator[Array]) -> Value:
    if isinstance(t, TupleType):
        return tuple(_build(e, leaves) for e in t.types.data)
    return next(leaves)


def leaves_of(value: Value) -> list[Array]:
    if isinstance(value, tuple):
        return [leaf for e in value for leaf in leaves_of(e)]
    return [value]


def take_infeed(state: SpmdState, data_type: Attribute, op: Operation) -> Value:
    """The next infeed entry, cast exactly to `data_type`."""
    types = leaf_types(data_type)
    if not types:
        return _build(data_type, iter([]))
    k = state.infeed_taken
    if k >= len(state.infeed):
        raise InterpretationError(
            f"the infeed queue is empty: this is infeed number {k} of the run and only "
            f"{len(state.infeed)} entries were fed",
            op,
        )
    entry = state.infeed[k]
    if len(entry) != len(types):
        raise InterpretationError(
            f"infeed entry {k} has {len(entry)} arrays, the infeed reads {len(types)} "
            f"tensors ({data_type})",
            op,
        )
    try:
        leaves = [
            cast_host_array(f"infeed entry {k} array {i}", a, t, state.num_devices, True)
            for i, (a, t) in enumerate(zip(entry, types, strict=True))
        ]
    except InterpretationError as e:
        e.op = op
        raise
    state.infeed_taken = k + 1
    return _build(data_type, iter(leaves))


def put_outfeed(state: SpmdState, value: Value) -> None:
    state.outfeed.append(leaves_of(value))


def check_infeed_drained(state: SpmdState) -> None:
    unread = len(state.infeed) - state.infeed_taken
    if unread > 0:
        raise InterpretationError(
            f"{unread} infeed entr{'y was' if unread == 1 else 'ies were'} fed but never read "
            f"(the program ran {state.infeed_taken} infeeds)"
        )


_FEED_KEY = re.compile(r"infeed(\d+)_(\d+)(?:_dev(\d+))?")


def infeed_from_npz(data: Mapping[str, Array], devices: int) -> list[list[Array]]:
    """Infeed entries from `infeed<K>_<L>[_dev<D>]` arrays (others are ignored)."""
    found: dict[tuple[int, int], dict[int | None, Array]] = {}
    for key, array in data.items():
        match = _FEED_KEY.fullmatch(key)
        if match is None:
            continue
        k, leaf, dev = match.groups()
        found.setdefault((int(k), int(leaf)), {})[None if dev is None else int(dev)] = array
    entries: list[list[Array]] = []
    for k in range(1 + max((k for k, _ in found), default=-1)):
        count = 1 + max((leaf for kk, leaf in found if kk == k), default=-1)
        if count == 0:
            raise InterpretationError(f"infeed entry {k} has no arrays (infeed{k}_0 missing)")
        entries.append([_stack(found.get((k, leaf)), k, leaf, devices) for leaf in range(count)])
    return entries


def _stack(arrays: dict[int | None, Array] | None, k: int, leaf: int, devices: int) -> Array:
    name = f"infeed{k}_{leaf}"
    if arrays is None:
        raise InterpretationError(f"missing infeed array {name}")
    if None in arrays:
        if len(arrays) > 1:
            raise InterpretationError(f"{name} is given both for every device and per device")
        one = np.asarray(arrays[None])
        return np.broadcast_to(one, (devices, *one.shape))
    missing = [d for d in range(devices) if d not in arrays]
    if missing:
        raise InterpretationError(f"missing infeed array {name}_dev{missing[0]}")
    return np.stack([np.asarray(arrays[d]) for d in range(devices)])


def outfeed_to_npz(entries: Sequence[Sequence[Array]]) -> dict[str, Array]:
    return {
        f"outfeed{k}_{leaf}_dev{d}": array[d]
        for k, entry in enumerate(entries)
        for leaf, array in enumerate(entry)
        for d in range(array.shape[0])
    }
