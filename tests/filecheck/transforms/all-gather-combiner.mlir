// RUN: neuron-opt %s --split-input-file -p all-gather-combiner | filecheck %s
// RUN: neuron-opt %s --split-input-file -p 'all-gather-combiner{combine-by-dim=false combine-different-dtypes=false}' | filecheck %s --check-prefix=DIM
// RUN: neuron-opt %s --split-input-file -p 'all-gather-combiner{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// all-gather-combiner: one rewrite or legality rule per chunk. With combine-by-dim=false the
// f32 gathers a (dimension 0), b and d (dimension 1) combine along the most frequent dimension,
// 1; a is transposed (dimensions swapped) before and after; with combine-different-dtypes=false
// the s32 gather c stays alone.
// DIM-LABEL: builtin.module @gathers
// DIM:      %c = hlo.all_gather(%p2) dim = 0
// DIM:      %[[T0:[0-9]+]] = hlo.transpose %p0, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
// DIM:      %combined = hlo.all_gather(%[[T0]], %p1, %p3) dim = 1
// DIM:      %a = hlo.transpose %{{[0-9]+}}, dims = [1, 0] : (tensor<3x8xf32>) -> tensor<8x3xf32>
// DIM-LABEL: builtin.module @dependent
// DIM-NOT:  %combined

// One key per gather dimension (combine-by-dim=true): a and c (dimension 0; c is s32,
// combine-different-dtypes is on) combine, b and d (dimension 1) combine.
builtin.module @gathers attributes {hlo.num_replicas = 4 : i64, hlo.num_partitions = 1 : i64} {
  func.func @main(%p0: tensor<2x3xf32>, %p1: tensor<2x3xf32>, %p2: tensor<2x3xi32>, %p3: tensor<2x3xf32>) -> tuple<tensor<8x3xf32>, tensor<2x12xf32>, tensor<8x3xi32>, tensor<2x12xf32>> attributes {hlo.entry} {
    %a = hlo.all_gather(%p0) dim = 0 replica_groups = [] : (tensor<2x3xf32>) -> tensor<8x3xf32>
    %b = hlo.all_gather(%p1) dim = 1 replica_groups = [] : (tensor<2x3xf32>) -> tensor<2x12xf32>
    %c = hlo.all_gather(%p2) dim = 0 replica_groups = [] : (tensor<2x3xi32>) -> tensor<8x3xi32>
    %d = hlo.all_gather(%p3) dim = 1 replica_groups = [] : (tensor<2x3xf32>) -> tensor<2x12xf32>
    %t = hlo.tuple %a, %b, %c, %d : tuple<tensor<8x3xf32>, tensor<2x12xf32>, tensor<8x3xi32>, tensor<2x12xf32>>
    func.return %t : tuple<tensor<8x3xf32>, tensor<2x12xf32>, tensor<8x3xi32>, tensor<2x12xf32>>
  }
}

// REMARK: remark: all-gather-combiner: %c (hlo.all_gather): combined 2 into one: %a (hlo.all_gather), %c (hlo.all_gather)
// REMARK-NEXT: remark: all-gather-combiner: %d (hlo.all_gather): combined 2 into one: %b (hlo.all_gather), %d (hlo.all_gather)
// REMARK-NEXT: remark: all-gather-combiner: combined 4 collectives into 2
// CHECK-LABEL: builtin.module @gathers attributes {hlo.num_replicas = 4 : i64, hlo.num_partitions = 1 : i64} {
// CHECK-NEXT:   func.func @main(%p0: tensor<2x3xf32>, %p1: tensor<2x3xf32>, %p2: tensor<2x3xi32>, %p3: tensor<2x3xf32>) -> tuple<tensor<8x3xf32>, tensor<2x12xf32>, tensor<8x3xi32>, tensor<2x12xf32>> attributes {hlo.entry} {
// CHECK-NEXT:     %combined = hlo.all_gather(%p0, %p2) dim = 0 replica_groups = [] : (tensor<2x3xf32>, tensor<2x3xi32>) -> tuple<tensor<8x3xf32>, tensor<8x3xi32>>
// CHECK-NEXT:     %a = hlo.get_tuple_element %combined[0] : tuple<tensor<8x3xf32>, tensor<8x3xi32>>
// CHECK-NEXT:     %c = hlo.get_tuple_element %combined[1] : tuple<tensor<8x3xf32>, tensor<8x3xi32>>
// CHECK-NEXT:     %combined_1 = hlo.all_gather(%p1, %p3) dim = 1 replica_groups = [] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tuple<tensor<2x12xf32>, tensor<2x12xf32>>
// CHECK-NEXT:     %b = hlo.get_tuple_element %combined_1[0] : tuple<tensor<2x12xf32>, tensor<2x12xf32>>
// CHECK-NEXT:     %d = hlo.get_tuple_element %combined_1[1] : tuple<tensor<2x12xf32>, tensor<2x12xf32>>
// CHECK-NEXT:     %t = hlo.tuple %a, %b, %c, %d : tuple<tensor<8x3xf32>, tensor<2x12xf32>, tensor<8x3xi32>, tensor<2x12xf32>>
// CHECK-NEXT:     func.return %t : tuple<tensor<8x3xf32>, tensor<2x12xf32>, tensor<8x3xi32>, tensor<2x12xf32>>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// Not combined: b gathers a slice of a (dependent); c has other replica groups; d has a layout
// constraint.
builtin.module @dependent attributes {hlo.num_replicas = 4 : i64, hlo.num_partitions = 1 : i64} {
  func.func @main(%p0: tensor<2xf32>, %p1: tensor<2xf32>) -> tuple<tensor<8xf32>, tensor<8xf32>, tensor<4xf32>, tensor<8xf32>> attributes {hlo.entry} {
    %a = hlo.all_gather(%p0) dim = 0 replica_groups = [] : (tensor<2xf32>) -> tensor<8xf32>
    %s = hlo.slice %a, start = [0], limit = [2], strides = [1] : (tensor<8xf32>) -> tensor<2xf32>
    %b = hlo.all_gather(%s) dim = 0 replica_groups = [] : (tensor<2xf32>) -> tensor<8xf32>
    %c = hlo.all_gather(%p1) dim = 0 replica_groups = [[0, 1], [2, 3]] : (tensor<2xf32>) -> tensor<4xf32>
    %d = hlo.all_gather(%p1) dim = 0 replica_groups = [] constrain_layout : (tensor<2xf32>) -> tensor<8xf32>
    %t = hlo.tuple %a, %b, %c, %d : tuple<tensor<8xf32>, tensor<8xf32>, tensor<4xf32>, tensor<8xf32>>
    func.return %t : tuple<tensor<8xf32>, tensor<8xf32>, tensor<4xf32>, tensor<8xf32>>
  }
}

// REMARK: remark: all-gather-combiner: combined 0 collectives into 0
// CHECK-LABEL: builtin.module @dependent attributes {hlo.num_replicas = 4 : i64, hlo.num_partitions = 1 : i64} {
// CHECK-NEXT:   func.func @main(%p0: tensor<2xf32>, %p1: tensor<2xf32>) -> tuple<tensor<8xf32>, tensor<8xf32>, tensor<4xf32>, tensor<8xf32>> attributes {hlo.entry} {
// CHECK-NEXT:     %a = hlo.all_gather(%p0) dim = 0 replica_groups = [] : (tensor<2xf32>) -> tensor<8xf32>
// CHECK-NEXT:     %s = hlo.slice %a, start = [0], limit = [2], strides = [1] : (tensor<8xf32>) -> tensor<2xf32>
// CHECK-NEXT:     %b = hlo.all_gather(%s) dim = 0 replica_groups = [] : (tensor<2xf32>) -> tensor<8xf32>
// CHECK-NEXT:     %c = hlo.all_gather(%p1) dim = 0 replica_groups = [[0, 1], [2, 3]] : (tensor<2xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %d = hlo.all_gather(%p1) dim = 0 replica_groups = [] constrain_layout : (tensor<2xf32>) -> tensor<8xf32>
// CHECK-NEXT:     %t = hlo.tuple %a, %b, %c, %d : tuple<tensor<8xf32>, tensor<8xf32>, tensor<4xf32>, tensor<8xf32>>
// CHECK-NEXT:     func.return %t : tuple<tensor<8xf32>, tensor<8xf32>, tensor<4xf32>, tensor<8xf32>>
// CHECK-NEXT:   }
// CHECK-NEXT: }
