"""The one alpha-beta cost model (neuron_cc/interpreter/cost_model.py) and its users."""

from __future__ import annotations

import pytest

from neuron_cc.interpreter.cost_model import DEFAULT, AlphaBeta
from neuron_cc.interpreter.values import CollectiveRecord


def test_launches_cost_alpha_and_bytes_cost_their_transfer_time() -> None:
    model = AlphaBeta(alpha_us=5.0, bandwidth_gbps=2.0)
    assert model.time_us(0, 0.0) == 0.0
    assert model.time_us(3, 0.0) == 15.0
    assert model.time_us(0, 4000.0) == pytest.approx(2.0)  # 4 kB at 2 GB/s = 2 us
    assert model.record_us(CollectiveRecord(launches=2, bytes_per_device=8000.0)) == 14.0


def test_neuron_run_and_the_benchmark_share_the_defaults() -> None:
    from neuron_cc.tools import neuron_run

    args = neuron_run._arguments(["x.mlir", "--random-inputs", "0"])
    assert (args.alpha_us, args.bandwidth_gbps) == (DEFAULT.alpha_us, DEFAULT.bandwidth_gbps)
    assert (DEFAULT.alpha_us, DEFAULT.bandwidth_gbps) == (10.0, 100.0)
