// RUN: neuron-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

// One case per verifier rule of the ops added for issue 17 (reverse, convolution,
// select_and_scatter, map, topk), each checking its message.

// Reverse dimension out of range.
// CHECK: reverse dimension 2 is out of range for rank 2
func.func @f(%x: tensor<2x3xf32>) {
  %r = hlo.reverse %x, dims = [2] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

// CHECK: // {{-----}}
// Reverse repeats a dimension.
// CHECK-NEXT: reverse dimensions [1, 1] repeat a dimension
func.func @f(%x: tensor<2x3xf32>) {
  %r = hlo.reverse %x, dims = [1, 1] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

// CHECK: // {{-----}}
// Reverse changes the type.
// CHECK-NEXT: reverse result must be tensor<2x3xf32>, got tensor<3x2xf32>
func.func @f(%x: tensor<2x3xf32>) {
  %r = hlo.reverse %x, dims = [0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  func.return
}

// -----

// CHECK: // {{-----}}
// A dim_labels part lacking a letter.
// CHECK-NEXT: dim_labels kernel part '0i' lacks 'o'
func.func @f(%x: tensor<1x4x2xf32>, %w: tensor<3x2x2xf32>) {
  %r = hlo.convolution %x, %w dim_labels = "b0f_0i->b0f" size = [3] : (tensor<1x4x2xf32>, tensor<3x2x2xf32>) -> tensor<1x2x2xf32>
  func.return
}

// -----

// CHECK: // {{-----}}
// Convolution operand rank.
// CHECK-NEXT: convolution lhs has rank 2, dim_labels need rank 3
func.func @f(%x: tensor<1x4xf32>, %w: tensor<3x2x2xf32>) {
  %r = hlo.convolution %x, %w dim_labels = "b0f_0io->b0f" size = [3] : (tensor<1x4xf32>, tensor<3x2x2xf32>) -> tensor<1x2x2xf32>
  func.return
}

// -----

// CHECK: // {{-----}}
// Convolution feature groups.
// CHECK-NEXT: input feature dimension size 3 is not a multiple of feature_group_count 2
func.func @f(%x: tensor<1x4x3xf32>, %w: tensor<3x2x2xf32>) {
  %r = hlo.convolution %x, %w dim_labels = "b0f_0io->b0f" size = [3] feature_group_count = 2 : (tensor<1x4x3xf32>, tensor<3x2x2xf32>) -> tensor<1x2x2xf32>
  func.return
}

// -----

// CHECK: // {{-----}}
// Convolution kernel input features.
// CHECK-NEXT: input feature dimension size 2 / feature_group_count 1 must equal the kernel input feature dimension size 3
func.func @f(%x: tensor<1x4x2xf32>, %w: tensor<3x3x2xf32>) {
  %r = hlo.convolution %x, %w dim_labels = "b0f_0io->b0f" size = [3] : (tensor<1x4x2xf32>, tensor<3x3x2xf32>) -> tensor<1x2x2xf32>
  func.return
}

// -----

// CHECK: // {{-----}}
// Convolution batch groups.
// CHECK-NEXT: input batch dimension size 3 is not a multiple of batch_group_count 2
func.func @f(%x: tensor<3x2xf32>, %w: tensor<2x4xf32>) {
  %r = hlo.convolution %x, %w dim_labels = "bf_io->bf" size = [] batch_group_count = 2 : (tensor<3x2xf32>, tensor<2x4xf32>) -> tensor<1x4xf32>
  func.return
}

// -----

// CHECK: // {{-----}}
// Convolution both group counts.
// CHECK-NEXT: convolution cannot have both feature_group_count and batch_group_count > 1
func.func @f(%x: tensor<2x2xf32>, %w: tensor<1x4xf32>) {
  %r = hlo.convolution %x, %w dim_labels = "bf_io->bf" size = [] feature_group_count = 2 batch_group_count = 2 : (tensor<2x2xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  func.return
}

// -----

// CHECK: // {{-----}}
// Convolution window size.
// CHECK-NEXT: window size 2 of spatial dimension 0 differs from the kernel's 3
func.func @f(%x: tensor<1x4x2xf32>, %w: tensor<3x2x2xf32>) {
  %r = hlo.convolution %x, %w dim_labels = "b0f_0io->b0f" size = [2] : (tensor<1x4x2xf32>, tensor<3x2x2xf32>) -> tensor<1x3x2xf32>
  func.return
}

// -----

// CHECK: // {{-----}}
// Convolution result shape.
// CHECK-NEXT: convolution result must be tensor<1x2x2xf32>, got tensor<1x4x2xf32>
func.func @f(%x: tensor<1x4x2xf32>, %w: tensor<3x2x2xf32>) {
  %r = hlo.convolution %x, %w dim_labels = "b0f_0io->b0f" size = [3] : (tensor<1x4x2xf32>, tensor<3x2x2xf32>) -> tensor<1x4x2xf32>
  func.return
}

// -----

// CHECK: // {{-----}}
// Convolution element types.
// CHECK-NEXT: convolution operands have element types f32 and s32
func.func @f(%x: tensor<1x4x2xf32>, %w: tensor<3x2x2xi32>) {
  %r = hlo.convolution %x, %w dim_labels = "b0f_0io->b0f" size = [3] : (tensor<1x4x2xf32>, tensor<3x2x2xi32>) -> tensor<1x2x2xf32>
  func.return
}

// -----

// CHECK: // {{-----}}
// Convolution window_reversal.
// CHECK-NEXT: window_reversal needs one 0 or 1 per spatial dimension
func.func @f(%x: tensor<1x4x2xf32>, %w: tensor<3x2x2xf32>) {
  %r = hlo.convolution %x, %w dim_labels = "b0f_0io->b0f" size = [3] window_reversal = <[2]> : (tensor<1x4x2xf32>, tensor<3x2x2xf32>) -> tensor<1x2x2xf32>
  func.return
}

// -----

// CHECK: // {{-----}}
// Topk k too large.
// CHECK-NEXT: topk k 5 must be in [0, 4] (the size of the last dimension)
func.func @f(%x: tensor<3x4xf32>) {
  %r = hlo.topk %x, k = 5, largest = true : (tensor<3x4xf32>) -> tuple<tensor<3x5xf32>, tensor<3x5xi32>>
  func.return
}

// -----

// CHECK: // {{-----}}
// Topk rank 0.
// CHECK-NEXT: topk operand must have rank at least 1
func.func @f(%x: tensor<f32>) {
  %r = hlo.topk %x, k = 0, largest = true : (tensor<f32>) -> tuple<tensor<0xf32>, tensor<0xi32>>
  func.return
}

// -----

// CHECK: // {{-----}}
// Topk result.
// CHECK-NEXT: topk result must be tuple<tensor<3x2xf32>, tensor<3x2xi32>>, got tuple<tensor<3x2xf32>, tensor<3x2xi64>>
func.func @f(%x: tensor<3x4xf32>) {
  %r = hlo.topk %x, k = 2, largest = true : (tensor<3x4xf32>) -> tuple<tensor<3x2xf32>, tensor<3x2xi64>>
  func.return
}

// -----

// CHECK: // {{-----}}
// Select_and_scatter source shape.
// CHECK-NEXT: source shape [3,3] must be the window shape [2,2] of the operand
func.func @f(%x: tensor<4x4xf32>, %src: tensor<3x3xf32>, %z: tensor<f32>) {
  %r = hlo.select_and_scatter %x, %src, %z size = [2, 2], stride = [2, 2] select {
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %ge = hlo.compare GE, %p, %q : tensor<f32> -> tensor<i1>
        hlo.return %ge : tensor<i1>
      } scatter {
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %s = hlo.add %p, %q : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<4x4xf32>, tensor<3x3xf32>, tensor<f32>) -> tensor<4x4xf32>
  func.return
}

// -----

// CHECK: // {{-----}}
// Select_and_scatter init.
// CHECK-NEXT: init_value must be tensor<f32>, got tensor<i32>
func.func @f(%x: tensor<4x4xf32>, %src: tensor<2x2xf32>, %z: tensor<i32>) {
  %r = hlo.select_and_scatter %x, %src, %z size = [2, 2], stride = [2, 2] select {
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %ge = hlo.compare GE, %p, %q : tensor<f32> -> tensor<i1>
        hlo.return %ge : tensor<i1>
      } scatter {
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %s = hlo.add %p, %q : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<4x4xf32>, tensor<2x2xf32>, tensor<i32>) -> tensor<4x4xf32>
  func.return
}

// -----

// CHECK: // {{-----}}
// Select_and_scatter scatter region.
// CHECK-NEXT: scatter region must return tensor<f32>, got tensor<i1>
func.func @f(%x: tensor<4x4xf32>, %src: tensor<2x2xf32>, %z: tensor<f32>) {
  %r = hlo.select_and_scatter %x, %src, %z size = [2, 2], stride = [2, 2] select {
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %ge = hlo.compare GE, %p, %q : tensor<f32> -> tensor<i1>
        hlo.return %ge : tensor<i1>
      } scatter {
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %s = hlo.compare LT, %p, %q : tensor<f32> -> tensor<i1>
        hlo.return %s : tensor<i1>
      } : (tensor<4x4xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x4xf32>
  func.return
}

// -----

// CHECK: // {{-----}}
// Select_and_scatter window rank.
// CHECK-NEXT: window has 1 dimensions, but the operand has rank 2
func.func @f(%x: tensor<4x4xf32>, %src: tensor<2x2xf32>, %z: tensor<f32>) {
  %r = hlo.select_and_scatter %x, %src, %z size = [2] select {
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %ge = hlo.compare GE, %p, %q : tensor<f32> -> tensor<i1>
        hlo.return %ge : tensor<i1>
      } scatter {
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %s = hlo.add %p, %q : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<4x4xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x4xf32>
  func.return
}

// -----

// CHECK: // {{-----}}
// Map operand shapes.
// CHECK-NEXT: map operand 1 has shape [3], but operand 0 has shape [4]
func.func @f(%x: tensor<4xf32>, %y: tensor<3xf32>) {
  %r = hlo.map(%x, %y) dims = [0] {
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %s = hlo.add %p, %q : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<4xf32>, tensor<3xf32>) -> tensor<4xf32>
  func.return
}

// -----

// CHECK: // {{-----}}
// Map dimensions.
// CHECK-NEXT: map dimensions [] must be every dimension in order [0, 1)
func.func @f(%x: tensor<4xf32>, %y: tensor<4xf32>) {
  %r = hlo.map(%x, %y) dims = [] {
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %s = hlo.add %p, %q : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

// CHECK: // {{-----}}
// Map region arguments.
// CHECK-NEXT: map region must take tensor<i32>, tensor<i32>, got tensor<f32>, tensor<f32>
func.func @f(%x: tensor<4xi32>, %y: tensor<4xi32>) {
  %r = hlo.map(%x, %y) dims = [0] {
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %s = hlo.add %p, %q : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  func.return
}

// -----

// CHECK: // {{-----}}
// Map result.
// CHECK-NEXT: map result must be tensor<4xf32>, got tensor<4xi32>
func.func @f(%x: tensor<4xf32>, %y: tensor<4xf32>) {
  %r = hlo.map(%x, %y) dims = [0] {
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %s = hlo.add %p, %q : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi32>
  func.return
}
