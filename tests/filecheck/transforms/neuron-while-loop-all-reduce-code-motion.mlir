// RUN: neuron-opt %s --split-input-file -p neuron-while-loop-all-reduce-code-motion | filecheck %s
// RUN: neuron-opt %s --split-input-file -p 'neuron-while-loop-all-reduce-code-motion{enable-reduce-scatter=true}' | filecheck %s --check-prefix=RS
// RUN: neuron-opt %s --split-input-file -p 'neuron-while-loop-all-reduce-code-motion{run-setup-passes=true enable-reduce-scatter=true}' | filecheck %s --check-prefix=SETUP
// RUN: neuron-opt %s --split-input-file -p 'neuron-while-loop-all-reduce-code-motion{reference-replica-groups="0,1,2,3;4,5,6,7"}' | filecheck %s --check-prefix=GATE
// RUN: neuron-opt %s --split-input-file -p 'neuron-while-loop-all-reduce-code-motion{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK
// RUN: neuron-opt %s --split-input-file -p 'neuron-while-loop-all-reduce-code-motion{remarks=true enable-reduce-scatter=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=RS-REMARK
// RUN: neuron-opt %s --split-input-file -p 'neuron-while-loop-all-reduce-code-motion{remarks=true run-setup-passes=true enable-reduce-scatter=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=SETUP-REMARK
// RUN: neuron-opt %s --split-input-file -p 'neuron-while-loop-all-reduce-code-motion{remarks=true reference-replica-groups="0,1,2,3;4,5,6,7"}' 2>&1 >/dev/null | filecheck %s --check-prefix=GATE-REMARK

// neuron-while-loop-all-reduce-code-motion (ISSUE 6 §1): every upstream-derived case of §4 that
// concerns §1, every legality rule and every remark. Each case is one module (8 partitions, SPMD,
// unless the case is about the module attributes); tests/test_while_loop_all_reduce_code_motion.py
// parses the same modules and proves every rewrite semantics-preserving on the interpreter.
// Prefixes: CHECK (default options), RS (enable-reduce-scatter), SETUP (run-setup-passes +
// enable-reduce-scatter), GATE (reference-replica-groups="0,1,2,3;4,5,6,7"); *-REMARK: the
// remarks (stderr) of the same option sets, one per collective of a loop body, in order.
// Rewritten loops: the dead original init tuple is erased, `get_tuple_element %w[k]` of a moved
// slot k is replaced by the final add(init, collective(...)) after the loop (an hlo.tuple is
// rebuilt only when the whole loop result is used), and loops are processed inner first, then in
// program order (remarks and fresh channel ids follow that order).

// All-reduce accumulated into a zero-initialised buffer (JAX grad accumulation): moved; the
// hoisted all-reduce gets channel id 2 (1 + the largest existing one), %r is the final add and
// the original init tuple %init is erased (no dead code left).
builtin.module @accumulate attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %init = hlo.tuple %c0, %zeros, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
      %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %g = hlo.multiply %v, %bi : tensor<4xf32>
      %ar = hlo.all_reduce(%g) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %acc1 = hlo.add %acc, %ar : tensor<4xf32>
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    func.return %r : tensor<4xf32>
  }
}

// CHECK-LABEL: builtin.module @accumulate attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.tuple %c0, [[V1]], %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %w = hlo.while([[V2]]) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:       %g = hlo.multiply %v, %bi : tensor<4xf32>
// CHECK-NEXT:       %acc1 = hlo.add %acc, %g : tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.all_reduce([[V3]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %s : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %r = hlo.add %zeros, [[V4]] : tensor<4xf32>
// CHECK-NEXT:     func.return %r : tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// RS-REMARK: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// GATE-REMARK: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): replica groups do not match reference-replica-groups
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// The same all-reduce sliced three ways into three buffers: three hoisted all-reduces, with
// channel ids 8, 9, 10 (1 + the largest channel id of the module, 7, incrementing).
builtin.module @sliced_three_ways attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<12xf32>) -> tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<12xf32>> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %pre = hlo.all_reduce(%x) replica_groups = [[0, 1, 2, 3], [4, 5, 6, 7]] channel_id = 7 use_global_device_ids {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = hlo.add %a, %b : tensor<f32>
      hlo.return %s : tensor<f32>
    } : (tensor<12xf32>) -> tensor<12xf32>
    %init = hlo.tuple %c0, %zeros, %zeros, %zeros, %pre : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<12xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<12xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<12xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<12xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<12xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<12xf32>>
      %acc0 = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<12xf32>>
      %acc1 = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<12xf32>>
      %acc2 = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<12xf32>>
      %v = hlo.get_tuple_element %bs[4] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<12xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
      %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<12xf32>
      %g = hlo.multiply %v, %bi : tensor<12xf32>
      %ar = hlo.all_reduce(%g) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 3 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<12xf32>) -> tensor<12xf32>
      %s0 = hlo.slice %ar, start = [0], limit = [4], strides = [1] : (tensor<12xf32>) -> tensor<4xf32>
      %s1 = hlo.slice %ar, start = [4], limit = [8], strides = [1] : (tensor<12xf32>) -> tensor<4xf32>
      %s2 = hlo.slice %ar, start = [8], limit = [12], strides = [1] : (tensor<12xf32>) -> tensor<4xf32>
      %n0 = hlo.add %acc0, %s0 : tensor<4xf32>
      %n1 = hlo.add %s1, %acc1 : tensor<4xf32>
      %n2 = hlo.add %acc2, %s2 : tensor<4xf32>
      %next = hlo.tuple %i1, %n0, %n1, %n2, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<12xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<12xf32>>
    }
    func.return %w : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<12xf32>>
  }
}

// CHECK-LABEL: builtin.module @sliced_three_ways attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<12xf32>) -> tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<12xf32>> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     %pre = hlo.all_reduce(%x) replica_groups = [[0, 1, 2, 3], [4, 5, 6, 7]] channel_id = 7 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %s : tensor<f32>
// CHECK-NEXT:     } : (tensor<12xf32>) -> tensor<12xf32>
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     [[V6:%[0-9]+]] = hlo.tuple %c0, [[V1]], [[V1]], [[V1]], %pre : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<12xf32>>
// CHECK-NEXT:     %w = hlo.while([[V6]]) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<12xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<12xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<12xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<12xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<12xf32>>
// CHECK-NEXT:       %acc0 = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<12xf32>>
// CHECK-NEXT:       %acc1 = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<12xf32>>
// CHECK-NEXT:       %acc2 = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<12xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[4] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<12xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<12xf32>
// CHECK-NEXT:       %g = hlo.multiply %v, %bi : tensor<12xf32>
// CHECK-NEXT:       %s0 = hlo.slice %g, start = [0], limit = [4], strides = [1] : (tensor<12xf32>) -> tensor<4xf32>
// CHECK-NEXT:       %s1 = hlo.slice %g, start = [4], limit = [8], strides = [1] : (tensor<12xf32>) -> tensor<4xf32>
// CHECK-NEXT:       %s2 = hlo.slice %g, start = [8], limit = [12], strides = [1] : (tensor<12xf32>) -> tensor<4xf32>
// CHECK-NEXT:       %n0 = hlo.add %acc0, %s0 : tensor<4xf32>
// CHECK-NEXT:       %n1 = hlo.add %s1, %acc1 : tensor<4xf32>
// CHECK-NEXT:       %n2 = hlo.add %acc2, %s2 : tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %n0, %n1, %n2, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<12xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<12xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V7:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<12xf32>>
// CHECK-NEXT:     [[V8:%[0-9]+]] = hlo.all_reduce([[V7]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 8 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a_1: tensor<f32>, %b_1: tensor<f32>):
// CHECK-NEXT:       %s_1 = hlo.add %a_1, %b_1 : tensor<f32>
// CHECK-NEXT:       hlo.return %s_1 : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     [[V9:%[0-9]+]] = hlo.add %zeros, [[V8]] : tensor<4xf32>
// CHECK-NEXT:     [[V10:%[0-9]+]] = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<12xf32>>
// CHECK-NEXT:     [[V11:%[0-9]+]] = hlo.all_reduce([[V10]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 9 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a_2: tensor<f32>, %b_2: tensor<f32>):
// CHECK-NEXT:       %s_2 = hlo.add %a_2, %b_2 : tensor<f32>
// CHECK-NEXT:       hlo.return %s_2 : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     [[V12:%[0-9]+]] = hlo.add %zeros, [[V11]] : tensor<4xf32>
// CHECK-NEXT:     [[V13:%[0-9]+]] = hlo.get_tuple_element %w[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<12xf32>>
// CHECK-NEXT:     [[V14:%[0-9]+]] = hlo.all_reduce([[V13]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 10 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a_3: tensor<f32>, %b_3: tensor<f32>):
// CHECK-NEXT:       %s_3 = hlo.add %a_3, %b_3 : tensor<f32>
// CHECK-NEXT:       hlo.return %s_3 : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     [[V15:%[0-9]+]] = hlo.add %zeros, [[V14]] : tensor<4xf32>
// CHECK-NEXT:     [[V16:%[0-9]+]] = hlo.get_tuple_element %w[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<12xf32>>
// CHECK-NEXT:     [[V17:%[0-9]+]] = hlo.get_tuple_element %w[4] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<12xf32>>
// CHECK-NEXT:     [[V18:%[0-9]+]] = hlo.tuple [[V16]], [[V9]], [[V12]], [[V15]], [[V17]] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<12xf32>>
// CHECK-NEXT:     func.return [[V18]] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<12xf32>>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): replica groups do not match reference-replica-groups
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// A non-zero (argument) initial value, and the result used after the loop by a multiply: moved;
// the multiply reads add(init, all_reduce(sum of local contributions)). The reducer is add(%b, %a)
// (either operand order is an add).
builtin.module @used_after_loop attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<4xf32>, %acc_init: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %acc_init, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %g = hlo.exponential %v : tensor<4xf32>
      %ar = hlo.all_reduce(%g) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %b, %a : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %acc1 = hlo.add %acc, %ar : tensor<4xf32>
      %v1 = hlo.negate %v : tensor<4xf32>
      %next = hlo.tuple %i1, %acc1, %v1 : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    %m = hlo.multiply %r, %r : tensor<4xf32>
    func.return %m : tensor<4xf32>
  }
}

// CHECK-LABEL: builtin.module @used_after_loop attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<4xf32>, %acc_init: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.tuple %c0, [[V1]], %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %w = hlo.while([[V2]]) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %g = hlo.exponential %v : tensor<4xf32>
// CHECK-NEXT:       %acc1 = hlo.add %acc, %g : tensor<4xf32>
// CHECK-NEXT:       %v1 = hlo.negate %v : tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v1 : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.all_reduce([[V3]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %s = hlo.add %b, %a : tensor<f32>
// CHECK-NEXT:       hlo.return %s : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %r = hlo.add %acc_init, [[V4]] : tensor<4xf32>
// CHECK-NEXT:     %m = hlo.multiply %r, %r : tensor<4xf32>
// CHECK-NEXT:     func.return %m : tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): replica groups do not match reference-replica-groups
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// Repeatedly accumulated (the add of the add): not moved.
builtin.module @accumulated_twice attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %init = hlo.tuple %c0, %zeros, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %acc1 = hlo.add %ar, %acc : tensor<4xf32>
      %acc2 = hlo.add %ar, %acc1 : tensor<4xf32>
      %next = hlo.tuple %i1, %acc2, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    func.return %r : tensor<4xf32>
  }
}

// CHECK-LABEL: builtin.module @accumulated_twice attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %zeros, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %s : tensor<f32>
// CHECK-NEXT:       } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:       %acc1 = hlo.add %ar, %acc : tensor<4xf32>
// CHECK-NEXT:       %acc2 = hlo.add %ar, %acc1 : tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc2, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     func.return %r : tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the add's other operand is not a loop-carried accumulation buffer
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the add's other operand is not a loop-carried accumulation buffer
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the add's other operand is not a loop-carried accumulation buffer
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): replica groups do not match reference-replica-groups
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// A bf16 all-reduce with converts around it (f32 -> bf16 -> all_reduce -> f32 -> add into an f32
// buffer): moved; after the loop the buffer is converted to bf16, all-reduced in bf16 and
// converted back before the add of the initial value.
builtin.module @bf16_converts attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %init = hlo.tuple %c0, %zeros, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
      %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %g = hlo.add %v, %bi : tensor<4xf32>
      %h = hlo.convert %g : tensor<4xf32> -> tensor<4xbf16>
      %ar = hlo.all_reduce(%h) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
        %s = hlo.add %a, %b : tensor<bf16>
        hlo.return %s : tensor<bf16>
      } : (tensor<4xbf16>) -> tensor<4xbf16>
      %wide = hlo.convert %ar : tensor<4xbf16> -> tensor<4xf32>
      %acc1 = hlo.add %wide, %acc : tensor<4xf32>
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    func.return %r : tensor<4xf32>
  }
}

// CHECK-LABEL: builtin.module @bf16_converts attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.tuple %c0, [[V1]], %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %w = hlo.while([[V2]]) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:       %g = hlo.add %v, %bi : tensor<4xf32>
// CHECK-NEXT:       %h = hlo.convert %g : tensor<4xf32> -> tensor<4xbf16>
// CHECK-NEXT:       %wide = hlo.convert %h : tensor<4xbf16> -> tensor<4xf32>
// CHECK-NEXT:       %acc1 = hlo.add %wide, %acc : tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.convert [[V3]] : tensor<4xf32> -> tensor<4xbf16>
// CHECK-NEXT:     [[V5:%[0-9]+]] = hlo.all_reduce([[V4]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
// CHECK-NEXT:       %s = hlo.add %a, %b : tensor<bf16>
// CHECK-NEXT:       hlo.return %s : tensor<bf16>
// CHECK-NEXT:     } : (tensor<4xbf16>) -> tensor<4xbf16>
// CHECK-NEXT:     [[V6:%[0-9]+]] = hlo.convert [[V5]] : tensor<4xbf16> -> tensor<4xf32>
// CHECK-NEXT:     %r = hlo.add %zeros, [[V6]] : tensor<4xf32>
// CHECK-NEXT:     func.return %r : tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// SETUP-LABEL: builtin.module @bf16_converts attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// SETUP-NEXT:   func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
// SETUP-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// SETUP-NEXT:     %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// SETUP-NEXT:     %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
// SETUP-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// SETUP-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<f32>) -> tensor<4xf32>
// SETUP-NEXT:     [[V2:%[0-9]+]] = hlo.tuple %c0, [[V1]], %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// SETUP-NEXT:     %w = hlo.while([[V2]]) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> condition {
// SETUP-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
// SETUP-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// SETUP-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// SETUP-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// SETUP-NEXT:       hlo.return %lt : tensor<i1>
// SETUP-NEXT:     } body {
// SETUP-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
// SETUP-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// SETUP-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// SETUP-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// SETUP-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// SETUP-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// SETUP-NEXT:       %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
// SETUP-NEXT:       %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<4xf32>
// SETUP-NEXT:       %g = hlo.add %v, %bi : tensor<4xf32>
// SETUP-NEXT:       %h = hlo.convert %g : tensor<4xf32> -> tensor<4xbf16>
// SETUP-NEXT:       %wide = hlo.convert %h : tensor<4xbf16> -> tensor<4xf32>
// SETUP-NEXT:       %acc1 = hlo.add %wide, %acc : tensor<4xf32>
// SETUP-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// SETUP-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// SETUP-NEXT:     }
// SETUP-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// SETUP-NEXT:     [[V4:%[0-9]+]] = hlo.convert [[V3]] : tensor<4xf32> -> tensor<4xbf16>
// SETUP-NEXT:     [[V5:%[0-9]+]] = hlo.all_reduce([[V4]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// SETUP-NEXT:     ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
// SETUP-NEXT:       %s = hlo.add %a, %b : tensor<bf16>
// SETUP-NEXT:       hlo.return %s : tensor<bf16>
// SETUP-NEXT:     } : (tensor<4xbf16>) -> tensor<4xbf16>
// SETUP-NEXT:     [[V6:%[0-9]+]] = hlo.convert [[V5]] : tensor<4xbf16> -> tensor<4xf32>
// SETUP-NEXT:     %r = hlo.add %zeros, [[V6]] : tensor<4xf32>
// SETUP-NEXT:     func.return %r : tensor<4xf32>
// SETUP-NEXT:   }
// SETUP-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): replica groups do not match reference-replica-groups
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// select(p, all_reduce, zero constant) with a replicated scalar predicate (from the loop counter):
// moved; the select stays in the loop on the local contribution.
builtin.module @select_zero_constant attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %init = hlo.tuple %c0, %zeros, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %two = hlo.constant dense<2> : tensor<i32>
      %p = hlo.compare LT, %i, %two : tensor<i32> -> tensor<i1>
      %zero = hlo.constant dense<0.000000e+00> : tensor<4xf32>
      %sel = hlo.select %p, %ar, %zero : tensor<i1>, tensor<4xf32>
      %acc1 = hlo.add %acc, %sel : tensor<4xf32>
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    func.return %r : tensor<4xf32>
  }
}

// CHECK-LABEL: builtin.module @select_zero_constant attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.tuple %c0, [[V1]], %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %w = hlo.while([[V2]]) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %two = hlo.constant dense<2> : tensor<i32>
// CHECK-NEXT:       %p = hlo.compare LT, %i, %two : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       %zero = hlo.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-NEXT:       %sel = hlo.select %p, %v, %zero : tensor<i1>, tensor<4xf32>
// CHECK-NEXT:       %acc1 = hlo.add %acc, %sel : tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.all_reduce([[V3]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %s : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %r = hlo.add %zeros, [[V4]] : tensor<4xf32>
// CHECK-NEXT:     func.return %r : tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): replica groups do not match reference-replica-groups
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// select(p, broadcast of a zero scalar, all_reduce) with a full (broadcast) replicated predicate: moved.
builtin.module @select_zero_broadcast attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %init = hlo.tuple %c0, %zeros, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %two = hlo.constant dense<2> : tensor<i32>
      %p = hlo.compare GE, %i, %two : tensor<i32> -> tensor<i1>
      %pb = hlo.broadcast %p, dims = [] : (tensor<i1>) -> tensor<4xi1>
      %fz = hlo.constant dense<0.000000e+00> : tensor<f32>
      %zb = hlo.broadcast %fz, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %sel = hlo.select %pb, %zb, %ar : tensor<4xi1>, tensor<4xf32>
      %acc1 = hlo.add %sel, %acc : tensor<4xf32>
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    func.return %r : tensor<4xf32>
  }
}

// CHECK-LABEL: builtin.module @select_zero_broadcast attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.tuple %c0, [[V1]], %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %w = hlo.while([[V2]]) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %two = hlo.constant dense<2> : tensor<i32>
// CHECK-NEXT:       %p = hlo.compare GE, %i, %two : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       %pb = hlo.broadcast %p, dims = [] : (tensor<i1>) -> tensor<4xi1>
// CHECK-NEXT:       %fz = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:       %zb = hlo.broadcast %fz, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:       %sel = hlo.select %pb, %zb, %v : tensor<4xi1>, tensor<4xf32>
// CHECK-NEXT:       %acc1 = hlo.add %sel, %acc : tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.all_reduce([[V3]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %s : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %r = hlo.add %zeros, [[V4]] : tensor<4xf32>
// CHECK-NEXT:     func.return %r : tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): replica groups do not match reference-replica-groups
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// A select predicate derived from partition_id (p < 4): replicated within the groups
// {0,1,2,3},{4,5,6,7} (moved) but not within {0..7} (not moved, remark).
builtin.module @select_partition_predicate attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %init = hlo.tuple %c0, %zeros, %zeros, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      %acc2 = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      %v = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %pid = hlo.partition_id : tensor<ui32>
      %four = hlo.constant dense<4> : tensor<ui32>
      %p = hlo.compare LT, %pid, %four : tensor<ui32> -> tensor<i1>
      %zero = hlo.constant dense<0.000000e+00> : tensor<4xf32>
      %halves = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3], [4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %everyone = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %sel = hlo.select %p, %halves, %zero : tensor<i1>, tensor<4xf32>
      %sel2 = hlo.select %p, %everyone, %zero : tensor<i1>, tensor<4xf32>
      %acc1 = hlo.add %acc, %sel : tensor<4xf32>
      %acc3 = hlo.add %acc2, %sel2 : tensor<4xf32>
      %next = hlo.tuple %i1, %acc1, %acc3, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
    %r2 = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
    %sum = hlo.add %r, %r2 : tensor<4xf32>
    func.return %sum : tensor<4xf32>
  }
}

// CHECK-LABEL: builtin.module @select_partition_predicate attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.tuple %c0, [[V1]], %zeros, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %w = hlo.while([[V2]]) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %acc2 = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %pid = hlo.partition_id : tensor<ui32>
// CHECK-NEXT:       %four = hlo.constant dense<4> : tensor<ui32>
// CHECK-NEXT:       %p = hlo.compare LT, %pid, %four : tensor<ui32> -> tensor<i1>
// CHECK-NEXT:       %zero = hlo.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-NEXT:       %everyone = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %s : tensor<f32>
// CHECK-NEXT:       } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:       %sel = hlo.select %p, %v, %zero : tensor<i1>, tensor<4xf32>
// CHECK-NEXT:       %sel2 = hlo.select %p, %everyone, %zero : tensor<i1>, tensor<4xf32>
// CHECK-NEXT:       %acc1 = hlo.add %acc, %sel : tensor<4xf32>
// CHECK-NEXT:       %acc3 = hlo.add %acc2, %sel2 : tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %acc3, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.all_reduce([[V3]]) replica_groups = [[0, 1, 2, 3], [4, 5, 6, 7]] channel_id = 3 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a_1: tensor<f32>, %b_1: tensor<f32>):
// CHECK-NEXT:       %s_1 = hlo.add %a_1, %b_1 : tensor<f32>
// CHECK-NEXT:       hlo.return %s_1 : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %r = hlo.add %zeros, [[V4]] : tensor<4xf32>
// CHECK-NEXT:     %r2 = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %sum = hlo.add %r, %r2 : tensor<4xf32>
// CHECK-NEXT:     func.return %sum : tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %halves (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %everyone (hlo.all_reduce): select predicate is not replicated within the replica groups
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %halves (hlo.all_reduce): moved
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %everyone (hlo.all_reduce): select predicate is not replicated within the replica groups
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %halves (hlo.all_reduce): moved
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %everyone (hlo.all_reduce): select predicate is not replicated within the replica groups
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %halves (hlo.all_reduce): moved
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %everyone (hlo.all_reduce): replica groups do not match reference-replica-groups
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops

// -----

// Two while ops sharing one init tuple: both all-reduces move, processed in program order
// (remarks %ar then %ar2; fresh channel ids 3 for %w and 4 for %w2); %init is erased only after
// the second loop no longer uses it.
builtin.module @two_loops attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %init = hlo.tuple %c0, %zeros, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %g = hlo.sine %v : tensor<4xf32>
      %ar = hlo.all_reduce(%g) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %acc1 = hlo.add %acc, %ar : tensor<4xf32>
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    }
    %w2 = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> condition {
    ^bb0(%cs2: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
      %ci2 = hlo.get_tuple_element %cs2[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %n2 = hlo.constant dense<4> : tensor<i32>
      %lt2 = hlo.compare LT, %ci2, %n2 : tensor<i32> -> tensor<i1>
      hlo.return %lt2 : tensor<i1>
    } body {
    ^bb0(%bs2: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
      %i2 = hlo.get_tuple_element %bs2[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %acc2 = hlo.get_tuple_element %bs2[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %v2 = hlo.get_tuple_element %bs2[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %one2 = hlo.constant dense<1> : tensor<i32>
      %i12 = hlo.add %i2, %one2 : tensor<i32>
      %g2 = hlo.sine %v2 : tensor<4xf32>
      %ar2 = hlo.all_reduce(%g2) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
      ^bb0(%a2: tensor<f32>, %b2: tensor<f32>):
        %s2 = hlo.add %a2, %b2 : tensor<f32>
        hlo.return %s2 : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %acc12 = hlo.add %acc2, %ar2 : tensor<4xf32>
      %next2 = hlo.tuple %i12, %acc12, %v2 : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      hlo.return %next2 : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    %r2 = hlo.get_tuple_element %w2[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    func.return %r, %r2 : tensor<4xf32>, tensor<4xf32>
  }
}

// CHECK-LABEL: builtin.module @two_loops attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.tuple %c0, [[V1]], %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %w = hlo.while([[V2]]) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %g = hlo.sine %v : tensor<4xf32>
// CHECK-NEXT:       %acc1 = hlo.add %acc, %g : tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.all_reduce([[V3]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 3 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %s : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %r = hlo.add %zeros, [[V4]] : tensor<4xf32>
// CHECK-NEXT:     [[V5:%[0-9]+]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     [[V6:%[0-9]+]] = hlo.broadcast [[V5]], dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     [[V7:%[0-9]+]] = hlo.tuple %c0, [[V6]], %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %w2 = hlo.while([[V7]]) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs2: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %ci2 = hlo.get_tuple_element %cs2[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %n2 = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt2 = hlo.compare LT, %ci2, %n2 : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt2 : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs2: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %i2 = hlo.get_tuple_element %bs2[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %acc2 = hlo.get_tuple_element %bs2[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %v2 = hlo.get_tuple_element %bs2[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %one2 = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i12 = hlo.add %i2, %one2 : tensor<i32>
// CHECK-NEXT:       %g2 = hlo.sine %v2 : tensor<4xf32>
// CHECK-NEXT:       %acc12 = hlo.add %acc2, %g2 : tensor<4xf32>
// CHECK-NEXT:       %next2 = hlo.tuple %i12, %acc12, %v2 : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next2 : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V8:%[0-9]+]] = hlo.get_tuple_element %w2[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     [[V9:%[0-9]+]] = hlo.all_reduce([[V8]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 4 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a2: tensor<f32>, %b2: tensor<f32>):
// CHECK-NEXT:       %s2 = hlo.add %a2, %b2 : tensor<f32>
// CHECK-NEXT:       hlo.return %s2 : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %r2 = hlo.add %zeros, [[V9]] : tensor<4xf32>
// CHECK-NEXT:     func.return %r, %r2 : tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar2 (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 2 all-reduce and 0 reduce-scatter out of while loops
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar2 (hlo.all_reduce): moved
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 2 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar2 (hlo.all_reduce): moved
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 2 all-reduce and 0 reduce-scatter out of while loops
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): replica groups do not match reference-replica-groups
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar2 (hlo.all_reduce): replica groups do not match reference-replica-groups
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// Nested loops: the inner all-reduce is sunk into the outer body (the inner loop now accumulates
// local contributions from zero; the outer body reads add(%acc, all_reduce(inner sum))), which is
// again an accumulation of the outer loop, so the same run sinks it out of the outer loop too:
// one all-reduce after both loops (channel id 3; the intermediate one had 2), 6 launches -> 1.
// The dead inner init tuple %iinit is erased (it would be a second user of the outer buffer).
builtin.module @nested attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %init = hlo.tuple %c0, %zeros, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %n = hlo.constant dense<3> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %ic0 = hlo.constant dense<0> : tensor<i32>
      %iinit = hlo.tuple %ic0, %acc, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %inner = hlo.while(%iinit) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> condition {
      ^bb0(%ics: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
        %ici = hlo.get_tuple_element %ics[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
        %in = hlo.constant dense<2> : tensor<i32>
        %ilt = hlo.compare LT, %ici, %in : tensor<i32> -> tensor<i1>
        hlo.return %ilt : tensor<i1>
      } body {
      ^bb0(%ibs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
        %j = hlo.get_tuple_element %ibs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
        %iacc = hlo.get_tuple_element %ibs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
        %iv = hlo.get_tuple_element %ibs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
        %ione = hlo.constant dense<1> : tensor<i32>
        %j1 = hlo.add %j, %ione : tensor<i32>
        %fj = hlo.convert %j : tensor<i32> -> tensor<f32>
        %bj = hlo.broadcast %fj, dims = [] : (tensor<f32>) -> tensor<4xf32>
        %g = hlo.multiply %iv, %bj : tensor<4xf32>
        %ar = hlo.all_reduce(%g) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
        ^bb0(%a: tensor<f32>, %b: tensor<f32>):
          %s = hlo.add %a, %b : tensor<f32>
          hlo.return %s : tensor<f32>
        } : (tensor<4xf32>) -> tensor<4xf32>
        %iacc1 = hlo.add %iacc, %ar : tensor<4xf32>
        %inext = hlo.tuple %j1, %iacc1, %iv : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
        hlo.return %inext : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      }
      %acc1 = hlo.get_tuple_element %inner[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %v1 = hlo.negate %v : tensor<4xf32>
      %next = hlo.tuple %i1, %acc1, %v1 : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    func.return %r : tensor<4xf32>
  }
}

// CHECK-LABEL: builtin.module @nested attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.tuple %c0, [[V1]], %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %w = hlo.while([[V2]]) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<3> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %ic0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:       [[V3:%[0-9]+]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:       [[V4:%[0-9]+]] = hlo.broadcast [[V3]], dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:       [[V5:%[0-9]+]] = hlo.tuple %ic0, [[V4]], %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %inner = hlo.while([[V5]]) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> condition {
// CHECK-NEXT:       ^bb0(%ics: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:         %ici = hlo.get_tuple_element %ics[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:         %in = hlo.constant dense<2> : tensor<i32>
// CHECK-NEXT:         %ilt = hlo.compare LT, %ici, %in : tensor<i32> -> tensor<i1>
// CHECK-NEXT:         hlo.return %ilt : tensor<i1>
// CHECK-NEXT:       } body {
// CHECK-NEXT:       ^bb0(%ibs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:         %j = hlo.get_tuple_element %ibs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:         %iacc = hlo.get_tuple_element %ibs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:         %iv = hlo.get_tuple_element %ibs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:         %ione = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:         %j1 = hlo.add %j, %ione : tensor<i32>
// CHECK-NEXT:         %fj = hlo.convert %j : tensor<i32> -> tensor<f32>
// CHECK-NEXT:         %bj = hlo.broadcast %fj, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:         %g = hlo.multiply %iv, %bj : tensor<4xf32>
// CHECK-NEXT:         %iacc1 = hlo.add %iacc, %g : tensor<4xf32>
// CHECK-NEXT:         %inext = hlo.tuple %j1, %iacc1, %iv : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:         hlo.return %inext : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       }
// CHECK-NEXT:       [[V6:%[0-9]+]] = hlo.get_tuple_element %inner[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %acc1 = hlo.add %acc, [[V6]] : tensor<4xf32>
// CHECK-NEXT:       %v1 = hlo.negate %v : tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v1 : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V7:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     [[V8:%[0-9]+]] = hlo.all_reduce([[V7]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 3 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %s : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %r = hlo.add %zeros, [[V8]] : tensor<4xf32>
// CHECK-NEXT:     func.return %r : tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: 'hlo.all_reduce': moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 2 all-reduce and 0 reduce-scatter out of while loops
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: 'hlo.all_reduce': moved
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 2 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: 'hlo.all_reduce': moved
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 2 all-reduce and 0 reduce-scatter out of while loops
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): replica groups do not match reference-replica-groups
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// Two accumulations in one loop: %movable moves; %scaled (multiplied before the add) stays.
builtin.module @two_accumulations attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %init = hlo.tuple %c0, %zeros, %zeros, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      %acc2 = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      %v = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %movable = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %scaled = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %sq = hlo.multiply %scaled, %scaled : tensor<4xf32>
      %acc1 = hlo.add %acc, %movable : tensor<4xf32>
      %acc3 = hlo.add %acc2, %sq : tensor<4xf32>
      %next = hlo.tuple %i1, %acc1, %acc3, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
    %r2 = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
    func.return %r, %r2 : tensor<4xf32>, tensor<4xf32>
  }
}

// CHECK-LABEL: builtin.module @two_accumulations attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.tuple %c0, [[V1]], %zeros, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %w = hlo.while([[V2]]) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %acc2 = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %scaled = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %s : tensor<f32>
// CHECK-NEXT:       } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:       %sq = hlo.multiply %scaled, %scaled : tensor<4xf32>
// CHECK-NEXT:       %acc1 = hlo.add %acc, %v : tensor<4xf32>
// CHECK-NEXT:       %acc3 = hlo.add %acc2, %sq : tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %acc3, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.all_reduce([[V3]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 3 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a_1: tensor<f32>, %b_1: tensor<f32>):
// CHECK-NEXT:       %s_1 = hlo.add %a_1, %b_1 : tensor<f32>
// CHECK-NEXT:       hlo.return %s_1 : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %r = hlo.add %zeros, [[V4]] : tensor<4xf32>
// CHECK-NEXT:     %r2 = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     func.return %r, %r2 : tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %movable (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %scaled (hlo.all_reduce): the collective's result is multiplied by a value that is not a scalar
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %movable (hlo.all_reduce): moved
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %scaled (hlo.all_reduce): the collective's result is multiplied by a value that is not a scalar
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %movable (hlo.all_reduce): moved
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %scaled (hlo.all_reduce): the collective's result is multiplied by a value that is not a scalar
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %movable (hlo.all_reduce): replica groups do not match reference-replica-groups
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %scaled (hlo.all_reduce): replica groups do not match reference-replica-groups
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// dynamic_slice/dynamic_update_slice accumulation at row table[partition_id] (table 0,0,0,0,1,1,1,1):
// the index is replicated within the groups {0,1,2,3},{4,5,6,7}: moved (the whole buffer is
// all-reduced after the loop).
builtin.module @ds_dus_replicated_index attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<4xf32>) -> tensor<2x4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %z2 = hlo.constant dense<0.000000e+00> : tensor<2x4xf32>
    %init = hlo.tuple %c0, %z2, %x : tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %table = hlo.constant dense<[0, 0, 0, 0, 1, 1, 1, 1]> : tensor<8xi32>
      %pid = hlo.partition_id : tensor<ui32>
      %entry = hlo.dynamic_slice %table at [%pid] sizes = [1] : (tensor<8xi32>, tensor<ui32>) -> tensor<1xi32>
      %row = hlo.reshape %entry : (tensor<1xi32>) -> tensor<i32>
      %zi = hlo.constant dense<0> : tensor<i32>
      %old = hlo.dynamic_slice %acc at [%row, %zi] sizes = [1, 4] : (tensor<2x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
      %g = hlo.reshape %v : (tensor<4xf32>) -> tensor<1x4xf32>
      %ar = hlo.all_reduce(%g) replica_groups = [[0, 1, 2, 3], [4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<1x4xf32>) -> tensor<1x4xf32>
      %sum = hlo.add %old, %ar : tensor<1x4xf32>
      %acc1 = hlo.dynamic_update_slice %acc, %sum at [%row, %zi] : (tensor<2x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<2x4xf32>
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>
    func.return %r : tensor<2x4xf32>
  }
}

// CHECK-LABEL: builtin.module @ds_dus_replicated_index attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<4xf32>) -> tensor<2x4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     %z2 = hlo.constant dense<0.000000e+00> : tensor<2x4xf32>
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<f32>) -> tensor<2x4xf32>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.tuple %c0, [[V1]], %x : tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %w = hlo.while([[V2]]) : tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %table = hlo.constant dense<[0, 0, 0, 0, 1, 1, 1, 1]> : tensor<8xi32>
// CHECK-NEXT:       %pid = hlo.partition_id : tensor<ui32>
// CHECK-NEXT:       %entry = hlo.dynamic_slice %table at [%pid] sizes = [1] : (tensor<8xi32>, tensor<ui32>) -> tensor<1xi32>
// CHECK-NEXT:       %row = hlo.reshape %entry : (tensor<1xi32>) -> tensor<i32>
// CHECK-NEXT:       %zi = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:       %old = hlo.dynamic_slice %acc at [%row, %zi] sizes = [1, 4] : (tensor<2x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
// CHECK-NEXT:       %g = hlo.reshape %v : (tensor<4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT:       %sum = hlo.add %old, %g : tensor<1x4xf32>
// CHECK-NEXT:       %acc1 = hlo.dynamic_update_slice %acc, %sum at [%row, %zi] : (tensor<2x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<2x4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.all_reduce([[V3]]) replica_groups = [[0, 1, 2, 3], [4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %s : tensor<f32>
// CHECK-NEXT:     } : (tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:     %r = hlo.add %z2, [[V4]] : tensor<2x4xf32>
// CHECK-NEXT:     func.return %r : tensor<2x4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops

// -----

// The same with groups {0,2,4,6},{1,3,5,7}: the index differs within a group: not moved.
builtin.module @ds_dus_unreplicated_index attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<4xf32>) -> tensor<2x4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %z2 = hlo.constant dense<0.000000e+00> : tensor<2x4xf32>
    %init = hlo.tuple %c0, %z2, %x : tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %table = hlo.constant dense<[0, 0, 0, 0, 1, 1, 1, 1]> : tensor<8xi32>
      %pid = hlo.partition_id : tensor<ui32>
      %entry = hlo.dynamic_slice %table at [%pid] sizes = [1] : (tensor<8xi32>, tensor<ui32>) -> tensor<1xi32>
      %row = hlo.reshape %entry : (tensor<1xi32>) -> tensor<i32>
      %zi = hlo.constant dense<0> : tensor<i32>
      %old = hlo.dynamic_slice %acc at [%row, %zi] sizes = [1, 4] : (tensor<2x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
      %g = hlo.reshape %v : (tensor<4xf32>) -> tensor<1x4xf32>
      %ar = hlo.all_reduce(%g) replica_groups = [[0, 2, 4, 6], [1, 3, 5, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<1x4xf32>) -> tensor<1x4xf32>
      %sum = hlo.add %old, %ar : tensor<1x4xf32>
      %acc1 = hlo.dynamic_update_slice %acc, %sum at [%row, %zi] : (tensor<2x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<2x4xf32>
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>
    func.return %r : tensor<2x4xf32>
  }
}

// CHECK-LABEL: builtin.module @ds_dus_unreplicated_index attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<4xf32>) -> tensor<2x4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     %z2 = hlo.constant dense<0.000000e+00> : tensor<2x4xf32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %z2, %x : tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %table = hlo.constant dense<[0, 0, 0, 0, 1, 1, 1, 1]> : tensor<8xi32>
// CHECK-NEXT:       %pid = hlo.partition_id : tensor<ui32>
// CHECK-NEXT:       %entry = hlo.dynamic_slice %table at [%pid] sizes = [1] : (tensor<8xi32>, tensor<ui32>) -> tensor<1xi32>
// CHECK-NEXT:       %row = hlo.reshape %entry : (tensor<1xi32>) -> tensor<i32>
// CHECK-NEXT:       %zi = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:       %old = hlo.dynamic_slice %acc at [%row, %zi] sizes = [1, 4] : (tensor<2x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
// CHECK-NEXT:       %g = hlo.reshape %v : (tensor<4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%g) replica_groups = [[0, 2, 4, 6], [1, 3, 5, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %s : tensor<f32>
// CHECK-NEXT:       } : (tensor<1x4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT:       %sum = hlo.add %old, %ar : tensor<1x4xf32>
// CHECK-NEXT:       %acc1 = hlo.dynamic_update_slice %acc, %sum at [%row, %zi] : (tensor<2x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<2x4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<4xf32>>
// CHECK-NEXT:     func.return %r : tensor<2x4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): dynamic-update-slice index is not replicated within the replica groups
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): dynamic-update-slice index is not replicated within the replica groups
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): dynamic-update-slice index is not replicated within the replica groups
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): replica groups do not match reference-replica-groups
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// reduce_scatter accumulated into a buffer: with enable-reduce-scatter the slot is widened to
// the pre-scatter shape 16x4 (zero init) and one reduce_scatter runs after the loop; without
// it the loop is untouched (reduce_scatter is not a candidate: no remark).
builtin.module @rs_accumulate attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<16x4xf32>) -> tensor<2x4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %zb = hlo.constant dense<0.000000e+00> : tensor<2x4xf32>
    %init = hlo.tuple %c0, %zb, %x : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %g = hlo.cosine %v : tensor<16x4xf32>
      %rs = hlo.reduce_scatter(%g) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<16x4xf32>) -> tensor<2x4xf32>
      %acc1 = hlo.add %rs, %acc : tensor<2x4xf32>
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
    func.return %r : tensor<2x4xf32>
  }
}

// CHECK-LABEL: builtin.module @rs_accumulate attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<16x4xf32>) -> tensor<2x4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %zb = hlo.constant dense<0.000000e+00> : tensor<2x4xf32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %zb, %x : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %g = hlo.cosine %v : tensor<16x4xf32>
// CHECK-NEXT:       %rs = hlo.reduce_scatter(%g) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %s : tensor<f32>
// CHECK-NEXT:       } : (tensor<16x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:       %acc1 = hlo.add %rs, %acc : tensor<2x4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
// CHECK-NEXT:     func.return %r : tensor<2x4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// RS-LABEL: builtin.module @rs_accumulate attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// RS-NEXT:   func.func @main(%x: tensor<16x4xf32>) -> tensor<2x4xf32> attributes {hlo.entry} {
// RS-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// RS-NEXT:     %zb = hlo.constant dense<0.000000e+00> : tensor<2x4xf32>
// RS-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// RS-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<f32>) -> tensor<16x4xf32>
// RS-NEXT:     [[V2:%[0-9]+]] = hlo.tuple %c0, [[V1]], %x : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>
// RS-NEXT:     %w = hlo.while([[V2]]) : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>> condition {
// RS-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>):
// RS-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>
// RS-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// RS-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// RS-NEXT:       hlo.return %lt : tensor<i1>
// RS-NEXT:     } body {
// RS-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>):
// RS-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>
// RS-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>
// RS-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>
// RS-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// RS-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// RS-NEXT:       %g = hlo.cosine %v : tensor<16x4xf32>
// RS-NEXT:       %acc1 = hlo.add %g, %acc : tensor<16x4xf32>
// RS-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>
// RS-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>
// RS-NEXT:     }
// RS-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>
// RS-NEXT:     [[V4:%[0-9]+]] = hlo.reduce_scatter([[V3]]) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// RS-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// RS-NEXT:       %s = hlo.add %a, %b : tensor<f32>
// RS-NEXT:       hlo.return %s : tensor<f32>
// RS-NEXT:     } : (tensor<16x4xf32>) -> tensor<2x4xf32>
// RS-NEXT:     %r = hlo.add %zb, [[V4]] : tensor<2x4xf32>
// RS-NEXT:     func.return %r : tensor<2x4xf32>
// RS-NEXT:   }
// RS-NEXT: }

// SETUP-LABEL: builtin.module @rs_accumulate attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// SETUP-NEXT:   func.func @main(%x: tensor<16x4xf32>) -> tensor<2x4xf32> attributes {hlo.entry} {
// SETUP-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// SETUP-NEXT:     %zb = hlo.constant dense<0.000000e+00> : tensor<2x4xf32>
// SETUP-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// SETUP-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<f32>) -> tensor<16x4xf32>
// SETUP-NEXT:     [[V2:%[0-9]+]] = hlo.tuple %c0, [[V1]], %x : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>
// SETUP-NEXT:     %w = hlo.while([[V2]]) : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>> condition {
// SETUP-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>):
// SETUP-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>
// SETUP-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// SETUP-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// SETUP-NEXT:       hlo.return %lt : tensor<i1>
// SETUP-NEXT:     } body {
// SETUP-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>):
// SETUP-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>
// SETUP-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>
// SETUP-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>
// SETUP-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// SETUP-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// SETUP-NEXT:       %g = hlo.cosine %v : tensor<16x4xf32>
// SETUP-NEXT:       %acc1 = hlo.add %g, %acc : tensor<16x4xf32>
// SETUP-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>
// SETUP-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>
// SETUP-NEXT:     }
// SETUP-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>
// SETUP-NEXT:     [[V4:%[0-9]+]] = hlo.reduce_scatter([[V3]]) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// SETUP-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// SETUP-NEXT:       %s = hlo.add %a, %b : tensor<f32>
// SETUP-NEXT:       hlo.return %s : tensor<f32>
// SETUP-NEXT:     } : (tensor<16x4xf32>) -> tensor<2x4xf32>
// SETUP-NEXT:     %r = hlo.add %zb, [[V4]] : tensor<2x4xf32>
// SETUP-NEXT:     func.return %r : tensor<2x4xf32>
// SETUP-NEXT:   }
// SETUP-NEXT: }

// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %rs (hlo.reduce_scatter): moved
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 1 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %rs (hlo.reduce_scatter): moved
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 1 reduce-scatter out of while loops

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %rs (hlo.reduce_scatter): reduce_scatter motion is disabled (enable-reduce-scatter)
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %rs (hlo.reduce_scatter): reduce_scatter motion is disabled (enable-reduce-scatter)
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// -----

// reduce_scatter(bf16) -> convert(f32) -> add: not moved without the setup rewrites (remark);
// with run-setup-passes the convert goes before the reduce_scatter, which then moves.
builtin.module @rs_convert attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<16x4xbf16>) -> tensor<2x4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %zb = hlo.constant dense<0.000000e+00> : tensor<2x4xf32>
    %init = hlo.tuple %c0, %zb, %x : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xbf16>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xbf16>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xbf16>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xbf16>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xbf16>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xbf16>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xbf16>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xbf16>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %g = hlo.cosine %v : tensor<16x4xbf16>
      %rs = hlo.reduce_scatter(%g) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
        %s = hlo.add %a, %b : tensor<bf16>
        hlo.return %s : tensor<bf16>
      } : (tensor<16x4xbf16>) -> tensor<2x4xbf16>
      %wide = hlo.convert %rs : tensor<2x4xbf16> -> tensor<2x4xf32>
      %acc1 = hlo.add %acc, %wide : tensor<2x4xf32>
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xbf16>>
      hlo.return %next : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xbf16>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xbf16>>
    func.return %r : tensor<2x4xf32>
  }
}

// CHECK-LABEL: builtin.module @rs_convert attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<16x4xbf16>) -> tensor<2x4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %zb = hlo.constant dense<0.000000e+00> : tensor<2x4xf32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %zb, %x : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xbf16>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xbf16>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xbf16>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xbf16>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xbf16>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xbf16>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xbf16>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xbf16>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %g = hlo.cosine %v : tensor<16x4xbf16>
// CHECK-NEXT:       %rs = hlo.reduce_scatter(%g) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
// CHECK-NEXT:         %s = hlo.add %a, %b : tensor<bf16>
// CHECK-NEXT:         hlo.return %s : tensor<bf16>
// CHECK-NEXT:       } : (tensor<16x4xbf16>) -> tensor<2x4xbf16>
// CHECK-NEXT:       %wide = hlo.convert %rs : tensor<2x4xbf16> -> tensor<2x4xf32>
// CHECK-NEXT:       %acc1 = hlo.add %acc, %wide : tensor<2x4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xbf16>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xbf16>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xbf16>>
// CHECK-NEXT:     func.return %r : tensor<2x4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// RS-LABEL: builtin.module @rs_convert attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// RS-NEXT:   func.func @main(%x: tensor<16x4xbf16>) -> tensor<2x4xf32> attributes {hlo.entry} {
// RS-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// RS-NEXT:     %zb = hlo.constant dense<0.000000e+00> : tensor<2x4xf32>
// RS-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// RS-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<f32>) -> tensor<16x4xf32>
// RS-NEXT:     [[V2:%[0-9]+]] = hlo.tuple %c0, [[V1]], %x : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xbf16>>
// RS-NEXT:     %w = hlo.while([[V2]]) : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xbf16>> condition {
// RS-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xbf16>>):
// RS-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xbf16>>
// RS-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// RS-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// RS-NEXT:       hlo.return %lt : tensor<i1>
// RS-NEXT:     } body {
// RS-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xbf16>>):
// RS-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xbf16>>
// RS-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xbf16>>
// RS-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xbf16>>
// RS-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// RS-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// RS-NEXT:       %g = hlo.cosine %v : tensor<16x4xbf16>
// RS-NEXT:       %wide = hlo.convert %g : tensor<16x4xbf16> -> tensor<16x4xf32>
// RS-NEXT:       %acc1 = hlo.add %acc, %wide : tensor<16x4xf32>
// RS-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xbf16>>
// RS-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xbf16>>
// RS-NEXT:     }
// RS-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xbf16>>
// RS-NEXT:     [[V4:%[0-9]+]] = hlo.convert [[V3]] : tensor<16x4xf32> -> tensor<16x4xbf16>
// RS-NEXT:     [[V5:%[0-9]+]] = hlo.reduce_scatter([[V4]]) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// RS-NEXT:     ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
// RS-NEXT:       %s = hlo.add %a, %b : tensor<bf16>
// RS-NEXT:       hlo.return %s : tensor<bf16>
// RS-NEXT:     } : (tensor<16x4xbf16>) -> tensor<2x4xbf16>
// RS-NEXT:     [[V6:%[0-9]+]] = hlo.convert [[V5]] : tensor<2x4xbf16> -> tensor<2x4xf32>
// RS-NEXT:     %r = hlo.add %zb, [[V6]] : tensor<2x4xf32>
// RS-NEXT:     func.return %r : tensor<2x4xf32>
// RS-NEXT:   }
// RS-NEXT: }

// SETUP-LABEL: builtin.module @rs_convert attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// SETUP-NEXT:   func.func @main(%x: tensor<16x4xbf16>) -> tensor<2x4xf32> attributes {hlo.entry} {
// SETUP-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// SETUP-NEXT:     %zb = hlo.constant dense<0.000000e+00> : tensor<2x4xf32>
// SETUP-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// SETUP-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<f32>) -> tensor<16x4xf32>
// SETUP-NEXT:     [[V2:%[0-9]+]] = hlo.tuple %c0, [[V1]], %x : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xbf16>>
// SETUP-NEXT:     %w = hlo.while([[V2]]) : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xbf16>> condition {
// SETUP-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xbf16>>):
// SETUP-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xbf16>>
// SETUP-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// SETUP-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// SETUP-NEXT:       hlo.return %lt : tensor<i1>
// SETUP-NEXT:     } body {
// SETUP-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xbf16>>):
// SETUP-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xbf16>>
// SETUP-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xbf16>>
// SETUP-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xbf16>>
// SETUP-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// SETUP-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// SETUP-NEXT:       %g = hlo.cosine %v : tensor<16x4xbf16>
// SETUP-NEXT:       %wide = hlo.convert %g : tensor<16x4xbf16> -> tensor<16x4xf32>
// SETUP-NEXT:       %acc1 = hlo.add %acc, %wide : tensor<16x4xf32>
// SETUP-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xbf16>>
// SETUP-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xbf16>>
// SETUP-NEXT:     }
// SETUP-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xbf16>>
// SETUP-NEXT:     [[V4:%[0-9]+]] = hlo.convert [[V3]] : tensor<16x4xf32> -> tensor<16x4xbf16>
// SETUP-NEXT:     [[V5:%[0-9]+]] = hlo.reduce_scatter([[V4]]) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// SETUP-NEXT:     ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
// SETUP-NEXT:       %s = hlo.add %a, %b : tensor<bf16>
// SETUP-NEXT:       hlo.return %s : tensor<bf16>
// SETUP-NEXT:     } : (tensor<16x4xbf16>) -> tensor<2x4xbf16>
// SETUP-NEXT:     [[V6:%[0-9]+]] = hlo.convert [[V5]] : tensor<2x4xbf16> -> tensor<2x4xf32>
// SETUP-NEXT:     %r = hlo.add %zb, [[V6]] : tensor<2x4xf32>
// SETUP-NEXT:     func.return %r : tensor<2x4xf32>
// SETUP-NEXT:   }
// SETUP-NEXT: }

// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %rs (hlo.reduce_scatter): moved
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 1 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %rs (hlo.reduce_scatter): moved
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 1 reduce-scatter out of while loops

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %rs (hlo.reduce_scatter): reduce_scatter motion is disabled (enable-reduce-scatter)
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %rs (hlo.reduce_scatter): reduce_scatter motion is disabled (enable-reduce-scatter)
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// -----

// reduce_scatter -> transpose -> add: not moved without setup (remark); with run-setup-passes the
// transpose goes before the reduce_scatter (scatter dimension 0 -> 1), which then moves.
builtin.module @rs_transpose attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<16x4xf32>) -> tensor<4x2xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %zb = hlo.constant dense<0.000000e+00> : tensor<4x2xf32>
    %init = hlo.tuple %c0, %zb, %x : tuple<tensor<i32>, tensor<4x2xf32>, tensor<16x4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x2xf32>, tensor<16x4xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4x2xf32>, tensor<16x4xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<16x4xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4x2xf32>, tensor<16x4xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<16x4xf32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<16x4xf32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<16x4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %g = hlo.cosine %v : tensor<16x4xf32>
      %rs = hlo.reduce_scatter(%g) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<16x4xf32>) -> tensor<2x4xf32>
      %t = hlo.transpose %rs, dims = [1, 0] : (tensor<2x4xf32>) -> tensor<4x2xf32>
      %acc1 = hlo.add %acc, %t : tensor<4x2xf32>
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4x2xf32>, tensor<16x4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4x2xf32>, tensor<16x4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<16x4xf32>>
    func.return %r : tensor<4x2xf32>
  }
}

// CHECK-LABEL: builtin.module @rs_transpose attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<16x4xf32>) -> tensor<4x2xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %zb = hlo.constant dense<0.000000e+00> : tensor<4x2xf32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %zb, %x : tuple<tensor<i32>, tensor<4x2xf32>, tensor<16x4xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x2xf32>, tensor<16x4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4x2xf32>, tensor<16x4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<16x4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4x2xf32>, tensor<16x4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<16x4xf32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<16x4xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<16x4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %g = hlo.cosine %v : tensor<16x4xf32>
// CHECK-NEXT:       %rs = hlo.reduce_scatter(%g) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %s : tensor<f32>
// CHECK-NEXT:       } : (tensor<16x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:       %t = hlo.transpose %rs, dims = [1, 0] : (tensor<2x4xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:       %acc1 = hlo.add %acc, %t : tensor<4x2xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4x2xf32>, tensor<16x4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4x2xf32>, tensor<16x4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<16x4xf32>>
// CHECK-NEXT:     func.return %r : tensor<4x2xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// RS-LABEL: builtin.module @rs_transpose attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// RS-NEXT:   func.func @main(%x: tensor<16x4xf32>) -> tensor<4x2xf32> attributes {hlo.entry} {
// RS-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// RS-NEXT:     %zb = hlo.constant dense<0.000000e+00> : tensor<4x2xf32>
// RS-NEXT:     %init = hlo.tuple %c0, %zb, %x : tuple<tensor<i32>, tensor<4x2xf32>, tensor<16x4xf32>>
// RS-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x2xf32>, tensor<16x4xf32>> condition {
// RS-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4x2xf32>, tensor<16x4xf32>>):
// RS-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<16x4xf32>>
// RS-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// RS-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// RS-NEXT:       hlo.return %lt : tensor<i1>
// RS-NEXT:     } body {
// RS-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4x2xf32>, tensor<16x4xf32>>):
// RS-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<16x4xf32>>
// RS-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<16x4xf32>>
// RS-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<16x4xf32>>
// RS-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// RS-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// RS-NEXT:       %g = hlo.cosine %v : tensor<16x4xf32>
// RS-NEXT:       %rs = hlo.reduce_scatter(%g) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// RS-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// RS-NEXT:         %s = hlo.add %a, %b : tensor<f32>
// RS-NEXT:         hlo.return %s : tensor<f32>
// RS-NEXT:       } : (tensor<16x4xf32>) -> tensor<2x4xf32>
// RS-NEXT:       %t = hlo.transpose %rs, dims = [1, 0] : (tensor<2x4xf32>) -> tensor<4x2xf32>
// RS-NEXT:       %acc1 = hlo.add %acc, %t : tensor<4x2xf32>
// RS-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4x2xf32>, tensor<16x4xf32>>
// RS-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4x2xf32>, tensor<16x4xf32>>
// RS-NEXT:     }
// RS-NEXT:     %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<16x4xf32>>
// RS-NEXT:     func.return %r : tensor<4x2xf32>
// RS-NEXT:   }
// RS-NEXT: }

// SETUP-LABEL: builtin.module @rs_transpose attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// SETUP-NEXT:   func.func @main(%x: tensor<16x4xf32>) -> tensor<4x2xf32> attributes {hlo.entry} {
// SETUP-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// SETUP-NEXT:     %zb = hlo.constant dense<0.000000e+00> : tensor<4x2xf32>
// SETUP-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// SETUP-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<f32>) -> tensor<4x16xf32>
// SETUP-NEXT:     [[V2:%[0-9]+]] = hlo.tuple %c0, [[V1]], %x : tuple<tensor<i32>, tensor<4x16xf32>, tensor<16x4xf32>>
// SETUP-NEXT:     %w = hlo.while([[V2]]) : tuple<tensor<i32>, tensor<4x16xf32>, tensor<16x4xf32>> condition {
// SETUP-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4x16xf32>, tensor<16x4xf32>>):
// SETUP-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<16x4xf32>>
// SETUP-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// SETUP-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// SETUP-NEXT:       hlo.return %lt : tensor<i1>
// SETUP-NEXT:     } body {
// SETUP-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4x16xf32>, tensor<16x4xf32>>):
// SETUP-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<16x4xf32>>
// SETUP-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<16x4xf32>>
// SETUP-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<16x4xf32>>
// SETUP-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// SETUP-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// SETUP-NEXT:       %g = hlo.cosine %v : tensor<16x4xf32>
// SETUP-NEXT:       %rs = hlo.transpose %g, dims = [1, 0] : (tensor<16x4xf32>) -> tensor<4x16xf32>
// SETUP-NEXT:       %acc1 = hlo.add %acc, %rs : tensor<4x16xf32>
// SETUP-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4x16xf32>, tensor<16x4xf32>>
// SETUP-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4x16xf32>, tensor<16x4xf32>>
// SETUP-NEXT:     }
// SETUP-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<16x4xf32>>
// SETUP-NEXT:     [[V4:%[0-9]+]] = hlo.reduce_scatter([[V3]]) dim = 1 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// SETUP-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// SETUP-NEXT:       %s = hlo.add %a, %b : tensor<f32>
// SETUP-NEXT:       hlo.return %s : tensor<f32>
// SETUP-NEXT:     } : (tensor<4x16xf32>) -> tensor<4x2xf32>
// SETUP-NEXT:     %r = hlo.add %zb, [[V4]] : tensor<4x2xf32>
// SETUP-NEXT:     func.return %r : tensor<4x2xf32>
// SETUP-NEXT:   }
// SETUP-NEXT: }

// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %rs (hlo.reduce_scatter): unsupported operation on the collective's result: transpose
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %rs (hlo.reduce_scatter): moved
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 1 reduce-scatter out of while loops

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %rs (hlo.reduce_scatter): reduce_scatter motion is disabled (enable-reduce-scatter)
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %rs (hlo.reduce_scatter): reduce_scatter motion is disabled (enable-reduce-scatter)
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// -----

// reduce_scatter -> select(broadcast of a scalar predicate, ., zero) -> add. Without
// enable-reduce-scatter: untouched. With it the reduce_scatter moves (ISSUE 6 §1): the slot is
// widened to 16x4, the predicate scalar is re-broadcast to 16x4 and the zero widened, so the loop
// accumulates select(p, local, 0) and one reduce_scatter runs after the loop (p is replicated).
// (The narrow %pb and %zero are left dead in the body: a known leftover, see the pytest file.)
builtin.module @rs_select_scalar_predicate attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<16x4xf32>) -> tensor<2x4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %zb = hlo.constant dense<0.000000e+00> : tensor<2x4xf32>
    %init = hlo.tuple %c0, %zb, %x : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %g = hlo.cosine %v : tensor<16x4xf32>
      %rs = hlo.reduce_scatter(%g) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<16x4xf32>) -> tensor<2x4xf32>
      %two = hlo.constant dense<2> : tensor<i32>
      %p = hlo.compare LT, %i, %two : tensor<i32> -> tensor<i1>
      %pb = hlo.broadcast %p, dims = [] : (tensor<i1>) -> tensor<2x4xi1>
      %zero = hlo.constant dense<0.000000e+00> : tensor<2x4xf32>
      %sel = hlo.select %pb, %rs, %zero : tensor<2x4xi1>, tensor<2x4xf32>
      %acc1 = hlo.add %acc, %sel : tensor<2x4xf32>
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
    func.return %r : tensor<2x4xf32>
  }
}

// CHECK-LABEL: builtin.module @rs_select_scalar_predicate attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<16x4xf32>) -> tensor<2x4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %zb = hlo.constant dense<0.000000e+00> : tensor<2x4xf32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %zb, %x : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %g = hlo.cosine %v : tensor<16x4xf32>
// CHECK-NEXT:       %rs = hlo.reduce_scatter(%g) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %s : tensor<f32>
// CHECK-NEXT:       } : (tensor<16x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:       %two = hlo.constant dense<2> : tensor<i32>
// CHECK-NEXT:       %p = hlo.compare LT, %i, %two : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       %pb = hlo.broadcast %p, dims = [] : (tensor<i1>) -> tensor<2x4xi1>
// CHECK-NEXT:       %zero = hlo.constant dense<0.000000e+00> : tensor<2x4xf32>
// CHECK-NEXT:       %sel = hlo.select %pb, %rs, %zero : tensor<2x4xi1>, tensor<2x4xf32>
// CHECK-NEXT:       %acc1 = hlo.add %acc, %sel : tensor<2x4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
// CHECK-NEXT:     func.return %r : tensor<2x4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// RS-LABEL: builtin.module @rs_select_scalar_predicate attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// RS-NEXT:   func.func @main(%x: tensor<16x4xf32>) -> tensor<2x4xf32> attributes {hlo.entry} {
// RS-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// RS-NEXT:     %zb = hlo.constant dense<0.000000e+00> : tensor<2x4xf32>
// RS-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// RS-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<f32>) -> tensor<16x4xf32>
// RS-NEXT:     [[V2:%[0-9]+]] = hlo.tuple %c0, [[V1]], %x : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>
// RS-NEXT:     %w = hlo.while([[V2]]) : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>> condition {
// RS-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>):
// RS-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>
// RS-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// RS-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// RS-NEXT:       hlo.return %lt : tensor<i1>
// RS-NEXT:     } body {
// RS-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>):
// RS-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>
// RS-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>
// RS-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>
// RS-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// RS-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// RS-NEXT:       %g = hlo.cosine %v : tensor<16x4xf32>
// RS-NEXT:       %two = hlo.constant dense<2> : tensor<i32>
// RS-NEXT:       %p = hlo.compare LT, %i, %two : tensor<i32> -> tensor<i1>
// RS-NEXT:       [[V3:%[0-9]+]] = hlo.broadcast %p, dims = [] : (tensor<i1>) -> tensor<16x4xi1>
// RS-NEXT:       [[V4:%[0-9]+]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// RS-NEXT:       [[V5:%[0-9]+]] = hlo.broadcast [[V4]], dims = [] : (tensor<f32>) -> tensor<16x4xf32>
// RS-NEXT:       %sel = hlo.select [[V3]], %g, [[V5]] : tensor<16x4xi1>, tensor<16x4xf32>
// RS-NEXT:       %acc1 = hlo.add %acc, %sel : tensor<16x4xf32>
// RS-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>
// RS-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>
// RS-NEXT:     }
// RS-NEXT:     [[V6:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>
// RS-NEXT:     [[V7:%[0-9]+]] = hlo.reduce_scatter([[V6]]) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// RS-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// RS-NEXT:       %s = hlo.add %a, %b : tensor<f32>
// RS-NEXT:       hlo.return %s : tensor<f32>
// RS-NEXT:     } : (tensor<16x4xf32>) -> tensor<2x4xf32>
// RS-NEXT:     %r = hlo.add %zb, [[V7]] : tensor<2x4xf32>
// RS-NEXT:     func.return %r : tensor<2x4xf32>
// RS-NEXT:   }
// RS-NEXT: }

// SETUP-LABEL: builtin.module @rs_select_scalar_predicate attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// SETUP-NEXT:   func.func @main(%x: tensor<16x4xf32>) -> tensor<2x4xf32> attributes {hlo.entry} {
// SETUP-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// SETUP-NEXT:     %zb = hlo.constant dense<0.000000e+00> : tensor<2x4xf32>
// SETUP-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// SETUP-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<f32>) -> tensor<16x4xf32>
// SETUP-NEXT:     [[V2:%[0-9]+]] = hlo.tuple %c0, [[V1]], %x : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>
// SETUP-NEXT:     %w = hlo.while([[V2]]) : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>> condition {
// SETUP-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>):
// SETUP-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>
// SETUP-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// SETUP-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// SETUP-NEXT:       hlo.return %lt : tensor<i1>
// SETUP-NEXT:     } body {
// SETUP-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>):
// SETUP-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>
// SETUP-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>
// SETUP-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>
// SETUP-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// SETUP-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// SETUP-NEXT:       %g = hlo.cosine %v : tensor<16x4xf32>
// SETUP-NEXT:       %two = hlo.constant dense<2> : tensor<i32>
// SETUP-NEXT:       %p = hlo.compare LT, %i, %two : tensor<i32> -> tensor<i1>
// SETUP-NEXT:       [[V3:%[0-9]+]] = hlo.broadcast %p, dims = [] : (tensor<i1>) -> tensor<16x4xi1>
// SETUP-NEXT:       [[V4:%[0-9]+]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// SETUP-NEXT:       [[V5:%[0-9]+]] = hlo.broadcast [[V4]], dims = [] : (tensor<f32>) -> tensor<16x4xf32>
// SETUP-NEXT:       %sel = hlo.select [[V3]], %g, [[V5]] : tensor<16x4xi1>, tensor<16x4xf32>
// SETUP-NEXT:       %acc1 = hlo.add %acc, %sel : tensor<16x4xf32>
// SETUP-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>
// SETUP-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>
// SETUP-NEXT:     }
// SETUP-NEXT:     [[V6:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<16x4xf32>, tensor<16x4xf32>>
// SETUP-NEXT:     [[V7:%[0-9]+]] = hlo.reduce_scatter([[V6]]) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// SETUP-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// SETUP-NEXT:       %s = hlo.add %a, %b : tensor<f32>
// SETUP-NEXT:       hlo.return %s : tensor<f32>
// SETUP-NEXT:     } : (tensor<16x4xf32>) -> tensor<2x4xf32>
// SETUP-NEXT:     %r = hlo.add %zb, [[V7]] : tensor<2x4xf32>
// SETUP-NEXT:     func.return %r : tensor<2x4xf32>
// SETUP-NEXT:   }
// SETUP-NEXT: }

// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %rs (hlo.reduce_scatter): moved
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 1 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %rs (hlo.reduce_scatter): moved
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 1 reduce-scatter out of while loops

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %rs (hlo.reduce_scatter): reduce_scatter motion is disabled (enable-reduce-scatter)
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %rs (hlo.reduce_scatter): reduce_scatter motion is disabled (enable-reduce-scatter)
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// -----

// reduce_scatter -> select(full predicate, ., zero) -> add: not moved, remark "select predicate on
// a reduce_scatter result is not a broadcast scalar" (it cannot be widened to the pre-scatter shape).
builtin.module @rs_select_full_predicate attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<16x4xf32>) -> tensor<2x4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %zb = hlo.constant dense<0.000000e+00> : tensor<2x4xf32>
    %init = hlo.tuple %c0, %zb, %x : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %g = hlo.cosine %v : tensor<16x4xf32>
      %rs = hlo.reduce_scatter(%g) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<16x4xf32>) -> tensor<2x4xf32>
      %io = hlo.iota dim = 1 : tensor<2x4xi32>
      %ib = hlo.broadcast %i, dims = [] : (tensor<i32>) -> tensor<2x4xi32>
      %p = hlo.compare LT, %io, %ib : tensor<2x4xi32> -> tensor<2x4xi1>
      %zero = hlo.constant dense<0.000000e+00> : tensor<2x4xf32>
      %sel = hlo.select %p, %rs, %zero : tensor<2x4xi1>, tensor<2x4xf32>
      %acc1 = hlo.add %acc, %sel : tensor<2x4xf32>
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
    func.return %r : tensor<2x4xf32>
  }
}

// CHECK-LABEL: builtin.module @rs_select_full_predicate attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<16x4xf32>) -> tensor<2x4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %zb = hlo.constant dense<0.000000e+00> : tensor<2x4xf32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %zb, %x : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %g = hlo.cosine %v : tensor<16x4xf32>
// CHECK-NEXT:       %rs = hlo.reduce_scatter(%g) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %s : tensor<f32>
// CHECK-NEXT:       } : (tensor<16x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:       %io = hlo.iota dim = 1 : tensor<2x4xi32>
// CHECK-NEXT:       %ib = hlo.broadcast %i, dims = [] : (tensor<i32>) -> tensor<2x4xi32>
// CHECK-NEXT:       %p = hlo.compare LT, %io, %ib : tensor<2x4xi32> -> tensor<2x4xi1>
// CHECK-NEXT:       %zero = hlo.constant dense<0.000000e+00> : tensor<2x4xf32>
// CHECK-NEXT:       %sel = hlo.select %p, %rs, %zero : tensor<2x4xi1>, tensor<2x4xf32>
// CHECK-NEXT:       %acc1 = hlo.add %acc, %sel : tensor<2x4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
// CHECK-NEXT:     func.return %r : tensor<2x4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// RS-LABEL: builtin.module @rs_select_full_predicate attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// RS-NEXT:   func.func @main(%x: tensor<16x4xf32>) -> tensor<2x4xf32> attributes {hlo.entry} {
// RS-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// RS-NEXT:     %zb = hlo.constant dense<0.000000e+00> : tensor<2x4xf32>
// RS-NEXT:     %init = hlo.tuple %c0, %zb, %x : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
// RS-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>> condition {
// RS-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>):
// RS-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
// RS-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// RS-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// RS-NEXT:       hlo.return %lt : tensor<i1>
// RS-NEXT:     } body {
// RS-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>):
// RS-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
// RS-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
// RS-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
// RS-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// RS-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// RS-NEXT:       %g = hlo.cosine %v : tensor<16x4xf32>
// RS-NEXT:       %rs = hlo.reduce_scatter(%g) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// RS-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// RS-NEXT:         %s = hlo.add %a, %b : tensor<f32>
// RS-NEXT:         hlo.return %s : tensor<f32>
// RS-NEXT:       } : (tensor<16x4xf32>) -> tensor<2x4xf32>
// RS-NEXT:       %io = hlo.iota dim = 1 : tensor<2x4xi32>
// RS-NEXT:       %ib = hlo.broadcast %i, dims = [] : (tensor<i32>) -> tensor<2x4xi32>
// RS-NEXT:       %p = hlo.compare LT, %io, %ib : tensor<2x4xi32> -> tensor<2x4xi1>
// RS-NEXT:       %zero = hlo.constant dense<0.000000e+00> : tensor<2x4xf32>
// RS-NEXT:       %sel = hlo.select %p, %rs, %zero : tensor<2x4xi1>, tensor<2x4xf32>
// RS-NEXT:       %acc1 = hlo.add %acc, %sel : tensor<2x4xf32>
// RS-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
// RS-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
// RS-NEXT:     }
// RS-NEXT:     %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<16x4xf32>>
// RS-NEXT:     func.return %r : tensor<2x4xf32>
// RS-NEXT:   }
// RS-NEXT: }

// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %rs (hlo.reduce_scatter): select predicate on a reduce_scatter result is not a broadcast scalar
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %rs (hlo.reduce_scatter): select predicate on a reduce_scatter result is not a broadcast scalar
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %rs (hlo.reduce_scatter): reduce_scatter motion is disabled (enable-reduce-scatter)
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %rs (hlo.reduce_scatter): reduce_scatter motion is disabled (enable-reduce-scatter)
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// -----

// A non-zero initial value (constant ones): moved; the loop starts from zeros and the result is
// add(ones, all_reduce(buffer)) (old init first).
builtin.module @nonzero_init attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %ones = hlo.constant dense<1.000000e+00> : tensor<4xf32>
    %init = hlo.tuple %c0, %ones, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %acc1 = hlo.add %acc, %ar : tensor<4xf32>
      %v1 = hlo.tanh %v : tensor<4xf32>
      %next = hlo.tuple %i1, %acc1, %v1 : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    func.return %r : tensor<4xf32>
  }
}

// CHECK-LABEL: builtin.module @nonzero_init attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %ones = hlo.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.tuple %c0, [[V1]], %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %w = hlo.while([[V2]]) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %acc1 = hlo.add %acc, %v : tensor<4xf32>
// CHECK-NEXT:       %v1 = hlo.tanh %v : tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v1 : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.all_reduce([[V3]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %s : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %r = hlo.add %ones, [[V4]] : tensor<4xf32>
// CHECK-NEXT:     func.return %r : tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): replica groups do not match reference-replica-groups
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// max and min reductions accumulated with add: not moved.
builtin.module @max_min attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %init = hlo.tuple %c0, %zeros, %zeros, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      %acc2 = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      %v = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %mx = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.maximum %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %mn = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.minimum %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %acc1 = hlo.add %acc, %mx : tensor<4xf32>
      %acc3 = hlo.add %acc2, %mn : tensor<4xf32>
      %next = hlo.tuple %i1, %acc1, %acc3, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
    %r2 = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
    func.return %r, %r2 : tensor<4xf32>, tensor<4xf32>
  }
}

// CHECK-LABEL: builtin.module @max_min attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %zeros, %zeros, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %acc2 = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %mx = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %s = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %s : tensor<f32>
// CHECK-NEXT:       } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:       %mn = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a_1: tensor<f32>, %b_1: tensor<f32>):
// CHECK-NEXT:         %s_1 = hlo.minimum %a_1, %b_1 : tensor<f32>
// CHECK-NEXT:         hlo.return %s_1 : tensor<f32>
// CHECK-NEXT:       } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:       %acc1 = hlo.add %acc, %mx : tensor<4xf32>
// CHECK-NEXT:       %acc3 = hlo.add %acc2, %mn : tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %acc3, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %r2 = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     func.return %r, %r2 : tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %mx (hlo.all_reduce): the maximum reduction is accumulated with add: only the reducer's own operation accumulates
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %mn (hlo.all_reduce): the minimum reduction is accumulated with add: only the reducer's own operation accumulates
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %mx (hlo.all_reduce): the maximum reduction is accumulated with add: only the reducer's own operation accumulates
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %mn (hlo.all_reduce): the minimum reduction is accumulated with add: only the reducer's own operation accumulates
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %mx (hlo.all_reduce): the maximum reduction is accumulated with add: only the reducer's own operation accumulates
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %mn (hlo.all_reduce): the minimum reduction is accumulated with add: only the reducer's own operation accumulates
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %mx (hlo.all_reduce): replica groups do not match reference-replica-groups
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %mn (hlo.all_reduce): replica groups do not match reference-replica-groups
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// The loop condition reads the accumulation buffer: not moved (stricter than XLA, docs/decisions.md §6.2).
builtin.module @cond_reads_buffer attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<f32>) -> tensor<f32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %init = hlo.tuple %c0, %f0, %x : tuple<tensor<i32>, tensor<f32>, tensor<f32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<f32>, tensor<f32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<f32>, tensor<f32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<f32>, tensor<f32>>
      %ca = hlo.get_tuple_element %cs[1] : tuple<tensor<i32>, tensor<f32>, tensor<f32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %limit = hlo.constant dense<1.000000e+06> : tensor<f32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      %small = hlo.compare LT, %ca, %limit : tensor<f32> -> tensor<i1>
      %go = hlo.and %lt, %small : tensor<i1>
      hlo.return %go : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<f32>, tensor<f32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<f32>, tensor<f32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<f32>, tensor<f32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<f32>, tensor<f32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<f32>) -> tensor<f32>
      %acc1 = hlo.add %acc, %ar : tensor<f32>
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<f32>, tensor<f32>>
      hlo.return %next : tuple<tensor<i32>, tensor<f32>, tensor<f32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<f32>, tensor<f32>>
    func.return %r : tensor<f32>
  }
}

// CHECK-LABEL: builtin.module @cond_reads_buffer attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<f32>) -> tensor<f32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %f0, %x : tuple<tensor<i32>, tensor<f32>, tensor<f32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<f32>, tensor<f32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<f32>, tensor<f32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<f32>, tensor<f32>>
// CHECK-NEXT:       %ca = hlo.get_tuple_element %cs[1] : tuple<tensor<i32>, tensor<f32>, tensor<f32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %limit = hlo.constant dense<1.000000e+06> : tensor<f32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       %small = hlo.compare LT, %ca, %limit : tensor<f32> -> tensor<i1>
// CHECK-NEXT:       %go = hlo.and %lt, %small : tensor<i1>
// CHECK-NEXT:       hlo.return %go : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<f32>, tensor<f32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<f32>, tensor<f32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<f32>, tensor<f32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<f32>, tensor<f32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %s : tensor<f32>
// CHECK-NEXT:       } : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:       %acc1 = hlo.add %acc, %ar : tensor<f32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<f32>, tensor<f32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<f32>, tensor<f32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<f32>, tensor<f32>>
// CHECK-NEXT:     func.return %r : tensor<f32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): accumulation buffer is read by the loop condition
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): accumulation buffer is read by the loop condition
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): accumulation buffer is read by the loop condition
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): replica groups do not match reference-replica-groups
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// The buffer is also used by another op (a multiply): not moved.
builtin.module @buffer_other_use attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %init = hlo.tuple %c0, %zeros, %zeros, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      %sq = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      %v = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %acc1 = hlo.add %acc, %ar : tensor<4xf32>
      %sq1 = hlo.multiply %acc, %acc : tensor<4xf32>
      %next = hlo.tuple %i1, %acc1, %sq1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
    }
    func.return %w : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
  }
}

// CHECK-LABEL: builtin.module @buffer_other_use attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %zeros, %zeros, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %sq = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %s : tensor<f32>
// CHECK-NEXT:       } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:       %acc1 = hlo.add %acc, %ar : tensor<4xf32>
// CHECK-NEXT:       %sq1 = hlo.multiply %acc, %acc : tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %sq1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     func.return %w : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): unsupported operation on accumulation buffer: multiply
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): unsupported operation on accumulation buffer: multiply
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): unsupported operation on accumulation buffer: multiply
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): replica groups do not match reference-replica-groups
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// No channel id (cross_replica mode, 2 replicas x 4 partitions): moved, and the hoisted
// all-reduce has no channel id either (docs/decisions.md §6.1: adding one would make it
// cross_replica_and_partition).
builtin.module @no_channel_id attributes {hlo.num_replicas = 2 : i64, hlo.num_partitions = 4 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %init = hlo.tuple %c0, %zeros, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %ar = hlo.all_reduce(%v) replica_groups = [[0, 1]] {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %acc1 = hlo.add %acc, %ar : tensor<4xf32>
      %v1 = hlo.sine %v : tensor<4xf32>
      %next = hlo.tuple %i1, %acc1, %v1 : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    func.return %r : tensor<4xf32>
  }
}

// CHECK-LABEL: builtin.module @no_channel_id attributes {hlo.num_replicas = 2 : i64, hlo.num_partitions = 4 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.tuple %c0, [[V1]], %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %w = hlo.while([[V2]]) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %acc1 = hlo.add %acc, %v : tensor<4xf32>
// CHECK-NEXT:       %v1 = hlo.sine %v : tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v1 : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.all_reduce([[V3]]) replica_groups = [[0, 1]] {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %s : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %r = hlo.add %zeros, [[V4]] : tensor<4xf32>
// CHECK-NEXT:     func.return %r : tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): replica groups do not match reference-replica-groups
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// The replica-group gate: with reference-replica-groups="0,1,2,3;4,5,6,7" the explicit and the
// iota ([2,4]<=[8], equal after expansion) groups move, the strided groups do not (remark).
// Without the option all three move.
builtin.module @gate attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %init = hlo.tuple %c0, %zeros, %zeros, %zeros, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      %acc1 = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      %acc2 = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      %acc3 = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      %v = hlo.get_tuple_element %bs[4] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %explicit = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3], [4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %iota = hlo.all_reduce(%v) replica_groups = [2,4]<=[8] channel_id = 2 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %strided = hlo.all_reduce(%v) replica_groups = [[0, 2, 4, 6], [1, 3, 5, 7]] channel_id = 3 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %n1 = hlo.add %acc1, %explicit : tensor<4xf32>
      %n2 = hlo.add %acc2, %iota : tensor<4xf32>
      %n3 = hlo.add %acc3, %strided : tensor<4xf32>
      %v1 = hlo.cosine %v : tensor<4xf32>
      %next = hlo.tuple %i1, %n1, %n2, %n3, %v1 : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
    }
    func.return %w : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
  }
}

// CHECK-LABEL: builtin.module @gate attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     [[V6:%[0-9]+]] = hlo.tuple %c0, [[V1]], [[V1]], [[V1]], %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %w = hlo.while([[V6]]) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %acc1 = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %acc2 = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %acc3 = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[4] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %n1 = hlo.add %acc1, %v : tensor<4xf32>
// CHECK-NEXT:       %n2 = hlo.add %acc2, %v : tensor<4xf32>
// CHECK-NEXT:       %n3 = hlo.add %acc3, %v : tensor<4xf32>
// CHECK-NEXT:       %v1 = hlo.cosine %v : tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %n1, %n2, %n3, %v1 : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V7:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     [[V8:%[0-9]+]] = hlo.all_reduce([[V7]]) replica_groups = [[0, 1, 2, 3], [4, 5, 6, 7]] channel_id = 4 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %s : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     [[V9:%[0-9]+]] = hlo.add %zeros, [[V8]] : tensor<4xf32>
// CHECK-NEXT:     [[V10:%[0-9]+]] = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     [[V11:%[0-9]+]] = hlo.all_reduce([[V10]]) replica_groups = [2,4]<=[8] channel_id = 5 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a_1: tensor<f32>, %b_1: tensor<f32>):
// CHECK-NEXT:       %s_1 = hlo.add %a_1, %b_1 : tensor<f32>
// CHECK-NEXT:       hlo.return %s_1 : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     [[V12:%[0-9]+]] = hlo.add %zeros, [[V11]] : tensor<4xf32>
// CHECK-NEXT:     [[V13:%[0-9]+]] = hlo.get_tuple_element %w[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     [[V14:%[0-9]+]] = hlo.all_reduce([[V13]]) replica_groups = [[0, 2, 4, 6], [1, 3, 5, 7]] channel_id = 6 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a_2: tensor<f32>, %b_2: tensor<f32>):
// CHECK-NEXT:       %s_2 = hlo.add %a_2, %b_2 : tensor<f32>
// CHECK-NEXT:       hlo.return %s_2 : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     [[V15:%[0-9]+]] = hlo.add %zeros, [[V14]] : tensor<4xf32>
// CHECK-NEXT:     [[V16:%[0-9]+]] = hlo.get_tuple_element %w[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     [[V17:%[0-9]+]] = hlo.get_tuple_element %w[4] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     [[V18:%[0-9]+]] = hlo.tuple [[V16]], [[V9]], [[V12]], [[V15]], [[V17]] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     func.return [[V18]] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// GATE-LABEL: builtin.module @gate attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// GATE-NEXT:   func.func @main(%x: tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>> attributes {hlo.entry} {
// GATE-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// GATE-NEXT:     %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// GATE-NEXT:     %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
// GATE-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// GATE-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<f32>) -> tensor<4xf32>
// GATE-NEXT:     [[V4:%[0-9]+]] = hlo.tuple %c0, [[V1]], [[V1]], %zeros, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// GATE-NEXT:     %w = hlo.while([[V4]]) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>> condition {
// GATE-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>):
// GATE-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// GATE-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// GATE-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// GATE-NEXT:       hlo.return %lt : tensor<i1>
// GATE-NEXT:     } body {
// GATE-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>):
// GATE-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// GATE-NEXT:       %acc1 = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// GATE-NEXT:       %acc2 = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// GATE-NEXT:       %acc3 = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// GATE-NEXT:       %v = hlo.get_tuple_element %bs[4] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// GATE-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// GATE-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// GATE-NEXT:       %strided = hlo.all_reduce(%v) replica_groups = [[0, 2, 4, 6], [1, 3, 5, 7]] channel_id = 3 use_global_device_ids {
// GATE-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// GATE-NEXT:         %s = hlo.add %a, %b : tensor<f32>
// GATE-NEXT:         hlo.return %s : tensor<f32>
// GATE-NEXT:       } : (tensor<4xf32>) -> tensor<4xf32>
// GATE-NEXT:       %n1 = hlo.add %acc1, %v : tensor<4xf32>
// GATE-NEXT:       %n2 = hlo.add %acc2, %v : tensor<4xf32>
// GATE-NEXT:       %n3 = hlo.add %acc3, %strided : tensor<4xf32>
// GATE-NEXT:       %v1 = hlo.cosine %v : tensor<4xf32>
// GATE-NEXT:       %next = hlo.tuple %i1, %n1, %n2, %n3, %v1 : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// GATE-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// GATE-NEXT:     }
// GATE-NEXT:     [[V5:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// GATE-NEXT:     [[V6:%[0-9]+]] = hlo.all_reduce([[V5]]) replica_groups = [[0, 1, 2, 3], [4, 5, 6, 7]] channel_id = 4 use_global_device_ids {
// GATE-NEXT:     ^bb0(%a_1: tensor<f32>, %b_1: tensor<f32>):
// GATE-NEXT:       %s_1 = hlo.add %a_1, %b_1 : tensor<f32>
// GATE-NEXT:       hlo.return %s_1 : tensor<f32>
// GATE-NEXT:     } : (tensor<4xf32>) -> tensor<4xf32>
// GATE-NEXT:     [[V7:%[0-9]+]] = hlo.add %zeros, [[V6]] : tensor<4xf32>
// GATE-NEXT:     [[V8:%[0-9]+]] = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// GATE-NEXT:     [[V9:%[0-9]+]] = hlo.all_reduce([[V8]]) replica_groups = [2,4]<=[8] channel_id = 5 use_global_device_ids {
// GATE-NEXT:     ^bb0(%a_2: tensor<f32>, %b_2: tensor<f32>):
// GATE-NEXT:       %s_2 = hlo.add %a_2, %b_2 : tensor<f32>
// GATE-NEXT:       hlo.return %s_2 : tensor<f32>
// GATE-NEXT:     } : (tensor<4xf32>) -> tensor<4xf32>
// GATE-NEXT:     [[V10:%[0-9]+]] = hlo.add %zeros, [[V9]] : tensor<4xf32>
// GATE-NEXT:     [[V11:%[0-9]+]] = hlo.get_tuple_element %w[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// GATE-NEXT:     [[V12:%[0-9]+]] = hlo.get_tuple_element %w[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// GATE-NEXT:     [[V13:%[0-9]+]] = hlo.get_tuple_element %w[4] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// GATE-NEXT:     [[V14:%[0-9]+]] = hlo.tuple [[V11]], [[V7]], [[V10]], [[V12]], [[V13]] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// GATE-NEXT:     func.return [[V14]] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// GATE-NEXT:   }
// GATE-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %explicit (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %iota (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %strided (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 3 all-reduce and 0 reduce-scatter out of while loops
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %explicit (hlo.all_reduce): moved
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %iota (hlo.all_reduce): moved
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %strided (hlo.all_reduce): moved
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 3 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %explicit (hlo.all_reduce): moved
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %iota (hlo.all_reduce): moved
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %strided (hlo.all_reduce): moved
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 3 all-reduce and 0 reduce-scatter out of while loops
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %explicit (hlo.all_reduce): moved
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %iota (hlo.all_reduce): moved
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %strided (hlo.all_reduce): replica groups do not match reference-replica-groups
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 2 all-reduce and 0 reduce-scatter out of while loops

// -----

// num_partitions = 8 without hlo.use_spmd_partitioning: unchanged (remark).
builtin.module @no_spmd attributes {hlo.num_partitions = 8 : i64} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %init = hlo.tuple %c0, %zeros, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %acc1 = hlo.add %acc, %ar : tensor<4xf32>
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    func.return %r : tensor<4xf32>
  }
}

// CHECK-LABEL: builtin.module @no_spmd attributes {hlo.num_partitions = 8 : i64} {
// CHECK-NEXT:   func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %zeros, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %s : tensor<f32>
// CHECK-NEXT:       } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:       %acc1 = hlo.add %acc, %ar : tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     func.return %r : tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): num_partitions > 1 without hlo.use_spmd_partitioning
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): num_partitions > 1 without hlo.use_spmd_partitioning
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): num_partitions > 1 without hlo.use_spmd_partitioning
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): num_partitions > 1 without hlo.use_spmd_partitioning
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// A tuple-shaped all-reduce (two operands): not moved.
builtin.module @tuple_all_reduce attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %init = hlo.tuple %c0, %zeros, %zeros, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      %acc2 = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      %v = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %v2 = hlo.exponential %v : tensor<4xf32>
      %pair = hlo.all_reduce(%v, %v2) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
      %p0 = hlo.get_tuple_element %pair[0] : tuple<tensor<4xf32>, tensor<4xf32>>
      %p1 = hlo.get_tuple_element %pair[1] : tuple<tensor<4xf32>, tensor<4xf32>>
      %acc1 = hlo.add %acc, %p0 : tensor<4xf32>
      %acc3 = hlo.add %acc2, %p1 : tensor<4xf32>
      %next = hlo.tuple %i1, %acc1, %acc3, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
    }
    func.return %w : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
  }
}

// CHECK-LABEL: builtin.module @tuple_all_reduce attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %zeros, %zeros, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %acc2 = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %v2 = hlo.exponential %v : tensor<4xf32>
// CHECK-NEXT:       %pair = hlo.all_reduce(%v, %v2) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %s : tensor<f32>
// CHECK-NEXT:       } : (tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %p0 = hlo.get_tuple_element %pair[0] : tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %p1 = hlo.get_tuple_element %pair[1] : tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %acc1 = hlo.add %acc, %p0 : tensor<4xf32>
// CHECK-NEXT:       %acc3 = hlo.add %acc2, %p1 : tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %acc3, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     func.return %w : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %pair (hlo.all_reduce): tuple-shaped collectives are not moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %pair (hlo.all_reduce): tuple-shaped collectives are not moved
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %pair (hlo.all_reduce): tuple-shaped collectives are not moved
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %pair (hlo.all_reduce): tuple-shaped collectives are not moved
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// constrain_layout: not moved.
builtin.module @constrain_layout attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %init = hlo.tuple %c0, %zeros, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids constrain_layout {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %acc1 = hlo.add %acc, %ar : tensor<4xf32>
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    func.return %r : tensor<4xf32>
  }
}

// CHECK-LABEL: builtin.module @constrain_layout attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %zeros, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids constrain_layout {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %s : tensor<f32>
// CHECK-NEXT:       } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:       %acc1 = hlo.add %acc, %ar : tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     func.return %r : tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): constrain_layout is set
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): constrain_layout is set
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): constrain_layout is set
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): constrain_layout is set
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// A pred all-reduce (add reduction) accumulated with add: not moved (pred is not a supported type).
builtin.module @pred_element_type attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<4xi1>) -> tensor<4xi1> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %false = hlo.constant dense<false> : tensor<4xi1>
    %init = hlo.tuple %c0, %false, %x : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<i1>, %b: tensor<i1>):
        %s = hlo.add %a, %b : tensor<i1>
        hlo.return %s : tensor<i1>
      } : (tensor<4xi1>) -> tensor<4xi1>
      %acc1 = hlo.add %acc, %ar : tensor<4xi1>
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>>
    func.return %r : tensor<4xi1>
  }
}

// CHECK-LABEL: builtin.module @pred_element_type attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<4xi1>) -> tensor<4xi1> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %false = hlo.constant dense<false> : tensor<4xi1>
// CHECK-NEXT:     %init = hlo.tuple %c0, %false, %x : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<i1>, %b: tensor<i1>):
// CHECK-NEXT:         %s = hlo.add %a, %b : tensor<i1>
// CHECK-NEXT:         hlo.return %s : tensor<i1>
// CHECK-NEXT:       } : (tensor<4xi1>) -> tensor<4xi1>
// CHECK-NEXT:       %acc1 = hlo.add %acc, %ar : tensor<4xi1>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>>
// CHECK-NEXT:     func.return %r : tensor<4xi1>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): element type pred is not supported
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): element type pred is not supported
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): element type pred is not supported
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): element type pred is not supported
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// A loop whose carried value is not a tuple: not moved (remark).
builtin.module @non_tuple_state attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main() -> tensor<i32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %w = hlo.while(%c0) : tensor<i32> condition {
    ^bb0(%cs: tensor<i32>):
      %n = hlo.constant dense<32> : tensor<i32>
      %lt = hlo.compare LT, %cs, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tensor<i32>):
      %one = hlo.constant dense<1> : tensor<i32>
      %ar = hlo.all_reduce(%one) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        %s = hlo.add %a, %b : tensor<i32>
        hlo.return %s : tensor<i32>
      } : (tensor<i32>) -> tensor<i32>
      %next = hlo.add %bs, %ar : tensor<i32>
      hlo.return %next : tensor<i32>
    }
    func.return %w : tensor<i32>
  }
}

// CHECK-LABEL: builtin.module @non_tuple_state attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main() -> tensor<i32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %w = hlo.while(%c0) : tensor<i32> condition {
// CHECK-NEXT:     ^bb0(%cs: tensor<i32>):
// CHECK-NEXT:       %n = hlo.constant dense<32> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %cs, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tensor<i32>):
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%one) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<i32>, %b: tensor<i32>):
// CHECK-NEXT:         %s = hlo.add %a, %b : tensor<i32>
// CHECK-NEXT:         hlo.return %s : tensor<i32>
// CHECK-NEXT:       } : (tensor<i32>) -> tensor<i32>
// CHECK-NEXT:       %next = hlo.add %bs, %ar : tensor<i32>
// CHECK-NEXT:       hlo.return %next : tensor<i32>
// CHECK-NEXT:     }
// CHECK-NEXT:     func.return %w : tensor<i32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the loop-carried value is not a tuple
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the loop-carried value is not a tuple
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the loop-carried value is not a tuple
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the loop-carried value is not a tuple
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// The accumulation is returned at another tuple index (slots 1 and 2 swapped): not moved.
builtin.module @not_returned_at_same_slot attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %init = hlo.tuple %c0, %zeros, %zeros, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      %acc2 = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      %v = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %acc1 = hlo.add %acc, %ar : tensor<4xf32>
      %next = hlo.tuple %i1, %acc2, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
    }
    func.return %w : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
  }
}

// CHECK-LABEL: builtin.module @not_returned_at_same_slot attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %zeros, %zeros, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %acc2 = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %s : tensor<f32>
// CHECK-NEXT:       } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:       %acc1 = hlo.add %acc, %ar : tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc2, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     func.return %w : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the accumulation result is not returned at tuple index 1
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the accumulation result is not returned at tuple index 1
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the accumulation result is not returned at tuple index 1
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): replica groups do not match reference-replica-groups
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// The buffer side goes through converts (bf16 buffer, f32 add): moved; after the loop the bf16
// buffer is converted to f32 for the all-reduce and back to bf16 for the add of the init.
builtin.module @buffer_convert_chain attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<4xf32>, %acc_init: tensor<4xbf16>) -> tensor<4xbf16> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %acc_init, %x : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %wide = hlo.convert %acc : tensor<4xbf16> -> tensor<4xf32>
      %sum = hlo.add %wide, %ar : tensor<4xf32>
      %acc1 = hlo.convert %sum : tensor<4xf32> -> tensor<4xbf16>
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
    func.return %r : tensor<4xbf16>
  }
}

// CHECK-LABEL: builtin.module @buffer_convert_chain attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<4xf32>, %acc_init: tensor<4xbf16>) -> tensor<4xbf16> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<0.000000e+00> : tensor<bf16>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<bf16>) -> tensor<4xbf16>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.tuple %c0, [[V1]], %x : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
// CHECK-NEXT:     %w = hlo.while([[V2]]) : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %wide = hlo.convert %acc : tensor<4xbf16> -> tensor<4xf32>
// CHECK-NEXT:       %sum = hlo.add %wide, %v : tensor<4xf32>
// CHECK-NEXT:       %acc1 = hlo.convert %sum : tensor<4xf32> -> tensor<4xbf16>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.convert [[V3]] : tensor<4xbf16> -> tensor<4xf32>
// CHECK-NEXT:     [[V5:%[0-9]+]] = hlo.all_reduce([[V4]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %s : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     [[V6:%[0-9]+]] = hlo.convert [[V5]] : tensor<4xf32> -> tensor<4xbf16>
// CHECK-NEXT:     %r = hlo.add %acc_init, [[V6]] : tensor<4xbf16>
// CHECK-NEXT:     func.return %r : tensor<4xbf16>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): replica groups do not match reference-replica-groups
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// The buffer side goes through a reshape (2x2 buffer, 4-element add) mirrored on the output side: moved.
builtin.module @buffer_reshape_chain attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<4xf32>, %acc_init: tensor<2x2xf32>) -> tensor<2x2xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %acc_init, %x : tuple<tensor<i32>, tensor<2x2xf32>, tensor<4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<2x2xf32>, tensor<4xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<2x2xf32>, tensor<4xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<2x2xf32>, tensor<4xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<2x2xf32>, tensor<4xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<2x2xf32>, tensor<4xf32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<2x2xf32>, tensor<4xf32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<2x2xf32>, tensor<4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %flat = hlo.reshape %acc : (tensor<2x2xf32>) -> tensor<4xf32>
      %sum = hlo.add %ar, %flat : tensor<4xf32>
      %acc1 = hlo.reshape %sum : (tensor<4xf32>) -> tensor<2x2xf32>
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<2x2xf32>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<2x2xf32>, tensor<4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<2x2xf32>, tensor<4xf32>>
    func.return %r : tensor<2x2xf32>
  }
}

// CHECK-LABEL: builtin.module @buffer_reshape_chain attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<4xf32>, %acc_init: tensor<2x2xf32>) -> tensor<2x2xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<f32>) -> tensor<2x2xf32>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.tuple %c0, [[V1]], %x : tuple<tensor<i32>, tensor<2x2xf32>, tensor<4xf32>>
// CHECK-NEXT:     %w = hlo.while([[V2]]) : tuple<tensor<i32>, tensor<2x2xf32>, tensor<4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<2x2xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<2x2xf32>, tensor<4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<2x2xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<2x2xf32>, tensor<4xf32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<2x2xf32>, tensor<4xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<2x2xf32>, tensor<4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %flat = hlo.reshape %acc : (tensor<2x2xf32>) -> tensor<4xf32>
// CHECK-NEXT:       %sum = hlo.add %v, %flat : tensor<4xf32>
// CHECK-NEXT:       %acc1 = hlo.reshape %sum : (tensor<4xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<2x2xf32>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<2x2xf32>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<2x2xf32>, tensor<4xf32>>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.all_reduce([[V3]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %s : tensor<f32>
// CHECK-NEXT:     } : (tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:     %r = hlo.add %acc_init, [[V4]] : tensor<2x2xf32>
// CHECK-NEXT:     func.return %r : tensor<2x2xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): replica groups do not match reference-replica-groups
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// A dynamic_slice of the buffer without the matching dynamic_update_slice: not moved.
builtin.module @ds_without_dus attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<2x4xf32>) -> tensor<2x4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %z2 = hlo.constant dense<0.000000e+00> : tensor<2x4xf32>
    %init = hlo.tuple %c0, %z2, %x : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %zi = hlo.constant dense<0> : tensor<i32>
      %old = hlo.dynamic_slice %acc at [%zi, %zi] sizes = [2, 4] : (tensor<2x4xf32>, tensor<i32>, tensor<i32>) -> tensor<2x4xf32>
      %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<2x4xf32>) -> tensor<2x4xf32>
      %acc1 = hlo.add %old, %ar : tensor<2x4xf32>
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
    func.return %r : tensor<2x4xf32>
  }
}

// CHECK-LABEL: builtin.module @ds_without_dus attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<2x4xf32>) -> tensor<2x4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %z2 = hlo.constant dense<0.000000e+00> : tensor<2x4xf32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %z2, %x : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %zi = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:       %old = hlo.dynamic_slice %acc at [%zi, %zi] sizes = [2, 4] : (tensor<2x4xf32>, tensor<i32>, tensor<i32>) -> tensor<2x4xf32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %s : tensor<f32>
// CHECK-NEXT:       } : (tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:       %acc1 = hlo.add %old, %ar : tensor<2x4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:     func.return %r : tensor<2x4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): a dynamic-slice of the accumulation buffer needs a matching dynamic-update-slice
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): a dynamic-slice of the accumulation buffer needs a matching dynamic-update-slice
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): a dynamic-slice of the accumulation buffer needs a matching dynamic-update-slice
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): replica groups do not match reference-replica-groups
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// dynamic_slice at row 0 but dynamic_update_slice at row 1: not moved.
builtin.module @ds_dus_indices_differ attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<2x4xf32>) -> tensor<2x4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %z2 = hlo.constant dense<0.000000e+00> : tensor<2x4xf32>
    %init = hlo.tuple %c0, %z2, %x : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %zi = hlo.constant dense<0> : tensor<i32>
      %oi = hlo.constant dense<1> : tensor<i32>
      %old = hlo.dynamic_slice %acc at [%zi, %zi] sizes = [1, 4] : (tensor<2x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
      %row = hlo.slice %v, start = [0, 0], limit = [1, 4], strides = [1, 1] : (tensor<2x4xf32>) -> tensor<1x4xf32>
      %ar = hlo.all_reduce(%row) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<1x4xf32>) -> tensor<1x4xf32>
      %sum = hlo.add %old, %ar : tensor<1x4xf32>
      %acc1 = hlo.dynamic_update_slice %acc, %sum at [%oi, %zi] : (tensor<2x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<2x4xf32>
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
    func.return %r : tensor<2x4xf32>
  }
}

// CHECK-LABEL: builtin.module @ds_dus_indices_differ attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<2x4xf32>) -> tensor<2x4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %z2 = hlo.constant dense<0.000000e+00> : tensor<2x4xf32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %z2, %x : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %zi = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:       %oi = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %old = hlo.dynamic_slice %acc at [%zi, %zi] sizes = [1, 4] : (tensor<2x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
// CHECK-NEXT:       %row = hlo.slice %v, start = [0, 0], limit = [1, 4], strides = [1, 1] : (tensor<2x4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%row) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %s : tensor<f32>
// CHECK-NEXT:       } : (tensor<1x4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT:       %sum = hlo.add %old, %ar : tensor<1x4xf32>
// CHECK-NEXT:       %acc1 = hlo.dynamic_update_slice %acc, %sum at [%oi, %zi] : (tensor<2x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<2x4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:     func.return %r : tensor<2x4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the dynamic-slice and dynamic-update-slice indices differ
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the dynamic-slice and dynamic-update-slice indices differ
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the dynamic-slice and dynamic-update-slice indices differ
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): replica groups do not match reference-replica-groups
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// The collective's value added to itself: not moved.
builtin.module @added_to_itself attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<2x4xf32>) -> tensor<2x4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %z2 = hlo.constant dense<0.000000e+00> : tensor<2x4xf32>
    %init = hlo.tuple %c0, %z2, %x : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>

      %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<2x4xf32>) -> tensor<2x4xf32>
      %acc1 = hlo.add %ar, %ar : tensor<2x4xf32>
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
    func.return %r : tensor<2x4xf32>
  }
}

// CHECK-LABEL: builtin.module @added_to_itself attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<2x4xf32>) -> tensor<2x4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %z2 = hlo.constant dense<0.000000e+00> : tensor<2x4xf32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %z2, %x : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %s : tensor<f32>
// CHECK-NEXT:       } : (tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:       %acc1 = hlo.add %ar, %ar : tensor<2x4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:     func.return %r : tensor<2x4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the collective's value is added to itself
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the collective's value is added to itself
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the collective's value is added to itself
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): replica groups do not match reference-replica-groups
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// A use of the collective's result that leads nowhere (an unused reshape): not moved.
builtin.module @unused_result_path attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<2x4xf32>) -> tensor<2x4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %z2 = hlo.constant dense<0.000000e+00> : tensor<2x4xf32>
    %init = hlo.tuple %c0, %z2, %x : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>

      %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<2x4xf32>) -> tensor<2x4xf32>
      %dead = hlo.reshape %ar : (tensor<2x4xf32>) -> tensor<8xf32>
      %acc1 = hlo.add %acc, %ar : tensor<2x4xf32>
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
    func.return %r : tensor<2x4xf32>
  }
}

// CHECK-LABEL: builtin.module @unused_result_path attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<2x4xf32>) -> tensor<2x4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %z2 = hlo.constant dense<0.000000e+00> : tensor<2x4xf32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %z2, %x : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %s : tensor<f32>
// CHECK-NEXT:       } : (tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:       %dead = hlo.reshape %ar : (tensor<2x4xf32>) -> tensor<8xf32>
// CHECK-NEXT:       %acc1 = hlo.add %acc, %ar : tensor<2x4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:     func.return %r : tensor<2x4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the collective's result is unused on some path
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the collective's result is unused on some path
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the collective's result is unused on some path
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): replica groups do not match reference-replica-groups
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// select(p, all_reduce, x) where x is not zero: not moved.
builtin.module @select_non_zero attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<2x4xf32>) -> tensor<2x4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %z2 = hlo.constant dense<0.000000e+00> : tensor<2x4xf32>
    %init = hlo.tuple %c0, %z2, %x : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %two = hlo.constant dense<2> : tensor<i32>
      %p = hlo.compare LT, %i, %two : tensor<i32> -> tensor<i1>
      %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<2x4xf32>) -> tensor<2x4xf32>
      %sel = hlo.select %p, %ar, %v : tensor<i1>, tensor<2x4xf32>
      %acc1 = hlo.add %acc, %sel : tensor<2x4xf32>
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
    func.return %r : tensor<2x4xf32>
  }
}

// CHECK-LABEL: builtin.module @select_non_zero attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<2x4xf32>) -> tensor<2x4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %z2 = hlo.constant dense<0.000000e+00> : tensor<2x4xf32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %z2, %x : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %two = hlo.constant dense<2> : tensor<i32>
// CHECK-NEXT:       %p = hlo.compare LT, %i, %two : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %s : tensor<f32>
// CHECK-NEXT:       } : (tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:       %sel = hlo.select %p, %ar, %v : tensor<i1>, tensor<2x4xf32>
// CHECK-NEXT:       %acc1 = hlo.add %acc, %sel : tensor<2x4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:     func.return %r : tensor<2x4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): unsupported operation on the collective's result: select
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): unsupported operation on the collective's result: select
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): unsupported operation on the collective's result: select
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): replica groups do not match reference-replica-groups
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// An s32 all-reduce accumulated into an s32 buffer: moved (integer zero init).
builtin.module @integer_accumulate attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<4xi32>, %acc_init: tensor<4xi32>) -> tensor<4xi32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %acc_init, %x : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %bi = hlo.broadcast %i, dims = [] : (tensor<i32>) -> tensor<4xi32>
      %g = hlo.multiply %v, %bi : tensor<4xi32>
      %ar = hlo.all_reduce(%g) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        %s = hlo.add %a, %b : tensor<i32>
        hlo.return %s : tensor<i32>
      } : (tensor<4xi32>) -> tensor<4xi32>
      %acc1 = hlo.add %acc, %ar : tensor<4xi32>
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
    func.return %r : tensor<4xi32>
  }
}

// CHECK-LABEL: builtin.module @integer_accumulate attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<4xi32>, %acc_init: tensor<4xi32>) -> tensor<4xi32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.tuple %c0, [[V1]], %x : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:     %w = hlo.while([[V2]]) : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %bi = hlo.broadcast %i, dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:       %g = hlo.multiply %v, %bi : tensor<4xi32>
// CHECK-NEXT:       %acc1 = hlo.add %acc, %g : tensor<4xi32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.all_reduce([[V3]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<i32>, %b: tensor<i32>):
// CHECK-NEXT:       %s = hlo.add %a, %b : tensor<i32>
// CHECK-NEXT:       hlo.return %s : tensor<i32>
// CHECK-NEXT:     } : (tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT:     %r = hlo.add %acc_init, [[V4]] : tensor<4xi32>
// CHECK-NEXT:     func.return %r : tensor<4xi32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): replica groups do not match reference-replica-groups
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// Scan-style accumulation acc[i] += all_reduce(x) at the loop counter (replicated): moved.
builtin.module @ds_dus_counter_index attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<4xf32>, %acc_init: tensor<4x4xf32>) -> tensor<4x4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %acc_init, %x : tuple<tensor<i32>, tensor<4x4xf32>, tensor<4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x4xf32>, tensor<4xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4x4xf32>, tensor<4xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4x4xf32>, tensor<4xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4x4xf32>, tensor<4xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4x4xf32>, tensor<4xf32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4x4xf32>, tensor<4xf32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4x4xf32>, tensor<4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %zi = hlo.constant dense<0> : tensor<i32>
      %old = hlo.dynamic_slice %acc at [%i, %zi] sizes = [1, 4] : (tensor<4x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
      %flat = hlo.reshape %old : (tensor<1x4xf32>) -> tensor<4xf32>
      %g = hlo.logistic %v : tensor<4xf32>
      %ar = hlo.all_reduce(%g) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %sum = hlo.add %flat, %ar : tensor<4xf32>
      %row = hlo.reshape %sum : (tensor<4xf32>) -> tensor<1x4xf32>
      %acc1 = hlo.dynamic_update_slice %acc, %row at [%i, %zi] : (tensor<4x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<4x4xf32>
      %v1 = hlo.add %v, %g : tensor<4xf32>
      %next = hlo.tuple %i1, %acc1, %v1 : tuple<tensor<i32>, tensor<4x4xf32>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4x4xf32>, tensor<4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x4xf32>, tensor<4xf32>>
    func.return %r : tensor<4x4xf32>
  }
}

// CHECK-LABEL: builtin.module @ds_dus_counter_index attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<4xf32>, %acc_init: tensor<4x4xf32>) -> tensor<4x4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<f32>) -> tensor<4x4xf32>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.tuple %c0, [[V1]], %x : tuple<tensor<i32>, tensor<4x4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %w = hlo.while([[V2]]) : tuple<tensor<i32>, tensor<4x4xf32>, tensor<4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4x4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4x4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4x4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4x4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4x4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4x4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %zi = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:       %old = hlo.dynamic_slice %acc at [%i, %zi] sizes = [1, 4] : (tensor<4x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
// CHECK-NEXT:       %flat = hlo.reshape %old : (tensor<1x4xf32>) -> tensor<4xf32>
// CHECK-NEXT:       %g = hlo.logistic %v : tensor<4xf32>
// CHECK-NEXT:       %sum = hlo.add %flat, %g : tensor<4xf32>
// CHECK-NEXT:       %row = hlo.reshape %sum : (tensor<4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT:       %acc1 = hlo.dynamic_update_slice %acc, %row at [%i, %zi] : (tensor<4x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<4x4xf32>
// CHECK-NEXT:       %v1 = hlo.add %v, %g : tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v1 : tuple<tensor<i32>, tensor<4x4xf32>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4x4xf32>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x4xf32>, tensor<4xf32>>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.all_reduce([[V3]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %s : tensor<f32>
// CHECK-NEXT:     } : (tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:     %r = hlo.add %acc_init, [[V4]] : tensor<4x4xf32>
// CHECK-NEXT:     func.return %r : tensor<4x4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): replica groups do not match reference-replica-groups
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// The loop init is not a tuple op (an optimization_barrier of one): its slots are read with
// get_tuple_element ops inserted before the loop.
builtin.module @init_not_a_tuple_op attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<4xf32>, %acc_init: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %state = hlo.tuple %c0, %acc_init, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    %init = hlo.optimization_barrier %state : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %acc1 = hlo.add %acc, %ar : tensor<4xf32>
      %v1 = hlo.sine %v : tensor<4xf32>
      %next = hlo.tuple %i1, %acc1, %v1 : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    func.return %r : tensor<4xf32>
  }
}

// CHECK-LABEL: builtin.module @init_not_a_tuple_op attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<4xf32>, %acc_init: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %state = hlo.tuple %c0, %acc_init, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %init = hlo.optimization_barrier %state : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.get_tuple_element %init[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.get_tuple_element %init[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.get_tuple_element %init[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.broadcast [[V3]], dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     [[V5:%[0-9]+]] = hlo.tuple [[V0]], [[V4]], [[V2]] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %w = hlo.while([[V5]]) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %acc1 = hlo.add %acc, %v : tensor<4xf32>
// CHECK-NEXT:       %v1 = hlo.sine %v : tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v1 : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V6:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     [[V7:%[0-9]+]] = hlo.all_reduce([[V6]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %s : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %r = hlo.add [[V1]], [[V7]] : tensor<4xf32>
// CHECK-NEXT:     func.return %r : tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): replica groups do not match reference-replica-groups
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// all_reduce(f32) -> convert(bf16) -> add into a bf16 buffer. Default: moved, with an f32
// all-reduce after the loop between converts. With run-setup-passes the convert goes first and
// the hoisted all-reduce is bf16.
builtin.module @convert_after_all_reduce attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xbf16> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %zb = hlo.constant dense<0.000000e+00> : tensor<4xbf16>
    %init = hlo.tuple %c0, %zb, %x : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %narrow = hlo.convert %ar : tensor<4xf32> -> tensor<4xbf16>
      %acc1 = hlo.add %acc, %narrow : tensor<4xbf16>
      %v1 = hlo.exponential %v : tensor<4xf32>
      %next = hlo.tuple %i1, %acc1, %v1 : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
    func.return %r : tensor<4xbf16>
  }
}

// CHECK-LABEL: builtin.module @convert_after_all_reduce attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<4xf32>) -> tensor<4xbf16> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %zb = hlo.constant dense<0.000000e+00> : tensor<4xbf16>
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<0.000000e+00> : tensor<bf16>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<bf16>) -> tensor<4xbf16>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.tuple %c0, [[V1]], %x : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
// CHECK-NEXT:     %w = hlo.while([[V2]]) : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %narrow = hlo.convert %v : tensor<4xf32> -> tensor<4xbf16>
// CHECK-NEXT:       %acc1 = hlo.add %acc, %narrow : tensor<4xbf16>
// CHECK-NEXT:       %v1 = hlo.exponential %v : tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v1 : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.convert [[V3]] : tensor<4xbf16> -> tensor<4xf32>
// CHECK-NEXT:     [[V5:%[0-9]+]] = hlo.all_reduce([[V4]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %s : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     [[V6:%[0-9]+]] = hlo.convert [[V5]] : tensor<4xf32> -> tensor<4xbf16>
// CHECK-NEXT:     %r = hlo.add %zb, [[V6]] : tensor<4xbf16>
// CHECK-NEXT:     func.return %r : tensor<4xbf16>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// SETUP-LABEL: builtin.module @convert_after_all_reduce attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// SETUP-NEXT:   func.func @main(%x: tensor<4xf32>) -> tensor<4xbf16> attributes {hlo.entry} {
// SETUP-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// SETUP-NEXT:     %zb = hlo.constant dense<0.000000e+00> : tensor<4xbf16>
// SETUP-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<0.000000e+00> : tensor<bf16>
// SETUP-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<bf16>) -> tensor<4xbf16>
// SETUP-NEXT:     [[V2:%[0-9]+]] = hlo.tuple %c0, [[V1]], %x : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
// SETUP-NEXT:     %w = hlo.while([[V2]]) : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>> condition {
// SETUP-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>):
// SETUP-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
// SETUP-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// SETUP-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// SETUP-NEXT:       hlo.return %lt : tensor<i1>
// SETUP-NEXT:     } body {
// SETUP-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>):
// SETUP-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
// SETUP-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
// SETUP-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
// SETUP-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// SETUP-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// SETUP-NEXT:       %ar = hlo.convert %v : tensor<4xf32> -> tensor<4xbf16>
// SETUP-NEXT:       %acc1 = hlo.add %acc, %ar : tensor<4xbf16>
// SETUP-NEXT:       %v1 = hlo.exponential %v : tensor<4xf32>
// SETUP-NEXT:       %next = hlo.tuple %i1, %acc1, %v1 : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
// SETUP-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
// SETUP-NEXT:     }
// SETUP-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xbf16>, tensor<4xf32>>
// SETUP-NEXT:     [[V4:%[0-9]+]] = hlo.all_reduce([[V3]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// SETUP-NEXT:     ^bb0([[V5]]: tensor<bf16>, [[V6]]: tensor<bf16>):
// SETUP-NEXT:       [[V7:%[0-9]+]] = hlo.add [[V5]], [[V6]] : tensor<bf16>
// SETUP-NEXT:       hlo.return [[V7]] : tensor<bf16>
// SETUP-NEXT:     } : (tensor<4xbf16>) -> tensor<4xbf16>
// SETUP-NEXT:     %r = hlo.add %zb, [[V4]] : tensor<4xbf16>
// SETUP-NEXT:     func.return %r : tensor<4xbf16>
// SETUP-NEXT:   }
// SETUP-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): replica groups do not match reference-replica-groups
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// all_reduce(f32) -> convert to s32 -> add into an s32 buffer: not moved, with or without the
// setup rewrites, since a float -> integer convert does not commute with the sum
// (trunc(a) + trunc(b) != trunc(a + b)).
builtin.module @convert_to_integer attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xi32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %zi = hlo.constant dense<0> : tensor<4xi32>
    %init = hlo.tuple %c0, %zi, %x : tuple<tensor<i32>, tensor<4xi32>, tensor<4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xi32>, tensor<4xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xi32>, tensor<4xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xi32>, tensor<4xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xf32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xf32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %int = hlo.convert %ar : tensor<4xf32> -> tensor<4xi32>
      %acc1 = hlo.add %acc, %int : tensor<4xi32>
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xi32>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xi32>, tensor<4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xf32>>
    func.return %r : tensor<4xi32>
  }
}

// CHECK-LABEL: builtin.module @convert_to_integer attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<4xf32>) -> tensor<4xi32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %zi = hlo.constant dense<0> : tensor<4xi32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %zi, %x : tuple<tensor<i32>, tensor<4xi32>, tensor<4xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xi32>, tensor<4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xi32>, tensor<4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xi32>, tensor<4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xf32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %s : tensor<f32>
// CHECK-NEXT:       } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:       %int = hlo.convert %ar : tensor<4xf32> -> tensor<4xi32>
// CHECK-NEXT:       %acc1 = hlo.add %acc, %int : tensor<4xi32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xi32>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xi32>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xf32>>
// CHECK-NEXT:     func.return %r : tensor<4xi32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// SETUP-LABEL: builtin.module @convert_to_integer attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// SETUP-NEXT:   func.func @main(%x: tensor<4xf32>) -> tensor<4xi32> attributes {hlo.entry} {
// SETUP-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// SETUP-NEXT:     %zi = hlo.constant dense<0> : tensor<4xi32>
// SETUP-NEXT:     %init = hlo.tuple %c0, %zi, %x : tuple<tensor<i32>, tensor<4xi32>, tensor<4xf32>>
// SETUP-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xi32>, tensor<4xf32>> condition {
// SETUP-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xi32>, tensor<4xf32>>):
// SETUP-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xf32>>
// SETUP-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// SETUP-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// SETUP-NEXT:       hlo.return %lt : tensor<i1>
// SETUP-NEXT:     } body {
// SETUP-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xi32>, tensor<4xf32>>):
// SETUP-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xf32>>
// SETUP-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xf32>>
// SETUP-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xf32>>
// SETUP-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// SETUP-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// SETUP-NEXT:       %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// SETUP-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// SETUP-NEXT:         %s = hlo.add %a, %b : tensor<f32>
// SETUP-NEXT:         hlo.return %s : tensor<f32>
// SETUP-NEXT:       } : (tensor<4xf32>) -> tensor<4xf32>
// SETUP-NEXT:       %int = hlo.convert %ar : tensor<4xf32> -> tensor<4xi32>
// SETUP-NEXT:       %acc1 = hlo.add %acc, %int : tensor<4xi32>
// SETUP-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xi32>, tensor<4xf32>>
// SETUP-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xi32>, tensor<4xf32>>
// SETUP-NEXT:     }
// SETUP-NEXT:     %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xf32>>
// SETUP-NEXT:     func.return %r : tensor<4xi32>
// SETUP-NEXT:   }
// SETUP-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): a convert involving non-float types does not commute with the sum: tensor<4xf32> -> tensor<4xi32>
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): a convert involving non-float types does not commute with the sum: tensor<4xf32> -> tensor<4xi32>
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): a convert involving non-float types does not commute with the sum: tensor<4xf32> -> tensor<4xi32>
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): replica groups do not match reference-replica-groups
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// The buffer is reset by select(p, buffer, zero) before the add: not moved (with a non-zero
// initial value the final result must not contain the init after a reset).
builtin.module @buffer_select_reset attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<4xf32>, %acc_init: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %acc_init, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %two = hlo.constant dense<2> : tensor<i32>
      %p = hlo.compare NE, %i, %two : tensor<i32> -> tensor<i1>
      %zero = hlo.constant dense<0.000000e+00> : tensor<4xf32>
      %keep = hlo.select %p, %acc, %zero : tensor<i1>, tensor<4xf32>
      %acc1 = hlo.add %keep, %ar : tensor<4xf32>
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    func.return %r : tensor<4xf32>
  }
}

// CHECK-LABEL: builtin.module @buffer_select_reset attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<4xf32>, %acc_init: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %acc_init, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %s : tensor<f32>
// CHECK-NEXT:       } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:       %two = hlo.constant dense<2> : tensor<i32>
// CHECK-NEXT:       %p = hlo.compare NE, %i, %two : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       %zero = hlo.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-NEXT:       %keep = hlo.select %p, %acc, %zero : tensor<i1>, tensor<4xf32>
// CHECK-NEXT:       %acc1 = hlo.add %keep, %ar : tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     func.return %r : tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the add's other operand is not a loop-carried accumulation buffer
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the add's other operand is not a loop-carried accumulation buffer
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the add's other operand is not a loop-carried accumulation buffer
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): replica groups do not match reference-replica-groups
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// The body argument is used by an op other than get_tuple_element: not moved.
builtin.module @body_arg_other_use attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %init = hlo.tuple %c0, %zeros, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
      %kept = hlo.optimization_barrier %bs : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %v = hlo.get_tuple_element %kept[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %acc1 = hlo.add %acc, %ar : tensor<4xf32>
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    func.return %r : tensor<4xf32>
  }
}

// CHECK-LABEL: builtin.module @body_arg_other_use attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %zeros, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %kept = hlo.optimization_barrier %bs : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %kept[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %s : tensor<f32>
// CHECK-NEXT:       } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:       %acc1 = hlo.add %acc, %ar : tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     func.return %r : tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the loop body argument is used by optimization_barrier
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the loop body argument is used by optimization_barrier
// RS-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the loop body argument is used by optimization_barrier
// SETUP-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): replica groups do not match reference-replica-groups
// GATE-REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
