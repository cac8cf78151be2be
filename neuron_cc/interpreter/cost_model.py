"""The alpha-beta cost model of collectives: `launches * alpha + bytes / bandwidth`.

The one estimate of collective time in the project: `neuron-run --stats` prints it per
collective kind (`--alpha-us`, `--bandwidth-gbps` override `DEFAULT`), and `make bench`
reports it before and after the default pipeline. Bytes are per device, as the interpreter's
statistics count them (`CollectiveRecord.bytes_per_device`).
"""

from __future__ import annotations

from dataclasses import dataclass

from neuron_cc.interpreter.values import CollectiveRecord


@dataclass(frozen=True)
class AlphaBeta:
    alpha_us: float = 10.0
    """Latency of one launch, in microseconds."""
    bandwidth_gbps: float = 100.0
    """Bandwidth per device, in GB/s."""

    def time_us(self, launches: int, bytes_per_device: float) -> float:
        """Estimated time of `launches` launches moving `bytes_per_device` bytes."""
        return launches * self.alpha_us + bytes_per_device / (self.bandwidth_gbps * 1e3)

    def record_us(self, record: CollectiveRecord) -> float:
        """Estimated time of one kind's statistics."""
        return self.time_us(record.launches, record.bytes_per_device)


DEFAULT = AlphaBeta()
"""10 us per launch, 100 GB/s per device."""
