// RUN: neuron-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

// One case per verifier rule of the bir dialect, each checking its message.
// 8 devices (1 replica x 8 partitions): flattened ids in [0, 8).

// ===== bir.collective_compute: the reduce operator =====================

// op is an AluOpType only on the reducer kinds.
// CHECK: op is only allowed on reducer kinds (AllReduce, ReduceScatter, PermuteReduce, SendRecvCCE), not AllGather
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_compute AllGather(%x) op = add replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[8, 8], [1, 8]]>] : (tensor<8xf32>) -> tensor<64xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// A reducer kind needs its operator.
// CHECK-NEXT: AllReduce needs op (the reduce operator)
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_compute AllReduce(%x) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// ===== replica groups (flattened device ids) ===========================

// CHECK: // {{-----}}
// Group kinds need replica_groups.
// CHECK-NEXT: AllToAll needs replica_groups
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_compute AllToAll(%x) stream_id = 0 split_count = 1 input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Empty groups are not allowed (no implicit 'everybody').
// CHECK-NEXT: replica_groups must list the flattened device groups explicitly, got [] (flattened device ids, 8 devices)
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_compute AllReduce(%x) op = add replica_groups = [] stream_id = 0 input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Ids are flattened device ids in [0, D).
// CHECK-NEXT: replica group 1 contains id 8 outside [0, 8) (flattened device ids, 8 devices)
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_compute AllReduce(%x) op = add replica_groups = [[0, 1, 2, 3], [4, 5, 6, 8]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Every device is in exactly one group.
// CHECK-NEXT: replica groups do not cover every id in [0, 8): missing [7] (flattened device ids, 8 devices)
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_compute AllReduce(%x) op = add replica_groups = [[0, 1, 2, 3], [4, 5, 6]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Uniform group sizes (AllReduce excepted).
// CHECK-NEXT: replica groups have non-uniform sizes [2, 6] (flattened device ids, 8 devices)
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_compute AllGather(%x) replica_groups = [[0, 1], [2, 3, 4, 5, 6, 7]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// ===== restricted fields ===============================================

// CHECK: // {{-----}}
// cc_type_hint only on AllGather / ReduceScatter.
// CHECK-NEXT: cc_type_hint is only allowed on AllGather and ReduceScatter
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_compute AllReduce(%x) op = add replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] cc_type_hint = TP stream_id = 0 input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Every group collective (every kind but SendRecv / SendRecvCCE) has a stream_id.
// CHECK-NEXT: stream_id is required on every group collective
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_compute Permute(%x) permute_chain = [[0, 1]] input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// split_count only on AllToAll.
// CHECK-NEXT: split_count is only allowed on AllToAll
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_compute AllReduce(%x) op = add replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] stream_id = 0 split_count = 8 input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// AllToAll needs split_count.
// CHECK-NEXT: AllToAll needs split_count
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_compute AllToAll(%x) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// split_count is the group size.
// CHECK-NEXT: split_count 4 must equal the group size 8
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_compute AllToAll(%x) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] stream_id = 0 split_count = 4 input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// channel_id only on TILED permutes.
// CHECK-NEXT: channel_id is only allowed on tiled permutes
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_compute Permute(%x) permute_chain = [[0, 1]] stream_id = 0 channel_id = 1 input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// channel_id is a ring channel 1, 2 or 4.
// CHECK-NEXT: channel_id must be 1, 2 or 4, got 3
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_compute Permute(%x) permute_chain = [[0, 1]] stream_id = 0 channel_id = 3 tiled input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// ===== permute_chain ===================================================

// CHECK: // {{-----}}
// Permute kinds need permute_chain.
// CHECK-NEXT: PermuteReduce needs permute_chain
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_compute PermuteReduce(%x) op = add stream_id = 0 input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// permute_chain only on the explicit permute kinds.
// CHECK-NEXT: permute_chain is only allowed on Permute and PermuteReduce, not AllReduce
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_compute AllReduce(%x) op = add replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] permute_chain = [[0, 1]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Chain ids are flattened device ids.
// CHECK-NEXT: permute_chain names device 9 outside [0, 8)
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_compute Permute(%x) permute_chain = [[0, 9]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// A device receives from at most one source.
// CHECK-NEXT: permute_chain target 1 appears in more than one pair
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_compute Permute(%x) permute_chain = [[0, 1], [2, 1]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// ===== SendRecv ========================================================

// CHECK: // {{-----}}
// SendRecv fields only on SendRecv.
// CHECK-NEXT: pipe_id is only allowed on SendRecv
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_compute Permute(%x) permute_chain = [[0, 1]] stream_id = 0 pipe_id = 1 input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// SendRecv needs both tables.
// CHECK-NEXT: SendRecv needs recv_from_rank and send_to_rank
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_compute SendRecv(%x) recv_from_rank = [-1, -1, -1, -1, -1, -1, -1, -1] input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// A per-device table has one entry per device.
// CHECK-NEXT: recv_from_rank needs one entry per device (8), got 2
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_compute SendRecv(%x) recv_from_rank = [1, 0] send_to_rank = [-1, -1, -1, -1, -1, -1, -1, -1] input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Table entries are -1 or a device id.
// CHECK-NEXT: send_to_rank entry 0 is 8, outside [-1, 8)
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_compute SendRecv(%x) recv_from_rank = [-1, -1, -1, -1, -1, -1, -1, -1] send_to_rank = [8, -1, -1, -1, -1, -1, -1, -1] input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// The tables describe the same transfers.
// CHECK-NEXT: send_to_rank and recv_from_rank disagree: device 0 sends to 1, but device 1 receives from -1
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_compute SendRecv(%x) recv_from_rank = [-1, -1, -1, -1, -1, -1, -1, -1] send_to_rank = [1, -1, -1, -1, -1, -1, -1, -1] input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// ===== SendRecvCCE =====================================================

// CHECK: // {{-----}}
// SendRecvCCE fields only on SendRecvCCE.
// CHECK-NEXT: barrier_id is only allowed on SendRecvCCE
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_compute AllReduce(%x) op = add replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] stream_id = 0 barrier_id = 1 input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// SendRecvCCE needs its sources and a barrier.
// CHECK-NEXT: SendRecvCCE needs recv_from_ranks and barrier_id
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_compute SendRecvCCE(%x) op = add recv_from_ranks = [[0, 1]] input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Source ids are device ids.
// CHECK-NEXT: recv_from_ranks names device 8 outside [0, 8)
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_compute SendRecvCCE(%x) op = add recv_from_ranks = [[0, 8]] barrier_id = 0 input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// ===== buffers =========================================================

// CHECK: // {{-----}}
// At least one buffer.
// CHECK-NEXT: AllReduce needs at least one input buffer
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    "bir.collective_compute"() <{kind = #bir<collective_kind AllReduce>, op = #bir<alu_op add>, replica_groups = #hlo.replica_groups<[[0, 1, 2, 3, 4, 5, 6, 7]]>, stream_id = 0 : i64, input_aps = [], output_aps = []}> : () -> ()
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// One output per input.
// CHECK-NEXT: AllReduce has 1 inputs but 2 outputs
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r:2 = "bir.collective_compute"(%x) <{kind = #bir<collective_kind AllReduce>, op = #bir<alu_op add>, replica_groups = #hlo.replica_groups<[[0, 1, 2, 3, 4, 5, 6, 7]]>, stream_id = 0 : i64, input_aps = [#bir.ap<0, [[1, 8]]>], output_aps = [#bir.ap<0, [[1, 8]]>, #bir.ap<0, [[1, 8]]>]}> : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Outputs keep the element type.
// CHECK-NEXT: output 0 has element type f16, but input 0 has f32
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_compute AllReduce(%x) op = add replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>) -> tensor<8xf16>
    func.return
  }
}

// -----

// ===== access patterns =================================================

// CHECK: // {{-----}}
// One access pattern per buffer.
// CHECK-NEXT: input_aps needs one access pattern per buffer (1), got 2
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_compute AllReduce(%x) op = add replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 8]]>, #bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Tiled: the same number of tiles for every buffer.
// CHECK-NEXT: tiled input_aps needs the same number of tiles for each of the 2 buffers, got 3 access patterns
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r:2 = bir.collective_compute AllReduce(%x, %x) op = add replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] stream_id = 0 tiled input_aps = [#bir.ap<0, [[1, 8]]>, #bir.ap<0, [[1, 8]]>, #bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>, #bir.ap<0, [[1, 8]]>] : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Tiled: as many output tiles as input tiles.
// CHECK-NEXT: input_aps have 2 tiles per buffer, output_aps 1
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_compute AllReduce(%x) op = add replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] stream_id = 0 tiled input_aps = [#bir.ap<0, [[1, 4]]>, #bir.ap<4, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// A pattern visits exactly the tensor's elements.
// CHECK-NEXT: input 0: access pattern visits 4 elements, but the tensor has 8
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_compute AllReduce(%x) op = add replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Every address is inside the tensor.
// CHECK-NEXT: output 0: access pattern addresses [1, 8] leave [0, 8)
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_compute AllReduce(%x) op = add replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<1, [[1, 8]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// A pattern has at least one pair.
// CHECK-NEXT: input 0: access pattern has no [step, num] pair
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_compute AllReduce(%x) op = add replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] stream_id = 0 input_aps = [#bir.ap<0, []>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Nums are positive.
// CHECK-NEXT: output 0: access pattern nums must be positive, got [0, 8]
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_compute AllReduce(%x) op = add replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[8, 0], [1, 8]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// A pair is [step, num] (a parse error).
// CHECK: an access pattern pair is [step, num]
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_compute AllReduce(%x) op = add replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 8, 1]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Tiled: each tile stays inside the tensor.
// CHECK-NEXT: input 0 tile 1: access pattern addresses [6, 9] leave [0, 8)
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_compute AllReduce(%x) op = add replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] stream_id = 0 tiled input_aps = [#bir.ap<0, [[1, 4]]>, #bir.ap<6, [[1, 4]]>] output_aps = [#bir.ap<0, [[1, 4]]>, #bir.ap<4, [[1, 4]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Tiled: the tiles of a buffer together visit all its elements.
// CHECK-NEXT: input 0: the tiles visit 4 elements, but the tensor has 8
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_compute AllReduce(%x) op = add replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] stream_id = 0 tiled input_aps = [#bir.ap<0, [[1, 2]]>, #bir.ap<2, [[1, 2]]>] output_aps = [#bir.ap<0, [[1, 2]]>, #bir.ap<2, [[1, 2]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Element counts per kind: AllGather's output visits group size x the input.
// CHECK-NEXT: AllGather access pattern pair 0: the input visits 8 elements and the output 8 (group size 8)
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_compute AllGather(%x) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// The collective dimension is the outermost pair, whose num is the group size.
// CHECK-NEXT: AllGather output access pattern 0 must have the group size 8 as its outermost num, got 64
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_compute AllGather(%x) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 64]]>] : (tensor<8xf32>) -> tensor<64xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// ReduceScatter: on the input.
// CHECK-NEXT: ReduceScatter input access pattern 0 must have the group size 2 as its outermost num, got 8
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_compute ReduceScatter(%x) op = add replica_groups = [[0, 1], [2, 3], [4, 5], [6, 7]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 4]]>] : (tensor<8xf32>) -> tensor<4xf32>
    func.return
  }
}

// -----

// ===== bir.collective_send / bir.collective_recv =======================

// CHECK: // {{-----}}
// peer_id is a per-device table.
// CHECK-NEXT: peer_id needs one entry per device (8), got 1
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    bir.collective_send %x peer_id = [1] channel_id = 1 : tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// channel ids are positive.
// CHECK-NEXT: channel_id must be positive, got 0
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.collective_recv peer_id = [-1, -1, -1, -1, -1, -1, -1, -1] channel_id = 0 : tensor<8xf32>
    func.return
  }
}

// -----

// ===== bir.core_barrier ================================================

// CHECK: // {{-----}}
// At least one core.
// CHECK-NEXT: core_barrier needs at least one core
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.core_barrier %s cores = [] cb_id = 0 : tensor<1xi32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Each core once.
// CHECK-NEXT: core_barrier core 1 is negative or listed twice
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.core_barrier %s cores = [0, 1, 1] cb_id = 0 : tensor<1xi32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// cb_id is non-negative.
// CHECK-NEXT: cb_id must be non-negative, got -1
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.core_barrier %s cores = [0] cb_id = -1 : tensor<1xi32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// The semaphore is read and written: the result has the operand's type.
// CHECK-NEXT: result 'updated' at position 0 does not verify:
// CHECK-NEXT: attribute tensor<1xi32> expected from variable 'T', but got tensor<2xi32>
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = "bir.core_barrier"(%s) <{cores = #hlo.dims<[0]>, cb_id = 0 : i64}> : (tensor<1xi32>) -> tensor<2xi32>
    func.return
  }
}

// -----

// ===== bir.get_global_rank_id ==========================================

// CHECK: // {{-----}}
// The result is a uint32 scalar.
// CHECK-NEXT: get_global_rank_id returns tensor<ui32>, got tensor<i32>
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.get_global_rank_id world_size = 8 engine = ALL : tensor<i32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// world_size is positive.
// CHECK-NEXT: world_size must be positive, got 0
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.get_global_rank_id world_size = 0 engine = ALL : tensor<ui32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// It runs on every engine.
// CHECK-NEXT: get_global_rank_id runs on engine ALL, got Pool
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>) {
    %r = bir.get_global_rank_id world_size = 8 engine = Pool : tensor<ui32>
    func.return
  }
}

// ===== issue 19: implicit permutes, local inputs, AllToAllV, sequential patterns, BroadcastPartition

// -----

// CHECK: // {{-----}}
// Implicit permutes route by their rings, not by a chain.
// CHECK-NEXT: permute_chain is only allowed on Permute and PermuteReduce, not PermuteImplicit
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>, %y: tensor<2x4xf32>) {
    %r = bir.collective_compute PermuteImplicit(%x) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] permute_chain = [[0, 1]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// An implicit permute needs its rings.
// CHECK-NEXT: PermuteImplicit needs replica_groups
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>, %y: tensor<2x4xf32>) {
    %r = bir.collective_compute PermuteImplicit(%x) stream_id = 0 input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// The rings have one size.
// CHECK-NEXT: replica groups have non-uniform sizes [2, 6]
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>, %y: tensor<2x4xf32>) {
    %r = bir.collective_compute PermuteReduceImplicit(%x, %x) replica_groups = [[0, 1], [2, 3, 4, 5, 6, 7]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 8]]>, #bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// PermuteReduce takes the local value as a second input.
// CHECK-NEXT: PermuteReduce takes each sent buffer and a local buffer (2 inputs per output): 1 inputs for 1 outputs
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>, %y: tensor<2x4xf32>) {
    %r = bir.collective_compute PermuteReduce(%x) op = add permute_chain = [[0, 1]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// The local input has the output's type.
// CHECK-NEXT: local input 1 has type tensor<2x4xf32>, but output 0 is tensor<8xf32>
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>, %y: tensor<2x4xf32>) {
    %r = bir.collective_compute PermuteReduce(%x, %y) op = max permute_chain = [[0, 1]] stream_id = 0 input_aps = [#bir.ap<0, [[1, 8]]>, #bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>, tensor<2x4xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// The ragged tables only go on AllToAllV.
// CHECK-NEXT: send_sizes is only allowed on AllToAllV
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>, %y: tensor<2x4xf32>) {
    %r = bir.collective_compute AllReduce(%x) op = add replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] stream_id = 0 send_sizes = [1] input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// AllToAllV needs all four tables.
// CHECK-NEXT: AllToAllV needs input_offsets, send_sizes, output_offsets, recv_sizes
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>, %y: tensor<2x4xf32>) {
    %r = bir.collective_compute AllToAllV(%x, %x) replica_groups = [[0, 1], [2, 3], [4, 5], [6, 7]] stream_id = 0 input_offsets = [0, 4] send_sizes = [4, 4] output_offsets = [0, 4] input_aps = [#bir.ap<0, [[1, 8]]>, #bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// One entry per peer and update.
// CHECK-NEXT: AllToAllV tables need one entry per peer and update (a positive multiple of the group size 2, the same for all four), got [3, 3, 3, 3]
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>, %y: tensor<2x4xf32>) {
    %r = bir.collective_compute AllToAllV(%x, %x) replica_groups = [[0, 1], [2, 3], [4, 5], [6, 7]] stream_id = 0 input_offsets = [0, 4, 0] send_sizes = [4, 4, 0] output_offsets = [0, 4, 0] recv_sizes = [4, 4, 0] input_aps = [#bir.ap<0, [[1, 8]]>, #bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// No negative offset or size.
// CHECK-NEXT: AllToAllV send_sizes must be non-negative
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>, %y: tensor<2x4xf32>) {
    %r = bir.collective_compute AllToAllV(%x, %x) replica_groups = [[0, 1], [2, 3], [4, 5], [6, 7]] stream_id = 0 input_offsets = [0, 4] send_sizes = [4, -1] output_offsets = [0, 4] recv_sizes = [4, 4] input_aps = [#bir.ap<0, [[1, 8]]>, #bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Every update's rows fit both buffers.
// CHECK-NEXT: AllToAllV entry 1 sends rows [4, 10) of 8 into rows [4, 10) of 8
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>, %y: tensor<2x4xf32>) {
    %r = bir.collective_compute AllToAllV(%x, %x) replica_groups = [[0, 1], [2, 3], [4, 5], [6, 7]] stream_id = 0 input_offsets = [0, 4] send_sizes = [4, 6] output_offsets = [0, 4] recv_sizes = [4, 6] input_aps = [#bir.ap<0, [[1, 8]]>, #bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// AllToAllV takes the initial output as its second input.
// CHECK-NEXT: AllToAllV takes each sent buffer and a local buffer (2 inputs per output): 1 inputs for 1 outputs
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>, %y: tensor<2x4xf32>) {
    %r = bir.collective_compute AllToAllV(%x) replica_groups = [[0, 1], [2, 3], [4, 5], [6, 7]] stream_id = 0 input_offsets = [0, 4] send_sizes = [4, 4] output_offsets = [0, 4] recv_sizes = [4, 4] input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>) -> tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// A send's data pattern is one pattern over the whole buffer.
// CHECK-NEXT: collective_send input_aps needs one access pattern, got 2
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>, %y: tensor<2x4xf32>) {
    bir.collective_send %x peer_id = [1, -1, -1, -1, -1, -1, -1, -1] channel_id = 1 input_aps = [#bir.ap<0, [[1, 4]]>, #bir.ap<4, [[1, 4]]>] : tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// A recv's pattern covers its data.
// CHECK-NEXT: collective_recv output_aps: access pattern visits 4 elements, but the tensor has 8
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>, %y: tensor<2x4xf32>) {
    %r = bir.collective_recv peer_id = [-1, 0, -1, -1, -1, -1, -1, -1] channel_id = 1 output_aps = [#bir.ap<0, [[1, 4]]>] : tensor<8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// The semaphore's written pattern covers it.
// CHECK-NEXT: core_barrier output_aps (written): access pattern addresses [1, 1] leave [0, 1)
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>, %y: tensor<2x4xf32>) {
    %r = bir.core_barrier %s cores = [0, 1] cb_id = 0 input_aps = [#bir.ap<0, [[1, 1]]>] output_aps = [#bir.ap<1, [[1, 1]]>] : tensor<1xi32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// The rank's register is a name.
// CHECK-NEXT: get_global_rank_id register must be an identifier, got '0 r'
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>, %y: tensor<2x4xf32>) {
    %r = bir.get_global_rank_id world_size = 8 engine = ALL register = "0 r" : tensor<ui32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// BroadcastPartition: no more partitions than the DVE channels of a bank.
// CHECK-NEXT: too large broadcast in 32 vs 16
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>, %y: tensor<2x4xf32>) {
    %r = bir.broadcast_partition %x partitions = 32 channels = 16 input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[8, 32], [1, 8]]>] : (tensor<8xf32>) -> tensor<32x8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// BroadcastPartition does not convert.
// CHECK-NEXT: Unsupported cast: broadcast_partition from f32 to bf16
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>, %y: tensor<2x4xf32>) {
    %r = bir.broadcast_partition %x partitions = 2 channels = 16 input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[8, 2], [1, 8]]>] : (tensor<8xf32>) -> tensor<2x8xbf16>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// The result is [partitions] + the input's shape.
// CHECK-NEXT: broadcast_partition of tensor<8xf32> to 2 partitions returns tensor<2x...> with the input's shape after the partition dimension, got tensor<4x8xf32>
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>, %y: tensor<2x4xf32>) {
    %r = bir.broadcast_partition %x partitions = 2 channels = 16 input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[8, 4], [1, 8]]>] : (tensor<8xf32>) -> tensor<4x8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// A target has at least one DVE channel.
// CHECK-NEXT: channels (DVE channels per bank) must be positive, got 0
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>, %y: tensor<2x4xf32>) {
    %r = bir.broadcast_partition %x partitions = 2 channels = 0 input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[8, 2], [1, 8]]>] : (tensor<8xf32>) -> tensor<2x8xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Its patterns cover the buffers.
// CHECK-NEXT: broadcast_partition output_aps: access pattern visits 8 elements, but the tensor has 16
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64} {
  func.func @f(%x: tensor<8xf32>, %s: tensor<1xi32>, %y: tensor<2x4xf32>) {
    %r = bir.broadcast_partition %x partitions = 2 channels = 16 input_aps = [#bir.ap<0, [[1, 8]]>] output_aps = [#bir.ap<0, [[1, 8]]>] : (tensor<8xf32>) -> tensor<2x8xf32>
    func.return
  }
}
