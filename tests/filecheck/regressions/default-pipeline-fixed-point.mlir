// RUN: neuron-opt %s -p neuron-default-pipeline | filecheck %s
// RUN: neuron-opt %s -p 'neuron-default-pipeline{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// Found by tests/test_properties.py (idempotence, issue 14): the all-reduce sink refuses the inner
// DUS (an unused condition read of the slot, as XLA), neuron-move-reduce-scatter-while-loop then
// moves it out of the inner loop, and the result is an overwrite of outer slot 2 that only a
// second round of the all-reduce sink moves. The pipeline repeats its passes to a fixed point.
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%arg0: tensor<1x1xf32>) -> tuple<tensor<i32>, tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>> attributes {hlo.entry} {
    %c1 = hlo.constant dense<0.000000e+00> : tensor<f32>
    %b2 = hlo.broadcast %c1, dims = [] : (tensor<f32>) -> tensor<1x1xf32>
    %c3 = hlo.constant dense<0> : tensor<i32>
    %tab4 = hlo.constant dense<[0]> : tensor<1xi32>
    %c9 = hlo.constant dense<0> : tensor<i32>
    %bound8 = hlo.reduce(%tab4 : tensor<1xi32>) init(%c9 : tensor<i32>) dimensions = [0] {
    ^bb0(%a5: tensor<i32>, %b6: tensor<i32>):
      %s7 = hlo.add %a5, %b6 : tensor<i32>
      hlo.return %s7 : tensor<i32>
    } -> tensor<i32>
    %t10 = hlo.tuple %c3, %bound8, %b2, %arg0 : tuple<tensor<i32>, tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
    %while11 = hlo.while(%t10) : tuple<tensor<i32>, tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>> condition {
    ^bb0(%cs12: tuple<tensor<i32>, tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>):
      %g13 = hlo.get_tuple_element %cs12[0] : tuple<tensor<i32>, tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
      %g14 = hlo.get_tuple_element %cs12[1] : tuple<tensor<i32>, tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
      %p15 = hlo.compare LT, %g13, %g14 : tensor<i32> -> tensor<i1>
      %g16 = hlo.get_tuple_element %cs12[2] : tuple<tensor<i32>, tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
      %g17 = hlo.get_tuple_element %cs12[3] : tuple<tensor<i32>, tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
      hlo.return %p15 : tensor<i1>
    } body {
    ^bb0(%bs18: tuple<tensor<i32>, tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>):
      %g19 = hlo.get_tuple_element %bs18[0] : tuple<tensor<i32>, tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
      %c20 = hlo.constant dense<1> : tensor<i32>
      %e21 = hlo.add %g19, %c20 : tensor<i32>
      %g22 = hlo.get_tuple_element %bs18[1] : tuple<tensor<i32>, tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
      %g23 = hlo.get_tuple_element %bs18[2] : tuple<tensor<i32>, tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
      %g24 = hlo.get_tuple_element %bs18[3] : tuple<tensor<i32>, tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
      %c25 = hlo.constant dense<0> : tensor<i32>
      %t26 = hlo.tuple %c25, %g23, %g24 : tuple<tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
      %while27 = hlo.while(%t26) : tuple<tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>> condition {
      ^bb0(%cs28: tuple<tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>):
        %g29 = hlo.get_tuple_element %cs28[0] : tuple<tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
        %c30 = hlo.constant dense<1> : tensor<i32>
        %p31 = hlo.compare LT, %g29, %c30 : tensor<i32> -> tensor<i1>
        %g32 = hlo.get_tuple_element %cs28[1] : tuple<tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
        %g33 = hlo.get_tuple_element %cs28[2] : tuple<tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
        hlo.return %p31 : tensor<i1>
      } body {
      ^bb0(%bs34: tuple<tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>):
        %g35 = hlo.get_tuple_element %bs34[0] : tuple<tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
        %c36 = hlo.constant dense<1> : tensor<i32>
        %e37 = hlo.add %g35, %c36 : tensor<i32>
        %g38 = hlo.get_tuple_element %bs34[1] : tuple<tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
        %g39 = hlo.get_tuple_element %bs34[2] : tuple<tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
        %c40 = hlo.constant dense<0> : tensor<i32>
        %ds41 = hlo.dynamic_slice %g39 at [%g35, %c40] sizes = [1, 1] : (tensor<1x1xf32>, tensor<i32>, tensor<i32>) -> tensor<1x1xf32>
        %rs42 = hlo.reshape %ds41 : (tensor<1x1xf32>) -> tensor<1xf32>
        %ar43 = hlo.all_reduce(%rs42) replica_groups = [[0]] {
        ^bb0(%a44: tensor<f32>, %b45: tensor<f32>):
          %s46 = hlo.add %a44, %b45 : tensor<f32>
          hlo.return %s46 : tensor<f32>
        } : (tensor<1xf32>) -> tensor<1xf32>
        %rs47 = hlo.reshape %ar43 : (tensor<1xf32>) -> tensor<1x1xf32>
        %dus48 = hlo.dynamic_update_slice %g38, %rs47 at [%g35, %c40] : (tensor<1x1xf32>, tensor<1x1xf32>, tensor<i32>, tensor<i32>) -> tensor<1x1xf32>
        %t49 = hlo.tuple %e37, %dus48, %g39 : tuple<tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
        hlo.return %t49 : tuple<tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
      }
      %g50 = hlo.get_tuple_element %while27[1] : tuple<tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
      %g51 = hlo.get_tuple_element %while27[2] : tuple<tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
      %t52 = hlo.tuple %e21, %g22, %g50, %g51 : tuple<tensor<i32>, tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
      hlo.return %t52 : tuple<tensor<i32>, tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
    }
    func.return %while11 : tuple<tensor<i32>, tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
  }
}

// REMARK: remark: neuron-while-loop-all-reduce-code-motion: %ar43 (hlo.all_reduce): slot 1 is read by the loop condition
// REMARK-NEXT: remark: neuron-while-loop-all-reduce-code-motion: hoisted 0 all-reduce and 0 reduce-scatter out of while loops
// REMARK-NEXT: remark: neuron-move-reduce-scatter-while-loop: %ar43 (hlo.all_reduce): moved
// REMARK-NEXT: remark: neuron-move-reduce-scatter-while-loop: %ar43 (hlo.all_reduce): result is not written into a loop-carried buffer by dynamic-update-slice
// REMARK-NEXT: remark: neuron-default-pipeline: round 2 moved 1 more collectives out of while loops
// CHECK-LABEL: builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64, hlo.use_spmd_partitioning} {
// CHECK-NEXT:   func.func @main(%arg0: tensor<1x1xf32>) -> tuple<tensor<i32>, tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>> attributes {hlo.entry} {
// CHECK-NEXT:     %c1 = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:     %b2 = hlo.broadcast %c1, dims = [] : (tensor<f32>) -> tensor<1x1xf32>
// CHECK-NEXT:     %c3 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %tab4 = hlo.constant dense<0> : tensor<1xi32>
// CHECK-NEXT:     %c9 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %bound8 = hlo.reduce(%tab4 : tensor<1xi32>) init(%c9 : tensor<i32>) dimensions = [0] {
// CHECK-NEXT:     ^bb0(%a5: tensor<i32>, %b6: tensor<i32>):
// CHECK-NEXT:       %s7 = hlo.add %a5, %b6 : tensor<i32>
// CHECK-NEXT:       hlo.return %s7 : tensor<i32>
// CHECK-NEXT:     } -> tensor<i32>
// CHECK-NEXT:     %t10 = hlo.tuple %c3, %bound8, %b2, %arg0 : tuple<tensor<i32>, tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
// CHECK-NEXT:     %while11 = hlo.while(%t10) : tuple<tensor<i32>, tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs12: tuple<tensor<i32>, tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>):
// CHECK-NEXT:       %g13 = hlo.get_tuple_element %cs12[0] : tuple<tensor<i32>, tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
// CHECK-NEXT:       %g14 = hlo.get_tuple_element %cs12[1] : tuple<tensor<i32>, tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
// CHECK-NEXT:       %p15 = hlo.compare LT, %g13, %g14 : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %p15 : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs18: tuple<tensor<i32>, tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>):
// CHECK-NEXT:       %g19 = hlo.get_tuple_element %bs18[0] : tuple<tensor<i32>, tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
// CHECK-NEXT:       %c20 = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %e21 = hlo.add %g19, %c20 : tensor<i32>
// CHECK-NEXT:       %g22 = hlo.get_tuple_element %bs18[1] : tuple<tensor<i32>, tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
// CHECK-NEXT:       %g24 = hlo.get_tuple_element %bs18[3] : tuple<tensor<i32>, tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
// CHECK-NEXT:       %c25 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:       %ar43_zero = hlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:       %ar43_init = hlo.broadcast %ar43_zero, dims = [] : (tensor<f32>) -> tensor<1x1xf32>
// CHECK-NEXT:       %t26 = hlo.tuple %c25, %ar43_init, %g24 : tuple<tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
// CHECK-NEXT:       %while27 = hlo.while(%t26) : tuple<tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>> condition {
// CHECK-NEXT:       ^bb0(%cs28: tuple<tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>):
// CHECK-NEXT:         %g29 = hlo.get_tuple_element %cs28[0] : tuple<tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
// CHECK-NEXT:         %c30 = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:         %p31 = hlo.compare LT, %g29, %c30 : tensor<i32> -> tensor<i1>
// CHECK-NEXT:         hlo.return %p31 : tensor<i1>
// CHECK-NEXT:       } body {
// CHECK-NEXT:       ^bb0(%bs34: tuple<tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>):
// CHECK-NEXT:         %g35 = hlo.get_tuple_element %bs34[0] : tuple<tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
// CHECK-NEXT:         %c36 = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:         %e37 = hlo.add %g35, %c36 : tensor<i32>
// CHECK-NEXT:         %g39 = hlo.get_tuple_element %bs34[2] : tuple<tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
// CHECK-NEXT:         %c40 = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:         %ds41 = hlo.dynamic_slice %g39 at [%g35, %c40] sizes = [1, 1] : (tensor<1x1xf32>, tensor<i32>, tensor<i32>) -> tensor<1x1xf32>
// CHECK-NEXT:         %rs42 = hlo.reshape %ds41 : (tensor<1x1xf32>) -> tensor<1xf32>
// CHECK-NEXT:         %g38 = hlo.get_tuple_element %bs34[1] : tuple<tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
// CHECK-NEXT:         %ar43_row = hlo.reshape %rs42 : (tensor<1xf32>) -> tensor<1x1xf32>
// CHECK-NEXT:         %dus48 = hlo.dynamic_update_slice %g38, %ar43_row at [%g35, %c40] : (tensor<1x1xf32>, tensor<1x1xf32>, tensor<i32>, tensor<i32>) -> tensor<1x1xf32>
// CHECK-NEXT:         %t49 = hlo.tuple %e37, %dus48, %g39 : tuple<tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
// CHECK-NEXT:         hlo.return %t49 : tuple<tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
// CHECK-NEXT:       }
// CHECK-NEXT:       %ar43_stacked = hlo.get_tuple_element %while27[1] : tuple<tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
// CHECK-NEXT:       %g51 = hlo.get_tuple_element %while27[2] : tuple<tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
// CHECK-NEXT:       %t52 = hlo.tuple %e21, %g22, %ar43_stacked, %g51 : tuple<tensor<i32>, tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
// CHECK-NEXT:       hlo.return %t52 : tuple<tensor<i32>, tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.get_tuple_element %while11[2] : tuple<tensor<i32>, tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.all_reduce([[V0]]) replica_groups = [[0]] {
// CHECK-NEXT:     ^bb0(%a44: tensor<f32>, %b45: tensor<f32>):
// CHECK-NEXT:       %s46 = hlo.add %a44, %b45 : tensor<f32>
// CHECK-NEXT:       hlo.return %s46 : tensor<f32>
// CHECK-NEXT:     } : (tensor<1x1xf32>) -> tensor<1x1xf32>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.get_tuple_element %while11[0] : tuple<tensor<i32>, tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element %while11[1] : tuple<tensor<i32>, tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.get_tuple_element %while11[3] : tuple<tensor<i32>, tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
// CHECK-NEXT:     [[V5:%[0-9]+]] = hlo.tuple [[V2]], [[V3]], [[V1]], [[V4]] : tuple<tensor<i32>, tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
// CHECK-NEXT:     func.return [[V5]] : tuple<tensor<i32>, tensor<i32>, tensor<1x1xf32>, tensor<1x1xf32>>
// CHECK-NEXT:   }
// CHECK-NEXT: }
