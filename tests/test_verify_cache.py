"""The memoised verification (neuron_cc/dialects/verify_cache.py) never changes a verdict.

A signature hit may skip only checks that are a pure function of the signature: failures are
never remembered, context-dependent verifiers (collectives reading the module's device counts)
still run on a hit, and traits still run.
"""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

from neuron_cc.dialects import verify_cache
from neuron_cc.testing.ir import parse_module


def _parse(text: str) -> ModuleOp:
    return parse_module(text, verify=False)


ALL_REDUCE = """
builtin.module attributes {{hlo.num_partitions = 4 : i64, hlo.num_replicas = {r} : i64}} {{
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {{
    %r = hlo.all_reduce(%x) replica_groups = [[0, 2], [1, 3]] {{
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    }} : (tensor<8xf32>) -> tensor<8xf32>
    func.return %r : tensor<8xf32>
  }}
}}
"""

BROADCASTS = """
func.func @f(%x: tensor<4xf32>) -> tensor<2x4xf32> {
  %a = hlo.broadcast %x, dims = [1] : (tensor<4xf32>) -> tensor<2x4xf32>
  %b = hlo.broadcast %x, dims = [1] : (tensor<4xf32>) -> tensor<2x4xf32>
  %c = hlo.add %a, %b : tensor<2x4xf32>
  func.return %c : tensor<2x4xf32>
}
"""

BAD_BROADCAST = """
func.func @f(%x: tensor<4xf32>) -> tensor<2x4xf32> {
  %a = hlo.broadcast %x, dims = [0] : (tensor<4xf32>) -> tensor<2x4xf32>
  func.return %a : tensor<2x4xf32>
}
"""


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    verify_cache.clear()


def test_context_dependent_verifier_runs_on_a_signature_hit() -> None:
    _parse(ALL_REDUCE.format(r=4)).verify()  # 4 replicas: valid groups, signature remembered
    bad = _parse(ALL_REDUCE.format(r=2))  # the same op signature, but only 2 replicas
    with pytest.raises(VerifyException, match="contains id 2 outside"):
        bad.verify()


def test_equal_signatures_are_verified_once() -> None:
    module = _parse(BROADCASTS)
    module.verify()
    # func, broadcast (x2, one signature), add, return, module
    assert verify_cache.cached_signatures() <= 6
    before = verify_cache.cached_signatures()
    module.verify()
    assert verify_cache.cached_signatures() == before


def test_failures_are_never_remembered() -> None:
    module = _parse(BAD_BROADCAST)
    for _ in range(2):
        with pytest.raises(VerifyException, match="broadcast operand dimension 0 of size 4"):
            module.verify()


def test_a_failing_op_after_a_passing_one_of_another_signature() -> None:
    _parse(BROADCASTS).verify()
    with pytest.raises(VerifyException, match="does not match"):
        _parse(BAD_BROADCAST).verify()


def test_signature_separates_types_and_properties() -> None:
    module = _parse(BROADCASTS)
    ops = [op for op in module.walk() if op.name == "hlo.broadcast"]
    assert verify_cache.signature(ops[0]) == verify_cache.signature(ops[1])
    other = _parse(BAD_BROADCAST)
    bad = next(op for op in other.walk() if op.name == "hlo.broadcast")
    assert verify_cache.signature(bad) != verify_cache.signature(ops[0])


# --- the registry check: only signature-local verifiers are memoised whole ------------------


def _reads_parent(op: Operation) -> object:
    return op.parent


def test_every_op_memoised_whole_has_a_signature_local_verifier() -> None:
    from neuron_cc.dialects.hlo import HLO, computation, data_movement, elementwise

    local = [*elementwise.OPS, *data_movement.OPS, computation.DotOp]
    assert len(local) > 30
    for op in local:
        assert getattr(op.verify_, "neuron_cc_memoised", False), op.__name__
    for op in HLO.operations:
        if op not in local:
            assert not getattr(op.verify_, "neuron_cc_memoised", False), op.__name__


def test_a_verifier_reading_its_surroundings_is_refused() -> None:
    from xdsl.irdl import IRDLOperation, irdl_op_definition

    @irdl_op_definition
    class ReadsParentOp(IRDLOperation):
        name = "test.reads_parent"

        def verify_(self) -> None:
            if self.parent is None:
                raise VerifyException("needs a parent")

    @irdl_op_definition
    class ReadsThroughAHelperOp(IRDLOperation):
        name = "test.reads_through_a_helper"

        def verify_(self) -> None:
            _reads_parent(self)

    @irdl_op_definition
    class ReadsUsesOp(IRDLOperation):
        name = "test.reads_uses"

        def verify_(self) -> None:
            for result in self.results:
                if not result.uses:
                    raise VerifyException("unused")

    assert verify_cache.nonlocal_reads(ReadsParentOp.verify_) == {"parent"}
    assert verify_cache.nonlocal_reads(ReadsUsesOp.verify_) == {"uses"}
    assert verify_cache.nonlocal_reads(ReadsThroughAHelperOp.verify_) == {"parent"}
    for op in (ReadsParentOp, ReadsUsesOp, ReadsThroughAHelperOp):
        with pytest.raises(verify_cache.NotSignatureLocal, match=op.__name__):
            verify_cache.install([op], local=[op])
    assert not getattr(ReadsParentOp.verify_, "neuron_cc_memoised", False)
