// RUN: neuron-opt %s --split-input-file -p neuron-while-loop-all-reduce-code-motion | filecheck %s
// RUN: neuron-opt %s --split-input-file -p 'neuron-while-loop-all-reduce-code-motion{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// neuron-while-loop-all-reduce-code-motion on the idioms of real training code (issue 14):
// accumulation with the reducer's own operation (maximum, minimum, multiply, and, or), scaling
// by a replicated scalar (pmean), and an accumulation inside a conditional with a replicated
// branch index; one negative case per legality rule. tests/test_code_motion_idioms.py runs every
// module before and after the pass on 8 simulated devices and compares the outputs.

// max(acc, pmax(x)): the reducer's own op accumulates; moved (local from -inf, then max(init, AR)).
builtin.module @max_accumulate attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x0: tensor<4xf32>, %x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x0, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
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
      %pm = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %r = hlo.maximum %a, %b : tensor<f32>
        hlo.return %r : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %acc1 = hlo.maximum %acc, %pm : tensor<4xf32>
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    func.return %r : tensor<4xf32>
  }
}

// CHECK-LABEL: builtin.module @max_accumulate attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x0: tensor<4xf32>, %x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<0xff800000> : tensor<f32>
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
// CHECK-NEXT:       %acc1 = hlo.maximum %acc, %v : tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.all_reduce([[V3]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %r = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %r : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %r_1 = hlo.maximum %x0, [[V4]] : tensor<4xf32>
// CHECK-NEXT:     func.return %r_1 : tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }
// REMARK: remark: neuron-while-loop-all-reduce-code-motion: %pm (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops

// -----

// min(acc_f32, convert(pmin(x_bf16))): a monotone convert commutes exactly with min; moved, the all-reduce stays bf16.
builtin.module @min_accumulate_convert attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x0: tensor<4xf32>, %x: tensor<4xbf16>) -> tensor<4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x0, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xbf16>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xbf16>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xbf16>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xbf16>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xbf16>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xbf16>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xbf16>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xbf16>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %pm = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
        %r = hlo.minimum %a, %b : tensor<bf16>
        hlo.return %r : tensor<bf16>
      } : (tensor<4xbf16>) -> tensor<4xbf16>
      %wide = hlo.convert %pm : tensor<4xbf16> -> tensor<4xf32>
      %acc1 = hlo.minimum %wide, %acc : tensor<4xf32>
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xbf16>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xbf16>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xbf16>>
    func.return %r : tensor<4xf32>
  }
}

// CHECK-LABEL: builtin.module @min_accumulate_convert attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x0: tensor<4xf32>, %x: tensor<4xbf16>) -> tensor<4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<0x7f800000> : tensor<f32>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.tuple %c0, [[V1]], %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xbf16>>
// CHECK-NEXT:     %w = hlo.while([[V2]]) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xbf16>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xbf16>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xbf16>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>, tensor<4xbf16>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xbf16>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xbf16>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xbf16>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %wide = hlo.convert %v : tensor<4xbf16> -> tensor<4xf32>
// CHECK-NEXT:       %acc1 = hlo.minimum %wide, %acc : tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xbf16>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xbf16>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xbf16>>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.convert [[V3]] : tensor<4xf32> -> tensor<4xbf16>
// CHECK-NEXT:     [[V5:%[0-9]+]] = hlo.all_reduce([[V4]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
// CHECK-NEXT:       %r = hlo.minimum %a, %b : tensor<bf16>
// CHECK-NEXT:       hlo.return %r : tensor<bf16>
// CHECK-NEXT:     } : (tensor<4xbf16>) -> tensor<4xbf16>
// CHECK-NEXT:     [[V6:%[0-9]+]] = hlo.convert [[V5]] : tensor<4xbf16> -> tensor<4xf32>
// CHECK-NEXT:     %r_1 = hlo.minimum %x0, [[V6]] : tensor<4xf32>
// CHECK-NEXT:     func.return %r_1 : tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %pm (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops

// -----

// acc * AR_mul(x): moved (local from 1, then init * AR).
builtin.module @multiply_accumulate attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x0: tensor<4xf32>, %x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x0, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
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
      %pp = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %r = hlo.multiply %a, %b : tensor<f32>
        hlo.return %r : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %acc1 = hlo.multiply %acc, %pp : tensor<4xf32>
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    func.return %r : tensor<4xf32>
  }
}

// CHECK-LABEL: builtin.module @multiply_accumulate attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x0: tensor<4xf32>, %x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<1.000000e+00> : tensor<f32>
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
// CHECK-NEXT:       %acc1 = hlo.multiply %acc, %v : tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.all_reduce([[V3]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %r = hlo.multiply %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %r : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %r_1 = hlo.multiply %x0, [[V4]] : tensor<4xf32>
// CHECK-NEXT:     func.return %r_1 : tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %pp (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops

// -----

// or(flag, AR_or(p)) on pred: moved (local from false).
builtin.module @or_accumulate attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x0: tensor<4xi1>, %x: tensor<4xi1>) -> tensor<4xi1> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x0, %x : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>>
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
      %po = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<i1>, %b: tensor<i1>):
        %r = hlo.or %a, %b : tensor<i1>
        hlo.return %r : tensor<i1>
      } : (tensor<4xi1>) -> tensor<4xi1>
      %acc1 = hlo.or %acc, %po : tensor<4xi1>
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>>
    func.return %r : tensor<4xi1>
  }
}

// CHECK-LABEL: builtin.module @or_accumulate attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x0: tensor<4xi1>, %x: tensor<4xi1>) -> tensor<4xi1> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<false> : tensor<i1>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<i1>) -> tensor<4xi1>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.tuple %c0, [[V1]], %x : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>>
// CHECK-NEXT:     %w = hlo.while([[V2]]) : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>> condition {
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
// CHECK-NEXT:       %acc1 = hlo.or %acc, %v : tensor<4xi1>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.all_reduce([[V3]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<i1>, %b: tensor<i1>):
// CHECK-NEXT:       %r = hlo.or %a, %b : tensor<i1>
// CHECK-NEXT:       hlo.return %r : tensor<i1>
// CHECK-NEXT:     } : (tensor<4xi1>) -> tensor<4xi1>
// CHECK-NEXT:     %r_1 = hlo.or %x0, [[V4]] : tensor<4xi1>
// CHECK-NEXT:     func.return %r_1 : tensor<4xi1>
// CHECK-NEXT:   }
// CHECK-NEXT: }
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %po (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops

// -----

// and(flag, AR_and(p)) on pred: moved (local from true).
builtin.module @and_accumulate attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x0: tensor<4xi1>, %x: tensor<4xi1>) -> tensor<4xi1> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x0, %x : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>>
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
      %pa = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<i1>, %b: tensor<i1>):
        %r = hlo.and %a, %b : tensor<i1>
        hlo.return %r : tensor<i1>
      } : (tensor<4xi1>) -> tensor<4xi1>
      %acc1 = hlo.and %pa, %acc : tensor<4xi1>
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>>
    func.return %r : tensor<4xi1>
  }
}

// CHECK-LABEL: builtin.module @and_accumulate attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x0: tensor<4xi1>, %x: tensor<4xi1>) -> tensor<4xi1> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<true> : tensor<i1>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<i1>) -> tensor<4xi1>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.tuple %c0, [[V1]], %x : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>>
// CHECK-NEXT:     %w = hlo.while([[V2]]) : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>> condition {
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
// CHECK-NEXT:       %acc1 = hlo.and %v, %acc : tensor<4xi1>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xi1>, tensor<4xi1>>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.all_reduce([[V3]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<i1>, %b: tensor<i1>):
// CHECK-NEXT:       %r = hlo.and %a, %b : tensor<i1>
// CHECK-NEXT:       hlo.return %r : tensor<i1>
// CHECK-NEXT:     } : (tensor<4xi1>) -> tensor<4xi1>
// CHECK-NEXT:     %r_1 = hlo.and %x0, [[V4]] : tensor<4xi1>
// CHECK-NEXT:     func.return %r_1 : tensor<4xi1>
// CHECK-NEXT:   }
// CHECK-NEXT: }
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %pa (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops

// -----

// acc + pmax(x): the sum of maxima is not the maximum of sums; kept.
builtin.module @max_accumulated_with_add attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x0: tensor<4xf32>, %x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x0, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
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
      %pm = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %r = hlo.maximum %a, %b : tensor<f32>
        hlo.return %r : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %acc1 = hlo.add %acc, %pm : tensor<4xf32>
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    func.return %r : tensor<4xf32>
  }
}

// CHECK-LABEL: builtin.module @max_accumulated_with_add attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x0: tensor<4xf32>, %x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x0, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
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
// CHECK-NEXT:       %pm = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %r = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %r : tensor<f32>
// CHECK-NEXT:       } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:       %acc1 = hlo.add %acc, %pm : tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r_1 = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     func.return %r_1 : tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %pm (hlo.all_reduce): the maximum reduction is accumulated with add: only the reducer's own operation accumulates
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// max(acc_s8, convert_s8(pmax(x_s32))): a narrowing integer convert wraps (not monotone); kept.
builtin.module @max_non_monotone_convert attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x0: tensor<4xi8>, %x: tensor<4xi32>) -> tensor<4xi8> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x0, %x : tuple<tensor<i32>, tensor<4xi8>, tensor<4xi32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xi8>, tensor<4xi32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xi8>, tensor<4xi32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xi8>, tensor<4xi32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xi8>, tensor<4xi32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xi8>, tensor<4xi32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xi8>, tensor<4xi32>>
      %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xi8>, tensor<4xi32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %pm = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        %r = hlo.maximum %a, %b : tensor<i32>
        hlo.return %r : tensor<i32>
      } : (tensor<4xi32>) -> tensor<4xi32>
      %narrow = hlo.convert %pm : tensor<4xi32> -> tensor<4xi8>
      %acc1 = hlo.maximum %acc, %narrow : tensor<4xi8>
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xi8>, tensor<4xi32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xi8>, tensor<4xi32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xi8>, tensor<4xi32>>
    func.return %r : tensor<4xi8>
  }
}

// CHECK-LABEL: builtin.module @max_non_monotone_convert attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x0: tensor<4xi8>, %x: tensor<4xi32>) -> tensor<4xi8> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x0, %x : tuple<tensor<i32>, tensor<4xi8>, tensor<4xi32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xi8>, tensor<4xi32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4xi8>, tensor<4xi32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xi8>, tensor<4xi32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4xi8>, tensor<4xi32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xi8>, tensor<4xi32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xi8>, tensor<4xi32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xi8>, tensor<4xi32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %pm = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<i32>, %b: tensor<i32>):
// CHECK-NEXT:         %r = hlo.maximum %a, %b : tensor<i32>
// CHECK-NEXT:         hlo.return %r : tensor<i32>
// CHECK-NEXT:       } : (tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT:       %narrow = hlo.convert %pm : tensor<4xi32> -> tensor<4xi8>
// CHECK-NEXT:       %acc1 = hlo.maximum %acc, %narrow : tensor<4xi8>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xi8>, tensor<4xi32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xi8>, tensor<4xi32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r_1 = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xi8>, tensor<4xi32>>
// CHECK-NEXT:     func.return %r_1 : tensor<4xi8>
// CHECK-NEXT:   }
// CHECK-NEXT: }
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %pm (hlo.all_reduce): a convert tensor<4xi32> -> tensor<4xi8> is not monotone: it does not commute with maximum
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// JAX pmean: acc + AR(x) / broadcast(8): the divisor is replicated; moved, the divide stays in the body.
builtin.module @pmean_divide attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x0: tensor<4xf32>, %x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x0, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
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
      %ps = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %r = hlo.add %a, %b : tensor<f32>
        hlo.return %r : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %eight = hlo.constant dense<8.000000e+00> : tensor<f32>
      %n8 = hlo.broadcast %eight, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %mean = hlo.divide %ps, %n8 : tensor<4xf32>
      %acc1 = hlo.add %acc, %mean : tensor<4xf32>
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    func.return %r : tensor<4xf32>
  }
}

// CHECK-LABEL: builtin.module @pmean_divide attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x0: tensor<4xf32>, %x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
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
// CHECK-NEXT:       %eight = hlo.constant dense<8.000000e+00> : tensor<f32>
// CHECK-NEXT:       %n8 = hlo.broadcast %eight, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:       %mean = hlo.divide %v, %n8 : tensor<4xf32>
// CHECK-NEXT:       %acc1 = hlo.add %acc, %mean : tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.all_reduce([[V3]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %r = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %r : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %r_1 = hlo.add %x0, [[V4]] : tensor<4xf32>
// CHECK-NEXT:     func.return %r_1 : tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ps (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops

// -----

// acc + AR(x) * broadcast(s) with s an entry parameter sharding={replicated} (replicated across partitions): moved.
builtin.module @scale_by_replicated_param attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x0: tensor<4xf32>, %x: tensor<4xf32>, %s: tensor<f32> {xla.sharding = #hlo.sharding<{replicated}>}) -> tensor<4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x0, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
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
      %ps = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %r = hlo.add %a, %b : tensor<f32>
        hlo.return %r : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %sb = hlo.broadcast %s, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %scaled = hlo.multiply %sb, %ps : tensor<4xf32>
      %acc1 = hlo.add %acc, %scaled : tensor<4xf32>
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    func.return %r : tensor<4xf32>
  }
}

// CHECK-LABEL: builtin.module @scale_by_replicated_param attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x0: tensor<4xf32>, %x: tensor<4xf32>, %s: tensor<f32> {xla.sharding = #hlo.sharding<{replicated}>}) -> tensor<4xf32> attributes {hlo.entry} {
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
// CHECK-NEXT:       %sb = hlo.broadcast %s, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:       %scaled = hlo.multiply %sb, %v : tensor<4xf32>
// CHECK-NEXT:       %acc1 = hlo.add %acc, %scaled : tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.all_reduce([[V3]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %r = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %r : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %r_1 = hlo.add %x0, [[V4]] : tensor<4xf32>
// CHECK-NEXT:     func.return %r_1 : tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ps (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops

// -----

// acc + AR(x) * broadcast(convert(partition_id)): the factor differs per device; kept.
builtin.module @scale_by_partition_dependent attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x0: tensor<4xf32>, %x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x0, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
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
      %ps = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %r = hlo.add %a, %b : tensor<f32>
        hlo.return %r : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %pid = hlo.partition_id : tensor<ui32>
      %pf = hlo.convert %pid : tensor<ui32> -> tensor<f32>
      %pb = hlo.broadcast %pf, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %scaled = hlo.multiply %ps, %pb : tensor<4xf32>
      %acc1 = hlo.add %acc, %scaled : tensor<4xf32>
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    func.return %r : tensor<4xf32>
  }
}

// CHECK-LABEL: builtin.module @scale_by_partition_dependent attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x0: tensor<4xf32>, %x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x0, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
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
// CHECK-NEXT:       %ps = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %r = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %r : tensor<f32>
// CHECK-NEXT:       } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:       %pid = hlo.partition_id : tensor<ui32>
// CHECK-NEXT:       %pf = hlo.convert %pid : tensor<ui32> -> tensor<f32>
// CHECK-NEXT:       %pb = hlo.broadcast %pf, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:       %scaled = hlo.multiply %ps, %pb : tensor<4xf32>
// CHECK-NEXT:       %acc1 = hlo.add %acc, %scaled : tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r_1 = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     func.return %r_1 : tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ps (hlo.all_reduce): scale factor is not replicated within the replica groups
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// acc + AR(g) * broadcast(AR_s(c)) (openxla/xla#42006): the scalar all-reduce is replicated, so AR(g) moves; the scalar one is a factor, not an accumulation, and stays.
builtin.module @scale_by_scalar_all_reduce attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x0: tensor<4xf32>, %x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x0, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
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
      %cnt = hlo.constant dense<1.000000e+00> : tensor<f32>
      %sc = hlo.all_reduce(%cnt) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %r = hlo.add %a, %b : tensor<f32>
        hlo.return %r : tensor<f32>
      } : (tensor<f32>) -> tensor<f32>
      %g = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %r = hlo.add %a, %b : tensor<f32>
        hlo.return %r : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %sb = hlo.broadcast %sc, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %scaled = hlo.multiply %g, %sb : tensor<4xf32>
      %acc1 = hlo.add %acc, %scaled : tensor<4xf32>
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    func.return %r : tensor<4xf32>
  }
}

// CHECK-LABEL: builtin.module @scale_by_scalar_all_reduce attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x0: tensor<4xf32>, %x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
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
// CHECK-NEXT:       %cnt = hlo.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:       %sc = hlo.all_reduce(%cnt) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %r = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %r : tensor<f32>
// CHECK-NEXT:       } : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:       %sb = hlo.broadcast %sc, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:       %scaled = hlo.multiply %v, %sb : tensor<4xf32>
// CHECK-NEXT:       %acc1 = hlo.add %acc, %scaled : tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.all_reduce([[V3]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a_1: tensor<f32>, %b_1: tensor<f32>):
// CHECK-NEXT:       %r_1 = hlo.add %a_1, %b_1 : tensor<f32>
// CHECK-NEXT:       hlo.return %r_1 : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %r_2 = hlo.add %x0, [[V4]] : tensor<4xf32>
// CHECK-NEXT:     func.return %r_2 : tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %sc (hlo.all_reduce): the collective's result is multiplied by a value that is not a scalar
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %g (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops

// -----

// lax.cond(i % 2 == 0, acc + psum(g), acc) in a scan: the branch index (from the counter) is replicated; the accumulation is split out of the conditional and moved out of the loop.
builtin.module @cond_replicated_index attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x0: tensor<4xf32>, %x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x0, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
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
      %two = hlo.constant dense<2> : tensor<i32>
      %rem = hlo.remainder %i, %two : tensor<i32>
      %zero = hlo.constant dense<0> : tensor<i32>
      %even = hlo.compare EQ, %rem, %zero : tensor<i32> -> tensor<i1>
      %idx = hlo.convert %even : tensor<i1> -> tensor<i32>
      %pair = hlo.tuple %v, %acc : tuple<tensor<4xf32>, tensor<4xf32>>
      %acc1 = hlo.conditional(%idx) (%acc, %pair) : (tensor<i32>, tensor<4xf32>, tuple<tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32> {
      ^bb0(%p0: tensor<4xf32>):
        hlo.return %p0 : tensor<4xf32>
      }, {
      ^bb0(%p1: tuple<tensor<4xf32>, tensor<4xf32>>):
        %g = hlo.get_tuple_element %p1[0] : tuple<tensor<4xf32>, tensor<4xf32>>
        %old = hlo.get_tuple_element %p1[1] : tuple<tensor<4xf32>, tensor<4xf32>>
        %sum = hlo.all_reduce(%g) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %r = hlo.add %a, %b : tensor<f32>
        hlo.return %r : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
        %a1 = hlo.add %old, %sum : tensor<4xf32>
        hlo.return %a1 : tensor<4xf32>
      }
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    func.return %r : tensor<4xf32>
  }
}

// CHECK-LABEL: builtin.module @cond_replicated_index attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x0: tensor<4xf32>, %x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
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
// CHECK-NEXT:       [[V3:%[0-9]+]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:       [[V4:%[0-9]+]] = hlo.broadcast [[V3]], dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %two = hlo.constant dense<2> : tensor<i32>
// CHECK-NEXT:       %rem = hlo.remainder %i, %two : tensor<i32>
// CHECK-NEXT:       %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:       %even = hlo.compare EQ, %rem, %zero : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       %idx = hlo.convert %even : tensor<i1> -> tensor<i32>
// CHECK-NEXT:       %pair = hlo.tuple %v, [[V4]] : tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %acc1 = hlo.conditional(%idx) ([[V4]], %pair) : (tensor<i32>, tensor<4xf32>, tuple<tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32> {
// CHECK-NEXT:       ^bb0(%p0: tensor<4xf32>):
// CHECK-NEXT:         [[V5:%[0-9]+]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:         [[V6:%[0-9]+]] = hlo.broadcast [[V5]], dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:         hlo.return [[V6]] : tensor<4xf32>
// CHECK-NEXT:       }, {
// CHECK-NEXT:       ^bb0(%p1: tuple<tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:         %g = hlo.get_tuple_element %p1[0] : tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:         hlo.return %g : tensor<4xf32>
// CHECK-NEXT:       }
// CHECK-NEXT:       [[V7:%[0-9]+]] = hlo.add %acc, %acc1 : tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, [[V7]], %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V8:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     [[V9:%[0-9]+]] = hlo.all_reduce([[V8]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %r = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %r : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %r_1 = hlo.add %x0, [[V9]] : tensor<4xf32>
// CHECK-NEXT:     func.return %r_1 : tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %sum (hlo.all_reduce): split out of a conditional with a replicated branch index
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %sum (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops

// -----

// The branch index depends on partition_id: not split; the all-reduce stays (remark: inside conditional).
builtin.module @cond_partition_dependent_index attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x0: tensor<4xf32>, %x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x0, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
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
      %pid = hlo.partition_id : tensor<ui32>
      %p32 = hlo.convert %pid : tensor<ui32> -> tensor<i32>
      %two = hlo.constant dense<2> : tensor<i32>
      %idx = hlo.remainder %p32, %two : tensor<i32>
      %pair = hlo.tuple %v, %acc : tuple<tensor<4xf32>, tensor<4xf32>>
      %acc1 = hlo.conditional(%idx) (%acc, %pair) : (tensor<i32>, tensor<4xf32>, tuple<tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32> {
      ^bb0(%p0: tensor<4xf32>):
        hlo.return %p0 : tensor<4xf32>
      }, {
      ^bb0(%p1: tuple<tensor<4xf32>, tensor<4xf32>>):
        %g = hlo.get_tuple_element %p1[0] : tuple<tensor<4xf32>, tensor<4xf32>>
        %old = hlo.get_tuple_element %p1[1] : tuple<tensor<4xf32>, tensor<4xf32>>
        %sum = hlo.all_reduce(%g) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %r = hlo.add %a, %b : tensor<f32>
        hlo.return %r : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
        %a1 = hlo.add %old, %sum : tensor<4xf32>
        hlo.return %a1 : tensor<4xf32>
      }
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    func.return %r : tensor<4xf32>
  }
}

// CHECK-LABEL: builtin.module @cond_partition_dependent_index attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x0: tensor<4xf32>, %x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x0, %x : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
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
// CHECK-NEXT:       %pid = hlo.partition_id : tensor<ui32>
// CHECK-NEXT:       %p32 = hlo.convert %pid : tensor<ui32> -> tensor<i32>
// CHECK-NEXT:       %two = hlo.constant dense<2> : tensor<i32>
// CHECK-NEXT:       %idx = hlo.remainder %p32, %two : tensor<i32>
// CHECK-NEXT:       %pair = hlo.tuple %v, %acc : tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %acc1 = hlo.conditional(%idx) (%acc, %pair) : (tensor<i32>, tensor<4xf32>, tuple<tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32> {
// CHECK-NEXT:       ^bb0(%p0: tensor<4xf32>):
// CHECK-NEXT:         hlo.return %p0 : tensor<4xf32>
// CHECK-NEXT:       }, {
// CHECK-NEXT:       ^bb0(%p1: tuple<tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:         %g = hlo.get_tuple_element %p1[0] : tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:         %old = hlo.get_tuple_element %p1[1] : tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:         %sum = hlo.all_reduce(%g) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:         ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:           %r = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:           hlo.return %r : tensor<f32>
// CHECK-NEXT:         } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:         %a1 = hlo.add %old, %sum : tensor<4xf32>
// CHECK-NEXT:         hlo.return %a1 : tensor<4xf32>
// CHECK-NEXT:       }
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r_1 = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     func.return %r_1 : tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %sum (hlo.all_reduce): inside conditional in the loop body: not moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops


// -----

// lax.cond(i % 2 == 0, acc + psum(g), acc) in a while_loop whose condition also reads acc (it stops once acc is large): not split, the all-reduce stays (remark: inside conditional).
builtin.module @cond_condition_reads_buffer attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x0: tensor<f32>, %x: tensor<f32>) -> tensor<f32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x0, %x : tuple<tensor<i32>, tensor<f32>, tensor<f32>>
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
      %two = hlo.constant dense<2> : tensor<i32>
      %rem = hlo.remainder %i, %two : tensor<i32>
      %zero = hlo.constant dense<0> : tensor<i32>
      %even = hlo.compare EQ, %rem, %zero : tensor<i32> -> tensor<i1>
      %idx = hlo.convert %even : tensor<i1> -> tensor<i32>
      %pair = hlo.tuple %v, %acc : tuple<tensor<f32>, tensor<f32>>
      %acc1 = hlo.conditional(%idx) (%acc, %pair) : (tensor<i32>, tensor<f32>, tuple<tensor<f32>, tensor<f32>>) -> tensor<f32> {
      ^bb0(%p0: tensor<f32>):
        hlo.return %p0 : tensor<f32>
      }, {
      ^bb0(%p1: tuple<tensor<f32>, tensor<f32>>):
        %g = hlo.get_tuple_element %p1[0] : tuple<tensor<f32>, tensor<f32>>
        %old = hlo.get_tuple_element %p1[1] : tuple<tensor<f32>, tensor<f32>>
        %sum = hlo.all_reduce(%g) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %r = hlo.add %a, %b : tensor<f32>
        hlo.return %r : tensor<f32>
      } : (tensor<f32>) -> tensor<f32>
        %a1 = hlo.add %old, %sum : tensor<f32>
        hlo.return %a1 : tensor<f32>
      }
      %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<f32>, tensor<f32>>
      hlo.return %next : tuple<tensor<i32>, tensor<f32>, tensor<f32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<f32>, tensor<f32>>
    func.return %r : tensor<f32>
  }
}

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %sum (hlo.all_reduce): inside conditional in the loop body: not moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// CHECK-LABEL: builtin.module @cond_condition_reads_buffer attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x0: tensor<f32>, %x: tensor<f32>) -> tensor<f32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x0, %x : tuple<tensor<i32>, tensor<f32>, tensor<f32>>
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
// CHECK-NEXT:       %two = hlo.constant dense<2> : tensor<i32>
// CHECK-NEXT:       %rem = hlo.remainder %i, %two : tensor<i32>
// CHECK-NEXT:       %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:       %even = hlo.compare EQ, %rem, %zero : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       %idx = hlo.convert %even : tensor<i1> -> tensor<i32>
// CHECK-NEXT:       %pair = hlo.tuple %v, %acc : tuple<tensor<f32>, tensor<f32>>
// CHECK-NEXT:       %acc1 = hlo.conditional(%idx) (%acc, %pair) : (tensor<i32>, tensor<f32>, tuple<tensor<f32>, tensor<f32>>) -> tensor<f32> {
// CHECK-NEXT:       ^bb0(%p0: tensor<f32>):
// CHECK-NEXT:         hlo.return %p0 : tensor<f32>
// CHECK-NEXT:       }, {
// CHECK-NEXT:       ^bb0(%p1: tuple<tensor<f32>, tensor<f32>>):
// CHECK-NEXT:         %g = hlo.get_tuple_element %p1[0] : tuple<tensor<f32>, tensor<f32>>
// CHECK-NEXT:         %old = hlo.get_tuple_element %p1[1] : tuple<tensor<f32>, tensor<f32>>
// CHECK-NEXT:         %sum = hlo.all_reduce(%g) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:         ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:           %r = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:           hlo.return %r : tensor<f32>
// CHECK-NEXT:         } : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:         %a1 = hlo.add %old, %sum : tensor<f32>
// CHECK-NEXT:         hlo.return %a1 : tensor<f32>
// CHECK-NEXT:       }
// CHECK-NEXT:       %next = hlo.tuple %i1, %acc1, %v : tuple<tensor<i32>, tensor<f32>, tensor<f32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<f32>, tensor<f32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r_1 = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<f32>, tensor<f32>>
// CHECK-NEXT:     func.return %r_1 : tensor<f32>
// CHECK-NEXT:   }
// CHECK-NEXT: }
