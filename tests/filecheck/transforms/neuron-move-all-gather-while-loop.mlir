// RUN: neuron-opt %s --split-input-file -p neuron-move-all-gather-while-loop | filecheck %s
// RUN: neuron-opt %s --split-input-file -p 'neuron-move-all-gather-while-loop{remarks=true}' -o /dev/null 2>&1 | filecheck %s --check-prefix=REMARK
// RUN: neuron-opt %s --split-input-file -p 'neuron-move-all-gather-while-loop{reference-replica-groups="0,1,2,3;4,5,6,7"}' | filecheck %s --check-prefix=GATE
// RUN: neuron-opt %s --split-input-file --pass-remarks -p 'neuron-move-all-gather-while-loop{reference-replica-groups="0,1,2,3;4,5,6,7"}' -o /dev/null 2>&1 | filecheck %s --check-prefix=GATE-REMARK
// RUN: not neuron-opt %s --split-input-file -p 'neuron-move-all-gather-while-loop{reference-replica-groups="0,1;x"}' 2>&1 | filecheck %s --check-prefix=BAD

// BAD: error: malformed reference-replica-groups '0,1;x' (expected '0,1;2,3')

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

// CHECK-LABEL: func.func @simple(%w0: tensor<2xf32>, %a0: tensor<16xf32>) -> tuple<tensor<16xf32>, tensor<2xf32>> {
// CHECK-NEXT:    %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %ag = hlo.all_gather(%w0) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
// CHECK-NEXT:    %init = hlo.tuple %zero, %a0, %ag : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:    ^bb0(%c: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %n = hlo.constant dense<3> : tensor<i32>
// CHECK-NEXT:      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:      hlo.return %lt : tensor<i1>
// CHECK-NEXT:    } body {
// CHECK-NEXT:    ^bb0(%p: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:      %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:      %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:      %acc = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %w = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %acc1 = hlo.add %acc, %w : tensor<16xf32>
// CHECK-NEXT:      %t = hlo.tuple %i1, %acc1, %w : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      hlo.return %t : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:    }
// CHECK-NEXT:    %r = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:    %out = hlo.tuple %r, %w0 : tuple<tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:    func.return %out : tuple<tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:  }

// REMARK: remark: neuron-move-all-gather-while-loop: %ag (hlo.all_gather): moved

// -----

// all_gather(convert(gte)): the convert and the gather are hoisted together (bf16 weights).
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @convert_gather(%w0: tensor<2xf32>, %a0: tensor<16xf32>) -> tensor<16xf32> {
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
      %wb = hlo.convert %w : tensor<2xf32> -> tensor<2xbf16>
      %ag = hlo.all_gather(%wb) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xbf16>) -> tensor<16xbf16>
      %agf = hlo.convert %ag : tensor<16xbf16> -> tensor<16xf32>
      %acc1 = hlo.add %acc, %agf : tensor<16xf32>
      %t = hlo.tuple %i1, %acc1, %w : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      hlo.return %t : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    }
    %r = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: func.func @convert_gather(%w0: tensor<2xf32>, %a0: tensor<16xf32>) -> tensor<16xf32> {
// CHECK-NEXT:    %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %wb = hlo.convert %w0 : tensor<2xf32> -> tensor<2xbf16>
// CHECK-NEXT:    %ag = hlo.all_gather(%wb) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xbf16>) -> tensor<16xbf16>
// CHECK-NEXT:    %init = hlo.tuple %zero, %a0, %ag : tuple<tensor<i32>, tensor<16xf32>, tensor<16xbf16>>
// CHECK-NEXT:    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xbf16>> condition {
// CHECK-NEXT:    ^bb0(%c: tuple<tensor<i32>, tensor<16xf32>, tensor<16xbf16>>):
// CHECK-NEXT:      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xbf16>>
// CHECK-NEXT:      %n = hlo.constant dense<3> : tensor<i32>
// CHECK-NEXT:      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:      hlo.return %lt : tensor<i1>
// CHECK-NEXT:    } body {
// CHECK-NEXT:    ^bb0(%p: tuple<tensor<i32>, tensor<16xf32>, tensor<16xbf16>>):
// CHECK-NEXT:      %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xbf16>>
// CHECK-NEXT:      %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:      %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:      %acc = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xbf16>>
// CHECK-NEXT:      %w = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xbf16>>
// CHECK-NEXT:      %agf = hlo.convert %w : tensor<16xbf16> -> tensor<16xf32>
// CHECK-NEXT:      %acc1 = hlo.add %acc, %agf : tensor<16xf32>
// CHECK-NEXT:      %t = hlo.tuple %i1, %acc1, %w : tuple<tensor<i32>, tensor<16xf32>, tensor<16xbf16>>
// CHECK-NEXT:      hlo.return %t : tuple<tensor<i32>, tensor<16xf32>, tensor<16xbf16>>
// CHECK-NEXT:    }
// CHECK-NEXT:    %r = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xbf16>>
// CHECK-NEXT:    func.return %r : tensor<16xf32>
// CHECK-NEXT:  }

// REMARK-NEXT: remark: neuron-move-all-gather-while-loop: %ag (hlo.all_gather): moved

// -----

// Not moved: the body rewrites slot 2 (the weight is updated every iteration).
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @updated_slot(%w0: tensor<2xf32>, %a0: tensor<16xf32>) -> tensor<16xf32> {
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
      %w1 = hlo.multiply %w, %w : tensor<2xf32>
      %t = hlo.tuple %i1, %acc1, %w1 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      hlo.return %t : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    }
    %r = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: func.func @updated_slot(%w0: tensor<2xf32>, %a0: tensor<16xf32>) -> tensor<16xf32> {
// CHECK-NEXT:    %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %init = hlo.tuple %zero, %a0, %w0 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>> condition {
// CHECK-NEXT:    ^bb0(%c: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>):
// CHECK-NEXT:      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %n = hlo.constant dense<3> : tensor<i32>
// CHECK-NEXT:      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:      hlo.return %lt : tensor<i1>
// CHECK-NEXT:    } body {
// CHECK-NEXT:    ^bb0(%p: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>):
// CHECK-NEXT:      %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:      %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:      %acc = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %w = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %ag = hlo.all_gather(%w) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
// CHECK-NEXT:      %acc1 = hlo.add %acc, %ag : tensor<16xf32>
// CHECK-NEXT:      %w1 = hlo.multiply %w, %w : tensor<2xf32>
// CHECK-NEXT:      %t = hlo.tuple %i1, %acc1, %w1 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      hlo.return %t : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:    }
// CHECK-NEXT:    %r = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:    func.return %r : tensor<16xf32>
// CHECK-NEXT:  }

// REMARK-NEXT: remark: neuron-move-all-gather-while-loop: %ag (hlo.all_gather): operand is not a loop-invariant tuple slot: slot 2 is updated by the loop body

// -----

// Not moved: slot 2 is returned at index 1, and slot 1 at index 2 (a swap is not invariant).
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @swapped_slots(%w0: tensor<2xf32>, %v0: tensor<2xf32>) -> tensor<16xf32> {
    %zero = hlo.constant dense<0> : tensor<i32>
    %a0 = hlo.constant dense<0.000000e+00> : tensor<16xf32>
    %init = hlo.tuple %zero, %v0, %w0, %a0 : tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>, tensor<16xf32>>
    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>, tensor<16xf32>> condition {
    ^bb0(%c: tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>, tensor<16xf32>>):
      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>, tensor<16xf32>>
      %n = hlo.constant dense<3> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%p: tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>, tensor<16xf32>>):
      %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>, tensor<16xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %v = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>, tensor<16xf32>>
      %w = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>, tensor<16xf32>>
      %acc = hlo.get_tuple_element %p[3] : tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>, tensor<16xf32>>
      %ag = hlo.all_gather(%w) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
      %acc1 = hlo.add %acc, %ag : tensor<16xf32>
      %t = hlo.tuple %i1, %w, %v, %acc1 : tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>, tensor<16xf32>>
      hlo.return %t : tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>, tensor<16xf32>>
    }
    %r = hlo.get_tuple_element %loop[3] : tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>, tensor<16xf32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: func.func @swapped_slots(%w0: tensor<2xf32>, %v0: tensor<2xf32>) -> tensor<16xf32> {
// CHECK-NEXT:    %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %a0 = hlo.constant dense<0.000000e+00> : tensor<16xf32>
// CHECK-NEXT:    %init = hlo.tuple %zero, %v0, %w0, %a0 : tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:    ^bb0(%c: tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>, tensor<16xf32>>):
// CHECK-NEXT:      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:      %n = hlo.constant dense<3> : tensor<i32>
// CHECK-NEXT:      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:      hlo.return %lt : tensor<i1>
// CHECK-NEXT:    } body {
// CHECK-NEXT:    ^bb0(%p: tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>, tensor<16xf32>>):
// CHECK-NEXT:      %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:      %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:      %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:      %v = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:      %w = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:      %acc = hlo.get_tuple_element %p[3] : tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:      %ag = hlo.all_gather(%w) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
// CHECK-NEXT:      %acc1 = hlo.add %acc, %ag : tensor<16xf32>
// CHECK-NEXT:      %t = hlo.tuple %i1, %w, %v, %acc1 : tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:      hlo.return %t : tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:    }
// CHECK-NEXT:    %r = hlo.get_tuple_element %loop[3] : tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:    func.return %r : tensor<16xf32>
// CHECK-NEXT:  }

// REMARK-NEXT: remark: neuron-move-all-gather-while-loop: %ag (hlo.all_gather): operand is not a loop-invariant tuple slot: slot 2 is updated by the loop body

// -----

// Not moved: the gathered value is computed in the body, not read from a tuple slot.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @operand_not_a_slot(%w0: tensor<2xf32>, %a0: tensor<16xf32>) -> tensor<16xf32> {
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
      %wn = hlo.negate %w : tensor<2xf32>
      %ag = hlo.all_gather(%wn) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
      %acc1 = hlo.add %acc, %ag : tensor<16xf32>
      %t = hlo.tuple %i1, %acc1, %w : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      hlo.return %t : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    }
    %r = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: func.func @operand_not_a_slot(%w0: tensor<2xf32>, %a0: tensor<16xf32>) -> tensor<16xf32> {
// CHECK-NEXT:    %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %init = hlo.tuple %zero, %a0, %w0 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>> condition {
// CHECK-NEXT:    ^bb0(%c: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>):
// CHECK-NEXT:      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %n = hlo.constant dense<3> : tensor<i32>
// CHECK-NEXT:      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:      hlo.return %lt : tensor<i1>
// CHECK-NEXT:    } body {
// CHECK-NEXT:    ^bb0(%p: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>):
// CHECK-NEXT:      %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:      %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:      %acc = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %w = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %wn = hlo.negate %w : tensor<2xf32>
// CHECK-NEXT:      %ag = hlo.all_gather(%wn) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
// CHECK-NEXT:      %acc1 = hlo.add %acc, %ag : tensor<16xf32>
// CHECK-NEXT:      %t = hlo.tuple %i1, %acc1, %w : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      hlo.return %t : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:    }
// CHECK-NEXT:    %r = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:    func.return %r : tensor<16xf32>
// CHECK-NEXT:  }

// REMARK-NEXT: remark: neuron-move-all-gather-while-loop: %ag (hlo.all_gather): operand is not a loop-invariant tuple slot: it is not a get_tuple_element of the loop parameter

// -----

// Not moved: the loop carries a single tensor, not a tuple.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @not_a_tuple() -> tensor<1xi32> {
    %init = hlo.constant dense<0> : tensor<1xi32>
    %loop = hlo.while(%init) : tensor<1xi32> condition {
    ^bb0(%c: tensor<1xi32>):
      %ci = hlo.reshape %c : (tensor<1xi32>) -> tensor<i32>
      %n = hlo.constant dense<3> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%p: tensor<1xi32>):
      %ag = hlo.all_gather(%p) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<1xi32>) -> tensor<8xi32>
      %s = hlo.slice %ag, start = [7], limit = [8], strides = [1] : (tensor<8xi32>) -> tensor<1xi32>
      %one = hlo.constant dense<1> : tensor<1xi32>
      %s1 = hlo.add %s, %one : tensor<1xi32>
      hlo.return %s1 : tensor<1xi32>
    }
    func.return %loop : tensor<1xi32>
  }
}

// CHECK-LABEL: func.func @not_a_tuple() -> tensor<1xi32> {
// CHECK-NEXT:    %init = hlo.constant dense<0> : tensor<1xi32>
// CHECK-NEXT:    %loop = hlo.while(%init) : tensor<1xi32> condition {
// CHECK-NEXT:    ^bb0(%c: tensor<1xi32>):
// CHECK-NEXT:      %ci = hlo.reshape %c : (tensor<1xi32>) -> tensor<i32>
// CHECK-NEXT:      %n = hlo.constant dense<3> : tensor<i32>
// CHECK-NEXT:      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:      hlo.return %lt : tensor<i1>
// CHECK-NEXT:    } body {
// CHECK-NEXT:    ^bb0(%p: tensor<1xi32>):
// CHECK-NEXT:      %ag = hlo.all_gather(%p) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<1xi32>) -> tensor<8xi32>
// CHECK-NEXT:      %s = hlo.slice %ag, start = [7], limit = [8], strides = [1] : (tensor<8xi32>) -> tensor<1xi32>
// CHECK-NEXT:      %one = hlo.constant dense<1> : tensor<1xi32>
// CHECK-NEXT:      %s1 = hlo.add %s, %one : tensor<1xi32>
// CHECK-NEXT:      hlo.return %s1 : tensor<1xi32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %loop : tensor<1xi32>
// CHECK-NEXT:  }

// REMARK-NEXT: remark: neuron-move-all-gather-while-loop: %ag (hlo.all_gather): carried value is not a tuple

// -----

// Not moved: the body's result is not an hlo.tuple, so no slot is known to be invariant.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @result_not_a_tuple(%w0: tensor<2xf32>, %a0: tensor<16xf32>) -> tensor<16xf32> {
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
      %b = hlo.optimization_barrier %t : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      hlo.return %b : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    }
    %r = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: func.func @result_not_a_tuple(%w0: tensor<2xf32>, %a0: tensor<16xf32>) -> tensor<16xf32> {
// CHECK-NEXT:    %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %init = hlo.tuple %zero, %a0, %w0 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>> condition {
// CHECK-NEXT:    ^bb0(%c: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>):
// CHECK-NEXT:      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %n = hlo.constant dense<3> : tensor<i32>
// CHECK-NEXT:      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:      hlo.return %lt : tensor<i1>
// CHECK-NEXT:    } body {
// CHECK-NEXT:    ^bb0(%p: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>):
// CHECK-NEXT:      %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:      %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:      %acc = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %w = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %ag = hlo.all_gather(%w) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
// CHECK-NEXT:      %acc1 = hlo.add %acc, %ag : tensor<16xf32>
// CHECK-NEXT:      %t = hlo.tuple %i1, %acc1, %w : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %b = hlo.optimization_barrier %t : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      hlo.return %b : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:    }
// CHECK-NEXT:    %r = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:    func.return %r : tensor<16xf32>
// CHECK-NEXT:  }

// REMARK-NEXT: remark: neuron-move-all-gather-while-loop: %ag (hlo.all_gather): operand is not a loop-invariant tuple slot: the loop body does not return an hlo.tuple

// -----

// Not moved: a variadic all_gather (two operands, a tuple result).
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @variadic_gather(%w0: tensor<2xf32>, %a0: tensor<16xf32>) -> tensor<16xf32> {
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
      %ag = hlo.all_gather(%w, %w) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<16xf32>, tensor<16xf32>>
      %ag0 = hlo.get_tuple_element %ag[0] : tuple<tensor<16xf32>, tensor<16xf32>>
      %acc1 = hlo.add %acc, %ag0 : tensor<16xf32>
      %t = hlo.tuple %i1, %acc1, %w : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      hlo.return %t : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    }
    %r = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: func.func @variadic_gather(%w0: tensor<2xf32>, %a0: tensor<16xf32>) -> tensor<16xf32> {
// CHECK-NEXT:    %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %init = hlo.tuple %zero, %a0, %w0 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>> condition {
// CHECK-NEXT:    ^bb0(%c: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>):
// CHECK-NEXT:      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %n = hlo.constant dense<3> : tensor<i32>
// CHECK-NEXT:      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:      hlo.return %lt : tensor<i1>
// CHECK-NEXT:    } body {
// CHECK-NEXT:    ^bb0(%p: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>):
// CHECK-NEXT:      %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:      %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:      %acc = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %w = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %ag = hlo.all_gather(%w, %w) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %ag0 = hlo.get_tuple_element %ag[0] : tuple<tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %acc1 = hlo.add %acc, %ag0 : tensor<16xf32>
// CHECK-NEXT:      %t = hlo.tuple %i1, %acc1, %w : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      hlo.return %t : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:    }
// CHECK-NEXT:    %r = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:    func.return %r : tensor<16xf32>
// CHECK-NEXT:  }

// REMARK-NEXT: remark: neuron-move-all-gather-while-loop: %ag (hlo.all_gather): all_gather with 2 operands is not hoisted

// -----

// The replica-group gate (GATE run: reference-replica-groups="0,1,2,3;4,5,6,7"): iota groups
// are compared after expansion. [2,4]<=[8] is {0,1,2,3},{4,5,6,7}: moved;
// [2,4]<=[4,2]T(1,0) is {0,2,4,6},{1,3,5,7}: not moved under the gate. Without the gate both move.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @gate(%w0: tensor<2xf32>, %a0: tensor<8xf32>) -> tensor<8xf32> {
    %zero = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %zero, %a0, %w0 : tuple<tensor<i32>, tensor<8xf32>, tensor<2xf32>>
    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<8xf32>, tensor<2xf32>> condition {
    ^bb0(%c: tuple<tensor<i32>, tensor<8xf32>, tensor<2xf32>>):
      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<8xf32>, tensor<2xf32>>
      %n = hlo.constant dense<3> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%p: tuple<tensor<i32>, tensor<8xf32>, tensor<2xf32>>):
      %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<8xf32>, tensor<2xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %acc = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<8xf32>, tensor<2xf32>>
      %w = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<8xf32>, tensor<2xf32>>
      %blocks = hlo.all_gather(%w) dim = 0 replica_groups = [2,4]<=[8] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<8xf32>
      %strided = hlo.all_gather(%w) dim = 0 replica_groups = [2,4]<=[4,2]T(1,0) channel_id = 2 use_global_device_ids : (tensor<2xf32>) -> tensor<8xf32>
      %sum = hlo.add %blocks, %strided : tensor<8xf32>
      %acc1 = hlo.add %acc, %sum : tensor<8xf32>
      %t = hlo.tuple %i1, %acc1, %w : tuple<tensor<i32>, tensor<8xf32>, tensor<2xf32>>
      hlo.return %t : tuple<tensor<i32>, tensor<8xf32>, tensor<2xf32>>
    }
    %r = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<8xf32>, tensor<2xf32>>
    func.return %r : tensor<8xf32>
  }
}

// CHECK-LABEL: func.func @gate(%w0: tensor<2xf32>, %a0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT:    %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %blocks = hlo.all_gather(%w0) dim = 0 replica_groups = [2,4]<=[8] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<8xf32>
// CHECK-NEXT:    %strided = hlo.all_gather(%w0) dim = 0 replica_groups = [2,4]<=[4,2]T(1,0) channel_id = 2 use_global_device_ids : (tensor<2xf32>) -> tensor<8xf32>
// CHECK-NEXT:    %init = hlo.tuple %zero, %a0, %blocks, %strided : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>>
// CHECK-NEXT:    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>> condition {
// CHECK-NEXT:    ^bb0(%c: tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>>):
// CHECK-NEXT:      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>>
// CHECK-NEXT:      %n = hlo.constant dense<3> : tensor<i32>
// CHECK-NEXT:      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:      hlo.return %lt : tensor<i1>
// CHECK-NEXT:    } body {
// CHECK-NEXT:    ^bb0(%p: tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>>):
// CHECK-NEXT:      %strided_1 = hlo.get_tuple_element %p[3] : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>>
// CHECK-NEXT:      %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>>
// CHECK-NEXT:      %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:      %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:      %acc = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>>
// CHECK-NEXT:      %w = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>>
// CHECK-NEXT:      %sum = hlo.add %w, %strided_1 : tensor<8xf32>
// CHECK-NEXT:      %acc1 = hlo.add %acc, %sum : tensor<8xf32>
// CHECK-NEXT:      %t = hlo.tuple %i1, %acc1, %w, %strided_1 : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>>
// CHECK-NEXT:      hlo.return %t : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>>
// CHECK-NEXT:    }
// CHECK-NEXT:    %r = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>>
// CHECK-NEXT:    func.return %r : tensor<8xf32>
// CHECK-NEXT:  }

// REMARK-NEXT: remark: neuron-move-all-gather-while-loop: %blocks (hlo.all_gather): moved
// REMARK-NEXT: remark: neuron-move-all-gather-while-loop: %strided (hlo.all_gather): moved into new slot 3 (slot 2 now carries %blocks (hlo.all_gather))

// GATE-LABEL: func.func @gate(%w0: tensor<2xf32>, %a0: tensor<8xf32>) -> tensor<8xf32> {
// GATE-NEXT:    %zero = hlo.constant dense<0> : tensor<i32>
// GATE-NEXT:    %blocks = hlo.all_gather(%w0) dim = 0 replica_groups = [2,4]<=[8] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<8xf32>
// GATE-NEXT:    %init = hlo.tuple %zero, %a0, %w0, %blocks : tuple<tensor<i32>, tensor<8xf32>, tensor<2xf32>, tensor<8xf32>>
// GATE-NEXT:    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<8xf32>, tensor<2xf32>, tensor<8xf32>> condition {
// GATE-NEXT:    ^bb0(%c: tuple<tensor<i32>, tensor<8xf32>, tensor<2xf32>, tensor<8xf32>>):
// GATE-NEXT:      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<8xf32>, tensor<2xf32>, tensor<8xf32>>
// GATE-NEXT:      %n = hlo.constant dense<3> : tensor<i32>
// GATE-NEXT:      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// GATE-NEXT:      hlo.return %lt : tensor<i1>
// GATE-NEXT:    } body {
// GATE-NEXT:    ^bb0(%p: tuple<tensor<i32>, tensor<8xf32>, tensor<2xf32>, tensor<8xf32>>):
// GATE-NEXT:      %blocks_1 = hlo.get_tuple_element %p[3] : tuple<tensor<i32>, tensor<8xf32>, tensor<2xf32>, tensor<8xf32>>
// GATE-NEXT:      %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<8xf32>, tensor<2xf32>, tensor<8xf32>>
// GATE-NEXT:      %one = hlo.constant dense<1> : tensor<i32>
// GATE-NEXT:      %i1 = hlo.add %i, %one : tensor<i32>
// GATE-NEXT:      %acc = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<8xf32>, tensor<2xf32>, tensor<8xf32>>
// GATE-NEXT:      %w = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<8xf32>, tensor<2xf32>, tensor<8xf32>>
// GATE-NEXT:      %strided = hlo.all_gather(%w) dim = 0 replica_groups = [2,4]<=[4,2]T(1,0) channel_id = 2 use_global_device_ids : (tensor<2xf32>) -> tensor<8xf32>
// GATE-NEXT:      %sum = hlo.add %blocks_1, %strided : tensor<8xf32>
// GATE-NEXT:      %acc1 = hlo.add %acc, %sum : tensor<8xf32>
// GATE-NEXT:      %t = hlo.tuple %i1, %acc1, %w, %blocks_1 : tuple<tensor<i32>, tensor<8xf32>, tensor<2xf32>, tensor<8xf32>>
// GATE-NEXT:      hlo.return %t : tuple<tensor<i32>, tensor<8xf32>, tensor<2xf32>, tensor<8xf32>>
// GATE-NEXT:    }
// GATE-NEXT:    %r = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<8xf32>, tensor<2xf32>, tensor<8xf32>>
// GATE-NEXT:    func.return %r : tensor<8xf32>
// GATE-NEXT:  }

// GATE-REMARK: remark: neuron-move-all-gather-while-loop: %blocks (hlo.all_gather): moved into new slot 3 (slot 2 is also used by 'hlo.all_gather')
// GATE-REMARK-NEXT: remark: neuron-move-all-gather-while-loop: %strided (hlo.all_gather): replica groups do not match reference-replica-groups

// -----

// General form: the un-gathered weight is also read by the body (%v1 = %v + %w), so slot 2 is
// kept and a new slot 4 carries the gathered value.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @general_other_user(%w0: tensor<2xf32>, %a0: tensor<16xf32>, %v0: tensor<2xf32>) -> tuple<tensor<16xf32>, tensor<2xf32>> {
    %zero = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %zero, %a0, %w0, %v0 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>> condition {
    ^bb0(%c: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>):
      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
      %n = hlo.constant dense<3> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%p: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>):
      %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %acc = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
      %w = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
      %v = hlo.get_tuple_element %p[3] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
      %ag = hlo.all_gather(%w) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
      %acc1 = hlo.add %acc, %ag : tensor<16xf32>
      %v1 = hlo.add %v, %w : tensor<2xf32>
      %t = hlo.tuple %i1, %acc1, %w, %v1 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
      hlo.return %t : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
    }
    %r = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
    %vf = hlo.get_tuple_element %loop[3] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
    %out = hlo.tuple %r, %vf : tuple<tensor<16xf32>, tensor<2xf32>>
    func.return %out : tuple<tensor<16xf32>, tensor<2xf32>>
  }
}

// CHECK-LABEL: func.func @general_other_user(%w0: tensor<2xf32>, %a0: tensor<16xf32>, %v0: tensor<2xf32>) -> tuple<tensor<16xf32>, tensor<2xf32>> {
// CHECK-NEXT:    %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %ag = hlo.all_gather(%w0) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
// CHECK-NEXT:    %init = hlo.tuple %zero, %a0, %w0, %v0, %ag : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:    ^bb0(%c: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>, tensor<16xf32>>):
// CHECK-NEXT:      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:      %n = hlo.constant dense<3> : tensor<i32>
// CHECK-NEXT:      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:      hlo.return %lt : tensor<i1>
// CHECK-NEXT:    } body {
// CHECK-NEXT:    ^bb0(%p: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>, tensor<16xf32>>):
// CHECK-NEXT:      %ag_1 = hlo.get_tuple_element %p[4] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:      %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:      %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:      %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:      %acc = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:      %w = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:      %v = hlo.get_tuple_element %p[3] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:      %acc1 = hlo.add %acc, %ag_1 : tensor<16xf32>
// CHECK-NEXT:      %v1 = hlo.add %v, %w : tensor<2xf32>
// CHECK-NEXT:      %t = hlo.tuple %i1, %acc1, %w, %v1, %ag_1 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:      hlo.return %t : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:    }
// CHECK-NEXT:    %r = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:    %vf = hlo.get_tuple_element %loop[3] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:    %out = hlo.tuple %r, %vf : tuple<tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:    func.return %out : tuple<tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:  }

// REMARK-NEXT: remark: neuron-move-all-gather-while-loop: %ag (hlo.all_gather): moved into new slot 4 (slot 2 is also used by 'hlo.add')

// -----

// General form: the loop condition reads slot 2 (the trip count), so it keeps its type.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @general_condition_reads(%a0: tensor<8xf32>) -> tensor<8xf32> {
    %zero = hlo.constant dense<0> : tensor<i32>
    %limit = hlo.constant dense<3> : tensor<1xi32>
    %init = hlo.tuple %zero, %a0, %limit : tuple<tensor<i32>, tensor<8xf32>, tensor<1xi32>>
    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<8xf32>, tensor<1xi32>> condition {
    ^bb0(%c: tuple<tensor<i32>, tensor<8xf32>, tensor<1xi32>>):
      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<8xf32>, tensor<1xi32>>
      %cn = hlo.get_tuple_element %c[2] : tuple<tensor<i32>, tensor<8xf32>, tensor<1xi32>>
      %n = hlo.reshape %cn : (tensor<1xi32>) -> tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%p: tuple<tensor<i32>, tensor<8xf32>, tensor<1xi32>>):
      %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<8xf32>, tensor<1xi32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %acc = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<8xf32>, tensor<1xi32>>
      %m = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<8xf32>, tensor<1xi32>>
      %ag = hlo.all_gather(%m) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<1xi32>) -> tensor<8xi32>
      %agf = hlo.convert %ag : tensor<8xi32> -> tensor<8xf32>
      %acc1 = hlo.add %acc, %agf : tensor<8xf32>
      %t = hlo.tuple %i1, %acc1, %m : tuple<tensor<i32>, tensor<8xf32>, tensor<1xi32>>
      hlo.return %t : tuple<tensor<i32>, tensor<8xf32>, tensor<1xi32>>
    }
    %r = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<8xf32>, tensor<1xi32>>
    func.return %r : tensor<8xf32>
  }
}

// CHECK-LABEL: func.func @general_condition_reads(%a0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT:    %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %limit = hlo.constant dense<3> : tensor<1xi32>
// CHECK-NEXT:    %ag = hlo.all_gather(%limit) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<1xi32>) -> tensor<8xi32>
// CHECK-NEXT:    %init = hlo.tuple %zero, %a0, %limit, %ag : tuple<tensor<i32>, tensor<8xf32>, tensor<1xi32>, tensor<8xi32>>
// CHECK-NEXT:    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<8xf32>, tensor<1xi32>, tensor<8xi32>> condition {
// CHECK-NEXT:    ^bb0(%c: tuple<tensor<i32>, tensor<8xf32>, tensor<1xi32>, tensor<8xi32>>):
// CHECK-NEXT:      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<8xf32>, tensor<1xi32>, tensor<8xi32>>
// CHECK-NEXT:      %cn = hlo.get_tuple_element %c[2] : tuple<tensor<i32>, tensor<8xf32>, tensor<1xi32>, tensor<8xi32>>
// CHECK-NEXT:      %n = hlo.reshape %cn : (tensor<1xi32>) -> tensor<i32>
// CHECK-NEXT:      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:      hlo.return %lt : tensor<i1>
// CHECK-NEXT:    } body {
// CHECK-NEXT:    ^bb0(%p: tuple<tensor<i32>, tensor<8xf32>, tensor<1xi32>, tensor<8xi32>>):
// CHECK-NEXT:      %ag_1 = hlo.get_tuple_element %p[3] : tuple<tensor<i32>, tensor<8xf32>, tensor<1xi32>, tensor<8xi32>>
// CHECK-NEXT:      %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<8xf32>, tensor<1xi32>, tensor<8xi32>>
// CHECK-NEXT:      %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:      %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:      %acc = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<8xf32>, tensor<1xi32>, tensor<8xi32>>
// CHECK-NEXT:      %m = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<8xf32>, tensor<1xi32>, tensor<8xi32>>
// CHECK-NEXT:      %agf = hlo.convert %ag_1 : tensor<8xi32> -> tensor<8xf32>
// CHECK-NEXT:      %acc1 = hlo.add %acc, %agf : tensor<8xf32>
// CHECK-NEXT:      %t = hlo.tuple %i1, %acc1, %m, %ag_1 : tuple<tensor<i32>, tensor<8xf32>, tensor<1xi32>, tensor<8xi32>>
// CHECK-NEXT:      hlo.return %t : tuple<tensor<i32>, tensor<8xf32>, tensor<1xi32>, tensor<8xi32>>
// CHECK-NEXT:    }
// CHECK-NEXT:    %r = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<8xf32>, tensor<1xi32>, tensor<8xi32>>
// CHECK-NEXT:    func.return %r : tensor<8xf32>
// CHECK-NEXT:  }

// REMARK-NEXT: remark: neuron-move-all-gather-while-loop: %ag (hlo.all_gather): moved into new slot 3 (slot 2 is read by the loop condition)

// -----

// General form: the loop parameter is also used whole (by an optimization barrier), which gets a
// rebuilt tuple of the old type.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @general_parameter_used_whole(%w0: tensor<2xf32>, %a0: tensor<16xf32>) -> tensor<16xf32> {
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
      %b = hlo.optimization_barrier %p : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      %i = hlo.get_tuple_element %b[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %acc = hlo.get_tuple_element %b[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      %w = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      %ag = hlo.all_gather(%w) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
      %acc1 = hlo.add %acc, %ag : tensor<16xf32>
      %t = hlo.tuple %i1, %acc1, %w : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      hlo.return %t : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    }
    %r = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: func.func @general_parameter_used_whole(%w0: tensor<2xf32>, %a0: tensor<16xf32>) -> tensor<16xf32> {
// CHECK-NEXT:    %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %ag = hlo.all_gather(%w0) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
// CHECK-NEXT:    %init = hlo.tuple %zero, %a0, %w0, %ag : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:    ^bb0(%c: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<16xf32>>):
// CHECK-NEXT:      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:      %n = hlo.constant dense<3> : tensor<i32>
// CHECK-NEXT:      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:      hlo.return %lt : tensor<i1>
// CHECK-NEXT:    } body {
// CHECK-NEXT:    ^bb0(%p: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<16xf32>>):
// CHECK-NEXT:      %ag_1 = hlo.get_tuple_element %p[3] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:      [[V0:%[0-9]+]] = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:      [[V1:%[0-9]+]] = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:      [[V2:%[0-9]+]] = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:      [[V3:%[0-9]+]] = hlo.tuple [[V0]], [[V1]], [[V2]] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %b = hlo.optimization_barrier [[V3]] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %i = hlo.get_tuple_element %b[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:      %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:      %acc = hlo.get_tuple_element %b[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %w = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:      %acc1 = hlo.add %acc, %ag_1 : tensor<16xf32>
// CHECK-NEXT:      %t = hlo.tuple %i1, %acc1, %w, %ag_1 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:      hlo.return %t : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:    }
// CHECK-NEXT:    %r = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:    func.return %r : tensor<16xf32>
// CHECK-NEXT:  }

// REMARK-NEXT: remark: neuron-move-all-gather-while-loop: %ag (hlo.all_gather): moved into new slot 3 (the loop parameter is also used by 'hlo.optimization_barrier')

// -----

// General form: the body's result tuple is also used by another op (an optimization barrier).
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @general_result_tuple_reused(%w0: tensor<2xf32>, %a0: tensor<16xf32>) -> tensor<16xf32> {
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
      %b = hlo.optimization_barrier %t : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      hlo.return %t : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    }
    %r = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: func.func @general_result_tuple_reused(%w0: tensor<2xf32>, %a0: tensor<16xf32>) -> tensor<16xf32> {
// CHECK-NEXT:    %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %ag = hlo.all_gather(%w0) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
// CHECK-NEXT:    %init = hlo.tuple %zero, %a0, %w0, %ag : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:    ^bb0(%c: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<16xf32>>):
// CHECK-NEXT:      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:      %n = hlo.constant dense<3> : tensor<i32>
// CHECK-NEXT:      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:      hlo.return %lt : tensor<i1>
// CHECK-NEXT:    } body {
// CHECK-NEXT:    ^bb0(%p: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<16xf32>>):
// CHECK-NEXT:      %ag_1 = hlo.get_tuple_element %p[3] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:      %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:      %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:      %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:      %acc = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:      %w = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:      %acc1 = hlo.add %acc, %ag_1 : tensor<16xf32>
// CHECK-NEXT:      %t = hlo.tuple %i1, %acc1, %w : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %b = hlo.optimization_barrier %t : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %t_1 = hlo.tuple %i1, %acc1, %w, %ag_1 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:      hlo.return %t_1 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:    }
// CHECK-NEXT:    %r = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<16xf32>>
// CHECK-NEXT:    func.return %r : tensor<16xf32>
// CHECK-NEXT:  }

// REMARK-NEXT: remark: neuron-move-all-gather-while-loop: %ag (hlo.all_gather): moved into new slot 3 (the body result tuple is also used by 'hlo.optimization_barrier')

// -----

// General form: the converted weight is also used by the body (a bf16 update of slot 3).
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @general_convert_reused(%w0: tensor<2xf32>, %a0: tensor<16xf32>, %v0: tensor<2xbf16>) -> tuple<tensor<16xf32>, tensor<2xbf16>> {
    %zero = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %zero, %a0, %w0, %v0 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xbf16>>
    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xbf16>> condition {
    ^bb0(%c: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xbf16>>):
      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xbf16>>
      %n = hlo.constant dense<3> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%p: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xbf16>>):
      %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xbf16>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %acc = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xbf16>>
      %w = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xbf16>>
      %v = hlo.get_tuple_element %p[3] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xbf16>>
      %wb = hlo.convert %w : tensor<2xf32> -> tensor<2xbf16>
      %ag = hlo.all_gather(%wb) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xbf16>) -> tensor<16xbf16>
      %agf = hlo.convert %ag : tensor<16xbf16> -> tensor<16xf32>
      %acc1 = hlo.add %acc, %agf : tensor<16xf32>
      %v1 = hlo.add %v, %wb : tensor<2xbf16>
      %t = hlo.tuple %i1, %acc1, %w, %v1 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xbf16>>
      hlo.return %t : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xbf16>>
    }
    %r = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xbf16>>
    %vf = hlo.get_tuple_element %loop[3] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xbf16>>
    %out = hlo.tuple %r, %vf : tuple<tensor<16xf32>, tensor<2xbf16>>
    func.return %out : tuple<tensor<16xf32>, tensor<2xbf16>>
  }
}

// CHECK-LABEL: func.func @general_convert_reused(%w0: tensor<2xf32>, %a0: tensor<16xf32>, %v0: tensor<2xbf16>) -> tuple<tensor<16xf32>, tensor<2xbf16>> {
// CHECK-NEXT:    %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %wb = hlo.convert %w0 : tensor<2xf32> -> tensor<2xbf16>
// CHECK-NEXT:    %ag = hlo.all_gather(%wb) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xbf16>) -> tensor<16xbf16>
// CHECK-NEXT:    %init = hlo.tuple %zero, %a0, %w0, %v0, %ag : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xbf16>, tensor<16xbf16>>
// CHECK-NEXT:    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xbf16>, tensor<16xbf16>> condition {
// CHECK-NEXT:    ^bb0(%c: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xbf16>, tensor<16xbf16>>):
// CHECK-NEXT:      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xbf16>, tensor<16xbf16>>
// CHECK-NEXT:      %n = hlo.constant dense<3> : tensor<i32>
// CHECK-NEXT:      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:      hlo.return %lt : tensor<i1>
// CHECK-NEXT:    } body {
// CHECK-NEXT:    ^bb0(%p: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xbf16>, tensor<16xbf16>>):
// CHECK-NEXT:      %ag_1 = hlo.get_tuple_element %p[4] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xbf16>, tensor<16xbf16>>
// CHECK-NEXT:      %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xbf16>, tensor<16xbf16>>
// CHECK-NEXT:      %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:      %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:      %acc = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xbf16>, tensor<16xbf16>>
// CHECK-NEXT:      %w = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xbf16>, tensor<16xbf16>>
// CHECK-NEXT:      %v = hlo.get_tuple_element %p[3] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xbf16>, tensor<16xbf16>>
// CHECK-NEXT:      %wb_1 = hlo.convert %w : tensor<2xf32> -> tensor<2xbf16>
// CHECK-NEXT:      %agf = hlo.convert %ag_1 : tensor<16xbf16> -> tensor<16xf32>
// CHECK-NEXT:      %acc1 = hlo.add %acc, %agf : tensor<16xf32>
// CHECK-NEXT:      %v1 = hlo.add %v, %wb_1 : tensor<2xbf16>
// CHECK-NEXT:      %t = hlo.tuple %i1, %acc1, %w, %v1, %ag_1 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xbf16>, tensor<16xbf16>>
// CHECK-NEXT:      hlo.return %t : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xbf16>, tensor<16xbf16>>
// CHECK-NEXT:    }
// CHECK-NEXT:    %r = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xbf16>, tensor<16xbf16>>
// CHECK-NEXT:    %vf = hlo.get_tuple_element %loop[3] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xbf16>, tensor<16xbf16>>
// CHECK-NEXT:    %out = hlo.tuple %r, %vf : tuple<tensor<16xf32>, tensor<2xbf16>>
// CHECK-NEXT:    func.return %out : tuple<tensor<16xf32>, tensor<2xbf16>>
// CHECK-NEXT:  }

// REMARK-NEXT: remark: neuron-move-all-gather-while-loop: %ag (hlo.all_gather): moved into new slot 4 (slot 2 is also used by 'hlo.add')

// -----

// Two identical gathers of one slot (different channel ids): the first moves in the simple form,
// the second into a new slot; the duplicate remover then merges the hoisted gathers and the two
// slots that carry the same gather.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @duplicate_gathers(%w0: tensor<2xf32>, %a0: tensor<16xf32>) -> tensor<16xf32> {
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
      %ag1 = hlo.all_gather(%w) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
      %acc1 = hlo.add %acc, %ag1 : tensor<16xf32>
      %ag2 = hlo.all_gather(%w) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
      %acc2 = hlo.multiply %acc1, %ag2 : tensor<16xf32>
      %t = hlo.tuple %i1, %acc2, %w : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      hlo.return %t : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    }
    %r = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: func.func @duplicate_gathers(%w0: tensor<2xf32>, %a0: tensor<16xf32>) -> tensor<16xf32> {
// CHECK-NEXT:    %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %ag1 = hlo.all_gather(%w0) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
// CHECK-NEXT:    %init = hlo.tuple %zero, %a0, %ag1 : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:    ^bb0(%c: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %n = hlo.constant dense<3> : tensor<i32>
// CHECK-NEXT:      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:      hlo.return %lt : tensor<i1>
// CHECK-NEXT:    } body {
// CHECK-NEXT:    ^bb0(%p: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:      %ag2 = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:      %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:      %acc = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %w = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %acc1 = hlo.add %acc, %w : tensor<16xf32>
// CHECK-NEXT:      %acc2 = hlo.multiply %acc1, %ag2 : tensor<16xf32>
// CHECK-NEXT:      %t = hlo.tuple %i1, %acc2, %w : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      hlo.return %t : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:    }
// CHECK-NEXT:    %r = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:    func.return %r : tensor<16xf32>
// CHECK-NEXT:  }

// REMARK-NEXT: remark: neuron-move-all-gather-while-loop: %ag1 (hlo.all_gather): moved
// REMARK-NEXT: remark: neuron-move-all-gather-while-loop: %ag2 (hlo.all_gather): moved into new slot 3 (slot 2 now carries %ag1 (hlo.all_gather))
// REMARK-NEXT: remark: neuron-move-all-gather-while-loop: %ag2 (hlo.all_gather): duplicate of %ag1 (hlo.all_gather): removed
// REMARK-NEXT: remark: neuron-move-all-gather-while-loop: %ag1 (hlo.all_gather): carried unchanged in loop slots 2 and 3: merged into one slot

// -----

// Two different gathers of one slot (dimensions 0 and 1): both move, the second into a new slot.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @two_gathers_of_one_slot(%w0: tensor<2x2xf32>, %a0: tensor<16x2xf32>, %b0: tensor<2x16xf32>) -> tuple<tensor<16x2xf32>, tensor<2x16xf32>> {
    %zero = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %zero, %a0, %b0, %w0 : tuple<tensor<i32>, tensor<16x2xf32>, tensor<2x16xf32>, tensor<2x2xf32>>
    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<16x2xf32>, tensor<2x16xf32>, tensor<2x2xf32>> condition {
    ^bb0(%c: tuple<tensor<i32>, tensor<16x2xf32>, tensor<2x16xf32>, tensor<2x2xf32>>):
      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<16x2xf32>, tensor<2x16xf32>, tensor<2x2xf32>>
      %n = hlo.constant dense<3> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%p: tuple<tensor<i32>, tensor<16x2xf32>, tensor<2x16xf32>, tensor<2x2xf32>>):
      %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<16x2xf32>, tensor<2x16xf32>, tensor<2x2xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %a = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<16x2xf32>, tensor<2x16xf32>, tensor<2x2xf32>>
      %b = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<16x2xf32>, tensor<2x16xf32>, tensor<2x2xf32>>
      %w = hlo.get_tuple_element %p[3] : tuple<tensor<i32>, tensor<16x2xf32>, tensor<2x16xf32>, tensor<2x2xf32>>
      %rows = hlo.all_gather(%w) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2x2xf32>) -> tensor<16x2xf32>
      %cols = hlo.all_gather(%w) dim = 1 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids : (tensor<2x2xf32>) -> tensor<2x16xf32>
      %a1 = hlo.add %a, %rows : tensor<16x2xf32>
      %b1 = hlo.add %b, %cols : tensor<2x16xf32>
      %t = hlo.tuple %i1, %a1, %b1, %w : tuple<tensor<i32>, tensor<16x2xf32>, tensor<2x16xf32>, tensor<2x2xf32>>
      hlo.return %t : tuple<tensor<i32>, tensor<16x2xf32>, tensor<2x16xf32>, tensor<2x2xf32>>
    }
    %ra = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16x2xf32>, tensor<2x16xf32>, tensor<2x2xf32>>
    %rb = hlo.get_tuple_element %loop[2] : tuple<tensor<i32>, tensor<16x2xf32>, tensor<2x16xf32>, tensor<2x2xf32>>
    %out = hlo.tuple %ra, %rb : tuple<tensor<16x2xf32>, tensor<2x16xf32>>
    func.return %out : tuple<tensor<16x2xf32>, tensor<2x16xf32>>
  }
}

// CHECK-LABEL: func.func @two_gathers_of_one_slot(%w0: tensor<2x2xf32>, %a0: tensor<16x2xf32>, %b0: tensor<2x16xf32>) -> tuple<tensor<16x2xf32>, tensor<2x16xf32>> {
// CHECK-NEXT:    %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %rows = hlo.all_gather(%w0) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2x2xf32>) -> tensor<16x2xf32>
// CHECK-NEXT:    %cols = hlo.all_gather(%w0) dim = 1 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids : (tensor<2x2xf32>) -> tensor<2x16xf32>
// CHECK-NEXT:    %init = hlo.tuple %zero, %a0, %b0, %rows, %cols : tuple<tensor<i32>, tensor<16x2xf32>, tensor<2x16xf32>, tensor<16x2xf32>, tensor<2x16xf32>>
// CHECK-NEXT:    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<16x2xf32>, tensor<2x16xf32>, tensor<16x2xf32>, tensor<2x16xf32>> condition {
// CHECK-NEXT:    ^bb0(%c: tuple<tensor<i32>, tensor<16x2xf32>, tensor<2x16xf32>, tensor<16x2xf32>, tensor<2x16xf32>>):
// CHECK-NEXT:      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<16x2xf32>, tensor<2x16xf32>, tensor<16x2xf32>, tensor<2x16xf32>>
// CHECK-NEXT:      %n = hlo.constant dense<3> : tensor<i32>
// CHECK-NEXT:      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:      hlo.return %lt : tensor<i1>
// CHECK-NEXT:    } body {
// CHECK-NEXT:    ^bb0(%p: tuple<tensor<i32>, tensor<16x2xf32>, tensor<2x16xf32>, tensor<16x2xf32>, tensor<2x16xf32>>):
// CHECK-NEXT:      %cols_1 = hlo.get_tuple_element %p[4] : tuple<tensor<i32>, tensor<16x2xf32>, tensor<2x16xf32>, tensor<16x2xf32>, tensor<2x16xf32>>
// CHECK-NEXT:      %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<16x2xf32>, tensor<2x16xf32>, tensor<16x2xf32>, tensor<2x16xf32>>
// CHECK-NEXT:      %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:      %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:      %a = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<16x2xf32>, tensor<2x16xf32>, tensor<16x2xf32>, tensor<2x16xf32>>
// CHECK-NEXT:      %b = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<16x2xf32>, tensor<2x16xf32>, tensor<16x2xf32>, tensor<2x16xf32>>
// CHECK-NEXT:      %w = hlo.get_tuple_element %p[3] : tuple<tensor<i32>, tensor<16x2xf32>, tensor<2x16xf32>, tensor<16x2xf32>, tensor<2x16xf32>>
// CHECK-NEXT:      %a1 = hlo.add %a, %w : tensor<16x2xf32>
// CHECK-NEXT:      %b1 = hlo.add %b, %cols_1 : tensor<2x16xf32>
// CHECK-NEXT:      %t = hlo.tuple %i1, %a1, %b1, %w, %cols_1 : tuple<tensor<i32>, tensor<16x2xf32>, tensor<2x16xf32>, tensor<16x2xf32>, tensor<2x16xf32>>
// CHECK-NEXT:      hlo.return %t : tuple<tensor<i32>, tensor<16x2xf32>, tensor<2x16xf32>, tensor<16x2xf32>, tensor<2x16xf32>>
// CHECK-NEXT:    }
// CHECK-NEXT:    %ra = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16x2xf32>, tensor<2x16xf32>, tensor<16x2xf32>, tensor<2x16xf32>>
// CHECK-NEXT:    %rb = hlo.get_tuple_element %loop[2] : tuple<tensor<i32>, tensor<16x2xf32>, tensor<2x16xf32>, tensor<16x2xf32>, tensor<2x16xf32>>
// CHECK-NEXT:    %out = hlo.tuple %ra, %rb : tuple<tensor<16x2xf32>, tensor<2x16xf32>>
// CHECK-NEXT:    func.return %out : tuple<tensor<16x2xf32>, tensor<2x16xf32>>
// CHECK-NEXT:  }

// REMARK-NEXT: remark: neuron-move-all-gather-while-loop: %rows (hlo.all_gather): moved
// REMARK-NEXT: remark: neuron-move-all-gather-while-loop: %cols (hlo.all_gather): moved into new slot 4 (slot 3 now carries %rows (hlo.all_gather))

// -----

// One loop, two gathers: the invariant weight %w moves, the updated one %u stays.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @one_of_two(%w0: tensor<2xf32>, %u0: tensor<2xf32>, %a0: tensor<16xf32>) -> tensor<16xf32> {
    %zero = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %zero, %a0, %w0, %u0 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>> condition {
    ^bb0(%c: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>):
      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
      %n = hlo.constant dense<3> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%p: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>):
      %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %acc = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
      %w = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
      %u = hlo.get_tuple_element %p[3] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
      %agw = hlo.all_gather(%w) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
      %agu = hlo.all_gather(%u) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
      %s = hlo.add %agw, %agu : tensor<16xf32>
      %acc1 = hlo.add %acc, %s : tensor<16xf32>
      %u1 = hlo.add %u, %u : tensor<2xf32>
      %t = hlo.tuple %i1, %acc1, %w, %u1 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
      hlo.return %t : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
    }
    %r = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>, tensor<2xf32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: func.func @one_of_two(%w0: tensor<2xf32>, %u0: tensor<2xf32>, %a0: tensor<16xf32>) -> tensor<16xf32> {
// CHECK-NEXT:    %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %agw = hlo.all_gather(%w0) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
// CHECK-NEXT:    %init = hlo.tuple %zero, %a0, %agw, %u0 : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>> condition {
// CHECK-NEXT:    ^bb0(%c: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>):
// CHECK-NEXT:      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %n = hlo.constant dense<3> : tensor<i32>
// CHECK-NEXT:      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:      hlo.return %lt : tensor<i1>
// CHECK-NEXT:    } body {
// CHECK-NEXT:    ^bb0(%p: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>):
// CHECK-NEXT:      %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:      %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:      %acc = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %w = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %u = hlo.get_tuple_element %p[3] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %agu = hlo.all_gather(%u) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
// CHECK-NEXT:      %s = hlo.add %w, %agu : tensor<16xf32>
// CHECK-NEXT:      %acc1 = hlo.add %acc, %s : tensor<16xf32>
// CHECK-NEXT:      %u1 = hlo.add %u, %u : tensor<2xf32>
// CHECK-NEXT:      %t = hlo.tuple %i1, %acc1, %w, %u1 : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      hlo.return %t : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:    }
// CHECK-NEXT:    %r = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:    func.return %r : tensor<16xf32>
// CHECK-NEXT:  }

// REMARK-NEXT: remark: neuron-move-all-gather-while-loop: %agw (hlo.all_gather): moved
// REMARK-NEXT: remark: neuron-move-all-gather-while-loop: %agu (hlo.all_gather): operand is not a loop-invariant tuple slot: slot 3 is updated by the loop body

// -----

// Nested loops, innermost first: the inner loop's gather moves into the outer body, where it
// gathers the outer loop's invariant slot 2, so it moves again, before the outer loop.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @nested_loops(%w0: tensor<2xf32>, %a0: tensor<16xf32>) -> tensor<16xf32> {
    %zero = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %zero, %a0, %w0 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    %outer = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>> condition {
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
      %jzero = hlo.constant dense<0> : tensor<i32>
      %inner_init = hlo.tuple %jzero, %acc, %w : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      %inner = hlo.while(%inner_init) : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>> condition {
      ^bb0(%d: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>):
        %dj = hlo.get_tuple_element %d[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
        %m = hlo.constant dense<3> : tensor<i32>
        %jlt = hlo.compare LT, %dj, %m : tensor<i32> -> tensor<i1>
        hlo.return %jlt : tensor<i1>
      } body {
      ^bb0(%q: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>):
        %j = hlo.get_tuple_element %q[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
        %jone = hlo.constant dense<1> : tensor<i32>
        %j1 = hlo.add %j, %jone : tensor<i32>
        %iacc = hlo.get_tuple_element %q[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
        %iw = hlo.get_tuple_element %q[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
        %ag = hlo.all_gather(%iw) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
        %iacc1 = hlo.add %iacc, %ag : tensor<16xf32>
        %qt = hlo.tuple %j1, %iacc1, %iw : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
        hlo.return %qt : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      }
      %acc1 = hlo.get_tuple_element %inner[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      %t = hlo.tuple %i1, %acc1, %w : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      hlo.return %t : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    }
    %r = hlo.get_tuple_element %outer[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: func.func @nested_loops(%w0: tensor<2xf32>, %a0: tensor<16xf32>) -> tensor<16xf32> {
// CHECK-NEXT:    %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %ag = hlo.all_gather(%w0) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
// CHECK-NEXT:    %init = hlo.tuple %zero, %a0, %ag : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:    %outer = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:    ^bb0(%c: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %n = hlo.constant dense<2> : tensor<i32>
// CHECK-NEXT:      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:      hlo.return %lt : tensor<i1>
// CHECK-NEXT:    } body {
// CHECK-NEXT:    ^bb0(%p: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:      %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:      %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:      %acc = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %w = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %jzero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:      %inner_init = hlo.tuple %jzero, %acc, %w : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %inner = hlo.while(%inner_init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:      ^bb0(%d: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:        %dj = hlo.get_tuple_element %d[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:        %m = hlo.constant dense<3> : tensor<i32>
// CHECK-NEXT:        %jlt = hlo.compare LT, %dj, %m : tensor<i32> -> tensor<i1>
// CHECK-NEXT:        hlo.return %jlt : tensor<i1>
// CHECK-NEXT:      } body {
// CHECK-NEXT:      ^bb0(%q: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:        %j = hlo.get_tuple_element %q[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:        %jone = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:        %j1 = hlo.add %j, %jone : tensor<i32>
// CHECK-NEXT:        %iacc = hlo.get_tuple_element %q[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:        %iw = hlo.get_tuple_element %q[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:        %iacc1 = hlo.add %iacc, %iw : tensor<16xf32>
// CHECK-NEXT:        %qt = hlo.tuple %j1, %iacc1, %iw : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:        hlo.return %qt : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      }
// CHECK-NEXT:      %acc1 = hlo.get_tuple_element %inner[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %t = hlo.tuple %i1, %acc1, %w : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      hlo.return %t : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:    }
// CHECK-NEXT:    %r = hlo.get_tuple_element %outer[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:    func.return %r : tensor<16xf32>
// CHECK-NEXT:  }

// REMARK-NEXT: remark: neuron-move-all-gather-while-loop: %ag (hlo.all_gather): moved
// REMARK-NEXT: remark: neuron-move-all-gather-while-loop: %ag (hlo.all_gather): moved

// -----

// Nested loops where the outer loop updates the weight: the gather leaves the inner loop only.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @nested_outer_updates(%w0: tensor<2xf32>, %a0: tensor<16xf32>) -> tensor<16xf32> {
    %zero = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %zero, %a0, %w0 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    %outer = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>> condition {
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
      %jzero = hlo.constant dense<0> : tensor<i32>
      %inner_init = hlo.tuple %jzero, %acc, %w : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      %inner = hlo.while(%inner_init) : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>> condition {
      ^bb0(%d: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>):
        %dj = hlo.get_tuple_element %d[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
        %m = hlo.constant dense<3> : tensor<i32>
        %jlt = hlo.compare LT, %dj, %m : tensor<i32> -> tensor<i1>
        hlo.return %jlt : tensor<i1>
      } body {
      ^bb0(%q: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>):
        %j = hlo.get_tuple_element %q[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
        %jone = hlo.constant dense<1> : tensor<i32>
        %j1 = hlo.add %j, %jone : tensor<i32>
        %iacc = hlo.get_tuple_element %q[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
        %iw = hlo.get_tuple_element %q[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
        %ag = hlo.all_gather(%iw) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
        %iacc1 = hlo.add %iacc, %ag : tensor<16xf32>
        %qt = hlo.tuple %j1, %iacc1, %iw : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
        hlo.return %qt : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      }
      %acc1 = hlo.get_tuple_element %inner[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      %w1 = hlo.add %w, %w : tensor<2xf32>
      %t = hlo.tuple %i1, %acc1, %w1 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      hlo.return %t : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    }
    %r = hlo.get_tuple_element %outer[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: func.func @nested_outer_updates(%w0: tensor<2xf32>, %a0: tensor<16xf32>) -> tensor<16xf32> {
// CHECK-NEXT:    %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %init = hlo.tuple %zero, %a0, %w0 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:    %outer = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>> condition {
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
// CHECK-NEXT:      %jzero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:      %ag = hlo.all_gather(%w) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
// CHECK-NEXT:      %inner_init = hlo.tuple %jzero, %acc, %ag : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %inner = hlo.while(%inner_init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:      ^bb0(%d: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:        %dj = hlo.get_tuple_element %d[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:        %m = hlo.constant dense<3> : tensor<i32>
// CHECK-NEXT:        %jlt = hlo.compare LT, %dj, %m : tensor<i32> -> tensor<i1>
// CHECK-NEXT:        hlo.return %jlt : tensor<i1>
// CHECK-NEXT:      } body {
// CHECK-NEXT:      ^bb0(%q: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:        %j = hlo.get_tuple_element %q[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:        %jone = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:        %j1 = hlo.add %j, %jone : tensor<i32>
// CHECK-NEXT:        %iacc = hlo.get_tuple_element %q[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:        %iw = hlo.get_tuple_element %q[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:        %iacc1 = hlo.add %iacc, %iw : tensor<16xf32>
// CHECK-NEXT:        %qt = hlo.tuple %j1, %iacc1, %iw : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:        hlo.return %qt : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      }
// CHECK-NEXT:      %acc1 = hlo.get_tuple_element %inner[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %w1 = hlo.add %w, %w : tensor<2xf32>
// CHECK-NEXT:      %t = hlo.tuple %i1, %acc1, %w1 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      hlo.return %t : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:    }
// CHECK-NEXT:    %r = hlo.get_tuple_element %outer[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:    func.return %r : tensor<16xf32>
// CHECK-NEXT:  }

// REMARK-NEXT: remark: neuron-move-all-gather-while-loop: %ag (hlo.all_gather): moved
// REMARK-NEXT: remark: neuron-move-all-gather-while-loop: %ag (hlo.all_gather): operand is not a loop-invariant tuple slot: slot 2 is updated by the loop body

// -----

// A gather inside a conditional of the loop body is not at the top level of the body: not moved.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @gather_in_conditional(%w0: tensor<2xf32>, %a0: tensor<16xf32>) -> tensor<16xf32> {
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
      %first = hlo.compare LT, %i, %one : tensor<i32> -> tensor<i1>
      %g = hlo.conditional(%first) (%w, %w) : (tensor<i1>, tensor<2xf32>, tensor<2xf32>) -> tensor<16xf32> {
      ^bb0(%bw: tensor<2xf32>):
        %ag = hlo.all_gather(%bw) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
        hlo.return %ag : tensor<16xf32>
      }, {
      ^bb0(%bz: tensor<2xf32>):
        %z = hlo.constant dense<0.000000e+00> : tensor<16xf32>
        hlo.return %z : tensor<16xf32>
      }
      %acc1 = hlo.add %acc, %g : tensor<16xf32>
      %t = hlo.tuple %i1, %acc1, %w : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      hlo.return %t : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    }
    %r = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: func.func @gather_in_conditional(%w0: tensor<2xf32>, %a0: tensor<16xf32>) -> tensor<16xf32> {
// CHECK-NEXT:    %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %init = hlo.tuple %zero, %a0, %w0 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>> condition {
// CHECK-NEXT:    ^bb0(%c: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>):
// CHECK-NEXT:      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %n = hlo.constant dense<3> : tensor<i32>
// CHECK-NEXT:      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:      hlo.return %lt : tensor<i1>
// CHECK-NEXT:    } body {
// CHECK-NEXT:    ^bb0(%p: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>):
// CHECK-NEXT:      %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:      %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:      %acc = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %w = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      %first = hlo.compare LT, %i, %one : tensor<i32> -> tensor<i1>
// CHECK-NEXT:      %g = hlo.conditional(%first) (%w, %w) : (tensor<i1>, tensor<2xf32>, tensor<2xf32>) -> tensor<16xf32> {
// CHECK-NEXT:      ^bb0(%bw: tensor<2xf32>):
// CHECK-NEXT:        %ag = hlo.all_gather(%bw) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
// CHECK-NEXT:        hlo.return %ag : tensor<16xf32>
// CHECK-NEXT:      }, {
// CHECK-NEXT:      ^bb0(%bz: tensor<2xf32>):
// CHECK-NEXT:        %z = hlo.constant dense<0.000000e+00> : tensor<16xf32>
// CHECK-NEXT:        hlo.return %z : tensor<16xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      %acc1 = hlo.add %acc, %g : tensor<16xf32>
// CHECK-NEXT:      %t = hlo.tuple %i1, %acc1, %w : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:      hlo.return %t : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:    }
// CHECK-NEXT:    %r = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:    func.return %r : tensor<16xf32>
// CHECK-NEXT:  }

// REMARK-NEXT: remark: neuron-move-all-gather-while-loop: %ag (hlo.all_gather): not at the top level of the loop body (inside 'hlo.conditional')

// -----

// The whole loop result is returned: it is rebuilt with the old type after the loop (slot 2
// from the original init value).
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @loop_result_used_whole(%w0: tensor<2xf32>, %a0: tensor<16xf32>) -> tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>> {
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
    func.return %loop : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
  }
}

// CHECK-LABEL: func.func @loop_result_used_whole(%w0: tensor<2xf32>, %a0: tensor<16xf32>) -> tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>> {
// CHECK-NEXT:    %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %ag = hlo.all_gather(%w0) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
// CHECK-NEXT:    %init = hlo.tuple %zero, %a0, %ag : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:    ^bb0(%c: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %n = hlo.constant dense<3> : tensor<i32>
// CHECK-NEXT:      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:      hlo.return %lt : tensor<i1>
// CHECK-NEXT:    } body {
// CHECK-NEXT:    ^bb0(%p: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:      %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:      %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:      %acc = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %w = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %acc1 = hlo.add %acc, %w : tensor<16xf32>
// CHECK-NEXT:      %t = hlo.tuple %i1, %acc1, %w : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      hlo.return %t : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:    }
// CHECK-NEXT:    [[V0:%[0-9]+]] = hlo.get_tuple_element %loop[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:    [[V1:%[0-9]+]] = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:    [[V2:%[0-9]+]] = hlo.tuple [[V0]], [[V1]], %w0 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:    func.return [[V2]] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:  }

// REMARK-NEXT: remark: neuron-move-all-gather-while-loop: %ag (hlo.all_gather): moved

// -----

// The init value is not built by an hlo.tuple: its slots are read with get_tuple_element.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @init_not_a_tuple_op(%w0: tensor<2xf32>, %a0: tensor<16xf32>) -> tensor<16xf32> {
    %zero = hlo.constant dense<0> : tensor<i32>
    %t0 = hlo.tuple %zero, %a0, %w0 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    %init = hlo.optimization_barrier %t0 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
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
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: func.func @init_not_a_tuple_op(%w0: tensor<2xf32>, %a0: tensor<16xf32>) -> tensor<16xf32> {
// CHECK-NEXT:    %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %t0 = hlo.tuple %zero, %a0, %w0 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:    %init = hlo.optimization_barrier %t0 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:    [[V0:%[0-9]+]] = hlo.get_tuple_element %init[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:    [[V1:%[0-9]+]] = hlo.get_tuple_element %init[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:    [[V2:%[0-9]+]] = hlo.get_tuple_element %init[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
// CHECK-NEXT:    %ag = hlo.all_gather([[V2]]) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
// CHECK-NEXT:    %init_1 = hlo.tuple [[V0]], [[V1]], %ag : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:    %loop = hlo.while(%init_1) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:    ^bb0(%c: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %n = hlo.constant dense<3> : tensor<i32>
// CHECK-NEXT:      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:      hlo.return %lt : tensor<i1>
// CHECK-NEXT:    } body {
// CHECK-NEXT:    ^bb0(%p: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:      %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:      %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:      %acc = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %w = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %acc1 = hlo.add %acc, %w : tensor<16xf32>
// CHECK-NEXT:      %t = hlo.tuple %i1, %acc1, %w : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      hlo.return %t : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:    }
// CHECK-NEXT:    %r = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:    func.return %r : tensor<16xf32>
// CHECK-NEXT:  }

// REMARK-NEXT: remark: neuron-move-all-gather-while-loop: %ag (hlo.all_gather): moved

// -----

// A gather without channel id (cross_replica mode) moves too and still has no channel id.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @cross_replica_gather(%w0: tensor<2xf32>, %a0: tensor<2xf32>) -> tensor<2xf32> {
    %zero = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %zero, %a0, %w0 : tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>>
    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>> condition {
    ^bb0(%c: tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>>):
      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>>
      %n = hlo.constant dense<3> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%p: tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>>):
      %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %acc = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>>
      %w = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>>
      %ag = hlo.all_gather(%w) dim = 0 replica_groups = [[0]] : (tensor<2xf32>) -> tensor<2xf32>
      %acc1 = hlo.add %acc, %ag : tensor<2xf32>
      %t = hlo.tuple %i1, %acc1, %w : tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>>
      hlo.return %t : tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>>
    }
    %r = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>>
    func.return %r : tensor<2xf32>
  }
}

// CHECK-LABEL: func.func @cross_replica_gather(%w0: tensor<2xf32>, %a0: tensor<2xf32>) -> tensor<2xf32> {
// CHECK-NEXT:    %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %ag = hlo.all_gather(%w0) dim = 0 replica_groups = [[0]] : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    %init = hlo.tuple %zero, %a0, %ag : tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>> condition {
// CHECK-NEXT:    ^bb0(%c: tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>>):
// CHECK-NEXT:      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:      %n = hlo.constant dense<3> : tensor<i32>
// CHECK-NEXT:      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:      hlo.return %lt : tensor<i1>
// CHECK-NEXT:    } body {
// CHECK-NEXT:    ^bb0(%p: tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>>):
// CHECK-NEXT:      %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:      %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:      %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:      %acc = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:      %w = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:      %acc1 = hlo.add %acc, %w : tensor<2xf32>
// CHECK-NEXT:      %t = hlo.tuple %i1, %acc1, %w : tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:      hlo.return %t : tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:    }
// CHECK-NEXT:    %r = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:    func.return %r : tensor<2xf32>
// CHECK-NEXT:  }

// REMARK-NEXT: remark: neuron-move-all-gather-while-loop: %ag (hlo.all_gather): moved

// -----

// Two loops with the same body (as XLA's shared computations are cloned on import), so the same
// channel id 1 twice: the first hoisted gather gets NextChannelId (2), the last one keeps 1.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @same_body_twice(%w0: tensor<2xf32>, %v0: tensor<2xf32>, %a0: tensor<16xf32>) -> tensor<16xf32> {
    %zero = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %zero, %a0, %w0 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    %first = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>> condition {
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
    %mid = hlo.get_tuple_element %first[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    %init2 = hlo.tuple %zero, %mid, %v0 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    %second = hlo.while(%init2) : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>> condition {
    ^bb0(%c2: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>):
      %ci2 = hlo.get_tuple_element %c2[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      %n2 = hlo.constant dense<3> : tensor<i32>
      %lt2 = hlo.compare LT, %ci2, %n2 : tensor<i32> -> tensor<i1>
      hlo.return %lt2 : tensor<i1>
    } body {
    ^bb0(%p2: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>):
      %i2 = hlo.get_tuple_element %p2[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      %one2 = hlo.constant dense<1> : tensor<i32>
      %i12 = hlo.add %i2, %one2 : tensor<i32>
      %acc2 = hlo.get_tuple_element %p2[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      %w2 = hlo.get_tuple_element %p2[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      %ag2 = hlo.all_gather(%w2) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
      %acc12 = hlo.add %acc2, %ag2 : tensor<16xf32>
      %t2 = hlo.tuple %i12, %acc12, %w2 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      hlo.return %t2 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    }
    %r = hlo.get_tuple_element %second[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: func.func @same_body_twice(%w0: tensor<2xf32>, %v0: tensor<2xf32>, %a0: tensor<16xf32>) -> tensor<16xf32> {
// CHECK-NEXT:    %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %ag = hlo.all_gather(%w0) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
// CHECK-NEXT:    %init = hlo.tuple %zero, %a0, %ag : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:    %first = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:    ^bb0(%c: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %n = hlo.constant dense<3> : tensor<i32>
// CHECK-NEXT:      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:      hlo.return %lt : tensor<i1>
// CHECK-NEXT:    } body {
// CHECK-NEXT:    ^bb0(%p: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:      %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:      %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:      %acc = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %w = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %acc1 = hlo.add %acc, %w : tensor<16xf32>
// CHECK-NEXT:      %t = hlo.tuple %i1, %acc1, %w : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      hlo.return %t : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:    }
// CHECK-NEXT:    %mid = hlo.get_tuple_element %first[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:    %ag2 = hlo.all_gather(%v0) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
// CHECK-NEXT:    %init2 = hlo.tuple %zero, %mid, %ag2 : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:    %second = hlo.while(%init2) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:    ^bb0(%c2: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:      %ci2 = hlo.get_tuple_element %c2[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %n2 = hlo.constant dense<3> : tensor<i32>
// CHECK-NEXT:      %lt2 = hlo.compare LT, %ci2, %n2 : tensor<i32> -> tensor<i1>
// CHECK-NEXT:      hlo.return %lt2 : tensor<i1>
// CHECK-NEXT:    } body {
// CHECK-NEXT:    ^bb0(%p2: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:      %i2 = hlo.get_tuple_element %p2[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %one2 = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:      %i12 = hlo.add %i2, %one2 : tensor<i32>
// CHECK-NEXT:      %acc2 = hlo.get_tuple_element %p2[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %w2 = hlo.get_tuple_element %p2[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %acc12 = hlo.add %acc2, %w2 : tensor<16xf32>
// CHECK-NEXT:      %t2 = hlo.tuple %i12, %acc12, %w2 : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      hlo.return %t2 : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:    }
// CHECK-NEXT:    %r = hlo.get_tuple_element %second[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:    func.return %r : tensor<16xf32>
// CHECK-NEXT:  }

// REMARK-NEXT: remark: neuron-move-all-gather-while-loop: %ag (hlo.all_gather): moved
// REMARK-NEXT: remark: neuron-move-all-gather-while-loop: %ag2 (hlo.all_gather): moved

// -----

// Two loops gathering the same weight: after hoisting, the duplicate remover keeps one gather.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @two_loops_one_weight(%w0: tensor<2xf32>, %a0: tensor<16xf32>) -> tensor<16xf32> {
    %zero = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %zero, %a0, %w0 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    %first = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>> condition {
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
    %mid = hlo.get_tuple_element %first[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    %init2 = hlo.tuple %zero, %mid, %w0 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    %second = hlo.while(%init2) : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>> condition {
    ^bb0(%c2: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>):
      %ci2 = hlo.get_tuple_element %c2[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      %n2 = hlo.constant dense<3> : tensor<i32>
      %lt2 = hlo.compare LT, %ci2, %n2 : tensor<i32> -> tensor<i1>
      hlo.return %lt2 : tensor<i1>
    } body {
    ^bb0(%p2: tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>):
      %i2 = hlo.get_tuple_element %p2[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      %one2 = hlo.constant dense<1> : tensor<i32>
      %i12 = hlo.add %i2, %one2 : tensor<i32>
      %acc2 = hlo.get_tuple_element %p2[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      %w2 = hlo.get_tuple_element %p2[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      %ag2 = hlo.all_gather(%w2) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
      %acc12 = hlo.multiply %acc2, %ag2 : tensor<16xf32>
      %t2 = hlo.tuple %i12, %acc12, %w2 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
      hlo.return %t2 : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    }
    %r = hlo.get_tuple_element %second[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<2xf32>>
    func.return %r : tensor<16xf32>
  }
}

// CHECK-LABEL: func.func @two_loops_one_weight(%w0: tensor<2xf32>, %a0: tensor<16xf32>) -> tensor<16xf32> {
// CHECK-NEXT:    %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %ag = hlo.all_gather(%w0) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<16xf32>
// CHECK-NEXT:    %init = hlo.tuple %zero, %a0, %ag : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:    %first = hlo.while(%init) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:    ^bb0(%c: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %n = hlo.constant dense<3> : tensor<i32>
// CHECK-NEXT:      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:      hlo.return %lt : tensor<i1>
// CHECK-NEXT:    } body {
// CHECK-NEXT:    ^bb0(%p: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:      %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:      %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:      %acc = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %w = hlo.get_tuple_element %p[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %acc1 = hlo.add %acc, %w : tensor<16xf32>
// CHECK-NEXT:      %t = hlo.tuple %i1, %acc1, %w : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      hlo.return %t : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:    }
// CHECK-NEXT:    %mid = hlo.get_tuple_element %first[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:    %init2 = hlo.tuple %zero, %mid, %ag : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:    %second = hlo.while(%init2) : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>> condition {
// CHECK-NEXT:    ^bb0(%c2: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:      %ci2 = hlo.get_tuple_element %c2[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %n2 = hlo.constant dense<3> : tensor<i32>
// CHECK-NEXT:      %lt2 = hlo.compare LT, %ci2, %n2 : tensor<i32> -> tensor<i1>
// CHECK-NEXT:      hlo.return %lt2 : tensor<i1>
// CHECK-NEXT:    } body {
// CHECK-NEXT:    ^bb0(%p2: tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>):
// CHECK-NEXT:      %i2 = hlo.get_tuple_element %p2[0] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %one2 = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:      %i12 = hlo.add %i2, %one2 : tensor<i32>
// CHECK-NEXT:      %acc2 = hlo.get_tuple_element %p2[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %w2 = hlo.get_tuple_element %p2[2] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      %acc12 = hlo.multiply %acc2, %w2 : tensor<16xf32>
// CHECK-NEXT:      %t2 = hlo.tuple %i12, %acc12, %w2 : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:      hlo.return %t2 : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:    }
// CHECK-NEXT:    %r = hlo.get_tuple_element %second[1] : tuple<tensor<i32>, tensor<16xf32>, tensor<16xf32>>
// CHECK-NEXT:    func.return %r : tensor<16xf32>
// CHECK-NEXT:  }

// REMARK-NEXT: remark: neuron-move-all-gather-while-loop: %ag (hlo.all_gather): moved
// REMARK-NEXT: remark: neuron-move-all-gather-while-loop: %ag2 (hlo.all_gather): moved
// REMARK-NEXT: remark: neuron-move-all-gather-while-loop: %ag2 (hlo.all_gather): duplicate of %ag (hlo.all_gather): removed
