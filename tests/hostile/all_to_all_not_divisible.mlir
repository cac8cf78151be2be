builtin.module attributes {hlo.num_partitions = 8 : i64} {
  func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.all_to_all(%x) dim = 0 replica_groups = [[0, 1, 2]] channel_id = 1 : (tensor<8xf32>) -> tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}
