builtin.module attributes {hlo.num_partitions = 8 : i64} {
  func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
    %p = hlo.constant dense<true> : tensor<i1>
    %r = hlo.conditional(%p) (%x, %x) : (tensor<i1>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32> {
    ^bb0(%t: tensor<8xf32>):
      hlo.return %t : tensor<8xf32>
    }, {
    ^bb0(%f: tensor<4xf32>):
      %z = hlo.constant dense<0.0> : tensor<4xf32>
      hlo.return %z : tensor<4xf32>
    }
    func.return %r : tensor<8xf32>
  }
}
