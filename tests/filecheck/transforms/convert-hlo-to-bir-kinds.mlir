// RUN: neuron-opt %s --split-input-file --verify-diagnostics -p convert-hlo-to-bir | filecheck %s
// RUN: neuron-opt %s --split-input-file --verify-diagnostics -p 'convert-hlo-to-bir{tile-bytes=8 ring-channels=2}' | filecheck %s --check-prefix=TILE
// RUN: neuron-opt %s --split-input-file --verify-diagnostics -p 'convert-hlo-to-bir{dve-channels=16}' | filecheck %s --check-prefix=BCAST
// RUN: neuron-opt %s --split-input-file --verify-diagnostics -p 'convert-hlo-to-bir{use-gpsimd-dma=true}' | filecheck %s --check-prefix=GPSIMD
// RUN: neuron-opt %s --split-input-file --verify-diagnostics -p 'convert-hlo-to-bir{implicit=false}' | filecheck %s --check-prefix=EXPLICIT
// RUN: not neuron-opt %s -p 'convert-hlo-to-bir{dve-channels=-1}' 2>&1 | filecheck %s --check-prefix=DVE

// convert-hlo-to-bir, issue 19: the kinds beyond one hlo op -> one node (PermuteReduce,
// the implicit permutes, SendRecvCCE, AllToAllV, tuple all_to_all, variadic all_gather /
// reduce_scatter, BroadcastPartition) and the SendRecv fields. The TILE run is the tiled form
// (TiledCollectivePermuteReduce: one pattern per tile, ring channel_id); the BCAST, GPSIMD and
// EXPLICIT runs set the options dve-channels, use-gpsimd-dma and implicit=false.

// DVE: error: convert-hlo-to-bir: dve-channels must be >= 0, got -1

// PermuteReduce: a non-local permute whose only use is add / multiply / maximum / minimum with a
// local value (either operand order) is ONE node: the sent buffer, then the local one. The pairs
// [0 -> 1, 1 -> 2] are no ring (devices 2, 3 send nothing), so the chain stays explicit.
builtin.module attributes {hlo.num_partitions = 4 : i64} {
  func.func @permute_reduce(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
    %p0 = hlo.collective_permute %x pairs = [[0, 1], [1, 2]] channel_id = 1 : tensor<4xf32>
    %sum = hlo.add %p0, %y : tensor<4xf32>
    %p1 = hlo.collective_permute %x pairs = [[0, 1], [1, 2]] channel_id = 2 : tensor<4xf32>
    %prod = hlo.multiply %y, %p1 : tensor<4xf32>
    %p2 = hlo.collective_permute %x pairs = [[0, 1], [1, 2]] channel_id = 3 : tensor<4xf32>
    %hi = hlo.maximum %p2, %y : tensor<4xf32>
    %p3 = hlo.collective_permute %x pairs = [[0, 1], [1, 2]] channel_id = 4 : tensor<4xf32>
    %lo = hlo.minimum %y, %p3 : tensor<4xf32>
    func.return %sum, %prod, %hi, %lo : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  }
}

// CHECK-LABEL:   func.func @permute_reduce(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
// CHECK-NEXT:     %sum = bir.collective_compute PermuteReduce(%x, %y) op = add permute_chain = [[0, 1], [1, 2]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>, #bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %prod = bir.collective_compute PermuteReduce(%x, %y) op = mult permute_chain = [[0, 1], [1, 2]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>, #bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %hi = bir.collective_compute PermuteReduce(%x, %y) op = max permute_chain = [[0, 1], [1, 2]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>, #bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %lo = bir.collective_compute PermuteReduce(%x, %y) op = min permute_chain = [[0, 1], [1, 2]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>, #bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     func.return %sum, %prod, %hi, %lo : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT:   }

// TILE-LABEL:   func.func @permute_reduce(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
// TILE-NEXT:     %sum = bir.collective_compute PermuteReduce(%x, %y) op = add permute_chain = [[0, 1], [1, 2]] stream_id = 0 channel_id = 2 tiled input_aps = [#bir.ap<0, [[1, 2]]>, #bir.ap<2, [[1, 2]]>, #bir.ap<0, [[1, 2]]>, #bir.ap<2, [[1, 2]]>] output_aps = [#bir.ap<0, [[1, 2]]>, #bir.ap<2, [[1, 2]]>] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// TILE-NEXT:     %prod = bir.collective_compute PermuteReduce(%x, %y) op = mult permute_chain = [[0, 1], [1, 2]] stream_id = 0 channel_id = 2 tiled input_aps = [#bir.ap<0, [[1, 2]]>, #bir.ap<2, [[1, 2]]>, #bir.ap<0, [[1, 2]]>, #bir.ap<2, [[1, 2]]>] output_aps = [#bir.ap<0, [[1, 2]]>, #bir.ap<2, [[1, 2]]>] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// TILE-NEXT:     %hi = bir.collective_compute PermuteReduce(%x, %y) op = max permute_chain = [[0, 1], [1, 2]] stream_id = 0 channel_id = 2 tiled input_aps = [#bir.ap<0, [[1, 2]]>, #bir.ap<2, [[1, 2]]>, #bir.ap<0, [[1, 2]]>, #bir.ap<2, [[1, 2]]>] output_aps = [#bir.ap<0, [[1, 2]]>, #bir.ap<2, [[1, 2]]>] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// TILE-NEXT:     %lo = bir.collective_compute PermuteReduce(%x, %y) op = min permute_chain = [[0, 1], [1, 2]] stream_id = 0 channel_id = 2 tiled input_aps = [#bir.ap<0, [[1, 2]]>, #bir.ap<2, [[1, 2]]>, #bir.ap<0, [[1, 2]]>, #bir.ap<2, [[1, 2]]>] output_aps = [#bir.ap<0, [[1, 2]]>, #bir.ap<2, [[1, 2]]>] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// TILE-NEXT:     func.return %sum, %prod, %hi, %lo : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
// TILE-NEXT:   }

// -----

// A ring shift by one fused with an add is PermuteReduceImplicit (no op: it always adds, no
// chain: the rings in ring order); with maximum it stays PermuteReduce with its chain (the
// implicit kind has no operator). The local value may be computed (%z).
builtin.module attributes {hlo.num_partitions = 4 : i64} {
  func.func @permute_reduce_ring(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
    %z = hlo.multiply %x, %x : tensor<2x3xf32>
    %p0 = hlo.collective_permute %x pairs = [[0, 1], [1, 2], [2, 3], [3, 0]] channel_id = 1 : tensor<2x3xf32>
    %acc = hlo.add %z, %p0 : tensor<2x3xf32>
    %p1 = hlo.collective_permute %x pairs = [[0, 1], [1, 2], [2, 3], [3, 0]] channel_id = 2 : tensor<2x3xf32>
    %hi = hlo.maximum %p1, %z : tensor<2x3xf32>
    func.return %acc, %hi : tensor<2x3xf32>, tensor<2x3xf32>
  }
}

// CHECK-LABEL:   func.func @permute_reduce_ring(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
// CHECK-NEXT:     %z = hlo.multiply %x, %x : tensor<2x3xf32>
// CHECK-NEXT:     %acc = bir.collective_compute PermuteReduceImplicit(%x, %z) replica_groups = [[0, 1, 2, 3]] stream_id = 0 input_aps = [#bir.ap<0, [[3, 2], [1, 3]]>, #bir.ap<0, [[3, 2], [1, 3]]>] output_aps = [#bir.ap<0, [[3, 2], [1, 3]]>] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:     %hi = bir.collective_compute PermuteReduce(%x, %z) op = max permute_chain = [[0, 1], [1, 2], [2, 3], [3, 0]] stream_id = 0 input_aps = [#bir.ap<0, [[3, 2], [1, 3]]>, #bir.ap<0, [[3, 2], [1, 3]]>] output_aps = [#bir.ap<0, [[3, 2], [1, 3]]>] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:     func.return %acc, %hi : tensor<2x3xf32>, tensor<2x3xf32>
// CHECK-NEXT:   }

// TILE-LABEL:   func.func @permute_reduce_ring(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
// TILE-NEXT:     %z = hlo.multiply %x, %x : tensor<2x3xf32>
// TILE-NEXT:     %acc = bir.collective_compute PermuteReduceImplicit(%x, %z) replica_groups = [[0, 1, 2, 3]] stream_id = 0 channel_id = 2 tiled input_aps = [#bir.ap<0, [[3, 1], [1, 3]]>, #bir.ap<3, [[3, 1], [1, 3]]>, #bir.ap<0, [[3, 1], [1, 3]]>, #bir.ap<3, [[3, 1], [1, 3]]>] output_aps = [#bir.ap<0, [[3, 1], [1, 3]]>, #bir.ap<3, [[3, 1], [1, 3]]>] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// TILE-NEXT:     %hi = bir.collective_compute PermuteReduce(%x, %z) op = max permute_chain = [[0, 1], [1, 2], [2, 3], [3, 0]] stream_id = 0 channel_id = 2 tiled input_aps = [#bir.ap<0, [[3, 1], [1, 3]]>, #bir.ap<3, [[3, 1], [1, 3]]>, #bir.ap<0, [[3, 1], [1, 3]]>, #bir.ap<3, [[3, 1], [1, 3]]>] output_aps = [#bir.ap<0, [[3, 1], [1, 3]]>, #bir.ap<3, [[3, 1], [1, 3]]>] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// TILE-NEXT:     func.return %acc, %hi : tensor<2x3xf32>, tensor<2x3xf32>
// TILE-NEXT:   }

// EXPLICIT-LABEL:   func.func @permute_reduce_ring(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
// EXPLICIT-NEXT:     %z = hlo.multiply %x, %x : tensor<2x3xf32>
// EXPLICIT-NEXT:     %acc = bir.collective_compute PermuteReduce(%x, %z) op = add permute_chain = [[0, 1], [1, 2], [2, 3], [3, 0]] stream_id = 0 input_aps = [#bir.ap<0, [[3, 2], [1, 3]]>, #bir.ap<0, [[3, 2], [1, 3]]>] output_aps = [#bir.ap<0, [[3, 2], [1, 3]]>] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// EXPLICIT-NEXT:     %hi = bir.collective_compute PermuteReduce(%x, %z) op = max permute_chain = [[0, 1], [1, 2], [2, 3], [3, 0]] stream_id = 0 input_aps = [#bir.ap<0, [[3, 2], [1, 3]]>, #bir.ap<0, [[3, 2], [1, 3]]>] output_aps = [#bir.ap<0, [[3, 2], [1, 3]]>] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// EXPLICIT-NEXT:     func.return %acc, %hi : tensor<2x3xf32>, tensor<2x3xf32>
// EXPLICIT-NEXT:   }

// -----

// Not fused: the permute has a second use; a subtract; predicates (add is "or" there); the
// permute outside the while body its user is in. Each permute is then a plain node.
builtin.module attributes {hlo.num_partitions = 2 : i64} {
  func.func @permute_reduce_not_fused(%x: tensor<4xf32>, %b: tensor<4xi1>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi1>, tensor<4xf32>) {
    %p0 = hlo.collective_permute %x pairs = [[0, 1]] channel_id = 1 : tensor<4xf32>
    %twice = hlo.add %p0, %x : tensor<4xf32>
    %p1 = hlo.collective_permute %x pairs = [[0, 1]] channel_id = 2 : tensor<4xf32>
    %diff = hlo.subtract %p1, %x : tensor<4xf32>
    %p2 = hlo.collective_permute %b pairs = [[0, 1]] channel_id = 3 : tensor<4xi1>
    %or = hlo.add %p2, %b : tensor<4xi1>
    %p3 = hlo.collective_permute %x pairs = [[0, 1]] channel_id = 4 : tensor<4xf32>
    %w = hlo.while(%x) : tensor<4xf32> condition {
    ^bb0(%c: tensor<4xf32>):
      %f = hlo.constant dense<false> : tensor<i1>
      hlo.return %f : tensor<i1>
    } body {
    ^bb0(%c2: tensor<4xf32>):
      %n = hlo.add %c2, %p3 : tensor<4xf32>
      hlo.return %n : tensor<4xf32>
    }
    func.return %twice, %p0, %diff, %or, %w : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi1>, tensor<4xf32>
  }
}

// CHECK-LABEL:   func.func @permute_reduce_not_fused(%x: tensor<4xf32>, %b: tensor<4xi1>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi1>, tensor<4xf32>) {
// CHECK-NEXT:     %p0 = bir.collective_compute Permute(%x) permute_chain = [[0, 1]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %twice = hlo.add %p0, %x : tensor<4xf32>
// CHECK-NEXT:     %p1 = bir.collective_compute Permute(%x) permute_chain = [[0, 1]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %diff = hlo.subtract %p1, %x : tensor<4xf32>
// CHECK-NEXT:     %p2 = bir.collective_compute Permute(%b) permute_chain = [[0, 1]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xi1>) -> tensor<4xi1>
// CHECK-NEXT:     %or = hlo.add %p2, %b : tensor<4xi1>
// CHECK-NEXT:     %p3 = bir.collective_compute Permute(%x) permute_chain = [[0, 1]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %w = hlo.while(%x) : tensor<4xf32> condition {
// CHECK-NEXT:     ^bb0(%c: tensor<4xf32>):
// CHECK-NEXT:       %f = hlo.constant dense<false> : tensor<i1>
// CHECK-NEXT:       hlo.return %f : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%c2: tensor<4xf32>):
// CHECK-NEXT:       %n = hlo.add %c2, %p3 : tensor<4xf32>
// CHECK-NEXT:       hlo.return %n : tensor<4xf32>
// CHECK-NEXT:     }
// CHECK-NEXT:     func.return %twice, %p0, %diff, %or, %w : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi1>, tensor<4xf32>
// CHECK-NEXT:   }

// -----

// Implicit permutes: a ring shift by one along equal groups covering every device. Shift +1 over
// all devices; two rings of two (cross-partition ids in every replica); shift -1, whose ring
// order is the reversed one; and explicit chains: not every device (%part), rings of two sizes
// (%mixed), a device sending to itself (%self).
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  func.func @implicit_permutes(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
    %up = hlo.collective_permute %x pairs = [[0, 1], [1, 0]] : tensor<4xf32>
    %pairs = hlo.collective_permute %x pairs = [[0, 1], [1, 0], [2, 3], [3, 2]] channel_id = 1 : tensor<4xf32>
    %down = hlo.collective_permute %x pairs = [[0, 3], [1, 0], [2, 1], [3, 2]] channel_id = 2 : tensor<4xf32>
    %ring = hlo.collective_permute %x pairs = [[0, 1], [1, 2], [2, 3], [3, 0]] channel_id = 3 : tensor<4xf32>
    %part = hlo.collective_permute %x pairs = [[0, 1], [1, 2], [2, 0]] channel_id = 4 : tensor<4xf32>
    %mixed = hlo.collective_permute %x pairs = [[0, 1], [1, 0], [2, 2], [3, 3]] channel_id = 5 : tensor<4xf32>
    %self = hlo.collective_permute %x pairs = [[0, 0], [1, 1], [2, 2], [3, 3]] channel_id = 6 : tensor<4xf32>
    func.return %up, %pairs, %down, %ring, %part, %mixed, %self : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  }
}

// CHECK-LABEL:   func.func @implicit_permutes(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
// CHECK-NEXT:     %up = bir.collective_compute PermuteImplicit(%x) replica_groups = [[0, 4], [1, 5], [2, 6], [3, 7]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %pairs = bir.collective_compute PermuteImplicit(%x) replica_groups = [[0, 1], [2, 3], [4, 5], [6, 7]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %down = bir.collective_compute PermuteImplicit(%x) replica_groups = [[0, 3, 2, 1], [4, 7, 6, 5]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %ring = bir.collective_compute PermuteImplicit(%x) replica_groups = [[0, 1, 2, 3], [4, 5, 6, 7]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %part = bir.collective_compute Permute(%x) permute_chain = [[0, 1], [1, 2], [2, 0], [4, 5], [5, 6], [6, 4]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %mixed = bir.collective_compute Permute(%x) permute_chain = [[0, 1], [1, 0], [2, 2], [3, 3], [4, 5], [5, 4], [6, 6], [7, 7]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %self = bir.collective_compute Permute(%x) permute_chain = [[0, 0], [1, 1], [2, 2], [3, 3], [4, 4], [5, 5], [6, 6], [7, 7]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     func.return %up, %pairs, %down, %ring, %part, %mixed, %self : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT:   }

// TILE-LABEL:   func.func @implicit_permutes(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
// TILE-NEXT:     %up = bir.collective_compute PermuteImplicit(%x) replica_groups = [[0, 4], [1, 5], [2, 6], [3, 7]] stream_id = 0 channel_id = 2 tiled input_aps = [#bir.ap<0, [[1, 2]]>, #bir.ap<2, [[1, 2]]>] output_aps = [#bir.ap<0, [[1, 2]]>, #bir.ap<2, [[1, 2]]>] : (tensor<4xf32>) -> tensor<4xf32>
// TILE-NEXT:     %pairs = bir.collective_compute PermuteImplicit(%x) replica_groups = [[0, 1], [2, 3], [4, 5], [6, 7]] stream_id = 0 channel_id = 2 tiled input_aps = [#bir.ap<0, [[1, 2]]>, #bir.ap<2, [[1, 2]]>] output_aps = [#bir.ap<0, [[1, 2]]>, #bir.ap<2, [[1, 2]]>] : (tensor<4xf32>) -> tensor<4xf32>
// TILE-NEXT:     %down = bir.collective_compute PermuteImplicit(%x) replica_groups = [[0, 3, 2, 1], [4, 7, 6, 5]] stream_id = 0 channel_id = 2 tiled input_aps = [#bir.ap<0, [[1, 2]]>, #bir.ap<2, [[1, 2]]>] output_aps = [#bir.ap<0, [[1, 2]]>, #bir.ap<2, [[1, 2]]>] : (tensor<4xf32>) -> tensor<4xf32>
// TILE-NEXT:     %ring = bir.collective_compute PermuteImplicit(%x) replica_groups = [[0, 1, 2, 3], [4, 5, 6, 7]] stream_id = 0 channel_id = 2 tiled input_aps = [#bir.ap<0, [[1, 2]]>, #bir.ap<2, [[1, 2]]>] output_aps = [#bir.ap<0, [[1, 2]]>, #bir.ap<2, [[1, 2]]>] : (tensor<4xf32>) -> tensor<4xf32>
// TILE-NEXT:     %part = bir.collective_compute Permute(%x) permute_chain = [[0, 1], [1, 2], [2, 0], [4, 5], [5, 6], [6, 4]] stream_id = 0 channel_id = 2 tiled input_aps = [#bir.ap<0, [[1, 2]]>, #bir.ap<2, [[1, 2]]>] output_aps = [#bir.ap<0, [[1, 2]]>, #bir.ap<2, [[1, 2]]>] : (tensor<4xf32>) -> tensor<4xf32>
// TILE-NEXT:     %mixed = bir.collective_compute Permute(%x) permute_chain = [[0, 1], [1, 0], [2, 2], [3, 3], [4, 5], [5, 4], [6, 6], [7, 7]] stream_id = 0 channel_id = 2 tiled input_aps = [#bir.ap<0, [[1, 2]]>, #bir.ap<2, [[1, 2]]>] output_aps = [#bir.ap<0, [[1, 2]]>, #bir.ap<2, [[1, 2]]>] : (tensor<4xf32>) -> tensor<4xf32>
// TILE-NEXT:     %self = bir.collective_compute Permute(%x) permute_chain = [[0, 0], [1, 1], [2, 2], [3, 3], [4, 4], [5, 5], [6, 6], [7, 7]] stream_id = 0 channel_id = 2 tiled input_aps = [#bir.ap<0, [[1, 2]]>, #bir.ap<2, [[1, 2]]>] output_aps = [#bir.ap<0, [[1, 2]]>, #bir.ap<2, [[1, 2]]>] : (tensor<4xf32>) -> tensor<4xf32>
// TILE-NEXT:     func.return %up, %pairs, %down, %ring, %part, %mixed, %self : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
// TILE-NEXT:   }

// EXPLICIT-LABEL:   func.func @implicit_permutes(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
// EXPLICIT-NEXT:     %up = bir.collective_compute Permute(%x) permute_chain = [[0, 4], [4, 0], [1, 5], [5, 1], [2, 6], [6, 2], [3, 7], [7, 3]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
// EXPLICIT-NEXT:     %pairs = bir.collective_compute Permute(%x) permute_chain = [[0, 1], [1, 0], [2, 3], [3, 2], [4, 5], [5, 4], [6, 7], [7, 6]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
// EXPLICIT-NEXT:     %down = bir.collective_compute Permute(%x) permute_chain = [[0, 3], [1, 0], [2, 1], [3, 2], [4, 7], [5, 4], [6, 5], [7, 6]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
// EXPLICIT-NEXT:     %ring = bir.collective_compute Permute(%x) permute_chain = [[0, 1], [1, 2], [2, 3], [3, 0], [4, 5], [5, 6], [6, 7], [7, 4]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
// EXPLICIT-NEXT:     %part = bir.collective_compute Permute(%x) permute_chain = [[0, 1], [1, 2], [2, 0], [4, 5], [5, 6], [6, 4]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
// EXPLICIT-NEXT:     %mixed = bir.collective_compute Permute(%x) permute_chain = [[0, 1], [1, 0], [2, 2], [3, 3], [4, 5], [5, 4], [6, 6], [7, 7]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
// EXPLICIT-NEXT:     %self = bir.collective_compute Permute(%x) permute_chain = [[0, 0], [1, 1], [2, 2], [3, 3], [4, 4], [5, 5], [6, 6], [7, 7]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
// EXPLICIT-NEXT:     func.return %up, %pairs, %down, %ring, %part, %mixed, %self : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
// EXPLICIT-NEXT:   }

// -----

// SendRecvCCE: a chain of one op over `local` permutes of one source (and the source itself),
// one node with (receiver, source) pairs in term order; s = r is the receiver's own value. The
// barrier ids start above every CoreBarrier's.
builtin.module attributes {hlo.num_partitions = 4 : i64} {
  func.func @send_recv_cce(%x: tensor<4xf32>, %s: tensor<1xi32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<1xi32>) {
    %b = hlo.custom_call "CoreBarrier"(%s) side_effect {cores = #hlo.dims<[0, 1, 2, 3]>, barrier_id = 5 : i64} : (tensor<1xi32>) -> tensor<1xi32>
    %l1 = hlo.collective_permute %x pairs = [[1, 0], [2, 1], [3, 2], [0, 3]] channel_id = 1 {bir.local} : tensor<4xf32>
    %l2 = hlo.collective_permute %x pairs = [[2, 0], [3, 1], [0, 2], [1, 3]] channel_id = 2 {bir.local} : tensor<4xf32>
    %two = hlo.add %l1, %l2 : tensor<4xf32>
    %m1 = hlo.collective_permute %x pairs = [[1, 0], [2, 1], [3, 2], [0, 3]] channel_id = 3 {bir.local} : tensor<4xf32>
    %m2 = hlo.collective_permute %x pairs = [[2, 0], [3, 1], [0, 2], [1, 3]] channel_id = 4 {bir.local} : tensor<4xf32>
    %own = hlo.maximum %x, %m1 : tensor<4xf32>
    %three = hlo.maximum %m2, %own : tensor<4xf32>
    func.return %two, %three, %b : tensor<4xf32>, tensor<4xf32>, tensor<1xi32>
  }
}

// CHECK-LABEL:   func.func @send_recv_cce(%x: tensor<4xf32>, %s: tensor<1xi32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<1xi32>) {
// CHECK-NEXT:     %b = bir.core_barrier %s cores = [0, 1, 2, 3] cb_id = 5 input_aps = [#bir.ap<0, [[1, 1]]>] output_aps = [#bir.ap<0, [[1, 1]]>] : tensor<1xi32>
// CHECK-NEXT:     %two = bir.collective_compute SendRecvCCE(%x) op = add recv_from_ranks = [[0, 1], [0, 2], [1, 2], [1, 3], [2, 3], [2, 0], [3, 0], [3, 1]] barrier_id = 6 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %three = bir.collective_compute SendRecvCCE(%x) op = max recv_from_ranks = [[0, 0], [0, 1], [0, 2], [1, 1], [1, 2], [1, 3], [2, 2], [2, 3], [2, 0], [3, 3], [3, 0], [3, 1]] barrier_id = 7 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     func.return %two, %three, %b : tensor<4xf32>, tensor<4xf32>, tensor<1xi32>
// CHECK-NEXT:   }

// TILE-LABEL:   func.func @send_recv_cce(%x: tensor<4xf32>, %s: tensor<1xi32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<1xi32>) {
// TILE-NEXT:     %b = bir.core_barrier %s cores = [0, 1, 2, 3] cb_id = 5 input_aps = [#bir.ap<0, [[1, 1]]>] output_aps = [#bir.ap<0, [[1, 1]]>] : tensor<1xi32>
// TILE-NEXT:     %two = bir.collective_compute SendRecvCCE(%x) op = add recv_from_ranks = [[0, 1], [0, 2], [1, 2], [1, 3], [2, 3], [2, 0], [3, 0], [3, 1]] barrier_id = 6 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
// TILE-NEXT:     %three = bir.collective_compute SendRecvCCE(%x) op = max recv_from_ranks = [[0, 0], [0, 1], [0, 2], [1, 1], [1, 2], [1, 3], [2, 2], [2, 3], [2, 0], [3, 3], [3, 0], [3, 1]] barrier_id = 7 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
// TILE-NEXT:     func.return %two, %three, %b : tensor<4xf32>, tensor<4xf32>, tensor<1xi32>
// TILE-NEXT:   }

// -----

// SendRecvCCE stops where the node could not express the chain: a term reaching other receivers
// (%l3 reaches only device 0: the chain %pair is fused, %wide stays an add); a bf16 chain stops at
// two terms (hlo rounds after every add); one local permute alone is a SendRecv.
builtin.module attributes {hlo.num_partitions = 2 : i64} {
  func.func @send_recv_cce_limits(%x: tensor<4xf32>, %h: tensor<4xbf16>) -> (tensor<4xf32>, tensor<4xbf16>, tensor<4xf32>) {
    %l1 = hlo.collective_permute %x pairs = [[0, 1], [1, 0]] channel_id = 1 {bir.local} : tensor<4xf32>
    %l2 = hlo.collective_permute %x pairs = [[0, 0], [1, 1]] channel_id = 2 {bir.local} : tensor<4xf32>
    %l3 = hlo.collective_permute %x pairs = [[1, 0]] channel_id = 3 {bir.local} : tensor<4xf32>
    %pair = hlo.add %l1, %l2 : tensor<4xf32>
    %wide = hlo.add %pair, %l3 : tensor<4xf32>
    %h1 = hlo.collective_permute %h pairs = [[0, 1], [1, 0]] channel_id = 4 {bir.local} : tensor<4xbf16>
    %h2 = hlo.collective_permute %h pairs = [[0, 0], [1, 1]] channel_id = 5 {bir.local} : tensor<4xbf16>
    %hs = hlo.add %h1, %h2 : tensor<4xbf16>
    %hs3 = hlo.add %hs, %h : tensor<4xbf16>
    %one = hlo.collective_permute %x pairs = [[0, 1], [1, 0]] channel_id = 6 {bir.local} : tensor<4xf32>
    %single = hlo.add %one, %x : tensor<4xf32>
    func.return %wide, %hs3, %single : tensor<4xf32>, tensor<4xbf16>, tensor<4xf32>
  }
}

// CHECK-LABEL:   func.func @send_recv_cce_limits(%x: tensor<4xf32>, %h: tensor<4xbf16>) -> (tensor<4xf32>, tensor<4xbf16>, tensor<4xf32>) {
// CHECK-NEXT:     %l3 = bir.collective_compute SendRecv(%x) recv_from_rank = [1, -1] send_to_rank = [-1, 0] local initial_core_barrier input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %pair = bir.collective_compute SendRecvCCE(%x) op = add recv_from_ranks = [[0, 1], [0, 0], [1, 0], [1, 1]] barrier_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %wide = hlo.add %pair, %l3 : tensor<4xf32>
// CHECK-NEXT:     %hs = bir.collective_compute SendRecvCCE(%h) op = add recv_from_ranks = [[0, 1], [0, 0], [1, 0], [1, 1]] barrier_id = 1 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xbf16>) -> tensor<4xbf16>
// CHECK-NEXT:     %hs3 = hlo.add %hs, %h : tensor<4xbf16>
// CHECK-NEXT:     %one = bir.collective_compute SendRecv(%x) recv_from_rank = [1, 0] send_to_rank = [1, 0] local initial_core_barrier input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %single = hlo.add %one, %x : tensor<4xf32>
// CHECK-NEXT:     func.return %wide, %hs3, %single : tensor<4xf32>, tensor<4xbf16>, tensor<4xf32>
// CHECK-NEXT:   }

// -----

// AllToAllV from ragged_all_to_all: the data and the initial output in, the constant offsets and
// sizes as the node's fields (peer-major, 2 peers x 1 update; a splat constant is expanded),
// row-major patterns, never tiled.
builtin.module attributes {hlo.num_partitions = 2 : i64} {
  func.func @all_to_all_v(%x: tensor<6x2xf32>, %o: tensor<5x2xf32>) -> (tensor<5x2xf32>, tensor<5x2xf32>) {
    %io = hlo.constant dense<[0, 2]> : tensor<2xi32>
    %ss = hlo.constant dense<[2, 3]> : tensor<2xi32>
    %oo = hlo.constant dense<[0, 2]> : tensor<2xi32>
    %rs = hlo.constant dense<[2, 3]> : tensor<2xi32>
    %r = hlo.ragged_all_to_all %x, %o, %io, %ss, %oo, %rs replica_groups = [[0, 1]] channel_id = 1 : (tensor<6x2xf32>, tensor<5x2xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<5x2xf32>
    %one = hlo.constant dense<1> : tensor<2xi32>
    %r1 = hlo.ragged_all_to_all %x, %o, %one, %one, %one, %one replica_groups = [[0, 1]] channel_id = 2 : (tensor<6x2xf32>, tensor<5x2xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<5x2xf32>
    func.return %r, %r1 : tensor<5x2xf32>, tensor<5x2xf32>
  }
}

// CHECK-LABEL:   func.func @all_to_all_v(%x: tensor<6x2xf32>, %o: tensor<5x2xf32>) -> (tensor<5x2xf32>, tensor<5x2xf32>) {
// CHECK-NEXT:     %io = hlo.constant dense<[0, 2]> : tensor<2xi32>
// CHECK-NEXT:     %ss = hlo.constant dense<[2, 3]> : tensor<2xi32>
// CHECK-NEXT:     %oo = hlo.constant dense<[0, 2]> : tensor<2xi32>
// CHECK-NEXT:     %rs = hlo.constant dense<[2, 3]> : tensor<2xi32>
// CHECK-NEXT:     %r = bir.collective_compute AllToAllV(%x, %o) replica_groups = [[0, 1]] stream_id = 0 input_offsets = [0, 2] send_sizes = [2, 3] output_offsets = [0, 2] recv_sizes = [2, 3] input_aps = [#bir.ap<0, [[2, 6], [1, 2]]>, #bir.ap<0, [[2, 5], [1, 2]]>] output_aps = [#bir.ap<0, [[2, 5], [1, 2]]>] : (tensor<6x2xf32>, tensor<5x2xf32>) -> tensor<5x2xf32>
// CHECK-NEXT:     %one = hlo.constant dense<1> : tensor<2xi32>
// CHECK-NEXT:     %r1 = bir.collective_compute AllToAllV(%x, %o) replica_groups = [[0, 1]] stream_id = 0 input_offsets = [1, 1] send_sizes = [1, 1] output_offsets = [1, 1] recv_sizes = [1, 1] input_aps = [#bir.ap<0, [[2, 6], [1, 2]]>, #bir.ap<0, [[2, 5], [1, 2]]>] output_aps = [#bir.ap<0, [[2, 5], [1, 2]]>] : (tensor<6x2xf32>, tensor<5x2xf32>) -> tensor<5x2xf32>
// CHECK-NEXT:     func.return %r, %r1 : tensor<5x2xf32>, tensor<5x2xf32>
// CHECK-NEXT:   }

// TILE-LABEL:   func.func @all_to_all_v(%x: tensor<6x2xf32>, %o: tensor<5x2xf32>) -> (tensor<5x2xf32>, tensor<5x2xf32>) {
// TILE-NEXT:     %io = hlo.constant dense<[0, 2]> : tensor<2xi32>
// TILE-NEXT:     %ss = hlo.constant dense<[2, 3]> : tensor<2xi32>
// TILE-NEXT:     %oo = hlo.constant dense<[0, 2]> : tensor<2xi32>
// TILE-NEXT:     %rs = hlo.constant dense<[2, 3]> : tensor<2xi32>
// TILE-NEXT:     %r = bir.collective_compute AllToAllV(%x, %o) replica_groups = [[0, 1]] stream_id = 0 input_offsets = [0, 2] send_sizes = [2, 3] output_offsets = [0, 2] recv_sizes = [2, 3] input_aps = [#bir.ap<0, [[2, 6], [1, 2]]>, #bir.ap<0, [[2, 5], [1, 2]]>] output_aps = [#bir.ap<0, [[2, 5], [1, 2]]>] : (tensor<6x2xf32>, tensor<5x2xf32>) -> tensor<5x2xf32>
// TILE-NEXT:     %one = hlo.constant dense<1> : tensor<2xi32>
// TILE-NEXT:     %r1 = bir.collective_compute AllToAllV(%x, %o) replica_groups = [[0, 1]] stream_id = 0 input_offsets = [1, 1] send_sizes = [1, 1] output_offsets = [1, 1] recv_sizes = [1, 1] input_aps = [#bir.ap<0, [[2, 6], [1, 2]]>, #bir.ap<0, [[2, 5], [1, 2]]>] output_aps = [#bir.ap<0, [[2, 5], [1, 2]]>] : (tensor<6x2xf32>, tensor<5x2xf32>) -> tensor<5x2xf32>
// TILE-NEXT:     func.return %r, %r1 : tensor<5x2xf32>, tensor<5x2xf32>
// TILE-NEXT:   }

// -----

// Tuple-form all_to_all: operand j to rank j, stacked into one array-form AllToAll over a new
// dimension 0 (reshape, concatenate, one node, slice, reshape).
builtin.module attributes {hlo.num_partitions = 2 : i64} {
  func.func @tuple_all_to_all(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>> {
    %t = hlo.all_to_all(%x, %y) replica_groups = [[0, 1]] channel_id = 1 : (tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
    func.return %t : tuple<tensor<4xf32>, tensor<4xf32>>
  }
}

// CHECK-LABEL:   func.func @tuple_all_to_all(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>> {
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.reshape %x : (tensor<4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.reshape %y : (tensor<4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.concatenate([[V0]], [[V1]]) dim = 0 : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:     [[V3:%[0-9]+]] = bir.collective_compute AllToAll([[V2]]) replica_groups = [[0, 1]] stream_id = 0 split_count = 2 input_aps = [#bir.ap<0, [[4, 2], [4, 1], [1, 4]]>] output_aps = [#bir.ap<0, [[4, 2], [4, 1], [1, 4]]>] : (tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.slice [[V3]], start = [0, 0], limit = [1, 4], strides = [1, 1] : (tensor<2x4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT:     [[V5:%[0-9]+]] = hlo.reshape [[V4]] : (tensor<1x4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     [[V6:%[0-9]+]] = hlo.slice [[V3]], start = [1, 0], limit = [2, 4], strides = [1, 1] : (tensor<2x4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT:     [[V7:%[0-9]+]] = hlo.reshape [[V6]] : (tensor<1x4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %t = hlo.tuple [[V5]], [[V7]] : tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     func.return %t : tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:   }

// -----

// Variadic all_gather / reduce_scatter (the combiners' output): ONE node, one access pattern per
// buffer, each chunked over its own dimension.
builtin.module attributes {hlo.num_partitions = 2 : i64} {
  func.func @variadic_gather_scatter(%x: tensor<2x3xf32>, %y: tensor<4xf32>) -> (tuple<tensor<4x3xf32>, tensor<8xf32>>, tuple<tensor<1x3xf32>, tensor<2xf32>>) {
    %g = hlo.all_gather(%x, %y) dim = 0 replica_groups = [[0, 1]] channel_id = 1 use_global_device_ids : (tensor<2x3xf32>, tensor<4xf32>) -> tuple<tensor<4x3xf32>, tensor<8xf32>>
    %s = hlo.reduce_scatter(%x, %y) dim = 0 replica_groups = [[0, 1]] channel_id = 2 use_global_device_ids {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<2x3xf32>, tensor<4xf32>) -> tuple<tensor<1x3xf32>, tensor<2xf32>>
    func.return %g, %s : tuple<tensor<4x3xf32>, tensor<8xf32>>, tuple<tensor<1x3xf32>, tensor<2xf32>>
  }
}

// CHECK-LABEL:   func.func @variadic_gather_scatter(%x: tensor<2x3xf32>, %y: tensor<4xf32>) -> (tuple<tensor<4x3xf32>, tensor<8xf32>>, tuple<tensor<1x3xf32>, tensor<2xf32>>) {
// CHECK-NEXT:     [[V0:%[0-9]+]], [[V1:%[0-9]+]] = bir.collective_compute AllGather(%x, %y) replica_groups = [[0, 1]] cc_type_hint = None stream_id = 0 input_aps = [#bir.ap<0, [[3, 2], [1, 3]]>, #bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[6, 2], [3, 2], [1, 3]]>, #bir.ap<0, [[4, 2], [1, 4]]>] : (tensor<2x3xf32>, tensor<4xf32>) -> (tensor<4x3xf32>, tensor<8xf32>)
// CHECK-NEXT:     %g = hlo.tuple [[V0]], [[V1]] : tuple<tensor<4x3xf32>, tensor<8xf32>>
// CHECK-NEXT:     [[V2:%[0-9]+]], [[V3:%[0-9]+]] = bir.collective_compute ReduceScatter(%x, %y) op = add replica_groups = [[0, 1]] cc_type_hint = None stream_id = 0 input_aps = [#bir.ap<0, [[3, 2], [3, 1], [1, 3]]>, #bir.ap<0, [[2, 2], [1, 2]]>] output_aps = [#bir.ap<0, [[3, 1], [1, 3]]>, #bir.ap<0, [[1, 2]]>] : (tensor<2x3xf32>, tensor<4xf32>) -> (tensor<1x3xf32>, tensor<2xf32>)
// CHECK-NEXT:     %s = hlo.tuple [[V2]], [[V3]] : tuple<tensor<1x3xf32>, tensor<2xf32>>
// CHECK-NEXT:     func.return %g, %s : tuple<tensor<4x3xf32>, tensor<8xf32>>, tuple<tensor<1x3xf32>, tensor<2xf32>>
// CHECK-NEXT:   }

// -----

// BroadcastPartition (BCAST run, dve-channels=16): a broadcast along a new outermost dimension
// of at most 16 partitions is one bir.broadcast_partition; 32 partitions or another shape stay
// hlo, as does every broadcast without the option (main run).
builtin.module attributes {hlo.num_partitions = 2 : i64} {
  func.func @broadcast_partition(%x: tensor<8xf32>, %s: tensor<f32>) -> (tensor<4x8xf32>, tensor<16xf32>, tensor<32x8xf32>, tensor<8x4xf32>) {
    %b4 = hlo.broadcast %x, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf32>
    %bs = hlo.broadcast %s, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %b32 = hlo.broadcast %x, dims = [1] : (tensor<8xf32>) -> tensor<32x8xf32>
    %inner = hlo.broadcast %x, dims = [0] : (tensor<8xf32>) -> tensor<8x4xf32>
    func.return %b4, %bs, %b32, %inner : tensor<4x8xf32>, tensor<16xf32>, tensor<32x8xf32>, tensor<8x4xf32>
  }
}

// CHECK-LABEL:   func.func @broadcast_partition(%x: tensor<8xf32>, %s: tensor<f32>) -> (tensor<4x8xf32>, tensor<16xf32>, tensor<32x8xf32>, tensor<8x4xf32>) {
// CHECK-NEXT:     %b4 = hlo.broadcast %x, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:     %bs = hlo.broadcast %s, dims = [] : (tensor<f32>) -> tensor<16xf32>
// CHECK-NEXT:     %b32 = hlo.broadcast %x, dims = [1] : (tensor<8xf32>) -> tensor<32x8xf32>
// CHECK-NEXT:     %inner = hlo.broadcast %x, dims = [0] : (tensor<8xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:     func.return %b4, %bs, %b32, %inner : tensor<4x8xf32>, tensor<16xf32>, tensor<32x8xf32>, tensor<8x4xf32>
// CHECK-NEXT:   }

// BCAST-LABEL:   func.func @broadcast_partition(%x: tensor<8xf32>, %s: tensor<f32>) -> (tensor<4x8xf32>, tensor<16xf32>, tensor<32x8xf32>, tensor<8x4xf32>) {
// BCAST-NEXT:     %b4 = bir.broadcast_partition %x partitions = 4 channels = 16 input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[8, 4], [1, 8]]>] : (tensor<8xf32>) -> tensor<4x8xf32>
// BCAST-NEXT:     %bs = bir.broadcast_partition %s partitions = 16 channels = 16 input_aps = [#bir.ap<0, [[1, 1]]>] output_aps = [#bir.ap<0, [[1, 16]]>] : (tensor<f32>) -> tensor<16xf32>
// BCAST-NEXT:     %b32 = hlo.broadcast %x, dims = [1] : (tensor<8xf32>) -> tensor<32x8xf32>
// BCAST-NEXT:     %inner = hlo.broadcast %x, dims = [0] : (tensor<8xf32>) -> tensor<8x4xf32>
// BCAST-NEXT:     func.return %b4, %bs, %b32, %inner : tensor<4x8xf32>, tensor<16xf32>, tensor<32x8xf32>, tensor<8x4xf32>
// BCAST-NEXT:   }

// -----

// SendRecv fields: pipe_id / dyn_pipe_id / use_gpsimd_dma from frontend or discardable
// attributes (GPSIMD run: use-gpsimd-dma=true sets it on every SendRecv).
builtin.module attributes {hlo.num_partitions = 2 : i64} {
  func.func @send_recv_fields(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %a = hlo.collective_permute %x pairs = [[0, 1], [1, 0]] channel_id = 1 {xla.frontend_attributes = "{local=\"true\",pipe_id=\"3\",dyn_pipe_id=\"1\",use_gpsimd_dma=\"true\"}"} : tensor<4xf32>
    %b = hlo.collective_permute %x pairs = [[0, 1]] channel_id = 2 {bir.local, pipe_id = 7 : i64} : tensor<4xf32>
    func.return %a, %b : tensor<4xf32>, tensor<4xf32>
  }
}

// CHECK-LABEL:   func.func @send_recv_fields(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
// CHECK-NEXT:     %a = bir.collective_compute SendRecv(%x) pipe_id = 3 dyn_pipe_id = 1 recv_from_rank = [1, 0] send_to_rank = [1, 0] local initial_core_barrier use_gpsimd_dma input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %b = bir.collective_compute SendRecv(%x) pipe_id = 7 recv_from_rank = [-1, 0] send_to_rank = [1, -1] local initial_core_barrier input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     func.return %a, %b : tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT:   }

// GPSIMD-LABEL:   func.func @send_recv_fields(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
// GPSIMD-NEXT:     %a = bir.collective_compute SendRecv(%x) pipe_id = 3 dyn_pipe_id = 1 recv_from_rank = [1, 0] send_to_rank = [1, 0] local initial_core_barrier use_gpsimd_dma input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
// GPSIMD-NEXT:     %b = bir.collective_compute SendRecv(%x) pipe_id = 7 recv_from_rank = [-1, 0] send_to_rank = [1, -1] local initial_core_barrier use_gpsimd_dma input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
// GPSIMD-NEXT:     func.return %a, %b : tensor<4xf32>, tensor<4xf32>
// GPSIMD-NEXT:   }

// -----

// Error: the ragged tables must be constants (a field is one value for every device).
builtin.module attributes {hlo.num_partitions = 2 : i64} {
  func.func @ragged_not_constant(%x: tensor<6x2xf32>, %o: tensor<5x2xf32>, %io: tensor<2xi32>) -> tensor<5x2xf32> {
    %ss = hlo.constant dense<[2, 3]> : tensor<2xi32>
    %r = hlo.ragged_all_to_all %x, %o, %io, %ss, %io, %ss replica_groups = [[0, 1]] channel_id = 1 : (tensor<6x2xf32>, tensor<5x2xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<5x2xf32>
    func.return %r : tensor<5x2xf32>
  }
}

// CHECK: convert-hlo-to-bir: %r: ragged_all_to_all input_offsets must be an hlo.constant to lower to AllToAllV (its entries become the node's fields), got a block argument

// -----

// Error: pipe_id is an integer.
builtin.module attributes {hlo.num_partitions = 2 : i64} {
  func.func @bad_pipe_id(%x: tensor<4xf32>) -> tensor<4xf32> {
    %a = hlo.collective_permute %x pairs = [[0, 1], [1, 0]] channel_id = 1 {xla.frontend_attributes = "{local=\"true\",pipe_id=\"fast\"}"} : tensor<4xf32>
    func.return %a : tensor<4xf32>
  }
}

// CHECK: convert-hlo-to-bir: %a: pipe_id must be an integer, got 'fast'
