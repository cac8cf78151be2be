builtin.module attributes {hlo.num_partitions = 8 : i64} {
  func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.all_reduce(%x) replica_groups = [2,4]<=[4,2]T(0,0) channel_id = 1 use_global_device_ids {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}
