// RUN: neuron-opt %s --split-input-file -p spmd-expand-reshard | filecheck %s
// RUN: neuron-opt %s --split-input-file -p 'spmd-expand-reshard{use-iota-device-lists=false}' | filecheck %s --check-prefix=EXPLICIT
// RUN: neuron-opt %s --split-input-file -p 'spmd-expand-reshard{remarks=true}' -o /dev/null 2>&1 | filecheck %s --check-prefix=REMARK

// Only the device order differs: one collective_permute (XLA lists identity pairs too).
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.use_spmd_partitioning} {
  func.func @permute(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
    %r = hlo.custom_call "Sharding"(%x) {xla.sharding = "{devices=[4,1]3,2,1,0}", xla.source_sharding = "{devices=[4,1]<=[4]}"} : (tensor<2x8xf32>) -> tensor<2x8xf32>
    func.return %r : tensor<2x8xf32>
  }
}

// CHECK-LABEL: func.func @permute(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
// CHECK-NEXT:    %r = hlo.collective_permute %x pairs = [[0, 3], [1, 2], [2, 1], [3, 0]] channel_id = 1 : tensor<2x8xf32>
// CHECK-NEXT:    func.return %r : tensor<2x8xf32>
// CHECK-NEXT:  }

// -----

// The source sharding comes from the producer; tiles move from dim 0 to dim 1: all_to_all.
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.use_spmd_partitioning} {
  func.func @all_to_all(%x: tensor<2x8xf32>) -> tensor<8x2xf32> {
    %y = hlo.negate %x {xla.sharding = "{devices=[4,1]<=[4]}"} : tensor<2x8xf32>
    %r = hlo.custom_call "Sharding"(%y) {xla.sharding = "{devices=[1,4]<=[4]}"} : (tensor<2x8xf32>) -> tensor<8x2xf32>
    func.return %r : tensor<8x2xf32>
  }
}

// CHECK-LABEL: func.func @all_to_all(%x: tensor<2x8xf32>) -> tensor<8x2xf32> {
// CHECK-NEXT:    %y = hlo.negate %x {xla.sharding = "{devices=[4,1]<=[4]}"} : tensor<2x8xf32>
// CHECK-NEXT:    [[V0:%[0-9]+]] = hlo.reshape %y : (tensor<2x8xf32>) -> tensor<2x4x2xf32>
// CHECK-NEXT:    [[V1:%[0-9]+]] = hlo.all_to_all([[V0]]) dim = 1 replica_groups = [1,4]<=[4] channel_id = 1 : (tensor<2x4x2xf32>) -> tensor<2x4x2xf32>
// CHECK-NEXT:    [[V2:%[0-9]+]] = hlo.transpose [[V1]], dims = [1, 0, 2] : (tensor<2x4x2xf32>) -> tensor<4x2x2xf32>
// CHECK-NEXT:    %r = hlo.reshape [[V2]] : (tensor<4x2x2xf32>) -> tensor<8x2xf32>
// CHECK-NEXT:    func.return %r : tensor<8x2xf32>
// CHECK-NEXT:  }

// EXPLICIT-LABEL: func.func @all_to_all(%x: tensor<2x8xf32>) -> tensor<8x2xf32> {
// EXPLICIT-NEXT:    %y = hlo.negate %x {xla.sharding = "{devices=[4,1]<=[4]}"} : tensor<2x8xf32>
// EXPLICIT-NEXT:    [[V0:%[0-9]+]] = hlo.reshape %y : (tensor<2x8xf32>) -> tensor<2x4x2xf32>
// EXPLICIT-NEXT:    [[V1:%[0-9]+]] = hlo.all_to_all([[V0]]) dim = 1 replica_groups = [[0, 1, 2, 3]] channel_id = 1 : (tensor<2x4x2xf32>) -> tensor<2x4x2xf32>
// EXPLICIT-NEXT:    [[V2:%[0-9]+]] = hlo.transpose [[V1]], dims = [1, 0, 2] : (tensor<2x4x2xf32>) -> tensor<4x2x2xf32>
// EXPLICIT-NEXT:    %r = hlo.reshape [[V2]] : (tensor<4x2x2xf32>) -> tensor<8x2xf32>
// EXPLICIT-NEXT:    func.return %r : tensor<8x2xf32>
// EXPLICIT-NEXT:  }

// -----

// Tiled -> partially replicated (source from the argument's sharding): gather dim 1 only.
// Channel ids continue after the module's largest one.
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.use_spmd_partitioning} {
  func.func @all_gather(%x: tensor<4x4xf32> {xla.sharding = "{devices=[2,2]<=[4]}"}) -> tensor<4x8xf32> {
    %p = hlo.collective_permute %x pairs = [[0, 1], [1, 0]] channel_id = 7 : tensor<4x4xf32>
    %r = hlo.custom_call "Sharding"(%p) {xla.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}", xla.source_sharding = #hlo.sharding<{devices=[2,2]<=[4]}>} : (tensor<4x4xf32>) -> tensor<4x8xf32>
    func.return %r : tensor<4x8xf32>
  }
}

// CHECK-LABEL: func.func @all_gather(%x: tensor<4x4xf32> {xla.sharding = "{devices=[2,2]<=[4]}"}) -> tensor<4x8xf32> {
// CHECK-NEXT:    %p = hlo.collective_permute %x pairs = [[0, 1], [1, 0]] channel_id = 7 : tensor<4x4xf32>
// CHECK-NEXT:    %r = hlo.all_gather(%p) dim = 1 replica_groups = [2,2]<=[4] channel_id = 8 use_global_device_ids : (tensor<4x4xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    func.return %r : tensor<4x8xf32>
// CHECK-NEXT:  }

// EXPLICIT-LABEL: func.func @all_gather(%x: tensor<4x4xf32> {xla.sharding = "{devices=[2,2]<=[4]}"}) -> tensor<4x8xf32> {
// EXPLICIT-NEXT:    %p = hlo.collective_permute %x pairs = [[0, 1], [1, 0]] channel_id = 7 : tensor<4x4xf32>
// EXPLICIT-NEXT:    %r = hlo.all_gather(%p) dim = 1 replica_groups = [[0, 1], [2, 3]] channel_id = 8 use_global_device_ids : (tensor<4x4xf32>) -> tensor<4x8xf32>
// EXPLICIT-NEXT:    func.return %r : tensor<4x8xf32>
// EXPLICIT-NEXT:  }

// -----

// Replicated -> tiled: a dynamic_slice at offsets from partition_id tables.
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.use_spmd_partitioning} {
  func.func @slice(%x: tensor<8x8xf32>) -> tensor<4x4xf32> {
    %r = hlo.custom_call "Sharding"(%x) {xla.sharding = "{devices=[2,2]<=[4]}", xla.source_sharding = "{replicated}"} : (tensor<8x8xf32>) -> tensor<4x4xf32>
    func.return %r : tensor<4x4xf32>
  }
}

// CHECK-LABEL: func.func @slice(%x: tensor<8x8xf32>) -> tensor<4x4xf32> {
// CHECK-NEXT:    [[V0:%[0-9]+]] = hlo.partition_id : tensor<ui32>
// CHECK-NEXT:    [[V1:%[0-9]+]] = hlo.constant dense<[0, 0, 4, 4]> : tensor<4xi32>
// CHECK-NEXT:    [[V2:%[0-9]+]] = hlo.dynamic_slice [[V1]] at [[[V0]]] sizes = [1] : (tensor<4xi32>, tensor<ui32>) -> tensor<1xi32>
// CHECK-NEXT:    [[V3:%[0-9]+]] = hlo.reshape [[V2]] : (tensor<1xi32>) -> tensor<i32>
// CHECK-NEXT:    [[V4:%[0-9]+]] = hlo.constant dense<[0, 4, 0, 4]> : tensor<4xi32>
// CHECK-NEXT:    [[V5:%[0-9]+]] = hlo.dynamic_slice [[V4]] at [[[V0]]] sizes = [1] : (tensor<4xi32>, tensor<ui32>) -> tensor<1xi32>
// CHECK-NEXT:    [[V6:%[0-9]+]] = hlo.reshape [[V5]] : (tensor<1xi32>) -> tensor<i32>
// CHECK-NEXT:    %r = hlo.dynamic_slice %x at [[[V3]], [[V6]]] sizes = [4, 4] : (tensor<8x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x4xf32>
// CHECK-NEXT:    func.return %r : tensor<4x4xf32>
// CHECK-NEXT:  }

// -----

// Tiles move from dim 1 to dim 0 ([2,2] -> [4,1]), the devices then sit elsewhere: one
// all_to_all, then a collective_permute to the target's order.
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.use_spmd_partitioning} {
  func.func @all_to_all_permute(%x: tensor<4x4xf32>) -> tensor<2x8xf32> {
    %r = hlo.custom_call "Sharding"(%x) {xla.sharding = "{devices=[4,1]<=[4]}", xla.source_sharding = "{devices=[2,2]<=[2,2]T(1,0)}"} : (tensor<4x4xf32>) -> tensor<2x8xf32>
    func.return %r : tensor<2x8xf32>
  }
}

// CHECK-LABEL: func.func @all_to_all_permute(%x: tensor<4x4xf32>) -> tensor<2x8xf32> {
// CHECK-NEXT:    [[V0:%[0-9]+]] = hlo.reshape %x : (tensor<4x4xf32>) -> tensor<2x2x4xf32>
// CHECK-NEXT:    [[V1:%[0-9]+]] = hlo.all_to_all([[V0]]) dim = 0 replica_groups = [2,2]<=[2,2]T(1,0) channel_id = 1 : (tensor<2x2x4xf32>) -> tensor<2x2x4xf32>
// CHECK-NEXT:    [[V2:%[0-9]+]] = hlo.transpose [[V1]], dims = [1, 0, 2] : (tensor<2x2x4xf32>) -> tensor<2x2x4xf32>
// CHECK-NEXT:    [[V3:%[0-9]+]] = hlo.reshape [[V2]] : (tensor<2x2x4xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:    %r = hlo.collective_permute [[V3]] pairs = [[0, 0], [2, 1], [1, 2], [3, 3]] channel_id = 2 : tensor<2x8xf32>
// CHECK-NEXT:    func.return %r : tensor<2x8xf32>
// CHECK-NEXT:  }

// -----

// A 3-D move ([2,2,1] -> [1,1,4]): a chain of two all_to_alls, one per source dim.
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.use_spmd_partitioning} {
  func.func @all_to_all_chain(%x: tensor<2x2x8xf32>) -> tensor<4x4x2xf32> {
    %r = hlo.custom_call "Sharding"(%x) {xla.sharding = "{devices=[1,1,4]<=[4]}", xla.source_sharding = "{devices=[2,2,1]<=[4]}"} : (tensor<2x2x8xf32>) -> tensor<4x4x2xf32>
    func.return %r : tensor<4x4x2xf32>
  }
}

// CHECK-LABEL: func.func @all_to_all_chain(%x: tensor<2x2x8xf32>) -> tensor<4x4x2xf32> {
// CHECK-NEXT:    [[V0:%[0-9]+]] = hlo.reshape %x : (tensor<2x2x8xf32>) -> tensor<2x2x2x4xf32>
// CHECK-NEXT:    [[V1:%[0-9]+]] = hlo.all_to_all([[V0]]) dim = 2 replica_groups = [2,2]<=[2,2]T(1,0) channel_id = 1 : (tensor<2x2x2x4xf32>) -> tensor<2x2x2x4xf32>
// CHECK-NEXT:    [[V2:%[0-9]+]] = hlo.transpose [[V1]], dims = [2, 0, 1, 3] : (tensor<2x2x2x4xf32>) -> tensor<2x2x2x4xf32>
// CHECK-NEXT:    [[V3:%[0-9]+]] = hlo.reshape [[V2]] : (tensor<2x2x2x4xf32>) -> tensor<4x2x4xf32>
// CHECK-NEXT:    [[V4:%[0-9]+]] = hlo.reshape [[V3]] : (tensor<4x2x4xf32>) -> tensor<4x2x2x2xf32>
// CHECK-NEXT:    [[V5:%[0-9]+]] = hlo.all_to_all([[V4]]) dim = 2 replica_groups = [2,2]<=[4] channel_id = 2 : (tensor<4x2x2x2xf32>) -> tensor<4x2x2x2xf32>
// CHECK-NEXT:    [[V6:%[0-9]+]] = hlo.transpose [[V5]], dims = [0, 2, 1, 3] : (tensor<4x2x2x2xf32>) -> tensor<4x2x2x2xf32>
// CHECK-NEXT:    %r = hlo.reshape [[V6]] : (tensor<4x2x2x2xf32>) -> tensor<4x4x2xf32>
// CHECK-NEXT:    func.return %r : tensor<4x4x2xf32>
// CHECK-NEXT:  }

// -----

// Tiles move AND the replication grows ([4,1] -> [1,2] x 2 copies): gather the factor 2 of
// dim 0 first ([2,1] x 2), then one all_to_all: no permute needed.
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.use_spmd_partitioning} {
  func.func @all_gather_all_to_all(%x: tensor<2x8xf32>) -> tensor<8x4xf32> {
    %r = hlo.custom_call "Sharding"(%x) {xla.sharding = "{devices=[1,2,2]<=[4] last_tile_dim_replicate}", xla.source_sharding = "{devices=[4,1]<=[4]}"} : (tensor<2x8xf32>) -> tensor<8x4xf32>
    func.return %r : tensor<8x4xf32>
  }
}

// CHECK-LABEL: func.func @all_gather_all_to_all(%x: tensor<2x8xf32>) -> tensor<8x4xf32> {
// CHECK-NEXT:    [[V0:%[0-9]+]] = hlo.all_gather(%x) dim = 0 replica_groups = [2,2]<=[4] channel_id = 1 use_global_device_ids : (tensor<2x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    [[V1:%[0-9]+]] = hlo.reshape [[V0]] : (tensor<4x8xf32>) -> tensor<4x2x4xf32>
// CHECK-NEXT:    [[V2:%[0-9]+]] = hlo.all_to_all([[V1]]) dim = 1 replica_groups = [2,2]<=[2,2]T(1,0) channel_id = 2 : (tensor<4x2x4xf32>) -> tensor<4x2x4xf32>
// CHECK-NEXT:    [[V3:%[0-9]+]] = hlo.transpose [[V2]], dims = [1, 0, 2] : (tensor<4x2x4xf32>) -> tensor<2x4x4xf32>
// CHECK-NEXT:    %r = hlo.reshape [[V3]] : (tensor<2x4x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:    func.return %r : tensor<8x4xf32>
// CHECK-NEXT:  }

// -----

// The same move to another device order: gathering first would need a permute after its
// all_to_all, so the all_to_all goes first (to [2,2]), a permute, then one all_gather.
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.use_spmd_partitioning} {
  func.func @all_to_all_all_gather(%x: tensor<2x8xf32>) -> tensor<8x4xf32> {
    %r = hlo.custom_call "Sharding"(%x) {xla.sharding = "{devices=[1,2,2]3,1,0,2 last_tile_dim_replicate}", xla.source_sharding = "{devices=[4,1]<=[4]}"} : (tensor<2x8xf32>) -> tensor<8x4xf32>
    func.return %r : tensor<8x4xf32>
  }
}

// CHECK-LABEL: func.func @all_to_all_all_gather(%x: tensor<2x8xf32>) -> tensor<8x4xf32> {
// CHECK-NEXT:    [[V0:%[0-9]+]] = hlo.reshape %x : (tensor<2x8xf32>) -> tensor<2x2x4xf32>
// CHECK-NEXT:    [[V1:%[0-9]+]] = hlo.all_to_all([[V0]]) dim = 1 replica_groups = [2,2]<=[4] channel_id = 1 : (tensor<2x2x4xf32>) -> tensor<2x2x4xf32>
// CHECK-NEXT:    [[V2:%[0-9]+]] = hlo.transpose [[V1]], dims = [1, 0, 2] : (tensor<2x2x4xf32>) -> tensor<2x2x4xf32>
// CHECK-NEXT:    [[V3:%[0-9]+]] = hlo.reshape [[V2]] : (tensor<2x2x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:    [[V4:%[0-9]+]] = hlo.collective_permute [[V3]] pairs = [[0, 3], [1, 0], [2, 1], [3, 2]] channel_id = 2 : tensor<4x4xf32>
// CHECK-NEXT:    %r = hlo.all_gather([[V4]]) dim = 0 replica_groups = [[3, 1], [0, 2]] channel_id = 3 use_global_device_ids : (tensor<4x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:    func.return %r : tensor<8x4xf32>
// CHECK-NEXT:  }

// -----

// Tiles move AND the replication shrinks ([1,2] x 2 copies -> [4,1]): a dynamic_slice to
// [2,2], then all_to_all (and a permute to the target's device order).
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.use_spmd_partitioning} {
  func.func @slice_all_to_all(%x: tensor<8x4xf32>) -> tensor<2x8xf32> {
    %r = hlo.custom_call "Sharding"(%x) {xla.sharding = "{devices=[4,1]<=[4]}", xla.source_sharding = "{devices=[1,2,2]<=[4] last_tile_dim_replicate}"} : (tensor<8x4xf32>) -> tensor<2x8xf32>
    func.return %r : tensor<2x8xf32>
  }
}

// CHECK-LABEL: func.func @slice_all_to_all(%x: tensor<8x4xf32>) -> tensor<2x8xf32> {
// CHECK-NEXT:    [[V0:%[0-9]+]] = hlo.partition_id : tensor<ui32>
// CHECK-NEXT:    [[V1:%[0-9]+]] = hlo.constant dense<[0, 4, 0, 4]> : tensor<4xi32>
// CHECK-NEXT:    [[V2:%[0-9]+]] = hlo.dynamic_slice [[V1]] at [[[V0]]] sizes = [1] : (tensor<4xi32>, tensor<ui32>) -> tensor<1xi32>
// CHECK-NEXT:    [[V3:%[0-9]+]] = hlo.reshape [[V2]] : (tensor<1xi32>) -> tensor<i32>
// CHECK-NEXT:    [[V4:%[0-9]+]] = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:    [[V5:%[0-9]+]] = hlo.dynamic_slice %x at [[[V3]], [[V4]]] sizes = [4, 4] : (tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<4x4xf32>
// CHECK-NEXT:    [[V6:%[0-9]+]] = hlo.reshape [[V5]] : (tensor<4x4xf32>) -> tensor<2x2x4xf32>
// CHECK-NEXT:    [[V7:%[0-9]+]] = hlo.all_to_all([[V6]]) dim = 0 replica_groups = [2,2]<=[2,2]T(1,0) channel_id = 1 : (tensor<2x2x4xf32>) -> tensor<2x2x4xf32>
// CHECK-NEXT:    [[V8:%[0-9]+]] = hlo.transpose [[V7]], dims = [1, 0, 2] : (tensor<2x2x4xf32>) -> tensor<2x2x4xf32>
// CHECK-NEXT:    [[V9:%[0-9]+]] = hlo.reshape [[V8]] : (tensor<2x2x4xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:    %r = hlo.collective_permute [[V9]] pairs = [[0, 0], [2, 1], [1, 2], [3, 3]] channel_id = 2 : tensor<2x8xf32>
// CHECK-NEXT:    func.return %r : tensor<2x8xf32>
// CHECK-NEXT:  }

// -----

// No factor of dim 1's 3 tiles divides into dim 0's ([2,3] -> [3,2] on 6 partitions): gather
// everything, then slice.
builtin.module attributes {hlo.num_partitions = 6 : i64, hlo.use_spmd_partitioning} {
  func.func @gather_slice(%x: tensor<3x2xf32>) -> tensor<2x3xf32> {
    %r = hlo.custom_call "Sharding"(%x) {xla.sharding = "{devices=[3,2]<=[6]}", xla.source_sharding = "{devices=[2,3]<=[6]}"} : (tensor<3x2xf32>) -> tensor<2x3xf32>
    func.return %r : tensor<2x3xf32>
  }
}

// CHECK-LABEL: func.func @gather_slice(%x: tensor<3x2xf32>) -> tensor<2x3xf32> {
// CHECK-NEXT:    [[V0:%[0-9]+]] = hlo.all_gather(%x) dim = 1 replica_groups = [2,3]<=[6] channel_id = 1 use_global_device_ids : (tensor<3x2xf32>) -> tensor<3x6xf32>
// CHECK-NEXT:    [[V1:%[0-9]+]] = hlo.all_gather([[V0]]) dim = 0 replica_groups = [3,2]<=[2,3]T(1,0) channel_id = 2 use_global_device_ids : (tensor<3x6xf32>) -> tensor<6x6xf32>
// CHECK-NEXT:    [[V2:%[0-9]+]] = hlo.partition_id : tensor<ui32>
// CHECK-NEXT:    [[V3:%[0-9]+]] = hlo.constant dense<[0, 0, 2, 2, 4, 4]> : tensor<6xi32>
// CHECK-NEXT:    [[V4:%[0-9]+]] = hlo.dynamic_slice [[V3]] at [[[V2]]] sizes = [1] : (tensor<6xi32>, tensor<ui32>) -> tensor<1xi32>
// CHECK-NEXT:    [[V5:%[0-9]+]] = hlo.reshape [[V4]] : (tensor<1xi32>) -> tensor<i32>
// CHECK-NEXT:    [[V6:%[0-9]+]] = hlo.constant dense<[0, 3, 0, 3, 0, 3]> : tensor<6xi32>
// CHECK-NEXT:    [[V7:%[0-9]+]] = hlo.dynamic_slice [[V6]] at [[[V2]]] sizes = [1] : (tensor<6xi32>, tensor<ui32>) -> tensor<1xi32>
// CHECK-NEXT:    [[V8:%[0-9]+]] = hlo.reshape [[V7]] : (tensor<1xi32>) -> tensor<i32>
// CHECK-NEXT:    %r = hlo.dynamic_slice [[V1]] at [[[V5]], [[V8]]] sizes = [2, 3] : (tensor<6x6xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
// CHECK-NEXT:    func.return %r : tensor<2x3xf32>
// CHECK-NEXT:  }

// -----

// Same placement: the call disappears. Kept: no source sharding; a maximal sharding.
builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.use_spmd_partitioning} {
  func.func @kept(%x: tensor<2x8xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>) {
    %a = hlo.custom_call "Sharding"(%x) {xla.sharding = "{devices=[4,1]<=[4]}", xla.source_sharding = "{devices=[4,1]0,1,2,3}"} : (tensor<2x8xf32>) -> tensor<2x8xf32>
    %b = hlo.custom_call "Sharding"(%x) {xla.sharding = "{devices=[4,1]<=[4]}"} : (tensor<2x8xf32>) -> tensor<2x8xf32>
    %c = hlo.custom_call "Sharding"(%x) {xla.sharding = "{maximal device=0}", xla.source_sharding = "{devices=[4,1]<=[4]}"} : (tensor<2x8xf32>) -> tensor<2x8xf32>
    func.return %a, %b, %c : tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>
  }
}

// CHECK-LABEL: func.func @kept(%x: tensor<2x8xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>) {
// CHECK-NEXT:    %b = hlo.custom_call "Sharding"(%x) {xla.sharding = "{devices=[4,1]<=[4]}"} : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:    %c = hlo.custom_call "Sharding"(%x) {xla.sharding = "{maximal device=0}", xla.source_sharding = "{devices=[4,1]<=[4]}"} : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:    func.return %x, %b, %c : tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>
// CHECK-NEXT:  }

// -----

// Not a per-partition program (no hlo.num_partitions): kept.
builtin.module {
  func.func @unpartitioned(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.custom_call "Sharding"(%x) {xla.sharding = "{replicated}", xla.source_sharding = "{replicated}"} : (tensor<8xf32>) -> tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}

// CHECK-LABEL: func.func @unpartitioned(%x: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT:    %r = hlo.custom_call "Sharding"(%x) {xla.sharding = "{replicated}", xla.source_sharding = "{replicated}"} : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:    func.return %r : tensor<8xf32>
// CHECK-NEXT:  }


// REMARK: remark: spmd-expand-reshard: %r (hlo.custom_call): {devices=[4,1]<=[4]} -> {devices=[4,1]3,2,1,0}: permute
// REMARK-NEXT: remark: spmd-expand-reshard: %r (hlo.custom_call): {devices=[4,1]<=[4]} -> {devices=[1,4]<=[4]}: all_to_all
// REMARK-NEXT: remark: spmd-expand-reshard: %r (hlo.custom_call): {devices=[2,2]<=[4]} -> {devices=[2,1,2]<=[4] last_tile_dim_replicate}: all_gather
// REMARK-NEXT: remark: spmd-expand-reshard: %r (hlo.custom_call): {replicated} -> {devices=[2,2]<=[4]}: slice
// REMARK-NEXT: remark: spmd-expand-reshard: %r (hlo.custom_call): {devices=[2,2]<=[2,2]T(1,0)} -> {devices=[4,1]<=[4]}: all_to_all+permute
// REMARK-NEXT: remark: spmd-expand-reshard: %r (hlo.custom_call): {devices=[2,2,1]<=[4]} -> {devices=[1,1,4]<=[4]}: all_to_all
// REMARK-NEXT: remark: spmd-expand-reshard: %r (hlo.custom_call): {devices=[4,1]<=[4]} -> {devices=[1,2,2]<=[4] last_tile_dim_replicate}: all_gather+all_to_all
// REMARK-NEXT: remark: spmd-expand-reshard: %r (hlo.custom_call): {devices=[4,1]<=[4]} -> {devices=[1,2,2]3,1,0,2 last_tile_dim_replicate}: all_to_all+all_gather
// REMARK-NEXT: remark: spmd-expand-reshard: %r (hlo.custom_call): {devices=[1,2,2]<=[4] last_tile_dim_replicate} -> {devices=[4,1]<=[4]}: slice+all_to_all
// REMARK-NEXT: remark: spmd-expand-reshard: %r (hlo.custom_call): {devices=[2,3]<=[6]} -> {devices=[3,2]<=[6]}: gather_slice
// REMARK-NEXT: remark: spmd-expand-reshard: %a (hlo.custom_call): {devices=[4,1]0,1,2,3} -> {devices=[4,1]<=[4]}: noop
// REMARK-NEXT: remark: spmd-expand-reshard: %b (hlo.custom_call): kept: no source or no target sharding
// REMARK-NEXT: remark: spmd-expand-reshard: %c (hlo.custom_call): kept: cannot reshard a maximal sharding
// REMARK-NEXT: remark: spmd-expand-reshard: %r (hlo.custom_call): kept: the module has no hlo.num_partitions
