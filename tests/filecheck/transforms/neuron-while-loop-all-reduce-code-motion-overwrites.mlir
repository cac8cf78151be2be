// RUN: neuron-opt %s --split-input-file -p neuron-while-loop-all-reduce-code-motion | filecheck %s
// RUN: neuron-opt %s --split-input-file -p 'neuron-while-loop-all-reduce-code-motion{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// Overwrites (analysis/overwrites.py, issue 14): an all-reduce whose result replaces a loop slot
// that the body never reads (or reads only through a select on a splat constant that discards
// it) runs once after the loop; one negative case per rule. tests/test_code_motion_idioms.py runs
// every module before and after the pass on 8 simulated devices and compares the outputs.

// slot 1 = AR(x * (i+1)) every iteration and never read: only the last all-reduce is observable; moved (trip count 4).
builtin.module @last_value attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%b0: tensor<4xf32>, %x: tensor<4xf32>, %nn: tensor<i32>) -> tensor<4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %b0, %x, %nn : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %buf = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %xs = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %nb = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %f = hlo.convert %i1 : tensor<i32> -> tensor<f32>
      %fb = hlo.broadcast %f, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %v = hlo.multiply %xs, %fb : tensor<4xf32>
      %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %r = hlo.add %a, %b : tensor<f32>
        hlo.return %r : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %next = hlo.tuple %i1, %ar, %xs, %nb : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
    func.return %r : tensor<4xf32>
  }
}

// REMARK: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// CHECK-LABEL: builtin.module @last_value attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%b0: tensor<4xf32>, %x: tensor<4xf32>, %nn: tensor<i32>) -> tensor<4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %b0, %x, %nn : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %buf = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %xs = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %nb = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %f = hlo.convert %i1 : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %fb = hlo.broadcast %f, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:       %v = hlo.multiply %xs, %fb : tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v, %xs, %nb : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:     %r = hlo.all_reduce([[V0]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %r_1 = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %r_1 : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     func.return %r : tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// select(false, buf, zeros) discards the carried buffer (XLA's reset idiom); moved.
builtin.module @reset_by_constant_select attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%b0: tensor<4xf32>, %x: tensor<4xf32>, %nn: tensor<i32>) -> tensor<4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %b0, %x, %nn : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %buf = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %xs = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %nb = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %f = hlo.convert %i1 : tensor<i32> -> tensor<f32>
      %fb = hlo.broadcast %f, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %v = hlo.multiply %xs, %fb : tensor<4xf32>
      %zero_s = hlo.constant dense<0.000000e+00> : tensor<f32>
      %zero = hlo.broadcast %zero_s, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %pf = hlo.constant dense<false> : tensor<i1>
      %p = hlo.broadcast %pf, dims = [] : (tensor<i1>) -> tensor<4xi1>
      %base = hlo.select %p, %buf, %zero : tensor<4xi1>, tensor<4xf32>
      %v2 = hlo.add %base, %v : tensor<4xf32>
      %ar = hlo.all_reduce(%v2) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %r = hlo.add %a, %b : tensor<f32>
        hlo.return %r : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %next = hlo.tuple %i1, %ar, %xs, %nb : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
    func.return %r : tensor<4xf32>
  }
}

// REMARK: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// CHECK-LABEL: builtin.module @reset_by_constant_select attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%b0: tensor<4xf32>, %x: tensor<4xf32>, %nn: tensor<i32>) -> tensor<4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %b0, %x, %nn : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %buf = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %xs = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %nb = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %f = hlo.convert %i1 : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %fb = hlo.broadcast %f, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:       %v = hlo.multiply %xs, %fb : tensor<4xf32>
// CHECK-NEXT:       %zero_s = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:       %zero = hlo.broadcast %zero_s, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:       %pf = hlo.constant dense<false> : tensor<i1>
// CHECK-NEXT:       %p = hlo.broadcast %pf, dims = [] : (tensor<i1>) -> tensor<4xi1>
// CHECK-NEXT:       %base = hlo.select %p, %buf, %zero : tensor<4xi1>, tensor<4xf32>
// CHECK-NEXT:       %v2 = hlo.add %base, %v : tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v2, %xs, %nb : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:     %r = hlo.all_reduce([[V0]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %r_1 = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %r_1 : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     func.return %r : tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// the trip count is a traced parameter (maybe 0), the init is 0 = the sum's identity, so AR(init) = init; moved.
builtin.module @traced_bound_identity_init attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%b0: tensor<4xf32>, %x: tensor<4xf32>, %nn: tensor<i32>) -> tensor<4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %z = hlo.constant dense<0.000000e+00> : tensor<f32>
    %zb = hlo.broadcast %z, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %init = hlo.tuple %c0, %zb, %x, %nn : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %nb = hlo.get_tuple_element %cs[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %lt = hlo.compare LT, %ci, %nb : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %buf = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %xs = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %nb = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %f = hlo.convert %i1 : tensor<i32> -> tensor<f32>
      %fb = hlo.broadcast %f, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %v = hlo.multiply %xs, %fb : tensor<4xf32>
      %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %r = hlo.add %a, %b : tensor<f32>
        hlo.return %r : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %next = hlo.tuple %i1, %ar, %xs, %nb : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
    func.return %r : tensor<4xf32>
  }
}

// REMARK: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// CHECK-LABEL: builtin.module @traced_bound_identity_init attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%b0: tensor<4xf32>, %x: tensor<4xf32>, %nn: tensor<i32>) -> tensor<4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %z = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     %zb = hlo.broadcast %z, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %zb, %x, %nn : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %nb = hlo.get_tuple_element %cs[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %nb : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %buf = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %xs = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %nb_1 = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %f = hlo.convert %i1 : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %fb = hlo.broadcast %f, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:       %v = hlo.multiply %xs, %fb : tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v, %xs, %nb_1 : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:     %r = hlo.all_reduce([[V0]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %r_1 = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %r_1 : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     func.return %r : tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// as above with a max all-reduce from -inf; moved.
builtin.module @traced_bound_max_identity_init attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%b0: tensor<4xf32>, %x: tensor<4xf32>, %nn: tensor<i32>) -> tensor<4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %z = hlo.constant dense<0xFF800000> : tensor<f32>
    %zb = hlo.broadcast %z, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %init = hlo.tuple %c0, %zb, %x, %nn : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %nb = hlo.get_tuple_element %cs[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %lt = hlo.compare LT, %ci, %nb : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %buf = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %xs = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %nb = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %f = hlo.convert %i1 : tensor<i32> -> tensor<f32>
      %fb = hlo.broadcast %f, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %v = hlo.multiply %xs, %fb : tensor<4xf32>
      %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %r = hlo.maximum %a, %b : tensor<f32>
        hlo.return %r : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %next = hlo.tuple %i1, %ar, %xs, %nb : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
    func.return %r : tensor<4xf32>
  }
}

// REMARK: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// CHECK-LABEL: builtin.module @traced_bound_max_identity_init attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%b0: tensor<4xf32>, %x: tensor<4xf32>, %nn: tensor<i32>) -> tensor<4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %z = hlo.constant dense<0xff800000> : tensor<f32>
// CHECK-NEXT:     %zb = hlo.broadcast %z, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %zb, %x, %nn : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %nb = hlo.get_tuple_element %cs[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %nb : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %buf = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %xs = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %nb_1 = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %f = hlo.convert %i1 : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %fb = hlo.broadcast %f, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:       %v = hlo.multiply %xs, %fb : tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v, %xs, %nb_1 : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:     %r = hlo.all_reduce([[V0]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %r_1 = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %r_1 : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     func.return %r : tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// a traced trip count (maybe 0) and an init that is not the identity: AR(init) != init; refused.
builtin.module @traced_bound_other_init attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%b0: tensor<4xf32>, %x: tensor<4xf32>, %nn: tensor<i32>) -> tensor<4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %b0, %x, %nn : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %nb = hlo.get_tuple_element %cs[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %lt = hlo.compare LT, %ci, %nb : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %buf = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %xs = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %nb = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %f = hlo.convert %i1 : tensor<i32> -> tensor<f32>
      %fb = hlo.broadcast %f, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %v = hlo.multiply %xs, %fb : tensor<4xf32>
      %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %r = hlo.add %a, %b : tensor<f32>
        hlo.return %r : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %next = hlo.tuple %i1, %ar, %xs, %nb : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
    func.return %r : tensor<4xf32>
  }
}

// REMARK: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the loop may run no iteration and the overwritten slot's init is not the reduction's identity
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// CHECK-LABEL: builtin.module @traced_bound_other_init attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%b0: tensor<4xf32>, %x: tensor<4xf32>, %nn: tensor<i32>) -> tensor<4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %b0, %x, %nn : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %nb = hlo.get_tuple_element %cs[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %nb : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %buf = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %xs = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %nb_1 = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %f = hlo.convert %i1 : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %fb = hlo.broadcast %f, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:       %v = hlo.multiply %xs, %fb : tensor<4xf32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %r = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %r : tensor<f32>
// CHECK-NEXT:       } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %ar, %xs, %nb_1 : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r_1 = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:     func.return %r_1 : tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// AR(buf + v): the carried value is read, this is not an overwrite (nor an accumulation: AR re-reduces buf); refused.
builtin.module @body_reads_slot attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%b0: tensor<4xf32>, %x: tensor<4xf32>, %nn: tensor<i32>) -> tensor<4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %b0, %x, %nn : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %buf = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %xs = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %nb = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %f = hlo.convert %i1 : tensor<i32> -> tensor<f32>
      %fb = hlo.broadcast %f, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %v = hlo.multiply %xs, %fb : tensor<4xf32>
      %v2 = hlo.add %buf, %v : tensor<4xf32>
      %ar = hlo.all_reduce(%v2) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %r = hlo.add %a, %b : tensor<f32>
        hlo.return %r : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %next = hlo.tuple %i1, %ar, %xs, %nb : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
    func.return %r : tensor<4xf32>
  }
}

// REMARK: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the all-reduce overwrites slot 1, which the body reads (add)
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// CHECK-LABEL: builtin.module @body_reads_slot attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%b0: tensor<4xf32>, %x: tensor<4xf32>, %nn: tensor<i32>) -> tensor<4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %b0, %x, %nn : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %buf = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %xs = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %nb = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %f = hlo.convert %i1 : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %fb = hlo.broadcast %f, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:       %v = hlo.multiply %xs, %fb : tensor<4xf32>
// CHECK-NEXT:       %v2 = hlo.add %buf, %v : tensor<4xf32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%v2) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %r = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %r : tensor<f32>
// CHECK-NEXT:       } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %ar, %xs, %nb : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r_1 = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:     func.return %r_1 : tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// select(i < 2, buf, zeros): the carried value is kept in some iterations; refused.
builtin.module @select_on_variable_predicate attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%b0: tensor<4xf32>, %x: tensor<4xf32>, %nn: tensor<i32>) -> tensor<4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %b0, %x, %nn : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %buf = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %xs = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %nb = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %f = hlo.convert %i1 : tensor<i32> -> tensor<f32>
      %fb = hlo.broadcast %f, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %v = hlo.multiply %xs, %fb : tensor<4xf32>
      %zero_s = hlo.constant dense<0.000000e+00> : tensor<f32>
      %zero = hlo.broadcast %zero_s, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %two = hlo.constant dense<2> : tensor<i32>
      %ps = hlo.compare LT, %i, %two : tensor<i32> -> tensor<i1>
      %p = hlo.broadcast %ps, dims = [] : (tensor<i1>) -> tensor<4xi1>
      %base = hlo.select %p, %buf, %zero : tensor<4xi1>, tensor<4xf32>
      %v2 = hlo.add %base, %v : tensor<4xf32>
      %ar = hlo.all_reduce(%v2) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %r = hlo.add %a, %b : tensor<f32>
        hlo.return %r : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %next = hlo.tuple %i1, %ar, %xs, %nb : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
    func.return %r : tensor<4xf32>
  }
}

// REMARK: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the all-reduce overwrites slot 1, which the body reads (select on a predicate that is not a splat constant)
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// CHECK-LABEL: builtin.module @select_on_variable_predicate attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%b0: tensor<4xf32>, %x: tensor<4xf32>, %nn: tensor<i32>) -> tensor<4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %b0, %x, %nn : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %buf = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %xs = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %nb = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %f = hlo.convert %i1 : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %fb = hlo.broadcast %f, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:       %v = hlo.multiply %xs, %fb : tensor<4xf32>
// CHECK-NEXT:       %zero_s = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:       %zero = hlo.broadcast %zero_s, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:       %two = hlo.constant dense<2> : tensor<i32>
// CHECK-NEXT:       %ps = hlo.compare LT, %i, %two : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       %p = hlo.broadcast %ps, dims = [] : (tensor<i1>) -> tensor<4xi1>
// CHECK-NEXT:       %base = hlo.select %p, %buf, %zero : tensor<4xi1>, tensor<4xf32>
// CHECK-NEXT:       %v2 = hlo.add %base, %v : tensor<4xf32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%v2) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %r = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %r : tensor<f32>
// CHECK-NEXT:       } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %ar, %xs, %nb : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r_1 = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:     func.return %r_1 : tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// the loop condition reads the overwritten slot; refused.
builtin.module @condition_reads_slot attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%b0: tensor<4xf32>, %x: tensor<4xf32>, %nn: tensor<i32>) -> tensor<4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %b0, %x, %nn : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      %cb = hlo.get_tuple_element %cs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %cb0 = hlo.slice %cb, start = [0], limit = [1], strides = [1] : (tensor<4xf32>) -> tensor<1xf32>
      %cbs = hlo.reshape %cb0 : (tensor<1xf32>) -> tensor<f32>
      %big = hlo.constant dense<1.000000e+06> : tensor<f32>
      %small = hlo.compare LT, %cbs, %big : tensor<f32> -> tensor<i1>
      %both = hlo.and %lt, %small : tensor<i1>
      hlo.return %both : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %buf = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %xs = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %nb = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %f = hlo.convert %i1 : tensor<i32> -> tensor<f32>
      %fb = hlo.broadcast %f, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %v = hlo.multiply %xs, %fb : tensor<4xf32>
      %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %r = hlo.add %a, %b : tensor<f32>
        hlo.return %r : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %next = hlo.tuple %i1, %ar, %xs, %nb : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
    func.return %r : tensor<4xf32>
  }
}

// REMARK: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the all-reduce overwrites slot 1, which the loop condition reads
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// CHECK-LABEL: builtin.module @condition_reads_slot attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%b0: tensor<4xf32>, %x: tensor<4xf32>, %nn: tensor<i32>) -> tensor<4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %b0, %x, %nn : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       %cb = hlo.get_tuple_element %cs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %cb0 = hlo.slice %cb, start = [0], limit = [1], strides = [1] : (tensor<4xf32>) -> tensor<1xf32>
// CHECK-NEXT:       %cbs = hlo.reshape %cb0 : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT:       %big = hlo.constant dense<1.000000e+06> : tensor<f32>
// CHECK-NEXT:       %small = hlo.compare LT, %cbs, %big : tensor<f32> -> tensor<i1>
// CHECK-NEXT:       %both = hlo.and %lt, %small : tensor<i1>
// CHECK-NEXT:       hlo.return %both : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %buf = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %xs = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %nb = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %f = hlo.convert %i1 : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %fb = hlo.broadcast %f, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:       %v = hlo.multiply %xs, %fb : tensor<4xf32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %r = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %r : tensor<f32>
// CHECK-NEXT:       } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %ar, %xs, %nb : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r_1 = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
// CHECK-NEXT:     func.return %r_1 : tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }
