// RUN: neuron-opt %s | neuron-opt | filecheck %s
// RUN: neuron-opt %s --print-op-generic | neuron-opt | filecheck %s

// Every bir op and every field, round-tripped pretty -> pretty and generic -> pretty.
// 8 devices (1 replica x 8 partitions): replica groups and tables use flattened ids.

// CHECK: builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  // CHECK-LABEL: func.func @group_kinds(%x: tensor<8x4xf32>, %y: tensor<16x4xbf16>, %z: tensor<4xi32>) {
  func.func @group_kinds(%x: tensor<8x4xf32>, %y: tensor<16x4xbf16>, %z: tensor<4xi32>) {
    // AllReduce: plain row-major access patterns, same order in and out.
    // CHECK-NEXT: %ar = bir.collective_compute AllReduce(%x) op = add replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] stream_id = 0 input_aps = [#bir.ap<0, [[4, 8], [1, 4]]>] output_aps = [#bir.ap<0, [[4, 8], [1, 4]]>] : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %ar = bir.collective_compute AllReduce(%x) op = add replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] stream_id = 0 input_aps = [#bir.ap<0, [[4, 8], [1, 4]]>] output_aps = [#bir.ap<0, [[4, 8], [1, 4]]>] : (tensor<8x4xf32>) -> tensor<8x4xf32>
    // Iota replica groups (flattened device ids).
    // CHECK-NEXT: %mult = bir.collective_compute AllReduce(%x) op = mult replica_groups = [2,4]<=[4,2]T(1,0) stream_id = 0 input_aps = [#bir.ap<0, [[4, 8], [1, 4]]>] output_aps = [#bir.ap<0, [[4, 8], [1, 4]]>] : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %mult = bir.collective_compute AllReduce(%x) op = mult replica_groups = [2,4]<=[4,2]T(1,0) stream_id = 0 input_aps = [#bir.ap<0, [[4, 8], [1, 4]]>] output_aps = [#bir.ap<0, [[4, 8], [1, 4]]>] : (tensor<8x4xf32>) -> tensor<8x4xf32>
    // Two buffers: one access pattern per buffer; dma_qos and unique_tensors_type.
    // CHECK-NEXT: %two, %two_1 = bir.collective_compute AllReduce(%x, %z) op = max replica_groups = [[0, 1], [2, 3], [4, 5], [6, 7]] dma_qos = 3 unique_tensors_type = "shared" stream_id = 0 input_aps = [#bir.ap<0, [[4, 8], [1, 4]]>, #bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[4, 8], [1, 4]]>, #bir.ap<0, [[1, 4]]>] : (tensor<8x4xf32>, tensor<4xi32>) -> (tensor<8x4xf32>, tensor<4xi32>)
    %two, %two_1 = bir.collective_compute AllReduce(%x, %z) op = max replica_groups = [[0, 1], [2, 3], [4, 5], [6, 7]] dma_qos = 3 unique_tensors_type = "shared" stream_id = 0 input_aps = [#bir.ap<0, [[4, 8], [1, 4]]>, #bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[4, 8], [1, 4]]>, #bir.ap<0, [[1, 4]]>] : (tensor<8x4xf32>, tensor<4xi32>) -> (tensor<8x4xf32>, tensor<4xi32>)
    // AllGather of tensor<8x4xf32> on dim 1 over 8 ranks: output outermost pair [4, 8] (chunk stride 4 = 4 columns).
    // CHECK-NEXT: %ag = bir.collective_compute AllGather(%x) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] cc_type_hint = TP stream_id = 0 input_aps = [#bir.ap<0, [[4, 8], [1, 4]]>] output_aps = [#bir.ap<0, [[4, 8], [32, 8], [1, 4]]>] : (tensor<8x4xf32>) -> tensor<8x32xf32>
    %ag = bir.collective_compute AllGather(%x) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] cc_type_hint = TP stream_id = 0 input_aps = [#bir.ap<0, [[4, 8], [1, 4]]>] output_aps = [#bir.ap<0, [[4, 8], [32, 8], [1, 4]]>] : (tensor<8x4xf32>) -> tensor<8x32xf32>
    // AllGather on dim 0: output outermost pair [32, 8] (chunk stride = 8 rows of 4).
    // CHECK-NEXT: %ag0 = bir.collective_compute AllGather(%x) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] cc_type_hint = None stream_id = 0 input_aps = [#bir.ap<0, [[4, 8], [1, 4]]>] output_aps = [#bir.ap<0, [[32, 8], [4, 8], [1, 4]]>] : (tensor<8x4xf32>) -> tensor<64x4xf32>
    %ag0 = bir.collective_compute AllGather(%x) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] cc_type_hint = None stream_id = 0 input_aps = [#bir.ap<0, [[4, 8], [1, 4]]>] output_aps = [#bir.ap<0, [[32, 8], [4, 8], [1, 4]]>] : (tensor<8x4xf32>) -> tensor<64x4xf32>
    // ReduceScatter on dim 0: the INPUT carries the outermost [chunk_stride, group_size] pair.
    // CHECK-NEXT: %rs = bir.collective_compute ReduceScatter(%y) op = min replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] cc_type_hint = FSDP stream_id = 1 input_aps = [#bir.ap<0, [[8, 8], [4, 2], [1, 4]]>] output_aps = [#bir.ap<0, [[4, 2], [1, 4]]>] : (tensor<16x4xbf16>) -> tensor<2x4xbf16>
    %rs = bir.collective_compute ReduceScatter(%y) op = min replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] cc_type_hint = FSDP stream_id = 1 input_aps = [#bir.ap<0, [[8, 8], [4, 2], [1, 4]]>] output_aps = [#bir.ap<0, [[4, 2], [1, 4]]>] : (tensor<16x4xbf16>) -> tensor<2x4xbf16>
    // ReduceScatter on dim 1 over groups of 2.
    // CHECK-NEXT: %rs1 = bir.collective_compute ReduceScatter(%y) op = average replica_groups = [[0, 1], [2, 3], [4, 5], [6, 7]] stream_id = 0 input_aps = [#bir.ap<0, [[2, 2], [4, 16], [1, 2]]>] output_aps = [#bir.ap<0, [[2, 16], [1, 2]]>] : (tensor<16x4xbf16>) -> tensor<16x2xbf16>
    %rs1 = bir.collective_compute ReduceScatter(%y) op = average replica_groups = [[0, 1], [2, 3], [4, 5], [6, 7]] stream_id = 0 input_aps = [#bir.ap<0, [[2, 2], [4, 16], [1, 2]]>] output_aps = [#bir.ap<0, [[2, 16], [1, 2]]>] : (tensor<16x4xbf16>) -> tensor<16x2xbf16>
    // AllToAll split dim 0 (input outermost [4, 8]), concat dim 1 (output outermost [4, 8]).
    // CHECK-NEXT: %a2a = bir.collective_compute AllToAll(%x) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] stream_id = 0 split_count = 8 input_aps = [#bir.ap<0, [[4, 8], [4, 1], [1, 4]]>] output_aps = [#bir.ap<0, [[4, 8], [32, 1], [1, 4]]>] : (tensor<8x4xf32>) -> tensor<1x32xf32>
    %a2a = bir.collective_compute AllToAll(%x) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] stream_id = 0 split_count = 8 input_aps = [#bir.ap<0, [[4, 8], [4, 1], [1, 4]]>] output_aps = [#bir.ap<0, [[4, 8], [32, 1], [1, 4]]>] : (tensor<8x4xf32>) -> tensor<1x32xf32>
    // AllToAll split dim 0 (input outermost [4, 8]), concat dim 1 (output outermost [4, 8]).
    // AllToAllV: no split_count; the data, then the initial output; ragged tables (2 peers x 1 update).
    // CHECK-NEXT: %a2av = bir.collective_compute AllToAllV(%z, %z) replica_groups = [[0, 1], [2, 3], [4, 5], [6, 7]] stream_id = 0 input_offsets = [0, 2] send_sizes = [2, 1] output_offsets = [1, 0] recv_sizes = [2, 1] input_aps = [#bir.ap<0, [[1, 4]]>, #bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
    %a2av = bir.collective_compute AllToAllV(%z, %z) replica_groups = [[0, 1], [2, 3], [4, 5], [6, 7]] stream_id = 0 input_offsets = [0, 2] send_sizes = [2, 1] output_offsets = [1, 0] recv_sizes = [2, 1] input_aps = [#bir.ap<0, [[1, 4]]>, #bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
    // CHECK-NEXT: func.return
    func.return
  // CHECK-NEXT: }
  }
  // CHECK-LABEL: func.func @tiled(%x: tensor<8x4xf32>) {
  func.func @tiled(%x: tensor<8x4xf32>) {
    // Tiled: one access pattern per tile, tiles of one buffer consecutive.
    // CHECK-NEXT: %ar = bir.collective_compute AllReduce(%x) op = add replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] stream_id = 0 tiled input_aps = [#bir.ap<0, [[1, 16]]>, #bir.ap<16, [[1, 16]]>] output_aps = [#bir.ap<0, [[1, 16]]>, #bir.ap<16, [[1, 16]]>] : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %ar = bir.collective_compute AllReduce(%x) op = add replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] stream_id = 0 tiled input_aps = [#bir.ap<0, [[1, 16]]>, #bir.ap<16, [[1, 16]]>] output_aps = [#bir.ap<0, [[1, 16]]>, #bir.ap<16, [[1, 16]]>] : (tensor<8x4xf32>) -> tensor<8x4xf32>
    // CHECK-NEXT: %ag = bir.collective_compute AllGather(%x) replica_groups = [[0, 1], [2, 3], [4, 5], [6, 7]] cc_type_hint = None stream_id = 0 tiled input_aps = [#bir.ap<0, [[4, 4], [1, 4]]>, #bir.ap<16, [[4, 4], [1, 4]]>] output_aps = [#bir.ap<0, [[4, 2], [8, 4], [1, 4]]>, #bir.ap<32, [[4, 2], [8, 4], [1, 4]]>] : (tensor<8x4xf32>) -> tensor<8x8xf32>
    %ag = bir.collective_compute AllGather(%x) replica_groups = [[0, 1], [2, 3], [4, 5], [6, 7]] cc_type_hint = None stream_id = 0 tiled input_aps = [#bir.ap<0, [[4, 4], [1, 4]]>, #bir.ap<16, [[4, 4], [1, 4]]>] output_aps = [#bir.ap<0, [[4, 2], [8, 4], [1, 4]]>, #bir.ap<32, [[4, 2], [8, 4], [1, 4]]>] : (tensor<8x4xf32>) -> tensor<8x8xf32>
    // Tiled permute on ring channel 4.
    // CHECK-NEXT: %p = bir.collective_compute Permute(%x) permute_chain = [[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 6], [6, 7], [7, 0]] stream_id = 0 channel_id = 4 tiled input_aps = [#bir.ap<0, [[1, 16]]>, #bir.ap<16, [[1, 16]]>] output_aps = [#bir.ap<0, [[1, 16]]>, #bir.ap<16, [[1, 16]]>] : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %p = bir.collective_compute Permute(%x) permute_chain = [[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 6], [6, 7], [7, 0]] stream_id = 0 channel_id = 4 tiled input_aps = [#bir.ap<0, [[1, 16]]>, #bir.ap<16, [[1, 16]]>] output_aps = [#bir.ap<0, [[1, 16]]>, #bir.ap<16, [[1, 16]]>] : (tensor<8x4xf32>) -> tensor<8x4xf32>
    // CHECK-NEXT: func.return
    func.return
  // CHECK-NEXT: }
  }
  // CHECK-LABEL: func.func @point_to_point(%x: tensor<4xf32>) {
  func.func @point_to_point(%x: tensor<4xf32>) {
    // CHECK-NEXT: %p = bir.collective_compute Permute(%x) permute_chain = [[0, 1], [1, 0]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
    %p = bir.collective_compute Permute(%x) permute_chain = [[0, 1], [1, 0]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
    // collective_broadcast lowering: root 0 -> every member.
    // CHECK-NEXT: %bc = bir.collective_compute Permute(%x) permute_chain = [[0, 0], [0, 1], [0, 2], [0, 3]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
    %bc = bir.collective_compute Permute(%x) permute_chain = [[0, 0], [0, 1], [0, 2], [0, 3]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
    // Implicit permutes: the rings in ring order, no chain.
    // CHECK-NEXT: %pi = bir.collective_compute PermuteImplicit(%x) replica_groups = [[0, 1, 2, 3], [4, 5, 6, 7]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
    %pi = bir.collective_compute PermuteImplicit(%x) replica_groups = [[0, 1, 2, 3], [4, 5, 6, 7]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
    // PermuteReduce*: the sent buffer, then the local one.
    // CHECK-NEXT: %pr = bir.collective_compute PermuteReduce(%x, %x) op = add permute_chain = [[0, 1]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>, #bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %pr = bir.collective_compute PermuteReduce(%x, %x) op = add permute_chain = [[0, 1]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>, #bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    // CHECK-NEXT: %pri = bir.collective_compute PermuteReduceImplicit(%x, %x) replica_groups = [[0, 7, 6, 5, 4, 3, 2, 1]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>, #bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %pri = bir.collective_compute PermuteReduceImplicit(%x, %x) replica_groups = [[0, 7, 6, 5, 4, 3, 2, 1]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>, #bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    // SendRecv: per-device recv_from_rank / send_to_rank tables (-1 = none).
    // CHECK-NEXT: %sr = bir.collective_compute SendRecv(%x) dma_qos = 1 pipe_id = 2 dyn_pipe_id = 0 recv_from_rank = [1, 0, -1, -1, -1, -1, -1, -1] send_to_rank = [1, 0, -1, -1, -1, -1, -1, -1] local initial_core_barrier use_gpsimd_dma input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
    %sr = bir.collective_compute SendRecv(%x) dma_qos = 1 pipe_id = 2 dyn_pipe_id = 0 recv_from_rank = [1, 0, -1, -1, -1, -1, -1, -1] send_to_rank = [1, 0, -1, -1, -1, -1, -1, -1] local initial_core_barrier use_gpsimd_dma input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
    // SendRecvCCE: (receiver, source) pairs reduced with op.
    // CHECK-NEXT: %cce = bir.collective_compute SendRecvCCE(%x) op = add recv_from_ranks = [[0, 1], [0, 2]] barrier_id = 7 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
    %cce = bir.collective_compute SendRecvCCE(%x) op = add recv_from_ranks = [[0, 1], [0, 2]] barrier_id = 7 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<4xf32>) -> tensor<4xf32>
    // CHECK-NEXT: bir.collective_send %x peer_id = [1, -1, -1, -1, -1, -1, -1, -1] channel_id = 1 : tensor<4xf32>
    bir.collective_send %x peer_id = [1, -1, -1, -1, -1, -1, -1, -1] channel_id = 1 : tensor<4xf32>
    // Send / recv with their sequential access patterns.
    // CHECK-NEXT: bir.collective_send %x peer_id = [1, -1, -1, -1, -1, -1, -1, -1] channel_id = 2 input_aps = [#bir.ap<0, [[1, 4]]>] : tensor<4xf32>
    bir.collective_send %x peer_id = [1, -1, -1, -1, -1, -1, -1, -1] channel_id = 2 input_aps = [#bir.ap<0, [[1, 4]]>] : tensor<4xf32>
    // CHECK-NEXT: %r2 = bir.collective_recv peer_id = [-1, 0, -1, -1, -1, -1, -1, -1] channel_id = 2 output_aps = [#bir.ap<0, [[1, 4]]>] : tensor<4xf32>
    %r2 = bir.collective_recv peer_id = [-1, 0, -1, -1, -1, -1, -1, -1] channel_id = 2 output_aps = [#bir.ap<0, [[1, 4]]>] : tensor<4xf32>
    // BroadcastPartition: one core, 4 partitions of the 16 DVE channels.
    // CHECK-NEXT: %bp = bir.broadcast_partition %x partitions = 4 channels = 16 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[4, 4], [1, 4]]>] : (tensor<4xf32>) -> tensor<4x4xf32>
    %bp = bir.broadcast_partition %x partitions = 4 channels = 16 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[4, 4], [1, 4]]>] : (tensor<4xf32>) -> tensor<4x4xf32>
    // CHECK-NEXT: %r = bir.collective_recv peer_id = [-1, 0, -1, -1, -1, -1, -1, -1] channel_id = 1 : tensor<4xf32>
    %r = bir.collective_recv peer_id = [-1, 0, -1, -1, -1, -1, -1, -1] channel_id = 1 : tensor<4xf32>
    // CHECK-NEXT: func.return
    func.return
  // CHECK-NEXT: }
  }
  // CHECK-LABEL: func.func @barrier_and_rank(%s: tensor<1xi32>) {
  func.func @barrier_and_rank(%s: tensor<1xi32>) {
    // core_barrier without an engine, then every engine.
    // CHECK-NEXT: %b0 = bir.core_barrier %s cores = [0] cb_id = 0 : tensor<1xi32>
    %b0 = bir.core_barrier %s cores = [0] cb_id = 0 : tensor<1xi32>
    // CHECK-NEXT: %b1 = bir.core_barrier %b0 cores = [0, 1] engine = ALL cb_id = 1 : tensor<1xi32>
    %b1 = bir.core_barrier %b0 cores = [0, 1] engine = ALL cb_id = 1 : tensor<1xi32>
    // CHECK-NEXT: %b2 = bir.core_barrier %b1 cores = [0, 1] engine = Pool cb_id = 2 : tensor<1xi32>
    %b2 = bir.core_barrier %b1 cores = [0, 1] engine = Pool cb_id = 2 : tensor<1xi32>
    // CHECK-NEXT: %b3 = bir.core_barrier %b2 cores = [0, 1] engine = Activation cb_id = 3 : tensor<1xi32>
    %b3 = bir.core_barrier %b2 cores = [0, 1] engine = Activation cb_id = 3 : tensor<1xi32>
    // CHECK-NEXT: %b4 = bir.core_barrier %b3 cores = [0, 1] engine = PE cb_id = 4 : tensor<1xi32>
    %b4 = bir.core_barrier %b3 cores = [0, 1] engine = PE cb_id = 4 : tensor<1xi32>
    // CHECK-NEXT: %b5 = bir.core_barrier %b4 cores = [0, 1] engine = DVE cb_id = 5 : tensor<1xi32>
    %b5 = bir.core_barrier %b4 cores = [0, 1] engine = DVE cb_id = 5 : tensor<1xi32>
    // CHECK-NEXT: %b6 = bir.core_barrier %b5 cores = [0, 1] engine = SP cb_id = 6 : tensor<1xi32>
    %b6 = bir.core_barrier %b5 cores = [0, 1] engine = SP cb_id = 6 : tensor<1xi32>
    // CHECK-NEXT: %rank = bir.get_global_rank_id world_size = 8 engine = ALL : tensor<ui32>
    %rank = bir.get_global_rank_id world_size = 8 engine = ALL : tensor<ui32>
    // The semaphore read and written; the rank bound to a named uint32 register.
    // CHECK-NEXT: %b7 = bir.core_barrier %b6 cores = [0, 1] cb_id = 7 input_aps = [#bir.ap<0, [[1, 1]]>] output_aps = [#bir.ap<0, [[1, 1]]>] : tensor<1xi32>
    %b7 = bir.core_barrier %b6 cores = [0, 1] cb_id = 7 input_aps = [#bir.ap<0, [[1, 1]]>] output_aps = [#bir.ap<0, [[1, 1]]>] : tensor<1xi32>
    // CHECK-NEXT: %rank2 = bir.get_global_rank_id world_size = 8 engine = ALL register = "rank_id_0" : tensor<ui32>
    %rank2 = bir.get_global_rank_id world_size = 8 engine = ALL register = "rank_id_0" : tensor<ui32>
    // CHECK-NEXT: func.return
    func.return
  // CHECK-NEXT: }
  }
// CHECK-NEXT: }
}
