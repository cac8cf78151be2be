// RUN: not neuron-opt %s -p neuron-default-pipeline 2>&1 | filecheck %s
// RUN: not neuron-opt %s -p convert-hlo-to-bir --emit bir-json 2>&1 | filecheck %s

// Found by the hostile corpus (tests/hostile/mutual_recursion.mlir, issue 10): functions
// calling each other passed verification and every pass (only HLO export and the interpreter
// refused them). HLO has no recursion: the tools now reject the call closing the cycle.

// CHECK: error: {{.*}}hostile-mutual-recursion.mlir:20:5: 'hlo.call' op recursive call of @f (@f -> @g -> @f): HLO computations cannot recurse

builtin.module {
  func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.call @f(%x) : (tensor<8xf32>) -> tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
  func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.call @g(%a) : (tensor<8xf32>) -> tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
  func.func @g(%b: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.call @f(%b) : (tensor<8xf32>) -> tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}
