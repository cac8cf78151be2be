builtin.module attributes {hlo.num_partitions = 8 : i64} {
  func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = "nosuch.op"(%x) : (tensor<8xf32>) -> tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}
