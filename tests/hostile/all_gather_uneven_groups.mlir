builtin.module attributes {hlo.num_partitions = 8 : i64} {
  func.func @main(%x: tensor<8xf32>) -> tensor<24xf32> {
    %r = hlo.all_gather(%x) dim = 0 replica_groups = [[0, 1, 2], [3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<8xf32>) -> tensor<24xf32>
    func.return %r : tensor<24xf32>
  }
}
