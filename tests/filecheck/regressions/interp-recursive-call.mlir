// RUN: not neuron-run %s --random-inputs 0 2>&1 | filecheck %s

// Found for issue 10 (interpreter safety): a computation that calls itself passed the
// verifier and the interpreter recursed until Python's RecursionError, after xDSL had
// printed the whole module into the exception at every level (minutes on big modules).
// The tools now refuse it before running (driver.py's call-graph check) and the interpreter
// itself stops at the call that closes the cycle (run_module users); both name that call.

// CHECK: error: {{.*}}interp-recursive-call.mlir:22:5: {{.*}}recursive call of @f (@f -> @g -> @f): HLO computations cannot recurse
// CHECK-NOT: Traceback

builtin.module attributes {hlo.num_partitions = 2 : i64} {
  func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
    %r = hlo.call @f(%x) : (tensor<2xf32>) -> tensor<2xf32>
    func.return %r : tensor<2xf32>
  }
  func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
    %r = hlo.call @g(%x) : (tensor<2xf32>) -> tensor<2xf32>
    func.return %r : tensor<2xf32>
  }
  func.func @g(%x: tensor<2xf32>) -> tensor<2xf32> {
    %r = hlo.call @f(%x) : (tensor<2xf32>) -> tensor<2xf32>
    func.return %r : tensor<2xf32>
  }
}
