// RUN: neuron-opt %s --split-input-file -p neuron-move-reduce-scatter-while-loop | filecheck %s
// RUN: neuron-opt %s --split-input-file -p 'neuron-move-reduce-scatter-while-loop{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK
// RUN: neuron-opt %s --split-input-file -p neuron-move-reduce-scatter-while-loop 2>&1 >/dev/null | filecheck %s --check-prefix=QUIET --allow-empty

// QUIET-NOT: remark

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

// CHECK-LABEL: func.func @rs_reshape(%x: tensor<4x16xf32>) -> tensor<4x2xf32> {
// CHECK-NEXT:      %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:      %rs_zero = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:      %rs_init = hlo.broadcast %rs_zero, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
// CHECK-NEXT:      %init = hlo.tuple %c0, %rs_init, %x : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>> condition {
// CHECK-NEXT:      ^bb0(%s: tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>):
// CHECK-NEXT:        %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:        %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:        hlo.return %p : tensor<i1>
// CHECK-NEXT:      } body {
// CHECK-NEXT:      ^bb0(%s_1: tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>):
// CHECK-NEXT:        %i_1 = hlo.get_tuple_element %s_1[0] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %xs = hlo.get_tuple_element %s_1[2] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:        %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:        %slice = hlo.dynamic_slice %xs at [%i_1, %zero] sizes = [1, 16] : (tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
// CHECK-NEXT:        %v = hlo.reshape %slice : (tensor<1x16xf32>) -> tensor<16xf32>
// CHECK-NEXT:        %buf = hlo.get_tuple_element %s_1[1] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %rs_row = hlo.reshape %v : (tensor<16xf32>) -> tensor<1x16xf32>
// CHECK-NEXT:        %buf2 = hlo.dynamic_update_slice %buf, %rs_row at [%i_1, %zero] : (tensor<4x16xf32>, tensor<1x16xf32>, tensor<i32>, tensor<i32>) -> tensor<4x16xf32>
// CHECK-NEXT:        %i2 = hlo.add %i_1, %one : tensor<i32>
// CHECK-NEXT:        %r = hlo.tuple %i2, %buf2, %xs : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        hlo.return %r : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      }
// CHECK-NEXT:      %rs_stacked = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      %rs = hlo.reduce_scatter(%rs_stacked) dim = 1 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:        %sum = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:        hlo.return %sum : tensor<f32>
// CHECK-NEXT:      } : (tensor<4x16xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:      func.return %rs : tensor<4x2xf32>
// CHECK-NEXT:    }
// REMARK: remark: neuron-move-reduce-scatter-while-loop: %rs (hlo.reduce_scatter): moved

// -----

// An all_reduce of a [1, 16] row stored directly (no reshape): the buffer keeps its type, the
// body stores the operand, one all_reduce after the loop. No channel id before, none after.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @ar_direct(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %buf0 = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %init = hlo.tuple %c0, %buf0, %x : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>> condition {
    ^bb0(%s: tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
      hlo.return %p : tensor<i1>
    } body {
    ^bb0(%s: tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
      %buf = hlo.get_tuple_element %s[1] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
      %xs = hlo.get_tuple_element %s[2] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
      %zero = hlo.constant dense<0> : tensor<i32>
      %one = hlo.constant dense<1> : tensor<i32>
      %slice = hlo.dynamic_slice %xs at [%i, %zero] sizes = [1, 16] : (tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
      %sq = hlo.multiply %slice, %slice : tensor<1x16xf32>
      %ar = hlo.all_reduce(%sq) replica_groups = [[0]] {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %sum = hlo.add %a, %b : tensor<f32>
        hlo.return %sum : tensor<f32>
      } : (tensor<1x16xf32>) -> tensor<1x16xf32>
      %buf2 = hlo.dynamic_update_slice %buf, %ar at [%i, %zero] : (tensor<4x16xf32>, tensor<1x16xf32>, tensor<i32>, tensor<i32>) -> tensor<4x16xf32>
      %i2 = hlo.add %i, %one : tensor<i32>
      %r = hlo.tuple %i2, %buf2, %xs : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
      hlo.return %r : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
    }
    %out = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
    func.return %out : tensor<4x16xf32>
  }
}

// CHECK-LABEL: func.func @ar_direct(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
// CHECK-NEXT:      %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:      %ar_zero = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:      %ar_init = hlo.broadcast %ar_zero, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
// CHECK-NEXT:      %init = hlo.tuple %c0, %ar_init, %x : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>> condition {
// CHECK-NEXT:      ^bb0(%s: tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>):
// CHECK-NEXT:        %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:        %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:        hlo.return %p : tensor<i1>
// CHECK-NEXT:      } body {
// CHECK-NEXT:      ^bb0(%s_1: tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>):
// CHECK-NEXT:        %i_1 = hlo.get_tuple_element %s_1[0] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %xs = hlo.get_tuple_element %s_1[2] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:        %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:        %slice = hlo.dynamic_slice %xs at [%i_1, %zero] sizes = [1, 16] : (tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
// CHECK-NEXT:        %sq = hlo.multiply %slice, %slice : tensor<1x16xf32>
// CHECK-NEXT:        %buf = hlo.get_tuple_element %s_1[1] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %buf2 = hlo.dynamic_update_slice %buf, %sq at [%i_1, %zero] : (tensor<4x16xf32>, tensor<1x16xf32>, tensor<i32>, tensor<i32>) -> tensor<4x16xf32>
// CHECK-NEXT:        %i2 = hlo.add %i_1, %one : tensor<i32>
// CHECK-NEXT:        %r = hlo.tuple %i2, %buf2, %xs : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        hlo.return %r : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      }
// CHECK-NEXT:      %ar_stacked = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      %ar = hlo.all_reduce(%ar_stacked) replica_groups = [[0]] {
// CHECK-NEXT:      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:        %sum = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:        hlo.return %sum : tensor<f32>
// CHECK-NEXT:      } : (tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:      func.return %ar : tensor<4x16xf32>
// CHECK-NEXT:    }
// REMARK-NEXT: remark: neuron-move-reduce-scatter-while-loop: %ar (hlo.all_reduce): moved

// -----

// A bf16 all_reduce (maximum: any reduction is elementwise, so stacking is exact) reshaped to a
// leading 1: moved, still bf16 and maximum after the loop, with channel id 4 (3 + 1).
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @ar_reshape_bf16(%x: tensor<4x16xbf16>) -> tensor<4x16xbf16> {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<bf16>
    %buf0 = hlo.broadcast %f0, dims = [] : (tensor<bf16>) -> tensor<4x16xbf16>
    %init = hlo.tuple %c0, %buf0, %x : tuple<tensor<i32>, tensor<4x16xbf16>, tensor<4x16xbf16>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x16xbf16>, tensor<4x16xbf16>> condition {
    ^bb0(%s: tuple<tensor<i32>, tensor<4x16xbf16>, tensor<4x16xbf16>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x16xbf16>, tensor<4x16xbf16>>
      %n = hlo.constant dense<4> : tensor<i32>
      %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
      hlo.return %p : tensor<i1>
    } body {
    ^bb0(%s: tuple<tensor<i32>, tensor<4x16xbf16>, tensor<4x16xbf16>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x16xbf16>, tensor<4x16xbf16>>
      %buf = hlo.get_tuple_element %s[1] : tuple<tensor<i32>, tensor<4x16xbf16>, tensor<4x16xbf16>>
      %xs = hlo.get_tuple_element %s[2] : tuple<tensor<i32>, tensor<4x16xbf16>, tensor<4x16xbf16>>
      %zero = hlo.constant dense<0> : tensor<i32>
      %one = hlo.constant dense<1> : tensor<i32>
      %slice = hlo.dynamic_slice %xs at [%i, %zero] sizes = [1, 16] : (tensor<4x16xbf16>, tensor<i32>, tensor<i32>) -> tensor<1x16xbf16>
      %v = hlo.reshape %slice : (tensor<1x16xbf16>) -> tensor<16xbf16>
      %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3], [4, 5, 6, 7]] channel_id = 3 use_global_device_ids {
      ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
        %m = hlo.maximum %a, %b : tensor<bf16>
        hlo.return %m : tensor<bf16>
      } : (tensor<16xbf16>) -> tensor<16xbf16>
      %row = hlo.reshape %ar : (tensor<16xbf16>) -> tensor<1x16xbf16>
      %buf2 = hlo.dynamic_update_slice %buf, %row at [%i, %zero] : (tensor<4x16xbf16>, tensor<1x16xbf16>, tensor<i32>, tensor<i32>) -> tensor<4x16xbf16>
      %i2 = hlo.add %i, %one : tensor<i32>
      %r = hlo.tuple %i2, %buf2, %xs : tuple<tensor<i32>, tensor<4x16xbf16>, tensor<4x16xbf16>>
      hlo.return %r : tuple<tensor<i32>, tensor<4x16xbf16>, tensor<4x16xbf16>>
    }
    %out = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x16xbf16>, tensor<4x16xbf16>>
    func.return %out : tensor<4x16xbf16>
  }
}

// CHECK-LABEL: func.func @ar_reshape_bf16(%x: tensor<4x16xbf16>) -> tensor<4x16xbf16> {
// CHECK-NEXT:      %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:      %ar_zero = hlo.constant dense<0.000000e+00> : tensor<bf16>
// CHECK-NEXT:      %ar_init = hlo.broadcast %ar_zero, dims = [] : (tensor<bf16>) -> tensor<4x16xbf16>
// CHECK-NEXT:      %init = hlo.tuple %c0, %ar_init, %x : tuple<tensor<i32>, tensor<4x16xbf16>, tensor<4x16xbf16>>
// CHECK-NEXT:      %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x16xbf16>, tensor<4x16xbf16>> condition {
// CHECK-NEXT:      ^bb0(%s: tuple<tensor<i32>, tensor<4x16xbf16>, tensor<4x16xbf16>>):
// CHECK-NEXT:        %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x16xbf16>, tensor<4x16xbf16>>
// CHECK-NEXT:        %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:        %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:        hlo.return %p : tensor<i1>
// CHECK-NEXT:      } body {
// CHECK-NEXT:      ^bb0(%s_1: tuple<tensor<i32>, tensor<4x16xbf16>, tensor<4x16xbf16>>):
// CHECK-NEXT:        %i_1 = hlo.get_tuple_element %s_1[0] : tuple<tensor<i32>, tensor<4x16xbf16>, tensor<4x16xbf16>>
// CHECK-NEXT:        %xs = hlo.get_tuple_element %s_1[2] : tuple<tensor<i32>, tensor<4x16xbf16>, tensor<4x16xbf16>>
// CHECK-NEXT:        %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:        %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:        %slice = hlo.dynamic_slice %xs at [%i_1, %zero] sizes = [1, 16] : (tensor<4x16xbf16>, tensor<i32>, tensor<i32>) -> tensor<1x16xbf16>
// CHECK-NEXT:        %v = hlo.reshape %slice : (tensor<1x16xbf16>) -> tensor<16xbf16>
// CHECK-NEXT:        %buf = hlo.get_tuple_element %s_1[1] : tuple<tensor<i32>, tensor<4x16xbf16>, tensor<4x16xbf16>>
// CHECK-NEXT:        %ar_row = hlo.reshape %v : (tensor<16xbf16>) -> tensor<1x16xbf16>
// CHECK-NEXT:        %buf2 = hlo.dynamic_update_slice %buf, %ar_row at [%i_1, %zero] : (tensor<4x16xbf16>, tensor<1x16xbf16>, tensor<i32>, tensor<i32>) -> tensor<4x16xbf16>
// CHECK-NEXT:        %i2 = hlo.add %i_1, %one : tensor<i32>
// CHECK-NEXT:        %r = hlo.tuple %i2, %buf2, %xs : tuple<tensor<i32>, tensor<4x16xbf16>, tensor<4x16xbf16>>
// CHECK-NEXT:        hlo.return %r : tuple<tensor<i32>, tensor<4x16xbf16>, tensor<4x16xbf16>>
// CHECK-NEXT:      }
// CHECK-NEXT:      %ar_stacked = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x16xbf16>, tensor<4x16xbf16>>
// CHECK-NEXT:      %ar = hlo.all_reduce(%ar_stacked) replica_groups = [[0, 1, 2, 3], [4, 5, 6, 7]] channel_id = 4 use_global_device_ids {
// CHECK-NEXT:      ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
// CHECK-NEXT:        %m = hlo.maximum %a, %b : tensor<bf16>
// CHECK-NEXT:        hlo.return %m : tensor<bf16>
// CHECK-NEXT:      } : (tensor<4x16xbf16>) -> tensor<4x16xbf16>
// CHECK-NEXT:      func.return %ar : tensor<4x16xbf16>
// CHECK-NEXT:    }
// REMARK-NEXT: remark: neuron-move-reduce-scatter-while-loop: %ar (hlo.all_reduce): moved

// -----

// A reduce_scatter of a [1, 16] row along dimension 1 stored directly: the buffer becomes the
// stacked [4, 16] operand rows, the dimension stays 1. The condition is `i <= 3` (4 trips).
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @rs_direct_le(%x: tensor<4x16xf32>) -> tensor<4x2xf32> {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %buf0 = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
    %init = hlo.tuple %c0, %buf0, %x : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>> condition {
    ^bb0(%s: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
      %n = hlo.constant dense<3> : tensor<i32>
      %p = hlo.compare LE, %i, %n : tensor<i32> -> tensor<i1>
      hlo.return %p : tensor<i1>
    } body {
    ^bb0(%s: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
      %buf = hlo.get_tuple_element %s[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
      %xs = hlo.get_tuple_element %s[2] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
      %zero = hlo.constant dense<0> : tensor<i32>
      %one = hlo.constant dense<1> : tensor<i32>
      %slice = hlo.dynamic_slice %xs at [%i, %zero] sizes = [1, 16] : (tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
      %rs = hlo.reduce_scatter(%slice) dim = 1 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 5 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %sum = hlo.add %a, %b : tensor<f32>
        hlo.return %sum : tensor<f32>
      } : (tensor<1x16xf32>) -> tensor<1x2xf32>
      %buf2 = hlo.dynamic_update_slice %buf, %rs at [%i, %zero] : (tensor<4x2xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x2xf32>
      %i2 = hlo.add %i, %one : tensor<i32>
      %r = hlo.tuple %i2, %buf2, %xs : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
      hlo.return %r : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
    }
    %out = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
    func.return %out : tensor<4x2xf32>
  }
}

// CHECK-LABEL: func.func @rs_direct_le(%x: tensor<4x16xf32>) -> tensor<4x2xf32> {
// CHECK-NEXT:      %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:      %rs_zero = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:      %rs_init = hlo.broadcast %rs_zero, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
// CHECK-NEXT:      %init = hlo.tuple %c0, %rs_init, %x : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>> condition {
// CHECK-NEXT:      ^bb0(%s: tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>):
// CHECK-NEXT:        %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %n = hlo.constant dense<3> : tensor<i32>
// CHECK-NEXT:        %p = hlo.compare LE, %i, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:        hlo.return %p : tensor<i1>
// CHECK-NEXT:      } body {
// CHECK-NEXT:      ^bb0(%s_1: tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>):
// CHECK-NEXT:        %i_1 = hlo.get_tuple_element %s_1[0] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %xs = hlo.get_tuple_element %s_1[2] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:        %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:        %slice = hlo.dynamic_slice %xs at [%i_1, %zero] sizes = [1, 16] : (tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
// CHECK-NEXT:        %buf = hlo.get_tuple_element %s_1[1] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %buf2 = hlo.dynamic_update_slice %buf, %slice at [%i_1, %zero] : (tensor<4x16xf32>, tensor<1x16xf32>, tensor<i32>, tensor<i32>) -> tensor<4x16xf32>
// CHECK-NEXT:        %i2 = hlo.add %i_1, %one : tensor<i32>
// CHECK-NEXT:        %r = hlo.tuple %i2, %buf2, %xs : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        hlo.return %r : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      }
// CHECK-NEXT:      %rs_stacked = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      %rs = hlo.reduce_scatter(%rs_stacked) dim = 1 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 6 use_global_device_ids {
// CHECK-NEXT:      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:        %sum = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:        hlo.return %sum : tensor<f32>
// CHECK-NEXT:      } : (tensor<4x16xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:      func.return %rs : tensor<4x2xf32>
// CHECK-NEXT:    }
// REMARK-NEXT: remark: neuron-move-reduce-scatter-while-loop: %rs (hlo.reduce_scatter): moved

// -----

// A reduce_scatter along dimension 0 whose [1, 2] result is stored directly (the scattered
// dimension is the one stacked): the body stores the operand reshaped to [1, 8, 2], the
// reduce_scatter after the loop scatters dimension 1 and a reshape restores the [4, 2] type.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @rs_direct_dim0(%x: tensor<4x8x2xf32>) -> tensor<4x2xf32> {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %buf0 = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
    %init = hlo.tuple %c0, %buf0, %x : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x8x2xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x8x2xf32>> condition {
    ^bb0(%s: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x8x2xf32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x8x2xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
      hlo.return %p : tensor<i1>
    } body {
    ^bb0(%s: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x8x2xf32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x8x2xf32>>
      %buf = hlo.get_tuple_element %s[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x8x2xf32>>
      %xs = hlo.get_tuple_element %s[2] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x8x2xf32>>
      %zero = hlo.constant dense<0> : tensor<i32>
      %one = hlo.constant dense<1> : tensor<i32>
      %slice = hlo.dynamic_slice %xs at [%i, %zero, %zero] sizes = [1, 8, 2] : (tensor<4x8x2xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x8x2xf32>
      %v = hlo.reshape %slice : (tensor<1x8x2xf32>) -> tensor<8x2xf32>
      %rs = hlo.reduce_scatter(%v) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %sum = hlo.add %a, %b : tensor<f32>
        hlo.return %sum : tensor<f32>
      } : (tensor<8x2xf32>) -> tensor<1x2xf32>
      %buf2 = hlo.dynamic_update_slice %buf, %rs at [%i, %zero] : (tensor<4x2xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x2xf32>
      %i2 = hlo.add %i, %one : tensor<i32>
      %r = hlo.tuple %i2, %buf2, %xs : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x8x2xf32>>
      hlo.return %r : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x8x2xf32>>
    }
    %out = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x8x2xf32>>
    func.return %out : tensor<4x2xf32>
  }
}

// CHECK-LABEL: func.func @rs_direct_dim0(%x: tensor<4x8x2xf32>) -> tensor<4x2xf32> {
// CHECK-NEXT:      %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:      %rs_zero = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:      %rs_init = hlo.broadcast %rs_zero, dims = [] : (tensor<f32>) -> tensor<4x8x2xf32>
// CHECK-NEXT:      %init = hlo.tuple %c0, %rs_init, %x : tuple<tensor<i32>, tensor<4x8x2xf32>, tensor<4x8x2xf32>>
// CHECK-NEXT:      %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x8x2xf32>, tensor<4x8x2xf32>> condition {
// CHECK-NEXT:      ^bb0(%s: tuple<tensor<i32>, tensor<4x8x2xf32>, tensor<4x8x2xf32>>):
// CHECK-NEXT:        %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x8x2xf32>, tensor<4x8x2xf32>>
// CHECK-NEXT:        %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:        %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:        hlo.return %p : tensor<i1>
// CHECK-NEXT:      } body {
// CHECK-NEXT:      ^bb0(%s_1: tuple<tensor<i32>, tensor<4x8x2xf32>, tensor<4x8x2xf32>>):
// CHECK-NEXT:        %i_1 = hlo.get_tuple_element %s_1[0] : tuple<tensor<i32>, tensor<4x8x2xf32>, tensor<4x8x2xf32>>
// CHECK-NEXT:        %xs = hlo.get_tuple_element %s_1[2] : tuple<tensor<i32>, tensor<4x8x2xf32>, tensor<4x8x2xf32>>
// CHECK-NEXT:        %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:        %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:        %slice = hlo.dynamic_slice %xs at [%i_1, %zero, %zero] sizes = [1, 8, 2] : (tensor<4x8x2xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x8x2xf32>
// CHECK-NEXT:        %v = hlo.reshape %slice : (tensor<1x8x2xf32>) -> tensor<8x2xf32>
// CHECK-NEXT:        %buf = hlo.get_tuple_element %s_1[1] : tuple<tensor<i32>, tensor<4x8x2xf32>, tensor<4x8x2xf32>>
// CHECK-NEXT:        %rs_row = hlo.reshape %v : (tensor<8x2xf32>) -> tensor<1x8x2xf32>
// CHECK-NEXT:        %buf2 = hlo.dynamic_update_slice %buf, %rs_row at [%i_1, %zero, %zero] : (tensor<4x8x2xf32>, tensor<1x8x2xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x8x2xf32>
// CHECK-NEXT:        %i2 = hlo.add %i_1, %one : tensor<i32>
// CHECK-NEXT:        %r = hlo.tuple %i2, %buf2, %xs : tuple<tensor<i32>, tensor<4x8x2xf32>, tensor<4x8x2xf32>>
// CHECK-NEXT:        hlo.return %r : tuple<tensor<i32>, tensor<4x8x2xf32>, tensor<4x8x2xf32>>
// CHECK-NEXT:      }
// CHECK-NEXT:      %rs_stacked = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x8x2xf32>, tensor<4x8x2xf32>>
// CHECK-NEXT:      %rs = hlo.reduce_scatter(%rs_stacked) dim = 1 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:        %sum = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:        hlo.return %sum : tensor<f32>
// CHECK-NEXT:      } : (tensor<4x8x2xf32>) -> tensor<4x1x2xf32>
// CHECK-NEXT:      %rs_rows = hlo.reshape %rs : (tensor<4x1x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:      func.return %rs_rows : tensor<4x2xf32>
// CHECK-NEXT:    }
// REMARK-NEXT: remark: neuron-move-reduce-scatter-while-loop: %rs (hlo.reduce_scatter): moved

// -----

// A rank-1 buffer: the reduce_scatter's [1] result goes straight into row i of a [4] buffer
// (one index). The stacked [4, 8] buffer needs a second, zero index (a new constant) and the
// [4, 1] result a reshape. An integer all_reduce is sunk from the same loop (zero init in i32),
// and slot 0 is still read after the loop.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @scalar_rows(%x: tensor<4x8xf32>, %y: tensor<4x1xi32>) -> tuple<tensor<i32>, tensor<4xf32>, tensor<4x1xi32>> {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %buf0 = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %ibuf0 = hlo.broadcast %c0, dims = [] : (tensor<i32>) -> tensor<4x1xi32>
    %init = hlo.tuple %c0, %buf0, %ibuf0, %x, %y : tuple<tensor<i32>, tensor<4xf32>, tensor<4x1xi32>, tensor<4x8xf32>, tensor<4x1xi32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4x1xi32>, tensor<4x8xf32>, tensor<4x1xi32>> condition {
    ^bb0(%s: tuple<tensor<i32>, tensor<4xf32>, tensor<4x1xi32>, tensor<4x8xf32>, tensor<4x1xi32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4x1xi32>, tensor<4x8xf32>, tensor<4x1xi32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
      hlo.return %p : tensor<i1>
    } body {
    ^bb0(%s: tuple<tensor<i32>, tensor<4xf32>, tensor<4x1xi32>, tensor<4x8xf32>, tensor<4x1xi32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4x1xi32>, tensor<4x8xf32>, tensor<4x1xi32>>
      %buf = hlo.get_tuple_element %s[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4x1xi32>, tensor<4x8xf32>, tensor<4x1xi32>>
      %ibuf = hlo.get_tuple_element %s[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4x1xi32>, tensor<4x8xf32>, tensor<4x1xi32>>
      %xs = hlo.get_tuple_element %s[3] : tuple<tensor<i32>, tensor<4xf32>, tensor<4x1xi32>, tensor<4x8xf32>, tensor<4x1xi32>>
      %ys = hlo.get_tuple_element %s[4] : tuple<tensor<i32>, tensor<4xf32>, tensor<4x1xi32>, tensor<4x8xf32>, tensor<4x1xi32>>
      %zero = hlo.constant dense<0> : tensor<i32>
      %one = hlo.constant dense<1> : tensor<i32>
      %slice = hlo.dynamic_slice %xs at [%i, %zero] sizes = [1, 8] : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<1x8xf32>
      %v = hlo.reshape %slice : (tensor<1x8xf32>) -> tensor<8xf32>
      %rs = hlo.reduce_scatter(%v) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %sum = hlo.add %a, %b : tensor<f32>
        hlo.return %sum : tensor<f32>
      } : (tensor<8xf32>) -> tensor<1xf32>
      %buf2 = hlo.dynamic_update_slice %buf, %rs at [%i] : (tensor<4xf32>, tensor<1xf32>, tensor<i32>) -> tensor<4xf32>
      %yslice = hlo.dynamic_slice %ys at [%i, %zero] sizes = [1, 1] : (tensor<4x1xi32>, tensor<i32>, tensor<i32>) -> tensor<1x1xi32>
      %iar = hlo.all_reduce(%yslice) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        %isum = hlo.add %a, %b : tensor<i32>
        hlo.return %isum : tensor<i32>
      } : (tensor<1x1xi32>) -> tensor<1x1xi32>
      %ibuf2 = hlo.dynamic_update_slice %ibuf, %iar at [%i, %zero] : (tensor<4x1xi32>, tensor<1x1xi32>, tensor<i32>, tensor<i32>) -> tensor<4x1xi32>
      %i2 = hlo.add %i, %one : tensor<i32>
      %r = hlo.tuple %i2, %buf2, %ibuf2, %xs, %ys : tuple<tensor<i32>, tensor<4xf32>, tensor<4x1xi32>, tensor<4x8xf32>, tensor<4x1xi32>>
      hlo.return %r : tuple<tensor<i32>, tensor<4xf32>, tensor<4x1xi32>, tensor<4x8xf32>, tensor<4x1xi32>>
    }
    %count = hlo.get_tuple_element %w[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4x1xi32>, tensor<4x8xf32>, tensor<4x1xi32>>
    %out = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4x1xi32>, tensor<4x8xf32>, tensor<4x1xi32>>
    %iout = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4x1xi32>, tensor<4x8xf32>, tensor<4x1xi32>>
    %t = hlo.tuple %count, %out, %iout : tuple<tensor<i32>, tensor<4xf32>, tensor<4x1xi32>>
    func.return %t : tuple<tensor<i32>, tensor<4xf32>, tensor<4x1xi32>>
  }
}

// CHECK-LABEL: func.func @scalar_rows(%x: tensor<4x8xf32>, %y: tensor<4x1xi32>) -> tuple<tensor<i32>, tensor<4xf32>, tensor<4x1xi32>> {
// CHECK-NEXT:      %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:      %rs_zero = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:      %rs_init = hlo.broadcast %rs_zero, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
// CHECK-NEXT:      %iar_zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:      %iar_init = hlo.broadcast %iar_zero, dims = [] : (tensor<i32>) -> tensor<4x1xi32>
// CHECK-NEXT:      %init = hlo.tuple %c0, %rs_init, %iar_init, %x, %y : tuple<tensor<i32>, tensor<4x8xf32>, tensor<4x1xi32>, tensor<4x8xf32>, tensor<4x1xi32>>
// CHECK-NEXT:      %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x8xf32>, tensor<4x1xi32>, tensor<4x8xf32>, tensor<4x1xi32>> condition {
// CHECK-NEXT:      ^bb0(%s: tuple<tensor<i32>, tensor<4x8xf32>, tensor<4x1xi32>, tensor<4x8xf32>, tensor<4x1xi32>>):
// CHECK-NEXT:        %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x8xf32>, tensor<4x1xi32>, tensor<4x8xf32>, tensor<4x1xi32>>
// CHECK-NEXT:        %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:        %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:        hlo.return %p : tensor<i1>
// CHECK-NEXT:      } body {
// CHECK-NEXT:      ^bb0(%s_1: tuple<tensor<i32>, tensor<4x8xf32>, tensor<4x1xi32>, tensor<4x8xf32>, tensor<4x1xi32>>):
// CHECK-NEXT:        %i_1 = hlo.get_tuple_element %s_1[0] : tuple<tensor<i32>, tensor<4x8xf32>, tensor<4x1xi32>, tensor<4x8xf32>, tensor<4x1xi32>>
// CHECK-NEXT:        %xs = hlo.get_tuple_element %s_1[3] : tuple<tensor<i32>, tensor<4x8xf32>, tensor<4x1xi32>, tensor<4x8xf32>, tensor<4x1xi32>>
// CHECK-NEXT:        %ys = hlo.get_tuple_element %s_1[4] : tuple<tensor<i32>, tensor<4x8xf32>, tensor<4x1xi32>, tensor<4x8xf32>, tensor<4x1xi32>>
// CHECK-NEXT:        %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:        %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:        %slice = hlo.dynamic_slice %xs at [%i_1, %zero] sizes = [1, 8] : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<1x8xf32>
// CHECK-NEXT:        %v = hlo.reshape %slice : (tensor<1x8xf32>) -> tensor<8xf32>
// CHECK-NEXT:        %buf = hlo.get_tuple_element %s_1[1] : tuple<tensor<i32>, tensor<4x8xf32>, tensor<4x1xi32>, tensor<4x8xf32>, tensor<4x1xi32>>
// CHECK-NEXT:        %rs_row = hlo.reshape %v : (tensor<8xf32>) -> tensor<1x8xf32>
// CHECK-NEXT:        %zero_index = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:        %buf2 = hlo.dynamic_update_slice %buf, %rs_row at [%i_1, %zero_index] : (tensor<4x8xf32>, tensor<1x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
// CHECK-NEXT:        %yslice = hlo.dynamic_slice %ys at [%i_1, %zero] sizes = [1, 1] : (tensor<4x1xi32>, tensor<i32>, tensor<i32>) -> tensor<1x1xi32>
// CHECK-NEXT:        %ibuf = hlo.get_tuple_element %s_1[2] : tuple<tensor<i32>, tensor<4x8xf32>, tensor<4x1xi32>, tensor<4x8xf32>, tensor<4x1xi32>>
// CHECK-NEXT:        %ibuf2 = hlo.dynamic_update_slice %ibuf, %yslice at [%i_1, %zero] : (tensor<4x1xi32>, tensor<1x1xi32>, tensor<i32>, tensor<i32>) -> tensor<4x1xi32>
// CHECK-NEXT:        %i2 = hlo.add %i_1, %one : tensor<i32>
// CHECK-NEXT:        %r = hlo.tuple %i2, %buf2, %ibuf2, %xs, %ys : tuple<tensor<i32>, tensor<4x8xf32>, tensor<4x1xi32>, tensor<4x8xf32>, tensor<4x1xi32>>
// CHECK-NEXT:        hlo.return %r : tuple<tensor<i32>, tensor<4x8xf32>, tensor<4x1xi32>, tensor<4x8xf32>, tensor<4x1xi32>>
// CHECK-NEXT:      }
// CHECK-NEXT:      %rs_stacked = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x8xf32>, tensor<4x1xi32>, tensor<4x8xf32>, tensor<4x1xi32>>
// CHECK-NEXT:      %rs = hlo.reduce_scatter(%rs_stacked) dim = 1 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 3 use_global_device_ids {
// CHECK-NEXT:      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:        %sum = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:        hlo.return %sum : tensor<f32>
// CHECK-NEXT:      } : (tensor<4x8xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:      %rs_rows = hlo.reshape %rs : (tensor<4x1xf32>) -> tensor<4xf32>
// CHECK-NEXT:      %iar_stacked = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<4x8xf32>, tensor<4x1xi32>, tensor<4x8xf32>, tensor<4x1xi32>>
// CHECK-NEXT:      %iar = hlo.all_reduce(%iar_stacked) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 4 use_global_device_ids {
// CHECK-NEXT:      ^bb0(%a_1: tensor<i32>, %b_1: tensor<i32>):
// CHECK-NEXT:        %isum = hlo.add %a_1, %b_1 : tensor<i32>
// CHECK-NEXT:        hlo.return %isum : tensor<i32>
// CHECK-NEXT:      } : (tensor<4x1xi32>) -> tensor<4x1xi32>
// CHECK-NEXT:      %count = hlo.get_tuple_element %w[0] : tuple<tensor<i32>, tensor<4x8xf32>, tensor<4x1xi32>, tensor<4x8xf32>, tensor<4x1xi32>>
// CHECK-NEXT:      %t = hlo.tuple %count, %rs_rows, %iar : tuple<tensor<i32>, tensor<4xf32>, tensor<4x1xi32>>
// CHECK-NEXT:      func.return %t : tuple<tensor<i32>, tensor<4xf32>, tensor<4x1xi32>>
// CHECK-NEXT:    }
// REMARK-NEXT: remark: neuron-move-reduce-scatter-while-loop: %rs (hlo.reduce_scatter): moved
// REMARK-NEXT: remark: neuron-move-reduce-scatter-while-loop: %iar (hlo.all_reduce): moved

// -----

// The JAX scan idiom (docs/decisions.md §6b): the condition tests counter slot 0, the row index is the
// scan index slot 1 (init 0, step 1, same trip count), normalised by select(j < 0, j + 4, j)
// and copied. The induction analysis folds it to slot 1: moved.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @jax_scan(%x: tensor<4x16xf32>) -> tensor<4x2xf32> {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %c0b = hlo.copy %c0 : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %buf0 = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
    %init = hlo.tuple %c0, %c0b, %buf0, %x : tuple<tensor<i32>, tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>> condition {
    ^bb0(%s: tuple<tensor<i32>, tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
      hlo.return %p : tensor<i1>
    } body {
    ^bb0(%s: tuple<tensor<i32>, tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i2 = hlo.add %i, %one : tensor<i32>
      %j = hlo.get_tuple_element %s[1] : tuple<tensor<i32>, tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
      %j2 = hlo.add %j, %one : tensor<i32>
      %buf = hlo.get_tuple_element %s[2] : tuple<tensor<i32>, tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
      %xs = hlo.get_tuple_element %s[3] : tuple<tensor<i32>, tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
      %zero = hlo.constant dense<0> : tensor<i32>
      %neg = hlo.compare LT, %j, %zero : tensor<i32> -> tensor<i1>
      %four = hlo.constant dense<4> : tensor<i32>
      %wrapped = hlo.add %j, %four : tensor<i32>
      %sel = hlo.select %neg, %wrapped, %j : tensor<i1>, tensor<i32>
      %idx = hlo.copy %sel : tensor<i32>
      %slice = hlo.dynamic_slice %xs at [%sel, %zero] sizes = [1, 16] : (tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
      %v = hlo.reshape %slice : (tensor<1x16xf32>) -> tensor<16xf32>
      %rs = hlo.reduce_scatter(%v) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %sum = hlo.add %a, %b : tensor<f32>
        hlo.return %sum : tensor<f32>
      } : (tensor<16xf32>) -> tensor<2xf32>
      %row = hlo.reshape %rs : (tensor<2xf32>) -> tensor<1x2xf32>
      %buf2 = hlo.dynamic_update_slice %buf, %row at [%idx, %zero] : (tensor<4x2xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x2xf32>
      %r = hlo.tuple %i2, %j2, %buf2, %xs : tuple<tensor<i32>, tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
      hlo.return %r : tuple<tensor<i32>, tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
    }
    %out = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
    func.return %out : tensor<4x2xf32>
  }
}

// CHECK-LABEL: func.func @jax_scan(%x: tensor<4x16xf32>) -> tensor<4x2xf32> {
// CHECK-NEXT:      %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:      %c0b = hlo.copy %c0 : tensor<i32>
// CHECK-NEXT:      %rs_zero = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:      %rs_init = hlo.broadcast %rs_zero, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
// CHECK-NEXT:      %init = hlo.tuple %c0, %c0b, %rs_init, %x : tuple<tensor<i32>, tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      %w = hlo.while(%init) : tuple<tensor<i32>, tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>> condition {
// CHECK-NEXT:      ^bb0(%s: tuple<tensor<i32>, tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>):
// CHECK-NEXT:        %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:        %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:        hlo.return %p : tensor<i1>
// CHECK-NEXT:      } body {
// CHECK-NEXT:      ^bb0(%s_1: tuple<tensor<i32>, tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>):
// CHECK-NEXT:        %i_1 = hlo.get_tuple_element %s_1[0] : tuple<tensor<i32>, tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:        %i2 = hlo.add %i_1, %one : tensor<i32>
// CHECK-NEXT:        %j = hlo.get_tuple_element %s_1[1] : tuple<tensor<i32>, tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %j2 = hlo.add %j, %one : tensor<i32>
// CHECK-NEXT:        %xs = hlo.get_tuple_element %s_1[3] : tuple<tensor<i32>, tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:        %neg = hlo.compare LT, %j, %zero : tensor<i32> -> tensor<i1>
// CHECK-NEXT:        %four = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:        %wrapped = hlo.add %j, %four : tensor<i32>
// CHECK-NEXT:        %sel = hlo.select %neg, %wrapped, %j : tensor<i1>, tensor<i32>
// CHECK-NEXT:        %idx = hlo.copy %sel : tensor<i32>
// CHECK-NEXT:        %slice = hlo.dynamic_slice %xs at [%sel, %zero] sizes = [1, 16] : (tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
// CHECK-NEXT:        %v = hlo.reshape %slice : (tensor<1x16xf32>) -> tensor<16xf32>
// CHECK-NEXT:        %buf = hlo.get_tuple_element %s_1[2] : tuple<tensor<i32>, tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %rs_row = hlo.reshape %v : (tensor<16xf32>) -> tensor<1x16xf32>
// CHECK-NEXT:        %buf2 = hlo.dynamic_update_slice %buf, %rs_row at [%idx, %zero] : (tensor<4x16xf32>, tensor<1x16xf32>, tensor<i32>, tensor<i32>) -> tensor<4x16xf32>
// CHECK-NEXT:        %r = hlo.tuple %i2, %j2, %buf2, %xs : tuple<tensor<i32>, tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        hlo.return %r : tuple<tensor<i32>, tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      }
// CHECK-NEXT:      %rs_stacked = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      %rs = hlo.reduce_scatter(%rs_stacked) dim = 1 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:        %sum = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:        hlo.return %sum : tensor<f32>
// CHECK-NEXT:      } : (tensor<4x16xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:      func.return %rs : tensor<4x2xf32>
// CHECK-NEXT:    }
// REMARK-NEXT: remark: neuron-move-reduce-scatter-while-loop: %rs (hlo.reduce_scatter): moved

// -----

// A counter that counts down (k = 4, 3, 2, 1 while 0 < k) bounds the loop; the row index is
// another slot counting up (1 + j), taken modulo 4 with remainder: folded, moved.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @countdown_remainder(%x: tensor<4x16xf32>) -> tensor<4x2xf32> {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %c4 = hlo.constant dense<4> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %buf0 = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
    %init = hlo.tuple %c4, %c0, %buf0, %x : tuple<tensor<i32>, tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>> condition {
    ^bb0(%s: tuple<tensor<i32>, tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>):
      %k = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
      %z = hlo.constant dense<0> : tensor<i32>
      %p = hlo.compare LT, %z, %k : tensor<i32> -> tensor<i1>
      hlo.return %p : tensor<i1>
    } body {
    ^bb0(%s: tuple<tensor<i32>, tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>):
      %k = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %k2 = hlo.subtract %k, %one : tensor<i32>
      %j = hlo.get_tuple_element %s[1] : tuple<tensor<i32>, tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
      %j2 = hlo.add %one, %j : tensor<i32>
      %buf = hlo.get_tuple_element %s[2] : tuple<tensor<i32>, tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
      %xs = hlo.get_tuple_element %s[3] : tuple<tensor<i32>, tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
      %zero = hlo.constant dense<0> : tensor<i32>
      %four = hlo.constant dense<4> : tensor<i32>
      %idx = hlo.remainder %j, %four : tensor<i32>
      %slice = hlo.dynamic_slice %xs at [%idx, %zero] sizes = [1, 16] : (tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
      %v = hlo.reshape %slice : (tensor<1x16xf32>) -> tensor<16xf32>
      %rs = hlo.reduce_scatter(%v) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %sum = hlo.add %a, %b : tensor<f32>
        hlo.return %sum : tensor<f32>
      } : (tensor<16xf32>) -> tensor<2xf32>
      %row = hlo.reshape %rs : (tensor<2xf32>) -> tensor<1x2xf32>
      %buf2 = hlo.dynamic_update_slice %buf, %row at [%idx, %zero] : (tensor<4x2xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x2xf32>
      %r = hlo.tuple %k2, %j2, %buf2, %xs : tuple<tensor<i32>, tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
      hlo.return %r : tuple<tensor<i32>, tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
    }
    %out = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
    func.return %out : tensor<4x2xf32>
  }
}

// CHECK-LABEL: func.func @countdown_remainder(%x: tensor<4x16xf32>) -> tensor<4x2xf32> {
// CHECK-NEXT:      %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:      %c4 = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:      %rs_zero = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:      %rs_init = hlo.broadcast %rs_zero, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
// CHECK-NEXT:      %init = hlo.tuple %c4, %c0, %rs_init, %x : tuple<tensor<i32>, tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      %w = hlo.while(%init) : tuple<tensor<i32>, tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>> condition {
// CHECK-NEXT:      ^bb0(%s: tuple<tensor<i32>, tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>):
// CHECK-NEXT:        %k = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %z = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:        %p = hlo.compare LT, %z, %k : tensor<i32> -> tensor<i1>
// CHECK-NEXT:        hlo.return %p : tensor<i1>
// CHECK-NEXT:      } body {
// CHECK-NEXT:      ^bb0(%s_1: tuple<tensor<i32>, tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>):
// CHECK-NEXT:        %k_1 = hlo.get_tuple_element %s_1[0] : tuple<tensor<i32>, tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:        %k2 = hlo.subtract %k_1, %one : tensor<i32>
// CHECK-NEXT:        %j = hlo.get_tuple_element %s_1[1] : tuple<tensor<i32>, tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %j2 = hlo.add %one, %j : tensor<i32>
// CHECK-NEXT:        %xs = hlo.get_tuple_element %s_1[3] : tuple<tensor<i32>, tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:        %four = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:        %idx = hlo.remainder %j, %four : tensor<i32>
// CHECK-NEXT:        %slice = hlo.dynamic_slice %xs at [%idx, %zero] sizes = [1, 16] : (tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
// CHECK-NEXT:        %v = hlo.reshape %slice : (tensor<1x16xf32>) -> tensor<16xf32>
// CHECK-NEXT:        %buf = hlo.get_tuple_element %s_1[2] : tuple<tensor<i32>, tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %rs_row = hlo.reshape %v : (tensor<16xf32>) -> tensor<1x16xf32>
// CHECK-NEXT:        %buf2 = hlo.dynamic_update_slice %buf, %rs_row at [%idx, %zero] : (tensor<4x16xf32>, tensor<1x16xf32>, tensor<i32>, tensor<i32>) -> tensor<4x16xf32>
// CHECK-NEXT:        %r = hlo.tuple %k2, %j2, %buf2, %xs : tuple<tensor<i32>, tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        hlo.return %r : tuple<tensor<i32>, tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      }
// CHECK-NEXT:      %rs_stacked = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      %rs = hlo.reduce_scatter(%rs_stacked) dim = 1 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:        %sum = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:        hlo.return %sum : tensor<f32>
// CHECK-NEXT:      } : (tensor<4x16xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:      func.return %rs : tensor<4x2xf32>
// CHECK-NEXT:    }
// REMARK-NEXT: remark: neuron-move-reduce-scatter-while-loop: %rs (hlo.reduce_scatter): moved

// -----

// The bound is a loop-carried function argument: no known trip count, not moved.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @unknown_trip_count(%x: tensor<4x16xf32>, %n: tensor<i32>) -> tensor<4x2xf32> {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %buf0 = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
    %init = hlo.tuple %c0, %buf0, %x, %n : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<i32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<i32>> condition {
    ^bb0(%s: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<i32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<i32>>
      %bound = hlo.get_tuple_element %s[3] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<i32>>
      %p = hlo.compare LT, %i, %bound : tensor<i32> -> tensor<i1>
      hlo.return %p : tensor<i1>
    } body {
    ^bb0(%s: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<i32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<i32>>
      %buf = hlo.get_tuple_element %s[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<i32>>
      %xs = hlo.get_tuple_element %s[2] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<i32>>
      %bound = hlo.get_tuple_element %s[3] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<i32>>
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
      %r = hlo.tuple %i2, %buf2, %xs, %bound : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<i32>>
      hlo.return %r : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<i32>>
    }
    %out = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<i32>>
    func.return %out : tensor<4x2xf32>
  }
}

// CHECK-LABEL: func.func @unknown_trip_count(%x: tensor<4x16xf32>, %n: tensor<i32>) -> tensor<4x2xf32> {
// CHECK-NEXT:      %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:      %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:      %buf0 = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
// CHECK-NEXT:      %init = hlo.tuple %c0, %buf0, %x, %n : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<i32>>
// CHECK-NEXT:      %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<i32>> condition {
// CHECK-NEXT:      ^bb0(%s: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<i32>>):
// CHECK-NEXT:        %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<i32>>
// CHECK-NEXT:        %bound = hlo.get_tuple_element %s[3] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<i32>>
// CHECK-NEXT:        %p = hlo.compare LT, %i, %bound : tensor<i32> -> tensor<i1>
// CHECK-NEXT:        hlo.return %p : tensor<i1>
// CHECK-NEXT:      } body {
// CHECK-NEXT:      ^bb0(%s_1: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<i32>>):
// CHECK-NEXT:        %i_1 = hlo.get_tuple_element %s_1[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<i32>>
// CHECK-NEXT:        %buf = hlo.get_tuple_element %s_1[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<i32>>
// CHECK-NEXT:        %xs = hlo.get_tuple_element %s_1[2] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<i32>>
// CHECK-NEXT:        %bound_1 = hlo.get_tuple_element %s_1[3] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<i32>>
// CHECK-NEXT:        %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:        %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:        %slice = hlo.dynamic_slice %xs at [%i_1, %zero] sizes = [1, 16] : (tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
// CHECK-NEXT:        %v = hlo.reshape %slice : (tensor<1x16xf32>) -> tensor<16xf32>
// CHECK-NEXT:        %rs = hlo.reduce_scatter(%v) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:        ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:          %sum = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:          hlo.return %sum : tensor<f32>
// CHECK-NEXT:        } : (tensor<16xf32>) -> tensor<2xf32>
// CHECK-NEXT:        %row = hlo.reshape %rs : (tensor<2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:        %buf2 = hlo.dynamic_update_slice %buf, %row at [%i_1, %zero] : (tensor<4x2xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x2xf32>
// CHECK-NEXT:        %i2 = hlo.add %i_1, %one : tensor<i32>
// CHECK-NEXT:        %r = hlo.tuple %i2, %buf2, %xs, %bound_1 : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<i32>>
// CHECK-NEXT:        hlo.return %r : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<i32>>
// CHECK-NEXT:      }
// CHECK-NEXT:      %out = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<i32>>
// CHECK-NEXT:      func.return %out : tensor<4x2xf32>
// CHECK-NEXT:    }
// REMARK-NEXT: remark: neuron-move-reduce-scatter-while-loop: %rs (hlo.reduce_scatter): While loop does not have a known trip count

// -----

// Four trips but a buffer of five rows: not moved (the last row would not be written).
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @leading_dim_mismatch(%x: tensor<4x16xf32>) -> tensor<5x2xf32> {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %buf0 = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<5x2xf32>
    %init = hlo.tuple %c0, %buf0, %x : tuple<tensor<i32>, tensor<5x2xf32>, tensor<4x16xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<5x2xf32>, tensor<4x16xf32>> condition {
    ^bb0(%s: tuple<tensor<i32>, tensor<5x2xf32>, tensor<4x16xf32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<5x2xf32>, tensor<4x16xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
      hlo.return %p : tensor<i1>
    } body {
    ^bb0(%s: tuple<tensor<i32>, tensor<5x2xf32>, tensor<4x16xf32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<5x2xf32>, tensor<4x16xf32>>
      %buf = hlo.get_tuple_element %s[1] : tuple<tensor<i32>, tensor<5x2xf32>, tensor<4x16xf32>>
      %xs = hlo.get_tuple_element %s[2] : tuple<tensor<i32>, tensor<5x2xf32>, tensor<4x16xf32>>
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
      %buf2 = hlo.dynamic_update_slice %buf, %row at [%i, %zero] : (tensor<5x2xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<5x2xf32>
      %i2 = hlo.add %i, %one : tensor<i32>
      %r = hlo.tuple %i2, %buf2, %xs : tuple<tensor<i32>, tensor<5x2xf32>, tensor<4x16xf32>>
      hlo.return %r : tuple<tensor<i32>, tensor<5x2xf32>, tensor<4x16xf32>>
    }
    %out = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<5x2xf32>, tensor<4x16xf32>>
    func.return %out : tensor<5x2xf32>
  }
}

// CHECK-LABEL: func.func @leading_dim_mismatch(%x: tensor<4x16xf32>) -> tensor<5x2xf32> {
// CHECK-NEXT:      %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:      %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:      %buf0 = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<5x2xf32>
// CHECK-NEXT:      %init = hlo.tuple %c0, %buf0, %x : tuple<tensor<i32>, tensor<5x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      %w = hlo.while(%init) : tuple<tensor<i32>, tensor<5x2xf32>, tensor<4x16xf32>> condition {
// CHECK-NEXT:      ^bb0(%s: tuple<tensor<i32>, tensor<5x2xf32>, tensor<4x16xf32>>):
// CHECK-NEXT:        %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<5x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:        %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:        hlo.return %p : tensor<i1>
// CHECK-NEXT:      } body {
// CHECK-NEXT:      ^bb0(%s_1: tuple<tensor<i32>, tensor<5x2xf32>, tensor<4x16xf32>>):
// CHECK-NEXT:        %i_1 = hlo.get_tuple_element %s_1[0] : tuple<tensor<i32>, tensor<5x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %buf = hlo.get_tuple_element %s_1[1] : tuple<tensor<i32>, tensor<5x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %xs = hlo.get_tuple_element %s_1[2] : tuple<tensor<i32>, tensor<5x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:        %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:        %slice = hlo.dynamic_slice %xs at [%i_1, %zero] sizes = [1, 16] : (tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
// CHECK-NEXT:        %v = hlo.reshape %slice : (tensor<1x16xf32>) -> tensor<16xf32>
// CHECK-NEXT:        %rs = hlo.reduce_scatter(%v) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:        ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:          %sum = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:          hlo.return %sum : tensor<f32>
// CHECK-NEXT:        } : (tensor<16xf32>) -> tensor<2xf32>
// CHECK-NEXT:        %row = hlo.reshape %rs : (tensor<2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:        %buf2 = hlo.dynamic_update_slice %buf, %row at [%i_1, %zero] : (tensor<5x2xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<5x2xf32>
// CHECK-NEXT:        %i2 = hlo.add %i_1, %one : tensor<i32>
// CHECK-NEXT:        %r = hlo.tuple %i2, %buf2, %xs : tuple<tensor<i32>, tensor<5x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        hlo.return %r : tuple<tensor<i32>, tensor<5x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      }
// CHECK-NEXT:      %out = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<5x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      func.return %out : tensor<5x2xf32>
// CHECK-NEXT:    }
// REMARK-NEXT: remark: neuron-move-reduce-scatter-while-loop: %rs (hlo.reduce_scatter): Left-hand side dimension of the tensor being dynamic sliced does not match the trip count

// -----

// The counter starts at 1 (1..4, four trips): rows 1, 2, 3, 3 (clamped) would be written, row 0
// never: not moved.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @starts_at_one(%x: tensor<4x16xf32>) -> tensor<4x2xf32> {
    %c1 = hlo.constant dense<1> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %buf0 = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
    %init = hlo.tuple %c1, %buf0, %x : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>> condition {
    ^bb0(%s: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
      %n = hlo.constant dense<5> : tensor<i32>
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

// CHECK-LABEL: func.func @starts_at_one(%x: tensor<4x16xf32>) -> tensor<4x2xf32> {
// CHECK-NEXT:      %c1 = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:      %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:      %buf0 = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
// CHECK-NEXT:      %init = hlo.tuple %c1, %buf0, %x : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>> condition {
// CHECK-NEXT:      ^bb0(%s: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>):
// CHECK-NEXT:        %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %n = hlo.constant dense<5> : tensor<i32>
// CHECK-NEXT:        %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:        hlo.return %p : tensor<i1>
// CHECK-NEXT:      } body {
// CHECK-NEXT:      ^bb0(%s_1: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>):
// CHECK-NEXT:        %i_1 = hlo.get_tuple_element %s_1[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %buf = hlo.get_tuple_element %s_1[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %xs = hlo.get_tuple_element %s_1[2] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:        %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:        %slice = hlo.dynamic_slice %xs at [%i_1, %zero] sizes = [1, 16] : (tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
// CHECK-NEXT:        %v = hlo.reshape %slice : (tensor<1x16xf32>) -> tensor<16xf32>
// CHECK-NEXT:        %rs = hlo.reduce_scatter(%v) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:        ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:          %sum = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:          hlo.return %sum : tensor<f32>
// CHECK-NEXT:        } : (tensor<16xf32>) -> tensor<2xf32>
// CHECK-NEXT:        %row = hlo.reshape %rs : (tensor<2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:        %buf2 = hlo.dynamic_update_slice %buf, %row at [%i_1, %zero] : (tensor<4x2xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x2xf32>
// CHECK-NEXT:        %i2 = hlo.add %i_1, %one : tensor<i32>
// CHECK-NEXT:        %r = hlo.tuple %i2, %buf2, %xs : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        hlo.return %r : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      }
// CHECK-NEXT:      %out = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      func.return %out : tensor<4x2xf32>
// CHECK-NEXT:    }
// REMARK-NEXT: remark: neuron-move-reduce-scatter-while-loop: %rs (hlo.reduce_scatter): induction variable starts at 1 with step 1, not at 0 with step 1

// -----

// The counter steps by 2 (0, 2, 4, 6 while i < 8: four trips): not moved.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @step_two(%x: tensor<4x16xf32>) -> tensor<4x2xf32> {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %buf0 = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
    %init = hlo.tuple %c0, %buf0, %x : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>> condition {
    ^bb0(%s: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
      %n = hlo.constant dense<8> : tensor<i32>
      %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
      hlo.return %p : tensor<i1>
    } body {
    ^bb0(%s: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
      %buf = hlo.get_tuple_element %s[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
      %xs = hlo.get_tuple_element %s[2] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
      %zero = hlo.constant dense<0> : tensor<i32>
      %two = hlo.constant dense<2> : tensor<i32>
      %slice = hlo.dynamic_slice %xs at [%i, %zero] sizes = [1, 16] : (tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
      %v = hlo.reshape %slice : (tensor<1x16xf32>) -> tensor<16xf32>
      %rs = hlo.reduce_scatter(%v) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %sum = hlo.add %a, %b : tensor<f32>
        hlo.return %sum : tensor<f32>
      } : (tensor<16xf32>) -> tensor<2xf32>
      %row = hlo.reshape %rs : (tensor<2xf32>) -> tensor<1x2xf32>
      %buf2 = hlo.dynamic_update_slice %buf, %row at [%i, %zero] : (tensor<4x2xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x2xf32>
      %i2 = hlo.add %i, %two : tensor<i32>
      %r = hlo.tuple %i2, %buf2, %xs : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
      hlo.return %r : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
    }
    %out = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
    func.return %out : tensor<4x2xf32>
  }
}

// CHECK-LABEL: func.func @step_two(%x: tensor<4x16xf32>) -> tensor<4x2xf32> {
// CHECK-NEXT:      %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:      %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:      %buf0 = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
// CHECK-NEXT:      %init = hlo.tuple %c0, %buf0, %x : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>> condition {
// CHECK-NEXT:      ^bb0(%s: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>):
// CHECK-NEXT:        %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %n = hlo.constant dense<8> : tensor<i32>
// CHECK-NEXT:        %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:        hlo.return %p : tensor<i1>
// CHECK-NEXT:      } body {
// CHECK-NEXT:      ^bb0(%s_1: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>):
// CHECK-NEXT:        %i_1 = hlo.get_tuple_element %s_1[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %buf = hlo.get_tuple_element %s_1[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %xs = hlo.get_tuple_element %s_1[2] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:        %two = hlo.constant dense<2> : tensor<i32>
// CHECK-NEXT:        %slice = hlo.dynamic_slice %xs at [%i_1, %zero] sizes = [1, 16] : (tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
// CHECK-NEXT:        %v = hlo.reshape %slice : (tensor<1x16xf32>) -> tensor<16xf32>
// CHECK-NEXT:        %rs = hlo.reduce_scatter(%v) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:        ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:          %sum = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:          hlo.return %sum : tensor<f32>
// CHECK-NEXT:        } : (tensor<16xf32>) -> tensor<2xf32>
// CHECK-NEXT:        %row = hlo.reshape %rs : (tensor<2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:        %buf2 = hlo.dynamic_update_slice %buf, %row at [%i_1, %zero] : (tensor<4x2xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x2xf32>
// CHECK-NEXT:        %i2 = hlo.add %i_1, %two : tensor<i32>
// CHECK-NEXT:        %r = hlo.tuple %i2, %buf2, %xs : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        hlo.return %r : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      }
// CHECK-NEXT:      %out = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      func.return %out : tensor<4x2xf32>
// CHECK-NEXT:    }
// REMARK-NEXT: remark: neuron-move-reduce-scatter-while-loop: %rs (hlo.reduce_scatter): induction variable starts at 0 with step 2, not at 0 with step 1

// -----

// The row index is the NEXT counter value i + 1 (1..4): not the induction variable, not moved.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @index_not_induction(%x: tensor<4x16xf32>) -> tensor<4x2xf32> {
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
      %i2 = hlo.add %i, %one : tensor<i32>
      %slice = hlo.dynamic_slice %xs at [%i, %zero] sizes = [1, 16] : (tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
      %v = hlo.reshape %slice : (tensor<1x16xf32>) -> tensor<16xf32>
      %rs = hlo.reduce_scatter(%v) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %sum = hlo.add %a, %b : tensor<f32>
        hlo.return %sum : tensor<f32>
      } : (tensor<16xf32>) -> tensor<2xf32>
      %row = hlo.reshape %rs : (tensor<2xf32>) -> tensor<1x2xf32>
      %buf2 = hlo.dynamic_update_slice %buf, %row at [%i2, %zero] : (tensor<4x2xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x2xf32>
      %r = hlo.tuple %i2, %buf2, %xs : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
      hlo.return %r : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
    }
    %out = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
    func.return %out : tensor<4x2xf32>
  }
}

// CHECK-LABEL: func.func @index_not_induction(%x: tensor<4x16xf32>) -> tensor<4x2xf32> {
// CHECK-NEXT:      %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:      %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:      %buf0 = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
// CHECK-NEXT:      %init = hlo.tuple %c0, %buf0, %x : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>> condition {
// CHECK-NEXT:      ^bb0(%s: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>):
// CHECK-NEXT:        %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:        %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:        hlo.return %p : tensor<i1>
// CHECK-NEXT:      } body {
// CHECK-NEXT:      ^bb0(%s_1: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>):
// CHECK-NEXT:        %i_1 = hlo.get_tuple_element %s_1[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %buf = hlo.get_tuple_element %s_1[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %xs = hlo.get_tuple_element %s_1[2] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:        %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:        %i2 = hlo.add %i_1, %one : tensor<i32>
// CHECK-NEXT:        %slice = hlo.dynamic_slice %xs at [%i_1, %zero] sizes = [1, 16] : (tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
// CHECK-NEXT:        %v = hlo.reshape %slice : (tensor<1x16xf32>) -> tensor<16xf32>
// CHECK-NEXT:        %rs = hlo.reduce_scatter(%v) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:        ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:          %sum = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:          hlo.return %sum : tensor<f32>
// CHECK-NEXT:        } : (tensor<16xf32>) -> tensor<2xf32>
// CHECK-NEXT:        %row = hlo.reshape %rs : (tensor<2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:        %buf2 = hlo.dynamic_update_slice %buf, %row at [%i2, %zero] : (tensor<4x2xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x2xf32>
// CHECK-NEXT:        %r = hlo.tuple %i2, %buf2, %xs : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        hlo.return %r : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      }
// CHECK-NEXT:      %out = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      func.return %out : tensor<4x2xf32>
// CHECK-NEXT:    }
// REMARK-NEXT: remark: neuron-move-reduce-scatter-while-loop: %rs (hlo.reduce_scatter): dynamic-update-slice index is not a loop induction variable

// -----

// The second index is the constant 1, not 0: not moved (the analysis does not reason about
// dynamic_update_slice's clamping).
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @nonzero_index(%x: tensor<4x16xf32>) -> tensor<4x2xf32> {
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
      %buf2 = hlo.dynamic_update_slice %buf, %row at [%i, %one] : (tensor<4x2xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x2xf32>
      %i2 = hlo.add %i, %one : tensor<i32>
      %r = hlo.tuple %i2, %buf2, %xs : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
      hlo.return %r : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
    }
    %out = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
    func.return %out : tensor<4x2xf32>
  }
}

// CHECK-LABEL: func.func @nonzero_index(%x: tensor<4x16xf32>) -> tensor<4x2xf32> {
// CHECK-NEXT:      %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:      %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:      %buf0 = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
// CHECK-NEXT:      %init = hlo.tuple %c0, %buf0, %x : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>> condition {
// CHECK-NEXT:      ^bb0(%s: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>):
// CHECK-NEXT:        %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:        %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:        hlo.return %p : tensor<i1>
// CHECK-NEXT:      } body {
// CHECK-NEXT:      ^bb0(%s_1: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>):
// CHECK-NEXT:        %i_1 = hlo.get_tuple_element %s_1[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %buf = hlo.get_tuple_element %s_1[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %xs = hlo.get_tuple_element %s_1[2] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:        %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:        %slice = hlo.dynamic_slice %xs at [%i_1, %zero] sizes = [1, 16] : (tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
// CHECK-NEXT:        %v = hlo.reshape %slice : (tensor<1x16xf32>) -> tensor<16xf32>
// CHECK-NEXT:        %rs = hlo.reduce_scatter(%v) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:        ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:          %sum = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:          hlo.return %sum : tensor<f32>
// CHECK-NEXT:        } : (tensor<16xf32>) -> tensor<2xf32>
// CHECK-NEXT:        %row = hlo.reshape %rs : (tensor<2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:        %buf2 = hlo.dynamic_update_slice %buf, %row at [%i_1, %one] : (tensor<4x2xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x2xf32>
// CHECK-NEXT:        %i2 = hlo.add %i_1, %one : tensor<i32>
// CHECK-NEXT:        %r = hlo.tuple %i2, %buf2, %xs : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        hlo.return %r : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      }
// CHECK-NEXT:      %out = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      func.return %out : tensor<4x2xf32>
// CHECK-NEXT:    }
// REMARK-NEXT: remark: neuron-move-reduce-scatter-while-loop: %rs (hlo.reduce_scatter): dynamic-update-slice index 1 is not zero

// -----

// The update [1, 1] covers half a row of the [4, 2] buffer (the rest keeps its init): not moved.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @partial_rows(%x: tensor<4x8xf32>) -> tensor<4x2xf32> {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %f1 = hlo.constant dense<1.000000e+00> : tensor<f32>
    %buf0 = hlo.broadcast %f1, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
    %init = hlo.tuple %c0, %buf0, %x : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x8xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x8xf32>> condition {
    ^bb0(%s: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x8xf32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x8xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
      hlo.return %p : tensor<i1>
    } body {
    ^bb0(%s: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x8xf32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x8xf32>>
      %buf = hlo.get_tuple_element %s[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x8xf32>>
      %xs = hlo.get_tuple_element %s[2] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x8xf32>>
      %zero = hlo.constant dense<0> : tensor<i32>
      %one = hlo.constant dense<1> : tensor<i32>
      %slice = hlo.dynamic_slice %xs at [%i, %zero] sizes = [1, 8] : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<1x8xf32>
      %v = hlo.reshape %slice : (tensor<1x8xf32>) -> tensor<8xf32>
      %rs = hlo.reduce_scatter(%v) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %sum = hlo.add %a, %b : tensor<f32>
        hlo.return %sum : tensor<f32>
      } : (tensor<8xf32>) -> tensor<1xf32>
      %row = hlo.reshape %rs : (tensor<1xf32>) -> tensor<1x1xf32>
      %buf2 = hlo.dynamic_update_slice %buf, %row at [%i, %zero] : (tensor<4x2xf32>, tensor<1x1xf32>, tensor<i32>, tensor<i32>) -> tensor<4x2xf32>
      %i2 = hlo.add %i, %one : tensor<i32>
      %r = hlo.tuple %i2, %buf2, %xs : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x8xf32>>
      hlo.return %r : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x8xf32>>
    }
    %out = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x8xf32>>
    func.return %out : tensor<4x2xf32>
  }
}

// CHECK-LABEL: func.func @partial_rows(%x: tensor<4x8xf32>) -> tensor<4x2xf32> {
// CHECK-NEXT:      %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:      %f1 = hlo.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:      %buf0 = hlo.broadcast %f1, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
// CHECK-NEXT:      %init = hlo.tuple %c0, %buf0, %x : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x8xf32>>
// CHECK-NEXT:      %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x8xf32>> condition {
// CHECK-NEXT:      ^bb0(%s: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x8xf32>>):
// CHECK-NEXT:        %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x8xf32>>
// CHECK-NEXT:        %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:        %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:        hlo.return %p : tensor<i1>
// CHECK-NEXT:      } body {
// CHECK-NEXT:      ^bb0(%s_1: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x8xf32>>):
// CHECK-NEXT:        %i_1 = hlo.get_tuple_element %s_1[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x8xf32>>
// CHECK-NEXT:        %buf = hlo.get_tuple_element %s_1[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x8xf32>>
// CHECK-NEXT:        %xs = hlo.get_tuple_element %s_1[2] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x8xf32>>
// CHECK-NEXT:        %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:        %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:        %slice = hlo.dynamic_slice %xs at [%i_1, %zero] sizes = [1, 8] : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<1x8xf32>
// CHECK-NEXT:        %v = hlo.reshape %slice : (tensor<1x8xf32>) -> tensor<8xf32>
// CHECK-NEXT:        %rs = hlo.reduce_scatter(%v) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:        ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:          %sum = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:          hlo.return %sum : tensor<f32>
// CHECK-NEXT:        } : (tensor<8xf32>) -> tensor<1xf32>
// CHECK-NEXT:        %row = hlo.reshape %rs : (tensor<1xf32>) -> tensor<1x1xf32>
// CHECK-NEXT:        %buf2 = hlo.dynamic_update_slice %buf, %row at [%i_1, %zero] : (tensor<4x2xf32>, tensor<1x1xf32>, tensor<i32>, tensor<i32>) -> tensor<4x2xf32>
// CHECK-NEXT:        %i2 = hlo.add %i_1, %one : tensor<i32>
// CHECK-NEXT:        %r = hlo.tuple %i2, %buf2, %xs : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x8xf32>>
// CHECK-NEXT:        hlo.return %r : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x8xf32>>
// CHECK-NEXT:      }
// CHECK-NEXT:      %out = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x8xf32>>
// CHECK-NEXT:      func.return %out : tensor<4x2xf32>
// CHECK-NEXT:    }
// REMARK-NEXT: remark: neuron-move-reduce-scatter-while-loop: %rs (hlo.reduce_scatter): dynamic-update-slice update does not cover whole rows of the buffer

// -----

// The stored [2, 1] result has a leading dimension of 2 (rows overlap): not moved.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @leading_not_one(%x: tensor<4x16xf32>) -> tensor<4x1xf32> {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %buf0 = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
    %init = hlo.tuple %c0, %buf0, %x : tuple<tensor<i32>, tensor<4x1xf32>, tensor<4x16xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x1xf32>, tensor<4x16xf32>> condition {
    ^bb0(%s: tuple<tensor<i32>, tensor<4x1xf32>, tensor<4x16xf32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x1xf32>, tensor<4x16xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
      hlo.return %p : tensor<i1>
    } body {
    ^bb0(%s: tuple<tensor<i32>, tensor<4x1xf32>, tensor<4x16xf32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x1xf32>, tensor<4x16xf32>>
      %buf = hlo.get_tuple_element %s[1] : tuple<tensor<i32>, tensor<4x1xf32>, tensor<4x16xf32>>
      %xs = hlo.get_tuple_element %s[2] : tuple<tensor<i32>, tensor<4x1xf32>, tensor<4x16xf32>>
      %zero = hlo.constant dense<0> : tensor<i32>
      %one = hlo.constant dense<1> : tensor<i32>
      %slice = hlo.dynamic_slice %xs at [%i, %zero] sizes = [1, 16] : (tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
      %v = hlo.reshape %slice : (tensor<1x16xf32>) -> tensor<2x8xf32>
      %rs = hlo.reduce_scatter(%v) dim = 1 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %sum = hlo.add %a, %b : tensor<f32>
        hlo.return %sum : tensor<f32>
      } : (tensor<2x8xf32>) -> tensor<2x1xf32>
      %buf2 = hlo.dynamic_update_slice %buf, %rs at [%i, %zero] : (tensor<4x1xf32>, tensor<2x1xf32>, tensor<i32>, tensor<i32>) -> tensor<4x1xf32>
      %i2 = hlo.add %i, %one : tensor<i32>
      %r = hlo.tuple %i2, %buf2, %xs : tuple<tensor<i32>, tensor<4x1xf32>, tensor<4x16xf32>>
      hlo.return %r : tuple<tensor<i32>, tensor<4x1xf32>, tensor<4x16xf32>>
    }
    %out = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x1xf32>, tensor<4x16xf32>>
    func.return %out : tensor<4x1xf32>
  }
}

// CHECK-LABEL: func.func @leading_not_one(%x: tensor<4x16xf32>) -> tensor<4x1xf32> {
// CHECK-NEXT:      %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:      %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:      %buf0 = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
// CHECK-NEXT:      %init = hlo.tuple %c0, %buf0, %x : tuple<tensor<i32>, tensor<4x1xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x1xf32>, tensor<4x16xf32>> condition {
// CHECK-NEXT:      ^bb0(%s: tuple<tensor<i32>, tensor<4x1xf32>, tensor<4x16xf32>>):
// CHECK-NEXT:        %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x1xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:        %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:        hlo.return %p : tensor<i1>
// CHECK-NEXT:      } body {
// CHECK-NEXT:      ^bb0(%s_1: tuple<tensor<i32>, tensor<4x1xf32>, tensor<4x16xf32>>):
// CHECK-NEXT:        %i_1 = hlo.get_tuple_element %s_1[0] : tuple<tensor<i32>, tensor<4x1xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %buf = hlo.get_tuple_element %s_1[1] : tuple<tensor<i32>, tensor<4x1xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %xs = hlo.get_tuple_element %s_1[2] : tuple<tensor<i32>, tensor<4x1xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:        %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:        %slice = hlo.dynamic_slice %xs at [%i_1, %zero] sizes = [1, 16] : (tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
// CHECK-NEXT:        %v = hlo.reshape %slice : (tensor<1x16xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:        %rs = hlo.reduce_scatter(%v) dim = 1 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:        ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:          %sum = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:          hlo.return %sum : tensor<f32>
// CHECK-NEXT:        } : (tensor<2x8xf32>) -> tensor<2x1xf32>
// CHECK-NEXT:        %buf2 = hlo.dynamic_update_slice %buf, %rs at [%i_1, %zero] : (tensor<4x1xf32>, tensor<2x1xf32>, tensor<i32>, tensor<i32>) -> tensor<4x1xf32>
// CHECK-NEXT:        %i2 = hlo.add %i_1, %one : tensor<i32>
// CHECK-NEXT:        %r = hlo.tuple %i2, %buf2, %xs : tuple<tensor<i32>, tensor<4x1xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        hlo.return %r : tuple<tensor<i32>, tensor<4x1xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      }
// CHECK-NEXT:      %out = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x1xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      func.return %out : tensor<4x1xf32>
// CHECK-NEXT:    }
// REMARK-NEXT: remark: neuron-move-reduce-scatter-while-loop: %rs (hlo.reduce_scatter): dynamic-update-slice update does not have a leading dimension of 1

// -----

// The buffer is also carried to slot 3 (read by the body): not moved.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @read_in_body(%x: tensor<4x16xf32>) -> tensor<4x2xf32> {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %buf0 = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
    %init = hlo.tuple %c0, %buf0, %x, %buf0 : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>> condition {
    ^bb0(%s: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
      hlo.return %p : tensor<i1>
    } body {
    ^bb0(%s: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
      %buf = hlo.get_tuple_element %s[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
      %xs = hlo.get_tuple_element %s[2] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
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
      %r = hlo.tuple %i2, %buf2, %xs, %buf : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
      hlo.return %r : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
    }
    %out = hlo.get_tuple_element %w[3] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
    func.return %out : tensor<4x2xf32>
  }
}

// CHECK-LABEL: func.func @read_in_body(%x: tensor<4x16xf32>) -> tensor<4x2xf32> {
// CHECK-NEXT:      %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:      %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:      %buf0 = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
// CHECK-NEXT:      %init = hlo.tuple %c0, %buf0, %x, %buf0 : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
// CHECK-NEXT:      %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>> condition {
// CHECK-NEXT:      ^bb0(%s: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>):
// CHECK-NEXT:        %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
// CHECK-NEXT:        %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:        %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:        hlo.return %p : tensor<i1>
// CHECK-NEXT:      } body {
// CHECK-NEXT:      ^bb0(%s_1: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>):
// CHECK-NEXT:        %i_1 = hlo.get_tuple_element %s_1[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
// CHECK-NEXT:        %buf = hlo.get_tuple_element %s_1[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
// CHECK-NEXT:        %xs = hlo.get_tuple_element %s_1[2] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
// CHECK-NEXT:        %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:        %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:        %slice = hlo.dynamic_slice %xs at [%i_1, %zero] sizes = [1, 16] : (tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
// CHECK-NEXT:        %v = hlo.reshape %slice : (tensor<1x16xf32>) -> tensor<16xf32>
// CHECK-NEXT:        %rs = hlo.reduce_scatter(%v) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:        ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:          %sum = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:          hlo.return %sum : tensor<f32>
// CHECK-NEXT:        } : (tensor<16xf32>) -> tensor<2xf32>
// CHECK-NEXT:        %row = hlo.reshape %rs : (tensor<2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:        %buf2 = hlo.dynamic_update_slice %buf, %row at [%i_1, %zero] : (tensor<4x2xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x2xf32>
// CHECK-NEXT:        %i2 = hlo.add %i_1, %one : tensor<i32>
// CHECK-NEXT:        %r = hlo.tuple %i2, %buf2, %xs, %buf : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
// CHECK-NEXT:        hlo.return %r : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
// CHECK-NEXT:      }
// CHECK-NEXT:      %out = hlo.get_tuple_element %w[3] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
// CHECK-NEXT:      func.return %out : tensor<4x2xf32>
// CHECK-NEXT:    }
// REMARK-NEXT: remark: neuron-move-reduce-scatter-while-loop: %rs (hlo.reduce_scatter): buffer slot 1 is read by other operations in the loop body

// -----

// The condition reads the buffer: not moved (checked before the trip count, which this
// condition also hides).
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @read_in_condition(%x: tensor<4x16xf32>) -> tensor<4x2xf32> {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %buf0 = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
    %init = hlo.tuple %c0, %buf0, %x : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>> condition {
    ^bb0(%s: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
      %b = hlo.get_tuple_element %s[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
      %e = hlo.slice %b, start = [0, 0], limit = [1, 1], strides = [1, 1] : (tensor<4x2xf32>) -> tensor<1x1xf32>
      %es = hlo.reshape %e : (tensor<1x1xf32>) -> tensor<f32>
      %q = hlo.compare EQ, %es, %es : tensor<f32> -> tensor<i1>
      %pq = hlo.and %p, %q : tensor<i1>
      hlo.return %pq : tensor<i1>
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

// CHECK-LABEL: func.func @read_in_condition(%x: tensor<4x16xf32>) -> tensor<4x2xf32> {
// CHECK-NEXT:      %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:      %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:      %buf0 = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
// CHECK-NEXT:      %init = hlo.tuple %c0, %buf0, %x : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>> condition {
// CHECK-NEXT:      ^bb0(%s: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>):
// CHECK-NEXT:        %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:        %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:        %b = hlo.get_tuple_element %s[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %e = hlo.slice %b, start = [0, 0], limit = [1, 1], strides = [1, 1] : (tensor<4x2xf32>) -> tensor<1x1xf32>
// CHECK-NEXT:        %es = hlo.reshape %e : (tensor<1x1xf32>) -> tensor<f32>
// CHECK-NEXT:        %q = hlo.compare EQ, %es, %es : tensor<f32> -> tensor<i1>
// CHECK-NEXT:        %pq = hlo.and %p, %q : tensor<i1>
// CHECK-NEXT:        hlo.return %pq : tensor<i1>
// CHECK-NEXT:      } body {
// CHECK-NEXT:      ^bb0(%s_1: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>):
// CHECK-NEXT:        %i_1 = hlo.get_tuple_element %s_1[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %buf = hlo.get_tuple_element %s_1[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %xs = hlo.get_tuple_element %s_1[2] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:        %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:        %slice = hlo.dynamic_slice %xs at [%i_1, %zero] sizes = [1, 16] : (tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
// CHECK-NEXT:        %v = hlo.reshape %slice : (tensor<1x16xf32>) -> tensor<16xf32>
// CHECK-NEXT:        %rs = hlo.reduce_scatter(%v) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:        ^bb0(%a: tensor<f32>, %b_1: tensor<f32>):
// CHECK-NEXT:          %sum = hlo.add %a, %b_1 : tensor<f32>
// CHECK-NEXT:          hlo.return %sum : tensor<f32>
// CHECK-NEXT:        } : (tensor<16xf32>) -> tensor<2xf32>
// CHECK-NEXT:        %row = hlo.reshape %rs : (tensor<2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:        %buf2 = hlo.dynamic_update_slice %buf, %row at [%i_1, %zero] : (tensor<4x2xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x2xf32>
// CHECK-NEXT:        %i2 = hlo.add %i_1, %one : tensor<i32>
// CHECK-NEXT:        %r = hlo.tuple %i2, %buf2, %xs : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        hlo.return %r : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      }
// CHECK-NEXT:      %out = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      func.return %out : tensor<4x2xf32>
// CHECK-NEXT:    }
// REMARK-NEXT: remark: neuron-move-reduce-scatter-while-loop: %rs (hlo.reduce_scatter): buffer slot 1 is read by the loop condition

// -----

// The whole body argument goes through an optimization_barrier (it may read slot 1): not moved.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @argument_escapes(%x: tensor<4x16xf32>) -> tensor<4x2xf32> {
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
      %barrier = hlo.optimization_barrier %s : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
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

// CHECK-LABEL: func.func @argument_escapes(%x: tensor<4x16xf32>) -> tensor<4x2xf32> {
// CHECK-NEXT:      %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:      %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:      %buf0 = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
// CHECK-NEXT:      %init = hlo.tuple %c0, %buf0, %x : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>> condition {
// CHECK-NEXT:      ^bb0(%s: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>):
// CHECK-NEXT:        %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:        %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:        hlo.return %p : tensor<i1>
// CHECK-NEXT:      } body {
// CHECK-NEXT:      ^bb0(%s_1: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>):
// CHECK-NEXT:        %barrier = hlo.optimization_barrier %s_1 : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %i_1 = hlo.get_tuple_element %s_1[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %buf = hlo.get_tuple_element %s_1[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %xs = hlo.get_tuple_element %s_1[2] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:        %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:        %slice = hlo.dynamic_slice %xs at [%i_1, %zero] sizes = [1, 16] : (tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
// CHECK-NEXT:        %v = hlo.reshape %slice : (tensor<1x16xf32>) -> tensor<16xf32>
// CHECK-NEXT:        %rs = hlo.reduce_scatter(%v) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:        ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:          %sum = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:          hlo.return %sum : tensor<f32>
// CHECK-NEXT:        } : (tensor<16xf32>) -> tensor<2xf32>
// CHECK-NEXT:        %row = hlo.reshape %rs : (tensor<2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:        %buf2 = hlo.dynamic_update_slice %buf, %row at [%i_1, %zero] : (tensor<4x2xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x2xf32>
// CHECK-NEXT:        %i2 = hlo.add %i_1, %one : tensor<i32>
// CHECK-NEXT:        %r = hlo.tuple %i2, %buf2, %xs : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        hlo.return %r : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      }
// CHECK-NEXT:      %out = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      func.return %out : tensor<4x2xf32>
// CHECK-NEXT:    }
// REMARK-NEXT: remark: neuron-move-reduce-scatter-while-loop: %rs (hlo.reduce_scatter): loop body argument is used by 'hlo.optimization_barrier', not only by get-tuple-element

// -----

// The reduce_scatter result is also accumulated into slot 3: not moved. The all_reduce of the
// accumulation pattern (add into a buffer, no dynamic_update_slice) is not this pass's either,
// nor is a reduce_scatter whose result is unused.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @other_users(%x: tensor<4x16xf32>) -> tuple<tensor<4x2xf32>, tensor<2xf32>, tensor<16xf32>> {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %buf0 = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
    %acc0 = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %total0 = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %init = hlo.tuple %c0, %buf0, %x, %acc0, %total0 : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<2xf32>, tensor<16xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<2xf32>, tensor<16xf32>> condition {
    ^bb0(%s: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<2xf32>, tensor<16xf32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<2xf32>, tensor<16xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
      hlo.return %p : tensor<i1>
    } body {
    ^bb0(%s: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<2xf32>, tensor<16xf32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<2xf32>, tensor<16xf32>>
      %buf = hlo.get_tuple_element %s[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<2xf32>, tensor<16xf32>>
      %xs = hlo.get_tuple_element %s[2] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<2xf32>, tensor<16xf32>>
      %acc = hlo.get_tuple_element %s[3] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<2xf32>, tensor<16xf32>>
      %total = hlo.get_tuple_element %s[4] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<2xf32>, tensor<16xf32>>
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
      %acc2 = hlo.add %acc, %rs : tensor<2xf32>
      %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %sum = hlo.add %a, %b : tensor<f32>
        hlo.return %sum : tensor<f32>
      } : (tensor<16xf32>) -> tensor<16xf32>
      %total2 = hlo.add %total, %ar : tensor<16xf32>
      %unused = hlo.reduce_scatter(%v) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 3 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %sum = hlo.add %a, %b : tensor<f32>
        hlo.return %sum : tensor<f32>
      } : (tensor<16xf32>) -> tensor<2xf32>
      %i2 = hlo.add %i, %one : tensor<i32>
      %r = hlo.tuple %i2, %buf2, %xs, %acc2, %total2 : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<2xf32>, tensor<16xf32>>
      hlo.return %r : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<2xf32>, tensor<16xf32>>
    }
    %out = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<2xf32>, tensor<16xf32>>
    %acc_out = hlo.get_tuple_element %w[3] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<2xf32>, tensor<16xf32>>
    %total_out = hlo.get_tuple_element %w[4] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<2xf32>, tensor<16xf32>>
    %t = hlo.tuple %out, %acc_out, %total_out : tuple<tensor<4x2xf32>, tensor<2xf32>, tensor<16xf32>>
    func.return %t : tuple<tensor<4x2xf32>, tensor<2xf32>, tensor<16xf32>>
  }
}

// CHECK-LABEL: func.func @other_users(%x: tensor<4x16xf32>) -> tuple<tensor<4x2xf32>, tensor<2xf32>, tensor<16xf32>> {
// CHECK-NEXT:      %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:      %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:      %buf0 = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
// CHECK-NEXT:      %acc0 = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<2xf32>
// CHECK-NEXT:      %total0 = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<16xf32>
// CHECK-NEXT:      %init = hlo.tuple %c0, %buf0, %x, %acc0, %total0 : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:      %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<2xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:      ^bb0(%s: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<2xf32>, tensor<16xf32>>):
// CHECK-NEXT:        %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:        %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:        %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:        hlo.return %p : tensor<i1>
// CHECK-NEXT:      } body {
// CHECK-NEXT:      ^bb0(%s_1: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<2xf32>, tensor<16xf32>>):
// CHECK-NEXT:        %i_1 = hlo.get_tuple_element %s_1[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:        %buf = hlo.get_tuple_element %s_1[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:        %xs = hlo.get_tuple_element %s_1[2] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:        %acc = hlo.get_tuple_element %s_1[3] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:        %total = hlo.get_tuple_element %s_1[4] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:        %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:        %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:        %slice = hlo.dynamic_slice %xs at [%i_1, %zero] sizes = [1, 16] : (tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
// CHECK-NEXT:        %v = hlo.reshape %slice : (tensor<1x16xf32>) -> tensor<16xf32>
// CHECK-NEXT:        %rs = hlo.reduce_scatter(%v) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:        ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:          %sum = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:          hlo.return %sum : tensor<f32>
// CHECK-NEXT:        } : (tensor<16xf32>) -> tensor<2xf32>
// CHECK-NEXT:        %row = hlo.reshape %rs : (tensor<2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:        %buf2 = hlo.dynamic_update_slice %buf, %row at [%i_1, %zero] : (tensor<4x2xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x2xf32>
// CHECK-NEXT:        %acc2 = hlo.add %acc, %rs : tensor<2xf32>
// CHECK-NEXT:        %ar = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:        ^bb0(%a_1: tensor<f32>, %b_1: tensor<f32>):
// CHECK-NEXT:          %sum_1 = hlo.add %a_1, %b_1 : tensor<f32>
// CHECK-NEXT:          hlo.return %sum_1 : tensor<f32>
// CHECK-NEXT:        } : (tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT:        %total2 = hlo.add %total, %ar : tensor<16xf32>
// CHECK-NEXT:        %unused = hlo.reduce_scatter(%v) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 3 use_global_device_ids {
// CHECK-NEXT:        ^bb0(%a_2: tensor<f32>, %b_2: tensor<f32>):
// CHECK-NEXT:          %sum_2 = hlo.add %a_2, %b_2 : tensor<f32>
// CHECK-NEXT:          hlo.return %sum_2 : tensor<f32>
// CHECK-NEXT:        } : (tensor<16xf32>) -> tensor<2xf32>
// CHECK-NEXT:        %i2 = hlo.add %i_1, %one : tensor<i32>
// CHECK-NEXT:        %r = hlo.tuple %i2, %buf2, %xs, %acc2, %total2 : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:        hlo.return %r : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:      }
// CHECK-NEXT:      %out = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:      %acc_out = hlo.get_tuple_element %w[3] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:      %total_out = hlo.get_tuple_element %w[4] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:      %t = hlo.tuple %out, %acc_out, %total_out : tuple<tensor<4x2xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:      func.return %t : tuple<tensor<4x2xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:    }
// REMARK-NEXT: remark: neuron-move-reduce-scatter-while-loop: %rs (hlo.reduce_scatter): result has users other than the dynamic-update-slice
// REMARK-NEXT: remark: neuron-move-reduce-scatter-while-loop: %ar (hlo.all_reduce): result is not written into a loop-carried buffer by dynamic-update-slice
// REMARK-NEXT: remark: neuron-move-reduce-scatter-while-loop: %unused (hlo.reduce_scatter): result is not written into a loop-carried buffer by dynamic-update-slice

// -----

// The row goes into a fresh buffer (not a loop-carried value) that the body then returns, and
// a tuple-shaped all_reduce is stored into slot 2: neither is moved.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @not_loop_buffer(%x: tensor<4x16xf32>) -> tuple<tensor<4x2xf32>, tensor<4x16xf32>> {
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
      %fz = hlo.constant dense<0.000000e+00> : tensor<f32>
      %fresh = hlo.broadcast %fz, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
      %buf2 = hlo.dynamic_update_slice %fresh, %row at [%i, %zero] : (tensor<4x2xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x2xf32>
      %pair = hlo.all_reduce(%slice, %slice) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %sum = hlo.add %a, %b : tensor<f32>
        hlo.return %sum : tensor<f32>
      } : (tensor<1x16xf32>, tensor<1x16xf32>) -> tuple<tensor<1x16xf32>, tensor<1x16xf32>>
      %first = hlo.get_tuple_element %pair[0] : tuple<tensor<1x16xf32>, tensor<1x16xf32>>
      %xs2 = hlo.dynamic_update_slice %xs, %first at [%i, %zero] : (tensor<4x16xf32>, tensor<1x16xf32>, tensor<i32>, tensor<i32>) -> tensor<4x16xf32>
      %i2 = hlo.add %i, %one : tensor<i32>
      %r = hlo.tuple %i2, %buf2, %xs2 : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
      hlo.return %r : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
    }
    %out = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
    %xs_out = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
    %t = hlo.tuple %out, %xs_out : tuple<tensor<4x2xf32>, tensor<4x16xf32>>
    func.return %t : tuple<tensor<4x2xf32>, tensor<4x16xf32>>
  }
}

// CHECK-LABEL: func.func @not_loop_buffer(%x: tensor<4x16xf32>) -> tuple<tensor<4x2xf32>, tensor<4x16xf32>> {
// CHECK-NEXT:      %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:      %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:      %buf0 = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
// CHECK-NEXT:      %init = hlo.tuple %c0, %buf0, %x : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>> condition {
// CHECK-NEXT:      ^bb0(%s: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>):
// CHECK-NEXT:        %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:        %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:        hlo.return %p : tensor<i1>
// CHECK-NEXT:      } body {
// CHECK-NEXT:      ^bb0(%s_1: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>):
// CHECK-NEXT:        %i_1 = hlo.get_tuple_element %s_1[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %xs = hlo.get_tuple_element %s_1[2] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:        %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:        %slice = hlo.dynamic_slice %xs at [%i_1, %zero] sizes = [1, 16] : (tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
// CHECK-NEXT:        %v = hlo.reshape %slice : (tensor<1x16xf32>) -> tensor<16xf32>
// CHECK-NEXT:        %rs = hlo.reduce_scatter(%v) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:        ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:          %sum = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:          hlo.return %sum : tensor<f32>
// CHECK-NEXT:        } : (tensor<16xf32>) -> tensor<2xf32>
// CHECK-NEXT:        %row = hlo.reshape %rs : (tensor<2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:        %fz = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:        %fresh = hlo.broadcast %fz, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
// CHECK-NEXT:        %buf2 = hlo.dynamic_update_slice %fresh, %row at [%i_1, %zero] : (tensor<4x2xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x2xf32>
// CHECK-NEXT:        %pair = hlo.all_reduce(%slice, %slice) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:        ^bb0(%a_1: tensor<f32>, %b_1: tensor<f32>):
// CHECK-NEXT:          %sum_1 = hlo.add %a_1, %b_1 : tensor<f32>
// CHECK-NEXT:          hlo.return %sum_1 : tensor<f32>
// CHECK-NEXT:        } : (tensor<1x16xf32>, tensor<1x16xf32>) -> tuple<tensor<1x16xf32>, tensor<1x16xf32>>
// CHECK-NEXT:        %first = hlo.get_tuple_element %pair[0] : tuple<tensor<1x16xf32>, tensor<1x16xf32>>
// CHECK-NEXT:        %xs2 = hlo.dynamic_update_slice %xs, %first at [%i_1, %zero] : (tensor<4x16xf32>, tensor<1x16xf32>, tensor<i32>, tensor<i32>) -> tensor<4x16xf32>
// CHECK-NEXT:        %i2 = hlo.add %i_1, %one : tensor<i32>
// CHECK-NEXT:        %r = hlo.tuple %i2, %buf2, %xs2 : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        hlo.return %r : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      }
// CHECK-NEXT:      %out = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      %xs_out = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      %t = hlo.tuple %out, %xs_out : tuple<tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      func.return %t : tuple<tensor<4x2xf32>, tensor<4x16xf32>>
// CHECK-NEXT:    }
// REMARK-NEXT: remark: neuron-move-reduce-scatter-while-loop: %rs (hlo.reduce_scatter): dynamic-update-slice buffer is not a loop-carried value (get-tuple-element of the loop body argument)
// REMARK-NEXT: remark: neuron-move-reduce-scatter-while-loop: %pair (hlo.all_reduce): collective has several operands (tuple-shaped)

// -----

// Slot 1's updated buffer is returned at slot 2 (the buffers swap every trip), and the
// updated buffer of another store is also used by a later op: neither is moved.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @wrong_slot(%x: tensor<4x16xf32>) -> tuple<tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>> {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %buf0 = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
    %init = hlo.tuple %c0, %buf0, %buf0, %x, %buf0 : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>> condition {
    ^bb0(%s: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
      hlo.return %p : tensor<i1>
    } body {
    ^bb0(%s: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
      %ba = hlo.get_tuple_element %s[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
      %bb = hlo.get_tuple_element %s[2] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
      %xs = hlo.get_tuple_element %s[3] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
      %bc = hlo.get_tuple_element %s[4] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
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
      %ba2 = hlo.dynamic_update_slice %ba, %row at [%i, %zero] : (tensor<4x2xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x2xf32>
      %rs2 = hlo.reduce_scatter(%v) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %sum = hlo.add %a, %b : tensor<f32>
        hlo.return %sum : tensor<f32>
      } : (tensor<16xf32>) -> tensor<2xf32>
      %row2 = hlo.reshape %rs2 : (tensor<2xf32>) -> tensor<1x2xf32>
      %bc2 = hlo.dynamic_update_slice %bc, %row2 at [%i, %zero] : (tensor<4x2xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x2xf32>
      %bc3 = hlo.multiply %bc2, %bc2 : tensor<4x2xf32>
      %i2 = hlo.add %i, %one : tensor<i32>
      %r = hlo.tuple %i2, %bb, %ba2, %xs, %bc3 : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
      hlo.return %r : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
    }
    %o1 = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
    %o2 = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
    %o4 = hlo.get_tuple_element %w[4] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
    %t = hlo.tuple %o1, %o2, %o4 : tuple<tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>>
    func.return %t : tuple<tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>>
  }
}

// CHECK-LABEL: func.func @wrong_slot(%x: tensor<4x16xf32>) -> tuple<tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>> {
// CHECK-NEXT:      %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:      %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:      %buf0 = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
// CHECK-NEXT:      %init = hlo.tuple %c0, %buf0, %buf0, %x, %buf0 : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
// CHECK-NEXT:      %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>> condition {
// CHECK-NEXT:      ^bb0(%s: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>):
// CHECK-NEXT:        %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
// CHECK-NEXT:        %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:        %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:        hlo.return %p : tensor<i1>
// CHECK-NEXT:      } body {
// CHECK-NEXT:      ^bb0(%s_1: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>):
// CHECK-NEXT:        %i_1 = hlo.get_tuple_element %s_1[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
// CHECK-NEXT:        %ba = hlo.get_tuple_element %s_1[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
// CHECK-NEXT:        %bb = hlo.get_tuple_element %s_1[2] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
// CHECK-NEXT:        %xs = hlo.get_tuple_element %s_1[3] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
// CHECK-NEXT:        %bc = hlo.get_tuple_element %s_1[4] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
// CHECK-NEXT:        %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:        %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:        %slice = hlo.dynamic_slice %xs at [%i_1, %zero] sizes = [1, 16] : (tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
// CHECK-NEXT:        %v = hlo.reshape %slice : (tensor<1x16xf32>) -> tensor<16xf32>
// CHECK-NEXT:        %rs = hlo.reduce_scatter(%v) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:        ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:          %sum = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:          hlo.return %sum : tensor<f32>
// CHECK-NEXT:        } : (tensor<16xf32>) -> tensor<2xf32>
// CHECK-NEXT:        %row = hlo.reshape %rs : (tensor<2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:        %ba2 = hlo.dynamic_update_slice %ba, %row at [%i_1, %zero] : (tensor<4x2xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x2xf32>
// CHECK-NEXT:        %rs2 = hlo.reduce_scatter(%v) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:        ^bb0(%a_1: tensor<f32>, %b_1: tensor<f32>):
// CHECK-NEXT:          %sum_1 = hlo.add %a_1, %b_1 : tensor<f32>
// CHECK-NEXT:          hlo.return %sum_1 : tensor<f32>
// CHECK-NEXT:        } : (tensor<16xf32>) -> tensor<2xf32>
// CHECK-NEXT:        %row2 = hlo.reshape %rs2 : (tensor<2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:        %bc2 = hlo.dynamic_update_slice %bc, %row2 at [%i_1, %zero] : (tensor<4x2xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x2xf32>
// CHECK-NEXT:        %bc3 = hlo.multiply %bc2, %bc2 : tensor<4x2xf32>
// CHECK-NEXT:        %i2 = hlo.add %i_1, %one : tensor<i32>
// CHECK-NEXT:        %r = hlo.tuple %i2, %bb, %ba2, %xs, %bc3 : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
// CHECK-NEXT:        hlo.return %r : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
// CHECK-NEXT:      }
// CHECK-NEXT:      %o1 = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
// CHECK-NEXT:      %o2 = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
// CHECK-NEXT:      %o4 = hlo.get_tuple_element %w[4] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<4x2xf32>>
// CHECK-NEXT:      %t = hlo.tuple %o1, %o2, %o4 : tuple<tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>>
// CHECK-NEXT:      func.return %t : tuple<tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>>
// CHECK-NEXT:    }
// REMARK-NEXT: remark: neuron-move-reduce-scatter-while-loop: %rs (hlo.reduce_scatter): dynamic-update-slice result is not returned at slot 1 by the loop body
// REMARK-NEXT: remark: neuron-move-reduce-scatter-while-loop: %rs2 (hlo.reduce_scatter): dynamic-update-slice result is not returned at slot 4 by the loop body

// -----

// A loop carrying one tensor (not a tuple), an all_reduce in a conditional inside a loop body
// and one in a loop condition: none is moved.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @misplaced(%x: tensor<4xf32>) -> tensor<4xf32> {
    %w = hlo.while(%x) : tensor<4xf32> condition {
    ^bb0(%s: tensor<4xf32>):
      %f = hlo.constant dense<false> : tensor<i1>
      %g = hlo.all_reduce(%f) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<i1>, %b: tensor<i1>):
        %o = hlo.or %a, %b : tensor<i1>
        hlo.return %o : tensor<i1>
      } : (tensor<i1>) -> tensor<i1>
      hlo.return %g : tensor<i1>
    } body {
    ^bb0(%s: tensor<4xf32>):
      %p = hlo.constant dense<true> : tensor<i1>
      %c = hlo.conditional(%p) (%s, %s) : (tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
      ^bb0(%t: tensor<4xf32>):
        %ar1 = hlo.all_reduce(%t) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
        ^bb0(%a: tensor<f32>, %b: tensor<f32>):
          %sum = hlo.add %a, %b : tensor<f32>
          hlo.return %sum : tensor<f32>
        } : (tensor<4xf32>) -> tensor<4xf32>
        hlo.return %ar1 : tensor<4xf32>
      }, {
      ^bb0(%e: tensor<4xf32>):
        hlo.return %e : tensor<4xf32>
      }
      %ar2 = hlo.all_reduce(%c) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 3 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %sum = hlo.add %a, %b : tensor<f32>
        hlo.return %sum : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      hlo.return %ar2 : tensor<4xf32>
    }
    func.return %w : tensor<4xf32>
  }
}

// CHECK-LABEL: func.func @misplaced(%x: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:      %w = hlo.while(%x) : tensor<4xf32> condition {
// CHECK-NEXT:      ^bb0(%s: tensor<4xf32>):
// CHECK-NEXT:        %f = hlo.constant dense<false> : tensor<i1>
// CHECK-NEXT:        %g = hlo.all_reduce(%f) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:        ^bb0(%a: tensor<i1>, %b: tensor<i1>):
// CHECK-NEXT:          %o = hlo.or %a, %b : tensor<i1>
// CHECK-NEXT:          hlo.return %o : tensor<i1>
// CHECK-NEXT:        } : (tensor<i1>) -> tensor<i1>
// CHECK-NEXT:        hlo.return %g : tensor<i1>
// CHECK-NEXT:      } body {
// CHECK-NEXT:      ^bb0(%s_1: tensor<4xf32>):
// CHECK-NEXT:        %p = hlo.constant dense<true> : tensor<i1>
// CHECK-NEXT:        %c = hlo.conditional(%p) (%s_1, %s_1) : (tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:        ^bb0(%t: tensor<4xf32>):
// CHECK-NEXT:          %ar1 = hlo.all_reduce(%t) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:          ^bb0(%a_1: tensor<f32>, %b_1: tensor<f32>):
// CHECK-NEXT:            %sum = hlo.add %a_1, %b_1 : tensor<f32>
// CHECK-NEXT:            hlo.return %sum : tensor<f32>
// CHECK-NEXT:          } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:          hlo.return %ar1 : tensor<4xf32>
// CHECK-NEXT:        }, {
// CHECK-NEXT:        ^bb0(%e: tensor<4xf32>):
// CHECK-NEXT:          hlo.return %e : tensor<4xf32>
// CHECK-NEXT:        }
// CHECK-NEXT:        %ar2 = hlo.all_reduce(%c) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 3 use_global_device_ids {
// CHECK-NEXT:        ^bb0(%a_2: tensor<f32>, %b_2: tensor<f32>):
// CHECK-NEXT:          %sum_1 = hlo.add %a_2, %b_2 : tensor<f32>
// CHECK-NEXT:          hlo.return %sum_1 : tensor<f32>
// CHECK-NEXT:        } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:        hlo.return %ar2 : tensor<4xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      func.return %w : tensor<4xf32>
// CHECK-NEXT:    }
// REMARK-NEXT: remark: neuron-move-reduce-scatter-while-loop: %g (hlo.all_reduce): collective is in the loop condition
// REMARK-NEXT: remark: neuron-move-reduce-scatter-while-loop: %ar1 (hlo.all_reduce): collective is not directly in the loop body
// REMARK-NEXT: remark: neuron-move-reduce-scatter-while-loop: %ar2 (hlo.all_reduce): the loop-carried value is not a tuple

// -----

// Nested loops, innermost first: the inner reduce_scatter is sunk into the outer body, where
// its result is stored in row o of the outer buffer, so it is sunk again (scatter dimension
// 0 -> 1 -> 2, channel ids 2 then 3).
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @nested(%x: tensor<3x2x16xf32>) -> tensor<3x2x2xf32> {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %obuf0 = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<3x2x2xf32>
    %init = hlo.tuple %c0, %obuf0, %x : tuple<tensor<i32>, tensor<3x2x2xf32>, tensor<3x2x16xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<3x2x2xf32>, tensor<3x2x16xf32>> condition {
    ^bb0(%s: tuple<tensor<i32>, tensor<3x2x2xf32>, tensor<3x2x16xf32>>):
      %o = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<3x2x2xf32>, tensor<3x2x16xf32>>
      %n = hlo.constant dense<3> : tensor<i32>
      %p = hlo.compare LT, %o, %n : tensor<i32> -> tensor<i1>
      hlo.return %p : tensor<i1>
    } body {
    ^bb0(%s: tuple<tensor<i32>, tensor<3x2x2xf32>, tensor<3x2x16xf32>>):
      %o = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<3x2x2xf32>, tensor<3x2x16xf32>>
      %obuf = hlo.get_tuple_element %s[1] : tuple<tensor<i32>, tensor<3x2x2xf32>, tensor<3x2x16xf32>>
      %xs = hlo.get_tuple_element %s[2] : tuple<tensor<i32>, tensor<3x2x2xf32>, tensor<3x2x16xf32>>
      %zero = hlo.constant dense<0> : tensor<i32>
      %one = hlo.constant dense<1> : tensor<i32>
      %chunk = hlo.dynamic_slice %xs at [%o, %zero, %zero] sizes = [1, 2, 16] : (tensor<3x2x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x2x16xf32>
      %xi = hlo.reshape %chunk : (tensor<1x2x16xf32>) -> tensor<2x16xf32>
      %fi = hlo.constant dense<0.000000e+00> : tensor<f32>
      %ibuf0 = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<2x2xf32>
      %iinit = hlo.tuple %zero, %ibuf0, %xi : tuple<tensor<i32>, tensor<2x2xf32>, tensor<2x16xf32>>
      %inner = hlo.while(%iinit) : tuple<tensor<i32>, tensor<2x2xf32>, tensor<2x16xf32>> condition {
      ^bb0(%t: tuple<tensor<i32>, tensor<2x2xf32>, tensor<2x16xf32>>):
        %i = hlo.get_tuple_element %t[0] : tuple<tensor<i32>, tensor<2x2xf32>, tensor<2x16xf32>>
        %m = hlo.constant dense<2> : tensor<i32>
        %q = hlo.compare LT, %i, %m : tensor<i32> -> tensor<i1>
        hlo.return %q : tensor<i1>
      } body {
      ^bb0(%t: tuple<tensor<i32>, tensor<2x2xf32>, tensor<2x16xf32>>):
        %i = hlo.get_tuple_element %t[0] : tuple<tensor<i32>, tensor<2x2xf32>, tensor<2x16xf32>>
        %ibuf = hlo.get_tuple_element %t[1] : tuple<tensor<i32>, tensor<2x2xf32>, tensor<2x16xf32>>
        %ixs = hlo.get_tuple_element %t[2] : tuple<tensor<i32>, tensor<2x2xf32>, tensor<2x16xf32>>
        %izero = hlo.constant dense<0> : tensor<i32>
        %ione = hlo.constant dense<1> : tensor<i32>
        %slice = hlo.dynamic_slice %ixs at [%i, %izero] sizes = [1, 16] : (tensor<2x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
        %v = hlo.reshape %slice : (tensor<1x16xf32>) -> tensor<16xf32>
        %rs = hlo.reduce_scatter(%v) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
        ^bb0(%a: tensor<f32>, %b: tensor<f32>):
          %sum = hlo.add %a, %b : tensor<f32>
          hlo.return %sum : tensor<f32>
        } : (tensor<16xf32>) -> tensor<2xf32>
        %row = hlo.reshape %rs : (tensor<2xf32>) -> tensor<1x2xf32>
        %ibuf2 = hlo.dynamic_update_slice %ibuf, %row at [%i, %izero] : (tensor<2x2xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<2x2xf32>
        %i2 = hlo.add %i, %ione : tensor<i32>
        %ir = hlo.tuple %i2, %ibuf2, %ixs : tuple<tensor<i32>, tensor<2x2xf32>, tensor<2x16xf32>>
        hlo.return %ir : tuple<tensor<i32>, tensor<2x2xf32>, tensor<2x16xf32>>
      }
      %res = hlo.get_tuple_element %inner[1] : tuple<tensor<i32>, tensor<2x2xf32>, tensor<2x16xf32>>
      %res3 = hlo.reshape %res : (tensor<2x2xf32>) -> tensor<1x2x2xf32>
      %obuf2 = hlo.dynamic_update_slice %obuf, %res3 at [%o, %zero, %zero] : (tensor<3x2x2xf32>, tensor<1x2x2xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<3x2x2xf32>
      %o2 = hlo.add %o, %one : tensor<i32>
      %r = hlo.tuple %o2, %obuf2, %xs : tuple<tensor<i32>, tensor<3x2x2xf32>, tensor<3x2x16xf32>>
      hlo.return %r : tuple<tensor<i32>, tensor<3x2x2xf32>, tensor<3x2x16xf32>>
    }
    %out = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<3x2x2xf32>, tensor<3x2x16xf32>>
    func.return %out : tensor<3x2x2xf32>
  }
}

// CHECK-LABEL: func.func @nested(%x: tensor<3x2x16xf32>) -> tensor<3x2x2xf32> {
// CHECK-NEXT:      %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:      %rs_zero = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:      %rs_init = hlo.broadcast %rs_zero, dims = [] : (tensor<f32>) -> tensor<3x2x16xf32>
// CHECK-NEXT:      %init = hlo.tuple %c0, %rs_init, %x : tuple<tensor<i32>, tensor<3x2x16xf32>, tensor<3x2x16xf32>>
// CHECK-NEXT:      %w = hlo.while(%init) : tuple<tensor<i32>, tensor<3x2x16xf32>, tensor<3x2x16xf32>> condition {
// CHECK-NEXT:      ^bb0(%s: tuple<tensor<i32>, tensor<3x2x16xf32>, tensor<3x2x16xf32>>):
// CHECK-NEXT:        %o = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<3x2x16xf32>, tensor<3x2x16xf32>>
// CHECK-NEXT:        %n = hlo.constant dense<3> : tensor<i32>
// CHECK-NEXT:        %p = hlo.compare LT, %o, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:        hlo.return %p : tensor<i1>
// CHECK-NEXT:      } body {
// CHECK-NEXT:      ^bb0(%s_1: tuple<tensor<i32>, tensor<3x2x16xf32>, tensor<3x2x16xf32>>):
// CHECK-NEXT:        %o_1 = hlo.get_tuple_element %s_1[0] : tuple<tensor<i32>, tensor<3x2x16xf32>, tensor<3x2x16xf32>>
// CHECK-NEXT:        %xs = hlo.get_tuple_element %s_1[2] : tuple<tensor<i32>, tensor<3x2x16xf32>, tensor<3x2x16xf32>>
// CHECK-NEXT:        %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:        %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:        %chunk = hlo.dynamic_slice %xs at [%o_1, %zero, %zero] sizes = [1, 2, 16] : (tensor<3x2x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x2x16xf32>
// CHECK-NEXT:        %xi = hlo.reshape %chunk : (tensor<1x2x16xf32>) -> tensor<2x16xf32>
// CHECK-NEXT:        %rs_zero_1 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:        %rs_init_1 = hlo.broadcast %rs_zero_1, dims = [] : (tensor<f32>) -> tensor<2x16xf32>
// CHECK-NEXT:        %iinit = hlo.tuple %zero, %rs_init_1, %xi : tuple<tensor<i32>, tensor<2x16xf32>, tensor<2x16xf32>>
// CHECK-NEXT:        %inner = hlo.while(%iinit) : tuple<tensor<i32>, tensor<2x16xf32>, tensor<2x16xf32>> condition {
// CHECK-NEXT:        ^bb0(%t: tuple<tensor<i32>, tensor<2x16xf32>, tensor<2x16xf32>>):
// CHECK-NEXT:          %i = hlo.get_tuple_element %t[0] : tuple<tensor<i32>, tensor<2x16xf32>, tensor<2x16xf32>>
// CHECK-NEXT:          %m = hlo.constant dense<2> : tensor<i32>
// CHECK-NEXT:          %q = hlo.compare LT, %i, %m : tensor<i32> -> tensor<i1>
// CHECK-NEXT:          hlo.return %q : tensor<i1>
// CHECK-NEXT:        } body {
// CHECK-NEXT:        ^bb0(%t_1: tuple<tensor<i32>, tensor<2x16xf32>, tensor<2x16xf32>>):
// CHECK-NEXT:          %i_1 = hlo.get_tuple_element %t_1[0] : tuple<tensor<i32>, tensor<2x16xf32>, tensor<2x16xf32>>
// CHECK-NEXT:          %ixs = hlo.get_tuple_element %t_1[2] : tuple<tensor<i32>, tensor<2x16xf32>, tensor<2x16xf32>>
// CHECK-NEXT:          %izero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:          %ione = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:          %slice = hlo.dynamic_slice %ixs at [%i_1, %izero] sizes = [1, 16] : (tensor<2x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
// CHECK-NEXT:          %v = hlo.reshape %slice : (tensor<1x16xf32>) -> tensor<16xf32>
// CHECK-NEXT:          %ibuf = hlo.get_tuple_element %t_1[1] : tuple<tensor<i32>, tensor<2x16xf32>, tensor<2x16xf32>>
// CHECK-NEXT:          %rs_row = hlo.reshape %v : (tensor<16xf32>) -> tensor<1x16xf32>
// CHECK-NEXT:          %ibuf2 = hlo.dynamic_update_slice %ibuf, %rs_row at [%i_1, %izero] : (tensor<2x16xf32>, tensor<1x16xf32>, tensor<i32>, tensor<i32>) -> tensor<2x16xf32>
// CHECK-NEXT:          %i2 = hlo.add %i_1, %ione : tensor<i32>
// CHECK-NEXT:          %ir = hlo.tuple %i2, %ibuf2, %ixs : tuple<tensor<i32>, tensor<2x16xf32>, tensor<2x16xf32>>
// CHECK-NEXT:          hlo.return %ir : tuple<tensor<i32>, tensor<2x16xf32>, tensor<2x16xf32>>
// CHECK-NEXT:        }
// CHECK-NEXT:        %rs_stacked = hlo.get_tuple_element %inner[1] : tuple<tensor<i32>, tensor<2x16xf32>, tensor<2x16xf32>>
// CHECK-NEXT:        %obuf = hlo.get_tuple_element %s_1[1] : tuple<tensor<i32>, tensor<3x2x16xf32>, tensor<3x2x16xf32>>
// CHECK-NEXT:        %rs_row_1 = hlo.reshape %rs_stacked : (tensor<2x16xf32>) -> tensor<1x2x16xf32>
// CHECK-NEXT:        %obuf2 = hlo.dynamic_update_slice %obuf, %rs_row_1 at [%o_1, %zero, %zero] : (tensor<3x2x16xf32>, tensor<1x2x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<3x2x16xf32>
// CHECK-NEXT:        %o2 = hlo.add %o_1, %one : tensor<i32>
// CHECK-NEXT:        %r = hlo.tuple %o2, %obuf2, %xs : tuple<tensor<i32>, tensor<3x2x16xf32>, tensor<3x2x16xf32>>
// CHECK-NEXT:        hlo.return %r : tuple<tensor<i32>, tensor<3x2x16xf32>, tensor<3x2x16xf32>>
// CHECK-NEXT:      }
// CHECK-NEXT:      %rs_stacked_1 = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<3x2x16xf32>, tensor<3x2x16xf32>>
// CHECK-NEXT:      %rs = hlo.reduce_scatter(%rs_stacked_1) dim = 2 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 3 use_global_device_ids {
// CHECK-NEXT:      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:        %sum = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:        hlo.return %sum : tensor<f32>
// CHECK-NEXT:      } : (tensor<3x2x16xf32>) -> tensor<3x2x2xf32>
// CHECK-NEXT:      func.return %rs : tensor<3x2x2xf32>
// CHECK-NEXT:    }
// REMARK-NEXT: remark: neuron-move-reduce-scatter-while-loop: %rs (hlo.reduce_scatter): moved
// REMARK-NEXT: remark: neuron-move-reduce-scatter-while-loop: %rs (hlo.reduce_scatter): moved

// -----

// One loop, three collectives: a reduce_scatter and an all_reduce stored into rows (both
// moved, in one rewrite of the loop) and an all_reduce accumulation (not moved). The function
// returns the whole carried tuple, which is rebuilt after the loop.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @mixed(%x: tensor<4x16xf32>) -> tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<4x16xf32>> {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %buf0 = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
    %wide0 = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %acc0 = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %init = hlo.tuple %c0, %buf0, %wide0, %acc0, %x : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<4x16xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<4x16xf32>> condition {
    ^bb0(%s: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<4x16xf32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<4x16xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
      hlo.return %p : tensor<i1>
    } body {
    ^bb0(%s: tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<4x16xf32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<4x16xf32>>
      %buf = hlo.get_tuple_element %s[1] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<4x16xf32>>
      %wide = hlo.get_tuple_element %s[2] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<4x16xf32>>
      %acc = hlo.get_tuple_element %s[3] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<4x16xf32>>
      %xs = hlo.get_tuple_element %s[4] : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<4x16xf32>>
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
      %ar = hlo.all_reduce(%slice) replica_groups = [[0, 1, 2, 3], [4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %sum = hlo.add %a, %b : tensor<f32>
        hlo.return %sum : tensor<f32>
      } : (tensor<1x16xf32>) -> tensor<1x16xf32>
      %wide2 = hlo.dynamic_update_slice %wide, %ar at [%i, %zero] : (tensor<4x16xf32>, tensor<1x16xf32>, tensor<i32>, tensor<i32>) -> tensor<4x16xf32>
      %total = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 3 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %sum = hlo.add %a, %b : tensor<f32>
        hlo.return %sum : tensor<f32>
      } : (tensor<16xf32>) -> tensor<16xf32>
      %acc2 = hlo.add %acc, %total : tensor<16xf32>
      %i2 = hlo.add %i, %one : tensor<i32>
      %r = hlo.tuple %i2, %buf2, %wide2, %acc2, %xs : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<4x16xf32>>
      hlo.return %r : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<4x16xf32>>
    }
    func.return %w : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<4x16xf32>>
  }
}

// CHECK-LABEL: func.func @mixed(%x: tensor<4x16xf32>) -> tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<4x16xf32>> {
// CHECK-NEXT:      %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:      %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:      %acc0 = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<16xf32>
// CHECK-NEXT:      %rs_zero = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:      %rs_init = hlo.broadcast %rs_zero, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
// CHECK-NEXT:      %ar_zero = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:      %ar_init = hlo.broadcast %ar_zero, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
// CHECK-NEXT:      %init = hlo.tuple %c0, %rs_init, %ar_init, %acc0, %x : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<4x16xf32>> condition {
// CHECK-NEXT:      ^bb0(%s: tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<4x16xf32>>):
// CHECK-NEXT:        %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:        %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:        hlo.return %p : tensor<i1>
// CHECK-NEXT:      } body {
// CHECK-NEXT:      ^bb0(%s_1: tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<4x16xf32>>):
// CHECK-NEXT:        %i_1 = hlo.get_tuple_element %s_1[0] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %acc = hlo.get_tuple_element %s_1[3] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %xs = hlo.get_tuple_element %s_1[4] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:        %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:        %slice = hlo.dynamic_slice %xs at [%i_1, %zero] sizes = [1, 16] : (tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
// CHECK-NEXT:        %v = hlo.reshape %slice : (tensor<1x16xf32>) -> tensor<16xf32>
// CHECK-NEXT:        %buf = hlo.get_tuple_element %s_1[1] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %rs_row = hlo.reshape %v : (tensor<16xf32>) -> tensor<1x16xf32>
// CHECK-NEXT:        %buf2 = hlo.dynamic_update_slice %buf, %rs_row at [%i_1, %zero] : (tensor<4x16xf32>, tensor<1x16xf32>, tensor<i32>, tensor<i32>) -> tensor<4x16xf32>
// CHECK-NEXT:        %wide = hlo.get_tuple_element %s_1[2] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        %wide2 = hlo.dynamic_update_slice %wide, %slice at [%i_1, %zero] : (tensor<4x16xf32>, tensor<1x16xf32>, tensor<i32>, tensor<i32>) -> tensor<4x16xf32>
// CHECK-NEXT:        %total = hlo.all_reduce(%v) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 3 use_global_device_ids {
// CHECK-NEXT:        ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:          %sum = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:          hlo.return %sum : tensor<f32>
// CHECK-NEXT:        } : (tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT:        %acc2 = hlo.add %acc, %total : tensor<16xf32>
// CHECK-NEXT:        %i2 = hlo.add %i_1, %one : tensor<i32>
// CHECK-NEXT:        %r = hlo.tuple %i2, %buf2, %wide2, %acc2, %xs : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:        hlo.return %r : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      }
// CHECK-NEXT:      %rs_stacked = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      %rs = hlo.reduce_scatter(%rs_stacked) dim = 1 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 4 use_global_device_ids {
// CHECK-NEXT:      ^bb0(%a_1: tensor<f32>, %b_1: tensor<f32>):
// CHECK-NEXT:        %sum_1 = hlo.add %a_1, %b_1 : tensor<f32>
// CHECK-NEXT:        hlo.return %sum_1 : tensor<f32>
// CHECK-NEXT:      } : (tensor<4x16xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:      %ar_stacked = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      %ar = hlo.all_reduce(%ar_stacked) replica_groups = [[0, 1, 2, 3], [4, 5, 6, 7]] channel_id = 5 use_global_device_ids {
// CHECK-NEXT:      ^bb0(%a_2: tensor<f32>, %b_2: tensor<f32>):
// CHECK-NEXT:        %sum_2 = hlo.add %a_2, %b_2 : tensor<f32>
// CHECK-NEXT:        hlo.return %sum_2 : tensor<f32>
// CHECK-NEXT:      } : (tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:      %w_slot0 = hlo.get_tuple_element %w[0] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      %w_slot3 = hlo.get_tuple_element %w[3] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      %w_slot4 = hlo.get_tuple_element %w[4] : tuple<tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      %w_tuple = hlo.tuple %w_slot0, %rs, %ar, %w_slot3, %w_slot4 : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:      func.return %w_tuple : tuple<tensor<i32>, tensor<4x2xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<4x16xf32>>
// CHECK-NEXT:    }
// REMARK-NEXT: remark: neuron-move-reduce-scatter-while-loop: %rs (hlo.reduce_scatter): moved
// REMARK-NEXT: remark: neuron-move-reduce-scatter-while-loop: %ar (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-move-reduce-scatter-while-loop: %total (hlo.all_reduce): result is not written into a loop-carried buffer by dynamic-update-slice
