// RUN: %roundtrip

// The ops added for issue 17 (reverse, convolution, select_and_scatter, map, topk),
// round-tripped pretty -> pretty and pretty -> generic -> pretty.

// CHECK: builtin.module {
// CHECK-LABEL: func.func @structured(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x16xf32>, %a: tensor<4x4xf32>, %s: tensor<2x2xf32>, %z: tensor<f32>, %t: tensor<10x10xf32>, %v: tensor<2x4x4xf32>, %k: tensor<2x2x2xf32>, %b: tensor<4x2xf32>, %kk: tensor<2x4xf32>) {
// CHECK-NEXT: %r = hlo.reverse %a, dims = [0, 1] : (tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: %y = hlo.convolution %x, %w dim_labels = "b01f_01io->b01f" size = [3, 3], stride = [2, 2], padding = [[1, 1], [1, 1]], base_dilation = [2, 2], window_dilation = [1, 2] window_reversal = <[1, 0]> : (tensor<1x8x8x4xf32>, tensor<3x3x4x16xf32>) -> tensor<1x8x7x16xf32>
// CHECK-NEXT: %fg = hlo.convolution %v, %k dim_labels = "b0f_0io->b0f" size = [2] feature_group_count = 2 : (tensor<2x4x4xf32>, tensor<2x2x2xf32>) -> tensor<2x3x2xf32>
// CHECK-NEXT: %bg = hlo.convolution %b, %kk dim_labels = "bf_io->bf" size = [] batch_group_count = 2 : (tensor<4x2xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %g = hlo.select_and_scatter %a, %s, %z size = [2, 2], stride = [2, 2] select {
// CHECK-NEXT: ^bb0(%p: tensor<f32>, %q: tensor<f32>):
// CHECK-NEXT: %ge = hlo.compare GE, %p, %q : tensor<f32> -> tensor<i1>
// CHECK-NEXT: hlo.return %ge : tensor<i1>
// CHECK-NEXT: } scatter {
// CHECK-NEXT: ^bb0(%p1: tensor<f32>, %q1: tensor<f32>):
// CHECK-NEXT: %sum = hlo.add %p1, %q1 : tensor<f32>
// CHECK-NEXT: hlo.return %sum : tensor<f32>
// CHECK-NEXT: } : (tensor<4x4xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x4xf32>
// CHECK-NEXT: %m = hlo.map(%a, %a) dims = [0, 1] {
// CHECK-NEXT: ^bb0(%p2: tensor<f32>, %q2: tensor<f32>):
// CHECK-NEXT: %lt = hlo.compare LT, %p2, %q2 : tensor<f32> -> tensor<i1>
// CHECK-NEXT: hlo.return %lt : tensor<i1>
// CHECK-NEXT: } : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi1>
// CHECK-NEXT: %top = hlo.topk %t, k = 2, largest = true : (tensor<10x10xf32>) -> tuple<tensor<10x2xf32>, tensor<10x2xi32>>
// CHECK-NEXT: %bottom = hlo.topk %t, k = 0, largest = false : (tensor<10x10xf32>) -> tuple<tensor<10x0xf32>, tensor<10x0xi32>>
// CHECK-NEXT: func.return
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-EMPTY:

func.func @structured(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x16xf32>, %a: tensor<4x4xf32>, %s: tensor<2x2xf32>, %z: tensor<f32>, %t: tensor<10x10xf32>, %v: tensor<2x4x4xf32>, %k: tensor<2x2x2xf32>, %b: tensor<4x2xf32>, %kk: tensor<2x4xf32>) {
  %r = hlo.reverse %a, dims = [0, 1] : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %y = hlo.convolution %x, %w dim_labels = "b01f_01io->b01f" size = [3, 3], stride = [2, 2], padding = [[1, 1], [1, 1]], base_dilation = [2, 2], window_dilation = [1, 2] window_reversal = <[1, 0]> : (tensor<1x8x8x4xf32>, tensor<3x3x4x16xf32>) -> tensor<1x8x7x16xf32>
  %fg = hlo.convolution %v, %k dim_labels = "b0f_0io->b0f" size = [2] feature_group_count = 2 : (tensor<2x4x4xf32>, tensor<2x2x2xf32>) -> tensor<2x3x2xf32>
  %bg = hlo.convolution %b, %kk dim_labels = "bf_io->bf" size = [] batch_group_count = 2 : (tensor<4x2xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %g = hlo.select_and_scatter %a, %s, %z size = [2, 2], stride = [2, 2] select {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %ge = hlo.compare GE, %p, %q : tensor<f32> -> tensor<i1>
    hlo.return %ge : tensor<i1>
  } scatter {
  ^bb0(%p1: tensor<f32>, %q1: tensor<f32>):
    %sum = hlo.add %p1, %q1 : tensor<f32>
    hlo.return %sum : tensor<f32>
  } : (tensor<4x4xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x4xf32>
  %m = hlo.map(%a, %a) dims = [0, 1] {
  ^bb0(%p2: tensor<f32>, %q2: tensor<f32>):
    %lt = hlo.compare LT, %p2, %q2 : tensor<f32> -> tensor<i1>
    hlo.return %lt : tensor<i1>
  } : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi1>
  %top = hlo.topk %t, k = 2, largest = true : (tensor<10x10xf32>) -> tuple<tensor<10x2xf32>, tensor<10x2xi32>>
  %bottom = hlo.topk %t, k = 0, largest = false : (tensor<10x10xf32>) -> tuple<tensor<10x0xf32>, tensor<10x0xi32>>
  func.return
}
