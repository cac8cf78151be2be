builtin.module attributes {hlo.num_partitions = 8 : i64} {
  func.func @main(%x: tensor<8xf32>) -> tensor<16xf32> {
    %r = hlo.all_gather(%x) dim = 3 replica_groups = [[0, 1]] channel_id = 1 use_global_device_ids : (tensor<8xf32>) -> tensor<16xf32>
    func.return %r : tensor<16xf32>
  }
}
