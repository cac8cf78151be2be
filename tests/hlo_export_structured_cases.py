"""Exact HLO text of the ops added for issue 17 (reverse, convolution, select-and-scatter,
map, topk); tests/test_hlo_export.py adds the case to its op table."""

SRC_STRUCTURED = r"""
builtin.module {
func.func @main(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x16xf32>, %a: tensor<4x4xf32>, %s: tensor<2x2xf32>, %z: tensor<f32>, %t: tensor<10x10xf32>, %v: tensor<2x4x4xf32>, %k: tensor<2x2x2xf32>, %b: tensor<4x2xf32>, %kk: tensor<2x4xf32>) -> tuple<tensor<4x4xf32>, tensor<1x8x7x16xf32>, tensor<2x3x2xf32>, tensor<2x4xf32>, tensor<4x4xf32>, tensor<4x4xi1>, tuple<tensor<10x2xf32>, tensor<10x2xi32>>, tuple<tensor<10x0xf32>, tensor<10x0xi32>>> {
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
  %out = hlo.tuple %r, %y, %fg, %bg, %g, %m, %top, %bottom : tuple<tensor<4x4xf32>, tensor<1x8x7x16xf32>, tensor<2x3x2xf32>, tensor<2x4xf32>, tensor<4x4xf32>, tensor<4x4xi1>, tuple<tensor<10x2xf32>, tensor<10x2xi32>>, tuple<tensor<10x0xf32>, tensor<10x0xi32>>>
  func.return %out : tuple<tensor<4x4xf32>, tensor<1x8x7x16xf32>, tensor<2x3x2xf32>, tensor<2x4xf32>, tensor<4x4xf32>, tensor<4x4xi1>, tuple<tensor<10x2xf32>, tensor<10x2xi32>>, tuple<tensor<10x0xf32>, tensor<10x0xi32>>>
}
}
"""

HLO_STRUCTURED = r"""HloModule module, entry_computation_layout={(f32[1,8,8,4]{3,2,1,0}, f32[3,3,4,16]{3,2,1,0}, f32[4,4]{1,0}, f32[2,2]{1,0}, f32[], f32[10,10]{1,0}, f32[2,4,4]{2,1,0}, f32[2,2,2]{2,1,0}, f32[4,2]{1,0}, f32[2,4]{1,0})->(f32[4,4]{1,0}, f32[1,8,7,16]{3,2,1,0}, f32[2,3,2]{2,1,0}, f32[2,4]{1,0}, f32[4,4]{1,0}, pred[4,4]{1,0}, (f32[10,2]{1,0}, s32[10,2]{1,0}), (f32[10,0]{1,0}, s32[10,0]{1,0}))}, replica_count=1, num_partitions=1

%region_0 (p: f32[], q: f32[]) -> pred[] {
  %p = f32[] parameter(0)
  %q = f32[] parameter(1)
  ROOT %ge = pred[] compare(%p, %q), direction=GE
}

%region_1 (p1: f32[], q1: f32[]) -> f32[] {
  %p1 = f32[] parameter(0)
  %q1 = f32[] parameter(1)
  ROOT %sum = f32[] add(%p1, %q1)
}

%region_2 (p2: f32[], q2: f32[]) -> pred[] {
  %p2 = f32[] parameter(0)
  %q2 = f32[] parameter(1)
  ROOT %lt = pred[] compare(%p2, %q2), direction=LT
}

ENTRY %main (x: f32[1,8,8,4], w: f32[3,3,4,16], a: f32[4,4], s: f32[2,2], z: f32[], t: f32[10,10], v: f32[2,4,4], k: f32[2,2,2], b: f32[4,2], kk: f32[2,4]) -> (f32[4,4], f32[1,8,7,16], f32[2,3,2], f32[2,4], f32[4,4], pred[4,4], (f32[10,2], s32[10,2]), (f32[10,0], s32[10,0])) {
  %x = f32[1,8,8,4]{3,2,1,0} parameter(0)
  %w = f32[3,3,4,16]{3,2,1,0} parameter(1)
  %a = f32[4,4]{1,0} parameter(2)
  %s = f32[2,2]{1,0} parameter(3)
  %z = f32[] parameter(4)
  %t = f32[10,10]{1,0} parameter(5)
  %v = f32[2,4,4]{2,1,0} parameter(6)
  %k = f32[2,2,2]{2,1,0} parameter(7)
  %b = f32[4,2]{1,0} parameter(8)
  %kk = f32[2,4]{1,0} parameter(9)
  %r = f32[4,4]{1,0} reverse(%a), dimensions={0,1}
  %y = f32[1,8,7,16]{3,2,1,0} convolution(%x, %w), window={size=3x3 stride=2x2 pad=1_1x1_1 lhs_dilate=2x2 rhs_dilate=1x2 rhs_reversal=1x0}, dim_labels=b01f_01io->b01f
  %fg = f32[2,3,2]{2,1,0} convolution(%v, %k), window={size=2}, dim_labels=b0f_0io->b0f, feature_group_count=2
  %bg = f32[2,4]{1,0} convolution(%b, %kk), dim_labels=bf_io->bf, batch_group_count=2
  %g = f32[4,4]{1,0} select-and-scatter(%a, %s, %z), window={size=2x2 stride=2x2}, select=%region_0, scatter=%region_1
  %m = pred[4,4]{1,0} map(%a, %a), dimensions={0,1}, to_apply=%region_2
  %top = (f32[10,2]{1,0}, s32[10,2]{1,0}) topk(%t), k=2, largest=true
  %bottom = (f32[10,0]{1,0}, s32[10,0]{1,0}) topk(%t), k=0, largest=false
  ROOT %out = (f32[4,4]{1,0}, f32[1,8,7,16]{3,2,1,0}, f32[2,3,2]{2,1,0}, f32[2,4]{1,0}, f32[4,4]{1,0}, pred[4,4]{1,0}, (f32[10,2]{1,0}, s32[10,2]{1,0}), (f32[10,0]{1,0}, s32[10,0]{1,0})) tuple(%r, %y, %fg, %bg, %g, %m, %top, %bottom)
}
"""
