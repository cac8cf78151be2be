// RUN: neuron-opt %s -p neuron-move-reduce-scatter-while-loop | filecheck %s
// RUN: neuron-opt %s -p 'neuron-move-reduce-scatter-while-loop{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// Found by tests/test_generate_loops.py (issue 10): in a loop of ONE trip the induction
// analysis folds the counter to the constant 0, so `equals_induction` did not recognise the
// dynamic-update-slice index as the induction variable and the reduce_scatter stayed in the
// loop ("dynamic-update-slice index is not a loop induction variable"). A constant that a
// counting slot holds in every iteration now equals that slot: moved.

builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<1x8xf32>) -> tensor<1x1xf32> {
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %buf0 = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<1x1xf32>
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %buf0, %x : tuple<tensor<i32>, tensor<1x1xf32>, tensor<1x8xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<1x1xf32>, tensor<1x8xf32>> condition {
    ^bb0(%s: tuple<tensor<i32>, tensor<1x1xf32>, tensor<1x8xf32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<1x1xf32>, tensor<1x8xf32>>
      %n = hlo.constant dense<1> : tensor<i32>
      %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
      hlo.return %p : tensor<i1>
    } body {
    ^bb0(%s: tuple<tensor<i32>, tensor<1x1xf32>, tensor<1x8xf32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<1x1xf32>, tensor<1x8xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %buf = hlo.get_tuple_element %s[1] : tuple<tensor<i32>, tensor<1x1xf32>, tensor<1x8xf32>>
      %xs = hlo.get_tuple_element %s[2] : tuple<tensor<i32>, tensor<1x1xf32>, tensor<1x8xf32>>
      %zero = hlo.constant dense<0> : tensor<i32>
      %row = hlo.dynamic_slice %xs at [%i, %zero] sizes = [1, 8] : (tensor<1x8xf32>, tensor<i32>, tensor<i32>) -> tensor<1x8xf32>
      %v = hlo.reshape %row : (tensor<1x8xf32>) -> tensor<8xf32>
      %rs = hlo.reduce_scatter(%v) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %sum = hlo.add %a, %b : tensor<f32>
        hlo.return %sum : tensor<f32>
      } : (tensor<8xf32>) -> tensor<1xf32>
      %u = hlo.reshape %rs : (tensor<1xf32>) -> tensor<1x1xf32>
      %buf1 = hlo.dynamic_update_slice %buf, %u at [%i, %zero] : (tensor<1x1xf32>, tensor<1x1xf32>, tensor<i32>, tensor<i32>) -> tensor<1x1xf32>
      %t = hlo.tuple %i1, %buf1, %xs : tuple<tensor<i32>, tensor<1x1xf32>, tensor<1x8xf32>>
      hlo.return %t : tuple<tensor<i32>, tensor<1x1xf32>, tensor<1x8xf32>>
    }
    %out = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<1x1xf32>, tensor<1x8xf32>>
    func.return %out : tensor<1x1xf32>
  }
}

// CHECK: builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<1x8xf32>) -> tensor<1x1xf32> {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %rs_zero = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     %rs_init = hlo.broadcast %rs_zero, dims = [] : (tensor<f32>) -> tensor<1x8xf32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %rs_init, %x : tuple<tensor<i32>, tensor<1x8xf32>, tensor<1x8xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<1x8xf32>, tensor<1x8xf32>> condition {
// CHECK-NEXT:     ^bb0(%s: tuple<tensor<i32>, tensor<1x8xf32>, tensor<1x8xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<1x8xf32>, tensor<1x8xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %p : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%s_1: tuple<tensor<i32>, tensor<1x8xf32>, tensor<1x8xf32>>):
// CHECK-NEXT:       %i_1 = hlo.get_tuple_element %s_1[0] : tuple<tensor<i32>, tensor<1x8xf32>, tensor<1x8xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i_1, %one : tensor<i32>
// CHECK-NEXT:       %xs = hlo.get_tuple_element %s_1[2] : tuple<tensor<i32>, tensor<1x8xf32>, tensor<1x8xf32>>
// CHECK-NEXT:       %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:       %row = hlo.dynamic_slice %xs at [%i_1, %zero] sizes = [1, 8] : (tensor<1x8xf32>, tensor<i32>, tensor<i32>) -> tensor<1x8xf32>
// CHECK-NEXT:       %v = hlo.reshape %row : (tensor<1x8xf32>) -> tensor<8xf32>
// CHECK-NEXT:       %buf = hlo.get_tuple_element %s_1[1] : tuple<tensor<i32>, tensor<1x8xf32>, tensor<1x8xf32>>
// CHECK-NEXT:       %rs_row = hlo.reshape %v : (tensor<8xf32>) -> tensor<1x8xf32>
// CHECK-NEXT:       %buf1 = hlo.dynamic_update_slice %buf, %rs_row at [%i_1, %zero] : (tensor<1x8xf32>, tensor<1x8xf32>, tensor<i32>, tensor<i32>) -> tensor<1x8xf32>
// CHECK-NEXT:       %t = hlo.tuple %i1, %buf1, %xs : tuple<tensor<i32>, tensor<1x8xf32>, tensor<1x8xf32>>
// CHECK-NEXT:       hlo.return %t : tuple<tensor<i32>, tensor<1x8xf32>, tensor<1x8xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %rs_stacked = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<1x8xf32>, tensor<1x8xf32>>
// CHECK-NEXT:     %rs = hlo.reduce_scatter(%rs_stacked) dim = 1 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %sum = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %sum : tensor<f32>
// CHECK-NEXT:     } : (tensor<1x8xf32>) -> tensor<1x1xf32>
// CHECK-NEXT:     func.return %rs : tensor<1x1xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK: remark: neuron-move-reduce-scatter-while-loop: %rs (hlo.reduce_scatter): moved
