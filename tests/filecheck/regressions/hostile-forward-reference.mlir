// RUN: not neuron-opt %s -p hlo-dce 2>&1 | filecheck %s
// RUN: not neuron-run %s --random-inputs 0 2>&1 | filecheck %s

// Found by the hostile corpus (tests/hostile/cycle.mlir, issue 10): xDSL's verifier does not
// check dominance, so two ops using each other (or any use before its definition) in a
// function body passed verification and reached the passes and the interpreter. The tools now
// reject it at the op (neuron_cc/tools/driver.py check_module).

// CHECK: error: {{.*}}hostile-forward-reference.mlir:13:5: 'hlo.add' op uses %b before it is defined (a cycle or forward reference)

builtin.module {
  func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
    %a = "hlo.add"(%x, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %b = "hlo.add"(%x, %a) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    func.return %b : tensor<8xf32>
  }
}
