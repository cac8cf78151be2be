// RUN: neuron-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

// One case per verifier rule of the hlo dialect, each checking its message.
// Sections: collectives, control-flow, elementwise, data-movement, computation.

// ===== collectives ===========================================================

// use_global_device_ids without channel_id is an invalid group mode.
// CHECK: use_global_device_ids requires a channel_id
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.all_gather(%x) dim = 0 replica_groups = [[0], [1]] use_global_device_ids : (tensor<8xf32>) -> tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// An empty group.
// CHECK-NEXT: replica group 1 is empty (cross_replica mode, 2 replicas x 4 partitions)
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.all_reduce(%x) replica_groups = [[0, 1], []] {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// cross_replica: ids are replica ids in [0, num_replicas).
// CHECK-NEXT: replica group 0 contains id 2 outside [0, 2) (cross_replica mode, 2 replicas x 4 partitions)
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.all_reduce(%x) replica_groups = [[0, 2]] {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// cross_partition (all_to_all with a channel_id): ids are partition ids in [0, num_partitions).
// CHECK-NEXT: replica group 1 contains id 4 outside [0, 4) (cross_partition mode, 2 replicas x 4 partitions)
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.all_to_all(%x) dim = 0 replica_groups = [[0, 1], [2, 4]] channel_id = 1 : (tensor<8xf32>) -> tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// cross_replica_and_partition: ids are replica ids even though partitions take part.
// CHECK-NEXT: replica group 0 contains id 3 outside [0, 2) (cross_replica_and_partition mode, 2 replicas x 4 partitions)
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.all_gather(%x) dim = 0 replica_groups = [[0, 3]] channel_id = 1 : (tensor<8xf32>) -> tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// flattened_id: ids are r*P+p in [0, num_replicas*num_partitions).
// CHECK-NEXT: replica group 1 contains id 8 outside [0, 8) (flattened_id mode, 2 replicas x 4 partitions)
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.all_reduce(%x) replica_groups = [[0, 1, 2, 3], [4, 5, 6, 8]] channel_id = 1 use_global_device_ids {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// Negative ids are out of range too.
// CHECK-NEXT: replica group 0 contains id -1 outside [0, 4) (cross_partition mode, 2 replicas x 4 partitions)
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.collective_broadcast(%x) replica_groups = [[-1, 0]] channel_id = 1 : (tensor<8xf32>) -> tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// An id in two groups.
// CHECK-NEXT: id 1 appears in more than one replica group position (cross_replica mode, 4 replicas x 1 partitions)
builtin.module attributes {hlo.num_replicas = 4 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<16xf32> {
    %r = hlo.all_gather(%x) dim = 0 replica_groups = [[0, 1], [1, 2]] : (tensor<8xf32>) -> tensor<16xf32>
    func.return %r : tensor<16xf32>
  }
}

// -----

// CHECK: // {{-----}}
// An id twice in one group.
// CHECK-NEXT: id 0 appears in more than one replica group position (cross_replica mode, 2 replicas x 4 partitions)
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.reduce_scatter(%x) dim = 0 replica_groups = [[0, 0]] {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<8xf32>) -> tensor<4xf32>
    func.return %r : tensor<4xf32>
  }
}

// -----

// CHECK: // {{-----}}
// collective_broadcast need not cover every id, but ids stay unique.
// CHECK-NEXT: id 2 appears in more than one replica group position (cross_replica mode, 4 replicas x 1 partitions)
builtin.module attributes {hlo.num_replicas = 4 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.collective_broadcast(%x) replica_groups = [[2, 0], [2]] : (tensor<8xf32>) -> tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// Non-uniform group sizes: all_gather (unlike all_reduce) rejects them.
// CHECK-NEXT: replica groups have non-uniform sizes [3, 5] (flattened_id mode, 2 replicas x 4 partitions)
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<24xf32> {
    %r = hlo.all_gather(%x) dim = 0 replica_groups = [[0, 1, 2], [3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<8xf32>) -> tensor<24xf32>
    func.return %r : tensor<24xf32>
  }
}

// -----

// CHECK: // {{-----}}
// Non-uniform group sizes: reduce_scatter.
// CHECK-NEXT: replica groups have non-uniform sizes [1, 3] (cross_replica mode, 4 replicas x 1 partitions)
builtin.module attributes {hlo.num_replicas = 4 : i64} {
  func.func @f(%x: tensor<6xf32>) -> tensor<6xf32> {
    %r = hlo.reduce_scatter(%x) dim = 0 replica_groups = [[0], [1, 2, 3]] {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<6xf32>) -> tensor<6xf32>
    func.return %r : tensor<6xf32>
  }
}

// -----

// CHECK: // {{-----}}
// Non-uniform group sizes: all_to_all.
// CHECK-NEXT: replica groups have non-uniform sizes [1, 3] (cross_partition mode, 1 replicas x 4 partitions)
builtin.module attributes {hlo.num_partitions = 4 : i64} {
  func.func @f(%x: tensor<6xf32>) -> tensor<6xf32> {
    %r = hlo.all_to_all(%x) dim = 0 replica_groups = [[0], [1, 2, 3]] channel_id = 1 : (tensor<6xf32>) -> tensor<6xf32>
    func.return %r : tensor<6xf32>
  }
}

// -----

// CHECK: // {{-----}}
// Explicit groups must cover every id.
// CHECK-NEXT: replica groups do not cover every id in [0, 4): missing [2, 3] (cross_replica mode, 4 replicas x 1 partitions)
builtin.module attributes {hlo.num_replicas = 4 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.all_reduce(%x) replica_groups = [[0, 1]] {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// Cover check in flattened_id mode (8 devices).
// CHECK-NEXT: replica groups do not cover every id in [0, 8): missing [1, 3, 5, 7] (flattened_id mode, 2 replicas x 4 partitions)
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<16xf32> {
    %r = hlo.all_gather(%x) dim = 0 replica_groups = [[0, 2], [4, 6]] channel_id = 1 use_global_device_ids : (tensor<8xf32>) -> tensor<16xf32>
    func.return %r : tensor<16xf32>
  }
}

// -----

// CHECK: // {{-----}}
// An iota list with fewer ids than the id space does not cover it.
// CHECK-NEXT: replica groups do not cover every id in [0, 16): missing [8, 9, 10, 11, 12, 13, 14, 15] (cross_replica mode, 16 replicas x 1 partitions)
builtin.module attributes {hlo.num_replicas = 16 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<32xf32> {
    %r = hlo.all_gather(%x) dim = 0 replica_groups = [2,4]<=[4,2]T(1,0) : (tensor<8xf32>) -> tensor<32xf32>
    func.return %r : tensor<32xf32>
  }
}

// -----

// CHECK: // {{-----}}
// An iota list with more ids than the id space.
// CHECK-NEXT: replica group 1 contains id 4 outside [0, 4) (cross_replica mode, 4 replicas x 1 partitions)
builtin.module attributes {hlo.num_replicas = 4 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<32xf32> {
    %r = hlo.all_gather(%x) dim = 0 replica_groups = [2,4]<=[8] : (tensor<8xf32>) -> tensor<32xf32>
    func.return %r : tensor<32xf32>
  }
}

// -----

// CHECK: // {{-----}}
// flattened_id mode needs explicit groups.
// CHECK-NEXT: flattened_id mode (use_global_device_ids) needs explicit replica groups
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.all_reduce(%x) replica_groups = [] channel_id = 1 use_global_device_ids {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// Iota: the reshape dims must hold G*S devices (a parse error).
// CHECK: iota reshape dims [4, 3] do not hold 2x4 devices
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<32xf32> {
    %r = hlo.all_gather(%x) dim = 0 replica_groups = [2,4]<=[4,3] channel_id = 1 use_global_device_ids : (tensor<8xf32>) -> tensor<32xf32>
    func.return %r : tensor<32xf32>
  }
}

// -----

// CHECK: // {{-----}}
// Iota: a zero reshape dim.
// CHECK: iota reshape dims [8, 0] do not hold 2x4 devices
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<32xf32> {
    %r = hlo.all_gather(%x) dim = 0 replica_groups = [2,4]<=[8,0] channel_id = 1 use_global_device_ids : (tensor<8xf32>) -> tensor<32xf32>
    func.return %r : tensor<32xf32>
  }
}

// -----

// CHECK: // {{-----}}
// Iota: negative reshape dims whose product is right are still rejected.
// CHECK: iota reshape dims [-2, -4] do not hold 2x4 devices
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<32xf32> {
    %r = hlo.all_gather(%x) dim = 0 replica_groups = [2,4]<=[-2,-4] channel_id = 1 use_global_device_ids : (tensor<8xf32>) -> tensor<32xf32>
    func.return %r : tensor<32xf32>
  }
}

// -----

// CHECK: // {{-----}}
// Iota: the transpose must be a permutation of the reshape dims (repeated axis).
// CHECK: iota transpose [0, 0] is not a permutation of the reshape dims
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<32xf32> {
    %r = hlo.all_gather(%x) dim = 0 replica_groups = [2,4]<=[4,2]T(0,0) channel_id = 1 use_global_device_ids : (tensor<8xf32>) -> tensor<32xf32>
    func.return %r : tensor<32xf32>
  }
}

// -----

// CHECK: // {{-----}}
// Iota: the transpose has too many axes.
// CHECK: iota transpose [1, 0, 2] is not a permutation of the reshape dims
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<32xf32> {
    %r = hlo.all_gather(%x) dim = 0 replica_groups = [2,4]<=[4,2]T(1,0,2) channel_id = 1 use_global_device_ids : (tensor<8xf32>) -> tensor<32xf32>
    func.return %r : tensor<32xf32>
  }
}

// -----

// CHECK: // {{-----}}
// Iota: a zero group count.
// CHECK: iota replica groups need a positive group count and size
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.all_gather(%x) dim = 0 replica_groups = [0,4]<=[0] channel_id = 1 use_global_device_ids : (tensor<8xf32>) -> tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// Iota: the head must be [num_groups,group_size].
// CHECK: iota replica groups need [num_groups,group_size]
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.all_gather(%x) dim = 0 replica_groups = [2,2,2]<=[8] channel_id = 1 use_global_device_ids : (tensor<8xf32>) -> tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// Groups and bare integers cannot be mixed.
// CHECK: replica groups mix groups and integers
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.all_gather(%x) dim = 0 replica_groups = [[0], 1] : (tensor<8xf32>) -> tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// channel_id must be positive (zero).
// CHECK-NEXT: channel_id must be positive, got 0
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.all_reduce(%x) replica_groups = [[0, 1]] channel_id = 0 {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// channel_id must be positive (negative, all_to_all).
// CHECK-NEXT: channel_id must be positive, got -3
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.all_to_all(%x) dim = 0 replica_groups = [[0, 1, 2, 3]] channel_id = -3 : (tensor<8xf32>) -> tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// A collective needs an operand.
// CHECK-NEXT: a collective needs at least one operand
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f() -> tensor<8xf32> {
    %r = hlo.collective_broadcast() replica_groups = [[0, 1]] : () -> tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// One operand: the result is the tensor, not a 1-tuple.
// CHECK-NEXT: a single-operand collective returns a tensor, not a tuple
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tuple<tensor<8xf32>> {
    %r = hlo.all_reduce(%x) replica_groups = [[0, 1]] {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<8xf32>) -> tuple<tensor<8xf32>>
    func.return %r : tuple<tensor<8xf32>>
  }
}

// -----

// CHECK: // {{-----}}
// Several operands: the result is a tuple.
// CHECK-NEXT: a collective with 2 operands returns a tuple
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>, %y: tensor<4xf32>) -> tensor<16xf32> {
    %r = hlo.all_gather(%x, %y) dim = 0 replica_groups = [[0, 1]] : (tensor<8xf32>, tensor<4xf32>) -> tensor<16xf32>
    func.return %r : tensor<16xf32>
  }
}

// -----

// CHECK: // {{-----}}
// The tuple has one element per operand.
// CHECK-NEXT: expected 2 results in the tuple, got 3
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>, %y: tensor<4xf32>) {
    %r = hlo.collective_broadcast(%x, %y) replica_groups = [[0, 1]] : (tensor<8xf32>, tensor<4xf32>) -> tuple<tensor<8xf32>, tensor<4xf32>, tensor<4xf32>>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// all_reduce keeps the operand type.
// CHECK-NEXT: result 0 has type tensor<4xf32>, expected tensor<8xf32>
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<4xf32> {
    %r = hlo.all_reduce(%x) replica_groups = [[0, 1]] {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<8xf32>) -> tensor<4xf32>
    func.return %r : tensor<4xf32>
  }
}

// -----

// CHECK: // {{-----}}
// The element type is checked too (tuple form).
// CHECK-NEXT: result 1 has type tensor<4xf16>, expected tensor<4xf32>
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>, %y: tensor<4xf32>) {
    %r = hlo.all_reduce(%x, %y) replica_groups = [[0, 1]] {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<8xf32>, tensor<4xf32>) -> tuple<tensor<8xf32>, tensor<4xf16>>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// all_gather: out[dim] = in[dim] * group size (a group of 2 replicas x 4 partitions = 8).
// CHECK-NEXT: result 0 has type tensor<2x8xf32>, expected tensor<2x32xf32>
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<2x4xf32>) -> tensor<2x8xf32> {
    %r = hlo.all_gather(%x) dim = 1 replica_groups = [[0, 1]] channel_id = 1 : (tensor<2x4xf32>) -> tensor<2x8xf32>
    func.return %r : tensor<2x8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// all_gather: only the gather dimension grows.
// CHECK-NEXT: result 0 has type tensor<4x8xf32>, expected tensor<4x4xf32>
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<2x4xf32>) -> tensor<4x8xf32> {
    %r = hlo.all_gather(%x) dim = 0 replica_groups = [] : (tensor<2x4xf32>) -> tensor<4x8xf32>
    func.return %r : tensor<4x8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// all_gather: tuple form, second element wrong.
// CHECK-NEXT: result 1 has type tensor<3xi32>, expected tensor<6xi32>
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<2x4xf32>, %y: tensor<3xi32>) {
    %r = hlo.all_gather(%x, %y) dim = 0 replica_groups = [[0, 1]] : (tensor<2x4xf32>, tensor<3xi32>) -> tuple<tensor<4x4xf32>, tensor<3xi32>>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// all_gather: dimension out of range.
// CHECK-NEXT: all_gather_dimension 2 is out of range for rank 2
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
    %r = hlo.all_gather(%x) dim = 2 replica_groups = [[0, 1]] : (tensor<2x4xf32>) -> tensor<2x4xf32>
    func.return %r : tensor<2x4xf32>
  }
}

// -----

// CHECK: // {{-----}}
// all_gather: negative dimension.
// CHECK-NEXT: all_gather_dimension -1 is out of range for rank 2
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
    %r = hlo.all_gather(%x) dim = -1 replica_groups = [[0, 1]] : (tensor<2x4xf32>) -> tensor<2x4xf32>
    func.return %r : tensor<2x4xf32>
  }
}

// -----

// CHECK: // {{-----}}
// all_gather: a scalar has no dimension to gather along.
// CHECK-NEXT: all_gather_dimension 0 is out of range for rank 0
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<f32>) -> tensor<f32> {
    %r = hlo.all_gather(%x) dim = 0 replica_groups = [[0, 1]] : (tensor<f32>) -> tensor<f32>
    func.return %r : tensor<f32>
  }
}

// -----

// CHECK: // {{-----}}
// reduce_scatter: the scatter dimension must divide by the group size.
// CHECK-NEXT: operand dimension 0 of size 6 is not divisible by the group size 4
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<6x2xf32>) -> tensor<2x2xf32> {
    %r = hlo.reduce_scatter(%x) dim = 0 replica_groups = [[0, 1, 2, 3], [4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<6x2xf32>) -> tensor<2x2xf32>
    func.return %r : tensor<2x2xf32>
  }
}

// -----

// CHECK: // {{-----}}
// reduce_scatter: out[dim] = in[dim] / group size.
// CHECK-NEXT: result 0 has type tensor<8x2xf32>, expected tensor<4x2xf32>
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8x2xf32>) -> tensor<8x2xf32> {
    %r = hlo.reduce_scatter(%x) dim = 0 replica_groups = [[0, 1]] {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<8x2xf32>) -> tensor<8x2xf32>
    func.return %r : tensor<8x2xf32>
  }
}

// -----

// CHECK: // {{-----}}
// reduce_scatter: dimension out of range.
// CHECK-NEXT: scatter_dimension 1 is out of range for rank 1
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<4xf32> {
    %r = hlo.reduce_scatter(%x) dim = 1 replica_groups = [[0, 1]] {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<8xf32>) -> tensor<4xf32>
    func.return %r : tensor<4xf32>
  }
}

// -----

// CHECK: // {{-----}}
// all_to_all: the array form takes one operand.
// CHECK-NEXT: array-form all_to_all takes exactly one operand, got 2
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>, %y: tensor<8xf32>) {
    %r = hlo.all_to_all(%x, %y) dim = 0 replica_groups = [[0, 1]] : (tensor<8xf32>, tensor<8xf32>) -> tuple<tensor<8xf32>, tensor<8xf32>>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// all_to_all: the split dimension must divide by the group size (4 partitions).
// CHECK-NEXT: operand dimension 1 of size 6 is not divisible by the group size 4
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8x6xf32>) -> tensor<8x6xf32> {
    %r = hlo.all_to_all(%x) dim = 1 replica_groups = [] channel_id = 1 : (tensor<8x6xf32>) -> tensor<8x6xf32>
    func.return %r : tensor<8x6xf32>
  }
}

// -----

// CHECK: // {{-----}}
// all_to_all: split dimension out of range.
// CHECK-NEXT: split_dimension 1 is out of range for rank 1
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.all_to_all(%x) dim = 1 replica_groups = [[0, 1]] : (tensor<8xf32>) -> tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// all_to_all: the array form keeps the operand shape.
// CHECK-NEXT: result 0 has type tensor<4xf32>, expected tensor<8xf32>
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<4xf32> {
    %r = hlo.all_to_all(%x) dim = 0 replica_groups = [[0, 1]] : (tensor<8xf32>) -> tensor<4xf32>
    func.return %r : tensor<4xf32>
  }
}

// -----

// CHECK: // {{-----}}
// all_to_all: the tuple form takes one operand per group member.
// CHECK-NEXT: tuple-form all_to_all needs one operand per group member (4), got 2
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>, %y: tensor<8xf32>) {
    %r = hlo.all_to_all(%x, %y) replica_groups = [[0, 1, 2, 3]] channel_id = 1 : (tensor<8xf32>, tensor<8xf32>) -> tuple<tensor<8xf32>, tensor<8xf32>>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// all_to_all: the tuple form with a single operand needs groups of one.
// CHECK-NEXT: tuple-form all_to_all needs one operand per group member (2), got 1
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.all_to_all(%x) replica_groups = [] : (tensor<8xf32>) -> tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// all_to_all: the tuple form's operands share one type.
// CHECK-NEXT: tuple-form all_to_all operands must all have the same type
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>, %y: tensor<4xf32>) {
    %r = hlo.all_to_all(%x, %y) replica_groups = [[0, 1]] : (tensor<8xf32>, tensor<4xf32>) -> tuple<tensor<8xf32>, tensor<4xf32>>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Reducer: one argument.
// CHECK-NEXT: all_reduce region must take two scalar arguments, got 1
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.all_reduce(%x) replica_groups = [[0, 1]] {
    ^bb0(%a: tensor<f32>):
      hlo.return %a : tensor<f32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// Reducer: arguments of different types.
// CHECK-NEXT: all_reduce region arguments must be two scalars of one type, got tensor<f32>, tensor<i32>
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.all_reduce(%x) replica_groups = [[0, 1]] {
    ^bb0(%a: tensor<f32>, %b: tensor<i32>):
      hlo.return %a : tensor<f32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// Reducer: non-scalar arguments.
// CHECK-NEXT: all_reduce region arguments must be two scalars of one type, got tensor<8xf32>, tensor<8xf32>
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.all_reduce(%x) replica_groups = [[0, 1]] {
    ^bb0(%a: tensor<8xf32>, %b: tensor<8xf32>):
      %c = hlo.add %a, %b : tensor<8xf32>
      hlo.return %c : tensor<8xf32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// Reducer: element type differs from the operands'.
// CHECK-NEXT: all_reduce region reduces s32, but the operands are f32
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.all_reduce(%x) replica_groups = [[0, 1]] {
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %c = hlo.add %a, %b : tensor<i32>
      hlo.return %c : tensor<i32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// Reducer: element type differs (reduce_scatter, bf16 operand).
// CHECK-NEXT: reduce_scatter region reduces f32, but the operands are bf16
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xbf16>) -> tensor<4xbf16> {
    %r = hlo.reduce_scatter(%x) dim = 0 replica_groups = [[0, 1]] {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<8xbf16>) -> tensor<4xbf16>
    func.return %r : tensor<4xbf16>
  }
}

// -----

// CHECK: // {{-----}}
// Reducer: returns the wrong type.
// CHECK-NEXT: all_reduce region must return one tensor<f32>, got (tensor<i32>)
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>, %i: tensor<i32>) -> tensor<8xf32> {
    %r = hlo.all_reduce(%x) replica_groups = [[0, 1]] {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      hlo.return %i : tensor<i32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// Reducer: returns two values.
// CHECK-NEXT: reduce_scatter region must return one tensor<f32>, got (tensor<f32>, tensor<f32>)
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<4xf32> {
    %r = hlo.reduce_scatter(%x) dim = 0 replica_groups = [[0, 1]] {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      hlo.return %a, %b : tensor<f32>, tensor<f32>
    } : (tensor<8xf32>) -> tensor<4xf32>
    func.return %r : tensor<4xf32>
  }
}

// -----

// CHECK: // {{-----}}
// Reducer: must end in hlo.return, not another terminator (generic form).
// CHECK-NEXT: all_reduce region must end in hlo.return
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  "func.func"() <{sym_name = "f", function_type = (tensor<8xf32>) -> tensor<8xf32>}> ({
  ^bb0(%x: tensor<8xf32>):
    %r = "hlo.all_reduce"(%x) <{replica_groups = #hlo.replica_groups<[[0, 1]]>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = "hlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "test.termop"(%c) : (tensor<f32>) -> ()
    }) : (tensor<8xf32>) -> tensor<8xf32>
    "func.return"(%r) : (tensor<8xf32>) -> ()
  }) : () -> ()
}

// -----

// CHECK: // {{-----}}
// Reducer: a region without hlo.return and without terminator is rejected by xDSL's single-block check (generic form).
// CHECK-NEXT: Operation hlo.add terminates block in single-block region but is not a terminator
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  "func.func"() <{sym_name = "f", function_type = (tensor<8xf32>) -> tensor<8xf32>}> ({
  ^bb0(%x: tensor<8xf32>):
    %r = "hlo.all_reduce"(%x) <{replica_groups = #hlo.replica_groups<[[0, 1]]>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = "hlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    }) : (tensor<8xf32>) -> tensor<8xf32>
    "func.return"(%r) : (tensor<8xf32>) -> ()
  }) : () -> ()
}

// -----

// CHECK: // {{-----}}
// Reducer: the region needs a block.
// CHECK-NEXT: Region 'to_apply' at position 0 expected a single block, but got 0 blocks
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.all_reduce(%x) replica_groups = [[0, 1]] {
    } : (tensor<8xf32>) -> tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// collective_permute: duplicate source.
// CHECK-NEXT: source id 0 appears in more than one pair
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.collective_permute %x pairs = [[0, 1], [0, 0]] : tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// collective_permute: duplicate target.
// CHECK-NEXT: target id 3 appears in more than one pair
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.collective_permute %x pairs = [[0, 3], [1, 3]] channel_id = 1 : tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// collective_permute: replica ids without a channel_id.
// CHECK-NEXT: target id 2 is outside [0, 2) (cross_replica mode, 2 replicas x 4 partitions)
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.collective_permute %x pairs = [[0, 1], [1, 2]] : tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// collective_permute: partition ids with a channel_id.
// CHECK-NEXT: source id 4 is outside [0, 4) (cross_partition mode, 2 replicas x 4 partitions)
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.collective_permute %x pairs = [[4, 0]] channel_id = 1 : tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// collective_permute: result type equals operand type (generic form).
// CHECK-NEXT: result 'result' at position 0 does not verify:
// CHECK-NEXT: attribute tensor<8xf32> expected from variable 'T', but got tensor<4xf32>
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>) {
    %r = "hlo.collective_permute"(%x) <{source_target_pairs = #hlo.pairs<[[0, 1]]>}> : (tensor<8xf32>) -> tensor<4xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// A source-target pair has exactly two ids (parse error).
// CHECK: a source-target pair has exactly two ids
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.collective_permute %x pairs = [[0, 1], [1, 0, 1]] : tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// send: the result is (data, u32[], token).
// CHECK-NEXT: send result must have type tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>, got tuple<tensor<4xf32>, tensor<ui32>>
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<4xf32>, %t: !hlo.token) {
    %s = hlo.send %x, %t channel_id = 1 : tensor<4xf32> -> tuple<tensor<4xf32>, tensor<ui32>>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// send: the data slot holds the operand type.
// CHECK-NEXT: send result must have type tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>, got tuple<tensor<8xf32>, tensor<ui32>, !hlo.token>
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<4xf32>, %t: !hlo.token) {
    %s = hlo.send %x, %t channel_id = 1 : tensor<4xf32> -> tuple<tensor<8xf32>, tensor<ui32>, !hlo.token>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// send: channel_id must be positive.
// CHECK-NEXT: channel_id must be positive, got 0
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<4xf32>, %t: !hlo.token) {
    %s = hlo.send %x, %t channel_id = 0 : tensor<4xf32> -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// send_done: the operand is a send result.
// CHECK-NEXT: send_done operand must be a send result, got tuple<tensor<4xf32>, tensor<i32>, !hlo.token>
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%s: tuple<tensor<4xf32>, tensor<i32>, !hlo.token>) {
    %d = hlo.send_done %s channel_id = 1 : tuple<tensor<4xf32>, tensor<i32>, !hlo.token>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// send_done: a two-element tuple is not a send result.
// CHECK-NEXT: send_done operand must be a send result, got tuple<tensor<4xf32>, !hlo.token>
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%s: tuple<tensor<4xf32>, !hlo.token>) {
    %d = hlo.send_done %s channel_id = 1 : tuple<tensor<4xf32>, !hlo.token>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// recv: the result is (data, u32[], token).
// CHECK-NEXT: recv result must be (data, u32[], token), got tuple<tensor<4xf32>, !hlo.token>
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%t: !hlo.token) {
    %r = hlo.recv %t channel_id = 1 : tuple<tensor<4xf32>, !hlo.token>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// recv: the middle element is u32[].
// CHECK-NEXT: recv result must have type tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>, got tuple<tensor<4xf32>, tensor<si32>, !hlo.token>
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%t: !hlo.token) {
    %r = hlo.recv %t channel_id = 1 : tuple<tensor<4xf32>, tensor<si32>, !hlo.token>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// recv: the first element must be a tensor.
// CHECK-NEXT: recv result must be (data, u32[], token), got tuple<!hlo.token, tensor<ui32>, !hlo.token>
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%t: !hlo.token) {
    %r = hlo.recv %t channel_id = 1 : tuple<!hlo.token, tensor<ui32>, !hlo.token>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// recv_done: the result is (data, token).
// CHECK-NEXT: recv_done result must have type tuple<tensor<4xf32>, !hlo.token>, got tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%r: tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>) {
    %d = hlo.recv_done %r channel_id = 1 : tuple<tensor<4xf32>, tensor<ui32>, !hlo.token> -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// recv_done: the data type carries over.
// CHECK-NEXT: recv_done result must have type tuple<tensor<4xf32>, !hlo.token>, got tuple<tensor<4xi32>, !hlo.token>
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%r: tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>) {
    %d = hlo.recv_done %r channel_id = 1 : tuple<tensor<4xf32>, tensor<ui32>, !hlo.token> -> tuple<tensor<4xi32>, !hlo.token>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// recv_done: the operand is a recv result.
// CHECK-NEXT: recv_done operand must be a recv result, got tuple<tensor<4xf32>, !hlo.token>
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%r: tuple<tensor<4xf32>, !hlo.token>) {
    %d = hlo.recv_done %r channel_id = 1 : tuple<tensor<4xf32>, !hlo.token> -> tuple<tensor<4xf32>, !hlo.token>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// recv_done: the operand's middle element is u32[].
// CHECK-NEXT: recv_done operand must have type tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>, got tuple<tensor<4xf32>, tensor<f32>, !hlo.token>
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f(%r: tuple<tensor<4xf32>, tensor<f32>, !hlo.token>) {
    %d = hlo.recv_done %r channel_id = 1 : tuple<tensor<4xf32>, tensor<f32>, !hlo.token> -> tuple<tensor<4xf32>, !hlo.token>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// partition_id returns tensor<ui32>.
// CHECK-NEXT: Expected attribute tensor<ui32> but got tensor<i32>
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f() {
    %p = hlo.partition_id : tensor<i32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// replica_id returns tensor<ui32>.
// CHECK-NEXT: Expected attribute tensor<ui32> but got tensor<2xui32>
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @f() {
    %p = hlo.replica_id : tensor<2xui32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Device counts: hlo.num_replicas must be positive (no division by zero in the group checks).
// CHECK-NEXT: hlo.num_replicas and hlo.num_partitions must be positive, got 0 and 1
builtin.module attributes {hlo.num_replicas = 0 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.all_to_all(%x) dim = 0 replica_groups = [] : (tensor<8xf32>) -> tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// Device counts: hlo.num_partitions must be positive for collective_permute too.
// CHECK-NEXT: hlo.num_replicas and hlo.num_partitions must be positive, got 1 and -2
builtin.module attributes {hlo.num_partitions = -2 : i64} {
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.collective_permute %x pairs = [[0, 0]] channel_id = 1 : tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}

// -----

// ===== control-flow ==========================================================

// tuple: the result type lists the operand types (generic form).
// CHECK: tuple result type tuple<tensor<4xf32>, tensor<i32>> does not match the operand types
func.func @f(%a: tensor<4xf32>, %b: tensor<i64>) {
  %t = "hlo.tuple"(%a, %b) : (tensor<4xf32>, tensor<i64>) -> tuple<tensor<4xf32>, tensor<i32>>
  func.return
}

// -----

// CHECK: // {{-----}}
// tuple: the element count must match too (generic form).
// CHECK-NEXT: tuple result type tuple<tensor<4xf32>> does not match the operand types
func.func @f(%a: tensor<4xf32>) {
  %t = "hlo.tuple"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>>
  func.return
}

// -----

// CHECK: // {{-----}}
// tuple: the pretty form's type has one element per operand (parse error).
// CHECK: tuple type has 2 elements but 1 operands were given
func.func @f(%a: tensor<4xf32>) {
  %t = hlo.tuple %a : tuple<tensor<4xf32>, tensor<4xf32>>
  func.return
}

// -----

// CHECK: // {{-----}}
// tuple: the pretty form's type must be a tuple (parse error).
// CHECK: expected a tuple type, got tensor<4xf32>
func.func @f(%a: tensor<4xf32>) {
  %t = hlo.tuple %a : tensor<4xf32>
  func.return
}

// -----

// CHECK: // {{-----}}
// get_tuple_element: index out of range (parse error in the pretty form).
// CHECK: tuple index 2 is out of range for a tuple of 2 elements
func.func @f(%t: tuple<tensor<4xf32>, tensor<i32>>) {
  %e = hlo.get_tuple_element %t[2] : tuple<tensor<4xf32>, tensor<i32>>
  func.return
}

// -----

// CHECK: // {{-----}}
// get_tuple_element: index out of range (generic form).
// CHECK-NEXT: tuple index 2 is out of range for a tuple of 2 elements
func.func @f(%t: tuple<tensor<4xf32>, tensor<i32>>) {
  %e = "hlo.get_tuple_element"(%t) <{index = 2 : i64}> : (tuple<tensor<4xf32>, tensor<i32>>) -> tensor<i32>
  func.return
}

// -----

// CHECK: // {{-----}}
// get_tuple_element: negative index (generic form).
// CHECK-NEXT: tuple index -1 is out of range for a tuple of 2 elements
func.func @f(%t: tuple<tensor<4xf32>, tensor<i32>>) {
  %e = "hlo.get_tuple_element"(%t) <{index = -1 : i64}> : (tuple<tensor<4xf32>, tensor<i32>>) -> tensor<i32>
  func.return
}

// -----

// CHECK: // {{-----}}
// get_tuple_element: an empty tuple has no element.
// CHECK: tuple index 0 is out of range for a tuple of 0 elements
func.func @f(%t: tuple<>) {
  %e = hlo.get_tuple_element %t[0] : tuple<>
  func.return
}

// -----

// CHECK: // {{-----}}
// get_tuple_element: the result type is the element type (generic form).
// CHECK-NEXT: result type tensor<4xf32> does not match tuple element 1 of type tensor<i32>
func.func @f(%t: tuple<tensor<4xf32>, tensor<i32>>) {
  %e = "hlo.get_tuple_element"(%t) <{index = 1 : i64}> : (tuple<tensor<4xf32>, tensor<i32>>) -> tensor<4xf32>
  func.return
}

// -----

// CHECK: // {{-----}}
// get_tuple_element: the operand must be a tuple (parse error).
// CHECK: expected a tuple type, got tensor<4xf32>
func.func @f(%t: tensor<4xf32>) {
  %e = hlo.get_tuple_element %t[0] : tensor<4xf32>
  func.return
}

// -----

// CHECK: // {{-----}}
// while: the condition takes the carried value.
// CHECK-NEXT: while condition must take one argument of type tuple<tensor<i32>, tensor<4xf32>>, got (tensor<i32>)
func.func @f(%init: tuple<tensor<i32>, tensor<4xf32>>) {
  %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>> condition {
  ^bb0(%c: tensor<i32>):
    %p = hlo.custom_call "less_than_ten"(%c) : (tensor<i32>) -> tensor<i1>
    hlo.return %p : tensor<i1>
  } body {
  ^bb0(%b: tuple<tensor<i32>, tensor<4xf32>>):
    hlo.return %b : tuple<tensor<i32>, tensor<4xf32>>
  }
  func.return
}

// -----

// CHECK: // {{-----}}
// while: the condition takes exactly one argument.
// CHECK-NEXT: while condition must take one argument of type tensor<i32>, got (tensor<i32>, tensor<i32>)
func.func @f(%init: tensor<i32>) {
  %w = hlo.while(%init) : tensor<i32> condition {
  ^bb0(%c: tensor<i32>, %d: tensor<i32>):
    %p = hlo.custom_call "less_than"(%c, %d) : (tensor<i32>, tensor<i32>) -> tensor<i1>
    hlo.return %p : tensor<i1>
  } body {
  ^bb0(%b: tensor<i32>):
    hlo.return %b : tensor<i32>
  }
  func.return
}

// -----

// CHECK: // {{-----}}
// while: the condition returns a pred scalar, not an integer.
// CHECK-NEXT: while condition must return tensor<i1>, got (tensor<i32>)
func.func @f(%init: tensor<i32>) {
  %w = hlo.while(%init) : tensor<i32> condition {
  ^bb0(%c: tensor<i32>):
    hlo.return %c : tensor<i32>
  } body {
  ^bb0(%b: tensor<i32>):
    hlo.return %b : tensor<i32>
  }
  func.return
}

// -----

// CHECK: // {{-----}}
// while: the condition returns a pred scalar, not a pred vector.
// CHECK-NEXT: while condition must return tensor<i1>, got (tensor<2xi1>)
func.func @f(%init: tensor<i32>) {
  %w = hlo.while(%init) : tensor<i32> condition {
  ^bb0(%c: tensor<i32>):
    %p = hlo.custom_call "two_preds"(%c) : (tensor<i32>) -> tensor<2xi1>
    hlo.return %p : tensor<2xi1>
  } body {
  ^bb0(%b: tensor<i32>):
    hlo.return %b : tensor<i32>
  }
  func.return
}

// -----

// CHECK: // {{-----}}
// while: the condition returns one value.
// CHECK-NEXT: while condition must return tensor<i1>, got (tensor<i1>, tensor<i1>)
func.func @f(%init: tensor<i32>) {
  %w = hlo.while(%init) : tensor<i32> condition {
  ^bb0(%c: tensor<i32>):
    %p = hlo.custom_call "pred"(%c) : (tensor<i32>) -> tensor<i1>
    hlo.return %p, %p : tensor<i1>, tensor<i1>
  } body {
  ^bb0(%b: tensor<i32>):
    hlo.return %b : tensor<i32>
  }
  func.return
}

// -----

// CHECK: // {{-----}}
// while: the body takes the carried value.
// CHECK-NEXT: while body must take one argument of type tensor<i32>, got (tensor<f32>)
func.func @f(%init: tensor<i32>) {
  %w = hlo.while(%init) : tensor<i32> condition {
  ^bb0(%c: tensor<i32>):
    %p = hlo.custom_call "pred"(%c) : (tensor<i32>) -> tensor<i1>
    hlo.return %p : tensor<i1>
  } body {
  ^bb0(%b: tensor<f32>):
    %n = hlo.custom_call "next"(%b) : (tensor<f32>) -> tensor<i32>
    hlo.return %n : tensor<i32>
  }
  func.return
}

// -----

// CHECK: // {{-----}}
// while: the body returns the carried value's type.
// CHECK-NEXT: while body must return tuple<tensor<i32>, tensor<4xf32>>, got (tuple<tensor<i32>, tensor<4xf16>>)
func.func @f(%init: tuple<tensor<i32>, tensor<4xf32>>) {
  %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>> condition {
  ^bb0(%c: tuple<tensor<i32>, tensor<4xf32>>):
    %p = hlo.custom_call "pred"(%c) : (tuple<tensor<i32>, tensor<4xf32>>) -> tensor<i1>
    hlo.return %p : tensor<i1>
  } body {
  ^bb0(%b: tuple<tensor<i32>, tensor<4xf32>>):
    %n = hlo.custom_call "step"(%b) : (tuple<tensor<i32>, tensor<4xf32>>) -> tuple<tensor<i32>, tensor<4xf16>>
    hlo.return %n : tuple<tensor<i32>, tensor<4xf16>>
  }
  func.return
}

// -----

// CHECK: // {{-----}}
// while: the body ends in hlo.return (generic form, another terminator).
// CHECK-NEXT: while body region must end in hlo.return
func.func @f(%init: tensor<i32>) {
  %w = "hlo.while"(%init) ({
  ^bb0(%c: tensor<i32>):
    %p = "hlo.custom_call"(%c) <{call_target_name = "pred"}> : (tensor<i32>) -> tensor<i1>
    "hlo.return"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%b: tensor<i32>):
    "test.termop"(%b) : (tensor<i32>) -> ()
  }) : (tensor<i32>) -> tensor<i32>
  func.return
}

// -----

// CHECK: // {{-----}}
// while: the result has the init type (generic form).
// CHECK-NEXT: result 'result' at position 0 does not verify:
// CHECK-NEXT: attribute tensor<i32> expected from variable 'T', but got tensor<i64>
func.func @f(%init: tensor<i32>) {
  %w = "hlo.while"(%init) ({
  ^bb0(%c: tensor<i32>):
    %p = "hlo.custom_call"(%c) <{call_target_name = "pred"}> : (tensor<i32>) -> tensor<i1>
    "hlo.return"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%b: tensor<i32>):
    "hlo.return"(%b) : (tensor<i32>) -> ()
  }) : (tensor<i32>) -> tensor<i64>
  func.return
}

// -----

// CHECK: // {{-----}}
// conditional: one branch operand per branch.
// CHECK-NEXT: conditional has 3 branches but 2 branch operands
func.func @f(%i: tensor<i32>, %a: tensor<4xf32>) -> tensor<4xf32> {
  %r = hlo.conditional(%i) (%a, %a) : (tensor<i32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    hlo.return %x : tensor<4xf32>
  }, {
  ^bb0(%y: tensor<4xf32>):
    hlo.return %y : tensor<4xf32>
  }, {
  ^bb0(%z: tensor<4xf32>):
    hlo.return %z : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}

// -----

// CHECK: // {{-----}}
// conditional: a pred index selects between exactly two branches.
// CHECK-NEXT: a predicated conditional needs exactly 2 branches, got 3
func.func @f(%p: tensor<i1>, %a: tensor<4xf32>) -> tensor<4xf32> {
  %r = hlo.conditional(%p) (%a, %a, %a) : (tensor<i1>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    hlo.return %x : tensor<4xf32>
  }, {
  ^bb0(%y: tensor<4xf32>):
    hlo.return %y : tensor<4xf32>
  }, {
  ^bb0(%z: tensor<4xf32>):
    hlo.return %z : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}

// -----

// CHECK: // {{-----}}
// conditional: a pred index with a single branch.
// CHECK-NEXT: a predicated conditional needs exactly 2 branches, got 1
func.func @f(%p: tensor<i1>, %a: tensor<4xf32>) -> tensor<4xf32> {
  %r = hlo.conditional(%p) (%a) : (tensor<i1>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    hlo.return %x : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}

// -----

// CHECK: // {{-----}}
// conditional: the index is s32 or pred, not f32.
// CHECK-NEXT: conditional index must be tensor<i1> or tensor<i32>, got tensor<f32>
func.func @f(%i: tensor<f32>, %a: tensor<4xf32>) -> tensor<4xf32> {
  %r = hlo.conditional(%i) (%a) : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    hlo.return %x : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}

// -----

// CHECK: // {{-----}}
// conditional: the index is s32, not u32.
// CHECK-NEXT: conditional index must be tensor<i1> or tensor<i32>, got tensor<ui32>
func.func @f(%i: tensor<ui32>, %a: tensor<4xf32>) -> tensor<4xf32> {
  %r = hlo.conditional(%i) (%a) : (tensor<ui32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    hlo.return %x : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}

// -----

// CHECK: // {{-----}}
// conditional: the index is a scalar.
// CHECK-NEXT: conditional index must be a scalar, got tensor<2xi32>
func.func @f(%i: tensor<2xi32>, %a: tensor<4xf32>) -> tensor<4xf32> {
  %r = hlo.conditional(%i) (%a) : (tensor<2xi32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    hlo.return %x : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}

// -----

// CHECK: // {{-----}}
// conditional: at least one branch.
// CHECK-NEXT: conditional needs at least one branch
func.func @f(%i: tensor<i32>) -> tensor<4xf32> {
  %r = hlo.conditional(%i) () : (tensor<i32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// CHECK: // {{-----}}
// conditional: branch k takes branch operand k.
// CHECK-NEXT: conditional branch 1 must take tensor<i32>, got (tensor<f32>)
func.func @f(%i: tensor<i32>, %a: tensor<4xf32>, %b: tensor<i32>) -> tensor<4xf32> {
  %r = hlo.conditional(%i) (%a, %b) : (tensor<i32>, tensor<4xf32>, tensor<i32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    hlo.return %x : tensor<4xf32>
  }, {
  ^bb0(%y: tensor<f32>):
    %z = hlo.custom_call "splat"(%y) : (tensor<f32>) -> tensor<4xf32>
    hlo.return %z : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}

// -----

// CHECK: // {{-----}}
// conditional: every branch returns the result type.
// CHECK-NEXT: conditional branch 0 must return tensor<4xf32>, got (tensor<i32>)
func.func @f(%p: tensor<i1>, %a: tensor<4xf32>, %b: tensor<i32>) -> tensor<4xf32> {
  %r = hlo.conditional(%p) (%b, %a) : (tensor<i1>, tensor<i32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<i32>):
    hlo.return %x : tensor<i32>
  }, {
  ^bb0(%y: tensor<4xf32>):
    hlo.return %y : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}

// -----

// CHECK: // {{-----}}
// conditional: a branch ends in hlo.return (generic form, another terminator).
// CHECK-NEXT: conditional branch 1 region must end in hlo.return
func.func @f(%p: tensor<i1>, %a: tensor<4xf32>) -> tensor<4xf32> {
  %r = "hlo.conditional"(%p, %a, %a) ({
  ^bb0(%x: tensor<4xf32>):
    "hlo.return"(%x) : (tensor<4xf32>) -> ()
  }, {
  ^bb0(%y: tensor<4xf32>):
    "test.termop"(%y) : (tensor<4xf32>) -> ()
  }) : (tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// CHECK: // {{-----}}
// call: argument types must match the callee.
// CHECK-NEXT: call to 'callee' has type (tensor<4xf32>) -> tensor<4xf32>, but the callee is (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
builtin.module {
  func.func @callee(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
    func.return %a : tensor<4xf32>
  }
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    %r = hlo.call @callee(%x) : (tensor<4xf32>) -> tensor<4xf32>
    func.return %r : tensor<4xf32>
  }
}

// -----

// CHECK: // {{-----}}
// call: the result type must match the callee.
// CHECK-NEXT: call to 'callee' has type (tensor<4xf32>) -> tensor<4xi32>, but the callee is (tensor<4xf32>) -> tensor<4xf32>
builtin.module {
  func.func @callee(%a: tensor<4xf32>) -> tensor<4xf32> {
    func.return %a : tensor<4xf32>
  }
  func.func @f(%x: tensor<4xf32>) -> tensor<4xi32> {
    %r = hlo.call @callee(%x) : (tensor<4xf32>) -> tensor<4xi32>
    func.return %r : tensor<4xi32>
  }
}

// -----

// CHECK: // {{-----}}
// call: a callee with several results does not match a single hlo value.
// CHECK-NEXT: call to 'callee' has type (tensor<4xf32>) -> tensor<4xf32>, but the callee is (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
builtin.module {
  func.func @callee(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    func.return %a, %a : tensor<4xf32>, tensor<4xf32>
  }
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    %r = hlo.call @callee(%x) : (tensor<4xf32>) -> tensor<4xf32>
    func.return %r : tensor<4xf32>
  }
}

// -----

// CHECK: // {{-----}}
// call: the callee must be a func.func.
// CHECK-NEXT: 'other' is not a func.func
builtin.module {
  builtin.module @other {
  }
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    %r = hlo.call @other(%x) : (tensor<4xf32>) -> tensor<4xf32>
    func.return %r : tensor<4xf32>
  }
}

// -----

// CHECK: // {{-----}}
// custom_call: the target name is not empty.
// CHECK-NEXT: custom_call needs a non-empty call target name
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = hlo.custom_call ""(%x) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// CHECK: // {{-----}}
// after_all: operands are tokens (the pretty form types them as tokens: parse error).
// CHECK: operand is used with type !hlo.token, but has been previously used or defined with type tensor<4xf32>
func.func @f(%x: tensor<4xf32>, %t: !hlo.token) {
  %k = hlo.after_all(%t, %x)
  func.return
}

// -----

// CHECK: // {{-----}}
// after_all: operands are tokens (generic form).
// CHECK-NEXT: operand 'tokens' at positions 0 to 1 does not verify:
// CHECK-NEXT: tensor<4xf32> should be of base attribute hlo.token
func.func @f(%x: tensor<4xf32>, %t: !hlo.token) {
  %k = "hlo.after_all"(%t, %x) : (!hlo.token, tensor<4xf32>) -> !hlo.token
  func.return
}

// -----

// CHECK: // {{-----}}
// optimization_barrier: the result has the operand type (generic form).
// CHECK-NEXT: result 'result' at position 0 does not verify:
// CHECK-NEXT: attribute tuple<tensor<4xf32>> expected from variable 'T', but got tensor<4xf32>
func.func @f(%t: tuple<tensor<4xf32>>) {
  %r = "hlo.optimization_barrier"(%t) : (tuple<tensor<4xf32>>) -> tensor<4xf32>
  func.return
}

// -----

// CHECK: // {{-----}}
// return: only hlo values (tensors, tuples, tokens) are returned.
// CHECK-NEXT: expected a ranked tensor, got i32
func.func @f(%init: tensor<i32>, %bad: i32) {
  %w = hlo.while(%init) : tensor<i32> condition {
  ^bb0(%c: tensor<i32>):
    hlo.return %bad : i32
  } body {
  ^bb0(%b: tensor<i32>):
    hlo.return %b : tensor<i32>
  }
  func.return
}

// -----

// ===== elementwise ===========================================================

// Operands of a binary op must have the result's type.
func.func @binary_mismatch(%a: tensor<4xf32>, %b: tensor<4xf64>) {
  %r = "hlo.add"(%a, %b) : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xf32>
  func.return
}

// CHECK: attribute tensor<4xf32> expected from variable 'T', but got tensor<4xf64>

// -----

// The pretty form gives both operands the one printed type.
func.func @binary_mismatch_pretty(%a: tensor<4xf32>, %b: tensor<4xf64>) {
  %r = hlo.add %a, %b : tensor<4xf32>
  func.return
}

// CHECK: operand is used with type tensor<4xf32>, but has been previously used or defined with type tensor<4xf64>

// -----

func.func @unary_result_mismatch(%a: tensor<4xf32>) {
  %r = "hlo.tanh"(%a) : (tensor<4xf32>) -> tensor<8xf32>
  func.return
}

// CHECK: attribute tensor<4xf32> expected from variable 'T', but got tensor<8xf32>

// -----

func.func @float_only_on_int(%a: tensor<4xi32>) {
  %r = hlo.exponential %a : tensor<4xi32>
  func.return
}

// CHECK: exponential expects a floating-point operand, got s32

// -----

func.func @atan2_on_int(%a: tensor<i32>) {
  %r = hlo.atan2 %a, %a : tensor<i32>
  func.return
}

// CHECK: atan2 expects floating-point operands, got s32

// -----

func.func @bitwise_on_float(%a: tensor<4xf32>) {
  %r = hlo.and %a, %a : tensor<4xf32>
  func.return
}

// CHECK: and expects pred or integer operands, got f32

// -----

func.func @not_on_float(%a: tensor<4xbf16>) {
  %r = hlo.not %a : tensor<4xbf16>
  func.return
}

// CHECK: not expects a pred or integer operand, got bf16

// -----

func.func @shift_on_pred(%a: tensor<4xi1>) {
  %r = hlo.shift_left %a, %a : tensor<4xi1>
  func.return
}

// CHECK: shift_left expects integer operands, got pred

// -----

func.func @popcnt_on_float(%a: tensor<4xf32>) {
  %r = hlo.popcnt %a : tensor<4xf32>
  func.return
}

// CHECK: popcnt expects an integer operand, got f32

// -----

func.func @abs_on_unsigned(%a: tensor<4xui32>) {
  %r = hlo.abs %a : tensor<4xui32>
  func.return
}

// CHECK: abs expects a floating-point or signed integer operand, got u32

// -----

func.func @negate_on_pred(%a: tensor<4xi1>) {
  %r = hlo.negate %a : tensor<4xi1>
  func.return
}

// CHECK: negate expects an integer or floating-point operand, got pred

// -----

func.func @subtract_on_pred(%a: tensor<4xi1>) {
  %r = hlo.subtract %a, %a : tensor<4xi1>
  func.return
}

// CHECK: subtract expects integer or floating-point operands, got pred

// -----

func.func @non_xla_element_type(%a: tensor<4xi7>) {
  %r = hlo.negate %a : tensor<4xi7>
  func.return
}

// CHECK: unsupported element type i7 in tensor<4xi7>

// -----

func.func @index_element_type(%a: tensor<4xindex>) {
  %r = "hlo.negate"(%a) : (tensor<4xindex>) -> tensor<4xindex>
  func.return
}

// CHECK: unsupported element type index in tensor<4xindex>

// -----

func.func @dynamic_shape(%a: tensor<?xf32>) {
  %r = hlo.negate %a : tensor<?xf32>
  func.return
}

// CHECK: expected a statically shaped tensor, got tensor<?xf32>

// -----

func.func @constant_bad_element_type() {
  %c = hlo.constant dense<1> : tensor<4xi7>
  func.return
}

// CHECK: unsupported element type i7 in tensor<4xi7>

// -----

func.func @constant_result_mismatch() {
  %c = "hlo.constant"() <{value = dense<1.0> : tensor<4xf32>}> : () -> tensor<4xf64>
  func.return
}

// CHECK: attribute tensor<4xf64> expected from variable 'T', but got tensor<4xf32>

// -----

func.func @iota_scalar() {
  %i = hlo.iota dim = 0 : tensor<i32>
  func.return
}

// CHECK: iota does not support scalars

// -----

func.func @iota_dim_out_of_range() {
  %i = hlo.iota dim = 2 : tensor<2x8xi32>
  func.return
}

// CHECK: iota_dimension 2 is out of range for rank 2

// -----

func.func @iota_pred() {
  %i = hlo.iota dim = 0 : tensor<4xi1>
  func.return
}

// CHECK: iota expects an integer or floating-point result, got pred

// -----

func.func @reduce_precision_exponent(%a: tensor<4xf32>) {
  %r = hlo.reduce_precision %a exponent_bits = 0 mantissa_bits = 7 : tensor<4xf32>
  func.return
}

// CHECK: reduce_precision needs exponent_bits >= 1, got 0

// -----

func.func @reduce_precision_mantissa(%a: tensor<4xf32>) {
  %r = hlo.reduce_precision %a exponent_bits = 8 mantissa_bits = -1 : tensor<4xf32>
  func.return
}

// CHECK: reduce_precision needs mantissa_bits >= 0, got -1

// -----

func.func @reduce_precision_on_int(%a: tensor<4xi32>) {
  %r = hlo.reduce_precision %a exponent_bits = 8 mantissa_bits = 7 : tensor<4xi32>
  func.return
}

// CHECK: reduce_precision expects a floating-point operand, got s32

// -----

func.func @is_finite_on_int(%a: tensor<4xi32>) {
  %r = hlo.is_finite %a : tensor<4xi32> -> tensor<4xi1>
  func.return
}

// CHECK: is_finite expects a floating-point operand, got s32

// -----

func.func @is_finite_result(%a: tensor<4xf32>) {
  %r = hlo.is_finite %a : tensor<4xf32> -> tensor<4xf32>
  func.return
}

// CHECK: is_finite result must be a pred tensor of shape [4], got tensor<4xf32>

// -----

func.func @compare_result_shape(%a: tensor<4xf32>) {
  %r = hlo.compare LT, %a, %a : tensor<4xf32> -> tensor<2xi1>
  func.return
}

// CHECK: compare result must be a pred tensor of shape [4], got tensor<2xi1>

// -----

func.func @compare_operand_mismatch(%a: tensor<4xf32>, %b: tensor<4xi32>) {
  %r = "hlo.compare"(%a, %b) <{direction = #hlo<comparison_direction LT>}> : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xi1>
  func.return
}

// CHECK: attribute tensor<4xf32> expected from variable 'T', but got tensor<4xi32>

// -----

func.func @compare_signed_on_float(%a: tensor<4xf32>) {
  %r = hlo.compare LT, %a, %a type = SIGNED : tensor<4xf32> -> tensor<4xi1>
  func.return
}

// CHECK: compare type SIGNED expects signed integer operands, got f32

// -----

func.func @compare_signed_on_unsigned(%a: tensor<ui32>) {
  %r = hlo.compare LT, %a, %a type = SIGNED : tensor<ui32> -> tensor<i1>
  func.return
}

// CHECK: compare type SIGNED expects signed integer operands, got u32

// -----

func.func @compare_totalorder_on_int(%a: tensor<i32>) {
  %r = hlo.compare EQ, %a, %a type = TOTALORDER : tensor<i32> -> tensor<i1>
  func.return
}

// CHECK: compare type TOTALORDER expects floating-point operands, got s32

// -----

func.func @compare_float_on_int(%a: tensor<i32>) {
  %r = hlo.compare EQ, %a, %a type = FLOAT : tensor<i32> -> tensor<i1>
  func.return
}

// CHECK: compare type FLOAT expects floating-point operands, got s32

// -----

func.func @compare_unsigned_on_signed(%a: tensor<i32>) {
  %r = hlo.compare GE, %a, %a type = UNSIGNED : tensor<i32> -> tensor<i1>
  func.return
}

// CHECK: compare type UNSIGNED expects unsigned integer or pred operands, got s32

// -----

func.func @select_pred_type(%p: tensor<4xi32>, %a: tensor<4xf32>) {
  %r = hlo.select %p, %a, %a : tensor<4xi32>, tensor<4xf32>
  func.return
}

// CHECK: select predicate must be a pred tensor, got s32

// -----

func.func @select_pred_shape(%p: tensor<2xi1>, %a: tensor<4xf32>) {
  %r = hlo.select %p, %a, %a : tensor<2xi1>, tensor<4xf32>
  func.return
}

// CHECK: select predicate shape [2] must be scalar or match the operand shape [4]

// -----

func.func @select_branch_mismatch(%p: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xi32>) {
  %r = "hlo.select"(%p, %a, %b) : (tensor<4xi1>, tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  func.return
}

// CHECK: attribute tensor<4xf32> expected from variable 'T', but got tensor<4xi32>

// -----

func.func @clamp_shape(%lo: tensor<3xf32>, %a: tensor<4xf32>, %hi: tensor<f32>) {
  %r = hlo.clamp %lo, %a, %hi : tensor<3xf32>, tensor<4xf32>, tensor<f32>
  func.return
}

// CHECK: clamp min shape [3] must be scalar or match the operand shape [4]

// -----

func.func @clamp_max_shape(%lo: tensor<f32>, %a: tensor<4xf32>, %hi: tensor<2x4xf32>) {
  %r = hlo.clamp %lo, %a, %hi : tensor<f32>, tensor<4xf32>, tensor<2x4xf32>
  func.return
}

// CHECK: clamp max shape [2,4] must be scalar or match the operand shape [4]

// -----

func.func @clamp_element_type(%lo: tensor<i32>, %a: tensor<4xf32>) {
  %r = hlo.clamp %lo, %a, %lo : tensor<i32>, tensor<4xf32>, tensor<i32>
  func.return
}

// CHECK: clamp min element type s32 does not match operand element type f32

// -----

func.func @convert_shape(%a: tensor<4xf32>) {
  %r = hlo.convert %a : tensor<4xf32> -> tensor<8xbf16>
  func.return
}

// CHECK: convert result shape [8] does not match operand shape [4]

// -----

func.func @bitcast_convert_same_width(%a: tensor<4xf32>) {
  %r = hlo.bitcast_convert %a : tensor<4xf32> -> tensor<2x2xi32>
  func.return
}

// CHECK: bitcast_convert to s32 expects result shape [4], got [2,2]

// -----

func.func @bitcast_convert_narrower(%a: tensor<4xf32>) {
  %r = hlo.bitcast_convert %a : tensor<4xf32> -> tensor<4xbf16>
  func.return
}

// CHECK: bitcast_convert to bf16 expects result shape [4,2], got [4]

// -----

func.func @bitcast_convert_wider(%a: tensor<2x3xi8>) {
  %r = hlo.bitcast_convert %a : tensor<2x3xi8> -> tensor<2xf32>
  func.return
}

// CHECK: bitcast_convert from s8 to f32 needs a last operand dimension of size 4, got shape [2,3]

// -----

func.func @bitcast_convert_wider_scalar(%a: tensor<i16>) {
  %r = hlo.bitcast_convert %a : tensor<i16> -> tensor<f32>
  func.return
}

// CHECK: bitcast_convert from s16 to f32 needs a last operand dimension of size 2, got shape []

// -----

// ===== data-movement =========================================================

func.func @reshape_element_type(%x: tensor<2x4xf32>) {
  %r = hlo.reshape %x : (tensor<2x4xf32>) -> tensor<8xi32>
  func.return
}
// CHECK: reshape changes the element type from f32 to s32

// -----

func.func @reshape_count(%x: tensor<2x4xf32>) {
  %r = hlo.reshape %x : (tensor<2x4xf32>) -> tensor<6xf32>
  func.return
}
// CHECK: reshape changes the element count from 8 to 6

// -----

func.func @bitcast_element_type(%x: tensor<2x4xf32>) {
  %r = hlo.bitcast %x : (tensor<2x4xf32>) -> tensor<4x2xui32>
  func.return
}
// CHECK: bitcast changes the element type from f32 to u32

// -----

func.func @bitcast_count(%x: tensor<2x4xf32>) {
  %r = hlo.bitcast %x : (tensor<2x4xf32>) -> tensor<3x3xf32>
  func.return
}
// CHECK: bitcast changes the element count from 8 to 9

// -----

func.func @bitcast_layout(%x: tensor<2x4xf32>) {
  %r = hlo.bitcast %x layout = [0, 0] : (tensor<2x4xf32>) -> tensor<4x2xf32>
  func.return
}
// CHECK: bitcast layout [0, 0] is not a permutation of [0, 2)

// -----

func.func @copy_type(%x: tensor<2x4xf32>) {
  %r = "hlo.copy"(%x) : (tensor<2x4xf32>) -> tensor<8xf32>
  func.return
}
// CHECK: attribute tensor<2x4xf32> expected from variable 'T', but got tensor<8xf32>

// -----

func.func @broadcast_element_type(%x: tensor<4xf32>) {
  %r = hlo.broadcast %x, dims = [1] : (tensor<4xf32>) -> tensor<2x4xf16>
  func.return
}
// CHECK: broadcast changes the element type from f32 to f16

// -----

func.func @broadcast_dims_count(%x: tensor<4xf32>) {
  %r = hlo.broadcast %x, dims = [0, 1] : (tensor<4xf32>) -> tensor<2x4xf32>
  func.return
}
// CHECK: broadcast expects 1 dimensions (one per operand dimension), got 2

// -----

func.func @broadcast_dim_range(%x: tensor<4xf32>) {
  %r = hlo.broadcast %x, dims = [2] : (tensor<4xf32>) -> tensor<2x4xf32>
  func.return
}
// CHECK: broadcast dimension 2 is out of range for result rank 2

// -----

func.func @broadcast_dim_negative(%x: tensor<4xf32>) {
  %r = hlo.broadcast %x, dims = [-1] : (tensor<4xf32>) -> tensor<2x4xf32>
  func.return
}
// CHECK: broadcast dimension -1 is out of range for result rank 2

// -----

func.func @broadcast_dim_twice(%x: tensor<4x4xf32>) {
  %r = hlo.broadcast %x, dims = [1, 1] : (tensor<4x4xf32>) -> tensor<2x4xf32>
  func.return
}
// CHECK: broadcast dimension 1 appears twice in [1, 1]

// -----

func.func @broadcast_size(%x: tensor<4xf32>) {
  %r = hlo.broadcast %x, dims = [1] : (tensor<4xf32>) -> tensor<4x3xf32>
  func.return
}
// CHECK: broadcast operand dimension 0 of size 4 does not match result dimension 1 of size 3

// -----

func.func @broadcast_degenerate(%x: tensor<1xf32>) {
  %r = hlo.broadcast %x, dims = [0] : (tensor<1xf32>) -> tensor<4xf32>
  func.return
}
// CHECK: broadcast operand dimension 0 of size 1 does not match result dimension 0 of size 4

// -----

func.func @transpose_permutation(%x: tensor<2x4xf32>) {
  %r = hlo.transpose %x, dims = [0, 0] : (tensor<2x4xf32>) -> tensor<2x2xf32>
  func.return
}
// CHECK: transpose permutation [0, 0] is not a permutation of [0, 2)

// -----

func.func @transpose_permutation_length(%x: tensor<2x4xf32>) {
  %r = hlo.transpose %x, dims = [1, 0, 2] : (tensor<2x4xf32>) -> tensor<4x2xf32>
  func.return
}
// CHECK: transpose permutation [1, 0, 2] is not a permutation of [0, 2)

// -----

func.func @transpose_result(%x: tensor<2x4xf32>) {
  %r = hlo.transpose %x, dims = [1, 0] : (tensor<2x4xf32>) -> tensor<2x4xf32>
  func.return
}
// CHECK: transpose result must be tensor<4x2xf32>, got tensor<2x4xf32>

// -----

func.func @slice_start_count(%x: tensor<8x4xf32>) {
  %r = hlo.slice %x, start = [0], limit = [8, 4], strides = [1, 1] : (tensor<8x4xf32>) -> tensor<8x4xf32>
  func.return
}
// CHECK: slice expects 2 start indices (one per operand dimension), got 1

// -----

func.func @slice_limit_count(%x: tensor<8x4xf32>) {
  %r = hlo.slice %x, start = [0, 0], limit = [8, 4, 1], strides = [1, 1] : (tensor<8x4xf32>) -> tensor<8x4xf32>
  func.return
}
// CHECK: slice expects 2 limit indices (one per operand dimension), got 3

// -----

func.func @slice_stride_count(%x: tensor<8x4xf32>) {
  %r = hlo.slice %x, start = [0, 0], limit = [8, 4], strides = [] : (tensor<8x4xf32>) -> tensor<8x4xf32>
  func.return
}
// CHECK: slice expects 2 strides (one per operand dimension), got 0

// -----

func.func @slice_negative_start(%x: tensor<8x4xf32>) {
  %r = hlo.slice %x, start = [0, -1], limit = [8, 4], strides = [1, 1] : (tensor<8x4xf32>) -> tensor<8x5xf32>
  func.return
}
// CHECK: slice start -1 of dimension 1 is negative

// -----

func.func @slice_limit(%x: tensor<8x4xf32>) {
  %r = hlo.slice %x, start = [0, 0], limit = [9, 4], strides = [1, 1] : (tensor<8x4xf32>) -> tensor<9x4xf32>
  func.return
}
// CHECK: slice limit 9 exceeds dimension 0 of size 8

// -----

func.func @slice_start_after_limit(%x: tensor<8x4xf32>) {
  %r = hlo.slice %x, start = [5, 0], limit = [3, 4], strides = [1, 1] : (tensor<8x4xf32>) -> tensor<0x4xf32>
  func.return
}
// CHECK: slice start 5 exceeds limit 3 in dimension 0

// -----

func.func @slice_stride(%x: tensor<8x4xf32>) {
  %r = hlo.slice %x, start = [0, 0], limit = [8, 4], strides = [1, 0] : (tensor<8x4xf32>) -> tensor<8x4xf32>
  func.return
}
// CHECK: slice stride 0 of dimension 1 must be positive

// -----

func.func @slice_result(%x: tensor<8x4xf32>) {
  %r = hlo.slice %x, start = [1, 0], limit = [8, 4], strides = [2, 1] : (tensor<8x4xf32>) -> tensor<3x4xf32>
  func.return
}
// CHECK: slice result must be tensor<4x4xf32>, got tensor<3x4xf32>

// -----

func.func @dynamic_slice_index_count(%x: tensor<8x4xf32>, %i: tensor<i32>) {
  %r = hlo.dynamic_slice %x at [%i] sizes = [2, 2] : (tensor<8x4xf32>, tensor<i32>) -> tensor<2x2xf32>
  func.return
}
// CHECK: dynamic_slice expects 2 start indices (one per operand dimension), got 1

// -----

func.func @dynamic_slice_index_rank(%x: tensor<8x4xf32>, %i: tensor<2xi32>) {
  %r = hlo.dynamic_slice %x at [%i, %i] sizes = [2, 2] : (tensor<8x4xf32>, tensor<2xi32>, tensor<2xi32>) -> tensor<2x2xf32>
  func.return
}
// CHECK: dynamic_slice index 0 must be a scalar integer tensor, got tensor<2xi32>

// -----

func.func @dynamic_slice_index_type(%x: tensor<8x4xf32>, %i: tensor<i32>, %f: tensor<f32>) {
  %r = hlo.dynamic_slice %x at [%i, %f] sizes = [2, 2] : (tensor<8x4xf32>, tensor<i32>, tensor<f32>) -> tensor<2x2xf32>
  func.return
}
// CHECK: dynamic_slice index 1 must be a scalar integer tensor, got tensor<f32>

// -----

func.func @dynamic_slice_index_pred(%x: tensor<8x4xf32>, %p: tensor<i1>) {
  %r = hlo.dynamic_slice %x at [%p, %p] sizes = [2, 2] : (tensor<8x4xf32>, tensor<i1>, tensor<i1>) -> tensor<2x2xf32>
  func.return
}
// CHECK: dynamic_slice index 0 must be a scalar integer tensor, got tensor<i1>

// -----

func.func @dynamic_slice_index_mixed(%x: tensor<8x4xf32>, %i: tensor<i32>, %j: tensor<i64>) {
  %r = hlo.dynamic_slice %x at [%i, %j] sizes = [2, 2] : (tensor<8x4xf32>, tensor<i32>, tensor<i64>) -> tensor<2x2xf32>
  func.return
}
// CHECK: dynamic_slice indices must all have one type: index 1 is tensor<i64>, index 0 is tensor<i32>

// -----

func.func @dynamic_slice_size_count(%x: tensor<8x4xf32>, %i: tensor<i32>) {
  %r = hlo.dynamic_slice %x at [%i, %i] sizes = [2] : (tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<2xf32>
  func.return
}
// CHECK: dynamic_slice expects 2 slice sizes (one per operand dimension), got 1

// -----

func.func @dynamic_slice_negative_size(%x: tensor<8x4xf32>, %i: tensor<i32>) {
  %r = hlo.dynamic_slice %x at [%i, %i] sizes = [-1, 2] : (tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<2x2xf32>
  func.return
}
// CHECK: dynamic_slice size -1 of dimension 0 is negative

// -----

func.func @dynamic_slice_size(%x: tensor<8x4xf32>, %i: tensor<i32>) {
  %r = hlo.dynamic_slice %x at [%i, %i] sizes = [2, 5] : (tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<2x5xf32>
  func.return
}
// CHECK: dynamic_slice size 5 exceeds dimension 1 of size 4

// -----

func.func @dynamic_slice_result(%x: tensor<8x4xf32>, %i: tensor<i32>) {
  %r = hlo.dynamic_slice %x at [%i, %i] sizes = [2, 2] : (tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<2x2xf16>
  func.return
}
// CHECK: dynamic_slice result must be tensor<2x2xf32>, got tensor<2x2xf16>

// -----

func.func @dus_index_count(%x: tensor<8x4xf32>, %u: tensor<2x2xf32>, %i: tensor<i32>) {
  %r = hlo.dynamic_update_slice %x, %u at [%i, %i, %i] : (tensor<8x4xf32>, tensor<2x2xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<8x4xf32>
  func.return
}
// CHECK: dynamic_update_slice expects 2 start indices (one per operand dimension), got 3

// -----

func.func @dus_index_rank(%x: tensor<8x4xf32>, %u: tensor<2x2xf32>, %i: tensor<2xi32>) {
  %r = hlo.dynamic_update_slice %x, %u at [%i, %i] : (tensor<8x4xf32>, tensor<2x2xf32>, tensor<2xi32>, tensor<2xi32>) -> tensor<8x4xf32>
  func.return
}
// CHECK: dynamic_update_slice index 0 must be a scalar integer tensor, got tensor<2xi32>

// -----

func.func @dus_index_mixed(%x: tensor<8x4xf32>, %u: tensor<2x2xf32>, %i: tensor<ui32>, %j: tensor<i32>) {
  %r = hlo.dynamic_update_slice %x, %u at [%i, %j] : (tensor<8x4xf32>, tensor<2x2xf32>, tensor<ui32>, tensor<i32>) -> tensor<8x4xf32>
  func.return
}
// CHECK: dynamic_update_slice indices must all have one type: index 1 is tensor<i32>, index 0 is tensor<ui32>

// -----

func.func @dus_update_rank(%x: tensor<8x4xf32>, %u: tensor<2xf32>, %i: tensor<i32>) {
  %r = hlo.dynamic_update_slice %x, %u at [%i, %i] : (tensor<8x4xf32>, tensor<2xf32>, tensor<i32>, tensor<i32>) -> tensor<8x4xf32>
  func.return
}
// CHECK: dynamic_update_slice update rank 1 does not match operand rank 2

// -----

func.func @dus_update_element_type(%x: tensor<8x4xf32>, %u: tensor<2x2xi32>, %i: tensor<i32>) {
  %r = hlo.dynamic_update_slice %x, %u at [%i, %i] : (tensor<8x4xf32>, tensor<2x2xi32>, tensor<i32>, tensor<i32>) -> tensor<8x4xf32>
  func.return
}
// CHECK: dynamic_update_slice update element type s32 does not match operand element type f32

// -----

func.func @dus_update_too_large(%x: tensor<8x4xf32>, %u: tensor<9x2xf32>, %i: tensor<i32>) {
  %r = hlo.dynamic_update_slice %x, %u at [%i, %i] : (tensor<8x4xf32>, tensor<9x2xf32>, tensor<i32>, tensor<i32>) -> tensor<8x4xf32>
  func.return
}
// CHECK: dynamic_update_slice update dimension 0 of size 9 exceeds operand size 8

// -----

func.func @dus_result(%x: tensor<8x4xf32>, %u: tensor<2x2xf32>, %i: tensor<i32>) {
  %r = hlo.dynamic_update_slice %x, %u at [%i, %i] : (tensor<8x4xf32>, tensor<2x2xf32>, tensor<i32>, tensor<i32>) -> tensor<2x2xf32>
  func.return
}
// CHECK: dynamic_update_slice result must be the operand type tensor<8x4xf32>, got tensor<2x2xf32>

// -----

func.func @concatenate_no_operand() {
  %r = hlo.concatenate() dim = 0 : () -> tensor<0xf32>
  func.return
}
// CHECK: concatenate needs at least one operand

// -----

func.func @concatenate_dim_range(%a: tensor<2x4xf32>) {
  %r = hlo.concatenate(%a, %a) dim = 2 : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x8xf32>
  func.return
}
// CHECK: concatenate dimension 2 is out of range for rank 2

// -----

func.func @concatenate_dim_negative(%a: tensor<2x4xf32>) {
  %r = hlo.concatenate(%a, %a) dim = -1 : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x8xf32>
  func.return
}
// CHECK: concatenate dimension -1 is out of range for rank 2

// -----

func.func @concatenate_rank(%a: tensor<2x4xf32>, %b: tensor<4xf32>) {
  %r = hlo.concatenate(%a, %b) dim = 0 : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  func.return
}
// CHECK: concatenate operand 1 has rank 1, but operand 0 has rank 2

// -----

func.func @concatenate_element_type(%a: tensor<2x4xf32>, %b: tensor<2x4xi32>) {
  %r = hlo.concatenate(%a, %b) dim = 0 : (tensor<2x4xf32>, tensor<2x4xi32>) -> tensor<4x4xf32>
  func.return
}
// CHECK: concatenate operand 1 has element type s32, but operand 0 has f32

// -----

func.func @concatenate_other_dims(%a: tensor<2x4xf32>, %b: tensor<2x3xf32>) {
  %r = hlo.concatenate(%a, %a, %b) dim = 0 : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x3xf32>) -> tensor<6x4xf32>
  func.return
}
// CHECK: concatenate operand 2 has size 3 in dimension 1, but operand 0 has size 4

// -----

func.func @concatenate_result(%a: tensor<2x4xf32>, %b: tensor<3x4xf32>) {
  %r = hlo.concatenate(%a, %b) dim = 0 : (tensor<2x4xf32>, tensor<3x4xf32>) -> tensor<6x4xf32>
  func.return
}
// CHECK: concatenate result must be tensor<5x4xf32>, got tensor<6x4xf32>

// -----

func.func @pad_value_not_scalar(%x: tensor<2x4xf32>, %v: tensor<2xf32>) {
  %r = hlo.pad %x, %v, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<2x4xf32>, tensor<2xf32>) -> tensor<2x4xf32>
  func.return
}
// CHECK: pad padding value must be a scalar tensor<f32>, got tensor<2xf32>

// -----

func.func @pad_value_element_type(%x: tensor<2x4xf32>, %v: tensor<bf16>) {
  %r = hlo.pad %x, %v, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<2x4xf32>, tensor<bf16>) -> tensor<2x4xf32>
  func.return
}
// CHECK: pad padding value must be a scalar tensor<f32>, got tensor<bf16>

// -----

func.func @pad_low_count(%x: tensor<2x4xf32>, %v: tensor<f32>) {
  %r = hlo.pad %x, %v, low = [0], high = [0, 0], interior = [0, 0] : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
  func.return
}
// CHECK: pad expects 2 low edge paddings (one per operand dimension), got 1

// -----

func.func @pad_high_count(%x: tensor<2x4xf32>, %v: tensor<f32>) {
  %r = hlo.pad %x, %v, low = [0, 0], high = [0, 0, 0], interior = [0, 0] : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
  func.return
}
// CHECK: pad expects 2 high edge paddings (one per operand dimension), got 3

// -----

func.func @pad_interior_count(%x: tensor<2x4xf32>, %v: tensor<f32>) {
  %r = hlo.pad %x, %v, low = [0, 0], high = [0, 0], interior = [0] : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
  func.return
}
// CHECK: pad expects 2 interior paddings (one per operand dimension), got 1

// -----

func.func @pad_negative_interior(%x: tensor<2x4xf32>, %v: tensor<f32>) {
  %r = hlo.pad %x, %v, low = [0, 0], high = [0, 0], interior = [0, -1] : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x1xf32>
  func.return
}
// CHECK: pad interior padding -1 of dimension 1 is negative

// -----

func.func @pad_negative_size(%x: tensor<2x4xf32>, %v: tensor<f32>) {
  %r = hlo.pad %x, %v, low = [-2, 0], high = [-1, 0], interior = [0, 0] : (tensor<2x4xf32>, tensor<f32>) -> tensor<0x4xf32>
  func.return
}
// CHECK: pad result dimension 0 would have negative size -1

// -----

func.func @pad_result(%x: tensor<2x4xf32>, %v: tensor<f32>) {
  %r = hlo.pad %x, %v, low = [1, 0], high = [0, 1], interior = [1, 1] : (tensor<2x4xf32>, tensor<f32>) -> tensor<4x9xf32>
  func.return
}
// CHECK: pad result must be tensor<4x8xf32>, got tensor<4x9xf32>

// -----

// ===== computation ===========================================================

// dot: batch dimension lists pair up.
func.func @dot_batch_count(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) {
  %r = hlo.dot %a, %b lhs_batch = [0], rhs_batch = [], lhs_contracting = [2], rhs_contracting = [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x2x5xf32>
  func.return
}

// CHECK: lhs_batch has 1 dimensions, but rhs_batch has 0

// -----

// dot: contracting dimension lists pair up.
func.func @dot_contracting_count(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) {
  %r = hlo.dot %a, %b lhs_contracting = [1], rhs_contracting = [] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x4x5xf32>
  func.return
}

// CHECK: lhs_contracting has 1 dimensions, but rhs_contracting has 0

// -----

// dot: dimension numbers are in range.
func.func @dot_out_of_range(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) {
  %r = hlo.dot %a, %b lhs_contracting = [2], rhs_contracting = [0] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  func.return
}

// CHECK: dimension 2 in lhs_contracting is out of range for lhs of rank 2

// -----

// dot: a dimension is listed once.
func.func @dot_repeated(%a: tensor<3x4xf32>, %b: tensor<4x4xf32>) {
  %r = hlo.dot %a, %b lhs_contracting = [1, 1], rhs_contracting = [0, 1] : (tensor<3x4xf32>, tensor<4x4xf32>) -> tensor<3xf32>
  func.return
}

// CHECK: dimension 1 appears twice in lhs_contracting

// -----

// dot: batch and contracting dimensions are disjoint.
func.func @dot_not_disjoint(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) {
  %r = hlo.dot %a, %b lhs_batch = [0], rhs_batch = [0], lhs_contracting = [0], rhs_contracting = [0] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x4x4x5xf32>
  func.return
}

// CHECK: dimension 0 of lhs is in both lhs_batch and lhs_contracting

// -----

// dot: contracted dimensions have equal sizes.
func.func @dot_contracting_sizes(%a: tensor<3x4xf32>, %b: tensor<5x6xf32>) {
  %r = hlo.dot %a, %b lhs_contracting = [1], rhs_contracting = [0] : (tensor<3x4xf32>, tensor<5x6xf32>) -> tensor<3x6xf32>
  func.return
}

// CHECK: contracting dimension sizes differ: lhs dimension 1 has size 4, rhs dimension 0 has size 5

// -----

// dot: batch dimensions have equal sizes.
func.func @dot_batch_sizes(%a: tensor<2x3x4xf32>, %b: tensor<3x4x5xf32>) {
  %r = hlo.dot %a, %b lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1] : (tensor<2x3x4xf32>, tensor<3x4x5xf32>) -> tensor<2x3x5xf32>
  func.return
}

// CHECK: batch dimension sizes differ: lhs dimension 0 has size 2, rhs dimension 0 has size 3

// -----

// dot: an integer result is not narrower than the operands.
func.func @dot_narrow(%a: tensor<3x4xi32>, %b: tensor<4x5xi32>) {
  %r = hlo.dot %a, %b lhs_contracting = [1], rhs_contracting = [0] : (tensor<3x4xi32>, tensor<4x5xi32>) -> tensor<3x5xi8>
  func.return
}

// CHECK: result element type s8 is narrower than the operand element type s32

// -----

// dot: result = batch, lhs free, rhs free dimensions.
func.func @dot_result(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) {
  %r = hlo.dot %a, %b lhs_contracting = [1], rhs_contracting = [0] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<5x3xf32>
  func.return
}

// CHECK: result has type tensor<5x3xf32>, expected tensor<3x5xf32>

// -----

// reduce: at least one input.
func.func @reduce_no_input() {
  %r = "hlo.reduce"() <{dimensions = #hlo.dims<[]>, operandSegmentSizes = array<i32: 0, 0>}> ({
  ^bb0:
    "hlo.return"() : () -> ()
  }) : () -> tensor<f32>
  func.return
}

// CHECK: reduce needs at least one input

// -----

// reduce: one init value per input.
func.func @reduce_init_count(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>, %z: tensor<f32>) {
  %r = hlo.reduce(%x, %y : tensor<4x8xf32>, tensor<4x8xf32>) init(%z : tensor<f32>) dimensions = [1] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  } -> tensor<4xf32>
  func.return
}

// CHECK: reduce has 2 inputs but 1 init values, expected one per input

// -----

// reduce: init values are scalars.
func.func @reduce_init_not_scalar(%x: tensor<4x8xf32>, %z: tensor<4xf32>) {
  %r = hlo.reduce(%x : tensor<4x8xf32>) init(%z : tensor<4xf32>) dimensions = [1] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  } -> tensor<4xf32>
  func.return
}

// CHECK: init value 0 must be a scalar, got tensor<4xf32>

// -----

// reduce: an init value has its input's element type.
func.func @reduce_init_type(%x: tensor<4x8xf32>, %z: tensor<i32>) {
  %r = hlo.reduce(%x : tensor<4x8xf32>) init(%z : tensor<i32>) dimensions = [1] {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    hlo.return %a : tensor<i32>
  } -> tensor<4xi32>
  func.return
}

// CHECK: init value 0 has element type s32, but input 0 has element type f32

// -----

// reduce: the inputs share one shape.
func.func @reduce_input_shapes(%x: tensor<4x8xf32>, %y: tensor<8x4xf32>, %z: tensor<f32>) {
  %r = hlo.reduce(%x, %y : tensor<4x8xf32>, tensor<8x4xf32>) init(%z, %z : tensor<f32>, tensor<f32>) dimensions = [1] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>):
    hlo.return %a, %b : tensor<f32>, tensor<f32>
  } -> tuple<tensor<4xf32>, tensor<4xf32>>
  func.return
}

// CHECK: reduce input 1 has shape [8,4], but reduce input 0 has shape [4,8]

// -----

// reduce: reduced dimensions are in range.
func.func @reduce_dim_range(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  %r = hlo.reduce(%x : tensor<4x8xf32>) init(%z : tensor<f32>) dimensions = [2] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  } -> tensor<4x8xf32>
  func.return
}

// CHECK: dimension 2 in dimensions is out of range for the inputs of rank 2

// -----

// reduce: reduced dimensions are unique.
func.func @reduce_dim_repeated(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  %r = hlo.reduce(%x : tensor<4x8xf32>) init(%z : tensor<f32>) dimensions = [1, 1] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  } -> tensor<4xf32>
  func.return
}

// CHECK: dimension 1 appears twice in dimensions

// -----

// reduce: the reducer takes 2N scalars.
func.func @reducer_arity(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  %r = hlo.reduce(%x : tensor<4x8xf32>) init(%z : tensor<f32>) dimensions = [1] {
  ^bb0(%a: tensor<f32>):
    hlo.return %a : tensor<f32>
  } -> tensor<4xf32>
  func.return
}

// CHECK: reduce region must take 2 scalar arguments, got 1

// -----

// reduce: reducer arguments are the accumulator scalars.
func.func @reducer_arg_type(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  %r = hlo.reduce(%x : tensor<4x8xf32>) init(%z : tensor<f32>) dimensions = [1] {
  ^bb0(%a: tensor<f32>, %b: tensor<4xf32>):
    hlo.return %a : tensor<f32>
  } -> tensor<4xf32>
  func.return
}

// CHECK: reduce region argument 1 has type tensor<4xf32>, expected tensor<f32>

// -----

// reduce: the reducer ends in hlo.return.
func.func @reducer_terminator(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  %r = hlo.reduce(%x : tensor<4x8xf32>) init(%z : tensor<f32>) dimensions = [1] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    "test.termop"() : () -> ()
  } -> tensor<4xf32>
  func.return
}

// CHECK: reduce region must end in hlo.return

// -----

// reduce: the reducer returns N scalars.
func.func @reducer_result_count(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  %r = hlo.reduce(%x : tensor<4x8xf32>) init(%z : tensor<f32>) dimensions = [1] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a, %b : tensor<f32>, tensor<f32>
  } -> tensor<4xf32>
  func.return
}

// CHECK: reduce region returns 2 values, expected 1

// -----

// reduce: the reducer returns the accumulator types.
func.func @reducer_result_type(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  %r = hlo.reduce(%x : tensor<4x8xf32>) init(%z : tensor<f32>) dimensions = [1] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = arith.constant dense<0> : tensor<i32>
    hlo.return %c : tensor<i32>
  } -> tensor<4xf32>
  func.return
}

// CHECK: reduce region result 0 has type tensor<i32>, expected tensor<f32>

// -----

// reduce: reducers are isolated from above.
func.func @reducer_isolated(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  %r = hlo.reduce(%x : tensor<4x8xf32>) init(%z : tensor<f32>) dimensions = [1] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = arith.addf %a, %z : tensor<f32>
    hlo.return %c : tensor<f32>
  } -> tensor<4xf32>
  func.return
}

// CHECK: Operation using value defined out of its IsolatedFromAbove parent

// -----

// reduce: the result drops the reduced dimensions.
func.func @reduce_result(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  %r = hlo.reduce(%x : tensor<4x8xf32>) init(%z : tensor<f32>) dimensions = [1] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  } -> tensor<8xf32>
  func.return
}

// CHECK: result has type tensor<8xf32>, expected tensor<4xf32>

// -----

// reduce: several inputs give a tuple.
func.func @reduce_needs_tuple(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  %r = hlo.reduce(%x, %x : tensor<4x8xf32>, tensor<4x8xf32>) init(%z, %z : tensor<f32>, tensor<f32>) dimensions = [1] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>):
    hlo.return %a, %b : tensor<f32>, tensor<f32>
  } -> tensor<4xf32>
  func.return
}

// CHECK: reduce with 2 inputs returns a tuple of 2 tensors, got tensor<4xf32>

// -----

// reduce: tuple element i is input i reduced.
func.func @reduce_tuple_element(%x: tensor<4x8xf32>, %y: tensor<4x8xi32>, %z: tensor<f32>, %w: tensor<i32>) {
  %r = hlo.reduce(%x, %y : tensor<4x8xf32>, tensor<4x8xi32>) init(%z, %w : tensor<f32>, tensor<i32>) dimensions = [1] {
  ^bb0(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<i32>):
    hlo.return %a, %b : tensor<f32>, tensor<i32>
  } -> tuple<tensor<4xf32>, tensor<4xf32>>
  func.return
}

// CHECK: result 1 has type tensor<4xf32>, expected tensor<4xi32>

// -----

// reduce: one input gives a plain tensor.
func.func @reduce_single_tuple(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  %r = hlo.reduce(%x : tensor<4x8xf32>) init(%z : tensor<f32>) dimensions = [1] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  } -> tuple<tensor<4xf32>>
  func.return
}

// CHECK: reduce with one input returns a tensor, not tuple<tensor<4xf32>>

// -----

// reduce_window: the window has the inputs' rank.
func.func @window_rank(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  %r = hlo.reduce_window(%x : tensor<4x8xf32>) init(%z : tensor<f32>) size = [2] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  } -> tensor<3xf32>
  func.return
}

// CHECK: window has 1 dimensions, but the inputs have rank 2

// -----

// reduce_window: every window field has one entry per dimension.
func.func @window_fields(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  %r = hlo.reduce_window(%x : tensor<4x8xf32>) init(%z : tensor<f32>) size = [2, 2], stride = [2] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  } -> tensor<2x4xf32>
  func.return
}

// CHECK: window stride has 1 entries, but size has 2

// -----

// reduce_window: sizes, strides and dilations are positive.
func.func @window_positive(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  %r = "hlo.reduce_window"(%x, %z) <{window = #hlo.window<size = [2, 2], stride = [0, 1]>, operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    "hlo.return"(%a) : (tensor<f32>) -> ()
  }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<2x4xf32>
  func.return
}

// CHECK: window stride 0 in dimension 0 must be positive

// -----

// reduce_window: padding entries are pairs.
func.func @window_padding_pair(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  %r = hlo.reduce_window(%x : tensor<4x8xf32>) init(%z : tensor<f32>) size = [2, 2], padding = [[0, 0], [1]] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  } -> tensor<3x7xf32>
  func.return
}

// CHECK: a padding entry is a [low, high] pair

// -----

// reduce_window: result dimension = (padded - window) / stride + 1.
func.func @window_result(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  %r = hlo.reduce_window(%x : tensor<4x8xf32>) init(%z : tensor<f32>) size = [2, 2], stride = [2, 2], padding = [[0, 0], [1, 1]] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  } -> tensor<2x4xf32>
  func.return
}

// CHECK: result has type tensor<2x4xf32>, expected tensor<2x5xf32>

// -----

// gather: indices are integers.
func.func @gather_float_indices(%x: tensor<16x8xf32>, %i: tensor<4x1xf32>) {
  %g = hlo.gather %x, %i offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1 slice_sizes = [1, 8] : (tensor<16x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  func.return
}

// CHECK: start_indices must have an integer element type, got tensor<4x1xf32>

// -----

// gather: index_vector_dim is at most the indices' rank.
func.func @gather_index_vector_dim(%x: tensor<16x8xf32>, %i: tensor<4x1xi32>) {
  %g = hlo.gather %x, %i offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 3 slice_sizes = [1, 8] : (tensor<16x8xf32>, tensor<4x1xi32>) -> tensor<4x8xf32>
  func.return
}

// CHECK: index_vector_dim 3 is out of range for start_indices of rank 2

// -----

// gather: start_index_map has one entry per index vector element.
func.func @gather_start_index_map(%x: tensor<16x8xf32>, %i: tensor<4x1xi32>) {
  %g = hlo.gather %x, %i offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0, 1], index_vector_dim = 1 slice_sizes = [1, 8] : (tensor<16x8xf32>, tensor<4x1xi32>) -> tensor<4x8xf32>
  func.return
}

// CHECK: start_index_map has 2 entries, but the index vector of start_indices has size 1

// -----

// gather: offset_dims are sorted.
func.func @gather_offset_sorted(%x: tensor<16x8x4xf32>, %i: tensor<4x1xi32>) {
  %g = hlo.gather %x, %i offset_dims = [2, 1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1 slice_sizes = [1, 8, 4] : (tensor<16x8x4xf32>, tensor<4x1xi32>) -> tensor<4x8x4xf32>
  func.return
}

// CHECK: offset_dims must be sorted ascending, got [2, 1]

// -----

// gather: offset_dims are result dimensions.
func.func @gather_offset_range(%x: tensor<16x8xf32>, %i: tensor<4x1xi32>) {
  %g = hlo.gather %x, %i offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1 slice_sizes = [1, 8] : (tensor<16x8xf32>, tensor<4x1xi32>) -> tensor<4x8xf32>
  func.return
}

// CHECK: dimension 2 in offset_dims is out of range for the result of rank 2

// -----

// gather: start_index_map entries are unique.
func.func @gather_start_index_map_repeated(%x: tensor<16x8xf32>, %i: tensor<4x2xi32>) {
  %g = hlo.gather %x, %i offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0, 0], index_vector_dim = 1 slice_sizes = [1, 8] : (tensor<16x8xf32>, tensor<4x2xi32>) -> tensor<4x8xf32>
  func.return
}

// CHECK: dimension 0 appears twice in start_index_map

// -----

// gather: collapsed and batching dimensions are disjoint.
func.func @gather_collapsed_batching(%x: tensor<2x16x8xf32>, %i: tensor<2x4x1xi32>) {
  %g = hlo.gather %x, %i offset_dims = [2], collapsed_slice_dims = [0], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2 slice_sizes = [1, 1, 8] : (tensor<2x16x8xf32>, tensor<2x4x1xi32>) -> tensor<2x4x8xf32>
  func.return
}

// CHECK: dimension 0 of the operand is in both collapsed_slice_dims and operand_batching_dims

// -----

// gather: batching dimension lists pair up.
func.func @gather_batching_count(%x: tensor<2x16x8xf32>, %i: tensor<2x4x1xi32>) {
  %g = hlo.gather %x, %i offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [], start_index_map = [1], index_vector_dim = 2 slice_sizes = [1, 1, 8] : (tensor<2x16x8xf32>, tensor<2x4x1xi32>) -> tensor<2x4x8xf32>
  func.return
}

// CHECK: operand_batching_dims has 1 entries, but start_indices_batching_dims has 0

// -----

// gather: the index vector dimension is no batching dimension.
func.func @gather_batching_index_vector(%x: tensor<2x16x8xf32>, %i: tensor<2x4x1xi32>) {
  %g = hlo.gather %x, %i offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [2], start_index_map = [1], index_vector_dim = 2 slice_sizes = [1, 1, 8] : (tensor<2x16x8xf32>, tensor<2x4x1xi32>) -> tensor<2x4x8xf32>
  func.return
}

// CHECK: start_indices_batching_dims must not contain index_vector_dim 2

// -----

// gather: paired batching dimensions have equal sizes.
func.func @gather_batching_sizes(%x: tensor<2x16x8xf32>, %i: tensor<3x4x1xi32>) {
  %g = hlo.gather %x, %i offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2 slice_sizes = [1, 1, 8] : (tensor<2x16x8xf32>, tensor<3x4x1xi32>) -> tensor<3x4x8xf32>
  func.return
}

// CHECK: operand batching dimension 0 has size 2, but start_indices batching dimension 0 has size 3

// -----

// gather: one slice size per operand dimension.
func.func @gather_slice_count(%x: tensor<16x8xf32>, %i: tensor<4x1xi32>) {
  %g = hlo.gather %x, %i offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1 slice_sizes = [1] : (tensor<16x8xf32>, tensor<4x1xi32>) -> tensor<4x8xf32>
  func.return
}

// CHECK: slice_sizes has 1 entries, but the operand has rank 2

// -----

// gather: a slice fits in the operand.
func.func @gather_slice_bound(%x: tensor<16x8xf32>, %i: tensor<4x1xi32>) {
  %g = hlo.gather %x, %i offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1 slice_sizes = [1, 9] : (tensor<16x8xf32>, tensor<4x1xi32>) -> tensor<4x9xf32>
  func.return
}

// CHECK: slice size 9 exceeds dimension 1 of size 8

// -----

// gather: slice sizes are not negative.
func.func @gather_slice_negative(%x: tensor<16x8xf32>, %i: tensor<4x1xi32>) {
  %g = hlo.gather %x, %i offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1 slice_sizes = [1, -1] : (tensor<16x8xf32>, tensor<4x1xi32>) -> tensor<4x8xf32>
  func.return
}

// CHECK: slice size -1 of dimension 1 is negative

// -----

// gather: collapsed dimensions have slice size at most 1.
func.func @gather_collapse_big(%x: tensor<16x8xf32>, %i: tensor<4x1xi32>) {
  %g = hlo.gather %x, %i offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1 slice_sizes = [2, 8] : (tensor<16x8xf32>, tensor<4x1xi32>) -> tensor<4x8xf32>
  func.return
}

// CHECK: dimension 0 is collapsed or a batching dimension, so its slice size must be at most 1, got 2

// -----

// gather: every kept slice dimension has an offset dimension.
func.func @gather_offset_count(%x: tensor<16x8xf32>, %i: tensor<4x1xi32>) {
  %g = hlo.gather %x, %i offset_dims = [1], collapsed_slice_dims = [], start_index_map = [0], index_vector_dim = 1 slice_sizes = [1, 8] : (tensor<16x8xf32>, tensor<4x1xi32>) -> tensor<4x8xf32>
  func.return
}

// CHECK: offset_dims has 1 entries, but the operand keeps 2 dimensions after collapsed_slice_dims and operand_batching_dims

// -----

// gather: the result interleaves batch and offset dimensions.
func.func @gather_result(%x: tensor<16x8xf32>, %i: tensor<4x1xi32>) {
  %g = hlo.gather %x, %i offset_dims = [0], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1 slice_sizes = [1, 8] : (tensor<16x8xf32>, tensor<4x1xi32>) -> tensor<4x8xf32>
  func.return
}

// CHECK: result has type tensor<4x8xf32>, expected tensor<8x4xf32>

// -----

// gather dimension numbers need index_vector_dim.
func.func @gather_missing_field(%x: tensor<16x8xf32>, %i: tensor<4x1xi32>) {
  %g = hlo.gather %x, %i offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0] slice_sizes = [1, 8] : (tensor<16x8xf32>, tensor<4x1xi32>) -> tensor<4x8xf32>
  func.return
}

// CHECK: missing field index_vector_dim

// -----

// A field is given at most once.
func.func @dot_field_twice(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) {
  %r = hlo.dot %a, %b lhs_contracting = [1], lhs_contracting = [1] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  func.return
}

// CHECK: field lhs_contracting is given twice

// -----

// scatter: one update per input.
func.func @scatter_update_count(%x: tensor<16x8xf32>, %i: tensor<4x1xi32>, %u: tensor<4x8xf32>) {
  %s = hlo.scatter(%x : tensor<16x8xf32>) indices(%i : tensor<4x1xi32>) updates(%u, %u : tensor<4x8xf32>, tensor<4x8xf32>) update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %b : tensor<f32>
  } -> tensor<16x8xf32>
  func.return
}

// CHECK: scatter has 1 inputs but 2 updates, expected one per input

// -----

// scatter: updates have their input's element type.
func.func @scatter_update_type(%x: tensor<16x8xf32>, %i: tensor<4x1xi32>, %u: tensor<4x8xi32>) {
  %s = hlo.scatter(%x : tensor<16x8xf32>) indices(%i : tensor<4x1xi32>) updates(%u : tensor<4x8xi32>) update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %b : tensor<f32>
  } -> tensor<16x8xf32>
  func.return
}

// CHECK: update 0 has element type s32, but input 0 has element type f32

// -----

// scatter: scatter_dims_to_operand_dims has one entry per index vector element.
func.func @scatter_dims_count(%x: tensor<16x8xf32>, %i: tensor<4x1xi32>, %u: tensor<4x8xf32>) {
  %s = hlo.scatter(%x : tensor<16x8xf32>) indices(%i : tensor<4x1xi32>) updates(%u : tensor<4x8xf32>) update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1 {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %b : tensor<f32>
  } -> tensor<16x8xf32>
  func.return
}

// CHECK: scatter_dims_to_operand_dims has 2 entries, but the index vector of scatter_indices has size 1

// -----

// scatter: inserted_window_dims are operand dimensions.
func.func @scatter_inserted_range(%x: tensor<16x8xf32>, %i: tensor<4x1xi32>, %u: tensor<4x8xf32>) {
  %s = hlo.scatter(%x : tensor<16x8xf32>) indices(%i : tensor<4x1xi32>) updates(%u : tensor<4x8xf32>) update_window_dims = [1], inserted_window_dims = [2], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %b : tensor<f32>
  } -> tensor<16x8xf32>
  func.return
}

// CHECK: dimension 2 in inserted_window_dims is out of range for the operand of rank 2

// -----

// scatter: the window covers every operand dimension.
func.func @scatter_window_cover(%x: tensor<16x8xf32>, %i: tensor<4x1xi32>, %u: tensor<4x8xf32>) {
  %s = hlo.scatter(%x : tensor<16x8xf32>) indices(%i : tensor<4x1xi32>) updates(%u : tensor<4x8xf32>) update_window_dims = [1], inserted_window_dims = [], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %b : tensor<f32>
  } -> tensor<16x8xf32>
  func.return
}

// CHECK: update_window_dims, inserted_window_dims and input_batching_dims cover 1 dimensions, but the operand has rank 2

// -----

// scatter: updates = scatter (batch) dimensions + window dimensions.
func.func @scatter_updates_rank(%x: tensor<16x8xf32>, %i: tensor<4x1xi32>, %u: tensor<8xf32>) {
  %s = hlo.scatter(%x : tensor<16x8xf32>) indices(%i : tensor<4x1xi32>) updates(%u : tensor<8xf32>) update_window_dims = [0], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %b : tensor<f32>
  } -> tensor<16x8xf32>
  func.return
}

// CHECK: updates have rank 1, expected 2

// -----

// scatter: update windows fit in the operand.
func.func @scatter_window_bound(%x: tensor<16x8xf32>, %i: tensor<4x1xi32>, %u: tensor<4x9xf32>) {
  %s = hlo.scatter(%x : tensor<16x8xf32>) indices(%i : tensor<4x1xi32>) updates(%u : tensor<4x9xf32>) update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %b : tensor<f32>
  } -> tensor<16x8xf32>
  func.return
}

// CHECK: updates window dimension 1 of size 9 exceeds operand dimension 1 of size 8

// -----

// scatter: the updates' scatter dimensions match the indices' batch dimensions.
func.func @scatter_batch_sizes(%x: tensor<16x8xf32>, %i: tensor<4x1xi32>, %u: tensor<3x8xf32>) {
  %s = hlo.scatter(%x : tensor<16x8xf32>) indices(%i : tensor<4x1xi32>) updates(%u : tensor<3x8xf32>) update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %b : tensor<f32>
  } -> tensor<16x8xf32>
  func.return
}

// CHECK: updates dimension 0 has size 3, but the scatter_indices batch dimensions give 4

// -----

// scatter: the update computation takes 2N scalars.
func.func @scatter_region(%x: tensor<16x8xf32>, %i: tensor<4x1xi32>, %u: tensor<4x8xf32>) {
  %s = hlo.scatter(%x : tensor<16x8xf32>) indices(%i : tensor<4x1xi32>) updates(%u : tensor<4x8xf32>) update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>):
    hlo.return %b : tensor<f32>
  } -> tensor<16x8xf32>
  func.return
}

// CHECK: scatter region must take 2 scalar arguments, got 3

// -----

// scatter: the result has the input's type.
func.func @scatter_result(%x: tensor<16x8xf32>, %i: tensor<4x1xi32>, %u: tensor<4x8xf32>) {
  %s = hlo.scatter(%x : tensor<16x8xf32>) indices(%i : tensor<4x1xi32>) updates(%u : tensor<4x8xf32>) update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %b : tensor<f32>
  } -> tensor<4x8xf32>
  func.return
}

// CHECK: result has type tensor<4x8xf32>, expected tensor<16x8xf32>

// -----

// sort: the dimension is in range.
func.func @sort_dimension(%k: tensor<8xf32>) {
  %s = hlo.sort(%k) dim = 1 {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = hlo.compare LT, %a, %b : tensor<f32> -> tensor<i1>
    hlo.return %lt : tensor<i1>
  } : (tensor<8xf32>) -> tensor<8xf32>
  func.return
}

// CHECK: sort dimension 1 is out of range for rank 1

// -----

// sort: operands share one shape.
func.func @sort_shapes(%k: tensor<8xf32>, %v: tensor<4xi32>) {
  %s = hlo.sort(%k, %v) dim = 0 {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %lt = hlo.compare LT, %a, %b : tensor<f32> -> tensor<i1>
    hlo.return %lt : tensor<i1>
  } : (tensor<8xf32>, tensor<4xi32>) -> tuple<tensor<8xf32>, tensor<4xi32>>
  func.return
}

// CHECK: sort operand 1 has shape [4], but sort operand 0 has shape [8]

// -----

// sort: the comparator takes 2N scalars.
func.func @sort_comparator_arity(%k: tensor<8xf32>, %v: tensor<8xi32>) {
  %s = hlo.sort(%k, %v) dim = 0 {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = hlo.compare LT, %a, %b : tensor<f32> -> tensor<i1>
    hlo.return %lt : tensor<i1>
  } : (tensor<8xf32>, tensor<8xi32>) -> tuple<tensor<8xf32>, tensor<8xi32>>
  func.return
}

// CHECK: comparator region must take 4 scalar arguments, got 2

// -----

// sort: comparator arguments come in (lhs, rhs) pairs per operand.
func.func @sort_comparator_order(%k: tensor<8xf32>, %v: tensor<8xi32>) {
  %s = hlo.sort(%k, %v) dim = 0 {
  ^bb0(%a: tensor<f32>, %c: tensor<i32>, %b: tensor<f32>, %d: tensor<i32>):
    %lt = hlo.compare LT, %a, %b : tensor<f32> -> tensor<i1>
    hlo.return %lt : tensor<i1>
  } : (tensor<8xf32>, tensor<8xi32>) -> tuple<tensor<8xf32>, tensor<8xi32>>
  func.return
}

// CHECK: comparator region argument 1 has type tensor<i32>, expected tensor<f32>

// -----

// sort: the comparator returns tensor<i1>.
func.func @sort_comparator_result(%k: tensor<8xf32>) {
  %s = hlo.sort(%k) dim = 0 {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    hlo.return %a : tensor<f32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  func.return
}

// CHECK: comparator must return a single tensor<i1>, got tensor<f32>

// -----

// sort: several operands give a tuple.
func.func @sort_result(%k: tensor<8xf32>, %v: tensor<8xi32>) {
  %s = hlo.sort(%k, %v) dim = 0 {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %lt = hlo.compare LT, %a, %b : tensor<f32> -> tensor<i1>
    hlo.return %lt : tensor<i1>
  } : (tensor<8xf32>, tensor<8xi32>) -> tensor<8xf32>
  func.return
}

// CHECK: sort with 2 inputs returns a tuple of 2 tensors, got tensor<8xf32>

// -----

// CHECK: // {{-----}}
// call: the callee must exist in the module.
// CHECK-NEXT: callee '@missing' is not defined
builtin.module {
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %s = hlo.call @missing(%x) : (tensor<8xf32>) -> tensor<8xf32>
    func.return %s : tensor<8xf32>
  }
}
