// RUN: not neuron-opt %s 2>&1 | filecheck %s
// RUN: sed -e 's/99999999999999999999999/1/' -e '/^}$/d' %s | not neuron-opt 2>&1 | filecheck %s --check-prefix=EOF

// Found by the hostile corpus (issue 10): an attribute value out of range (channel_id_overflow)
// was reported without a location, and a module cut short (truncated_unclosed_module) as
// "<file>:L:C:  in block definition" (an empty xDSL message).

// CHECK: error: {{.*}}hostile-parse-errors.mlir:[[# @LINE + 4]]:{{[0-9]+}}: Integer value 99999999999999999999999 is out of range for type i64
// EOF: error: {{.*}}: unexpected end of input in block definition
builtin.module attributes {hlo.num_partitions = 2 : i64} {
  func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.collective_permute %x pairs = [[0, 1], [1, 0]] channel_id = 99999999999999999999999 : tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}
