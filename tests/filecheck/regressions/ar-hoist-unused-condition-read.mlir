// RUN: neuron-opt %s -p 'neuron-while-loop-all-reduce-code-motion{enable-reduce-scatter=true}' | filecheck %s
// RUN: neuron-opt %s -p 'neuron-while-loop-all-reduce-code-motion{enable-reduce-scatter=true remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// Found by tests/test_generate_loops.py (issue 10): a get_tuple_element of the accumulation
// slot in the loop condition WITHOUT users (common in imported HLO) counted as "accumulation
// buffer is read by the loop condition", so the collective stayed in the loop, while the
// reduce-scatter sink and all-gather hoist ignore such dead reads. Only used reads count now;
// the dead read is re-typed with the widened slot.

builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<16xf32>) -> tensor<2xf32> {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %zb = hlo.constant dense<0.000000e+00> : tensor<2xf32>
    %init = hlo.tuple %c0, %zb, %x : tuple<tensor<i32>, tensor<2xf32>, tensor<16xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<2xf32>, tensor<16xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<2xf32>, tensor<16xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<2xf32>, tensor<16xf32>>
      %unused = hlo.get_tuple_element %cs[1] : tuple<tensor<i32>, tensor<2xf32>, tensor<16xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<2xf32>, tensor<16xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<2xf32>, tensor<16xf32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<2xf32>, tensor<16xf32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<2xf32>, tensor<16xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %rs = hlo.reduce_scatter(%v) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<16xf32>) -> tensor<2xf32>
      %acc1 = hlo.add %acc, %rs : tensor<2xf32>
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<2xf32>, tensor<16xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<2xf32>, tensor<16xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<2xf32>, tensor<16xf32>>
    func.return %r : tensor<2xf32>
  }
}

// CHECK: builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<16xf32>) -> tensor<2xf32> {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %zb = hlo.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<f32>) -> tensor<16xf32>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.tuple %c0, [[V1]], %x : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     %w = hlo.while([[V2]]) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %unused = hlo.get_tuple_element %cs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %acc1 = hlo.add %acc, %v : tensor<16xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.reduce_scatter([[V3]]) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %s : tensor<f32>
// CHECK-NEXT:     } : (tensor<16xf32>) -> tensor<2xf32>
// CHECK-NEXT:     %r = hlo.add %zb, [[V4]] : tensor<2xf32>
// CHECK-NEXT:     func.return %r : tensor<2xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK: remark: neuron-while-loop-all-reduce-code-motion: %rs (hlo.reduce_scatter): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 1 reduce-scatter out of while loops
