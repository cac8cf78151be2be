// RUN: neuron-run %s --random-inputs 0 --stats 2>&1 | filecheck %s
// RUN: neuron-opt %s -p decompose-cc-ops --verify-equivalence | filecheck %s --check-prefix=OPT

// Found by tests/test_properties.py (issue 10): a tuple-form all_to_all (no `dim`) with ONE
// operand - legal when every group has one member - returns a tensor, not a 1-tuple (the
// dialect's rule: a tuple result iff several operands), but the interpreter returned a Python
// 1-tuple, so the next op that used it crashed with "'tuple' object has no attribute ...".
// The interpreter now returns the tensor itself for a single operand.

// CHECK-NOT: {{Traceback|error}}
// CHECK: | all-to-all | 1 | 0 |

// OPT: hlo.all_to_all(%x) replica_groups = [[0], [1]] channel_id = 1 : (tensor<2xf32>) -> tensor<2xf32>

builtin.module attributes {hlo.num_partitions = 2 : i64, hlo.use_spmd_partitioning} {
  func.func @main() -> tensor<2xf32> attributes {hlo.entry} {
    %x = hlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
    %a = hlo.all_to_all(%x) replica_groups = [[0], [1]] channel_id = 1 : (tensor<2xf32>) -> tensor<2xf32>
    %y = hlo.add %a, %a : tensor<2xf32>
    func.return %y : tensor<2xf32>
  }
}
