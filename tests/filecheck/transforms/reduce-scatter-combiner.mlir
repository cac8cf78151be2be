// RUN: neuron-opt %s --split-input-file -p reduce-scatter-combiner | filecheck %s
// RUN: neuron-opt %s --split-input-file -p 'reduce-scatter-combiner{combine-by-dim=false threshold-bytes=64}' | filecheck %s --check-prefix=DIM
// RUN: neuron-opt %s --split-input-file -p 'reduce-scatter-combiner{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// reduce-scatter-combiner: one rewrite or legality rule per chunk. With combine-by-dim=false
// a, b and c (add) combine along dimension 0, b transposed before and after; threshold-bytes=64
// (each result is 32 bytes) stops the group at two, so c stays alone in the first chunk.
// DIM-LABEL: builtin.module @scatters
// DIM:      %[[T:[0-9]+]] = hlo.transpose %p1, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
// DIM:      %combined = hlo.reduce_scatter(%p0, %[[T]]) dim = 0
// DIM:      %c = hlo.reduce_scatter(%p2) dim = 0
// DIM:      %m = hlo.reduce_scatter(%p3) dim = 0

// One key per scatter dimension and reducer: a and c (add, dimension 0) combine; b (dimension 1)
// and m (maximum) stay.
builtin.module @scatters attributes {hlo.num_replicas = 4 : i64, hlo.num_partitions = 1 : i64} {
  func.func @main(%p0: tensor<8x4xf32>, %p1: tensor<4x8xf32>, %p2: tensor<8x4xf32>, %p3: tensor<8x4xf32>) -> tuple<tensor<2x4xf32>, tensor<4x2xf32>, tensor<2x4xf32>, tensor<2x4xf32>> attributes {hlo.entry} {
    %a = hlo.reduce_scatter(%p0) dim = 0 replica_groups = [] {
    ^bb0(%a_1: tensor<f32>, %b: tensor<f32>):
      %s = hlo.add %a_1, %b : tensor<f32>
      hlo.return %s : tensor<f32>
    } : (tensor<8x4xf32>) -> tensor<2x4xf32>
    %b_1 = hlo.reduce_scatter(%p1) dim = 1 replica_groups = [] {
    ^bb0(%a_2: tensor<f32>, %b_2: tensor<f32>):
      %s_1 = hlo.add %a_2, %b_2 : tensor<f32>
      hlo.return %s_1 : tensor<f32>
    } : (tensor<4x8xf32>) -> tensor<4x2xf32>
    %c = hlo.reduce_scatter(%p2) dim = 0 replica_groups = [] {
    ^bb0(%a_3: tensor<f32>, %b_3: tensor<f32>):
      %s_2 = hlo.add %a_3, %b_3 : tensor<f32>
      hlo.return %s_2 : tensor<f32>
    } : (tensor<8x4xf32>) -> tensor<2x4xf32>
    %m = hlo.reduce_scatter(%p3) dim = 0 replica_groups = [] {
    ^bb0(%a_4: tensor<f32>, %b_4: tensor<f32>):
      %m_1 = hlo.maximum %a_4, %b_4 : tensor<f32>
      hlo.return %m_1 : tensor<f32>
    } : (tensor<8x4xf32>) -> tensor<2x4xf32>
    %t = hlo.tuple %a, %b_1, %c, %m : tuple<tensor<2x4xf32>, tensor<4x2xf32>, tensor<2x4xf32>, tensor<2x4xf32>>
    func.return %t : tuple<tensor<2x4xf32>, tensor<4x2xf32>, tensor<2x4xf32>, tensor<2x4xf32>>
  }
}

// REMARK: remark: reduce-scatter-combiner: %c (hlo.reduce_scatter): combined 2 into one: %a (hlo.reduce_scatter), %c (hlo.reduce_scatter)
// REMARK-NEXT: remark: reduce-scatter-combiner: combined 2 collectives into 1
// CHECK-LABEL: builtin.module @scatters attributes {hlo.num_replicas = 4 : i64, hlo.num_partitions = 1 : i64} {
// CHECK-NEXT:   func.func @main(%p0: tensor<8x4xf32>, %p1: tensor<4x8xf32>, %p2: tensor<8x4xf32>, %p3: tensor<8x4xf32>) -> tuple<tensor<2x4xf32>, tensor<4x2xf32>, tensor<2x4xf32>, tensor<2x4xf32>> attributes {hlo.entry} {
// CHECK-NEXT:     %b = hlo.reduce_scatter(%p1) dim = 1 replica_groups = [] {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b_1: tensor<f32>):
// CHECK-NEXT:       %s = hlo.add %a, %b_1 : tensor<f32>
// CHECK-NEXT:       hlo.return %s : tensor<f32>
// CHECK-NEXT:     } : (tensor<4x8xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:     %combined = hlo.reduce_scatter(%p0, %p2) dim = 0 replica_groups = [] {
// CHECK-NEXT:     ^bb0(%a_1: tensor<f32>, %b_2: tensor<f32>):
// CHECK-NEXT:       %s_1 = hlo.add %a_1, %b_2 : tensor<f32>
// CHECK-NEXT:       hlo.return %s_1 : tensor<f32>
// CHECK-NEXT:     } : (tensor<8x4xf32>, tensor<8x4xf32>) -> tuple<tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:     %a_2 = hlo.get_tuple_element %combined[0] : tuple<tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:     %c = hlo.get_tuple_element %combined[1] : tuple<tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:     %m = hlo.reduce_scatter(%p3) dim = 0 replica_groups = [] {
// CHECK-NEXT:     ^bb0(%a_3: tensor<f32>, %b_3: tensor<f32>):
// CHECK-NEXT:       %m_1 = hlo.maximum %a_3, %b_3 : tensor<f32>
// CHECK-NEXT:       hlo.return %m_1 : tensor<f32>
// CHECK-NEXT:     } : (tensor<8x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:     %t = hlo.tuple %a_2, %b, %c, %m : tuple<tensor<2x4xf32>, tensor<4x2xf32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:     func.return %t : tuple<tensor<2x4xf32>, tensor<4x2xf32>, tensor<2x4xf32>, tensor<2x4xf32>>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// b scatters a concatenation of a (dependent): a and c combine, b stays; t16, which read a
// before the combined op's place, moves after it.
builtin.module @dependent attributes {hlo.num_replicas = 4 : i64, hlo.num_partitions = 1 : i64} {
  func.func @main(%p0: tensor<16xf32>, %p1: tensor<16xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xf32>> attributes {hlo.entry} {
    %a = hlo.reduce_scatter(%p0) dim = 0 replica_groups = [] {
    ^bb0(%a_1: tensor<f32>, %b: tensor<f32>):
      %s = hlo.add %a_1, %b : tensor<f32>
      hlo.return %s : tensor<f32>
    } : (tensor<16xf32>) -> tensor<4xf32>
    %t16 = hlo.concatenate(%a, %a, %a, %a) dim = 0 : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<16xf32>
    %b_1 = hlo.reduce_scatter(%t16) dim = 0 replica_groups = [] {
    ^bb0(%a_2: tensor<f32>, %b_2: tensor<f32>):
      %s_1 = hlo.add %a_2, %b_2 : tensor<f32>
      hlo.return %s_1 : tensor<f32>
    } : (tensor<16xf32>) -> tensor<4xf32>
    %c = hlo.reduce_scatter(%p1) dim = 0 replica_groups = [] {
    ^bb0(%a_3: tensor<f32>, %b_3: tensor<f32>):
      %s_2 = hlo.add %a_3, %b_3 : tensor<f32>
      hlo.return %s_2 : tensor<f32>
    } : (tensor<16xf32>) -> tensor<4xf32>
    %t = hlo.tuple %a, %b_1, %c : tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
    func.return %t : tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
  }
}

// REMARK: remark: reduce-scatter-combiner: %c (hlo.reduce_scatter): combined 2 into one: %a (hlo.reduce_scatter), %c (hlo.reduce_scatter)
// REMARK-NEXT: remark: reduce-scatter-combiner: combined 2 collectives into 1
// CHECK-LABEL: builtin.module @dependent attributes {hlo.num_replicas = 4 : i64, hlo.num_partitions = 1 : i64} {
// CHECK-NEXT:   func.func @main(%p0: tensor<16xf32>, %p1: tensor<16xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xf32>> attributes {hlo.entry} {
// CHECK-NEXT:     %combined = hlo.reduce_scatter(%p0, %p1) dim = 0 replica_groups = [] {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %s : tensor<f32>
// CHECK-NEXT:     } : (tensor<16xf32>, tensor<16xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %a_1 = hlo.get_tuple_element %combined[0] : tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %c = hlo.get_tuple_element %combined[1] : tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %t16 = hlo.concatenate(%a_1, %a_1, %a_1, %a_1) dim = 0 : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<16xf32>
// CHECK-NEXT:     %b_1 = hlo.reduce_scatter(%t16) dim = 0 replica_groups = [] {
// CHECK-NEXT:     ^bb0(%a_2: tensor<f32>, %b_2: tensor<f32>):
// CHECK-NEXT:       %s_1 = hlo.add %a_2, %b_2 : tensor<f32>
// CHECK-NEXT:       hlo.return %s_1 : tensor<f32>
// CHECK-NEXT:     } : (tensor<16xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %t = hlo.tuple %a_1, %b_1, %c : tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     func.return %t : tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:   }
// CHECK-NEXT: }
