// RUN: neuron-opt %s -p hlo-dce --verify-equivalence | filecheck %s

// --verify-equivalence runs the input and the result on seeded random inputs (4 simulated
// devices here) and exits 1 with the first difference if they disagree.

builtin.module attributes {hlo.num_partitions = 4 : i64} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
    %dead = hlo.exponential %x : tensor<4xf32>
    %s = hlo.all_reduce(%x) replica_groups = [[0, 1, 2, 3]] channel_id = 1 use_global_device_ids {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<4xf32>) -> tensor<4xf32>
    func.return %s : tensor<4xf32>
  }
}

// CHECK:      func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
// CHECK-NEXT:   %s = hlo.all_reduce(%x)
