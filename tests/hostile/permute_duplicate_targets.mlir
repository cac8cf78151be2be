builtin.module attributes {hlo.num_partitions = 8 : i64} {
  func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.collective_permute %x pairs = [[0, 3], [1, 3]] channel_id = 1 : tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}
