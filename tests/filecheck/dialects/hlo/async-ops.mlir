// RUN: neuron-opt %s | neuron-opt | filecheck %s
// RUN: neuron-opt %s --print-op-generic | neuron-opt | filecheck %s

// The asynchronous ops (neuron_cc/dialects/hlo/async_ops.py), round-tripped pretty -> pretty
// and pretty -> generic -> pretty.

// CHECK-LABEL: func.func @collectives(%x: tensor<8xf32>) -> tensor<8xf32> attributes {hlo.entry} {
// CHECK-NEXT:    %s = hlo.all_reduce_start(%x) replica_groups = [[0, 1, 2, 3]] channel_id = 1 {
// CHECK-NEXT:    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:      %c = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:      hlo.return %c : tensor<f32>
// CHECK-NEXT:    } : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:    %d = hlo.all_reduce_done %s : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:    %g = hlo.all_gather_start(%d) dim = 0 replica_groups = [] : (tensor<8xf32>) -> tuple<tensor<8xf32>, tensor<32xf32>>
// CHECK-NEXT:    %gd = hlo.all_gather_done %g : (tuple<tensor<8xf32>, tensor<32xf32>>) -> tensor<32xf32>
// CHECK-NEXT:    %p = hlo.collective_permute_start %d pairs = [[0, 1], [1, 2]] channel_id = 2 : (tensor<8xf32>) -> tuple<tensor<8xf32>, tensor<8xf32>, tensor<ui32>, tensor<ui32>>
// CHECK-NEXT:    %pd = hlo.collective_permute_done %p : (tuple<tensor<8xf32>, tensor<8xf32>, tensor<ui32>, tensor<ui32>>) -> tensor<8xf32>
// CHECK-NEXT:    func.return %pd : tensor<8xf32>

// CHECK-LABEL: func.func @calls(%y: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:    %as = hlo.async_start @neg(%y) execution_thread = "side" : (tensor<4xf32>) -> tuple<tuple<tensor<4xf32>>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:    %au = hlo.async_update %as calls = @neg execution_thread = "side" : (tuple<tuple<tensor<4xf32>>, tensor<4xf32>, tensor<i32>>) -> tuple<tuple<tensor<4xf32>>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:    %ad = hlo.async_done %au execution_thread = "side" : (tuple<tuple<tensor<4xf32>>, tensor<4xf32>, tensor<i32>>) -> tensor<4xf32>
// CHECK-NEXT:    func.return %ad : tensor<4xf32>

builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 4 : i64} {
  func.func @collectives(%x: tensor<8xf32>) -> tensor<8xf32> attributes {hlo.entry} {
    %s = hlo.all_reduce_start(%x) replica_groups = [[0, 1, 2, 3]] channel_id = 1 {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    %d = hlo.all_reduce_done %s : (tensor<8xf32>) -> tensor<8xf32>
    %g = hlo.all_gather_start(%d) dim = 0 replica_groups = [] : (tensor<8xf32>) -> tuple<tensor<8xf32>, tensor<32xf32>>
    %gd = hlo.all_gather_done %g : (tuple<tensor<8xf32>, tensor<32xf32>>) -> tensor<32xf32>
    %p = hlo.collective_permute_start %d pairs = [[0, 1], [1, 2]] channel_id = 2 : (tensor<8xf32>) -> tuple<tensor<8xf32>, tensor<8xf32>, tensor<ui32>, tensor<ui32>>
    %pd = hlo.collective_permute_done %p : (tuple<tensor<8xf32>, tensor<8xf32>, tensor<ui32>, tensor<ui32>>) -> tensor<8xf32>
    func.return %pd : tensor<8xf32>
  }
  func.func @neg(%v: tensor<4xf32>) -> tensor<4xf32> {
    %n = hlo.negate %v : tensor<4xf32>
    func.return %n : tensor<4xf32>
  }
  func.func @calls(%y: tensor<4xf32>) -> tensor<4xf32> {
    %as = hlo.async_start @neg(%y) execution_thread = "side" : (tensor<4xf32>) -> tuple<tuple<tensor<4xf32>>, tensor<4xf32>, tensor<i32>>
    %au = hlo.async_update %as calls = @neg execution_thread = "side" : (tuple<tuple<tensor<4xf32>>, tensor<4xf32>, tensor<i32>>) -> tuple<tuple<tensor<4xf32>>, tensor<4xf32>, tensor<i32>>
    %ad = hlo.async_done %au execution_thread = "side" : (tuple<tuple<tensor<4xf32>>, tensor<4xf32>, tensor<i32>>) -> tensor<4xf32>
    func.return %ad : tensor<4xf32>
  }
}
