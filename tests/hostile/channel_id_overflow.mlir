builtin.module attributes {hlo.num_partitions = 8 : i64} {
  func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.all_reduce(%x) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 99999999999999999999999 use_global_device_ids {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}
