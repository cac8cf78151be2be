"""Export handlers of add-dependency, domain, copy-start/-done, infeed/outfeed and the RNG ops
(`op -> opcode(operands), attr=value`), merged into the exporter's table. Raw `xla.*`
attributes (`infeed_config`, `outfeed_shape`, ...) are printed back by the exporter itself."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Protocol

from xdsl.ir import Operation, SSAValue

from neuron_cc.dialects.hlo import host_feeds, rng, scheduling
from neuron_cc.translate.hlo_text.export_text import int_value


class Builder(Protocol):
    """What a handler needs of the exporter's per-computation builder."""

    def refs(self, values: Iterable[SSAValue]) -> str: ...


def _opcode(op: Operation) -> str:
    return op.name.removeprefix("hlo.").replace("_", "-")


def _plain(b: Builder, op: Operation) -> str:
    return f"{_opcode(op)}({b.refs(op.operands)})"


def _domain(b: Builder, op: scheduling.DomainOp) -> str:
    return f"{_plain(b, op)}, domain={op.domain.data}"


def _copy_start(b: Builder, op: scheduling.CopyStartOp) -> str:
    index = op.cross_program_prefetch_index
    if index is None:
        return _plain(b, op)
    return f"{_plain(b, op)}, cross_program_prefetch_index={int_value(index)}"


def _rng(b: Builder, op: rng.RngOp) -> str:
    return f"{_plain(b, op)}, distribution={op.distribution.data}"


def _rng_bit_generator(b: Builder, op: rng.RngBitGeneratorOp) -> str:
    return f"{_plain(b, op)}, algorithm={op.algorithm.data}"


def _rng_state(b: Builder, op: rng.RngGetAndUpdateStateOp) -> str:
    return f"{_plain(b, op)}, delta={int_value(op.delta)}"


HANDLERS: dict[str, Callable[[Any, Any], str]] = {
    scheduling.AddDependencyOp.name: _plain,
    scheduling.DomainOp.name: _domain,
    scheduling.CopyStartOp.name: _copy_start,
    scheduling.CopyDoneOp.name: _plain,
    host_feeds.InfeedOp.name: _plain,
    host_feeds.OutfeedOp.name: _plain,
    rng.RngOp.name: _rng,
    rng.RngBitGeneratorOp.name: _rng_bit_generator,
    rng.RngGetAndUpdateStateOp.name: _rng_state,
}
