// RUN: neuron-opt %s --split-input-file -p neuron-while-loop-all-reduce-code-motion | filecheck %s
// RUN: neuron-opt %s --split-input-file -p 'neuron-while-loop-all-reduce-code-motion{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// Threshold flags (transforms/threshold_flags.py, issue 14): `flag' = flag | (C(x) > t)` with C a
// max/min all-reduce of integers and t a constant carries r(C(x)) in the flag's slot and runs the
// compare after the loop, so the all-reduce leaves the loop; one negative case per rule.
// tests/test_code_motion_idioms.py runs every module before and after the pass on 8 simulated
// devices and compares the outputs.

// or(flag, pmax(x) > 0): the any-flag of JAX's `any_ | (pmax(c) > 0)`; moved: the slot carries a running max from INT_MIN, the compare and or run after the loop.
builtin.module @any_flag attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%f0: tensor<4xi1>, %x: tensor<4xi32>) -> tensor<4xi1> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %f0, %x : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt0 = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt0 : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %flag = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %c = hlo.convert %i : tensor<i32> -> tensor<i32>
      %cb = hlo.broadcast %c, dims = [] : (tensor<i32>) -> tensor<4xi32>
      %vi = hlo.subtract %v, %cb : tensor<4xi32>
      %pm = hlo.all_reduce(%vi) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        %r = hlo.maximum %a, %b : tensor<i32>
        hlo.return %r : tensor<i32>
      } : (tensor<4xi32>) -> tensor<4xi32>
      %ts = hlo.constant dense<0> : tensor<i32>
      %t = hlo.broadcast %ts, dims = [] : (tensor<i32>) -> tensor<4xi32>
      %hit = hlo.compare GT, %pm, %t : tensor<4xi32> -> tensor<4xi1>
      %flag1 = hlo.or %flag, %hit : tensor<4xi1>
      %next = hlo.tuple %i1, %flag1, %v : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
    func.return %r : tensor<4xi1>
  }
}

// REMARK: remark: neuron-while-loop-all-reduce-code-motion: %pm (hlo.all_reduce): the or-flag of a maximum threshold is carried as a running maximum (the compare runs after the loop)
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %pm (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// CHECK-LABEL: builtin.module @any_flag attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%f0: tensor<4xi1>, %x: tensor<4xi32>) -> tensor<4xi1> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<-2147483648> : tensor<i32>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.tuple %c0, [[V1]], %x : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:     %w = hlo.while([[V2]]) : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt0 = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt0 : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:       %flag = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %c = hlo.convert %i : tensor<i32> -> tensor<i32>
// CHECK-NEXT:       %cb = hlo.broadcast %c, dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:       %vi = hlo.subtract %v, %cb : tensor<4xi32>
// CHECK-NEXT:       %flag1 = hlo.maximum %flag, %vi : tensor<4xi32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %flag1, %v : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.all_reduce([[V3]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<i32>, %b: tensor<i32>):
// CHECK-NEXT:       %r = hlo.maximum %a, %b : tensor<i32>
// CHECK-NEXT:       hlo.return %r : tensor<i32>
// CHECK-NEXT:     } : (tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT:     [[V5:%[0-9]+]] = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     [[V6:%[0-9]+]] = hlo.broadcast [[V5]], dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:     [[V7:%[0-9]+]] = hlo.compare GT, [[V4]], [[V6]] : tensor<4xi32> -> tensor<4xi1>
// CHECK-NEXT:     %r_1 = hlo.or %f0, [[V7]] : tensor<4xi1>
// CHECK-NEXT:     func.return %r_1 : tensor<4xi1>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// and(flag, pmin(x) > 0): the all-flag; moved: a running min from INT_MAX, then and(flag0, AR > 0).
builtin.module @all_flag attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%f0: tensor<4xi1>, %x: tensor<4xi32>) -> tensor<4xi1> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %f0, %x : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt0 = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt0 : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %flag = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %c = hlo.convert %i : tensor<i32> -> tensor<i32>
      %cb = hlo.broadcast %c, dims = [] : (tensor<i32>) -> tensor<4xi32>
      %vi = hlo.subtract %v, %cb : tensor<4xi32>
      %pm = hlo.all_reduce(%vi) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        %r = hlo.minimum %a, %b : tensor<i32>
        hlo.return %r : tensor<i32>
      } : (tensor<4xi32>) -> tensor<4xi32>
      %ts = hlo.constant dense<0> : tensor<i32>
      %t = hlo.broadcast %ts, dims = [] : (tensor<i32>) -> tensor<4xi32>
      %hit = hlo.compare GT, %pm, %t : tensor<4xi32> -> tensor<4xi1>
      %flag1 = hlo.and %flag, %hit : tensor<4xi1>
      %next = hlo.tuple %i1, %flag1, %v : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
    func.return %r : tensor<4xi1>
  }
}

// REMARK: remark: neuron-while-loop-all-reduce-code-motion: %pm (hlo.all_reduce): the and-flag of a minimum threshold is carried as a running minimum (the compare runs after the loop)
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %pm (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// CHECK-LABEL: builtin.module @all_flag attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%f0: tensor<4xi1>, %x: tensor<4xi32>) -> tensor<4xi1> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<2147483647> : tensor<i32>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.tuple %c0, [[V1]], %x : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:     %w = hlo.while([[V2]]) : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt0 = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt0 : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:       %flag = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %c = hlo.convert %i : tensor<i32> -> tensor<i32>
// CHECK-NEXT:       %cb = hlo.broadcast %c, dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:       %vi = hlo.subtract %v, %cb : tensor<4xi32>
// CHECK-NEXT:       %flag1 = hlo.minimum %flag, %vi : tensor<4xi32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %flag1, %v : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.all_reduce([[V3]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<i32>, %b: tensor<i32>):
// CHECK-NEXT:       %r = hlo.minimum %a, %b : tensor<i32>
// CHECK-NEXT:       hlo.return %r : tensor<i32>
// CHECK-NEXT:     } : (tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT:     [[V5:%[0-9]+]] = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     [[V6:%[0-9]+]] = hlo.broadcast [[V5]], dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:     [[V7:%[0-9]+]] = hlo.compare GT, [[V4]], [[V6]] : tensor<4xi32> -> tensor<4xi1>
// CHECK-NEXT:     %r_1 = hlo.and %f0, [[V7]] : tensor<4xi1>
// CHECK-NEXT:     func.return %r_1 : tensor<4xi1>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// or(0 < pmax(x), flag): the compare and the or with their operands swapped; moved (0 < y is y > 0).
builtin.module @swapped_operands attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%f0: tensor<4xi1>, %x: tensor<4xi32>) -> tensor<4xi1> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %f0, %x : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt0 = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt0 : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %flag = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %c = hlo.convert %i : tensor<i32> -> tensor<i32>
      %cb = hlo.broadcast %c, dims = [] : (tensor<i32>) -> tensor<4xi32>
      %vi = hlo.subtract %v, %cb : tensor<4xi32>
      %pm = hlo.all_reduce(%vi) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        %r = hlo.maximum %a, %b : tensor<i32>
        hlo.return %r : tensor<i32>
      } : (tensor<4xi32>) -> tensor<4xi32>
      %ts = hlo.constant dense<0> : tensor<i32>
      %t = hlo.broadcast %ts, dims = [] : (tensor<i32>) -> tensor<4xi32>
      %hit = hlo.compare LT, %t, %pm : tensor<4xi32> -> tensor<4xi1>
      %flag1 = hlo.or %hit, %flag : tensor<4xi1>
      %next = hlo.tuple %i1, %flag1, %v : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
    func.return %r : tensor<4xi1>
  }
}

// REMARK: remark: neuron-while-loop-all-reduce-code-motion: %pm (hlo.all_reduce): the or-flag of a maximum threshold is carried as a running maximum (the compare runs after the loop)
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %pm (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// CHECK-LABEL: builtin.module @swapped_operands attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%f0: tensor<4xi1>, %x: tensor<4xi32>) -> tensor<4xi1> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<-2147483648> : tensor<i32>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.tuple %c0, [[V1]], %x : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:     %w = hlo.while([[V2]]) : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt0 = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt0 : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:       %flag = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %c = hlo.convert %i : tensor<i32> -> tensor<i32>
// CHECK-NEXT:       %cb = hlo.broadcast %c, dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:       %vi = hlo.subtract %v, %cb : tensor<4xi32>
// CHECK-NEXT:       %flag1 = hlo.maximum %flag, %vi : tensor<4xi32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %flag1, %v : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.all_reduce([[V3]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<i32>, %b: tensor<i32>):
// CHECK-NEXT:       %r = hlo.maximum %a, %b : tensor<i32>
// CHECK-NEXT:       hlo.return %r : tensor<i32>
// CHECK-NEXT:     } : (tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT:     [[V5:%[0-9]+]] = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     [[V6:%[0-9]+]] = hlo.broadcast [[V5]], dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:     [[V7:%[0-9]+]] = hlo.compare GT, [[V4]], [[V6]] : tensor<4xi32> -> tensor<4xi1>
// CHECK-NEXT:     %r_1 = hlo.or %f0, [[V7]] : tensor<4xi1>
// CHECK-NEXT:     func.return %r_1 : tensor<4xi1>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// and(flag, pmax(x) < 5): a non-increasing threshold turns max into and; moved.
builtin.module @max_below_threshold attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%f0: tensor<4xi1>, %x: tensor<4xi32>) -> tensor<4xi1> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %f0, %x : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt0 = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt0 : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %flag = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %c = hlo.convert %i : tensor<i32> -> tensor<i32>
      %cb = hlo.broadcast %c, dims = [] : (tensor<i32>) -> tensor<4xi32>
      %vi = hlo.subtract %v, %cb : tensor<4xi32>
      %pm = hlo.all_reduce(%vi) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        %r = hlo.maximum %a, %b : tensor<i32>
        hlo.return %r : tensor<i32>
      } : (tensor<4xi32>) -> tensor<4xi32>
      %ts = hlo.constant dense<5> : tensor<i32>
      %t = hlo.broadcast %ts, dims = [] : (tensor<i32>) -> tensor<4xi32>
      %hit = hlo.compare LT, %pm, %t : tensor<4xi32> -> tensor<4xi1>
      %flag1 = hlo.and %flag, %hit : tensor<4xi1>
      %next = hlo.tuple %i1, %flag1, %v : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
    func.return %r : tensor<4xi1>
  }
}

// REMARK: remark: neuron-while-loop-all-reduce-code-motion: %pm (hlo.all_reduce): the and-flag of a maximum threshold is carried as a running maximum (the compare runs after the loop)
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %pm (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// CHECK-LABEL: builtin.module @max_below_threshold attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%f0: tensor<4xi1>, %x: tensor<4xi32>) -> tensor<4xi1> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<-2147483648> : tensor<i32>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.tuple %c0, [[V1]], %x : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:     %w = hlo.while([[V2]]) : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt0 = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt0 : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:       %flag = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %c = hlo.convert %i : tensor<i32> -> tensor<i32>
// CHECK-NEXT:       %cb = hlo.broadcast %c, dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:       %vi = hlo.subtract %v, %cb : tensor<4xi32>
// CHECK-NEXT:       %flag1 = hlo.maximum %flag, %vi : tensor<4xi32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %flag1, %v : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.all_reduce([[V3]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<i32>, %b: tensor<i32>):
// CHECK-NEXT:       %r = hlo.maximum %a, %b : tensor<i32>
// CHECK-NEXT:       hlo.return %r : tensor<i32>
// CHECK-NEXT:     } : (tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT:     [[V5:%[0-9]+]] = hlo.constant dense<5> : tensor<i32>
// CHECK-NEXT:     [[V6:%[0-9]+]] = hlo.broadcast [[V5]], dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:     [[V7:%[0-9]+]] = hlo.compare LT, [[V4]], [[V6]] : tensor<4xi32> -> tensor<4xi1>
// CHECK-NEXT:     %r_1 = hlo.and %f0, [[V7]] : tensor<4xi1>
// CHECK-NEXT:     func.return %r_1 : tensor<4xi1>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// or(flag, pmin(x) <= 2): a non-increasing threshold turns min into or; moved.
builtin.module @min_at_most attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%f0: tensor<4xi1>, %x: tensor<4xi32>) -> tensor<4xi1> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %f0, %x : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt0 = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt0 : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %flag = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %c = hlo.convert %i : tensor<i32> -> tensor<i32>
      %cb = hlo.broadcast %c, dims = [] : (tensor<i32>) -> tensor<4xi32>
      %vi = hlo.subtract %v, %cb : tensor<4xi32>
      %pm = hlo.all_reduce(%vi) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        %r = hlo.minimum %a, %b : tensor<i32>
        hlo.return %r : tensor<i32>
      } : (tensor<4xi32>) -> tensor<4xi32>
      %ts = hlo.constant dense<2> : tensor<i32>
      %t = hlo.broadcast %ts, dims = [] : (tensor<i32>) -> tensor<4xi32>
      %hit = hlo.compare LE, %pm, %t : tensor<4xi32> -> tensor<4xi1>
      %flag1 = hlo.or %flag, %hit : tensor<4xi1>
      %next = hlo.tuple %i1, %flag1, %v : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
    func.return %r : tensor<4xi1>
  }
}

// REMARK: remark: neuron-while-loop-all-reduce-code-motion: %pm (hlo.all_reduce): the or-flag of a minimum threshold is carried as a running minimum (the compare runs after the loop)
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %pm (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// CHECK-LABEL: builtin.module @min_at_most attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%f0: tensor<4xi1>, %x: tensor<4xi32>) -> tensor<4xi1> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<2147483647> : tensor<i32>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.tuple %c0, [[V1]], %x : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:     %w = hlo.while([[V2]]) : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt0 = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt0 : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:       %flag = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %c = hlo.convert %i : tensor<i32> -> tensor<i32>
// CHECK-NEXT:       %cb = hlo.broadcast %c, dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:       %vi = hlo.subtract %v, %cb : tensor<4xi32>
// CHECK-NEXT:       %flag1 = hlo.minimum %flag, %vi : tensor<4xi32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %flag1, %v : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xi32>, tensor<4xi32>>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.all_reduce([[V3]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<i32>, %b: tensor<i32>):
// CHECK-NEXT:       %r = hlo.minimum %a, %b : tensor<i32>
// CHECK-NEXT:       hlo.return %r : tensor<i32>
// CHECK-NEXT:     } : (tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT:     [[V5:%[0-9]+]] = hlo.constant dense<2> : tensor<i32>
// CHECK-NEXT:     [[V6:%[0-9]+]] = hlo.broadcast [[V5]], dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:     [[V7:%[0-9]+]] = hlo.compare LE, [[V4]], [[V6]] : tensor<4xi32> -> tensor<4xi1>
// CHECK-NEXT:     %r_1 = hlo.or %f0, [[V7]] : tensor<4xi1>
// CHECK-NEXT:     func.return %r_1 : tensor<4xi1>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// or(flag, pmax(x) >= 1) over ui8: unsigned order, identity 0 (0 >= 1 is false); moved.
builtin.module @unsigned_flag attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%f0: tensor<4xi1>, %x: tensor<4xui8>) -> tensor<4xi1> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %f0, %x : tuple<tensor<i32>, tensor<4xi1>, tensor<4xui8>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xi1>, tensor<4xui8>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xui8>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xui8>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt0 = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt0 : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xui8>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xui8>>
      %flag = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xui8>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xui8>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %c = hlo.convert %i : tensor<i32> -> tensor<ui8>
      %cb = hlo.broadcast %c, dims = [] : (tensor<ui8>) -> tensor<4xui8>
      %vi = hlo.subtract %v, %cb : tensor<4xui8>
      %pm = hlo.all_reduce(%vi) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<ui8>, %b: tensor<ui8>):
        %r = hlo.maximum %a, %b : tensor<ui8>
        hlo.return %r : tensor<ui8>
      } : (tensor<4xui8>) -> tensor<4xui8>
      %ts = hlo.constant dense<1> : tensor<ui8>
      %t = hlo.broadcast %ts, dims = [] : (tensor<ui8>) -> tensor<4xui8>
      %hit = hlo.compare GE, %pm, %t : tensor<4xui8> -> tensor<4xi1>
      %flag1 = hlo.or %flag, %hit : tensor<4xi1>
      %next = hlo.tuple %i1, %flag1, %v : tuple<tensor<i32>, tensor<4xi1>, tensor<4xui8>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xi1>, tensor<4xui8>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xui8>>
    func.return %r : tensor<4xi1>
  }
}

// REMARK: remark: neuron-while-loop-all-reduce-code-motion: %pm (hlo.all_reduce): the or-flag of a maximum threshold is carried as a running maximum (the compare runs after the loop)
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %pm (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// CHECK-LABEL: builtin.module @unsigned_flag attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%f0: tensor<4xi1>, %x: tensor<4xui8>) -> tensor<4xi1> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<0> : tensor<ui8>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<ui8>) -> tensor<4xui8>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.tuple %c0, [[V1]], %x : tuple<tensor<i32>, tensor<4xui8>, tensor<4xui8>>
// CHECK-NEXT:     %w = hlo.while([[V2]]) : tuple<tensor<i32>, tensor<4xui8>, tensor<4xui8>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xui8>, tensor<4xui8>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xui8>, tensor<4xui8>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt0 = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt0 : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xui8>, tensor<4xui8>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xui8>, tensor<4xui8>>
// CHECK-NEXT:       %flag = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xui8>, tensor<4xui8>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xui8>, tensor<4xui8>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %c = hlo.convert %i : tensor<i32> -> tensor<ui8>
// CHECK-NEXT:       %cb = hlo.broadcast %c, dims = [] : (tensor<ui8>) -> tensor<4xui8>
// CHECK-NEXT:       %vi = hlo.subtract %v, %cb : tensor<4xui8>
// CHECK-NEXT:       %flag1 = hlo.maximum %flag, %vi : tensor<4xui8>
// CHECK-NEXT:       %next = hlo.tuple %i1, %flag1, %v : tuple<tensor<i32>, tensor<4xui8>, tensor<4xui8>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xui8>, tensor<4xui8>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xui8>, tensor<4xui8>>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.all_reduce([[V3]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<ui8>, %b: tensor<ui8>):
// CHECK-NEXT:       %r = hlo.maximum %a, %b : tensor<ui8>
// CHECK-NEXT:       hlo.return %r : tensor<ui8>
// CHECK-NEXT:     } : (tensor<4xui8>) -> tensor<4xui8>
// CHECK-NEXT:     [[V5:%[0-9]+]] = hlo.constant dense<1> : tensor<ui8>
// CHECK-NEXT:     [[V6:%[0-9]+]] = hlo.broadcast [[V5]], dims = [] : (tensor<ui8>) -> tensor<4xui8>
// CHECK-NEXT:     [[V7:%[0-9]+]] = hlo.compare GE, [[V4]], [[V6]] : tensor<4xui8> -> tensor<4xi1>
// CHECK-NEXT:     %r_1 = hlo.or %f0, [[V7]] : tensor<4xi1>
// CHECK-NEXT:     func.return %r_1 : tensor<4xi1>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// or(flag, pmax(x) > 0) over f32: refused (a float max propagates NaN: NaN > 0 is false though some device's value may be above 0).
builtin.module @float_flag attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%f0: tensor<4xi1>, %x: tensor<4xf32>) -> tensor<4xi1> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %f0, %x : tuple<tensor<i32>, tensor<4xi1>, tensor<4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xi1>, tensor<4xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt0 = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt0 : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xf32>>
      %flag = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xf32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %c = hlo.convert %i : tensor<i32> -> tensor<f32>
      %cb = hlo.broadcast %c, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %vi = hlo.subtract %v, %cb : tensor<4xf32>
      %pm = hlo.all_reduce(%vi) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %r = hlo.maximum %a, %b : tensor<f32>
        hlo.return %r : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %ts = hlo.constant dense<0.000000e+00> : tensor<f32>
      %t = hlo.broadcast %ts, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %hit = hlo.compare GT, %pm, %t : tensor<4xf32> -> tensor<4xi1>
      %flag1 = hlo.or %flag, %hit : tensor<4xi1>
      %next = hlo.tuple %i1, %flag1, %v : tuple<tensor<i32>, tensor<4xi1>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xi1>, tensor<4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xf32>>
    func.return %r : tensor<4xi1>
  }
}

// REMARK: remark: neuron-while-loop-all-reduce-code-motion: %pm (hlo.all_reduce): a compare of the collective's result is moved only for a maximum/minimum reduction of integers (a float max/min propagates NaN, which no threshold orders)
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// CHECK-LABEL: builtin.module @float_flag attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%f0: tensor<4xi1>, %x: tensor<4xf32>) -> tensor<4xi1> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %f0, %x : tuple<tensor<i32>, tensor<4xi1>, tensor<4xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xi1>, tensor<4xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt0 = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt0 : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xf32>>
// CHECK-NEXT:       %flag = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %c = hlo.convert %i : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %cb = hlo.broadcast %c, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:       %vi = hlo.subtract %v, %cb : tensor<4xf32>
// CHECK-NEXT:       %pm = hlo.all_reduce(%vi) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %r = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %r : tensor<f32>
// CHECK-NEXT:       } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:       %ts = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:       %t = hlo.broadcast %ts, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:       %hit = hlo.compare GT, %pm, %t : tensor<4xf32> -> tensor<4xi1>
// CHECK-NEXT:       %flag1 = hlo.or %flag, %hit : tensor<4xi1>
// CHECK-NEXT:       %next = hlo.tuple %i1, %flag1, %v : tuple<tensor<i32>, tensor<4xi1>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xi1>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r_1 = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xf32>>
// CHECK-NEXT:     func.return %r_1 : tensor<4xi1>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// and(flag, pmax(x) > 0): max through a non-decreasing threshold distributes over or, not and; refused.
builtin.module @pairing_mismatch attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%f0: tensor<4xi1>, %x: tensor<4xi32>) -> tensor<4xi1> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %f0, %x : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt0 = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt0 : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %flag = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %c = hlo.convert %i : tensor<i32> -> tensor<i32>
      %cb = hlo.broadcast %c, dims = [] : (tensor<i32>) -> tensor<4xi32>
      %vi = hlo.subtract %v, %cb : tensor<4xi32>
      %pm = hlo.all_reduce(%vi) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        %r = hlo.maximum %a, %b : tensor<i32>
        hlo.return %r : tensor<i32>
      } : (tensor<4xi32>) -> tensor<4xi32>
      %ts = hlo.constant dense<0> : tensor<i32>
      %t = hlo.broadcast %ts, dims = [] : (tensor<i32>) -> tensor<4xi32>
      %hit = hlo.compare GT, %pm, %t : tensor<4xi32> -> tensor<4xi1>
      %flag1 = hlo.and %flag, %hit : tensor<4xi1>
      %next = hlo.tuple %i1, %flag1, %v : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
    func.return %r : tensor<4xi1>
  }
}

// REMARK: remark: neuron-while-loop-all-reduce-code-motion: %pm (hlo.all_reduce): a maximum through a GT threshold distributes over or, but the flag is combined with and
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// CHECK-LABEL: builtin.module @pairing_mismatch attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%f0: tensor<4xi1>, %x: tensor<4xi32>) -> tensor<4xi1> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %f0, %x : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt0 = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt0 : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:       %flag = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %c = hlo.convert %i : tensor<i32> -> tensor<i32>
// CHECK-NEXT:       %cb = hlo.broadcast %c, dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:       %vi = hlo.subtract %v, %cb : tensor<4xi32>
// CHECK-NEXT:       %pm = hlo.all_reduce(%vi) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<i32>, %b: tensor<i32>):
// CHECK-NEXT:         %r = hlo.maximum %a, %b : tensor<i32>
// CHECK-NEXT:         hlo.return %r : tensor<i32>
// CHECK-NEXT:       } : (tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT:       %ts = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:       %t = hlo.broadcast %ts, dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:       %hit = hlo.compare GT, %pm, %t : tensor<4xi32> -> tensor<4xi1>
// CHECK-NEXT:       %flag1 = hlo.and %flag, %hit : tensor<4xi1>
// CHECK-NEXT:       %next = hlo.tuple %i1, %flag1, %v : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r_1 = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:     func.return %r_1 : tensor<4xi1>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// or(flag, pmax(x) >= INT_MIN): the threshold holds for max's identity, so a loop of no iterations would set the flag; refused.
builtin.module @identity_passes_threshold attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%f0: tensor<4xi1>, %x: tensor<4xi32>) -> tensor<4xi1> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %f0, %x : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt0 = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt0 : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %flag = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %c = hlo.convert %i : tensor<i32> -> tensor<i32>
      %cb = hlo.broadcast %c, dims = [] : (tensor<i32>) -> tensor<4xi32>
      %vi = hlo.subtract %v, %cb : tensor<4xi32>
      %pm = hlo.all_reduce(%vi) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        %r = hlo.maximum %a, %b : tensor<i32>
        hlo.return %r : tensor<i32>
      } : (tensor<4xi32>) -> tensor<4xi32>
      %ts = hlo.constant dense<-2147483648> : tensor<i32>
      %t = hlo.broadcast %ts, dims = [] : (tensor<i32>) -> tensor<4xi32>
      %hit = hlo.compare GE, %pm, %t : tensor<4xi32> -> tensor<4xi1>
      %flag1 = hlo.or %flag, %hit : tensor<4xi1>
      %next = hlo.tuple %i1, %flag1, %v : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
    func.return %r : tensor<4xi1>
  }
}

// REMARK: remark: neuron-while-loop-all-reduce-code-motion: %pm (hlo.all_reduce): the threshold holds for the maximum identity -2147483648: a loop of no iterations would change the flag
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// CHECK-LABEL: builtin.module @identity_passes_threshold attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%f0: tensor<4xi1>, %x: tensor<4xi32>) -> tensor<4xi1> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %f0, %x : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt0 = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt0 : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:       %flag = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %c = hlo.convert %i : tensor<i32> -> tensor<i32>
// CHECK-NEXT:       %cb = hlo.broadcast %c, dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:       %vi = hlo.subtract %v, %cb : tensor<4xi32>
// CHECK-NEXT:       %pm = hlo.all_reduce(%vi) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<i32>, %b: tensor<i32>):
// CHECK-NEXT:         %r = hlo.maximum %a, %b : tensor<i32>
// CHECK-NEXT:         hlo.return %r : tensor<i32>
// CHECK-NEXT:       } : (tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT:       %ts = hlo.constant dense<-2147483648> : tensor<i32>
// CHECK-NEXT:       %t = hlo.broadcast %ts, dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:       %hit = hlo.compare GE, %pm, %t : tensor<4xi32> -> tensor<4xi1>
// CHECK-NEXT:       %flag1 = hlo.or %flag, %hit : tensor<4xi1>
// CHECK-NEXT:       %next = hlo.tuple %i1, %flag1, %v : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r_1 = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:     func.return %r_1 : tensor<4xi1>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// or(flag, pmax(x) == 3): EQ is not monotone; refused.
builtin.module @equality attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%f0: tensor<4xi1>, %x: tensor<4xi32>) -> tensor<4xi1> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %f0, %x : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt0 = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt0 : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %flag = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %c = hlo.convert %i : tensor<i32> -> tensor<i32>
      %cb = hlo.broadcast %c, dims = [] : (tensor<i32>) -> tensor<4xi32>
      %vi = hlo.subtract %v, %cb : tensor<4xi32>
      %pm = hlo.all_reduce(%vi) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        %r = hlo.maximum %a, %b : tensor<i32>
        hlo.return %r : tensor<i32>
      } : (tensor<4xi32>) -> tensor<4xi32>
      %ts = hlo.constant dense<3> : tensor<i32>
      %t = hlo.broadcast %ts, dims = [] : (tensor<i32>) -> tensor<4xi32>
      %hit = hlo.compare EQ, %pm, %t : tensor<4xi32> -> tensor<4xi1>
      %flag1 = hlo.or %flag, %hit : tensor<4xi1>
      %next = hlo.tuple %i1, %flag1, %v : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
    func.return %r : tensor<4xi1>
  }
}

// REMARK: remark: neuron-while-loop-all-reduce-code-motion: %pm (hlo.all_reduce): the compare of the collective's result is not a threshold (GT/GE/LT/LE against a constant)
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// CHECK-LABEL: builtin.module @equality attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%f0: tensor<4xi1>, %x: tensor<4xi32>) -> tensor<4xi1> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %f0, %x : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt0 = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt0 : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:       %flag = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %c = hlo.convert %i : tensor<i32> -> tensor<i32>
// CHECK-NEXT:       %cb = hlo.broadcast %c, dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:       %vi = hlo.subtract %v, %cb : tensor<4xi32>
// CHECK-NEXT:       %pm = hlo.all_reduce(%vi) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<i32>, %b: tensor<i32>):
// CHECK-NEXT:         %r = hlo.maximum %a, %b : tensor<i32>
// CHECK-NEXT:         hlo.return %r : tensor<i32>
// CHECK-NEXT:       } : (tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT:       %ts = hlo.constant dense<3> : tensor<i32>
// CHECK-NEXT:       %t = hlo.broadcast %ts, dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:       %hit = hlo.compare EQ, %pm, %t : tensor<4xi32> -> tensor<4xi1>
// CHECK-NEXT:       %flag1 = hlo.or %flag, %hit : tensor<4xi1>
// CHECK-NEXT:       %next = hlo.tuple %i1, %flag1, %v : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r_1 = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:     func.return %r_1 : tensor<4xi1>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// the loop-carried flag is also read by the body (it changes the all-reduced value); refused.
builtin.module @flag_read_elsewhere attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%f0: tensor<4xi1>, %x: tensor<4xi32>) -> tensor<4xi1> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %f0, %x : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt0 = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt0 : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %flag = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %c = hlo.convert %i : tensor<i32> -> tensor<i32>
      %cb = hlo.broadcast %c, dims = [] : (tensor<i32>) -> tensor<4xi32>
      %fx = hlo.convert %flag : tensor<4xi1> -> tensor<4xi32>
      %cbf = hlo.add %cb, %fx : tensor<4xi32>
      %vi = hlo.subtract %v, %cbf : tensor<4xi32>
      %pm = hlo.all_reduce(%vi) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        %r = hlo.maximum %a, %b : tensor<i32>
        hlo.return %r : tensor<i32>
      } : (tensor<4xi32>) -> tensor<4xi32>
      %ts = hlo.constant dense<0> : tensor<i32>
      %t = hlo.broadcast %ts, dims = [] : (tensor<i32>) -> tensor<4xi32>
      %hit = hlo.compare GT, %pm, %t : tensor<4xi32> -> tensor<4xi1>
      %flag1 = hlo.or %flag, %hit : tensor<4xi1>
      %next = hlo.tuple %i1, %flag1, %v : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
    func.return %r : tensor<4xi1>
  }
}

// REMARK: remark: neuron-while-loop-all-reduce-code-motion: %pm (hlo.all_reduce): the loop-carried flag (slot 1) has other readers in the body
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// CHECK-LABEL: builtin.module @flag_read_elsewhere attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%f0: tensor<4xi1>, %x: tensor<4xi32>) -> tensor<4xi1> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %f0, %x : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt0 = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt0 : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:       %flag = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %c = hlo.convert %i : tensor<i32> -> tensor<i32>
// CHECK-NEXT:       %cb = hlo.broadcast %c, dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:       %fx = hlo.convert %flag : tensor<4xi1> -> tensor<4xi32>
// CHECK-NEXT:       %cbf = hlo.add %cb, %fx : tensor<4xi32>
// CHECK-NEXT:       %vi = hlo.subtract %v, %cbf : tensor<4xi32>
// CHECK-NEXT:       %pm = hlo.all_reduce(%vi) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<i32>, %b: tensor<i32>):
// CHECK-NEXT:         %r = hlo.maximum %a, %b : tensor<i32>
// CHECK-NEXT:         hlo.return %r : tensor<i32>
// CHECK-NEXT:       } : (tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT:       %ts = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:       %t = hlo.broadcast %ts, dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:       %hit = hlo.compare GT, %pm, %t : tensor<4xi32> -> tensor<4xi1>
// CHECK-NEXT:       %flag1 = hlo.or %flag, %hit : tensor<4xi1>
// CHECK-NEXT:       %next = hlo.tuple %i1, %flag1, %v : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r_1 = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:     func.return %r_1 : tensor<4xi1>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// the loop condition stops once the flag is set; refused.
builtin.module @condition_reads_flag attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%f0: tensor<4xi1>, %x: tensor<4xi32>) -> tensor<4xi1> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %f0, %x : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt0 = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      %cf = hlo.get_tuple_element %cs[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %c0f = hlo.constant dense<false> : tensor<i1>
      %cf0 = hlo.slice %cf, start = [0], limit = [1], strides = [1] : (tensor<4xi1>) -> tensor<1xi1>
      %cfs = hlo.reshape %cf0 : (tensor<1xi1>) -> tensor<i1>
      %nf = hlo.or %cfs, %c0f : tensor<i1>
      %nn = hlo.not %nf : tensor<i1>
      %both = hlo.and %lt0, %nn : tensor<i1>
      hlo.return %both : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %flag = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %c = hlo.convert %i : tensor<i32> -> tensor<i32>
      %cb = hlo.broadcast %c, dims = [] : (tensor<i32>) -> tensor<4xi32>
      %vi = hlo.subtract %v, %cb : tensor<4xi32>
      %pm = hlo.all_reduce(%vi) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        %r = hlo.maximum %a, %b : tensor<i32>
        hlo.return %r : tensor<i32>
      } : (tensor<4xi32>) -> tensor<4xi32>
      %ts = hlo.constant dense<0> : tensor<i32>
      %t = hlo.broadcast %ts, dims = [] : (tensor<i32>) -> tensor<4xi32>
      %hit = hlo.compare GT, %pm, %t : tensor<4xi32> -> tensor<4xi1>
      %flag1 = hlo.or %flag, %hit : tensor<4xi1>
      %next = hlo.tuple %i1, %flag1, %v : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
    func.return %r : tensor<4xi1>
  }
}

// REMARK: remark: neuron-while-loop-all-reduce-code-motion: %pm (hlo.all_reduce): the threshold flag is read by the loop condition
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// CHECK-LABEL: builtin.module @condition_reads_flag attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%f0: tensor<4xi1>, %x: tensor<4xi32>) -> tensor<4xi1> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %f0, %x : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt0 = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       %cf = hlo.get_tuple_element %cs[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:       %c0f = hlo.constant dense<false> : tensor<i1>
// CHECK-NEXT:       %cf0 = hlo.slice %cf, start = [0], limit = [1], strides = [1] : (tensor<4xi1>) -> tensor<1xi1>
// CHECK-NEXT:       %cfs = hlo.reshape %cf0 : (tensor<1xi1>) -> tensor<i1>
// CHECK-NEXT:       %nf = hlo.or %cfs, %c0f : tensor<i1>
// CHECK-NEXT:       %nn = hlo.not %nf : tensor<i1>
// CHECK-NEXT:       %both = hlo.and %lt0, %nn : tensor<i1>
// CHECK-NEXT:       hlo.return %both : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:       %flag = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %c = hlo.convert %i : tensor<i32> -> tensor<i32>
// CHECK-NEXT:       %cb = hlo.broadcast %c, dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:       %vi = hlo.subtract %v, %cb : tensor<4xi32>
// CHECK-NEXT:       %pm = hlo.all_reduce(%vi) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<i32>, %b: tensor<i32>):
// CHECK-NEXT:         %r = hlo.maximum %a, %b : tensor<i32>
// CHECK-NEXT:         hlo.return %r : tensor<i32>
// CHECK-NEXT:       } : (tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT:       %ts = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:       %t = hlo.broadcast %ts, dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:       %hit = hlo.compare GT, %pm, %t : tensor<4xi32> -> tensor<4xi1>
// CHECK-NEXT:       %flag1 = hlo.or %flag, %hit : tensor<4xi1>
// CHECK-NEXT:       %next = hlo.tuple %i1, %flag1, %v : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r_1 = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi32>>
// CHECK-NEXT:     func.return %r_1 : tensor<4xi1>
// CHECK-NEXT:   }
// CHECK-NEXT: }
