// RUN: neuron-opt %s --split-input-file -p hlo-dce,neuron-default-pipeline | filecheck %s
// RUN: neuron-opt %s --split-input-file -p 'hlo-dce,neuron-default-pipeline{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// neuron-default-pipeline end to end, one case per pass it runs: an all-reduce accumulation
// (examples/grad_accum.mlir, whose dead uses hlo-dce removes first, as `make demo` does), a carried all-gather, a reduce-scatter stacked by DUS, and a
// tuple-shaped all-reduce that every pass leaves in its loop.

// Gradient accumulation over 4 microbatches on 8 partitions (one program per partition, as
// XLA's SPMD partitioner emits it). Each iteration computes a local gradient and all-reduces
// it across every partition, accumulating into slot 1 of the loop-carried tuple. This is the
// shape neuron-while-loop-all-reduce-code-motion rewrites (one all-reduce after the loop).
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<4x16xf32>, %w: tensor<16x8xf32>) -> tensor<16x8xf32> attributes {hlo.entry} {
    %zero = hlo.constant dense<0.000000e+00> : tensor<16x8xf32>
    %i0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %i0, %zero, %x, %w : tuple<tensor<i32>, tensor<16x8xf32>, tensor<4x16xf32>, tensor<16x8xf32>>
    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<16x8xf32>, tensor<4x16xf32>, tensor<16x8xf32>> condition {
    ^bb0(%s: tuple<tensor<i32>, tensor<16x8xf32>, tensor<4x16xf32>, tensor<16x8xf32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<16x8xf32>, tensor<4x16xf32>, tensor<16x8xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
      hlo.return %p : tensor<i1>
    } body {
    ^bb0(%s: tuple<tensor<i32>, tensor<16x8xf32>, tensor<4x16xf32>, tensor<16x8xf32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<16x8xf32>, tensor<4x16xf32>, tensor<16x8xf32>>
      %acc = hlo.get_tuple_element %s[1] : tuple<tensor<i32>, tensor<16x8xf32>, tensor<4x16xf32>, tensor<16x8xf32>>
      %xs = hlo.get_tuple_element %s[2] : tuple<tensor<i32>, tensor<16x8xf32>, tensor<4x16xf32>, tensor<16x8xf32>>
      %ws = hlo.get_tuple_element %s[3] : tuple<tensor<i32>, tensor<16x8xf32>, tensor<4x16xf32>, tensor<16x8xf32>>
      %xt = hlo.transpose %xs, dims = [1, 0] : (tensor<4x16xf32>) -> tensor<16x4xf32>
      %grad = hlo.dot %xt, %xs lhs_contracting = [1], rhs_contracting = [0] : (tensor<16x4xf32>, tensor<4x16xf32>) -> tensor<16x16xf32>
      %g = hlo.slice %grad, start = [0, 0], limit = [16, 8], strides = [1, 1] : (tensor<16x16xf32>) -> tensor<16x8xf32>
      %scaled = hlo.multiply %g, %ws : tensor<16x8xf32>
      %sum = hlo.all_reduce(%scaled) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %c = hlo.add %a, %b : tensor<f32>
        hlo.return %c : tensor<f32>
      } : (tensor<16x8xf32>) -> tensor<16x8xf32>
      %acc2 = hlo.add %acc, %sum : tensor<16x8xf32>
      %one = hlo.constant dense<1> : tensor<i32>
      %i2 = hlo.add %i, %one : tensor<i32>
      %unused = hlo.multiply %acc2, %acc2 : tensor<16x8xf32>
      %next = hlo.tuple %i2, %acc2, %xs, %ws : tuple<tensor<i32>, tensor<16x8xf32>, tensor<4x16xf32>, tensor<16x8xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<16x8xf32>, tensor<4x16xf32>, tensor<16x8xf32>>
    }
    %result = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16x8xf32>, tensor<4x16xf32>, tensor<16x8xf32>>
    func.return %result : tensor<16x8xf32>
  }
}

// REMARK: remark: neuron-while-loop-all-reduce-code-motion: %sum (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// CHECK-LABEL: builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<4x16xf32>, %w: tensor<16x8xf32>) -> tensor<16x8xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %zero = hlo.constant dense<0.000000e+00> : tensor<16x8xf32>
// CHECK-NEXT:     %i0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.broadcast [[V0]], dims = [] : (tensor<f32>) -> tensor<16x8xf32>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.tuple %i0, [[V1]], %x, %w : tuple<tensor<i32>, tensor<16x8xf32>, tensor<4x16xf32>, tensor<16x8xf32>>
// CHECK-NEXT:     %loop = hlo.while([[V2]]) : tuple<tensor<i32>, tensor<16x8xf32>, tensor<4x16xf32>, tensor<16x8xf32>> condition {
// CHECK-NEXT:     ^bb0(%s: tuple<tensor<i32>, tensor<16x8xf32>, tensor<4x16xf32>, tensor<16x8xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<16x8xf32>, tensor<4x16xf32>, tensor<16x8xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %p : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%s_1: tuple<tensor<i32>, tensor<16x8xf32>, tensor<4x16xf32>, tensor<16x8xf32>>):
// CHECK-NEXT:       %i_1 = hlo.get_tuple_element %s_1[0] : tuple<tensor<i32>, tensor<16x8xf32>, tensor<4x16xf32>, tensor<16x8xf32>>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %s_1[1] : tuple<tensor<i32>, tensor<16x8xf32>, tensor<4x16xf32>, tensor<16x8xf32>>
// CHECK-NEXT:       %xs = hlo.get_tuple_element %s_1[2] : tuple<tensor<i32>, tensor<16x8xf32>, tensor<4x16xf32>, tensor<16x8xf32>>
// CHECK-NEXT:       %ws = hlo.get_tuple_element %s_1[3] : tuple<tensor<i32>, tensor<16x8xf32>, tensor<4x16xf32>, tensor<16x8xf32>>
// CHECK-NEXT:       %xt = hlo.transpose %xs, dims = [1, 0] : (tensor<4x16xf32>) -> tensor<16x4xf32>
// CHECK-NEXT:       %grad = hlo.dot %xt, %xs lhs_contracting = [1], rhs_contracting = [0] : (tensor<16x4xf32>, tensor<4x16xf32>) -> tensor<16x16xf32>
// CHECK-NEXT:       %g = hlo.slice %grad, start = [0, 0], limit = [16, 8], strides = [1, 1] : (tensor<16x16xf32>) -> tensor<16x8xf32>
// CHECK-NEXT:       %scaled = hlo.multiply %g, %ws : tensor<16x8xf32>
// CHECK-NEXT:       %acc2 = hlo.add %acc, %scaled : tensor<16x8xf32>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i2 = hlo.add %i_1, %one : tensor<i32>
// CHECK-NEXT:       %next = hlo.tuple %i2, %acc2, %xs, %ws : tuple<tensor<i32>, tensor<16x8xf32>, tensor<4x16xf32>, tensor<16x8xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16x8xf32>, tensor<4x16xf32>, tensor<16x8xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16x8xf32>, tensor<4x16xf32>, tensor<16x8xf32>>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.all_reduce([[V3]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %c = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %c : tensor<f32>
// CHECK-NEXT:     } : (tensor<16x8xf32>) -> tensor<16x8xf32>
// CHECK-NEXT:     %result = hlo.add %zero, [[V4]] : tensor<16x8xf32>
// CHECK-NEXT:     func.return %result : tensor<16x8xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// The FSDP pattern: slot 2 (the weight shard) is passed through unchanged and gathered every
// iteration. The gather runs once before the loop, slot 2 carries the gathered value, and the
// read of slot 2 after the loop gets the original (un-gathered) init value.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @simple(%w0: tensor<2xf32>, %a0: tensor<16xf32>) -> tuple<tensor<16xf32>, tensor<2xf32>> {
    %zero = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %zero, %a0, %w0 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>> condition {
    ^bb0(%c: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>):
      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      %n = hlo.constant dense<3> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%p: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>):
      %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %acc = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      %w = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      %ag = hlo.all_gather(%w) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
      %acc1 = hlo.add %acc, %ag : tensor<16xf32>
      %t = hlo.tuple %i1, %acc1, %w : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      hlo.return %t : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    }
    %r = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    %wf = hlo.get_tuple_element %loop[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    %out = hlo.tuple %r, %wf : tuple<tensor<16xf32>, tensor<2xf32>>
    func.return %out : tuple<tensor<16xf32>, tensor<2xf32>>
  }
}

// REMARK: remark: neuron-while-loop-all-reduce-code-motion: %ag (hlo.all_gather): all_gather is not a reduction: never moved by this pass
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// REMARK-NEXT: remark: neuron-move-all-gather-while-loop: %ag (hlo.all_gather): moved
// CHECK-LABEL: builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @simple(%w0: tensor<2xf32>, %a0: tensor<16xf32>) -> tuple<tensor<16xf32>, tensor<2xf32>> {
// CHECK-NEXT:     %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %ag = hlo.all_gather(%w0) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
// CHECK-NEXT:     %init = hlo.tuple %zero, %a0, %ag : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:     ^bb0(%c: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<3> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%p: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %acc = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %w = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %acc1 = hlo.add %acc, %w : tensor<16xf32>
// CHECK-NEXT:       %t = hlo.tuple %i1, %acc1, %w : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       hlo.return %t : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     %out = hlo.tuple %r, %w0 : tuple<tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:     func.return %out : tuple<tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// A reduce_scatter whose result is reshaped to a leading 1 and stored in row i: the body
// stores the un-scattered operand in a [4, 16] buffer; ONE reduce_scatter (dimension 0 -> 1)
// after the loop, with a fresh channel id.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @rs_reshape(%x: tensor<4x16xf32>) -> tensor<4x2xf32> {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %buf0 = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
    %init = hlo.tuple %c0, %buf0, %x : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>> condition {
    ^bb0(%s: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
      hlo.return %p : tensor<i1>
    } body {
    ^bb0(%s: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
      %buf = hlo.get_tuple_element %s[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
      %xs = hlo.get_tuple_element %s[2] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
      %zero = hlo.constant dense<0> : tensor<i32>
      %one = hlo.constant dense<1> : tensor<i32>
      %slice = hlo.dynamic_slice %xs at [%i, %zero] sizes = [1, 16] : (tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
      %v = hlo.reshape %slice : (tensor<1x16xf32>) -> tensor<16xf32>
      %rs = hlo.reduce_scatter(%v) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %sum = hlo.add %a, %b : tensor<f32>
        hlo.return %sum : tensor<f32>
      } : (tensor<16xf32>) -> tensor<2xf32>
      %row = hlo.reshape %rs : (tensor<2xf32>) -> tensor<1x2xf32>
      %buf2 = hlo.dynamic_update_slice %buf, %row at [%i, %zero] : (tensor<4x2xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x2xf32>
      %i2 = hlo.add %i, %one : tensor<i32>
      %r = hlo.tuple %i2, %buf2, %xs : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
      hlo.return %r : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
    }
    %out = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
    func.return %out : tensor<4x2xf32>
  }
}

// REMARK: remark: neuron-while-loop-all-reduce-code-motion: %rs (hlo.reduce_scatter): unsupported operation on the collective's result: reshape
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// REMARK-NEXT: remark: neuron-move-reduce-scatter-while-loop: %rs (hlo.reduce_scatter): moved
// CHECK-LABEL: builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @rs_reshape(%x: tensor<4x16xf32>) -> tensor<4x2xf32> {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %rs_zero = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     %rs_init = hlo.broadcast %rs_zero, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %rs_init, %x : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>> condition {
// CHECK-NEXT:     ^bb0(%s: tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %p : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%s_1: tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>):
// CHECK-NEXT:       %i_1 = hlo.get_tuple_element %s_1[0] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:       %xs = hlo.get_tuple_element %s_1[2] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:       %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %slice = hlo.dynamic_slice %xs at [%i_1, %zero] sizes = [1, 16] : (tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
// CHECK-NEXT:       %v = hlo.reshape %slice : (tensor<1x16xf32>) -> tensor<16xf32>
// CHECK-NEXT:       %buf = hlo.get_tuple_element %s_1[1] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:       %rs_row = hlo.reshape %v : (tensor<16xf32>) -> tensor<1x16xf32>
// CHECK-NEXT:       %buf2 = hlo.dynamic_update_slice %buf, %rs_row at [%i_1, %zero] : (tensor<4x16xf32>, tensor<1x16xf32>, tensor<i32>, tensor<i32>) -> tensor<4x16xf32>
// CHECK-NEXT:       %i2 = hlo.add %i_1, %one : tensor<i32>
// CHECK-NEXT:       %r = hlo.tuple %i2, %buf2, %xs : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:       hlo.return %r : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %rs_stacked = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:     %rs = hlo.reduce_scatter(%rs_stacked) dim = 1 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %sum = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %sum : tensor<f32>
// CHECK-NEXT:     } : (tensor<4x16xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:     func.return %rs : tensor<4x2xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

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

// REMARK: remark: neuron-while-loop-all-reduce-code-motion: %pair (hlo.all_reduce): tuple-shaped collectives are not moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// REMARK-NEXT: remark: neuron-move-reduce-scatter-while-loop: %pair (hlo.all_reduce): collective has several operands (tuple-shaped)
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
