// RUN: neuron-opt %s --split-input-file | neuron-opt --split-input-file | filecheck %s
// RUN: neuron-opt %s --split-input-file --print-op-generic | neuron-opt --split-input-file | filecheck %s

// Every hlo op, round-tripped pretty -> pretty and pretty -> generic -> pretty.
// Sections: collectives, control-flow, elementwise, data-movement, computation.

// ===== collectives ===========================================================

// CHECK: builtin.module {
builtin.module {
  // 2 replicas x 4 partitions: replica ids in [0, 2), partition ids in [0, 4), flattened ids in [0, 8).
  // CHECK-NEXT: builtin.module @r2p4 attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
  builtin.module @r2p4 attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 2 : i64} {
    // CHECK-LABEL: func.func @all_reduce_modes(%x: tensor<8xf32>) {
    func.func @all_reduce_modes(%x: tensor<8xf32>) {
      // cross_replica (no channel_id): groups of replica ids.
      // CHECK-NEXT: %cr = hlo.all_reduce(%x) replica_groups = [[0, 1]] {
      %cr = hlo.all_reduce(%x) replica_groups = [[0, 1]] {
      // CHECK-NEXT: ^bb0(%a0: tensor<f32>, %b0: tensor<f32>):
      ^bb0(%a0: tensor<f32>, %b0: tensor<f32>):
        // CHECK-NEXT: %c0 = hlo.add %a0, %b0 : tensor<f32>
        %c0 = hlo.add %a0, %b0 : tensor<f32>
        // CHECK-NEXT: hlo.return %c0 : tensor<f32>
        hlo.return %c0 : tensor<f32>
      // CHECK-NEXT: } : (tensor<8xf32>) -> tensor<8xf32>
      } : (tensor<8xf32>) -> tensor<8xf32>
      // Empty groups: one group of every replica.
      // CHECK-NEXT: %empty = hlo.all_reduce(%x) replica_groups = [] {
      %empty = hlo.all_reduce(%x) replica_groups = [] {
      // CHECK-NEXT: ^bb0(%a1: tensor<f32>, %b1: tensor<f32>):
      ^bb0(%a1: tensor<f32>, %b1: tensor<f32>):
        // CHECK-NEXT: %c1 = hlo.add %a1, %b1 : tensor<f32>
        %c1 = hlo.add %a1, %b1 : tensor<f32>
        // CHECK-NEXT: hlo.return %c1 : tensor<f32>
        hlo.return %c1 : tensor<f32>
      // CHECK-NEXT: } : (tensor<8xf32>) -> tensor<8xf32>
      } : (tensor<8xf32>) -> tensor<8xf32>
      // cross_replica_and_partition (channel_id, no use_global_device_ids): replica ids.
      // CHECK-NEXT: %crp = hlo.all_reduce(%x) replica_groups = [[0], [1]] channel_id = 1 {
      %crp = hlo.all_reduce(%x) replica_groups = [[0], [1]] channel_id = 1 {
      // CHECK-NEXT: ^bb0(%a2: tensor<f32>, %b2: tensor<f32>):
      ^bb0(%a2: tensor<f32>, %b2: tensor<f32>):
        // CHECK-NEXT: %c2 = hlo.add %a2, %b2 : tensor<f32>
        %c2 = hlo.add %a2, %b2 : tensor<f32>
        // CHECK-NEXT: hlo.return %c2 : tensor<f32>
        hlo.return %c2 : tensor<f32>
      // CHECK-NEXT: } : (tensor<8xf32>) -> tensor<8xf32>
      } : (tensor<8xf32>) -> tensor<8xf32>
      // flattened_id (channel_id + use_global_device_ids): ids r*P+p in [0, 8).
      // CHECK-NEXT: %flat = hlo.all_reduce(%x) replica_groups = [[0, 1, 2, 3], [4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
      %flat = hlo.all_reduce(%x) replica_groups = [[0, 1, 2, 3], [4, 5, 6, 7]] channel_id = 2 use_global_device_ids {
      // CHECK-NEXT: ^bb0(%a3: tensor<f32>, %b3: tensor<f32>):
      ^bb0(%a3: tensor<f32>, %b3: tensor<f32>):
        // CHECK-NEXT: %c3 = hlo.add %a3, %b3 : tensor<f32>
        %c3 = hlo.add %a3, %b3 : tensor<f32>
        // CHECK-NEXT: hlo.return %c3 : tensor<f32>
        hlo.return %c3 : tensor<f32>
      // CHECK-NEXT: } : (tensor<8xf32>) -> tensor<8xf32>
      } : (tensor<8xf32>) -> tensor<8xf32>
      // Iota groups with a transpose: {0,2,4,6},{1,3,5,7}.
      // CHECK-NEXT: %iota_t = hlo.all_reduce(%x) replica_groups = [2,4]<=[4,2]T(1,0) channel_id = 3 use_global_device_ids {
      %iota_t = hlo.all_reduce(%x) replica_groups = [2,4]<=[4,2]T(1,0) channel_id = 3 use_global_device_ids {
      // CHECK-NEXT: ^bb0(%a4: tensor<f32>, %b4: tensor<f32>):
      ^bb0(%a4: tensor<f32>, %b4: tensor<f32>):
        // CHECK-NEXT: %c4 = hlo.maximum %a4, %b4 : tensor<f32>
        %c4 = hlo.maximum %a4, %b4 : tensor<f32>
        // CHECK-NEXT: hlo.return %c4 : tensor<f32>
        hlo.return %c4 : tensor<f32>
      // CHECK-NEXT: } : (tensor<8xf32>) -> tensor<8xf32>
      } : (tensor<8xf32>) -> tensor<8xf32>
      // Iota groups without a transpose: {0,1,2,3},{4,5,6,7}.
      // CHECK-NEXT: %iota = hlo.all_reduce(%x) replica_groups = [2,4]<=[8] channel_id = 4 use_global_device_ids {
      %iota = hlo.all_reduce(%x) replica_groups = [2,4]<=[8] channel_id = 4 use_global_device_ids {
      // CHECK-NEXT: ^bb0(%a5: tensor<f32>, %b5: tensor<f32>):
      ^bb0(%a5: tensor<f32>, %b5: tensor<f32>):
        // CHECK-NEXT: %c5 = hlo.add %a5, %b5 : tensor<f32>
        %c5 = hlo.add %a5, %b5 : tensor<f32>
        // CHECK-NEXT: hlo.return %c5 : tensor<f32>
        hlo.return %c5 : tensor<f32>
      // CHECK-NEXT: } : (tensor<8xf32>) -> tensor<8xf32>
      } : (tensor<8xf32>) -> tensor<8xf32>
      // CHECK-NEXT: %layout = hlo.all_reduce(%x) replica_groups = [[1, 0]] constrain_layout {
      %layout = hlo.all_reduce(%x) replica_groups = [[1, 0]] constrain_layout {
      // CHECK-NEXT: ^bb0(%a6: tensor<f32>, %b6: tensor<f32>):
      ^bb0(%a6: tensor<f32>, %b6: tensor<f32>):
        // CHECK-NEXT: %c6 = hlo.add %a6, %b6 : tensor<f32>
        %c6 = hlo.add %a6, %b6 : tensor<f32>
        // CHECK-NEXT: hlo.return %c6 : tensor<f32>
        hlo.return %c6 : tensor<f32>
      // CHECK-NEXT: } : (tensor<8xf32>) -> tensor<8xf32>
      } : (tensor<8xf32>) -> tensor<8xf32>
      // CHECK-NEXT: %all = hlo.all_reduce(%x) replica_groups = [[0, 2, 4, 6], [1, 3, 5, 7]] channel_id = 5 use_global_device_ids constrain_layout {
      %all = hlo.all_reduce(%x) replica_groups = [[0, 2, 4, 6], [1, 3, 5, 7]] channel_id = 5 use_global_device_ids constrain_layout {
      // CHECK-NEXT: ^bb0(%a7: tensor<f32>, %b7: tensor<f32>):
      ^bb0(%a7: tensor<f32>, %b7: tensor<f32>):
        // CHECK-NEXT: %c7 = hlo.add %a7, %b7 : tensor<f32>
        %c7 = hlo.add %a7, %b7 : tensor<f32>
        // CHECK-NEXT: hlo.return %c7 : tensor<f32>
        hlo.return %c7 : tensor<f32>
      // CHECK-NEXT: } : (tensor<8xf32>) -> tensor<8xf32>
      } : (tensor<8xf32>) -> tensor<8xf32>
      // Discardable attributes are kept in the attribute dictionary after the region.
      // CHECK-NEXT: %attr = hlo.all_reduce(%x) replica_groups = [[0, 1]] {
      %attr = hlo.all_reduce(%x) replica_groups = [[0, 1]] {
      // CHECK-NEXT: ^bb0(%a8: tensor<f32>, %b8: tensor<f32>):
      ^bb0(%a8: tensor<f32>, %b8: tensor<f32>):
        // CHECK-NEXT: %c8 = hlo.add %a8, %b8 : tensor<f32>
        %c8 = hlo.add %a8, %b8 : tensor<f32>
        // CHECK-NEXT: hlo.return %c8 : tensor<f32>
        hlo.return %c8 : tensor<f32>
      // CHECK-NEXT: } {frontend_attributes = {tag = "x"{{[}][}]}} : (tensor<8xf32>) -> tensor<8xf32>
      } {frontend_attributes = {tag = "x"}} : (tensor<8xf32>) -> tensor<8xf32>
      // CHECK-NEXT: func.return
      func.return
    // CHECK-NEXT: }
    }
    // CHECK-LABEL: func.func @all_reduce_variadic(%x: tensor<8xf32>, %y: tensor<2x3xf32>, %i: tensor<4xi32>, %j: tensor<i32>) {
    func.func @all_reduce_variadic(%x: tensor<8xf32>, %y: tensor<2x3xf32>, %i: tensor<4xi32>, %j: tensor<i32>) {
      // Several operands: a tuple result; one reducer over the shared element type.
      // CHECK-NEXT: %t = hlo.all_reduce(%x, %y) replica_groups = [[0, 1]] {
      %t = hlo.all_reduce(%x, %y) replica_groups = [[0, 1]] {
      // CHECK-NEXT: ^bb0(%a9: tensor<f32>, %b9: tensor<f32>):
      ^bb0(%a9: tensor<f32>, %b9: tensor<f32>):
        // CHECK-NEXT: %c9 = hlo.add %a9, %b9 : tensor<f32>
        %c9 = hlo.add %a9, %b9 : tensor<f32>
        // CHECK-NEXT: hlo.return %c9 : tensor<f32>
        hlo.return %c9 : tensor<f32>
      // CHECK-NEXT: } : (tensor<8xf32>, tensor<2x3xf32>) -> tuple<tensor<8xf32>, tensor<2x3xf32>>
      } : (tensor<8xf32>, tensor<2x3xf32>) -> tuple<tensor<8xf32>, tensor<2x3xf32>>
      // CHECK-NEXT: %ti = hlo.all_reduce(%i, %j, %i) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 6 use_global_device_ids {
      %ti = hlo.all_reduce(%i, %j, %i) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 6 use_global_device_ids {
      // CHECK-NEXT: ^bb0(%a10: tensor<i32>, %b10: tensor<i32>):
      ^bb0(%a10: tensor<i32>, %b10: tensor<i32>):
        // CHECK-NEXT: %c10 = hlo.add %a10, %b10 : tensor<i32>
        %c10 = hlo.add %a10, %b10 : tensor<i32>
        // CHECK-NEXT: hlo.return %c10 : tensor<i32>
        hlo.return %c10 : tensor<i32>
      // CHECK-NEXT: } : (tensor<4xi32>, tensor<i32>, tensor<4xi32>) -> tuple<tensor<4xi32>, tensor<i32>, tensor<4xi32>>
      } : (tensor<4xi32>, tensor<i32>, tensor<4xi32>) -> tuple<tensor<4xi32>, tensor<i32>, tensor<4xi32>>
      // CHECK-NEXT: func.return
      func.return
    // CHECK-NEXT: }
    }
    // CHECK-LABEL: func.func @all_reduce_non_uniform(%x: tensor<8xbf16>) -> tensor<8xbf16> {
    func.func @all_reduce_non_uniform(%x: tensor<8xbf16>) -> tensor<8xbf16> {
      // Non-uniform group sizes are accepted for all_reduce (and only for it).
      // CHECK-NEXT: %r = hlo.all_reduce(%x) replica_groups = [[0, 1, 2], [3, 4, 5, 6, 7]] channel_id = 7 use_global_device_ids {
      %r = hlo.all_reduce(%x) replica_groups = [[0, 1, 2], [3, 4, 5, 6, 7]] channel_id = 7 use_global_device_ids {
      // CHECK-NEXT: ^bb0(%a11: tensor<bf16>, %b11: tensor<bf16>):
      ^bb0(%a11: tensor<bf16>, %b11: tensor<bf16>):
        // CHECK-NEXT: %c11 = hlo.add %a11, %b11 : tensor<bf16>
        %c11 = hlo.add %a11, %b11 : tensor<bf16>
        // CHECK-NEXT: hlo.return %c11 : tensor<bf16>
        hlo.return %c11 : tensor<bf16>
      // CHECK-NEXT: } : (tensor<8xbf16>) -> tensor<8xbf16>
      } : (tensor<8xbf16>) -> tensor<8xbf16>
      // CHECK-NEXT: func.return %r : tensor<8xbf16>
      func.return %r : tensor<8xbf16>
    // CHECK-NEXT: }
    }
    // CHECK-LABEL: func.func @all_gather(%x: tensor<2x4xf32>, %y: tensor<3xi32>) {
    func.func @all_gather(%x: tensor<2x4xf32>, %y: tensor<3xi32>) {
      // all_gather: out[dim] = in[dim] * group size (2 replicas).
      // CHECK-NEXT: %g0 = hlo.all_gather(%x) dim = 0 replica_groups = [[0, 1]] : (tensor<2x4xf32>) -> tensor<4x4xf32>
      %g0 = hlo.all_gather(%x) dim = 0 replica_groups = [[0, 1]] : (tensor<2x4xf32>) -> tensor<4x4xf32>
      // CHECK-NEXT: %g1 = hlo.all_gather(%x) dim = 1 replica_groups = [] : (tensor<2x4xf32>) -> tensor<2x8xf32>
      %g1 = hlo.all_gather(%x) dim = 1 replica_groups = [] : (tensor<2x4xf32>) -> tensor<2x8xf32>
      // cross_replica_and_partition: a group of 2 replicas spans 2 x 4 = 8 devices.
      // CHECK-NEXT: %g2 = hlo.all_gather(%x) dim = 0 replica_groups = [[0, 1]] channel_id = 1 : (tensor<2x4xf32>) -> tensor<16x4xf32>
      %g2 = hlo.all_gather(%x) dim = 0 replica_groups = [[0, 1]] channel_id = 1 : (tensor<2x4xf32>) -> tensor<16x4xf32>
      // CHECK-NEXT: %g3 = hlo.all_gather(%x) dim = 1 replica_groups = [2,4]<=[4,2]T(1,0) channel_id = 2 use_global_device_ids : (tensor<2x4xf32>) -> tensor<2x16xf32>
      %g3 = hlo.all_gather(%x) dim = 1 replica_groups = [2,4]<=[4,2]T(1,0) channel_id = 2 use_global_device_ids : (tensor<2x4xf32>) -> tensor<2x16xf32>
      // CHECK-NEXT: %g4 = hlo.all_gather(%x) dim = 0 replica_groups = [2,4]<=[8] channel_id = 3 use_global_device_ids constrain_layout : (tensor<2x4xf32>) -> tensor<8x4xf32>
      %g4 = hlo.all_gather(%x) dim = 0 replica_groups = [2,4]<=[8] channel_id = 3 use_global_device_ids constrain_layout : (tensor<2x4xf32>) -> tensor<8x4xf32>
      // Singleton groups gather nothing: the shape is unchanged.
      // CHECK-NEXT: %g5 = hlo.all_gather(%x) dim = 0 replica_groups = [[1], [0]] constrain_layout : (tensor<2x4xf32>) -> tensor<2x4xf32>
      %g5 = hlo.all_gather(%x) dim = 0 replica_groups = [[1], [0]] constrain_layout : (tensor<2x4xf32>) -> tensor<2x4xf32>
      // Tuple form: every operand is gathered along the same dimension.
      // CHECK-NEXT: %g6 = hlo.all_gather(%x, %y) dim = 0 replica_groups = [[0, 1]] : (tensor<2x4xf32>, tensor<3xi32>) -> tuple<tensor<4x4xf32>, tensor<6xi32>>
      %g6 = hlo.all_gather(%x, %y) dim = 0 replica_groups = [[0, 1]] : (tensor<2x4xf32>, tensor<3xi32>) -> tuple<tensor<4x4xf32>, tensor<6xi32>>
      // CHECK-NEXT: %g7 = hlo.all_gather(%x, %y) dim = 0 replica_groups = [[0, 4], [1, 5], [2, 6], [3, 7]] channel_id = 4 use_global_device_ids : (tensor<2x4xf32>, tensor<3xi32>) -> tuple<tensor<4x4xf32>, tensor<6xi32>>
      %g7 = hlo.all_gather(%x, %y) dim = 0 replica_groups = [[0, 4], [1, 5], [2, 6], [3, 7]] channel_id = 4 use_global_device_ids : (tensor<2x4xf32>, tensor<3xi32>) -> tuple<tensor<4x4xf32>, tensor<6xi32>>
      // CHECK-NEXT: func.return
      func.return
    // CHECK-NEXT: }
    }
    // CHECK-LABEL: func.func @reduce_scatter(%x: tensor<8x4xf32>, %y: tensor<16xf32>) {
    func.func @reduce_scatter(%x: tensor<8x4xf32>, %y: tensor<16xf32>) {
      // reduce_scatter: out[dim] = in[dim] / group size.
      // CHECK-NEXT: %s0 = hlo.reduce_scatter(%x) dim = 0 replica_groups = [[0, 1]] {
      %s0 = hlo.reduce_scatter(%x) dim = 0 replica_groups = [[0, 1]] {
      // CHECK-NEXT: ^bb0(%a12: tensor<f32>, %b12: tensor<f32>):
      ^bb0(%a12: tensor<f32>, %b12: tensor<f32>):
        // CHECK-NEXT: %c12 = hlo.add %a12, %b12 : tensor<f32>
        %c12 = hlo.add %a12, %b12 : tensor<f32>
        // CHECK-NEXT: hlo.return %c12 : tensor<f32>
        hlo.return %c12 : tensor<f32>
      // CHECK-NEXT: } : (tensor<8x4xf32>) -> tensor<4x4xf32>
      } : (tensor<8x4xf32>) -> tensor<4x4xf32>
      // CHECK-NEXT: %s1 = hlo.reduce_scatter(%x) dim = 1 replica_groups = [] {
      %s1 = hlo.reduce_scatter(%x) dim = 1 replica_groups = [] {
      // CHECK-NEXT: ^bb0(%a13: tensor<f32>, %b13: tensor<f32>):
      ^bb0(%a13: tensor<f32>, %b13: tensor<f32>):
        // CHECK-NEXT: %c13 = hlo.add %a13, %b13 : tensor<f32>
        %c13 = hlo.add %a13, %b13 : tensor<f32>
        // CHECK-NEXT: hlo.return %c13 : tensor<f32>
        hlo.return %c13 : tensor<f32>
      // CHECK-NEXT: } : (tensor<8x4xf32>) -> tensor<8x2xf32>
      } : (tensor<8x4xf32>) -> tensor<8x2xf32>
      // cross_replica_and_partition: group size 2 x 4 = 8.
      // CHECK-NEXT: %s2 = hlo.reduce_scatter(%x) dim = 0 replica_groups = [[0, 1]] channel_id = 1 {
      %s2 = hlo.reduce_scatter(%x) dim = 0 replica_groups = [[0, 1]] channel_id = 1 {
      // CHECK-NEXT: ^bb0(%a14: tensor<f32>, %b14: tensor<f32>):
      ^bb0(%a14: tensor<f32>, %b14: tensor<f32>):
        // CHECK-NEXT: %c14 = hlo.add %a14, %b14 : tensor<f32>
        %c14 = hlo.add %a14, %b14 : tensor<f32>
        // CHECK-NEXT: hlo.return %c14 : tensor<f32>
        hlo.return %c14 : tensor<f32>
      // CHECK-NEXT: } : (tensor<8x4xf32>) -> tensor<1x4xf32>
      } : (tensor<8x4xf32>) -> tensor<1x4xf32>
      // CHECK-NEXT: %s3 = hlo.reduce_scatter(%x) dim = 1 replica_groups = [2,4]<=[4,2]T(1,0) channel_id = 2 use_global_device_ids {
      %s3 = hlo.reduce_scatter(%x) dim = 1 replica_groups = [2,4]<=[4,2]T(1,0) channel_id = 2 use_global_device_ids {
      // CHECK-NEXT: ^bb0(%a15: tensor<f32>, %b15: tensor<f32>):
      ^bb0(%a15: tensor<f32>, %b15: tensor<f32>):
        // CHECK-NEXT: %c15 = hlo.add %a15, %b15 : tensor<f32>
        %c15 = hlo.add %a15, %b15 : tensor<f32>
        // CHECK-NEXT: hlo.return %c15 : tensor<f32>
        hlo.return %c15 : tensor<f32>
      // CHECK-NEXT: } : (tensor<8x4xf32>) -> tensor<8x1xf32>
      } : (tensor<8x4xf32>) -> tensor<8x1xf32>
      // CHECK-NEXT: %s4 = hlo.reduce_scatter(%x) dim = 0 replica_groups = [2,4]<=[8] channel_id = 3 use_global_device_ids constrain_layout {
      %s4 = hlo.reduce_scatter(%x) dim = 0 replica_groups = [2,4]<=[8] channel_id = 3 use_global_device_ids constrain_layout {
      // CHECK-NEXT: ^bb0(%a16: tensor<f32>, %b16: tensor<f32>):
      ^bb0(%a16: tensor<f32>, %b16: tensor<f32>):
        // CHECK-NEXT: %c16 = hlo.add %a16, %b16 : tensor<f32>
        %c16 = hlo.add %a16, %b16 : tensor<f32>
        // CHECK-NEXT: hlo.return %c16 : tensor<f32>
        hlo.return %c16 : tensor<f32>
      // CHECK-NEXT: } : (tensor<8x4xf32>) -> tensor<2x4xf32>
      } : (tensor<8x4xf32>) -> tensor<2x4xf32>
      // CHECK-NEXT: %s5 = hlo.reduce_scatter(%x, %y) dim = 0 replica_groups = [[0, 1]] {
      %s5 = hlo.reduce_scatter(%x, %y) dim = 0 replica_groups = [[0, 1]] {
      // CHECK-NEXT: ^bb0(%a17: tensor<f32>, %b17: tensor<f32>):
      ^bb0(%a17: tensor<f32>, %b17: tensor<f32>):
        // CHECK-NEXT: %c17 = hlo.add %a17, %b17 : tensor<f32>
        %c17 = hlo.add %a17, %b17 : tensor<f32>
        // CHECK-NEXT: hlo.return %c17 : tensor<f32>
        hlo.return %c17 : tensor<f32>
      // CHECK-NEXT: } : (tensor<8x4xf32>, tensor<16xf32>) -> tuple<tensor<4x4xf32>, tensor<8xf32>>
      } : (tensor<8x4xf32>, tensor<16xf32>) -> tuple<tensor<4x4xf32>, tensor<8xf32>>
      // CHECK-NEXT: func.return
      func.return
    // CHECK-NEXT: }
    }
    // CHECK-LABEL: func.func @all_to_all(%x: tensor<8x2xf32>, %y: tensor<3xi32>, %z: tensor<3xi32>) {
    func.func @all_to_all(%x: tensor<8x2xf32>, %y: tensor<3xi32>, %z: tensor<3xi32>) {
      // Array form (dim = ...): one operand, result shape = operand shape.
      // CHECK-NEXT: %a0 = hlo.all_to_all(%x) dim = 0 replica_groups = [[0, 1]] : (tensor<8x2xf32>) -> tensor<8x2xf32>
      %a0 = hlo.all_to_all(%x) dim = 0 replica_groups = [[0, 1]] : (tensor<8x2xf32>) -> tensor<8x2xf32>
      // With channel_id all_to_all is cross_partition: partition ids in [0, 4).
      // CHECK-NEXT: %a1 = hlo.all_to_all(%x) dim = 0 replica_groups = [[0, 1, 2, 3]] channel_id = 1 : (tensor<8x2xf32>) -> tensor<8x2xf32>
      %a1 = hlo.all_to_all(%x) dim = 0 replica_groups = [[0, 1, 2, 3]] channel_id = 1 : (tensor<8x2xf32>) -> tensor<8x2xf32>
      // CHECK-NEXT: %a2 = hlo.all_to_all(%x) dim = 1 replica_groups = [[0, 2], [1, 3]] channel_id = 2 : (tensor<8x2xf32>) -> tensor<8x2xf32>
      %a2 = hlo.all_to_all(%x) dim = 1 replica_groups = [[0, 2], [1, 3]] channel_id = 2 : (tensor<8x2xf32>) -> tensor<8x2xf32>
      // CHECK-NEXT: %a3 = hlo.all_to_all(%x) dim = 0 replica_groups = [] channel_id = 3 constrain_layout : (tensor<8x2xf32>) -> tensor<8x2xf32>
      %a3 = hlo.all_to_all(%x) dim = 0 replica_groups = [] channel_id = 3 constrain_layout : (tensor<8x2xf32>) -> tensor<8x2xf32>
      // CHECK-NEXT: %a4 = hlo.all_to_all(%x) dim = 1 replica_groups = [2,2]<=[2,2]T(1,0) channel_id = 4 : (tensor<8x2xf32>) -> tensor<8x2xf32>
      %a4 = hlo.all_to_all(%x) dim = 1 replica_groups = [2,2]<=[2,2]T(1,0) channel_id = 4 : (tensor<8x2xf32>) -> tensor<8x2xf32>
      // Tuple form: one operand per group member, a tuple result.
      // CHECK-NEXT: %a5 = hlo.all_to_all(%y, %z) replica_groups = [[0, 1]] : (tensor<3xi32>, tensor<3xi32>) -> tuple<tensor<3xi32>, tensor<3xi32>>
      %a5 = hlo.all_to_all(%y, %z) replica_groups = [[0, 1]] : (tensor<3xi32>, tensor<3xi32>) -> tuple<tensor<3xi32>, tensor<3xi32>>
      // CHECK-NEXT: %a6 = hlo.all_to_all(%y, %z) replica_groups = [[0, 3], [1, 2]] channel_id = 5 : (tensor<3xi32>, tensor<3xi32>) -> tuple<tensor<3xi32>, tensor<3xi32>>
      %a6 = hlo.all_to_all(%y, %z) replica_groups = [[0, 3], [1, 2]] channel_id = 5 : (tensor<3xi32>, tensor<3xi32>) -> tuple<tensor<3xi32>, tensor<3xi32>>
      // CHECK-NEXT: %a7 = hlo.all_to_all(%y, %z) replica_groups = [] constrain_layout : (tensor<3xi32>, tensor<3xi32>) -> tuple<tensor<3xi32>, tensor<3xi32>>
      %a7 = hlo.all_to_all(%y, %z) replica_groups = [] constrain_layout : (tensor<3xi32>, tensor<3xi32>) -> tuple<tensor<3xi32>, tensor<3xi32>>
      // CHECK-NEXT: func.return
      func.return
    // CHECK-NEXT: }
    }
    // CHECK-LABEL: func.func @collective_broadcast(%x: tensor<4xf32>, %y: tensor<i1>) {
    func.func @collective_broadcast(%x: tensor<4xf32>, %y: tensor<i1>) {
      // CHECK-NEXT: %b0 = hlo.collective_broadcast(%x) replica_groups = [[0, 1]] : (tensor<4xf32>) -> tensor<4xf32>
      %b0 = hlo.collective_broadcast(%x) replica_groups = [[0, 1]] : (tensor<4xf32>) -> tensor<4xf32>
      // CHECK-NEXT: %b1 = hlo.collective_broadcast(%x) replica_groups = [] : (tensor<4xf32>) -> tensor<4xf32>
      %b1 = hlo.collective_broadcast(%x) replica_groups = [] : (tensor<4xf32>) -> tensor<4xf32>
      // collective_broadcast need not cover every id (root = first id of the group).
      // CHECK-NEXT: %b2 = hlo.collective_broadcast(%x) replica_groups = [[3, 1]] channel_id = 1 : (tensor<4xf32>) -> tensor<4xf32>
      %b2 = hlo.collective_broadcast(%x) replica_groups = [[3, 1]] channel_id = 1 : (tensor<4xf32>) -> tensor<4xf32>
      // CHECK-NEXT: %b3 = hlo.collective_broadcast(%x) replica_groups = [2,2]<=[4] channel_id = 2 constrain_layout : (tensor<4xf32>) -> tensor<4xf32>
      %b3 = hlo.collective_broadcast(%x) replica_groups = [2,2]<=[4] channel_id = 2 constrain_layout : (tensor<4xf32>) -> tensor<4xf32>
      // CHECK-NEXT: %b4 = hlo.collective_broadcast(%x, %y) replica_groups = [[1, 0]] : (tensor<4xf32>, tensor<i1>) -> tuple<tensor<4xf32>, tensor<i1>>
      %b4 = hlo.collective_broadcast(%x, %y) replica_groups = [[1, 0]] : (tensor<4xf32>, tensor<i1>) -> tuple<tensor<4xf32>, tensor<i1>>
      // CHECK-NEXT: func.return
      func.return
    // CHECK-NEXT: }
    }
    // CHECK-LABEL: func.func @collective_permute(%x: tensor<4xf32>) {
    func.func @collective_permute(%x: tensor<4xf32>) {
      // cross_replica without channel_id (replica ids), cross_partition with one.
      // CHECK-NEXT: %p0 = hlo.collective_permute %x pairs = [[0, 1], [1, 0]] : tensor<4xf32>
      %p0 = hlo.collective_permute %x pairs = [[0, 1], [1, 0]] : tensor<4xf32>
      // CHECK-NEXT: %p1 = hlo.collective_permute %x pairs = [[0, 1], [1, 2], [2, 3]] channel_id = 1 : tensor<4xf32>
      %p1 = hlo.collective_permute %x pairs = [[0, 1], [1, 2], [2, 3]] channel_id = 1 : tensor<4xf32>
      // No pairs: every device receives zeros.
      // CHECK-NEXT: %p2 = hlo.collective_permute %x pairs = [] : tensor<4xf32>
      %p2 = hlo.collective_permute %x pairs = [] : tensor<4xf32>
      // CHECK-NEXT: %p3 = hlo.collective_permute %x pairs = [[1, 1]] {frontend_attributes = {tag = "self"{{[}][}]}} : tensor<4xf32>
      %p3 = hlo.collective_permute %x pairs = [[1, 1]] {frontend_attributes = {tag = "self"}} : tensor<4xf32>
      // CHECK-NEXT: func.return
      func.return
    // CHECK-NEXT: }
    }
    // CHECK-LABEL: func.func @send_recv(%x: tensor<4xf32>, %tok: !hlo.token) {
    func.func @send_recv(%x: tensor<4xf32>, %tok: !hlo.token) {
      // XLA shapes: send/recv -> (data, u32[], token), recv_done -> (data, token), send_done -> token.
      // CHECK-NEXT: %s = hlo.send %x, %tok channel_id = 1 {_xla_send_recv_source_target_pairs = "{{[{][{]}}0,1},{1,2{{[}][}]}}"} : tensor<4xf32> -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
      %s = hlo.send %x, %tok channel_id = 1 {_xla_send_recv_source_target_pairs = "{{0,1},{1,2}}"} : tensor<4xf32> -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
      // CHECK-NEXT: %sd = hlo.send_done %s channel_id = 1 {_xla_send_recv_source_target_pairs = "{{[{][{]}}0,1},{1,2{{[}][}]}}"} : tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
      %sd = hlo.send_done %s channel_id = 1 {_xla_send_recv_source_target_pairs = "{{0,1},{1,2}}"} : tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
      // CHECK-NEXT: %r = hlo.recv %tok channel_id = 2 {_xla_send_recv_source_target_pairs = "{{[{][{]}}0,1},{1,2{{[}][}]}}"} : tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
      %r = hlo.recv %tok channel_id = 2 {_xla_send_recv_source_target_pairs = "{{0,1},{1,2}}"} : tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
      // CHECK-NEXT: %rd = hlo.recv_done %r channel_id = 2 {_xla_send_recv_source_target_pairs = "{{[{][{]}}0,1},{1,2{{[}][}]}}"} : tuple<tensor<4xf32>, tensor<ui32>, !hlo.token> -> tuple<tensor<4xf32>, !hlo.token>
      %rd = hlo.recv_done %r channel_id = 2 {_xla_send_recv_source_target_pairs = "{{0,1},{1,2}}"} : tuple<tensor<4xf32>, tensor<ui32>, !hlo.token> -> tuple<tensor<4xf32>, !hlo.token>
      // Host transfers.
      // CHECK-NEXT: %hs = hlo.send %x, %sd channel_id = 3 is_host_transfer : tensor<4xf32> -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
      %hs = hlo.send %x, %sd channel_id = 3 is_host_transfer : tensor<4xf32> -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
      // CHECK-NEXT: %hsd = hlo.send_done %hs channel_id = 3 is_host_transfer : tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
      %hsd = hlo.send_done %hs channel_id = 3 is_host_transfer : tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
      // CHECK-NEXT: %hr = hlo.recv %hsd channel_id = 4 is_host_transfer : tuple<tensor<2x2xi8>, tensor<ui32>, !hlo.token>
      %hr = hlo.recv %hsd channel_id = 4 is_host_transfer : tuple<tensor<2x2xi8>, tensor<ui32>, !hlo.token>
      // CHECK-NEXT: %hrd = hlo.recv_done %hr channel_id = 4 is_host_transfer : tuple<tensor<2x2xi8>, tensor<ui32>, !hlo.token> -> tuple<tensor<2x2xi8>, !hlo.token>
      %hrd = hlo.recv_done %hr channel_id = 4 is_host_transfer : tuple<tensor<2x2xi8>, tensor<ui32>, !hlo.token> -> tuple<tensor<2x2xi8>, !hlo.token>
      // CHECK-NEXT: func.return
      func.return
    // CHECK-NEXT: }
    }
    // CHECK-LABEL: func.func @device_ids() -> (tensor<ui32>, tensor<ui32>) {
    func.func @device_ids() -> (tensor<ui32>, tensor<ui32>) {
      // CHECK-NEXT: %p = hlo.partition_id : tensor<ui32>
      %p = hlo.partition_id : tensor<ui32>
      // CHECK-NEXT: %r = hlo.replica_id : tensor<ui32>
      %r = hlo.replica_id : tensor<ui32>
      // CHECK-NEXT: func.return %p, %r : tensor<ui32>, tensor<ui32>
      func.return %p, %r : tensor<ui32>, tensor<ui32>
    // CHECK-NEXT: }
    }
  // CHECK-NEXT: }
  }
  // 8 replicas: the iota lists of docs/collective-semantics.md §5 in cross_replica mode.
  // CHECK-NEXT: builtin.module @r8 attributes {hlo.num_replicas = 8 : i64} {
  builtin.module @r8 attributes {hlo.num_replicas = 8 : i64} {
    // CHECK-LABEL: func.func @cross_replica_iota(%x: tensor<8xf32>) {
    func.func @cross_replica_iota(%x: tensor<8xf32>) {
      // CHECK-NEXT: %i0 = hlo.all_reduce(%x) replica_groups = [2,4]<=[8] {
      %i0 = hlo.all_reduce(%x) replica_groups = [2,4]<=[8] {
      // CHECK-NEXT: ^bb0(%a18: tensor<f32>, %b18: tensor<f32>):
      ^bb0(%a18: tensor<f32>, %b18: tensor<f32>):
        // CHECK-NEXT: %c18 = hlo.add %a18, %b18 : tensor<f32>
        %c18 = hlo.add %a18, %b18 : tensor<f32>
        // CHECK-NEXT: hlo.return %c18 : tensor<f32>
        hlo.return %c18 : tensor<f32>
      // CHECK-NEXT: } : (tensor<8xf32>) -> tensor<8xf32>
      } : (tensor<8xf32>) -> tensor<8xf32>
      // CHECK-NEXT: %i1 = hlo.all_gather(%x) dim = 0 replica_groups = [2,4]<=[4,2]T(1,0) : (tensor<8xf32>) -> tensor<32xf32>
      %i1 = hlo.all_gather(%x) dim = 0 replica_groups = [2,4]<=[4,2]T(1,0) : (tensor<8xf32>) -> tensor<32xf32>
      // CHECK-NEXT: %i2 = hlo.reduce_scatter(%x) dim = 0 replica_groups = [4,2]<=[2,4]T(1,0) {
      %i2 = hlo.reduce_scatter(%x) dim = 0 replica_groups = [4,2]<=[2,4]T(1,0) {
      // CHECK-NEXT: ^bb0(%a19: tensor<f32>, %b19: tensor<f32>):
      ^bb0(%a19: tensor<f32>, %b19: tensor<f32>):
        // CHECK-NEXT: %c19 = hlo.add %a19, %b19 : tensor<f32>
        %c19 = hlo.add %a19, %b19 : tensor<f32>
        // CHECK-NEXT: hlo.return %c19 : tensor<f32>
        hlo.return %c19 : tensor<f32>
      // CHECK-NEXT: } : (tensor<8xf32>) -> tensor<4xf32>
      } : (tensor<8xf32>) -> tensor<4xf32>
      // [4,2]<=[2,2,2]T(0,2,1) = {0,2},{1,3},{4,6},{5,7}
      // CHECK-NEXT: %i3 = hlo.all_to_all(%x) dim = 0 replica_groups = [4,2]<=[2,2,2]T(0,2,1) : (tensor<8xf32>) -> tensor<8xf32>
      %i3 = hlo.all_to_all(%x) dim = 0 replica_groups = [4,2]<=[2,2,2]T(0,2,1) : (tensor<8xf32>) -> tensor<8xf32>
      // [2,4]<=[2,2,2]T(1,2,0) = {0,4,1,5},{2,6,3,7}; canonicalised: dims 1 and 2 merge.
      // CHECK-NEXT: %i4 = hlo.collective_broadcast(%x) replica_groups = [2,4]<=[2,4]T(1,0) : (tensor<8xf32>) -> tensor<8xf32>
      %i4 = hlo.collective_broadcast(%x) replica_groups = [2,4]<=[2,2,2]T(1,2,0) : (tensor<8xf32>) -> tensor<8xf32>
      // An identity transpose merges the reshape dims into one (canonical form).
      // CHECK-NEXT: %i5 = hlo.all_gather(%x) dim = 0 replica_groups = [2,4]<=[8] : (tensor<8xf32>) -> tensor<32xf32>
      %i5 = hlo.all_gather(%x) dim = 0 replica_groups = [2,4]<=[2,4]T(0,1) : (tensor<8xf32>) -> tensor<32xf32>
      // CHECK-NEXT: %i6 = hlo.all_gather(%x) dim = 0 replica_groups = [1,8]<=[8] : (tensor<8xf32>) -> tensor<64xf32>
      %i6 = hlo.all_gather(%x) dim = 0 replica_groups = [1,8]<=[8] : (tensor<8xf32>) -> tensor<64xf32>
      // CHECK-NEXT: func.return
      func.return
    // CHECK-NEXT: }
    }
  // CHECK-NEXT: }
  }
  // 8 partitions, 1 replica: cross_partition ids in [0, 8).
  // CHECK-NEXT: builtin.module @p8 attributes {hlo.num_partitions = 8 : i64} {
  builtin.module @p8 attributes {hlo.num_partitions = 8 : i64} {
    // CHECK-LABEL: func.func @cross_partition(%x: tensor<8xf32>) {
    func.func @cross_partition(%x: tensor<8xf32>) {
      // CHECK-NEXT: %q0 = hlo.all_to_all(%x) dim = 0 replica_groups = [2,4]<=[4,2]T(1,0) channel_id = 1 : (tensor<8xf32>) -> tensor<8xf32>
      %q0 = hlo.all_to_all(%x) dim = 0 replica_groups = [2,4]<=[4,2]T(1,0) channel_id = 1 : (tensor<8xf32>) -> tensor<8xf32>
      // CHECK-NEXT: %q1 = hlo.collective_permute %x pairs = [[0, 7], [7, 0]] channel_id = 2 : tensor<8xf32>
      %q1 = hlo.collective_permute %x pairs = [[0, 7], [7, 0]] channel_id = 2 : tensor<8xf32>
      // CHECK-NEXT: %q2 = hlo.all_gather(%x) dim = 0 replica_groups = [[0]] channel_id = 3 : (tensor<8xf32>) -> tensor<64xf32>
      %q2 = hlo.all_gather(%x) dim = 0 replica_groups = [[0]] channel_id = 3 : (tensor<8xf32>) -> tensor<64xf32>
      // CHECK-NEXT: func.return
      func.return
    // CHECK-NEXT: }
    }
  // CHECK-NEXT: }
  }
  // No device-count attributes: 1 replica x 1 partition.
  // CHECK-NEXT: builtin.module @single {
  builtin.module @single {
    // CHECK-LABEL: func.func @defaults(%x: tensor<8xf32>) {
    func.func @defaults(%x: tensor<8xf32>) {
      // CHECK-NEXT: %d0 = hlo.all_gather(%x) dim = 0 replica_groups = [[0]] : (tensor<8xf32>) -> tensor<8xf32>
      %d0 = hlo.all_gather(%x) dim = 0 replica_groups = [[0]] : (tensor<8xf32>) -> tensor<8xf32>
      // CHECK-NEXT: %d1 = hlo.all_gather(%x) dim = 0 replica_groups = [[0]] channel_id = 1 use_global_device_ids : (tensor<8xf32>) -> tensor<8xf32>
      %d1 = hlo.all_gather(%x) dim = 0 replica_groups = [[0]] channel_id = 1 use_global_device_ids : (tensor<8xf32>) -> tensor<8xf32>
      // CHECK-NEXT: func.return
      func.return
    // CHECK-NEXT: }
    }
  // CHECK-NEXT: }
  }
// CHECK-NEXT: }
}

// -----

// ===== control-flow ==========================================================

// CHECK: builtin.module attributes {hlo.num_replicas = 4 : i64} {
builtin.module attributes {hlo.num_replicas = 4 : i64} {
  // CHECK-LABEL: func.func @tuples(%a: tensor<4xf32>, %b: tensor<i32>, %tok: !hlo.token) -> tensor<i32> {
  func.func @tuples(%a: tensor<4xf32>, %b: tensor<i32>, %tok: !hlo.token) -> tensor<i32> {
    // CHECK-NEXT: %t = hlo.tuple %a, %b : tuple<tensor<4xf32>, tensor<i32>>
    %t = hlo.tuple %a, %b : tuple<tensor<4xf32>, tensor<i32>>
    // CHECK-NEXT: %e0 = hlo.get_tuple_element %t[0] : tuple<tensor<4xf32>, tensor<i32>>
    %e0 = hlo.get_tuple_element %t[0] : tuple<tensor<4xf32>, tensor<i32>>
    // CHECK-NEXT: %e1 = hlo.get_tuple_element %t[1] : tuple<tensor<4xf32>, tensor<i32>>
    %e1 = hlo.get_tuple_element %t[1] : tuple<tensor<4xf32>, tensor<i32>>
    // The empty tuple.
    // CHECK-NEXT: %empty = hlo.tuple : tuple<>
    %empty = hlo.tuple : tuple<>
    // CHECK-NEXT: %one = hlo.tuple %a : tuple<tensor<4xf32>>
    %one = hlo.tuple %a : tuple<tensor<4xf32>>
    // Tuples nest and may hold tokens.
    // CHECK-NEXT: %nested = hlo.tuple %t, %tok, %empty : tuple<tuple<tensor<4xf32>, tensor<i32>>, !hlo.token, tuple<>>
    %nested = hlo.tuple %t, %tok, %empty : tuple<tuple<tensor<4xf32>, tensor<i32>>, !hlo.token, tuple<>>
    // CHECK-NEXT: %inner = hlo.get_tuple_element %nested[0] : tuple<tuple<tensor<4xf32>, tensor<i32>>, !hlo.token, tuple<>>
    %inner = hlo.get_tuple_element %nested[0] : tuple<tuple<tensor<4xf32>, tensor<i32>>, !hlo.token, tuple<>>
    // CHECK-NEXT: %tok1 = hlo.get_tuple_element %nested[1] : tuple<tuple<tensor<4xf32>, tensor<i32>>, !hlo.token, tuple<>>
    %tok1 = hlo.get_tuple_element %nested[1] : tuple<tuple<tensor<4xf32>, tensor<i32>>, !hlo.token, tuple<>>
    // Discardable attributes print before the type.
    // CHECK-NEXT: %attr = hlo.tuple %a, %a {sharding = "{replicated}"} : tuple<tensor<4xf32>, tensor<4xf32>>
    %attr = hlo.tuple %a, %a {sharding = "{replicated}"} : tuple<tensor<4xf32>, tensor<4xf32>>
    // CHECK-NEXT: %attr1 = hlo.get_tuple_element %attr[1] {sharding = "{replicated}"} : tuple<tensor<4xf32>, tensor<4xf32>>
    %attr1 = hlo.get_tuple_element %attr[1] {sharding = "{replicated}"} : tuple<tensor<4xf32>, tensor<4xf32>>
    // CHECK-NEXT: func.return %e1 : tensor<i32>
    func.return %e1 : tensor<i32>
  // CHECK-NEXT: }
  }
  // Gradient accumulation: carry (counter, accumulator); each step all-reduces a micro-batch gradient and adds it into slot 1.
  // CHECK-LABEL: func.func @grad_accumulation() -> tensor<4xf32> {
  func.func @grad_accumulation() -> tensor<4xf32> {
    // CHECK-NEXT: %zero_i = hlo.custom_call "zeros"() : () -> tensor<i32>
    %zero_i = hlo.custom_call "zeros"() : () -> tensor<i32>
    // CHECK-NEXT: %zero = hlo.custom_call "zeros"() : () -> tensor<4xf32>
    %zero = hlo.custom_call "zeros"() : () -> tensor<4xf32>
    // CHECK-NEXT: %init = hlo.tuple %zero_i, %zero : tuple<tensor<i32>, tensor<4xf32>>
    %init = hlo.tuple %zero_i, %zero : tuple<tensor<i32>, tensor<4xf32>>
    // CHECK-NEXT: %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>> condition {
    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>> condition {
    // CHECK-NEXT: ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>>):
    ^bb0(%cs: tuple<tensor<i32>, tensor<4xf32>>):
      // CHECK-NEXT: %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>>
      %ci = hlo.get_tuple_element %cs[0] : tuple<tensor<i32>, tensor<4xf32>>
      // CHECK-NEXT: %n = hlo.custom_call "num_microbatches"() : () -> tensor<i32>
      %n = hlo.custom_call "num_microbatches"() : () -> tensor<i32>
      // CHECK-NEXT: %lt = hlo.custom_call "less_than"(%ci, %n) : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %lt = hlo.custom_call "less_than"(%ci, %n) : (tensor<i32>, tensor<i32>) -> tensor<i1>
      // CHECK-NEXT: hlo.return %lt : tensor<i1>
      hlo.return %lt : tensor<i1>
    // CHECK-NEXT: } body {
    } body {
    // CHECK-NEXT: ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>>):
    ^bb0(%bs: tuple<tensor<i32>, tensor<4xf32>>):
      // CHECK-NEXT: %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>>
      %i = hlo.get_tuple_element %bs[0] : tuple<tensor<i32>, tensor<4xf32>>
      // CHECK-NEXT: %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>>
      %acc = hlo.get_tuple_element %bs[1] : tuple<tensor<i32>, tensor<4xf32>>
      // CHECK-NEXT: %grad = hlo.custom_call "microbatch_grad"(%i) : (tensor<i32>) -> tensor<4xf32>
      %grad = hlo.custom_call "microbatch_grad"(%i) : (tensor<i32>) -> tensor<4xf32>
      // CHECK-NEXT: %sum = hlo.all_reduce(%grad) replica_groups = [[0, 1, 2, 3]] {
      %sum = hlo.all_reduce(%grad) replica_groups = [[0, 1, 2, 3]] {
      // CHECK-NEXT: ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      ^bb0(%x: tensor<f32>, %y: tensor<f32>):
        // CHECK-NEXT: %xy = hlo.add %x, %y : tensor<f32>
        %xy = hlo.add %x, %y : tensor<f32>
        // CHECK-NEXT: hlo.return %xy : tensor<f32>
        hlo.return %xy : tensor<f32>
      // CHECK-NEXT: } : (tensor<4xf32>) -> tensor<4xf32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      // CHECK-NEXT: %acc1 = hlo.add %acc, %sum : tensor<4xf32>
      %acc1 = hlo.add %acc, %sum : tensor<4xf32>
      // CHECK-NEXT: %step = hlo.custom_call "one"() : () -> tensor<i32>
      %step = hlo.custom_call "one"() : () -> tensor<i32>
      // CHECK-NEXT: %i1 = hlo.add %i, %step : tensor<i32>
      %i1 = hlo.add %i, %step : tensor<i32>
      // CHECK-NEXT: %next = hlo.tuple %i1, %acc1 : tuple<tensor<i32>, tensor<4xf32>>
      %next = hlo.tuple %i1, %acc1 : tuple<tensor<i32>, tensor<4xf32>>
      // CHECK-NEXT: hlo.return %next : tuple<tensor<i32>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<4xf32>>
    // CHECK-NEXT: }
    }
    // CHECK-NEXT: %result = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<4xf32>>
    %result = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<4xf32>>
    // CHECK-NEXT: func.return %result : tensor<4xf32>
    func.return %result : tensor<4xf32>
  // CHECK-NEXT: }
  }
  // A non-tuple carried value; the attribute dictionary follows the body.
  // CHECK-LABEL: func.func @while_tensor(%v: tensor<i32>) -> tensor<i32> {
  func.func @while_tensor(%v: tensor<i32>) -> tensor<i32> {
    // CHECK-NEXT: %w = hlo.while(%v) : tensor<i32> condition {
    %w = hlo.while(%v) : tensor<i32> condition {
    // CHECK-NEXT: ^bb0(%wc: tensor<i32>):
    ^bb0(%wc: tensor<i32>):
      // CHECK-NEXT: %wp = hlo.custom_call "is_positive"(%wc) : (tensor<i32>) -> tensor<i1>
      %wp = hlo.custom_call "is_positive"(%wc) : (tensor<i32>) -> tensor<i1>
      // CHECK-NEXT: hlo.return %wp : tensor<i1>
      hlo.return %wp : tensor<i1>
    // CHECK-NEXT: } body {
    } body {
    // CHECK-NEXT: ^bb0(%wb: tensor<i32>):
    ^bb0(%wb: tensor<i32>):
      // CHECK-NEXT: %wd = hlo.custom_call "decrement"(%wb) : (tensor<i32>) -> tensor<i32>
      %wd = hlo.custom_call "decrement"(%wb) : (tensor<i32>) -> tensor<i32>
      // CHECK-NEXT: hlo.return %wd : tensor<i32>
      hlo.return %wd : tensor<i32>
    // CHECK-NEXT: } {known_trip_count = 3 : i64}
    } {known_trip_count = 3 : i64}
    // CHECK-NEXT: func.return %w : tensor<i32>
    func.return %w : tensor<i32>
  // CHECK-NEXT: }
  }
  // CHECK-LABEL: func.func @conditionals(%idx: tensor<i32>, %pred: tensor<i1>, %a: tensor<4xf32>, %b: tensor<i32>, %e: tuple<>) -> (tensor<4xf32>, tensor<i32>) {
  func.func @conditionals(%idx: tensor<i32>, %pred: tensor<i1>, %a: tensor<4xf32>, %b: tensor<i32>, %e: tuple<>) -> (tensor<4xf32>, tensor<i32>) {
    // Indexed conditional: branch k takes branch operand k (3 branches).
    // CHECK-NEXT: %c = hlo.conditional(%idx) (%a, %b, %e) : (tensor<i32>, tensor<4xf32>, tensor<i32>, tuple<>) -> tensor<4xf32> {
    %c = hlo.conditional(%idx) (%a, %b, %e) : (tensor<i32>, tensor<4xf32>, tensor<i32>, tuple<>) -> tensor<4xf32> {
    // CHECK-NEXT: ^bb0(%ba: tensor<4xf32>):
    ^bb0(%ba: tensor<4xf32>):
      // CHECK-NEXT: hlo.return %ba : tensor<4xf32>
      hlo.return %ba : tensor<4xf32>
    // CHECK-NEXT: }, {
    }, {
    // CHECK-NEXT: ^bb0(%bb: tensor<i32>):
    ^bb0(%bb: tensor<i32>):
      // CHECK-NEXT: %bf = hlo.custom_call "splat"(%bb) : (tensor<i32>) -> tensor<4xf32>
      %bf = hlo.custom_call "splat"(%bb) : (tensor<i32>) -> tensor<4xf32>
      // CHECK-NEXT: hlo.return %bf : tensor<4xf32>
      hlo.return %bf : tensor<4xf32>
    // CHECK-NEXT: }, {
    }, {
    // CHECK-NEXT: ^bb0(%be: tuple<>):
    ^bb0(%be: tuple<>):
      // CHECK-NEXT: %bz = hlo.custom_call "zeros"() : () -> tensor<4xf32>
      %bz = hlo.custom_call "zeros"() : () -> tensor<4xf32>
      // CHECK-NEXT: hlo.return %bz : tensor<4xf32>
      hlo.return %bz : tensor<4xf32>
    // CHECK-NEXT: }
    }
    // Predicated conditional: branch 0 runs for true, branch 1 for false.
    // CHECK-NEXT: %p = hlo.conditional(%pred) (%b, %b) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32> {
    %p = hlo.conditional(%pred) (%b, %b) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32> {
    // CHECK-NEXT: ^bb0(%pt: tensor<i32>):
    ^bb0(%pt: tensor<i32>):
      // CHECK-NEXT: %pt1 = hlo.add %pt, %pt : tensor<i32>
      %pt1 = hlo.add %pt, %pt : tensor<i32>
      // CHECK-NEXT: hlo.return %pt1 : tensor<i32>
      hlo.return %pt1 : tensor<i32>
    // CHECK-NEXT: }, {
    }, {
    // CHECK-NEXT: ^bb0(%pf: tensor<i32>):
    ^bb0(%pf: tensor<i32>):
      // CHECK-NEXT: hlo.return %pf : tensor<i32>
      hlo.return %pf : tensor<i32>
    // CHECK-NEXT: }
    }
    // CHECK-NEXT: func.return %c, %p : tensor<4xf32>, tensor<i32>
    func.return %c, %p : tensor<4xf32>, tensor<i32>
  // CHECK-NEXT: }
  }
  // CHECK-LABEL: func.func @callee(%ca: tensor<4xf32>, %cb: tensor<4xf32>) -> tensor<4xf32> {
  func.func @callee(%ca: tensor<4xf32>, %cb: tensor<4xf32>) -> tensor<4xf32> {
    // CHECK-NEXT: %cs = hlo.add %ca, %cb : tensor<4xf32>
    %cs = hlo.add %ca, %cb : tensor<4xf32>
    // CHECK-NEXT: func.return %cs : tensor<4xf32>
    func.return %cs : tensor<4xf32>
  // CHECK-NEXT: }
  }
  // CHECK-LABEL: func.func @make_pair(%ma: tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>> {
  func.func @make_pair(%ma: tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>> {
    // CHECK-NEXT: %mp = hlo.tuple %ma, %ma : tuple<tensor<4xf32>, tensor<4xf32>>
    %mp = hlo.tuple %ma, %ma : tuple<tensor<4xf32>, tensor<4xf32>>
    // CHECK-NEXT: func.return %mp : tuple<tensor<4xf32>, tensor<4xf32>>
    func.return %mp : tuple<tensor<4xf32>, tensor<4xf32>>
  // CHECK-NEXT: }
  }
  // CHECK-LABEL: func.func @calls(%a: tensor<4xf32>) -> tensor<4xf32> {
  func.func @calls(%a: tensor<4xf32>) -> tensor<4xf32> {
    // CHECK-NEXT: %r = hlo.call @callee(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %r = hlo.call @callee(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    // CHECK-NEXT: %pair = hlo.call @make_pair(%r) {inline = false} : (tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
    %pair = hlo.call @make_pair(%r) {inline = false} : (tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
    // CHECK-NEXT: func.return %r : tensor<4xf32>
    func.return %r : tensor<4xf32>
  // CHECK-NEXT: }
  }
  // CHECK-LABEL: func.func @custom_calls(%a: tensor<4xf32>, %tok: !hlo.token) {
  func.func @custom_calls(%a: tensor<4xf32>, %tok: !hlo.token) {
    // CHECK-NEXT: %c0 = hlo.custom_call "Sharding"(%a) : (tensor<4xf32>) -> tensor<4xf32>
    %c0 = hlo.custom_call "Sharding"(%a) : (tensor<4xf32>) -> tensor<4xf32>
    // A string backend_config (quotes print as \22).
    // CHECK-NEXT: %c1 = hlo.custom_call "xla.sdy.GlobalToLocalShape"(%a) backend_config = "{\22dim\22: 0}" : (tensor<4xf32>) -> tensor<2xf32>
    %c1 = hlo.custom_call "xla.sdy.GlobalToLocalShape"(%a) backend_config = "{\"dim\": 0}" : (tensor<4xf32>) -> tensor<2xf32>
    // side_effect, e.g. logging through a token.
    // CHECK-NEXT: %c2 = hlo.custom_call "log_tensor"(%a, %tok) side_effect : (tensor<4xf32>, !hlo.token) -> !hlo.token
    %c2 = hlo.custom_call "log_tensor"(%a, %tok) side_effect : (tensor<4xf32>, !hlo.token) -> !hlo.token
    // api_version is an i32 printed bare.
    // CHECK-NEXT: %c3 = hlo.custom_call "typed_ffi"(%a) api_version = 4 : (tensor<4xf32>) -> tensor<4xf32>
    %c3 = hlo.custom_call "typed_ffi"(%a) api_version = 4 : (tensor<4xf32>) -> tensor<4xf32>
    // Every optional field, in format order, then the attribute dictionary.
    // CHECK-NEXT: %c4 = hlo.custom_call "everything"(%a, %a) side_effect backend_config = "" api_version = 2 {frontend_attributes = {x = "y"{{[}][}]}} : (tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, !hlo.token>
    %c4 = hlo.custom_call "everything"(%a, %a) side_effect backend_config = "" api_version = 2 {frontend_attributes = {x = "y"}} : (tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, !hlo.token>
    // CHECK-NEXT: %c5 = hlo.custom_call "no_operands"() : () -> tuple<>
    %c5 = hlo.custom_call "no_operands"() : () -> tuple<>
    // CHECK-NEXT: func.return
    func.return
  // CHECK-NEXT: }
  }
  // CHECK-LABEL: func.func @barriers_and_tokens(%a: tensor<4xf32>, %t: tuple<tensor<4xf32>, tensor<i32>>, %tok: !hlo.token) -> !hlo.token {
  func.func @barriers_and_tokens(%a: tensor<4xf32>, %t: tuple<tensor<4xf32>, tensor<i32>>, %tok: !hlo.token) -> !hlo.token {
    // CHECK-NEXT: %o0 = hlo.optimization_barrier %a : tensor<4xf32>
    %o0 = hlo.optimization_barrier %a : tensor<4xf32>
    // CHECK-NEXT: %o1 = hlo.optimization_barrier %t : tuple<tensor<4xf32>, tensor<i32>>
    %o1 = hlo.optimization_barrier %t : tuple<tensor<4xf32>, tensor<i32>>
    // CHECK-NEXT: %o2 = hlo.optimization_barrier %tok : !hlo.token
    %o2 = hlo.optimization_barrier %tok : !hlo.token
    // after_all with no operand creates a fresh token.
    // CHECK-NEXT: %k0 = hlo.after_all()
    %k0 = hlo.after_all()
    // CHECK-NEXT: %k1 = hlo.after_all(%tok, %k0)
    %k1 = hlo.after_all(%tok, %k0)
    // CHECK-NEXT: %k2 = hlo.after_all(%tok, %k0, %k1) {debug = "join"}
    %k2 = hlo.after_all(%tok, %k0, %k1) {debug = "join"}
    // CHECK-NEXT: func.return %k2 : !hlo.token
    func.return %k2 : !hlo.token
  // CHECK-NEXT: }
  }
// CHECK-NEXT: }
}

// -----

// ===== elementwise ===========================================================

// CHECK: builtin.module {

builtin.module {
  func.func @constants() {
    %c = hlo.constant dense<1.0> : tensor<4xf32>
    %p = hlo.constant dense<[true, false]> : tensor<2xi1>
    %u = hlo.constant dense<3> : tensor<ui32>
    %m = hlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
    %h = hlo.constant dense<[1.5, -2.0]> : tensor<2xbf16>
    %i = hlo.iota dim = 1 : tensor<2x8xi32>
    %f = hlo.iota dim = 0 : tensor<3xf32>
    func.return
  }

// CHECK-LABEL: func.func @constants() {
// CHECK-NEXT:     %c = hlo.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK-NEXT:     %p = hlo.constant dense<[true, false]> : tensor<2xi1>
// CHECK-NEXT:     %u = hlo.constant dense<3> : tensor<ui32>
// CHECK-NEXT:     %m = hlo.constant dense<{{\[\[}}1, 2], [3, 4]]> : tensor<2x2xi64>
// CHECK-NEXT:     %h = hlo.constant dense<[1.500000e+00, -2.000000e+00]> : tensor<2xbf16>
// CHECK-NEXT:     %i = hlo.iota dim = 1 : tensor<2x8xi32>
// CHECK-NEXT:     %f = hlo.iota dim = 0 : tensor<3xf32>
// CHECK-NEXT:     func.return
// CHECK-NEXT:   }

  func.func @unary(%x: tensor<4xf32>, %i: tensor<4xi32>, %u: tensor<4xui32>, %p: tensor<4xi1>) {
    %0 = hlo.abs %x : tensor<4xf32>
    %1 = hlo.abs %i : tensor<4xi32>
    %2 = hlo.negate %i : tensor<4xi32>
    %3 = hlo.sign %x : tensor<4xf32>
    %4 = hlo.exponential %x : tensor<4xf32>
    %5 = hlo.exponential_minus_one %x : tensor<4xf32>
    %6 = hlo.log %x : tensor<4xf32>
    %7 = hlo.log_plus_one %x : tensor<4xf32>
    %8 = hlo.sqrt %x : tensor<4xf32>
    %9 = hlo.rsqrt %x : tensor<4xf32>
    %10 = hlo.cbrt %x : tensor<4xf32>
    %11 = hlo.tanh %x : tensor<4xf32>
    %12 = hlo.logistic %x : tensor<4xf32>
    %13 = hlo.sine %x : tensor<4xf32>
    %14 = hlo.cosine %x : tensor<4xf32>
    %15 = hlo.tan %x : tensor<4xf32>
    %16 = hlo.erf %x : tensor<4xf32>
    %17 = hlo.floor %x : tensor<4xf32>
    %18 = hlo.ceil %x : tensor<4xf32>
    %19 = hlo.round_nearest_afz %x : tensor<4xf32>
    %20 = hlo.round_nearest_even %x : tensor<4xf32>
    %21 = hlo.not %p : tensor<4xi1>
    %22 = hlo.not %u : tensor<4xui32>
    %23 = hlo.popcnt %u : tensor<4xui32>
    %24 = hlo.clz %i : tensor<4xi32>
    %25 = hlo.reduce_precision %x exponent_bits = 8 mantissa_bits = 7 : tensor<4xf32>
    %26 = hlo.is_finite %x : tensor<4xf32> -> tensor<4xi1>
    func.return
  }

// CHECK-LABEL: func.func @unary(%x: tensor<4xf32>, %i: tensor<4xi32>, %u: tensor<4xui32>, %p: tensor<4xi1>) {
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.abs %x : tensor<4xf32>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.abs %i : tensor<4xi32>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.negate %i : tensor<4xi32>
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.sign %x : tensor<4xf32>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.exponential %x : tensor<4xf32>
// CHECK-NEXT:     [[V5:%[0-9]+]] = hlo.exponential_minus_one %x : tensor<4xf32>
// CHECK-NEXT:     [[V6:%[0-9]+]] = hlo.log %x : tensor<4xf32>
// CHECK-NEXT:     [[V7:%[0-9]+]] = hlo.log_plus_one %x : tensor<4xf32>
// CHECK-NEXT:     [[V8:%[0-9]+]] = hlo.sqrt %x : tensor<4xf32>
// CHECK-NEXT:     [[V9:%[0-9]+]] = hlo.rsqrt %x : tensor<4xf32>
// CHECK-NEXT:     [[V10:%[0-9]+]] = hlo.cbrt %x : tensor<4xf32>
// CHECK-NEXT:     [[V11:%[0-9]+]] = hlo.tanh %x : tensor<4xf32>
// CHECK-NEXT:     [[V12:%[0-9]+]] = hlo.logistic %x : tensor<4xf32>
// CHECK-NEXT:     [[V13:%[0-9]+]] = hlo.sine %x : tensor<4xf32>
// CHECK-NEXT:     [[V14:%[0-9]+]] = hlo.cosine %x : tensor<4xf32>
// CHECK-NEXT:     [[V15:%[0-9]+]] = hlo.tan %x : tensor<4xf32>
// CHECK-NEXT:     [[V16:%[0-9]+]] = hlo.erf %x : tensor<4xf32>
// CHECK-NEXT:     [[V17:%[0-9]+]] = hlo.floor %x : tensor<4xf32>
// CHECK-NEXT:     [[V18:%[0-9]+]] = hlo.ceil %x : tensor<4xf32>
// CHECK-NEXT:     [[V19:%[0-9]+]] = hlo.round_nearest_afz %x : tensor<4xf32>
// CHECK-NEXT:     [[V20:%[0-9]+]] = hlo.round_nearest_even %x : tensor<4xf32>
// CHECK-NEXT:     [[V21:%[0-9]+]] = hlo.not %p : tensor<4xi1>
// CHECK-NEXT:     [[V22:%[0-9]+]] = hlo.not %u : tensor<4xui32>
// CHECK-NEXT:     [[V23:%[0-9]+]] = hlo.popcnt %u : tensor<4xui32>
// CHECK-NEXT:     [[V24:%[0-9]+]] = hlo.clz %i : tensor<4xi32>
// CHECK-NEXT:     [[V25:%[0-9]+]] = hlo.reduce_precision %x exponent_bits = 8 mantissa_bits = 7 : tensor<4xf32>
// CHECK-NEXT:     [[V26:%[0-9]+]] = hlo.is_finite %x : tensor<4xf32> -> tensor<4xi1>
// CHECK-NEXT:     func.return
// CHECK-NEXT:   }

  func.func @binary(%x: tensor<4xf32>, %y: tensor<4xf32>, %i: tensor<i32>, %j: tensor<i32>, %u: tensor<ui32>, %p: tensor<4xi1>) {
    %0 = hlo.add %x, %y : tensor<4xf32>
    %1 = hlo.subtract %x, %y : tensor<4xf32>
    %2 = hlo.multiply %x, %y : tensor<4xf32>
    %3 = hlo.divide %i, %j : tensor<i32>
    %4 = hlo.remainder %i, %j : tensor<i32>
    %5 = hlo.maximum %x, %y : tensor<4xf32>
    %6 = hlo.minimum %i, %j : tensor<i32>
    %7 = hlo.power %x, %y : tensor<4xf32>
    %8 = hlo.atan2 %x, %y : tensor<4xf32>
    %9 = hlo.and %u, %u : tensor<ui32>
    %10 = hlo.or %p, %p : tensor<4xi1>
    %11 = hlo.xor %i, %j : tensor<i32>
    %12 = hlo.shift_left %i, %j : tensor<i32>
    %13 = hlo.shift_right_arithmetic %i, %j : tensor<i32>
    %14 = hlo.shift_right_logical %u, %u : tensor<ui32>
    %15 = hlo.add %p, %p : tensor<4xi1>
    func.return
  }

// CHECK-LABEL: func.func @binary(%x: tensor<4xf32>, %y: tensor<4xf32>, %i: tensor<i32>, %j: tensor<i32>, %u: tensor<ui32>, %p: tensor<4xi1>) {
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.add %x, %y : tensor<4xf32>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.subtract %x, %y : tensor<4xf32>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.multiply %x, %y : tensor<4xf32>
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.divide %i, %j : tensor<i32>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.remainder %i, %j : tensor<i32>
// CHECK-NEXT:     [[V5:%[0-9]+]] = hlo.maximum %x, %y : tensor<4xf32>
// CHECK-NEXT:     [[V6:%[0-9]+]] = hlo.minimum %i, %j : tensor<i32>
// CHECK-NEXT:     [[V7:%[0-9]+]] = hlo.power %x, %y : tensor<4xf32>
// CHECK-NEXT:     [[V8:%[0-9]+]] = hlo.atan2 %x, %y : tensor<4xf32>
// CHECK-NEXT:     [[V9:%[0-9]+]] = hlo.and %u, %u : tensor<ui32>
// CHECK-NEXT:     [[V10:%[0-9]+]] = hlo.or %p, %p : tensor<4xi1>
// CHECK-NEXT:     [[V11:%[0-9]+]] = hlo.xor %i, %j : tensor<i32>
// CHECK-NEXT:     [[V12:%[0-9]+]] = hlo.shift_left %i, %j : tensor<i32>
// CHECK-NEXT:     [[V13:%[0-9]+]] = hlo.shift_right_arithmetic %i, %j : tensor<i32>
// CHECK-NEXT:     [[V14:%[0-9]+]] = hlo.shift_right_logical %u, %u : tensor<ui32>
// CHECK-NEXT:     [[V15:%[0-9]+]] = hlo.add %p, %p : tensor<4xi1>
// CHECK-NEXT:     func.return
// CHECK-NEXT:   }

  func.func @compare(%x: tensor<4xf32>, %y: tensor<4xf32>, %i: tensor<i32>, %u: tensor<ui32>, %p: tensor<i1>) {
    %0 = hlo.compare LT, %x, %y : tensor<4xf32> -> tensor<4xi1>
    %1 = hlo.compare EQ, %x, %y type = TOTALORDER : tensor<4xf32> -> tensor<4xi1>
    %2 = hlo.compare GE, %x, %y type = FLOAT : tensor<4xf32> -> tensor<4xi1>
    %3 = hlo.compare GT, %i, %i type = SIGNED : tensor<i32> -> tensor<i1>
    %4 = hlo.compare LE, %u, %u type = UNSIGNED : tensor<ui32> -> tensor<i1>
    %5 = hlo.compare NE, %p, %p type = UNSIGNED : tensor<i1> -> tensor<i1>
    func.return
  }

// CHECK-LABEL: func.func @compare(%x: tensor<4xf32>, %y: tensor<4xf32>, %i: tensor<i32>, %u: tensor<ui32>, %p: tensor<i1>) {
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.compare LT, %x, %y : tensor<4xf32> -> tensor<4xi1>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.compare EQ, %x, %y type = TOTALORDER : tensor<4xf32> -> tensor<4xi1>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.compare GE, %x, %y type = FLOAT : tensor<4xf32> -> tensor<4xi1>
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.compare GT, %i, %i type = SIGNED : tensor<i32> -> tensor<i1>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.compare LE, %u, %u type = UNSIGNED : tensor<ui32> -> tensor<i1>
// CHECK-NEXT:     [[V5:%[0-9]+]] = hlo.compare NE, %p, %p type = UNSIGNED : tensor<i1> -> tensor<i1>
// CHECK-NEXT:     func.return
// CHECK-NEXT:   }

  func.func @select_clamp(%p: tensor<4xi1>, %s: tensor<i1>, %x: tensor<4xf32>, %y: tensor<4xf32>, %lo: tensor<f32>) {
    %0 = hlo.select %p, %x, %y : tensor<4xi1>, tensor<4xf32>
    %1 = hlo.select %s, %x, %y : tensor<i1>, tensor<4xf32>
    %2 = hlo.clamp %lo, %x, %lo : tensor<f32>, tensor<4xf32>, tensor<f32>
    %3 = hlo.clamp %x, %x, %lo : tensor<4xf32>, tensor<4xf32>, tensor<f32>
    func.return
  }

// CHECK-LABEL: func.func @select_clamp(%p: tensor<4xi1>, %s: tensor<i1>, %x: tensor<4xf32>, %y: tensor<4xf32>, %lo: tensor<f32>) {
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.select %p, %x, %y : tensor<4xi1>, tensor<4xf32>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.select %s, %x, %y : tensor<i1>, tensor<4xf32>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.clamp %lo, %x, %lo : tensor<f32>, tensor<4xf32>, tensor<f32>
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.clamp %x, %x, %lo : tensor<4xf32>, tensor<4xf32>, tensor<f32>
// CHECK-NEXT:     func.return
// CHECK-NEXT:   }

  func.func @conversions(%x: tensor<4xf32>, %b: tensor<2x4xi8>, %p: tensor<4xi1>) {
    %0 = hlo.convert %x : tensor<4xf32> -> tensor<4xbf16>
    %1 = hlo.convert %x : tensor<4xf32> -> tensor<4xi32>
    %2 = hlo.convert %p : tensor<4xi1> -> tensor<4xui8>
    %3 = hlo.bitcast_convert %x : tensor<4xf32> -> tensor<4xi32>
    %4 = hlo.bitcast_convert %x : tensor<4xf32> -> tensor<4x2xbf16>
    %5 = hlo.bitcast_convert %b : tensor<2x4xi8> -> tensor<2xf32>
    %6 = hlo.bitcast_convert %x : tensor<4xf32> -> tensor<4x4xui8>
    func.return
  }

// CHECK-LABEL: func.func @conversions(%x: tensor<4xf32>, %b: tensor<2x4xi8>, %p: tensor<4xi1>) {
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.convert %x : tensor<4xf32> -> tensor<4xbf16>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.convert %x : tensor<4xf32> -> tensor<4xi32>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.convert %p : tensor<4xi1> -> tensor<4xui8>
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.bitcast_convert %x : tensor<4xf32> -> tensor<4xi32>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.bitcast_convert %x : tensor<4xf32> -> tensor<4x2xbf16>
// CHECK-NEXT:     [[V5:%[0-9]+]] = hlo.bitcast_convert %b : tensor<2x4xi8> -> tensor<2xf32>
// CHECK-NEXT:     [[V6:%[0-9]+]] = hlo.bitcast_convert %x : tensor<4xf32> -> tensor<4x4xui8>
// CHECK-NEXT:     func.return
// CHECK-NEXT:   }
// CHECK-NEXT: }
}

// -----

// ===== data-movement =========================================================

// CHECK-LABEL: func.func @reshape_bitcast_copy
func.func @reshape_bitcast_copy(%x: tensor<2x4xf32>, %s: tensor<bf16>) {
  // CHECK-NEXT: %r = hlo.reshape %x : (tensor<2x4xf32>) -> tensor<8xf32>
  %r = hlo.reshape %x : (tensor<2x4xf32>) -> tensor<8xf32>
  // CHECK-NEXT: %r1 = hlo.reshape %s : (tensor<bf16>) -> tensor<1x1xbf16>
  %r1 = hlo.reshape %s : (tensor<bf16>) -> tensor<1x1xbf16>
  // CHECK-NEXT: %b = hlo.bitcast %x : (tensor<2x4xf32>) -> tensor<4x2xf32>
  %b = hlo.bitcast %x : (tensor<2x4xf32>) -> tensor<4x2xf32>
  // CHECK-NEXT: %b1 = hlo.bitcast %x layout = [0, 1] : (tensor<2x4xf32>) -> tensor<4x2xf32>
  %b1 = hlo.bitcast %x layout = [0, 1] : (tensor<2x4xf32>) -> tensor<4x2xf32>
  // CHECK-NEXT: %c = hlo.copy %x : tensor<2x4xf32>
  %c = hlo.copy %x : tensor<2x4xf32>
  // CHECK-NEXT: func.return
  func.return
}

// CHECK-LABEL: func.func @broadcast_transpose
func.func @broadcast_transpose(%x: tensor<2x4xf32>, %s: tensor<i1>) {
  // CHECK-NEXT: %b = hlo.broadcast %x, dims = [0, 2] : (tensor<2x4xf32>) -> tensor<2x3x4xf32>
  %b = hlo.broadcast %x, dims = [0, 2] : (tensor<2x4xf32>) -> tensor<2x3x4xf32>
  // CHECK-NEXT: %b1 = hlo.broadcast %x, dims = [1, 0] : (tensor<2x4xf32>) -> tensor<4x2xf32>
  %b1 = hlo.broadcast %x, dims = [1, 0] : (tensor<2x4xf32>) -> tensor<4x2xf32>
  // CHECK-NEXT: %b2 = hlo.broadcast %s, dims = [] : (tensor<i1>) -> tensor<3x5xi1>
  %b2 = hlo.broadcast %s, dims = [] : (tensor<i1>) -> tensor<3x5xi1>
  // CHECK-NEXT: %t = hlo.transpose %b, dims = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %t = hlo.transpose %b, dims = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  // CHECK-NEXT: func.return
  func.return
}

// CHECK-LABEL: func.func @slices
func.func @slices(%x: tensor<8x4xf32>, %i: tensor<i32>, %j: tensor<i32>, %k: tensor<ui64>, %s: tensor<f32>) {
  // CHECK-NEXT: %a = hlo.slice %x, start = [0, 1], limit = [8, 4], strides = [3, 1] : (tensor<8x4xf32>) -> tensor<3x3xf32>
  %a = hlo.slice %x, start = [0, 1], limit = [8, 4], strides = [3, 1] : (tensor<8x4xf32>) -> tensor<3x3xf32>
  // CHECK-NEXT: %e = hlo.slice %x, start = [2, 4], limit = [2, 4], strides = [1, 1] : (tensor<8x4xf32>) -> tensor<0x0xf32>
  %e = hlo.slice %x, start = [2, 4], limit = [2, 4], strides = [1, 1] : (tensor<8x4xf32>) -> tensor<0x0xf32>
  // CHECK-NEXT: %d = hlo.dynamic_slice %x at [%i, %j] sizes = [2, 4] : (tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<2x4xf32>
  %d = hlo.dynamic_slice %x at [%i, %j] sizes = [2, 4] : (tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<2x4xf32>
  // CHECK-NEXT: %d1 = hlo.dynamic_slice %x at [%k, %k] sizes = [1, 0] : (tensor<8x4xf32>, tensor<ui64>, tensor<ui64>) -> tensor<1x0xf32>
  %d1 = hlo.dynamic_slice %x at [%k, %k] sizes = [1, 0] : (tensor<8x4xf32>, tensor<ui64>, tensor<ui64>) -> tensor<1x0xf32>
  // CHECK-NEXT: %d2 = hlo.dynamic_slice %s at [] sizes = [] : (tensor<f32>) -> tensor<f32>
  %d2 = hlo.dynamic_slice %s at [] sizes = [] : (tensor<f32>) -> tensor<f32>
  // CHECK-NEXT: %u = hlo.dynamic_update_slice %x, %d at [%i, %j] : (tensor<8x4xf32>, tensor<2x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x4xf32>
  %u = hlo.dynamic_update_slice %x, %d at [%i, %j] : (tensor<8x4xf32>, tensor<2x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x4xf32>
  // CHECK-NEXT: func.return
  func.return
}

// CHECK-LABEL: func.func @concatenate_pad
func.func @concatenate_pad(%a: tensor<2x4xi8>, %b: tensor<3x4xi8>, %x: tensor<3x2xf32>, %zero: tensor<f32>) {
  // CHECK-NEXT: %c = hlo.concatenate(%a, %b, %a) dim = 0 : (tensor<2x4xi8>, tensor<3x4xi8>, tensor<2x4xi8>) -> tensor<7x4xi8>
  %c = hlo.concatenate(%a, %b, %a) dim = 0 : (tensor<2x4xi8>, tensor<3x4xi8>, tensor<2x4xi8>) -> tensor<7x4xi8>
  // CHECK-NEXT: %c1 = hlo.concatenate(%a) dim = 1 : (tensor<2x4xi8>) -> tensor<2x4xi8>
  %c1 = hlo.concatenate(%a) dim = 1 : (tensor<2x4xi8>) -> tensor<2x4xi8>
  // CHECK-NEXT: %p = hlo.pad %x, %zero, low = [1, 0], high = [-1, 2], interior = [1, 0] : (tensor<3x2xf32>, tensor<f32>) -> tensor<5x4xf32>
  %p = hlo.pad %x, %zero, low = [1, 0], high = [-1, 2], interior = [1, 0] : (tensor<3x2xf32>, tensor<f32>) -> tensor<5x4xf32>
  // CHECK-NEXT: %p1 = hlo.pad %x, %zero, low = [-3, 0], high = [0, 0], interior = [0, 3] : (tensor<3x2xf32>, tensor<f32>) -> tensor<0x5xf32>
  %p1 = hlo.pad %x, %zero, low = [-3, 0], high = [0, 0], interior = [0, 3] : (tensor<3x2xf32>, tensor<f32>) -> tensor<0x5xf32>
  // CHECK-NEXT: func.return
  func.return
}

// -----

// ===== computation ===========================================================

builtin.module {
  func.func @dot(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %m: tensor<3x4xf32>, %v: tensor<4xf32>, %p: tensor<4x8xi8>, %q: tensor<8x16xi8>, %h: tensor<3x4xbf16>, %k: tensor<4x5xbf16>) -> tensor<2x3x5xf32> {
    %bmm = hlo.dot %a, %b lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
    %mv = hlo.dot %m, %v rhs_contracting = [0], lhs_contracting = [1] : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>
    %outer = hlo.dot %v, %v : (tensor<4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
    %vt = hlo.dot %v, %m lhs_contracting = [0], rhs_contracting = [1] : (tensor<4xf32>, tensor<3x4xf32>) -> tensor<3xf32>
    %wide = hlo.dot %p, %q lhs_contracting = [1], rhs_contracting = [0] : (tensor<4x8xi8>, tensor<8x16xi8>) -> tensor<4x16xi32>
    %mixed = hlo.dot %h, %k lhs_contracting = [1], rhs_contracting = [0] : (tensor<3x4xbf16>, tensor<4x5xbf16>) -> tensor<3x5xf32>
    func.return %bmm : tensor<2x3x5xf32>
  }

  func.func @reduce(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>, %z: tensor<f32>, %zi: tensor<i32>, %h: tensor<4x8xbf16>) -> tensor<4xf32> {
    %sum = hlo.reduce(%x : tensor<4x8xf32>) init(%z : tensor<f32>) dimensions = [1] {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } -> tensor<4xf32>
    %all = hlo.reduce(%x : tensor<4x8xf32>) init(%z : tensor<f32>) dimensions = [0, 1] {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.maximum %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } -> tensor<f32>
    %pair = hlo.reduce(%x, %i : tensor<4x8xf32>, tensor<4x8xi32>) init(%z, %zi : tensor<f32>, tensor<i32>) dimensions = [0] {
    ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
      %c = hlo.maximum %a, %b : tensor<f32>
      %ci = hlo.minimum %ai, %bi : tensor<i32>
      hlo.return %c, %ci : tensor<f32>, tensor<i32>
    } -> tuple<tensor<8xf32>, tensor<8xi32>>
    %up = hlo.reduce(%h : tensor<4x8xbf16>) init(%z : tensor<f32>) dimensions = [1] {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } -> tensor<4xf32>
    func.return %sum : tensor<4xf32>
  }

  func.func @reduce_window(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>, %z: tensor<f32>, %zi: tensor<i32>) -> tensor<2x5xf32> {
    %pool = hlo.reduce_window(%x : tensor<4x8xf32>) init(%z : tensor<f32>) size = [2, 2], stride = [2, 2], padding = [[0, 0], [1, 1]] {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.maximum %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } -> tensor<2x5xf32>
    %cum = hlo.reduce_window(%x : tensor<4x8xf32>) init(%z : tensor<f32>) size = [1, 8], padding = [[0, 0], [7, 0]] {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } -> tensor<4x8xf32>
    %dil = hlo.reduce_window(%x : tensor<4x8xf32>) init(%z : tensor<f32>) window_dilation = [1, 2], base_dilation = [2, 1], size = [2, 3] {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } -> tensor<6x4xf32>
    %pair = hlo.reduce_window(%x, %i : tensor<4x8xf32>, tensor<4x8xi32>) init(%z, %zi : tensor<f32>, tensor<i32>) size = [4, 1], stride = [1, 1], padding = [[0, 0], [0, 0]] {
    ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
      %c = hlo.maximum %a, %b : tensor<f32>
      %ci = hlo.maximum %ai, %bi : tensor<i32>
      hlo.return %c, %ci : tensor<f32>, tensor<i32>
    } -> tuple<tensor<1x8xf32>, tensor<1x8xi32>>
    func.return %pool : tensor<2x5xf32>
  }

  func.func @gather(%x: tensor<16x8xf32>, %i: tensor<4x1xi32>, %j: tensor<4xi32>, %k: tensor<3x2xi32>, %bx: tensor<2x16x8xf32>, %bi: tensor<2x4x1xi32>) -> tensor<4x8xf32> {
    %rows = hlo.gather %x, %i offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1 slice_sizes = [1, 8] : (tensor<16x8xf32>, tensor<4x1xi32>) -> tensor<4x8xf32>
    %implicit = hlo.gather %x, %j offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1 slice_sizes = [1, 8] indices_are_sorted : (tensor<16x8xf32>, tensor<4xi32>) -> tensor<4x8xf32>
    %blocks = hlo.gather %x, %k offset_dims = [1, 2], collapsed_slice_dims = [], start_index_map = [0, 1], index_vector_dim = 1 slice_sizes = [2, 4] : (tensor<16x8xf32>, tensor<3x2xi32>) -> tensor<3x2x4xf32>
    %batched = hlo.gather %bx, %bi offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2 slice_sizes = [1, 1, 8] : (tensor<2x16x8xf32>, tensor<2x4x1xi32>) -> tensor<2x4x8xf32>
    func.return %rows : tensor<4x8xf32>
  }

  func.func @scatter(%x: tensor<16x8xf32>, %xi: tensor<16x8xi32>, %i: tensor<4x1xi32>, %u: tensor<4x8xf32>, %ui: tensor<4x8xi32>, %bx: tensor<2x16x8xf32>, %bi: tensor<2x4x1xi32>, %bu: tensor<2x4x8xf32>) -> tensor<16x8xf32> {
    %add = hlo.scatter(%x : tensor<16x8xf32>) indices(%i : tensor<4x1xi32>) updates(%u : tensor<4x8xf32>) update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } -> tensor<16x8xf32>
    %set = hlo.scatter(%x : tensor<16x8xf32>) indices(%i : tensor<4x1xi32>) updates(%u : tensor<4x8xf32>) update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 indices_are_sorted unique_indices {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      hlo.return %b : tensor<f32>
    } -> tensor<16x8xf32>
    %pair = hlo.scatter(%x, %xi : tensor<16x8xf32>, tensor<16x8xi32>) indices(%i : tensor<4x1xi32>) updates(%u, %ui : tensor<4x8xf32>, tensor<4x8xi32>) update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 {
    ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi2: tensor<i32>):
      hlo.return %b, %bi2 : tensor<f32>, tensor<i32>
    } -> tuple<tensor<16x8xf32>, tensor<16x8xi32>>
    %batched = hlo.scatter(%bx : tensor<2x16x8xf32>) indices(%bi : tensor<2x4x1xi32>) updates(%bu : tensor<2x4x8xf32>) update_window_dims = [2], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2 {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } -> tensor<2x16x8xf32>
    func.return %add : tensor<16x8xf32>
  }

  func.func @sort(%x: tensor<4x8xf32>, %k: tensor<8xf32>, %v: tensor<8xi32>) -> tensor<4x8xf32> {
    %desc = hlo.sort(%x) dim = 1 {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %gt = hlo.compare GT, %a, %b : tensor<f32> -> tensor<i1>
      hlo.return %gt : tensor<i1>
    } : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %kv = hlo.sort(%k, %v) dim = 0 is_stable {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
      %lt = hlo.compare LT, %a, %b : tensor<f32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } : (tensor<8xf32>, tensor<8xi32>) -> tuple<tensor<8xf32>, tensor<8xi32>>
    func.return %desc : tensor<4x8xf32>
  }

  func.func @attributes() {
    "test.op"() {dot = #hlo.dot<rhs_contracting = [1], lhs_contracting = [0]>, gather = #hlo.gather<index_vector_dim = 1, offset_dims = [1], start_index_map = [0], collapsed_slice_dims = [0]>, scatter = #hlo.scatter<index_vector_dim = 0, update_window_dims = [], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]>, window = #hlo.window<size = [3], stride = [1], padding = [[0, 0]], base_dilation = [1], window_dilation = [2]>} : () -> ()
    func.return
  }
}

// CHECK: builtin.module {
// CHECK-LABEL: func.func @dot(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %m: tensor<3x4xf32>, %v: tensor<4xf32>, %p: tensor<4x8xi8>, %q: tensor<8x16xi8>, %h: tensor<3x4xbf16>, %k: tensor<4x5xbf16>) -> tensor<2x3x5xf32> {
// CHECK-NEXT:     %bmm = hlo.dot %a, %b lhs_batch = [0], rhs_batch = [0], lhs_contracting = [2], rhs_contracting = [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
// CHECK-NEXT:     %mv = hlo.dot %m, %v lhs_contracting = [1], rhs_contracting = [0] : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>
// CHECK-NEXT:     %outer = hlo.dot %v, %v lhs_contracting = [], rhs_contracting = [] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:     %vt = hlo.dot %v, %m lhs_contracting = [0], rhs_contracting = [1] : (tensor<4xf32>, tensor<3x4xf32>) -> tensor<3xf32>
// CHECK-NEXT:     %wide = hlo.dot %p, %q lhs_contracting = [1], rhs_contracting = [0] : (tensor<4x8xi8>, tensor<8x16xi8>) -> tensor<4x16xi32>
// CHECK-NEXT:     %mixed = hlo.dot %h, %k lhs_contracting = [1], rhs_contracting = [0] : (tensor<3x4xbf16>, tensor<4x5xbf16>) -> tensor<3x5xf32>
// CHECK-NEXT:     func.return %bmm : tensor<2x3x5xf32>
// CHECK-NEXT:   }
// CHECK-LABEL: func.func @reduce(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>, %z: tensor<f32>, %zi: tensor<i32>, %h: tensor<4x8xbf16>) -> tensor<4xf32> {
// CHECK-NEXT:     %sum = hlo.reduce(%x : tensor<4x8xf32>) init(%z : tensor<f32>) dimensions = [1] {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %c = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %c : tensor<f32>
// CHECK-NEXT:     } -> tensor<4xf32>
// CHECK-NEXT:     %all = hlo.reduce(%x : tensor<4x8xf32>) init(%z : tensor<f32>) dimensions = [0, 1] {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %c = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %c : tensor<f32>
// CHECK-NEXT:     } -> tensor<f32>
// CHECK-NEXT:     %pair = hlo.reduce(%x, %i : tensor<4x8xf32>, tensor<4x8xi32>) init(%z, %zi : tensor<f32>, tensor<i32>) dimensions = [0] {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
// CHECK-NEXT:       %c = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:       %ci = hlo.minimum %ai, %bi : tensor<i32>
// CHECK-NEXT:       hlo.return %c, %ci : tensor<f32>, tensor<i32>
// CHECK-NEXT:     } -> tuple<tensor<8xf32>, tensor<8xi32>>
// CHECK-NEXT:     %up = hlo.reduce(%h : tensor<4x8xbf16>) init(%z : tensor<f32>) dimensions = [1] {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %c = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %c : tensor<f32>
// CHECK-NEXT:     } -> tensor<4xf32>
// CHECK-NEXT:     func.return %sum : tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-LABEL: func.func @reduce_window(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>, %z: tensor<f32>, %zi: tensor<i32>) -> tensor<2x5xf32> {
// CHECK-NEXT:     %pool = hlo.reduce_window(%x : tensor<4x8xf32>) init(%z : tensor<f32>) size = [2, 2], stride = [2, 2], padding = [[0, 0], [1, 1]] {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %c = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %c : tensor<f32>
// CHECK-NEXT:     } -> tensor<2x5xf32>
// CHECK-NEXT:     %cum = hlo.reduce_window(%x : tensor<4x8xf32>) init(%z : tensor<f32>) size = [1, 8], padding = [[0, 0], [7, 0]] {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %c = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %c : tensor<f32>
// CHECK-NEXT:     } -> tensor<4x8xf32>
// CHECK-NEXT:     %dil = hlo.reduce_window(%x : tensor<4x8xf32>) init(%z : tensor<f32>) size = [2, 3], base_dilation = [2, 1], window_dilation = [1, 2] {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %c = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %c : tensor<f32>
// CHECK-NEXT:     } -> tensor<6x4xf32>
// CHECK-NEXT:     %pair = hlo.reduce_window(%x, %i : tensor<4x8xf32>, tensor<4x8xi32>) init(%z, %zi : tensor<f32>, tensor<i32>) size = [4, 1] {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
// CHECK-NEXT:       %c = hlo.maximum %a, %b : tensor<f32>
// CHECK-NEXT:       %ci = hlo.maximum %ai, %bi : tensor<i32>
// CHECK-NEXT:       hlo.return %c, %ci : tensor<f32>, tensor<i32>
// CHECK-NEXT:     } -> tuple<tensor<1x8xf32>, tensor<1x8xi32>>
// CHECK-NEXT:     func.return %pool : tensor<2x5xf32>
// CHECK-NEXT:   }
// CHECK-LABEL: func.func @gather(%x: tensor<16x8xf32>, %i: tensor<4x1xi32>, %j: tensor<4xi32>, %k: tensor<3x2xi32>, %bx: tensor<2x16x8xf32>, %bi: tensor<2x4x1xi32>) -> tensor<4x8xf32> {
// CHECK-NEXT:     %rows = hlo.gather %x, %i offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1 slice_sizes = [1, 8] : (tensor<16x8xf32>, tensor<4x1xi32>) -> tensor<4x8xf32>
// CHECK-NEXT:     %implicit = hlo.gather %x, %j offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1 slice_sizes = [1, 8] indices_are_sorted : (tensor<16x8xf32>, tensor<4xi32>) -> tensor<4x8xf32>
// CHECK-NEXT:     %blocks = hlo.gather %x, %k offset_dims = [1, 2], collapsed_slice_dims = [], start_index_map = [0, 1], index_vector_dim = 1 slice_sizes = [2, 4] : (tensor<16x8xf32>, tensor<3x2xi32>) -> tensor<3x2x4xf32>
// CHECK-NEXT:     %batched = hlo.gather %bx, %bi offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2 slice_sizes = [1, 1, 8] : (tensor<2x16x8xf32>, tensor<2x4x1xi32>) -> tensor<2x4x8xf32>
// CHECK-NEXT:     func.return %rows : tensor<4x8xf32>
// CHECK-NEXT:   }
// CHECK-LABEL: func.func @scatter(%x: tensor<16x8xf32>, %xi: tensor<16x8xi32>, %i: tensor<4x1xi32>, %u: tensor<4x8xf32>, %ui: tensor<4x8xi32>, %bx: tensor<2x16x8xf32>, %bi: tensor<2x4x1xi32>, %bu: tensor<2x4x8xf32>) -> tensor<16x8xf32> {
// CHECK-NEXT:     %add = hlo.scatter(%x : tensor<16x8xf32>) indices(%i : tensor<4x1xi32>) updates(%u : tensor<4x8xf32>) update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %c = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %c : tensor<f32>
// CHECK-NEXT:     } -> tensor<16x8xf32>
// CHECK-NEXT:     %set = hlo.scatter(%x : tensor<16x8xf32>) indices(%i : tensor<4x1xi32>) updates(%u : tensor<4x8xf32>) update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 indices_are_sorted unique_indices {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       hlo.return %b : tensor<f32>
// CHECK-NEXT:     } -> tensor<16x8xf32>
// CHECK-NEXT:     %pair = hlo.scatter(%x, %xi : tensor<16x8xf32>, tensor<16x8xi32>) indices(%i : tensor<4x1xi32>) updates(%u, %ui : tensor<4x8xf32>, tensor<4x8xi32>) update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi2: tensor<i32>):
// CHECK-NEXT:       hlo.return %b, %bi2 : tensor<f32>, tensor<i32>
// CHECK-NEXT:     } -> tuple<tensor<16x8xf32>, tensor<16x8xi32>>
// CHECK-NEXT:     %batched = hlo.scatter(%bx : tensor<2x16x8xf32>) indices(%bi : tensor<2x4x1xi32>) updates(%bu : tensor<2x4x8xf32>) update_window_dims = [2], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2 {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %c = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %c : tensor<f32>
// CHECK-NEXT:     } -> tensor<2x16x8xf32>
// CHECK-NEXT:     func.return %add : tensor<16x8xf32>
// CHECK-NEXT:   }
// CHECK-LABEL: func.func @sort(%x: tensor<4x8xf32>, %k: tensor<8xf32>, %v: tensor<8xi32>) -> tensor<4x8xf32> {
// CHECK-NEXT:     %desc = hlo.sort(%x) dim = 1 {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %gt = hlo.compare GT, %a, %b : tensor<f32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %gt : tensor<i1>
// CHECK-NEXT:     } : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:     %kv = hlo.sort(%k, %v) dim = 0 is_stable {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
// CHECK-NEXT:       %lt = hlo.compare LT, %a, %b : tensor<f32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } : (tensor<8xf32>, tensor<8xi32>) -> tuple<tensor<8xf32>, tensor<8xi32>>
// CHECK-NEXT:     func.return %desc : tensor<4x8xf32>
// CHECK-NEXT:   }
// CHECK-LABEL: func.func @attributes() {
// CHECK-NEXT:     "test.op"() {dot = #hlo.dot<lhs_contracting = [0], rhs_contracting = [1]>, gather = #hlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, scatter = #hlo.scatter<update_window_dims = [], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 0>, window = #hlo.window<size = [3], window_dilation = [2]>} : () -> ()
// CHECK-NEXT:     func.return
// CHECK-NEXT:   }
// CHECK-NEXT: }
