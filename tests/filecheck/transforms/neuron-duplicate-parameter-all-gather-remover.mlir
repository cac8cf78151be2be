// RUN: neuron-opt %s --split-input-file -p neuron-duplicate-parameter-all-gather-remover | filecheck %s
// RUN: neuron-opt %s --split-input-file -p 'neuron-duplicate-parameter-all-gather-remover{remarks=true}' -o /dev/null 2>&1 | filecheck %s --check-prefix=REMARK

// Identical gathers of one operand in one function: the later ones read the first (channel ids
// and metadata may differ).
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @identical(%w: tensor<2xf32>) -> tensor<16xf32> {
    %a = hlo.all_gather(%w) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
    %b = hlo.all_gather(%w) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {xla.metadata = "{op_name=\22b\22}"} : (tensor<2xf32>) -> tensor<16xf32>
    %c = hlo.all_gather(%w) dim = 0 replica_groups = [1,8]<=[8] channel_id = 3 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
    %ab = hlo.add %a, %b : tensor<16xf32>
    %abc = hlo.multiply %ab, %c : tensor<16xf32>
    func.return %abc : tensor<16xf32>
  }
}

// CHECK-LABEL: func.func @identical(%w: tensor<2xf32>) -> tensor<16xf32> {
// CHECK-NEXT:    %a = hlo.all_gather(%w) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
// CHECK-NEXT:    %ab = hlo.add %a, %a : tensor<16xf32>
// CHECK-NEXT:    %abc = hlo.multiply %ab, %a : tensor<16xf32>
// CHECK-NEXT:    func.return %abc : tensor<16xf32>
// CHECK-NEXT:  }

// REMARK: remark: neuron-duplicate-parameter-all-gather-remover: %b (hlo.all_gather): duplicate of %a (hlo.all_gather): removed
// REMARK-NEXT: remark: neuron-duplicate-parameter-all-gather-remover: %c (hlo.all_gather): duplicate of %a (hlo.all_gather): removed

// -----

// Kept: a different dimension, different groups, no channel id (another group mode), a different
// operand, constrain_layout.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @different(%w: tensor<2x2xf32>, %v: tensor<2x2xf32>) -> tuple<tensor<16x2xf32>, tensor<2x16xf32>, tensor<8x2xf32>, tensor<2x2xf32>, tensor<16x2xf32>, tensor<16x2xf32>> {
    %a = hlo.all_gather(%w) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2x2xf32>) -> tensor<16x2xf32>
    %b = hlo.all_gather(%w) dim = 1 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids : (tensor<2x2xf32>) -> tensor<2x16xf32>
    %c = hlo.all_gather(%w) dim = 0 replica_groups = [[0, 1, 2, 3], [4, 5, 6, 7]] channel_id = 3 use_global_device_ids : (tensor<2x2xf32>) -> tensor<8x2xf32>
    %d = hlo.all_gather(%w) dim = 0 replica_groups = [[0]] : (tensor<2x2xf32>) -> tensor<2x2xf32>
    %e = hlo.all_gather(%v) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 4 use_global_device_ids : (tensor<2x2xf32>) -> tensor<16x2xf32>
    %f = hlo.all_gather(%w) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 5 use_global_device_ids constrain_layout : (tensor<2x2xf32>) -> tensor<16x2xf32>
    %t = hlo.tuple %a, %b, %c, %d, %e, %f : tuple<tensor<16x2xf32>, tensor<2x16xf32>, tensor<8x2xf32>, tensor<2x2xf32>, tensor<16x2xf32>, tensor<16x2xf32>>
    func.return %t : tuple<tensor<16x2xf32>, tensor<2x16xf32>, tensor<8x2xf32>, tensor<2x2xf32>, tensor<16x2xf32>, tensor<16x2xf32>>
  }
}

// CHECK-LABEL: func.func @different(%w: tensor<2x2xf32>, %v: tensor<2x2xf32>) -> tuple<tensor<16x2xf32>, tensor<2x16xf32>, tensor<8x2xf32>, tensor<2x2xf32>, tensor<16x2xf32>, tensor<16x2xf32>> {
// CHECK-NEXT:    %a = hlo.all_gather(%w) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2x2xf32>) -> tensor<16x2xf32>
// CHECK-NEXT:    %b = hlo.all_gather(%w) dim = 1 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids : (tensor<2x2xf32>) -> tensor<2x16xf32>
// CHECK-NEXT:    %c = hlo.all_gather(%w) dim = 0 replica_groups = [[0, 1, 2, 3], [4, 5, 6, 7]] channel_id = 3 use_global_device_ids : (tensor<2x2xf32>) -> tensor<8x2xf32>
// CHECK-NEXT:    %d = hlo.all_gather(%w) dim = 0 replica_groups = [[0]] : (tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:    %e = hlo.all_gather(%v) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 4 use_global_device_ids : (tensor<2x2xf32>) -> tensor<16x2xf32>
// CHECK-NEXT:    %f = hlo.all_gather(%w) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 5 use_global_device_ids constrain_layout : (tensor<2x2xf32>) -> tensor<16x2xf32>
// CHECK-NEXT:    %t = hlo.tuple %a, %b, %c, %d, %e, %f : tuple<tensor<16x2xf32>, tensor<2x16xf32>, tensor<8x2xf32>, tensor<2x2xf32>, tensor<16x2xf32>, tensor<16x2xf32>>
// CHECK-NEXT:    func.return %t : tuple<tensor<16x2xf32>, tensor<2x16xf32>, tensor<8x2xf32>, tensor<2x2xf32>, tensor<16x2xf32>, tensor<16x2xf32>>
// CHECK-NEXT:  }

// -----

// Gathers of two reads of the same tuple slot are merged (and the second read becomes dead);
// gathers in different blocks (the function and a loop body) are not.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @same_slot_and_blocks(%w0: tensor<2xf32>, %k: tensor<i32>) -> tensor<16xf32> {
    %t = hlo.tuple %w0, %k : tuple<tensor<2xf32>, tensor<i32>>
    %w1 = hlo.get_tuple_element %t[0] : tuple<tensor<2xf32>, tensor<i32>>
    %a = hlo.all_gather(%w1) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
    %w2 = hlo.get_tuple_element %t[0] : tuple<tensor<2xf32>, tensor<i32>>
    %b = hlo.all_gather(%w2) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
    %ab = hlo.add %a, %b : tensor<16xf32>
    %zero = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %zero, %ab, %w1 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>> condition {
    ^bb0(%c: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>):
      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      %n = hlo.constant dense<2> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%p: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>):
      %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %acc = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      %w = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      %g1 = hlo.all_gather(%w) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 3 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
      %g2 = hlo.all_gather(%w) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 4 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
      %g = hlo.multiply %g1, %g2 : tensor<16xf32>
      %acc1 = hlo.add %acc, %g : tensor<16xf32>
      %t2 = hlo.tuple %i1, %acc1, %w : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      hlo.return %t2 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    }
    %r = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: func.func @same_slot_and_blocks(%w0: tensor<2xf32>, %k: tensor<i32>) -> tensor<16xf32> {
// CHECK-NEXT:    %t = hlo.tuple %w0, %k : tuple<tensor<2xf32>, tensor<i32>>
// CHECK-NEXT:    %w1 = hlo.get_tuple_element %t[0] : tuple<tensor<2xf32>, tensor<i32>>
// CHECK-NEXT:    %a = hlo.all_gather(%w1) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
// CHECK-NEXT:    %ab = hlo.add %a, %a : tensor<16xf32>
// CHECK-NEXT:    %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %init = hlo.tuple %zero, %ab, %w1 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>> condition {
// CHECK-NEXT:    ^bb0(%c: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>):
// CHECK-NEXT:      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %n = hlo.constant dense<2> : tensor<i32>
// CHECK-NEXT:      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:      hlo.return %lt : tensor<i1>
// CHECK-NEXT:    } body {
// CHECK-NEXT:    ^bb0(%p: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>):
// CHECK-NEXT:      %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:      %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:      %acc = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %w = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %g1 = hlo.all_gather(%w) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 3 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
// CHECK-NEXT:      %g = hlo.multiply %g1, %g1 : tensor<16xf32>
// CHECK-NEXT:      %acc1 = hlo.add %acc, %g : tensor<16xf32>
// CHECK-NEXT:      %t2 = hlo.tuple %i1, %acc1, %w : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      hlo.return %t2 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:    }
// CHECK-NEXT:    %r = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:    func.return %r : tensor<16xf32>
// CHECK-NEXT:  }

// REMARK-NEXT: remark: neuron-duplicate-parameter-all-gather-remover: %b (hlo.all_gather): duplicate of %a (hlo.all_gather): removed
// REMARK-NEXT: remark: neuron-duplicate-parameter-all-gather-remover: %g2 (hlo.all_gather): duplicate of %g1 (hlo.all_gather): removed

// -----

// Slots 1 and 3 start from the same gather and pass through unchanged: merged into slot 1;
// reads of slot 3 in the body, the condition and after the loop read slot 1, slot 4 becomes 3.
// Slot 2 also starts from the gather but is updated: kept.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @merge_slots(%w: tensor<2xf32>) -> tuple<tensor<16xf32>, tensor<16xf32>, tensor<16xf32>> {
    %ag = hlo.all_gather(%w) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
    %zero = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %zero, %ag, %ag, %ag, %w : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>
    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>> condition {
    ^bb0(%c: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>):
      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>
      %c3 = hlo.get_tuple_element %c[3] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>
      %c3s = hlo.slice %c3, start = [0], limit = [1], strides = [1] : (tensor<16xf32>) -> tensor<1xf32>
      %c3r = hlo.reshape %c3s : (tensor<1xf32>) -> tensor<f32>
      %c3i = hlo.convert %c3r : tensor<f32> -> tensor<i32>
      %zz = hlo.multiply %c3i, %ci : tensor<i32>
      %z0 = hlo.constant dense<0> : tensor<i32>
      %zero_c = hlo.multiply %zz, %z0 : tensor<i32>
      %n = hlo.constant dense<3> : tensor<i32>
      %lim = hlo.add %n, %zero_c : tensor<i32>
      %lt = hlo.compare LT, %ci, %lim : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%p: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>):
      %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %x = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>
      %acc = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>
      %y = hlo.get_tuple_element %p[3] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>
      %v = hlo.get_tuple_element %p[4] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>
      %xy = hlo.multiply %x, %y : tensor<16xf32>
      %acc1 = hlo.add %acc, %xy : tensor<16xf32>
      %t = hlo.tuple %i1, %x, %acc1, %y, %v : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>
      hlo.return %t : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>
    }
    %rx = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>
    %racc = hlo.get_tuple_element %loop[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>
    %ry = hlo.get_tuple_element %loop[3] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>
    %out = hlo.tuple %rx, %racc, %ry : tuple<tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
    func.return %out : tuple<tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
  }
}

// CHECK-LABEL: func.func @merge_slots(%w: tensor<2xf32>) -> tuple<tensor<16xf32>, tensor<16xf32>, tensor<16xf32>> {
// CHECK-NEXT:    %ag = hlo.all_gather(%w) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
// CHECK-NEXT:    %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %init = hlo.tuple %zero, %ag, %ag, %w : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>> condition {
// CHECK-NEXT:    ^bb0(%c: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>):
// CHECK-NEXT:      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %c3 = hlo.get_tuple_element %c[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %c3s = hlo.slice %c3, start = [0], limit = [1], strides = [1] : (tensor<16xf32>) -> tensor<1xf32>
// CHECK-NEXT:      %c3r = hlo.reshape %c3s : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT:      %c3i = hlo.convert %c3r : tensor<f32> -> tensor<i32>
// CHECK-NEXT:      %zz = hlo.multiply %c3i, %ci : tensor<i32>
// CHECK-NEXT:      %z0 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:      %zero_c = hlo.multiply %zz, %z0 : tensor<i32>
// CHECK-NEXT:      %n = hlo.constant dense<3> : tensor<i32>
// CHECK-NEXT:      %lim = hlo.add %n, %zero_c : tensor<i32>
// CHECK-NEXT:      %lt = hlo.compare LT, %ci, %lim : tensor<i32> -> tensor<i1>
// CHECK-NEXT:      hlo.return %lt : tensor<i1>
// CHECK-NEXT:    } body {
// CHECK-NEXT:    ^bb0(%p: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>):
// CHECK-NEXT:      %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:      %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:      %x = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %acc = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %y = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %v = hlo.get_tuple_element %p[3] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %xy = hlo.multiply %x, %y : tensor<16xf32>
// CHECK-NEXT:      %acc1 = hlo.add %acc, %xy : tensor<16xf32>
// CHECK-NEXT:      %t = hlo.tuple %i1, %x, %acc1, %v : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      hlo.return %t : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:    }
// CHECK-NEXT:    %rx = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:    %racc = hlo.get_tuple_element %loop[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:    %ry = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:    %out = hlo.tuple %rx, %racc, %ry : tuple<tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:    func.return %out : tuple<tensor<16xf32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:  }

// REMARK-NEXT: remark: neuron-duplicate-parameter-all-gather-remover: %ag (hlo.all_gather): carried unchanged in loop slots 1 and 3: merged into one slot

// -----

// Not merged: two pass-through slots with the same init that is not an all_gather result, and
// a whole-tuple use of the loop result is rebuilt when slots are merged.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @merge_with_whole_result(%w: tensor<2xf32>) -> (tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>) {
    %ag = hlo.all_gather(%w) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
    %zero = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %zero, %ag, %ag, %w, %w : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>> condition {
    ^bb0(%c: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>):
      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
      %n = hlo.constant dense<3> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%p: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>):
      %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %x = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
      %y = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
      %u = hlo.get_tuple_element %p[3] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
      %v = hlo.get_tuple_element %p[4] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
      %t = hlo.tuple %i1, %x, %y, %u, %v : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
      hlo.return %t : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
    }
    func.return %loop : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
  }
}

// CHECK-LABEL: func.func @merge_with_whole_result(%w: tensor<2xf32>) -> tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>> {
// CHECK-NEXT:    %ag = hlo.all_gather(%w) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
// CHECK-NEXT:    %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %init = hlo.tuple %zero, %ag, %w, %w : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>> condition {
// CHECK-NEXT:    ^bb0(%c: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>):
// CHECK-NEXT:      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:      %n = hlo.constant dense<3> : tensor<i32>
// CHECK-NEXT:      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:      hlo.return %lt : tensor<i1>
// CHECK-NEXT:    } body {
// CHECK-NEXT:    ^bb0(%p: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>):
// CHECK-NEXT:      %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:      %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:      %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:      %x = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:      %u = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:      %v = hlo.get_tuple_element %p[3] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:      %t = hlo.tuple %i1, %x, %u, %v : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:      hlo.return %t : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:    }
// CHECK-NEXT:    [[V0:%[0-9]+]] = hlo.get_tuple_element %loop[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:    [[V1:%[0-9]+]] = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:    [[V2:%[0-9]+]] = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:    [[V3:%[0-9]+]] = hlo.get_tuple_element %loop[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:    [[V4:%[0-9]+]] = hlo.get_tuple_element %loop[3] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:    [[V5:%[0-9]+]] = hlo.tuple [[V0]], [[V1]], [[V2]], [[V3]], [[V4]] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:    func.return [[V5]] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:  }

// REMARK-NEXT: remark: neuron-duplicate-parameter-all-gather-remover: %ag (hlo.all_gather): carried unchanged in loop slots 1 and 2: merged into one slot
