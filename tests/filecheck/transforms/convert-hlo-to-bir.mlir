// RUN: neuron-opt %s --split-input-file --verify-diagnostics -p convert-hlo-to-bir | filecheck %s
// RUN: neuron-opt %s --split-input-file --verify-diagnostics -p 'convert-hlo-to-bir{tile-bytes=64 ring-channels=4}' | filecheck %s --check-prefix=TILE
// RUN: neuron-opt %s --split-input-file --verify-diagnostics -p 'convert-hlo-to-bir{tile-bytes=4096 ring-channels=2}' | filecheck %s
// RUN: not neuron-opt %s --split-input-file -p convert-hlo-to-bir 2>&1 | filecheck %s --check-prefix=ERR
// RUN: not neuron-opt %s -p 'convert-hlo-to-bir{ring-channels=3}' 2>&1 | filecheck %s --check-prefix=RING
// RUN: not neuron-opt %s -p 'convert-hlo-to-bir{tile-bytes=-1}' 2>&1 | filecheck %s --check-prefix=TILEBYTES

// convert-hlo-to-bir: each row of the lowering table, every group mode, the access-pattern
// geometry per collective and dimension, the tiled form (TILE) and every error path (the main
// run goes on past them thanks to --verify-diagnostics; ERR stops at the first with exit code 1).
// The third RUN shows that buffers below tile-bytes stay untiled (same output as the default).

// RING: error: convert-hlo-to-bir: ring-channels must be 1, 2 or 4, got 3
// TILEBYTES: error: convert-hlo-to-bir: tile-bytes must be >= 0, got -1
// ERR: error: convert-hlo-to-bir: %sub: cannot map the reduction region of 'hlo.all_reduce' (hlo.subtract) to an ALU op

// The four reducers: add -> add, multiply -> mult, maximum -> max, minimum -> min (operands in
// either order). Plain row-major access patterns, stream 0, no cc_type_hint.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @all_reduce_ops(%x: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>) {
    %add = hlo.all_reduce(%x) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %mult = hlo.all_reduce(%x) replica_groups = [[0, 1, 2, 3], [4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.multiply %b, %a : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %max = hlo.all_reduce(%x) replica_groups = [[0, 2, 4, 6], [1, 3, 5, 7]] channel_id = 3 use_global_device_ids {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.maximum %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %min = hlo.all_reduce(%x) replica_groups = [2,4]<=[4,2]T(1,0) channel_id = 4 use_global_device_ids {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.minimum %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<8x4xf32>) -> tensor<8x4xf32>
    func.return %add, %mult, %max, %min : tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>
  }
}

// CHECK-LABEL: func.func @all_reduce_ops(
// CHECK-NEXT:     %add = bir.collective_compute AllReduce(%x) op = add replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] stream_id = 0 input_aps = [#bir.ap<0, [[4, 8], [1, 4]]>] output_aps = [#bir.ap<0, [[4, 8], [1, 4]]>] : (tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:     %mult = bir.collective_compute AllReduce(%x) op = mult replica_groups = [[0, 1, 2, 3], [4, 5, 6, 7]] stream_id = 0 input_aps = [#bir.ap<0, [[4, 8], [1, 4]]>] output_aps = [#bir.ap<0, [[4, 8], [1, 4]]>] : (tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:     %max = bir.collective_compute AllReduce(%x) op = max replica_groups = [[0, 2, 4, 6], [1, 3, 5, 7]] stream_id = 0 input_aps = [#bir.ap<0, [[4, 8], [1, 4]]>] output_aps = [#bir.ap<0, [[4, 8], [1, 4]]>] : (tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:     %min = bir.collective_compute AllReduce(%x) op = min replica_groups = [[0, 2, 4, 6], [1, 3, 5, 7]] stream_id = 0 input_aps = [#bir.ap<0, [[4, 8], [1, 4]]>] output_aps = [#bir.ap<0, [[4, 8], [1, 4]]>] : (tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:     func.return %add, %mult, %max, %min : tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>
// CHECK-NEXT:   }

// -----

// Group modes on 2 replicas x 2 partitions: bir groups and chains hold FLATTENED ids r*P+p.
// cross_replica [[0, 1]] -> one group per partition; cross_replica_and_partition [[0, 1]] ->
// every partition of replicas 0 and 1; flattened_id as is. Permute pairs are replica ids
// without a channel (applied in each partition) and partition ids with one (in each replica).
builtin.module attributes {hlo.num_replicas = 2 : i64, hlo.num_partitions = 2 : i64} {
  func.func @modes(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
    %cr = hlo.all_reduce(%x) replica_groups = [[0, 1]] {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<4xf32>) -> tensor<4xf32>
    %crp = hlo.all_reduce(%x) replica_groups = [[0, 1]] channel_id = 1 {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<4xf32>) -> tensor<4xf32>
    %flat = hlo.all_reduce(%x) replica_groups = [[0, 3], [1, 2]] channel_id = 2 use_global_device_ids {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<4xf32>) -> tensor<4xf32>
    %pr = hlo.collective_permute %x pairs = [[0, 1]] : tensor<4xf32>
    %pp = hlo.collective_permute %x pairs = [[0, 1], [1, 0]] channel_id = 3 : tensor<4xf32>
    func.return %cr, %crp, %flat, %pr, %pp : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  }
}

// CHECK-LABEL: func.func @modes(
// CHECK-NEXT:     %cr = bir.collective_compute AllReduce(%x) op = add replica_groups = [[0, 2], [1, 3]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %crp = bir.collective_compute AllReduce(%x) op = add replica_groups = [[0, 1, 2, 3]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %flat = bir.collective_compute AllReduce(%x) op = add replica_groups = [[0, 3], [1, 2]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %pr = bir.collective_compute Permute(%x) permute_chain = [[0, 2], [1, 3]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %pp = bir.collective_compute PermuteImplicit(%x) replica_groups = [[0, 1], [2, 3]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     func.return %cr, %crp, %flat, %pr, %pp : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT:   }

// -----

// A variadic all_reduce: one output per buffer, re-tupled for the hlo users.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @variadic(%x: tensor<8x4xf32>, %y: tensor<3xi32>, %s: tensor<f32>) -> tuple<tensor<8x4xf32>, tensor<3xi32>> {
    %r = hlo.all_reduce(%x, %y) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<8x4xf32>, tensor<3xi32>) -> tuple<tensor<8x4xf32>, tensor<3xi32>>
    func.return %r : tuple<tensor<8x4xf32>, tensor<3xi32>>
  }
}

// CHECK-LABEL: func.func @variadic(
// CHECK-NEXT:     [[V0:%[0-9]+]], [[V1:%[0-9]+]] = bir.collective_compute AllReduce(%x, %y) op = add replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] stream_id = 0 input_aps = [#bir.ap<0, [[4, 8], [1, 4]]>, #bir.ap<0, [[1, 3]]>] output_aps = [#bir.ap<0, [[4, 8], [1, 4]]>, #bir.ap<0, [[1, 3]]>] : (tensor<8x4xf32>, tensor<3xi32>) -> (tensor<8x4xf32>, tensor<3xi32>)
// CHECK-NEXT:     %r = hlo.tuple [[V0]], [[V1]] : tuple<tensor<8x4xf32>, tensor<3xi32>>
// CHECK-NEXT:     func.return %r : tuple<tensor<8x4xf32>, tensor<3xi32>>
// CHECK-NEXT:   }

// -----

// reduce_scatter: the INPUT pattern has [chunk_stride, group size] outermost over the scatter
// dimension; cc_type_hint from the frontend attributes (tp -> TP / stream 0, fsdp -> FSDP /
// stream 1, none -> None / stream 0; a discardable `fsdp` attribute counts too).
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @reduce_scatter(%x: tensor<16x8xf32>) -> (tensor<2x8xf32>, tensor<16x1xf32>, tensor<16x2xf32>, tensor<8x8xf32>) {
    %d0 = hlo.reduce_scatter(%x) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } {xla.frontend_attributes = "{tp=\"1\"}"} : (tensor<16x8xf32>) -> tensor<2x8xf32>
    %d1 = hlo.reduce_scatter(%x) dim = 1 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.maximum %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } {xla.frontend_attributes = "{fsdp=\"true\"}"} : (tensor<16x8xf32>) -> tensor<16x1xf32>
    %d4 = hlo.reduce_scatter(%x) dim = 1 replica_groups = [[0, 1, 2, 3], [4, 5, 6, 7]] channel_id = 3 use_global_device_ids {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } {fsdp} : (tensor<16x8xf32>) -> tensor<16x2xf32>
    %none = hlo.reduce_scatter(%x) dim = 0 replica_groups = [[0, 1], [2, 3], [4, 5], [6, 7]] channel_id = 4 use_global_device_ids {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.minimum %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } {xla.frontend_attributes = "{tp=\"false\"}"} : (tensor<16x8xf32>) -> tensor<8x8xf32>
    func.return %d0, %d1, %d4, %none : tensor<2x8xf32>, tensor<16x1xf32>, tensor<16x2xf32>, tensor<8x8xf32>
  }
}

// CHECK-LABEL: func.func @reduce_scatter(
// CHECK-NEXT:     %d0 = bir.collective_compute ReduceScatter(%x) op = add replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] cc_type_hint = TP stream_id = 0 input_aps = [#bir.ap<0, [[16, 8], [8, 2], [1, 8]]>] output_aps = [#bir.ap<0, [[8, 2], [1, 8]]>] : (tensor<16x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:     %d1 = bir.collective_compute ReduceScatter(%x) op = max replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] cc_type_hint = FSDP stream_id = 1 input_aps = [#bir.ap<0, [[1, 8], [8, 16], [1, 1]]>] output_aps = [#bir.ap<0, [[1, 16], [1, 1]]>] : (tensor<16x8xf32>) -> tensor<16x1xf32>
// CHECK-NEXT:     %d4 = bir.collective_compute ReduceScatter(%x) op = add replica_groups = [[0, 1, 2, 3], [4, 5, 6, 7]] cc_type_hint = FSDP stream_id = 1 input_aps = [#bir.ap<0, [[2, 4], [8, 16], [1, 2]]>] output_aps = [#bir.ap<0, [[2, 16], [1, 2]]>] : (tensor<16x8xf32>) -> tensor<16x2xf32>
// CHECK-NEXT:     %none = bir.collective_compute ReduceScatter(%x) op = min replica_groups = [[0, 1], [2, 3], [4, 5], [6, 7]] cc_type_hint = None stream_id = 0 input_aps = [#bir.ap<0, [[64, 2], [8, 8], [1, 8]]>] output_aps = [#bir.ap<0, [[8, 8], [1, 8]]>] : (tensor<16x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:     func.return %d0, %d1, %d4, %none : tensor<2x8xf32>, tensor<16x1xf32>, tensor<16x2xf32>, tensor<8x8xf32>
// CHECK-NEXT:   }

// -----

// all_gather: the OUTPUT pattern has [chunk_stride, group size] outermost over the gathered
// dimension followed by the row-major pairs of one chunk; op unset. The issue's example:
// tensor<8x4xf32> on dim 1 over 8 ranks -> output [[4, 8], [32, 8], [1, 4]].
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @all_gather(%x: tensor<8x4xf32>, %s: tensor<2xbf16>) -> (tensor<8x32xf32>, tensor<64x4xf32>, tensor<8x16xf32>, tensor<4xbf16>) {
    %d1 = hlo.all_gather(%x) dim = 1 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids : (tensor<8x4xf32>) -> tensor<8x32xf32>
    %d0 = hlo.all_gather(%x) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 2 use_global_device_ids {xla.frontend_attributes = "{fsdp=\"1\",other=\"x\"}"} : (tensor<8x4xf32>) -> tensor<64x4xf32>
    %g4 = hlo.all_gather(%x) dim = 1 replica_groups = [[0, 1, 2, 3], [4, 5, 6, 7]] channel_id = 3 use_global_device_ids {tp} : (tensor<8x4xf32>) -> tensor<8x16xf32>
    %v = hlo.all_gather(%s) dim = 0 replica_groups = [[0, 4], [1, 5], [2, 6], [3, 7]] channel_id = 4 use_global_device_ids : (tensor<2xbf16>) -> tensor<4xbf16>
    func.return %d1, %d0, %g4, %v : tensor<8x32xf32>, tensor<64x4xf32>, tensor<8x16xf32>, tensor<4xbf16>
  }
}

// CHECK-LABEL: func.func @all_gather(
// CHECK-NEXT:     %d1 = bir.collective_compute AllGather(%x) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] cc_type_hint = None stream_id = 0 input_aps = [#bir.ap<0, [[4, 8], [1, 4]]>] output_aps = [#bir.ap<0, [[4, 8], [32, 8], [1, 4]]>] : (tensor<8x4xf32>) -> tensor<8x32xf32>
// CHECK-NEXT:     %d0 = bir.collective_compute AllGather(%x) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] cc_type_hint = FSDP stream_id = 1 input_aps = [#bir.ap<0, [[4, 8], [1, 4]]>] output_aps = [#bir.ap<0, [[32, 8], [4, 8], [1, 4]]>] : (tensor<8x4xf32>) -> tensor<64x4xf32>
// CHECK-NEXT:     %g4 = bir.collective_compute AllGather(%x) replica_groups = [[0, 1, 2, 3], [4, 5, 6, 7]] cc_type_hint = TP stream_id = 0 input_aps = [#bir.ap<0, [[4, 8], [1, 4]]>] output_aps = [#bir.ap<0, [[4, 4], [16, 8], [1, 4]]>] : (tensor<8x4xf32>) -> tensor<8x16xf32>
// CHECK-NEXT:     %v = bir.collective_compute AllGather(%s) replica_groups = [[0, 4], [1, 5], [2, 6], [3, 7]] cc_type_hint = None stream_id = 0 input_aps = [#bir.ap<0, [[1, 2]]>] output_aps = [#bir.ap<0, [[2, 2], [1, 2]]>] : (tensor<2xbf16>) -> tensor<4xbf16>
// CHECK-NEXT:     func.return %d1, %d0, %g4, %v : tensor<8x32xf32>, tensor<64x4xf32>, tensor<8x16xf32>, tensor<4xbf16>
// CHECK-NEXT:   }

// -----

// all_to_all (array form): split_count = group size; the split dimension's chunks are outermost
// on the input, the concat dimension's (the same one) on the output.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @all_to_all(%x: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
    %d0 = hlo.all_to_all(%x) dim = 0 replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %d1 = hlo.all_to_all(%x) dim = 1 replica_groups = [[0, 1, 2, 3], [4, 5, 6, 7]] channel_id = 2 : (tensor<8x4xf32>) -> tensor<8x4xf32>
    func.return %d0, %d1 : tensor<8x4xf32>, tensor<8x4xf32>
  }
}

// CHECK-LABEL: func.func @all_to_all(
// CHECK-NEXT:     %d0 = bir.collective_compute AllToAll(%x) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] stream_id = 0 split_count = 8 input_aps = [#bir.ap<0, [[4, 8], [4, 1], [1, 4]]>] output_aps = [#bir.ap<0, [[4, 8], [4, 1], [1, 4]]>] : (tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:     %d1 = bir.collective_compute AllToAll(%x) replica_groups = [[0, 1, 2, 3], [4, 5, 6, 7]] stream_id = 0 split_count = 4 input_aps = [#bir.ap<0, [[1, 4], [4, 8], [1, 1]]>] output_aps = [#bir.ap<0, [[1, 4], [4, 8], [1, 1]]>] : (tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:     func.return %d0, %d1 : tensor<8x4xf32>, tensor<8x4xf32>
// CHECK-NEXT:   }

// -----

// collective_broadcast: a Permute whose chain sends each group's root to every member of its
// group, the root included; devices in no group (0, 3, 4, 7) are no target (zeros).
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.use_spmd_partitioning} {
  func.func @broadcast(%x: tensor<2x3xi32>) -> tensor<2x3xi32> {
    %b = hlo.collective_broadcast(%x) replica_groups = [[1, 2], [5, 6]] channel_id = 1 : (tensor<2x3xi32>) -> tensor<2x3xi32>
    func.return %b : tensor<2x3xi32>
  }
}

// CHECK-LABEL: func.func @broadcast(
// CHECK-NEXT:     %b = bir.collective_compute Permute(%x) permute_chain = [[1, 1], [1, 2], [5, 5], [5, 6]] stream_id = 0 input_aps = [#bir.ap<0, [[3, 2], [1, 3]]>] output_aps = [#bir.ap<0, [[3, 2], [1, 3]]>] : (tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:     func.return %b : tensor<2x3xi32>
// CHECK-NEXT:   }

// -----

// collective_permute tagged local (frontend attribute `local=true`, or `bir.local`) -> SendRecv
// with per-device send/recv tables (-1: none), local, initial_core_barrier; no stream_id.
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.use_spmd_partitioning} {
  func.func @local_permute(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
    %l = hlo.collective_permute %x pairs = [[0, 1], [1, 2], [2, 0]] channel_id = 1 {xla.frontend_attributes = "{local=\"true\"}"} : tensor<4xf32>
    %b = hlo.collective_permute %x pairs = [[3, 2]] channel_id = 2 {bir.local} : tensor<4xf32>
    %n = hlo.collective_permute %x pairs = [[3, 2]] channel_id = 3 {xla.frontend_attributes = "{local=\"false\"}"} : tensor<4xf32>
    func.return %l, %b, %n : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  }
}

// CHECK-LABEL: func.func @local_permute(
// CHECK-NEXT:     %l = bir.collective_compute SendRecv(%x) recv_from_rank = [2, 0, 1, -1] send_to_rank = [1, 2, 0, -1] local initial_core_barrier input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %b = bir.collective_compute SendRecv(%x) recv_from_rank = [-1, -1, 3, -1] send_to_rank = [-1, -1, -1, 2] local initial_core_barrier input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %n = bir.collective_compute Permute(%x) permute_chain = [[3, 2]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     func.return %l, %b, %n : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT:   }

// -----

// send / recv (+ done ops) -> collective_send / collective_recv with peer tables from
// _xla_send_recv_source_target_pairs (partition ids, flattened per replica). The done ops
// disappear: send_done's token is the send's token operand, recv_done's data the recv result.
builtin.module attributes {hlo.num_replicas = 2 : i64, hlo.num_partitions = 2 : i64} {
  func.func @send_recv(%x: tensor<4xf32>) -> (tensor<4xf32>, !hlo.token) {
    %t = hlo.after_all()
    %s = hlo.send %x, %t channel_id = 5 {xla.frontend_attributes = "{_xla_send_recv_source_target_pairs=\"{{0,1}}\"}"} : tensor<4xf32> -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
    %r = hlo.recv %t channel_id = 5 {xla.frontend_attributes = "{_xla_send_recv_source_target_pairs=\"{{0,1}}\"}"} : tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
    %rd = hlo.recv_done %r channel_id = 5 : tuple<tensor<4xf32>, tensor<ui32>, !hlo.token> -> tuple<tensor<4xf32>, !hlo.token>
    %data = hlo.get_tuple_element %rd[0] : tuple<tensor<4xf32>, !hlo.token>
    %rt = hlo.get_tuple_element %rd[1] : tuple<tensor<4xf32>, !hlo.token>
    %sd = hlo.send_done %s channel_id = 5 : tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
    %all = hlo.after_all(%rt, %sd)
    func.return %data, %all : tensor<4xf32>, !hlo.token
  }
}

// CHECK-LABEL: func.func @send_recv(
// CHECK-NEXT:     %t = hlo.after_all()
// CHECK-NEXT:     bir.collective_send %x peer_id = [1, -1, 3, -1] channel_id = 5 input_aps = [#bir.ap<0, [[1, 4]]>] : tensor<4xf32>
// CHECK-NEXT:     %data = bir.collective_recv peer_id = [-1, 0, -1, 2] channel_id = 5 output_aps = [#bir.ap<0, [[1, 4]]>] : tensor<4xf32>
// CHECK-NEXT:     %all = hlo.after_all(%t, %t)
// CHECK-NEXT:     func.return %data, %all : tensor<4xf32>, !hlo.token
// CHECK-NEXT:   }

// -----

// A recv_done used whole: its (data, token) tuple is rebuilt with hlo.tuple.
builtin.module attributes {hlo.num_partitions = 2 : i64} {
  func.func @recv_tuple(%t: !hlo.token) -> tuple<tensor<2xi32>, !hlo.token> {
    %r = hlo.recv %t channel_id = 1 {_xla_send_recv_source_target_pairs = "{{1,0}}"} : tuple<tensor<2xi32>, tensor<ui32>, !hlo.token>
    %rd = hlo.recv_done %r channel_id = 1 : tuple<tensor<2xi32>, tensor<ui32>, !hlo.token> -> tuple<tensor<2xi32>, !hlo.token>
    func.return %rd : tuple<tensor<2xi32>, !hlo.token>
  }
}

// CHECK-LABEL: func.func @recv_tuple(
// CHECK-NEXT:     [[V0:%[0-9]+]] = bir.collective_recv peer_id = [1, -1] channel_id = 1 output_aps = [#bir.ap<0, [[1, 2]]>] : tensor<2xi32>
// CHECK-NEXT:     %rd = hlo.tuple [[V0]], %t : tuple<tensor<2xi32>, !hlo.token>
// CHECK-NEXT:     func.return %rd : tuple<tensor<2xi32>, !hlo.token>
// CHECK-NEXT:   }

// -----

// partition_id -> get_global_rank_id world_size = P; replica_id -> world_size = R.
builtin.module attributes {hlo.num_replicas = 2 : i64, hlo.num_partitions = 4 : i64} {
  func.func @partition_id() -> (tensor<ui32>, tensor<ui32>) {
    %p = hlo.partition_id : tensor<ui32>
    %r = hlo.replica_id : tensor<ui32>
    func.return %p, %r : tensor<ui32>, tensor<ui32>
  }
}

// CHECK-LABEL: func.func @partition_id(
// CHECK-NEXT:     %p = bir.get_global_rank_id world_size = 4 engine = ALL register = "rank_id_0" : tensor<ui32>
// CHECK-NEXT:     %r = bir.get_global_rank_id world_size = 2 engine = ALL register = "rank_id_1" : tensor<ui32>
// CHECK-NEXT:     func.return %p, %r : tensor<ui32>, tensor<ui32>
// CHECK-NEXT:   }

// -----

// R == P > 1: world_size cannot tell the partition id from the replica id; both ops stay.
builtin.module attributes {hlo.num_replicas = 2 : i64, hlo.num_partitions = 2 : i64} {
  func.func @ambiguous_ids() -> (tensor<ui32>, tensor<ui32>) {
    %p = hlo.partition_id : tensor<ui32>
    %r = hlo.replica_id : tensor<ui32>
    func.return %p, %r : tensor<ui32>, tensor<ui32>
  }
}

// CHECK-LABEL: func.func @ambiguous_ids(
// CHECK-NEXT:     %p = hlo.partition_id : tensor<ui32>
// CHECK-NEXT:     %r = hlo.replica_id : tensor<ui32>
// CHECK-NEXT:     func.return %p, %r : tensor<ui32>, tensor<ui32>
// CHECK-NEXT:   }

// -----

// custom_call "CoreBarrier" -> core_barrier: `cores` as dims or a "0,1" string, barrier_id ->
// cb_id, optional engine; other custom calls stay.
builtin.module attributes {hlo.num_partitions = 2 : i64} {
  func.func @core_barrier(%s: tensor<1xi32>) -> (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) {
    %a = hlo.custom_call "CoreBarrier"(%s) side_effect {cores = #hlo.dims<[0, 1]>, barrier_id = 3 : i64} : (tensor<1xi32>) -> tensor<1xi32>
    %b = hlo.custom_call "CoreBarrier"(%a) {cores = "0, 1", barrier_id = 0 : i64, engine = "Pool"} : (tensor<1xi32>) -> tensor<1xi32>
    %c = hlo.custom_call "Other"(%b) : (tensor<1xi32>) -> tensor<1xi32>
    func.return %a, %b, %c : tensor<1xi32>, tensor<1xi32>, tensor<1xi32>
  }
}

// CHECK-LABEL: func.func @core_barrier(
// CHECK-NEXT:     %a = bir.core_barrier %s cores = [0, 1] cb_id = 3 input_aps = [#bir.ap<0, [[1, 1]]>] output_aps = [#bir.ap<0, [[1, 1]]>] : tensor<1xi32>
// CHECK-NEXT:     %b = bir.core_barrier %a cores = [0, 1] engine = Pool cb_id = 0 input_aps = [#bir.ap<0, [[1, 1]]>] output_aps = [#bir.ap<0, [[1, 1]]>] : tensor<1xi32>
// CHECK-NEXT:     %c = hlo.custom_call "Other"(%b) : (tensor<1xi32>) -> tensor<1xi32>
// CHECK-NEXT:     func.return %a, %b, %c : tensor<1xi32>, tensor<1xi32>, tensor<1xi32>
// CHECK-NEXT:   }

// -----

// dma_qos and unique_tensors_type are copied when present (attribute or frontend attribute).
builtin.module attributes {hlo.num_partitions = 2 : i64} {
  func.func @copied_fields(%x: tensor<4xf32>) -> (tensor<8xf32>, tensor<4xf32>) {
    %g = hlo.all_gather(%x) dim = 0 replica_groups = [[0, 1]] channel_id = 1 use_global_device_ids {dma_qos = 3 : i64, unique_tensors_type = "weights"} : (tensor<4xf32>) -> tensor<8xf32>
    %p = hlo.collective_permute %x pairs = [[0, 1], [1, 0]] channel_id = 2 {xla.frontend_attributes = "{dma_qos=\"2\",unique_tensors_type=\"acts\"}"} : tensor<4xf32>
    func.return %g, %p : tensor<8xf32>, tensor<4xf32>
  }
}

// CHECK-LABEL: func.func @copied_fields(
// CHECK-NEXT:     %g = bir.collective_compute AllGather(%x) replica_groups = [[0, 1]] cc_type_hint = None dma_qos = 3 unique_tensors_type = "weights" stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[4, 2], [1, 4]]>] : (tensor<4xf32>) -> tensor<8xf32>
// CHECK-NEXT:     %p = bir.collective_compute PermuteImplicit(%x) replica_groups = [[0, 1]] dma_qos = 2 unique_tensors_type = "acts" stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     func.return %g, %p : tensor<8xf32>, tensor<4xf32>
// CHECK-NEXT:   }

// -----

// Every function and region: a collective in a while body and in a second function.
builtin.module attributes {hlo.num_partitions = 2 : i64} {
  func.func @main(%x: tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>> {
    %zero = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %zero, %x : tuple<tensor<i32>, tensor<4xf32>>
    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>> condition {
    ^bb0(%c: tuple<tensor<i32>, tensor<4xf32>>):
      %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<4xf32>>
      %n = hlo.constant dense<3> : tensor<i32>
      %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%p: tuple<tensor<i32>, tensor<4xf32>>):
      %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<4xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i1 = hlo.add %i, %one : tensor<i32>
      %v = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<4xf32>>
      %ar = hlo.all_reduce(%v) replica_groups = [[0, 1]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %c = hlo.add %a, %b : tensor<f32>
        hlo.return %c : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %next = hlo.tuple %i1, %ar : tuple<tensor<i32>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>>
    }
    func.return %loop : tuple<tensor<i32>, tensor<4xf32>>
  }
  func.func @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
    %p = hlo.collective_permute %x pairs = [[0, 1], [1, 0]] channel_id = 2 : tensor<4xf32>
    func.return %p : tensor<4xf32>
  }
}

// CHECK-LABEL: func.func @main(
// CHECK-NEXT:     %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %zero, %x : tuple<tensor<i32>, tensor<4xf32>>
// CHECK-NEXT:     %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>> condition {
// CHECK-NEXT:     ^bb0(%c: tuple<tensor<i32>, tensor<4xf32>>):
// CHECK-NEXT:       %ci = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<4xf32>>
// CHECK-NEXT:       %n = hlo.constant dense<3> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %ci, %n : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%p: tuple<tensor<i32>, tensor<4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %p[0] : tuple<tensor<i32>, tensor<4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %i1 = hlo.add %i, %one : tensor<i32>
// CHECK-NEXT:       %v = hlo.get_tuple_element %p[1] : tuple<tensor<i32>, tensor<4xf32>>
// CHECK-NEXT:       %ar = bir.collective_compute AllReduce(%v) op = add replica_groups = [[0, 1]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:       %next = hlo.tuple %i1, %ar : tuple<tensor<i32>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %next : tuple<tensor<i32>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     func.return %loop : tuple<tensor<i32>, tensor<4xf32>>
// CHECK-NEXT:   }
// CHECK-LABEL: func.func @helper(
// CHECK-NEXT:     %p = bir.collective_compute PermuteImplicit(%x) replica_groups = [[0, 1]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     func.return %p : tensor<4xf32>
// CHECK-NEXT:   }

// -----

// Tiling (TILE run, tile-bytes=64 ring-channels=4): the largest buffer exceeds 64 bytes, so
// T = ceil(largest / 64), capped by the fewest chunk rows; every chunk is cut along its
// outermost dimension (numpy.array_split sizes); tiled permutes get channel_id = ring-channels.
// Buffers of at most 64 bytes (and the SendRecv form) stay untiled.
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.use_spmd_partitioning} {
  func.func @tiled(%x: tensor<6x4xf32>, %y: tensor<3xf32>, %z: tensor<f32>, %w: tensor<16x2xf32>) -> (tensor<6x16xf32>, tensor<24x4xf32>, tuple<tensor<6x4xf32>, tensor<3xf32>>, tensor<f32>, tensor<4x2xf32>, tensor<16x2xf32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<3xf32>) {
    %g1 = hlo.all_gather(%x) dim = 1 replica_groups = [[0, 1, 2, 3]] channel_id = 1 use_global_device_ids : (tensor<6x4xf32>) -> tensor<6x16xf32>
    %g0 = hlo.all_gather(%x) dim = 0 replica_groups = [[0, 1, 2, 3]] channel_id = 2 use_global_device_ids : (tensor<6x4xf32>) -> tensor<24x4xf32>
    %ar = hlo.all_reduce(%x, %y) replica_groups = [[0, 1, 2, 3]] channel_id = 3 use_global_device_ids {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<6x4xf32>, tensor<3xf32>) -> tuple<tensor<6x4xf32>, tensor<3xf32>>
    %sc = hlo.all_reduce(%z) replica_groups = [[0, 1, 2, 3]] channel_id = 4 use_global_device_ids {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<f32>) -> tensor<f32>
    %rs = hlo.reduce_scatter(%w) dim = 0 replica_groups = [[0, 1, 2, 3]] channel_id = 5 use_global_device_ids {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } {xla.frontend_attributes = "{fsdp=\"1\"}"} : (tensor<16x2xf32>) -> tensor<4x2xf32>
    %aa = hlo.all_to_all(%w) dim = 0 replica_groups = [[0, 1, 2, 3]] channel_id = 6 : (tensor<16x2xf32>) -> tensor<16x2xf32>
    %p = hlo.collective_permute %x pairs = [[0, 1], [1, 2], [2, 3], [3, 0]] channel_id = 7 : tensor<6x4xf32>
    %b = hlo.collective_broadcast(%x) replica_groups = [[0, 1, 2, 3]] channel_id = 8 : (tensor<6x4xf32>) -> tensor<6x4xf32>
    %l = hlo.collective_permute %x pairs = [[0, 1]] channel_id = 9 {bir.local} : tensor<6x4xf32>
    %small = hlo.collective_permute %y pairs = [[0, 1]] channel_id = 10 : tensor<3xf32>
    func.return %g1, %g0, %ar, %sc, %rs, %aa, %p, %b, %l, %small : tensor<6x16xf32>, tensor<24x4xf32>, tuple<tensor<6x4xf32>, tensor<3xf32>>, tensor<f32>, tensor<4x2xf32>, tensor<16x2xf32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<3xf32>
  }
}

// CHECK-LABEL: func.func @tiled(
// CHECK-NEXT:     %g1 = bir.collective_compute AllGather(%x) replica_groups = [[0, 1, 2, 3]] cc_type_hint = None stream_id = 0 input_aps = [#bir.ap<0, [[4, 6], [1, 4]]>] output_aps = [#bir.ap<0, [[4, 4], [16, 6], [1, 4]]>] : (tensor<6x4xf32>) -> tensor<6x16xf32>
// CHECK-NEXT:     %g0 = bir.collective_compute AllGather(%x) replica_groups = [[0, 1, 2, 3]] cc_type_hint = None stream_id = 0 input_aps = [#bir.ap<0, [[4, 6], [1, 4]]>] output_aps = [#bir.ap<0, [[24, 4], [4, 6], [1, 4]]>] : (tensor<6x4xf32>) -> tensor<24x4xf32>
// CHECK-NEXT:     [[V0:%[0-9]+]], [[V1:%[0-9]+]] = bir.collective_compute AllReduce(%x, %y) op = add replica_groups = [[0, 1, 2, 3]] stream_id = 0 input_aps = [#bir.ap<0, [[4, 6], [1, 4]]>, #bir.ap<0, [[1, 3]]>] output_aps = [#bir.ap<0, [[4, 6], [1, 4]]>, #bir.ap<0, [[1, 3]]>] : (tensor<6x4xf32>, tensor<3xf32>) -> (tensor<6x4xf32>, tensor<3xf32>)
// CHECK-NEXT:     %ar = hlo.tuple [[V0]], [[V1]] : tuple<tensor<6x4xf32>, tensor<3xf32>>
// CHECK-NEXT:     %sc = bir.collective_compute AllReduce(%z) op = add replica_groups = [[0, 1, 2, 3]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 1]]>] output_aps = [#bir.ap<0, [[1, 1]]>] : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:     %rs = bir.collective_compute ReduceScatter(%w) op = add replica_groups = [[0, 1, 2, 3]] cc_type_hint = FSDP stream_id = 1 input_aps = [#bir.ap<0, [[8, 4], [2, 4], [1, 2]]>] output_aps = [#bir.ap<0, [[2, 4], [1, 2]]>] : (tensor<16x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:     %aa = bir.collective_compute AllToAll(%w) replica_groups = [[0, 1, 2, 3]] stream_id = 0 split_count = 4 input_aps = [#bir.ap<0, [[8, 4], [2, 4], [1, 2]]>] output_aps = [#bir.ap<0, [[8, 4], [2, 4], [1, 2]]>] : (tensor<16x2xf32>) -> tensor<16x2xf32>
// CHECK-NEXT:     %p = bir.collective_compute PermuteImplicit(%x) replica_groups = [[0, 1, 2, 3]] stream_id = 0 input_aps = [#bir.ap<0, [[4, 6], [1, 4]]>] output_aps = [#bir.ap<0, [[4, 6], [1, 4]]>] : (tensor<6x4xf32>) -> tensor<6x4xf32>
// CHECK-NEXT:     %b = bir.collective_compute Permute(%x) permute_chain = [[0, 0], [0, 1], [0, 2], [0, 3]] stream_id = 0 input_aps = [#bir.ap<0, [[4, 6], [1, 4]]>] output_aps = [#bir.ap<0, [[4, 6], [1, 4]]>] : (tensor<6x4xf32>) -> tensor<6x4xf32>
// CHECK-NEXT:     %l = bir.collective_compute SendRecv(%x) recv_from_rank = [-1, 0, -1, -1] send_to_rank = [1, -1, -1, -1] local initial_core_barrier input_aps = [#bir.ap<0, [[4, 6], [1, 4]]>] output_aps = [#bir.ap<0, [[4, 6], [1, 4]]>] : (tensor<6x4xf32>) -> tensor<6x4xf32>
// CHECK-NEXT:     %small = bir.collective_compute Permute(%y) permute_chain = [[0, 1]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 3]]>] output_aps = [#bir.ap<0, [[1, 3]]>] : (tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:     func.return %g1, %g0, %ar, %sc, %rs, %aa, %p, %b, %l, %small : tensor<6x16xf32>, tensor<24x4xf32>, tuple<tensor<6x4xf32>, tensor<3xf32>>, tensor<f32>, tensor<4x2xf32>, tensor<16x2xf32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<3xf32>
// CHECK-NEXT:   }
// TILE-LABEL: func.func @tiled(
// TILE-NEXT:     %g1 = bir.collective_compute AllGather(%x) replica_groups = [[0, 1, 2, 3]] cc_type_hint = None stream_id = 0 tiled input_aps = [#bir.ap<0, [[4, 1], [1, 4]]>, #bir.ap<4, [[4, 1], [1, 4]]>, #bir.ap<8, [[4, 1], [1, 4]]>, #bir.ap<12, [[4, 1], [1, 4]]>, #bir.ap<16, [[4, 1], [1, 4]]>, #bir.ap<20, [[4, 1], [1, 4]]>] output_aps = [#bir.ap<0, [[4, 4], [16, 1], [1, 4]]>, #bir.ap<16, [[4, 4], [16, 1], [1, 4]]>, #bir.ap<32, [[4, 4], [16, 1], [1, 4]]>, #bir.ap<48, [[4, 4], [16, 1], [1, 4]]>, #bir.ap<64, [[4, 4], [16, 1], [1, 4]]>, #bir.ap<80, [[4, 4], [16, 1], [1, 4]]>] : (tensor<6x4xf32>) -> tensor<6x16xf32>
// TILE-NEXT:     %g0 = bir.collective_compute AllGather(%x) replica_groups = [[0, 1, 2, 3]] cc_type_hint = None stream_id = 0 tiled input_aps = [#bir.ap<0, [[4, 1], [1, 4]]>, #bir.ap<4, [[4, 1], [1, 4]]>, #bir.ap<8, [[4, 1], [1, 4]]>, #bir.ap<12, [[4, 1], [1, 4]]>, #bir.ap<16, [[4, 1], [1, 4]]>, #bir.ap<20, [[4, 1], [1, 4]]>] output_aps = [#bir.ap<0, [[24, 4], [4, 1], [1, 4]]>, #bir.ap<4, [[24, 4], [4, 1], [1, 4]]>, #bir.ap<8, [[24, 4], [4, 1], [1, 4]]>, #bir.ap<12, [[24, 4], [4, 1], [1, 4]]>, #bir.ap<16, [[24, 4], [4, 1], [1, 4]]>, #bir.ap<20, [[24, 4], [4, 1], [1, 4]]>] : (tensor<6x4xf32>) -> tensor<24x4xf32>
// TILE-NEXT:     [[V0:%[0-9]+]], [[V1:%[0-9]+]] = bir.collective_compute AllReduce(%x, %y) op = add replica_groups = [[0, 1, 2, 3]] stream_id = 0 tiled input_aps = [#bir.ap<0, [[4, 3], [1, 4]]>, #bir.ap<12, [[4, 3], [1, 4]]>, #bir.ap<0, [[1, 2]]>, #bir.ap<2, [[1, 1]]>] output_aps = [#bir.ap<0, [[4, 3], [1, 4]]>, #bir.ap<12, [[4, 3], [1, 4]]>, #bir.ap<0, [[1, 2]]>, #bir.ap<2, [[1, 1]]>] : (tensor<6x4xf32>, tensor<3xf32>) -> (tensor<6x4xf32>, tensor<3xf32>)
// TILE-NEXT:     %ar = hlo.tuple [[V0]], [[V1]] : tuple<tensor<6x4xf32>, tensor<3xf32>>
// TILE-NEXT:     %sc = bir.collective_compute AllReduce(%z) op = add replica_groups = [[0, 1, 2, 3]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 1]]>] output_aps = [#bir.ap<0, [[1, 1]]>] : (tensor<f32>) -> tensor<f32>
// TILE-NEXT:     %rs = bir.collective_compute ReduceScatter(%w) op = add replica_groups = [[0, 1, 2, 3]] cc_type_hint = FSDP stream_id = 1 tiled input_aps = [#bir.ap<0, [[8, 4], [2, 2], [1, 2]]>, #bir.ap<4, [[8, 4], [2, 2], [1, 2]]>] output_aps = [#bir.ap<0, [[2, 2], [1, 2]]>, #bir.ap<4, [[2, 2], [1, 2]]>] : (tensor<16x2xf32>) -> tensor<4x2xf32>
// TILE-NEXT:     %aa = bir.collective_compute AllToAll(%w) replica_groups = [[0, 1, 2, 3]] stream_id = 0 split_count = 4 tiled input_aps = [#bir.ap<0, [[8, 4], [2, 2], [1, 2]]>, #bir.ap<4, [[8, 4], [2, 2], [1, 2]]>] output_aps = [#bir.ap<0, [[8, 4], [2, 2], [1, 2]]>, #bir.ap<4, [[8, 4], [2, 2], [1, 2]]>] : (tensor<16x2xf32>) -> tensor<16x2xf32>
// TILE-NEXT:     %p = bir.collective_compute PermuteImplicit(%x) replica_groups = [[0, 1, 2, 3]] stream_id = 0 channel_id = 4 tiled input_aps = [#bir.ap<0, [[4, 3], [1, 4]]>, #bir.ap<12, [[4, 3], [1, 4]]>] output_aps = [#bir.ap<0, [[4, 3], [1, 4]]>, #bir.ap<12, [[4, 3], [1, 4]]>] : (tensor<6x4xf32>) -> tensor<6x4xf32>
// TILE-NEXT:     %b = bir.collective_compute Permute(%x) permute_chain = [[0, 0], [0, 1], [0, 2], [0, 3]] stream_id = 0 channel_id = 4 tiled input_aps = [#bir.ap<0, [[4, 3], [1, 4]]>, #bir.ap<12, [[4, 3], [1, 4]]>] output_aps = [#bir.ap<0, [[4, 3], [1, 4]]>, #bir.ap<12, [[4, 3], [1, 4]]>] : (tensor<6x4xf32>) -> tensor<6x4xf32>
// TILE-NEXT:     %l = bir.collective_compute SendRecv(%x) recv_from_rank = [-1, 0, -1, -1] send_to_rank = [1, -1, -1, -1] local initial_core_barrier input_aps = [#bir.ap<0, [[4, 6], [1, 4]]>] output_aps = [#bir.ap<0, [[4, 6], [1, 4]]>] : (tensor<6x4xf32>) -> tensor<6x4xf32>
// TILE-NEXT:     %small = bir.collective_compute Permute(%y) permute_chain = [[0, 1]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 3]]>] output_aps = [#bir.ap<0, [[1, 3]]>] : (tensor<3xf32>) -> tensor<3xf32>
// TILE-NEXT:     func.return %g1, %g0, %ar, %sc, %rs, %aa, %p, %b, %l, %small : tensor<6x16xf32>, tensor<24x4xf32>, tuple<tensor<6x4xf32>, tensor<3xf32>>, tensor<f32>, tensor<4x2xf32>, tensor<16x2xf32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<3xf32>
// TILE-NEXT:   }

// -----

// Errors (checked by the main run, which goes on thanks to --verify-diagnostics, and by ERR,
// which stops at the first one with exit code 1). A failing module is left untouched.
builtin.module attributes {hlo.num_partitions = 2 : i64} {
  func.func @subtract(%x: tensor<4xf32>) -> tensor<4xf32> {
    %sub = hlo.all_reduce(%x) replica_groups = [[0, 1]] channel_id = 1 use_global_device_ids {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.subtract %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<4xf32>) -> tensor<4xf32>
    func.return %sub : tensor<4xf32>
  }
}

// CHECK: convert-hlo-to-bir: %sub: cannot map the reduction region of 'hlo.all_reduce' (hlo.subtract) to an ALU op

// -----

builtin.module attributes {hlo.num_partitions = 2 : i64} {
  func.func @compound(%x: tensor<4xf32>) -> tensor<2xf32> {
    %rs = hlo.reduce_scatter(%x) dim = 0 replica_groups = [[0, 1]] channel_id = 1 use_global_device_ids {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      %d = hlo.multiply %c, %b : tensor<f32>
      hlo.return %d : tensor<f32>
    } : (tensor<4xf32>) -> tensor<2xf32>
    func.return %rs : tensor<2xf32>
  }
}

// CHECK: convert-hlo-to-bir: %rs: cannot map the reduction region of 'hlo.reduce_scatter' (hlo.add, hlo.multiply) to an ALU op

// -----

builtin.module attributes {hlo.num_partitions = 2 : i64} {
  func.func @logical_and(%x: tensor<4xi1>) -> tensor<4xi1> {
    %and = hlo.all_reduce(%x) replica_groups = [[0, 1]] channel_id = 1 use_global_device_ids {
    ^bb0(%a: tensor<i1>, %b: tensor<i1>):
      %c = hlo.and %a, %b : tensor<i1>
      hlo.return %c : tensor<i1>
    } : (tensor<4xi1>) -> tensor<4xi1>
    func.return %and : tensor<4xi1>
  }
}

// CHECK: convert-hlo-to-bir: %and: cannot map the reduction region of 'hlo.all_reduce' (hlo.and) to an ALU op

// -----

builtin.module attributes {hlo.num_partitions = 2 : i64} {
  func.func @two_broadcast_buffers(%x: tensor<4xf32>, %y: tensor<2xf32>) -> tuple<tensor<4xf32>, tensor<2xf32>> {
    %bb = hlo.collective_broadcast(%x, %y) replica_groups = [[0, 1]] channel_id = 1 : (tensor<4xf32>, tensor<2xf32>) -> tuple<tensor<4xf32>, tensor<2xf32>>
    func.return %bb : tuple<tensor<4xf32>, tensor<2xf32>>
  }
}

// CHECK: convert-hlo-to-bir: %bb: Expect single broadcast buffer (collective_broadcast has 2)

// -----

builtin.module attributes {hlo.num_partitions = 2 : i64} {
  func.func @send_without_pairs(%x: tensor<4xf32>, %t: !hlo.token) -> !hlo.token {
    %s = hlo.send %x, %t channel_id = 1 : tensor<4xf32> -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
    %sd = hlo.send_done %s channel_id = 1 : tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
    func.return %sd : !hlo.token
  }
}

// CHECK: convert-hlo-to-bir: %s: 'hlo.send' has no _xla_send_recv_source_target_pairs frontend attribute

// -----

builtin.module attributes {hlo.num_partitions = 2 : i64} {
  func.func @send_result_used(%x: tensor<4xf32>, %t: !hlo.token) -> tensor<4xf32> {
    %s = hlo.send %x, %t channel_id = 1 {_xla_send_recv_source_target_pairs = "{{0,1}}"} : tensor<4xf32> -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
    %e = hlo.get_tuple_element %s[0] : tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
    func.return %e : tensor<4xf32>
  }
}

// CHECK: convert-hlo-to-bir: %s: its result is used by 'hlo.get_tuple_element'; only 'hlo.send_done' is supported

// -----

builtin.module attributes {hlo.num_partitions = 2 : i64} {
  func.func @recv_two_sources(%t: !hlo.token) -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token> {
    %r = hlo.recv %t channel_id = 1 {_xla_send_recv_source_target_pairs = "{{0,1},{1,1}}"} : tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
    func.return %r : tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
  }
}

// CHECK: convert-hlo-to-bir: %r: device 1 receives from more than one peer

// -----

builtin.module attributes {hlo.num_partitions = 2 : i64} {
  func.func @orphan_send_done(%s: tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>) -> !hlo.token {
    %sd = hlo.send_done %s channel_id = 1 : tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
    func.return %sd : !hlo.token
  }
}

// CHECK: convert-hlo-to-bir: %sd: 'hlo.send_done' is not fed by an hlo.send / hlo.recv result

// -----

builtin.module attributes {hlo.num_partitions = 2 : i64} {
  func.func @barrier_without_cores(%s: tensor<1xi32>) -> tensor<1xi32> {
    %cb = hlo.custom_call "CoreBarrier"(%s) {barrier_id = 1 : i64} : (tensor<1xi32>) -> tensor<1xi32>
    func.return %cb : tensor<1xi32>
  }
}

// CHECK: convert-hlo-to-bir: %cb: CoreBarrier needs a `cores` attribute ([0, 1] or "0,1"), got none

// -----

builtin.module attributes {hlo.num_partitions = 2 : i64} {
  func.func @barrier_without_id(%s: tensor<1xi32>) -> tensor<1xi32> {
    %cb = hlo.custom_call "CoreBarrier"(%s) {cores = "0,1"} : (tensor<1xi32>) -> tensor<1xi32>
    func.return %cb : tensor<1xi32>
  }
}

// CHECK: convert-hlo-to-bir: %cb: CoreBarrier needs a non-negative integer `barrier_id`, got none

// -----

builtin.module attributes {hlo.num_partitions = 2 : i64} {
  func.func @barrier_two_operands(%s: tensor<1xi32>) -> tensor<1xi32> {
    %cb = hlo.custom_call "CoreBarrier"(%s, %s) {cores = "0,1", barrier_id = 1 : i64} : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
    func.return %cb : tensor<1xi32>
  }
}

// CHECK: convert-hlo-to-bir: %cb: CoreBarrier takes one semaphore tensor and returns the same type
