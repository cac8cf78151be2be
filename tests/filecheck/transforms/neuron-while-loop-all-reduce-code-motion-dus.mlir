// RUN: neuron-opt %s --split-input-file -p neuron-while-loop-all-reduce-code-motion | filecheck %s
// RUN: neuron-opt %s --split-input-file -p 'neuron-while-loop-all-reduce-code-motion{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// neuron-while-loop-all-reduce-code-motion, dynamic-update-slice mode (XLA's
// MatchDynamicUpdateSliceContext): an all-reduce with any simple reducer whose result (through
// reshape/bitcast/convert) is written by dynamic-update-slices into rows of slot k indexed by a
// loop counter runs ONCE after the loop on the written box: get_tuple_element -> [slice] ->
// [convert] -> all_reduce -> [convert] -> [dynamic_update_slice at i64 constant offsets], and
// the body keeps the local values. One case per rewrite, then one negative case per legality
// rule. The REMARK lines are the reasons of match_update_slice, then the pass's summary line
// (counting the sunk all-reduces); the negative cases use non-add reducers, so the accumulation
// mode does not apply and the pass reports the dynamic-update-slice reason.
// tests/test_update_slices.py parses these modules, checks the matched boxes and reasons, and
// proves every rewrite semantics-preserving on the interpreter. Sunk all-reduces get a fresh
// channel id (1 + the largest of the module) only when the original had one; old
// get_tuple_element reads of slot k are replaced by the final value (which takes their name),
// and whole uses of the loop result read a rebuilt tuple.

// XLA SingleAllReduceDUS: a maximum all-reduce reshaped into row i of a 16-row buffer over 16
// iterations writes the whole buffer: no slice, no dynamic-update-slice after the loop.
builtin.module @dus_max_whole attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %n = hlo.constant dense<16> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
      %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
      %v1 = hlo.add %v, %bi : tensor<16xf32>
      %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
      %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
      %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = hlo.maximum %a, %b : tensor<f32>
        hlo.return %m : tensor<f32>
      } : (tensor<f32>) -> tensor<f32>
      %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
      %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
      %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    }
    %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: builtin.module @dus_max_whole attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<16> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
// CHECK-NEXT:       %v1 = hlo.add %v, %bi : tensor<16xf32>
// CHECK-NEXT:       %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT:       %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT:       %update = hlo.reshape %local : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT:       %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     %r = hlo.all_reduce([[V0]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %m = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %m : tensor<f32>
// CHECK-NEXT:     } : (tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT:     func.return %r : tensor<16xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops

// -----

// XLA MultipleDUSAndConvert: a f16 minimum converted (exactly) to f32 and written by two
// dynamic-update-slices (column 2 of a row built from another slot, then row i): the box is
// [8, 1] at [0, 2]; slice it, convert to f16, all-reduce, convert back, write it back.
builtin.module @dus_min_convert_two_dus attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<8xf16>, %row: tensor<1x6xf32>, %buf: tensor<8x6xf32>) -> tensor<8x6xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x, %row, %buf : tuple<tensor<i32>, tensor<8xf16>, tensor<1x6xf32>, tensor<8x6xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<8xf16>, tensor<1x6xf32>, tensor<8x6xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<8xf16>, tensor<1x6xf32>, tensor<8x6xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<8xf16>, tensor<1x6xf32>, tensor<8x6xf32>>
      %n = hlo.constant dense<8> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<8xf16>, tensor<1x6xf32>, tensor<8x6xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<8xf16>, tensor<1x6xf32>, tensor<8x6xf32>>
      %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<8xf16>, tensor<1x6xf32>, tensor<8x6xf32>>
      %r0 = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<8xf16>, tensor<1x6xf32>, tensor<8x6xf32>>
      %out = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<8xf16>, tensor<1x6xf32>, tensor<8x6xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %z = hlo.constant dense<0> : tensor<i32>
      %two = hlo.constant dense<2> : tensor<i32>
      %head = hlo.slice %r0, start = [0, 0], limit = [1, 1], strides = [1, 1] : (tensor<1x6xf32>) -> tensor<1x1xf32>
      %tail = hlo.slice %r0, start = [0, 1], limit = [1, 6], strides = [1, 1] : (tensor<1x6xf32>) -> tensor<1x5xf32>
      %rot = hlo.concatenate(%tail, %head) dim = 1 : (tensor<1x5xf32>, tensor<1x1xf32>) -> tensor<1x6xf32>
      %elem = hlo.dynamic_slice %v at [%i] sizes = [1] : (tensor<8xf16>, tensor<i32>) -> tensor<1xf16>
      %local = hlo.reshape %elem : (tensor<1xf16>) -> tensor<f16>
      %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f16>, %b: tensor<f16>):
        %m = hlo.minimum %a, %b : tensor<f16>
        hlo.return %m : tensor<f16>
      } : (tensor<f16>) -> tensor<f16>
      %wide = hlo.convert %ar : tensor<f16> -> tensor<f32>
      %update = hlo.reshape %wide : (tensor<f32>) -> tensor<1x1xf32>
      %dus1 = hlo.dynamic_update_slice %rot, %update at [%z, %two] : (tensor<1x6xf32>, tensor<1x1xf32>, tensor<i32>, tensor<i32>) -> tensor<1x6xf32>
      %dus2 = hlo.dynamic_update_slice %out, %dus1 at [%i, %z] : (tensor<8x6xf32>, tensor<1x6xf32>, tensor<i32>, tensor<i32>) -> tensor<8x6xf32>
      %next = hlo.tuple %i1, %v, %rot, %dus2 : tuple<tensor<i32>, tensor<8xf16>, tensor<1x6xf32>, tensor<8x6xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<8xf16>, tensor<1x6xf32>, tensor<8x6xf32>>
    }
    %r = hlo.get_tuple_element %w[3] : tuple<tensor<i32>, tensor<8xf16>, tensor<1x6xf32>, tensor<8x6xf32>>
    func.return %r : tensor<8x6xf32>
  }
}

// CHECK-LABEL: builtin.module @dus_min_convert_two_dus attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<8xf16>, %row: tensor<1x6xf32>, %buf: tensor<8x6xf32>) -> tensor<8x6xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x, %row, %buf : tuple<tensor<i32>, tensor<8xf16>, tensor<1x6xf32>, tensor<8x6xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<8xf16>, tensor<1x6xf32>, tensor<8x6xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<8xf16>, tensor<1x6xf32>, tensor<8x6xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<8xf16>, tensor<1x6xf32>, tensor<8x6xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<8> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<8xf16>, tensor<1x6xf32>, tensor<8x6xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<8xf16>, tensor<1x6xf32>, tensor<8x6xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<8xf16>, tensor<1x6xf32>, tensor<8x6xf32>>
// CHECK-NEXT:       %r0 = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<8xf16>, tensor<1x6xf32>, tensor<8x6xf32>>
// CHECK-NEXT:       %out = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<8xf16>, tensor<1x6xf32>, tensor<8x6xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %z = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:       %two = hlo.constant dense<2> : tensor<i32>
// CHECK-NEXT:       %head = hlo.slice %r0, start = [0, 0], limit = [1, 1], strides = [1, 1] : (tensor<1x6xf32>) -> tensor<1x1xf32>
// CHECK-NEXT:       %tail = hlo.slice %r0, start = [0, 1], limit = [1, 6], strides = [1, 1] : (tensor<1x6xf32>) -> tensor<1x5xf32>
// CHECK-NEXT:       %rot = hlo.concatenate(%tail, %head) dim = 1 : (tensor<1x5xf32>, tensor<1x1xf32>) -> tensor<1x6xf32>
// CHECK-NEXT:       %elem = hlo.dynamic_slice %v at [%i] sizes = [1] : (tensor<8xf16>, tensor<i32>) -> tensor<1xf16>
// CHECK-NEXT:       %local = hlo.reshape %elem : (tensor<1xf16>) -> tensor<f16>
// CHECK-NEXT:       %wide = hlo.convert %local : tensor<f16> -> tensor<f32>
// CHECK-NEXT:       %update = hlo.reshape %wide : (tensor<f32>) -> tensor<1x1xf32>
// CHECK-NEXT:       %dus1 = hlo.dynamic_update_slice %rot, %update at [%z, %two] : (tensor<1x6xf32>, tensor<1x1xf32>, tensor<i32>, tensor<i32>) -> tensor<1x6xf32>
// CHECK-NEXT:       %dus2 = hlo.dynamic_update_slice %out, %dus1 at [%i, %z] : (tensor<8x6xf32>, tensor<1x6xf32>, tensor<i32>, tensor<i32>) -> tensor<8x6xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v, %rot, %dus2 : tuple<tensor<i32>, tensor<8xf16>, tensor<1x6xf32>, tensor<8x6xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<8xf16>, tensor<1x6xf32>, tensor<8x6xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.get_tuple_element %w[3] : tuple<tensor<i32>, tensor<8xf16>, tensor<1x6xf32>, tensor<8x6xf32>>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.slice [[V0]], start = [0, 2], limit = [8, 3], strides = [1, 1] : (tensor<8x6xf32>) -> tensor<8x1xf32>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.convert [[V1]] : tensor<8x1xf32> -> tensor<8x1xf16>
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.all_reduce([[V2]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<f16>, %b: tensor<f16>):
// CHECK-NEXT:       %m = hlo.minimum %a, %b : tensor<f16>
// CHECK-NEXT:       hlo.return %m : tensor<f16>
// CHECK-NEXT:     } : (tensor<8x1xf16>) -> tensor<8x1xf16>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.convert [[V3]] : tensor<8x1xf16> -> tensor<8x1xf32>
// CHECK-NEXT:     [[V5:%[0-9]+]] = hlo.constant dense<0> : tensor<i64>
// CHECK-NEXT:     [[V6:%[0-9]+]] = hlo.constant dense<2> : tensor<i64>
// CHECK-NEXT:     %r = hlo.dynamic_update_slice [[V0]], [[V4]] at [[[V5]], [[V6]]] : (tensor<8x6xf32>, tensor<8x1xf32>, tensor<i64>, tensor<i64>) -> tensor<8x6xf32>
// CHECK-NEXT:     func.return %r : tensor<8x6xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops

// -----

// XLA MultipleAllReduceDifferentTypes (+ DusHoistPermittedWhenUnrelatedGteSharesIndex): an add
// and a multiply all-reduce (one through bitcast) into two slots; a get_tuple_element of an
// unrelated tuple at index 2 does not matter; the whole loop result is used (rebuilt tuple).
builtin.module @dus_add_and_multiply attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x, %buf, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
      %n = hlo.constant dense<16> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
      %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
      %sums = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
      %prods = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %f1 = hlo.constant dense<1.000000e+00> : tensor<f32>
      %pair = hlo.tuple %f1, %v : tuple<tensor<f32>, tensor<16xf32>>
      %decoy = hlo.get_tuple_element %pair[1] : tuple<tensor<f32>, tensor<16xf32>>
      %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
      %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
      %v1 = hlo.add %decoy, %bi : tensor<16xf32>
      %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
      %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
      %sum = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3], [4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<f32>) -> tensor<f32>
      %sum_row = hlo.reshape %sum : (tensor<f32>) -> tensor<1xf32>
      %sums1 = hlo.dynamic_update_slice %sums, %sum_row at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
      %prod = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %p = hlo.multiply %a, %b : tensor<f32>
        hlo.return %p : tensor<f32>
      } : (tensor<f32>) -> tensor<f32>
      %prod_row = hlo.bitcast %prod : (tensor<f32>) -> tensor<1xf32>
      %prods1 = hlo.dynamic_update_slice %prods, %prod_row at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
      %next = hlo.tuple %i1, %v1, %sums1, %prods1 : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
    }
    func.return %w : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
  }
}

// CHECK-LABEL: builtin.module @dus_add_and_multiply attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x, %buf, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<16> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %sums = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %prods = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %f1 = hlo.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:       %pair = hlo.tuple %f1, %v : tuple<tensor<f32>, tensor<16xf32>>
// CHECK-NEXT:       %decoy = hlo.get_tuple_element %pair[1] : tuple<tensor<f32>, tensor<16xf32>>
// CHECK-NEXT:       %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
// CHECK-NEXT:       %v1 = hlo.add %decoy, %bi : tensor<16xf32>
// CHECK-NEXT:       %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT:       %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT:       %sum_row = hlo.reshape %local : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT:       %sums1 = hlo.dynamic_update_slice %sums, %sum_row at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
// CHECK-NEXT:       %prod_row = hlo.bitcast %local : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT:       %prods1 = hlo.dynamic_update_slice %prods, %prod_row at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v1, %sums1, %prods1 : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.all_reduce([[V0]]) replica_groups = [[0, 1, 2, 3], [4, 5, 6, 7]] channel_id = 3 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %s : tensor<f32>
// CHECK-NEXT:     } : (tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.get_tuple_element %w[3] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.all_reduce([[V2]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 4 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a_1: tensor<f32>, %b_1: tensor<f32>):
// CHECK-NEXT:       %p = hlo.multiply %a_1, %b_1 : tensor<f32>
// CHECK-NEXT:       hlo.return %p : tensor<f32>
// CHECK-NEXT:     } : (tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.get_tuple_element %w[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     [[V5:%[0-9]+]] = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     [[V6:%[0-9]+]] = hlo.tuple [[V4]], [[V5]], [[V1]], [[V3]] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     func.return [[V6]] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %sum (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %prod (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 2 all-reduce and 0 reduce-scatter out of while loops

// -----

// XLA ReverseIndexing, generalised: row 17 - i of a 20-row buffer over 16 iterations writes rows
// [2, 18) (XLA only accepts (T - 1) - i into rows [0, T)).
builtin.module @dus_reverse_offset attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<16xf32>, %buf: tensor<20xf32>) -> tensor<20xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>
      %n = hlo.constant dense<16> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>
      %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>
      %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
      %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
      %v1 = hlo.add %v, %bi : tensor<16xf32>
      %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
      %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
      %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = hlo.maximum %a, %b : tensor<f32>
        hlo.return %m : tensor<f32>
      } : (tensor<f32>) -> tensor<f32>
      %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
      %c17 = hlo.constant dense<17> : tensor<i32>
      %row = hlo.subtract %c17, %i : tensor<i32>
      %dus = hlo.dynamic_update_slice %out, %update at [%row] : (tensor<20xf32>, tensor<1xf32>, tensor<i32>) -> tensor<20xf32>
      %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>
    }
    %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>
    func.return %r : tensor<20xf32>
  }
}

// CHECK-LABEL: builtin.module @dus_reverse_offset attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<16xf32>, %buf: tensor<20xf32>) -> tensor<20xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<16> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>
// CHECK-NEXT:       %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
// CHECK-NEXT:       %v1 = hlo.add %v, %bi : tensor<16xf32>
// CHECK-NEXT:       %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT:       %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT:       %update = hlo.reshape %local : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT:       %c17 = hlo.constant dense<17> : tensor<i32>
// CHECK-NEXT:       %row = hlo.subtract %c17, %i : tensor<i32>
// CHECK-NEXT:       %dus = hlo.dynamic_update_slice %out, %update at [%row] : (tensor<20xf32>, tensor<1xf32>, tensor<i32>) -> tensor<20xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.slice [[V0]], start = [2], limit = [18], strides = [1] : (tensor<20xf32>) -> tensor<16xf32>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.all_reduce([[V1]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %m = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %m : tensor<f32>
// CHECK-NEXT:     } : (tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.constant dense<2> : tensor<i64>
// CHECK-NEXT:     %r = hlo.dynamic_update_slice [[V0]], [[V2]] at [[[V3]]] : (tensor<20xf32>, tensor<16xf32>, tensor<i64>) -> tensor<20xf32>
// CHECK-NEXT:     func.return %r : tensor<20xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops

// -----

// A JAX scan: the condition tests counter slot 0, the rows follow the scan index slot 3 (start
// 0, step 1) through JAX's select(j < 0, j + 6, j); 8 replicas, no channel id (none is added).
builtin.module @dus_scan_counter attributes {hlo.num_replicas = 8 : i64} {
  func.func @main(%xs: tensor<6x4xf32>, %ys: tensor<6x4xf32>) -> tensor<6x4xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %xs, %ys, %c0 : tuple<tensor<i32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<i32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<i32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<i32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<i32>>
      %n = hlo.constant dense<6> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<i32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<i32>>
      %xs_in = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<i32>>
      %ys_in = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<i32>>
      %j = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<i32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %j1 = hlo.add %j, %one : tensor<i32>
      %zero = hlo.constant dense<0> : tensor<i32>
      %six = hlo.constant dense<6> : tensor<i32>
      %neg = hlo.compare LT, %j, %zero : tensor<i32> -> tensor<i1>
      %wrapped = hlo.add %j, %six : tensor<i32>
      %jn = hlo.select %neg, %wrapped, %j : tensor<i1>, tensor<i32>
      %x_row = hlo.dynamic_slice %xs_in at [%jn, %zero] sizes = [1, 4] : (tensor<6x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
      %x = hlo.reshape %x_row : (tensor<1x4xf32>) -> tensor<4xf32>
      %g = hlo.multiply %x, %x : tensor<4xf32>
      %ar = hlo.all_reduce(%g) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %g_row = hlo.reshape %ar : (tensor<4xf32>) -> tensor<1x4xf32>
      %ys1 = hlo.dynamic_update_slice %ys_in, %g_row at [%jn, %zero] : (tensor<6x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<6x4xf32>
      %next = hlo.tuple %i1, %xs_in, %ys1, %j1 : tuple<tensor<i32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<i32>>
      hlo.return %next : tuple<tensor<i32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<i32>>
    }
    %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<i32>>
    func.return %r : tensor<6x4xf32>
  }
}

// CHECK-LABEL: builtin.module @dus_scan_counter attributes {hlo.num_replicas = 8 : i64} {
// CHECK-NEXT:   func.func @main(%xs: tensor<6x4xf32>, %ys: tensor<6x4xf32>) -> tensor<6x4xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %xs, %ys, %c0 : tuple<tensor<i32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<i32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<i32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<i32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<i32>>
// CHECK-NEXT:       %n = hlo.constant dense<6> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<i32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<i32>>
// CHECK-NEXT:       %xs_in = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<i32>>
// CHECK-NEXT:       %ys_in = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<i32>>
// CHECK-NEXT:       %j = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<i32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %j1 = hlo.add %j, %one : tensor<i32>
// CHECK-NEXT:       %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:       %six = hlo.constant dense<6> : tensor<i32>
// CHECK-NEXT:       %neg = hlo.compare LT, %j, %zero : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       %wrapped = hlo.add %j, %six : tensor<i32>
// CHECK-NEXT:       %jn = hlo.select %neg, %wrapped, %j : tensor<i1>, tensor<i32>
// CHECK-NEXT:       %x_row = hlo.dynamic_slice %xs_in at [%jn, %zero] sizes = [1, 4] : (tensor<6x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
// CHECK-NEXT:       %x = hlo.reshape %x_row : (tensor<1x4xf32>) -> tensor<4xf32>
// CHECK-NEXT:       %g = hlo.multiply %x, %x : tensor<4xf32>
// CHECK-NEXT:       %g_row = hlo.reshape %g : (tensor<4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT:       %ys1 = hlo.dynamic_update_slice %ys_in, %g_row at [%jn, %zero] : (tensor<6x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<6x4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %xs_in, %ys1, %j1 : tuple<tensor<i32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<i32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<i32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<i32>>
// CHECK-NEXT:     %r = hlo.all_reduce([[V0]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %s : tensor<f32>
// CHECK-NEXT:     } : (tensor<6x4xf32>) -> tensor<6x4xf32>
// CHECK-NEXT:     func.return %r : tensor<6x4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops

// -----

// Constant indices only: every iteration writes [3, 7) and the last one wins; the all-reduce
// of the last local values runs after the loop.
builtin.module @dus_constant_index attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<16xf32>, %buf: tensor<20xf32>) -> tensor<20xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>
      %n = hlo.constant dense<16> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>
      %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>
      %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
      %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
      %v1 = hlo.add %v, %bi : tensor<16xf32>
      %local = hlo.slice %v1, start = [0], limit = [4], strides = [1] : (tensor<16xf32>) -> tensor<4xf32>
      %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = hlo.maximum %a, %b : tensor<f32>
        hlo.return %m : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %c3 = hlo.constant dense<3> : tensor<i32>
      %dus = hlo.dynamic_update_slice %out, %ar at [%c3] : (tensor<20xf32>, tensor<4xf32>, tensor<i32>) -> tensor<20xf32>
      %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>
    }
    %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>
    func.return %r : tensor<20xf32>
  }
}

// CHECK-LABEL: builtin.module @dus_constant_index attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<16xf32>, %buf: tensor<20xf32>) -> tensor<20xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<16> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>
// CHECK-NEXT:       %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
// CHECK-NEXT:       %v1 = hlo.add %v, %bi : tensor<16xf32>
// CHECK-NEXT:       %local = hlo.slice %v1, start = [0], limit = [4], strides = [1] : (tensor<16xf32>) -> tensor<4xf32>
// CHECK-NEXT:       %c3 = hlo.constant dense<3> : tensor<i32>
// CHECK-NEXT:       %dus = hlo.dynamic_update_slice %out, %local at [%c3] : (tensor<20xf32>, tensor<4xf32>, tensor<i32>) -> tensor<20xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<20xf32>>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.slice [[V0]], start = [3], limit = [7], strides = [1] : (tensor<20xf32>) -> tensor<4xf32>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.all_reduce([[V1]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %m = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %m : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.constant dense<3> : tensor<i64>
// CHECK-NEXT:     %r = hlo.dynamic_update_slice [[V0]], [[V2]] at [[[V3]]] : (tensor<20xf32>, tensor<4xf32>, tensor<i64>) -> tensor<20xf32>
// CHECK-NEXT:     func.return %r : tensor<20xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops

// -----

// XLA LoopConditionUserPreventsCodeMotion: the condition has a get_tuple_element of slot k (even
// one without uses): refused, as upstream refuses it in this mode.
builtin.module @dus_condition_unused_gte attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %unused = hlo.get_tuple_element %cs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %n = hlo.constant dense<16> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
      %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
      %v1 = hlo.add %v, %bi : tensor<16xf32>
      %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
      %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
      %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = hlo.maximum %a, %b : tensor<f32>
        hlo.return %m : tensor<f32>
      } : (tensor<f32>) -> tensor<f32>
      %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
      %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
      %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    }
    %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: builtin.module @dus_condition_unused_gte attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %unused = hlo.get_tuple_element %cs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<16> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
// CHECK-NEXT:       %v1 = hlo.add %v, %bi : tensor<16xf32>
// CHECK-NEXT:       %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT:       %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %m = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %m : tensor<f32>
// CHECK-NEXT:       } : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:       %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT:       %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     func.return %r : tensor<16xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): slot 2 is read by the loop condition
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// Nested loops: the inner all-reduce sinks into the outer body, where it feeds row j of the
// outer buffer and sinks again (inner loops first; channel ids 2 then 3).
builtin.module @dus_nested attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%xs: tensor<4x8xf32>, %ys: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %xs, %ys : tuple<tensor<i32>, tensor<4x8xf32>, tensor<4x8xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x8xf32>, tensor<4x8xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<4x8xf32>, tensor<4x8xf32>>):
      %cj = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4x8xf32>, tensor<4x8xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %lt = hlo.compare LT, %cj, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<4x8xf32>, tensor<4x8xf32>>):
      %j = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4x8xf32>, tensor<4x8xf32>>
      %xs_in = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4x8xf32>, tensor<4x8xf32>>
      %ys_in = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4x8xf32>, tensor<4x8xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %j1 = hlo.add %j, %one : tensor<i32>
      %zero = hlo.constant dense<0> : tensor<i32>
      %x_row = hlo.dynamic_slice %xs_in at [%j, %zero] sizes = [1, 8] : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<1x8xf32>
      %x = hlo.reshape %x_row : (tensor<1x8xf32>) -> tensor<8xf32>
      %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
      %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<8xf32>
      %inner_init = hlo.tuple %zero, %x, %zeros : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
      %inner = hlo.while(%inner_init) : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>> condition {
      ^bb0(%ics: tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>):
        %ci = hlo.get_tuple_element %ics[0] : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
        %m8 = hlo.constant dense<8> : tensor<i32>
        %ilt = hlo.compare LT, %ci, %m8 : tensor<i32> -> tensor<i1>
        hlo.return %ilt : tensor<i1>
      } body {
      ^bb0(%ibs: tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>):
        %i = hlo.get_tuple_element %ibs[0] : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
        %v = hlo.get_tuple_element %ibs[1] : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
        %acc = hlo.get_tuple_element %ibs[2] : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
        %ione = hlo.constant dense<1> : tensor<i32>
        %i1 = hlo.add %i, %ione : tensor<i32>
        %elem = hlo.dynamic_slice %v at [%i] sizes = [1] : (tensor<8xf32>, tensor<i32>) -> tensor<1xf32>
        %local = hlo.multiply %elem, %elem : tensor<1xf32>
        %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
        ^bb0(%a: tensor<f32>, %b: tensor<f32>):
          %m = hlo.maximum %a, %b : tensor<f32>
          hlo.return %m : tensor<f32>
        } : (tensor<1xf32>) -> tensor<1xf32>
        %acc1 = hlo.dynamic_update_slice %acc, %ar at [%i] : (tensor<8xf32>, tensor<1xf32>, tensor<i32>) -> tensor<8xf32>
        %inext = hlo.tuple %i1, %v, %acc1 : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
        hlo.return %inext : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
      }
      %maxes = hlo.get_tuple_element %inner[2] : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
      %maxes_row = hlo.reshape %maxes : (tensor<8xf32>) -> tensor<1x8xf32>
      %ys1 = hlo.dynamic_update_slice %ys_in, %maxes_row at [%j, %zero] : (tensor<4x8xf32>, tensor<1x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
      %next = hlo.tuple %j1, %xs_in, %ys1 : tuple<tensor<i32>, tensor<4x8xf32>, tensor<4x8xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4x8xf32>, tensor<4x8xf32>>
    }
    %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<4x8xf32>, tensor<4x8xf32>>
    func.return %r : tensor<4x8xf32>
  }
}

// CHECK-LABEL: builtin.module @dus_nested attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%xs: tensor<4x8xf32>, %ys: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %xs, %ys : tuple<tensor<i32>, tensor<4x8xf32>, tensor<4x8xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4x8xf32>, tensor<4x8xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<4x8xf32>, tensor<4x8xf32>>):
// CHECK-NEXT:       %cj = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4x8xf32>, tensor<4x8xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<4> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %cj, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<4x8xf32>, tensor<4x8xf32>>):
// CHECK-NEXT:       %j = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4x8xf32>, tensor<4x8xf32>>
// CHECK-NEXT:       %xs_in = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4x8xf32>, tensor<4x8xf32>>
// CHECK-NEXT:       %ys_in = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<4x8xf32>, tensor<4x8xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %j1 = hlo.add %j, %one : tensor<i32>
// CHECK-NEXT:       %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:       %x_row = hlo.dynamic_slice %xs_in at [%j, %zero] sizes = [1, 8] : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<1x8xf32>
// CHECK-NEXT:       %x = hlo.reshape %x_row : (tensor<1x8xf32>) -> tensor<8xf32>
// CHECK-NEXT:       %f0 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:       %zeros = hlo.broadcast %f0, dims = [] : (tensor<f32>) -> tensor<8xf32>
// CHECK-NEXT:       %inner_init = hlo.tuple %zero, %x, %zeros : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
// CHECK-NEXT:       %inner = hlo.while(%inner_init) : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>> condition {
// CHECK-NEXT:       ^bb0(%ics: tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>):
// CHECK-NEXT:         %ci = hlo.get_tuple_element %ics[0] : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
// CHECK-NEXT:         %m8 = hlo.constant dense<8> : tensor<i32>
// CHECK-NEXT:         %ilt = hlo.compare LT, %ci, %m8 : tensor<i32> -> tensor<i1>
// CHECK-NEXT:         hlo.return %ilt : tensor<i1>
// CHECK-NEXT:       } body {
// CHECK-NEXT:       ^bb0(%ibs: tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>):
// CHECK-NEXT:         %i = hlo.get_tuple_element %ibs[0] : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
// CHECK-NEXT:         %v = hlo.get_tuple_element %ibs[1] : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
// CHECK-NEXT:         %acc = hlo.get_tuple_element %ibs[2] : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
// CHECK-NEXT:         %ione = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:         %i1 = hlo.add %i, %ione : tensor<i32>
// CHECK-NEXT:         %elem = hlo.dynamic_slice %v at [%i] sizes = [1] : (tensor<8xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT:         %local = hlo.multiply %elem, %elem : tensor<1xf32>
// CHECK-NEXT:         %acc1 = hlo.dynamic_update_slice %acc, %local at [%i] : (tensor<8xf32>, tensor<1xf32>, tensor<i32>) -> tensor<8xf32>
// CHECK-NEXT:         %inext = hlo.tuple %i1, %v, %acc1 : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
// CHECK-NEXT:         hlo.return %inext : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
// CHECK-NEXT:       }
// CHECK-NEXT:       %maxes = hlo.get_tuple_element %inner[2] : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
// CHECK-NEXT:       %maxes_row = hlo.reshape %maxes : (tensor<8xf32>) -> tensor<1x8xf32>
// CHECK-NEXT:       %ys1 = hlo.dynamic_update_slice %ys_in, %maxes_row at [%j, %zero] : (tensor<4x8xf32>, tensor<1x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
// CHECK-NEXT:       %next = hlo.tuple %j1, %xs_in, %ys1 : tuple<tensor<i32>, tensor<4x8xf32>, tensor<4x8xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4x8xf32>, tensor<4x8xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<4x8xf32>, tensor<4x8xf32>>
// CHECK-NEXT:     %r = hlo.all_reduce([[V0]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 3 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %m = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %m : tensor<f32>
// CHECK-NEXT:     } : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:     func.return %r : tensor<4x8xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %maxes (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 2 all-reduce and 0 reduce-scatter out of while loops

// -----

// Negative: a two-operand (tuple-shaped) all-reduce.
builtin.module @dus_tuple_all_reduce attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %n = hlo.constant dense<16> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
      %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
      %v1 = hlo.add %v, %bi : tensor<16xf32>
      %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
      %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
      %ar = hlo.all_reduce(%local, %local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = hlo.maximum %a, %b : tensor<f32>
        hlo.return %m : tensor<f32>
      } : (tensor<f32>, tensor<f32>) -> tuple<tensor<f32>, tensor<f32>>
      %ar0 = hlo.get_tuple_element %ar[0] : tuple<tensor<f32>, tensor<f32>>
      %update = hlo.reshape %ar0 : (tensor<f32>) -> tensor<1xf32>
      %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
      %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    }
    %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: builtin.module @dus_tuple_all_reduce attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<16> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
// CHECK-NEXT:       %v1 = hlo.add %v, %bi : tensor<16xf32>
// CHECK-NEXT:       %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT:       %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%local, %local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %m = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %m : tensor<f32>
// CHECK-NEXT:       } : (tensor<f32>, tensor<f32>) -> tuple<tensor<f32>, tensor<f32>>
// CHECK-NEXT:       %ar0 = hlo.get_tuple_element %ar[0] : tuple<tensor<f32>, tensor<f32>>
// CHECK-NEXT:       %update = hlo.reshape %ar0 : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT:       %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     func.return %r : tensor<16xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): tuple-shaped collectives are not moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// Negative: constrain_layout.
builtin.module @dus_constrain_layout attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %n = hlo.constant dense<16> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
      %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
      %v1 = hlo.add %v, %bi : tensor<16xf32>
      %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
      %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
      %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids constrain_layout {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = hlo.maximum %a, %b : tensor<f32>
        hlo.return %m : tensor<f32>
      } : (tensor<f32>) -> tensor<f32>
      %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
      %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
      %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    }
    %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: builtin.module @dus_constrain_layout attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<16> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
// CHECK-NEXT:       %v1 = hlo.add %v, %bi : tensor<16xf32>
// CHECK-NEXT:       %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT:       %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids constrain_layout {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %m = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %m : tensor<f32>
// CHECK-NEXT:       } : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:       %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT:       %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     func.return %r : tensor<16xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): constrain_layout is set
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// Negative: the reducer is a subtract (not a simple elementwise reducer).
builtin.module @dus_reducer_not_simple attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %n = hlo.constant dense<16> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
      %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
      %v1 = hlo.add %v, %bi : tensor<16xf32>
      %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
      %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
      %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = hlo.subtract %a, %b : tensor<f32>
        hlo.return %m : tensor<f32>
      } : (tensor<f32>) -> tensor<f32>
      %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
      %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
      %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    }
    %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: builtin.module @dus_reducer_not_simple attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<16> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
// CHECK-NEXT:       %v1 = hlo.add %v, %bi : tensor<16xf32>
// CHECK-NEXT:       %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT:       %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %m = hlo.subtract %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %m : tensor<f32>
// CHECK-NEXT:       } : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:       %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT:       %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     func.return %r : tensor<16xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the reduction is not a simple binary elementwise op
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// Negative: f32 -> f16 on the way to the buffer cannot be undone exactly after the loop.
builtin.module @dus_narrowing_convert attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf16>) -> tensor<16xf16> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf16>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf16>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf16>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf16>>
      %n = hlo.constant dense<16> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf16>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf16>>
      %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf16>>
      %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf16>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
      %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
      %v1 = hlo.add %v, %bi : tensor<16xf32>
      %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
      %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
      %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = hlo.maximum %a, %b : tensor<f32>
        hlo.return %m : tensor<f32>
      } : (tensor<f32>) -> tensor<f32>
      %narrow = hlo.convert %ar : tensor<f32> -> tensor<f16>
      %update = hlo.reshape %narrow : (tensor<f16>) -> tensor<1xf16>
      %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf16>, tensor<1xf16>, tensor<i32>) -> tensor<16xf16>
      %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf16>>
      hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf16>>
    }
    %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf16>>
    func.return %r : tensor<16xf16>
  }
}

// CHECK-LABEL: builtin.module @dus_narrowing_convert attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf16>) -> tensor<16xf16> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf16>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf16>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf16>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf16>>
// CHECK-NEXT:       %n = hlo.constant dense<16> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf16>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf16>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf16>>
// CHECK-NEXT:       %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf16>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
// CHECK-NEXT:       %v1 = hlo.add %v, %bi : tensor<16xf32>
// CHECK-NEXT:       %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT:       %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %m = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %m : tensor<f32>
// CHECK-NEXT:       } : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:       %narrow = hlo.convert %ar : tensor<f32> -> tensor<f16>
// CHECK-NEXT:       %update = hlo.reshape %narrow : (tensor<f16>) -> tensor<1xf16>
// CHECK-NEXT:       %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf16>, tensor<1xf16>, tensor<i32>) -> tensor<16xf16>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf16>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf16>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf16>>
// CHECK-NEXT:     func.return %r : tensor<16xf16>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the convert f32 -> f16 on the way to the buffer is not exact, so it cannot be undone after the loop
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// Negative (XLA UserPreventsCodeMotion %max.global): the all-reduce is also returned.
builtin.module @dus_all_reduce_two_uses attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %c0f = hlo.constant dense<0.000000e+00> : tensor<f32>
    %init = hlo.tuple %c0, %x, %buf, %c0f : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<f32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<f32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<f32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<f32>>
      %n = hlo.constant dense<16> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<f32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<f32>>
      %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<f32>>
      %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<f32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
      %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
      %v1 = hlo.add %v, %bi : tensor<16xf32>
      %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
      %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
      %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = hlo.maximum %a, %b : tensor<f32>
        hlo.return %m : tensor<f32>
      } : (tensor<f32>) -> tensor<f32>
      %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
      %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
      %next = hlo.tuple %i1, %v1, %dus, %ar : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<f32>>
      hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<f32>>
    }
    %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<f32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: builtin.module @dus_all_reduce_two_uses attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %c0f = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x, %buf, %c0f : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<f32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<f32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<f32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<f32>>
// CHECK-NEXT:       %n = hlo.constant dense<16> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<f32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<f32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<f32>>
// CHECK-NEXT:       %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<f32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
// CHECK-NEXT:       %v1 = hlo.add %v, %bi : tensor<16xf32>
// CHECK-NEXT:       %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT:       %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %m = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %m : tensor<f32>
// CHECK-NEXT:       } : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:       %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT:       %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v1, %dus, %ar : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<f32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<f32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<f32>>
// CHECK-NEXT:     func.return %r : tensor<16xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): unsupported operation on the collective's result: tuple
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// Negative (XLA UserPreventsCodeMotion %update): the reshaped value is also returned.
builtin.module @dus_update_two_uses attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %c0r = hlo.constant dense<0.000000e+00> : tensor<1xf32>
    %init = hlo.tuple %c0, %x, %buf, %c0r : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<1xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<1xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<1xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<1xf32>>
      %n = hlo.constant dense<16> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<1xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<1xf32>>
      %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<1xf32>>
      %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<1xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
      %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
      %v1 = hlo.add %v, %bi : tensor<16xf32>
      %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
      %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
      %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = hlo.maximum %a, %b : tensor<f32>
        hlo.return %m : tensor<f32>
      } : (tensor<f32>) -> tensor<f32>
      %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
      %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
      %next = hlo.tuple %i1, %v1, %dus, %update : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<1xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<1xf32>>
    }
    %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<1xf32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: builtin.module @dus_update_two_uses attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %c0r = hlo.constant dense<0.000000e+00> : tensor<1xf32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x, %buf, %c0r : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<1xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<1xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<1xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<1xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<16> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<1xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<1xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<1xf32>>
// CHECK-NEXT:       %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<1xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
// CHECK-NEXT:       %v1 = hlo.add %v, %bi : tensor<16xf32>
// CHECK-NEXT:       %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT:       %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %m = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %m : tensor<f32>
// CHECK-NEXT:       } : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:       %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT:       %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v1, %dus, %update : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<1xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<1xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<1xf32>>
// CHECK-NEXT:     func.return %r : tensor<16xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): unsupported operation on the collective's result: tuple
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// Negative (XLA UserPreventsCodeMotion %dus): the updated buffer is returned twice.
builtin.module @dus_result_two_uses attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x, %buf, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
      %n = hlo.constant dense<16> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
      %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
      %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
      %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
      %v1 = hlo.add %v, %bi : tensor<16xf32>
      %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
      %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
      %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = hlo.maximum %a, %b : tensor<f32>
        hlo.return %m : tensor<f32>
      } : (tensor<f32>) -> tensor<f32>
      %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
      %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
      %next = hlo.tuple %i1, %v1, %dus, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
    }
    %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: builtin.module @dus_result_two_uses attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x, %buf, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<16> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
// CHECK-NEXT:       %v1 = hlo.add %v, %bi : tensor<16xf32>
// CHECK-NEXT:       %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT:       %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %m = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %m : tensor<f32>
// CHECK-NEXT:       } : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:       %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT:       %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v1, %dus, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     func.return %r : tensor<16xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the dynamic-update-slice result has 2 uses; a dynamic-update-slice sink needs exactly one
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// Negative: a negate between the all-reduce and the dynamic-update-slice.
builtin.module @dus_unsupported_user attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %n = hlo.constant dense<16> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
      %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
      %v1 = hlo.add %v, %bi : tensor<16xf32>
      %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
      %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
      %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = hlo.maximum %a, %b : tensor<f32>
        hlo.return %m : tensor<f32>
      } : (tensor<f32>) -> tensor<f32>
      %flip = hlo.negate %ar : tensor<f32>
      %update = hlo.reshape %flip : (tensor<f32>) -> tensor<1xf32>
      %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
      %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    }
    %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: builtin.module @dus_unsupported_user attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<16> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
// CHECK-NEXT:       %v1 = hlo.add %v, %bi : tensor<16xf32>
// CHECK-NEXT:       %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT:       %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %m = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %m : tensor<f32>
// CHECK-NEXT:       } : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:       %flip = hlo.negate %ar : tensor<f32>
// CHECK-NEXT:       %update = hlo.reshape %flip : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT:       %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     func.return %r : tensor<16xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): unsupported operation on the collective's result: negate
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// Negative: the all-reduce result is the base of the dynamic-update-slice, not its update.
builtin.module @dus_value_is_base attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %n = hlo.constant dense<16> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
      %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
      %v1 = hlo.add %v, %bi : tensor<16xf32>
      %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
      %local = hlo.add %v1, %v1 : tensor<16xf32>
      %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = hlo.maximum %a, %b : tensor<f32>
        hlo.return %m : tensor<f32>
      } : (tensor<16xf32>) -> tensor<16xf32>
      %dus = hlo.dynamic_update_slice %ar, %elem at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
      %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    }
    %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: builtin.module @dus_value_is_base attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<16> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
// CHECK-NEXT:       %v1 = hlo.add %v, %bi : tensor<16xf32>
// CHECK-NEXT:       %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT:       %local = hlo.add %v1, %v1 : tensor<16xf32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %m = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %m : tensor<f32>
// CHECK-NEXT:       } : (tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT:       %dus = hlo.dynamic_update_slice %ar, %elem at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     func.return %r : tensor<16xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the all-reduce value is not the update of a dynamic-update-slice
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// Negative: the updated buffer goes through a copy before the root tuple.
builtin.module @dus_not_returned attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %n = hlo.constant dense<16> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
      %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
      %v1 = hlo.add %v, %bi : tensor<16xf32>
      %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
      %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
      %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = hlo.maximum %a, %b : tensor<f32>
        hlo.return %m : tensor<f32>
      } : (tensor<f32>) -> tensor<f32>
      %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
      %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
      %kept = hlo.copy %dus : tensor<16xf32>
      %next = hlo.tuple %i1, %v1, %kept : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    }
    %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: builtin.module @dus_not_returned attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<16> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
// CHECK-NEXT:       %v1 = hlo.add %v, %bi : tensor<16xf32>
// CHECK-NEXT:       %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT:       %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %m = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %m : tensor<f32>
// CHECK-NEXT:       } : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:       %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT:       %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
// CHECK-NEXT:       %kept = hlo.copy %dus : tensor<16xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v1, %kept : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     func.return %r : tensor<16xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the updated buffer is used by copy, not returned by the loop body
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// Negative: the dynamic-update-slice writes slot 3's buffer but is returned at slot 2.
builtin.module @dus_other_slot attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x, %buf, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
      %n = hlo.constant dense<16> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
      %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
      %out = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
      %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
      %v1 = hlo.add %v, %bi : tensor<16xf32>
      %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
      %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
      %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = hlo.maximum %a, %b : tensor<f32>
        hlo.return %m : tensor<f32>
      } : (tensor<f32>) -> tensor<f32>
      %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
      %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
      %next = hlo.tuple %i1, %v1, %dus, %out : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
    }
    %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: builtin.module @dus_other_slot attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x, %buf, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<16> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %out = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
// CHECK-NEXT:       %v1 = hlo.add %v, %bi : tensor<16xf32>
// CHECK-NEXT:       %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT:       %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %m = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %m : tensor<f32>
// CHECK-NEXT:       } : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:       %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT:       %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v1, %dus, %out : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     func.return %r : tensor<16xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the outermost dynamic-update-slice does not update slot 2 of the loop parameter
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// Negative (XLA UserPreventsCodeMotion %gte.2): the buffer read is also returned.
builtin.module @dus_buffer_read_elsewhere attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x, %buf, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
      %n = hlo.constant dense<16> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
      %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
      %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
      %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
      %v1 = hlo.add %v, %bi : tensor<16xf32>
      %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
      %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
      %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = hlo.maximum %a, %b : tensor<f32>
        hlo.return %m : tensor<f32>
      } : (tensor<f32>) -> tensor<f32>
      %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
      %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
      %next = hlo.tuple %i1, %v1, %dus, %out : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
    }
    %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: builtin.module @dus_buffer_read_elsewhere attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x, %buf, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<16> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
// CHECK-NEXT:       %v1 = hlo.add %v, %bi : tensor<16xf32>
// CHECK-NEXT:       %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT:       %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %m = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %m : tensor<f32>
// CHECK-NEXT:       } : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:       %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT:       %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v1, %dus, %out : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     func.return %r : tensor<16xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): slot 2 of the loop parameter is also read by tuple
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// Negative (XLA UserPreventsCodeMotion %other): a second read of slot 2 with a user.
builtin.module @dus_buffer_second_gte attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x, %buf, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
      %n = hlo.constant dense<16> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
      %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
      %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
      %again = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
      %flip = hlo.negate %again : tensor<16xf32>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
      %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
      %v1 = hlo.add %v, %bi : tensor<16xf32>
      %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
      %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
      %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = hlo.maximum %a, %b : tensor<f32>
        hlo.return %m : tensor<f32>
      } : (tensor<f32>) -> tensor<f32>
      %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
      %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
      %next = hlo.tuple %i1, %v1, %dus, %flip : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
    }
    %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: builtin.module @dus_buffer_second_gte attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x, %buf, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<16> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %again = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %flip = hlo.negate %again : tensor<16xf32>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
// CHECK-NEXT:       %v1 = hlo.add %v, %bi : tensor<16xf32>
// CHECK-NEXT:       %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT:       %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %m = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %m : tensor<f32>
// CHECK-NEXT:       } : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:       %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT:       %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v1, %dus, %flip : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     func.return %r : tensor<16xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): slot 2 of the loop parameter is also read by negate
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// Negative: the loop parameter is used whole (it may read slot 2).
builtin.module @dus_body_arg_whole attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %n = hlo.constant dense<16> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %wrap = hlo.tuple %bs : tuple<tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>>
      %back = hlo.get_tuple_element %wrap[0] : tuple<tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>>
      %v_again = hlo.get_tuple_element %back[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
      %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
      %v1 = hlo.add %v_again, %bi : tensor<16xf32>
      %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
      %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
      %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = hlo.maximum %a, %b : tensor<f32>
        hlo.return %m : tensor<f32>
      } : (tensor<f32>) -> tensor<f32>
      %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
      %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
      %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    }
    %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: builtin.module @dus_body_arg_whole attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<16> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %wrap = hlo.tuple %bs : tuple<tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>>
// CHECK-NEXT:       %back = hlo.get_tuple_element %wrap[0] : tuple<tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>>
// CHECK-NEXT:       %v_again = hlo.get_tuple_element %back[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
// CHECK-NEXT:       %v1 = hlo.add %v_again, %bi : tensor<16xf32>
// CHECK-NEXT:       %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT:       %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %m = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %m : tensor<f32>
// CHECK-NEXT:       } : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:       %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT:       %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     func.return %r : tensor<16xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the loop body argument is used whole by tuple
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// Negative: the condition reads slot 2 (a get_tuple_element with a user).
builtin.module @dus_condition_reads attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %cb = hlo.get_tuple_element %cs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %probe = hlo.negate %cb : tensor<16xf32>
      %n = hlo.constant dense<16> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
      %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
      %v1 = hlo.add %v, %bi : tensor<16xf32>
      %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
      %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
      %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = hlo.maximum %a, %b : tensor<f32>
        hlo.return %m : tensor<f32>
      } : (tensor<f32>) -> tensor<f32>
      %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
      %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
      %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    }
    %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: builtin.module @dus_condition_reads attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %cb = hlo.get_tuple_element %cs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %probe = hlo.negate %cb : tensor<16xf32>
// CHECK-NEXT:       %n = hlo.constant dense<16> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
// CHECK-NEXT:       %v1 = hlo.add %v, %bi : tensor<16xf32>
// CHECK-NEXT:       %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT:       %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %m = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %m : tensor<f32>
// CHECK-NEXT:       } : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:       %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT:       %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     func.return %r : tensor<16xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): slot 2 is read by the loop condition
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// Negative (XLA InvalidIndexing): the row is a loop-invariant slot with a non-constant init.
builtin.module @dus_invalid_index attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>, %k: tensor<i32>) -> tensor<16xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x, %buf, %k : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>
      %n = hlo.constant dense<16> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>
      %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>
      %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>
      %k_in = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
      %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
      %v1 = hlo.add %v, %bi : tensor<16xf32>
      %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
      %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
      %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = hlo.maximum %a, %b : tensor<f32>
        hlo.return %m : tensor<f32>
      } : (tensor<f32>) -> tensor<f32>
      %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
      %dus = hlo.dynamic_update_slice %out, %update at [%k_in] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
      %next = hlo.tuple %i1, %v1, %dus, %k_in : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>
      hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>
    }
    %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: builtin.module @dus_invalid_index attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>, %k: tensor<i32>) -> tensor<16xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x, %buf, %k : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>
// CHECK-NEXT:       %n = hlo.constant dense<16> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>
// CHECK-NEXT:       %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>
// CHECK-NEXT:       %k_in = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
// CHECK-NEXT:       %v1 = hlo.add %v, %bi : tensor<16xf32>
// CHECK-NEXT:       %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT:       %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %m = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %m : tensor<f32>
// CHECK-NEXT:       } : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:       %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT:       %dus = hlo.dynamic_update_slice %out, %update at [%k_in] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v1, %dus, %k_in : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>
// CHECK-NEXT:     func.return %r : tensor<16xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): dynamic-update-slice index 0 is neither a constant nor an affine function of a loop counter
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// Negative: the bound is a non-constant slot, so the trip count is unknown.
builtin.module @dus_unknown_trip_count attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>, %k: tensor<i32>) -> tensor<16xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x, %buf, %k : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>
      %n = hlo.get_tuple_element %cs[3] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>
      %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>
      %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>
      %k_in = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
      %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
      %v1 = hlo.add %v, %bi : tensor<16xf32>
      %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
      %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
      %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = hlo.maximum %a, %b : tensor<f32>
        hlo.return %m : tensor<f32>
      } : (tensor<f32>) -> tensor<f32>
      %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
      %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
      %next = hlo.tuple %i1, %v1, %dus, %k_in : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>
      hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>
    }
    %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: builtin.module @dus_unknown_trip_count attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>, %k: tensor<i32>) -> tensor<16xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x, %buf, %k : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>
// CHECK-NEXT:       %n = hlo.get_tuple_element %cs[3] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>
// CHECK-NEXT:       %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>
// CHECK-NEXT:       %k_in = hlo.get_tuple_element %bs[3] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
// CHECK-NEXT:       %v1 = hlo.add %v, %bi : tensor<16xf32>
// CHECK-NEXT:       %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT:       %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %m = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %m : tensor<f32>
// CHECK-NEXT:       } : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:       %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT:       %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v1, %dus, %k_in : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<i32>>
// CHECK-NEXT:     func.return %r : tensor<16xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the loop trip count is unknown
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// Negative: the loop never runs (the buffer keeps its init, which must not be all-reduced).
builtin.module @dus_never_runs attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %n = hlo.constant dense<0> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
      %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
      %v1 = hlo.add %v, %bi : tensor<16xf32>
      %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
      %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
      %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = hlo.maximum %a, %b : tensor<f32>
        hlo.return %m : tensor<f32>
      } : (tensor<f32>) -> tensor<f32>
      %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
      %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
      %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    }
    %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: builtin.module @dus_never_runs attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
// CHECK-NEXT:       %v1 = hlo.add %v, %bi : tensor<16xf32>
// CHECK-NEXT:       %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT:       %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %m = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %m : tensor<f32>
// CHECK-NEXT:       } : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:       %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT:       %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     func.return %r : tensor<16xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the loop body never runs
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// Negative (XLA InvalidLoop start=1): the counter starts at 1. Rows [1, 16) would be an exact
// box here, but XLA's rule (start 0, step 1) is kept.
builtin.module @dus_counter_start_1 attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
    %c1 = hlo.constant dense<1> : tensor<i32>
    %init = hlo.tuple %c1, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %n = hlo.constant dense<16> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
      %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
      %v1 = hlo.add %v, %bi : tensor<16xf32>
      %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
      %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
      %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = hlo.maximum %a, %b : tensor<f32>
        hlo.return %m : tensor<f32>
      } : (tensor<f32>) -> tensor<f32>
      %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
      %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
      %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    }
    %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: builtin.module @dus_counter_start_1 attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c1 = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c1, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<16> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
// CHECK-NEXT:       %v1 = hlo.add %v, %bi : tensor<16xf32>
// CHECK-NEXT:       %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT:       %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %m = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %m : tensor<f32>
// CHECK-NEXT:       } : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:       %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT:       %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     func.return %r : tensor<16xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the loop counter indexing dimension 0 starts at 1 with step 1; only start 0 and step 1 are supported (as in XLA)
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// Negative (XLA InvalidLoop step=2): the counter steps by 2.
builtin.module @dus_counter_step_2 attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %n = hlo.constant dense<16> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %one = hlo.constant dense<2> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
      %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
      %v1 = hlo.add %v, %bi : tensor<16xf32>
      %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
      %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
      %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = hlo.maximum %a, %b : tensor<f32>
        hlo.return %m : tensor<f32>
      } : (tensor<f32>) -> tensor<f32>
      %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
      %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
      %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    }
    %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: builtin.module @dus_counter_step_2 attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<16> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<2> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
// CHECK-NEXT:       %v1 = hlo.add %v, %bi : tensor<16xf32>
// CHECK-NEXT:       %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT:       %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %m = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %m : tensor<f32>
// CHECK-NEXT:       } : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:       %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT:       %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     func.return %r : tensor<16xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the loop counter indexing dimension 0 starts at 0 with step 2; only start 0 and step 1 are supported (as in XLA)
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// Negative: row 2 * i does not write consecutive rows.
builtin.module @dus_strided_index attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %n = hlo.constant dense<8> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
      %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
      %v1 = hlo.add %v, %bi : tensor<16xf32>
      %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
      %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
      %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = hlo.maximum %a, %b : tensor<f32>
        hlo.return %m : tensor<f32>
      } : (tensor<f32>) -> tensor<f32>
      %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
      %row = hlo.add %i, %i : tensor<i32>
      %dus = hlo.dynamic_update_slice %out, %update at [%row] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
      %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    }
    %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: builtin.module @dus_strided_index attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<8> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
// CHECK-NEXT:       %v1 = hlo.add %v, %bi : tensor<16xf32>
// CHECK-NEXT:       %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT:       %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %m = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %m : tensor<f32>
// CHECK-NEXT:       } : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:       %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT:       %row = hlo.add %i, %i : tensor<i32>
// CHECK-NEXT:       %dus = hlo.dynamic_update_slice %out, %update at [%row] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     func.return %r : tensor<16xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): dynamic-update-slice index 0 (2 * i + 0) does not write consecutive rows
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// Negative (XLA OverlappingUpdates): two elements per iteration at row i overlap.
builtin.module @dus_overlapping attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<16xf32>, %buf: tensor<17xf32>) -> tensor<17xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<17xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<17xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<17xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<17xf32>>
      %n = hlo.constant dense<16> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<17xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<17xf32>>
      %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<17xf32>>
      %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<17xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
      %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
      %v1 = hlo.add %v, %bi : tensor<16xf32>
      %local = hlo.dynamic_slice %v1 at [%i] sizes = [2] : (tensor<16xf32>, tensor<i32>) -> tensor<2xf32>
      %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = hlo.maximum %a, %b : tensor<f32>
        hlo.return %m : tensor<f32>
      } : (tensor<2xf32>) -> tensor<2xf32>
      %dus = hlo.dynamic_update_slice %out, %ar at [%i] : (tensor<17xf32>, tensor<2xf32>, tensor<i32>) -> tensor<17xf32>
      %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<17xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<17xf32>>
    }
    %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<17xf32>>
    func.return %r : tensor<17xf32>
  }
}

// CHECK-LABEL: builtin.module @dus_overlapping attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<16xf32>, %buf: tensor<17xf32>) -> tensor<17xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<17xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<17xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<17xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<17xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<16> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<17xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<17xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<17xf32>>
// CHECK-NEXT:       %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<17xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
// CHECK-NEXT:       %v1 = hlo.add %v, %bi : tensor<16xf32>
// CHECK-NEXT:       %local = hlo.dynamic_slice %v1 at [%i] sizes = [2] : (tensor<16xf32>, tensor<i32>) -> tensor<2xf32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %m = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %m : tensor<f32>
// CHECK-NEXT:       } : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:       %dus = hlo.dynamic_update_slice %out, %ar at [%i] : (tensor<17xf32>, tensor<2xf32>, tensor<i32>) -> tensor<17xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<17xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<17xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<17xf32>>
// CHECK-NEXT:     func.return %r : tensor<17xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the update written per iteration is 2 wide in dimension 0, which the loop counter indexes; iterations would overwrite each other's rows
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// Negative: the counter indexes the INNER dynamic-update-slice and the outer one writes all 16
// rows every iteration, so the last iteration overwrites the others (XLA would move this).
builtin.module @dus_inner_counter_index attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %n = hlo.constant dense<16> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
      %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
      %v1 = hlo.add %v, %bi : tensor<16xf32>
      %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
      %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
      %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = hlo.maximum %a, %b : tensor<f32>
        hlo.return %m : tensor<f32>
      } : (tensor<f32>) -> tensor<f32>
      %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
      %z = hlo.constant dense<0> : tensor<i32>
      %rows = hlo.dynamic_update_slice %v1, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
      %dus = hlo.dynamic_update_slice %out, %rows at [%z] : (tensor<16xf32>, tensor<16xf32>, tensor<i32>) -> tensor<16xf32>
      %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    }
    %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: builtin.module @dus_inner_counter_index attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<16> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
// CHECK-NEXT:       %v1 = hlo.add %v, %bi : tensor<16xf32>
// CHECK-NEXT:       %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT:       %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %m = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %m : tensor<f32>
// CHECK-NEXT:       } : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:       %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT:       %z = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:       %rows = hlo.dynamic_update_slice %v1, %update at [%i] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
// CHECK-NEXT:       %dus = hlo.dynamic_update_slice %out, %rows at [%z] : (tensor<16xf32>, tensor<16xf32>, tensor<i32>) -> tensor<16xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     func.return %r : tensor<16xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the update written per iteration is 16 wide in dimension 0, which the loop counter indexes; iterations would overwrite each other's rows
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// Negative: [i, i] writes a diagonal, not a box (XLA would all-reduce the whole 16x16 buffer).
builtin.module @dus_diagonal attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<16xf32>, %buf: tensor<16x16xf32>) -> tensor<16x16xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16x16xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16x16xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16x16xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16x16xf32>>
      %n = hlo.constant dense<16> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16x16xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16x16xf32>>
      %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16x16xf32>>
      %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16x16xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
      %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
      %v1 = hlo.add %v, %bi : tensor<16xf32>
      %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
      %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
      %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = hlo.maximum %a, %b : tensor<f32>
        hlo.return %m : tensor<f32>
      } : (tensor<f32>) -> tensor<f32>
      %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1x1xf32>
      %dus = hlo.dynamic_update_slice %out, %update at [%i, %i] : (tensor<16x16xf32>, tensor<1x1xf32>, tensor<i32>, tensor<i32>) -> tensor<16x16xf32>
      %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16x16xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16x16xf32>>
    }
    %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16x16xf32>>
    func.return %r : tensor<16x16xf32>
  }
}

// CHECK-LABEL: builtin.module @dus_diagonal attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<16xf32>, %buf: tensor<16x16xf32>) -> tensor<16x16xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16x16xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16x16xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16x16xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16x16xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<16> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16x16xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16x16xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16x16xf32>>
// CHECK-NEXT:       %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16x16xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
// CHECK-NEXT:       %v1 = hlo.add %v, %bi : tensor<16xf32>
// CHECK-NEXT:       %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT:       %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %m = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %m : tensor<f32>
// CHECK-NEXT:       } : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:       %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1x1xf32>
// CHECK-NEXT:       %dus = hlo.dynamic_update_slice %out, %update at [%i, %i] : (tensor<16x16xf32>, tensor<1x1xf32>, tensor<i32>, tensor<i32>) -> tensor<16x16xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16x16xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16x16xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16x16xf32>>
// CHECK-NEXT:     func.return %r : tensor<16x16xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): more than one dynamic-update-slice start index follows a loop counter; the written elements do not form a box
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// Negative: row 20 - i exceeds the 16-row buffer for i < 5 and would be clamped.
builtin.module @dus_clamped attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %n = hlo.constant dense<16> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
      %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
      %v1 = hlo.add %v, %bi : tensor<16xf32>
      %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
      %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
      %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = hlo.maximum %a, %b : tensor<f32>
        hlo.return %m : tensor<f32>
      } : (tensor<f32>) -> tensor<f32>
      %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
      %c20 = hlo.constant dense<20> : tensor<i32>
      %row = hlo.subtract %c20, %i : tensor<i32>
      %dus = hlo.dynamic_update_slice %out, %update at [%row] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
      %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    }
    %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: builtin.module @dus_clamped attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<16> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
// CHECK-NEXT:       %v1 = hlo.add %v, %bi : tensor<16xf32>
// CHECK-NEXT:       %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT:       %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %m = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %m : tensor<f32>
// CHECK-NEXT:       } : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:       %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT:       %c20 = hlo.constant dense<20> : tensor<i32>
// CHECK-NEXT:       %row = hlo.subtract %c20, %i : tensor<i32>
// CHECK-NEXT:       %dus = hlo.dynamic_update_slice %out, %update at [%row] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     func.return %r : tensor<16xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): dynamic-update-slice index 0 takes values in [5, 20], outside [0, 15]: it would be clamped
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// Negative: the row select(partition_id < 4, i, i) is not provably replicated.
builtin.module @dus_unreplicated_index attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %n = hlo.constant dense<16> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
      %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
      %v1 = hlo.add %v, %bi : tensor<16xf32>
      %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
      %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
      %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = hlo.maximum %a, %b : tensor<f32>
        hlo.return %m : tensor<f32>
      } : (tensor<f32>) -> tensor<f32>
      %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
      %pid = hlo.partition_id : tensor<ui32>
      %c4 = hlo.constant dense<4> : tensor<ui32>
      %low = hlo.compare LT, %pid, %c4 : tensor<ui32> -> tensor<i1>
      %row = hlo.select %low, %i, %i : tensor<i1>, tensor<i32>
      %dus = hlo.dynamic_update_slice %out, %update at [%row] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
      %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    }
    %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: builtin.module @dus_unreplicated_index attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<16xf32>, %buf: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<16> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
// CHECK-NEXT:       %v1 = hlo.add %v, %bi : tensor<16xf32>
// CHECK-NEXT:       %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT:       %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %m = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %m : tensor<f32>
// CHECK-NEXT:       } : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:       %update = hlo.reshape %ar : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT:       %pid = hlo.partition_id : tensor<ui32>
// CHECK-NEXT:       %c4 = hlo.constant dense<4> : tensor<ui32>
// CHECK-NEXT:       %low = hlo.compare LT, %pid, %c4 : tensor<ui32> -> tensor<i1>
// CHECK-NEXT:       %row = hlo.select %low, %i, %i : tensor<i1>, tensor<i32>
// CHECK-NEXT:       %dus = hlo.dynamic_update_slice %out, %update at [%row] : (tensor<16xf32>, tensor<1xf32>, tensor<i32>) -> tensor<16xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:     func.return %r : tensor<16xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): dynamic-update-slice index is not replicated within the replica groups
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// Negative: 16 rows of 256 f32 = 16384 bytes exceed dus-max-size-bytes (10240, XLA's default).
builtin.module @dus_too_large attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<16xf32>, %buf: tensor<16x256xf32>) -> tensor<16x256xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16x256xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16x256xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16x256xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16x256xf32>>
      %n = hlo.constant dense<16> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16x256xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16x256xf32>>
      %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16x256xf32>>
      %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16x256xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
      %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
      %v1 = hlo.add %v, %bi : tensor<16xf32>
      %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
      %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
      %wide = hlo.broadcast %local, dims = [] : (tensor<f32>) -> tensor<1x256xf32>
      %ar = hlo.all_reduce(%wide) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = hlo.maximum %a, %b : tensor<f32>
        hlo.return %m : tensor<f32>
      } : (tensor<1x256xf32>) -> tensor<1x256xf32>
      %z = hlo.constant dense<0> : tensor<i32>
      %dus = hlo.dynamic_update_slice %out, %ar at [%i, %z] : (tensor<16x256xf32>, tensor<1x256xf32>, tensor<i32>, tensor<i32>) -> tensor<16x256xf32>
      %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16x256xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16x256xf32>>
    }
    %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16x256xf32>>
    func.return %r : tensor<16x256xf32>
  }
}

// CHECK-LABEL: builtin.module @dus_too_large attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<16xf32>, %buf: tensor<16x256xf32>) -> tensor<16x256xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<16xf32>, tensor<16x256xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16x256xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<16xf32>, tensor<16x256xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16x256xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<16> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<16xf32>, tensor<16x256xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16x256xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16x256xf32>>
// CHECK-NEXT:       %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16x256xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %fi = hlo.convert %i : tensor<i32> -> tensor<f32>
// CHECK-NEXT:       %bi = hlo.broadcast %fi, dims = [] : (tensor<f32>) -> tensor<16xf32>
// CHECK-NEXT:       %v1 = hlo.add %v, %bi : tensor<16xf32>
// CHECK-NEXT:       %elem = hlo.dynamic_slice %v1 at [%i] sizes = [1] : (tensor<16xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT:       %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT:       %wide = hlo.broadcast %local, dims = [] : (tensor<f32>) -> tensor<1x256xf32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%wide) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %m = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %m : tensor<f32>
// CHECK-NEXT:       } : (tensor<1x256xf32>) -> tensor<1x256xf32>
// CHECK-NEXT:       %z = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:       %dus = hlo.dynamic_update_slice %out, %ar at [%i, %z] : (tensor<16x256xf32>, tensor<1x256xf32>, tensor<i32>, tensor<i32>) -> tensor<16x256xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v1, %dus : tuple<tensor<i32>, tensor<16xf32>, tensor<16x256xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<16xf32>, tensor<16x256xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16x256xf32>>
// CHECK-NEXT:     func.return %r : tensor<16x256xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): the sunk all-reduce would move 16384 bytes, which exceeds dus-max-size-bytes (10240)
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops

// -----

// pmean written into rows (JAX's per-step loss of a scan): psum(x) / 8 with a constant (replicated) divisor; the body stores x / 8 locally and one sum runs after the loop.
builtin.module @dus_pmean_rows attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<8xf32>, %buf: tensor<8xf32>) -> tensor<8xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
      %n = hlo.constant dense<8> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
      %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
      %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %elem = hlo.dynamic_slice %v at [%i] sizes = [1] : (tensor<8xf32>, tensor<i32>) -> tensor<1xf32>
      %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
      %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = hlo.add %a, %b : tensor<f32>
        hlo.return %m : tensor<f32>
      } : (tensor<f32>) -> tensor<f32>
      %s0 = hlo.constant dense<8.000000e+00> : tensor<f32>
      %mean = hlo.divide %ar, %s0 : tensor<f32>
      %update = hlo.reshape %mean : (tensor<f32>) -> tensor<1xf32>
      %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<8xf32>, tensor<1xf32>, tensor<i32>) -> tensor<8xf32>
      %next = hlo.tuple %i1, %v, %dus : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
    }
    %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
    func.return %r : tensor<8xf32>
  }
}

// REMARK: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// CHECK-LABEL: builtin.module @dus_pmean_rows attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<8xf32>, %buf: tensor<8xf32>) -> tensor<8xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<8> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
// CHECK-NEXT:       %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %elem = hlo.dynamic_slice %v at [%i] sizes = [1] : (tensor<8xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT:       %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT:       %s0 = hlo.constant dense<8.000000e+00> : tensor<f32>
// CHECK-NEXT:       %mean = hlo.divide %local, %s0 : tensor<f32>
// CHECK-NEXT:       %update = hlo.reshape %mean : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT:       %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<8xf32>, tensor<1xf32>, tensor<i32>) -> tensor<8xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v, %dus : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
// CHECK-NEXT:     %r = hlo.all_reduce([[V0]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %m = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %m : tensor<f32>
// CHECK-NEXT:     } : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:     func.return %r : tensor<8xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// the divisor is the partition id: not replicated within the groups; refused.
builtin.module @dus_scale_partition_dependent attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<8xf32>, %buf: tensor<8xf32>) -> tensor<8xf32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
      %n = hlo.constant dense<8> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
      %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
      %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %elem = hlo.dynamic_slice %v at [%i] sizes = [1] : (tensor<8xf32>, tensor<i32>) -> tensor<1xf32>
      %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
      %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = hlo.add %a, %b : tensor<f32>
        hlo.return %m : tensor<f32>
      } : (tensor<f32>) -> tensor<f32>
      %pid = hlo.partition_id : tensor<ui32>
      %s0 = hlo.convert %pid : tensor<ui32> -> tensor<f32>
      %mean = hlo.divide %ar, %s0 : tensor<f32>
      %update = hlo.reshape %mean : (tensor<f32>) -> tensor<1xf32>
      %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<8xf32>, tensor<1xf32>, tensor<i32>) -> tensor<8xf32>
      %next = hlo.tuple %i1, %v, %dus : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
    }
    %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
    func.return %r : tensor<8xf32>
  }
}

// REMARK: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): scale factor is not replicated within the replica groups
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// CHECK-LABEL: builtin.module @dus_scale_partition_dependent attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<8xf32>, %buf: tensor<8xf32>) -> tensor<8xf32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<8> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
// CHECK-NEXT:       %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %elem = hlo.dynamic_slice %v at [%i] sizes = [1] : (tensor<8xf32>, tensor<i32>) -> tensor<1xf32>
// CHECK-NEXT:       %local = hlo.reshape %elem : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %m = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %m : tensor<f32>
// CHECK-NEXT:       } : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:       %pid = hlo.partition_id : tensor<ui32>
// CHECK-NEXT:       %s0 = hlo.convert %pid : tensor<ui32> -> tensor<f32>
// CHECK-NEXT:       %mean = hlo.divide %ar, %s0 : tensor<f32>
// CHECK-NEXT:       %update = hlo.reshape %mean : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT:       %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<8xf32>, tensor<1xf32>, tensor<i32>) -> tensor<8xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v, %dus : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>>
// CHECK-NEXT:     func.return %r : tensor<8xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// an s32 sum divided by 8: integer division does not distribute over the sum; refused.
builtin.module @dus_integer_divide attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<8xi32>, %buf: tensor<8xi32>) -> tensor<8xi32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>
      %n = hlo.constant dense<8> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>
      %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>
      %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %elem = hlo.dynamic_slice %v at [%i] sizes = [1] : (tensor<8xi32>, tensor<i32>) -> tensor<1xi32>
      %local = hlo.reshape %elem : (tensor<1xi32>) -> tensor<i32>
      %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        %m = hlo.add %a, %b : tensor<i32>
        hlo.return %m : tensor<i32>
      } : (tensor<i32>) -> tensor<i32>
      %s0 = hlo.constant dense<8> : tensor<i32>
      %mean = hlo.divide %ar, %s0 : tensor<i32>
      %update = hlo.reshape %mean : (tensor<i32>) -> tensor<1xi32>
      %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<8xi32>, tensor<1xi32>, tensor<i32>) -> tensor<8xi32>
      %next = hlo.tuple %i1, %v, %dus : tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>
      hlo.return %next : tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>
    }
    %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>
    func.return %r : tensor<8xi32>
  }
}

// REMARK: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): unsupported operation on the all-reduce result: divide
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// CHECK-LABEL: builtin.module @dus_integer_divide attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<8xi32>, %buf: tensor<8xi32>) -> tensor<8xi32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>
// CHECK-NEXT:       %n = hlo.constant dense<8> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>
// CHECK-NEXT:       %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %elem = hlo.dynamic_slice %v at [%i] sizes = [1] : (tensor<8xi32>, tensor<i32>) -> tensor<1xi32>
// CHECK-NEXT:       %local = hlo.reshape %elem : (tensor<1xi32>) -> tensor<i32>
// CHECK-NEXT:       %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<i32>, %b: tensor<i32>):
// CHECK-NEXT:         %m = hlo.add %a, %b : tensor<i32>
// CHECK-NEXT:         hlo.return %m : tensor<i32>
// CHECK-NEXT:       } : (tensor<i32>) -> tensor<i32>
// CHECK-NEXT:       %s0 = hlo.constant dense<8> : tensor<i32>
// CHECK-NEXT:       %mean = hlo.divide %ar, %s0 : tensor<i32>
// CHECK-NEXT:       %update = hlo.reshape %mean : (tensor<i32>) -> tensor<1xi32>
// CHECK-NEXT:       %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<8xi32>, tensor<1xi32>, tensor<i32>) -> tensor<8xi32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v, %dus : tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>
// CHECK-NEXT:     func.return %r : tensor<8xi32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// an s32 sum multiplied by 8: exact in modular arithmetic; moved.
builtin.module @dus_integer_scale attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<8xi32>, %buf: tensor<8xi32>) -> tensor<8xi32> attributes {hlo.entry} {
    %c0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>> condition {
    ^bb0(%cs: tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>):
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>
      %n = hlo.constant dense<8> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>):
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>
      %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>
      %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %elem = hlo.dynamic_slice %v at [%i] sizes = [1] : (tensor<8xi32>, tensor<i32>) -> tensor<1xi32>
      %local = hlo.reshape %elem : (tensor<1xi32>) -> tensor<i32>
      %ar = hlo.all_reduce(%local) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        %m = hlo.add %a, %b : tensor<i32>
        hlo.return %m : tensor<i32>
      } : (tensor<i32>) -> tensor<i32>
      %s0 = hlo.constant dense<8> : tensor<i32>
      %mean = hlo.multiply %ar, %s0 : tensor<i32>
      %update = hlo.reshape %mean : (tensor<i32>) -> tensor<1xi32>
      %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<8xi32>, tensor<1xi32>, tensor<i32>) -> tensor<8xi32>
      %next = hlo.tuple %i1, %v, %dus : tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>
      hlo.return %next : tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>
    }
    %r = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>
    func.return %r : tensor<8xi32>
  }
}

// REMARK: remark: neuron-while-loop-all-reduce-code-motion: %ar (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 1 all-reduce and 0 reduce-scatter out of while loops
// CHECK-LABEL: builtin.module @dus_integer_scale attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%x: tensor<8xi32>, %buf: tensor<8xi32>) -> tensor<8xi32> attributes {hlo.entry} {
// CHECK-NEXT:     %c0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %c0, %x, %buf : tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>
// CHECK-NEXT:       %n = hlo.constant dense<8> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>
// CHECK-NEXT:       %v = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>
// CHECK-NEXT:       %out = hlo.get_tuple_element %bs[2] : tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %elem = hlo.dynamic_slice %v at [%i] sizes = [1] : (tensor<8xi32>, tensor<i32>) -> tensor<1xi32>
// CHECK-NEXT:       %local = hlo.reshape %elem : (tensor<1xi32>) -> tensor<i32>
// CHECK-NEXT:       %s0 = hlo.constant dense<8> : tensor<i32>
// CHECK-NEXT:       %mean = hlo.multiply %local, %s0 : tensor<i32>
// CHECK-NEXT:       %update = hlo.reshape %mean : (tensor<i32>) -> tensor<1xi32>
// CHECK-NEXT:       %dus = hlo.dynamic_update_slice %out, %update at [%i] : (tensor<8xi32>, tensor<1xi32>, tensor<i32>) -> tensor<8xi32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %v, %dus : tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.get_tuple_element %w[2] : tuple<tensor<i32>, tensor<8xi32>, tensor<8xi32>>
// CHECK-NEXT:     %r = hlo.all_reduce([[V0]]) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%a: tensor<i32>, %b: tensor<i32>):
// CHECK-NEXT:       %m = hlo.add %a, %b : tensor<i32>
// CHECK-NEXT:       hlo.return %m : tensor<i32>
// CHECK-NEXT:     } : (tensor<8xi32>) -> tensor<8xi32>
// CHECK-NEXT:     func.return %r : tensor<8xi32>
// CHECK-NEXT:   }
// CHECK-NEXT: }
