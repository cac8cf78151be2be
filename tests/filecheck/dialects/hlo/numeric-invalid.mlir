// RUN: neuron-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

// One case per verifier rule of batch_norm_training/inference/grad, cholesky,
// triangular_solve and fft (issue 17), each checking its message.

// Batch-norm-training operand of rank 0.
// CHECK: batch_norm_training operand must have rank at least 1
func.func @f(%x: tensor<f32>, %s: tensor<3xf32>, %o: tensor<3xf32>) {
  %r = hlo.batch_norm_training %x, %s, %o epsilon = 1.000000e-03 feature_index = 0 : (tensor<f32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<f32>, tensor<3xf32>, tensor<3xf32>>
  func.return
}

// -----

// CHECK: // {{-----}}
// Batch-norm-training feature_index out of range.
// CHECK-NEXT: batch_norm_training feature_index 2 is out of range for operand rank 2
func.func @f(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %o: tensor<3xf32>) {
  %r = hlo.batch_norm_training %x, %s, %o epsilon = 1.000000e-03 feature_index = 2 : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>
  func.return
}

// -----

// CHECK: // {{-----}}
// Batch-norm-training integer operand.
// CHECK-NEXT: batch_norm_training operand element type must be a float, got s32
func.func @f(%x: tensor<2x3xi32>, %s: tensor<3xi32>, %o: tensor<3xi32>) {
  %r = hlo.batch_norm_training %x, %s, %o epsilon = 1.000000e-03 feature_index = 1 : (tensor<2x3xi32>, tensor<3xi32>, tensor<3xi32>) -> tuple<tensor<2x3xi32>, tensor<3xi32>, tensor<3xi32>>
  func.return
}

// -----

// CHECK: // {{-----}}
// Batch-norm-training scale of rank 2.
// CHECK-NEXT: batch_norm_training scale must have rank 1, got tensor<1x3xf32>
func.func @f(%x: tensor<2x3xf32>, %s: tensor<1x3xf32>, %o: tensor<3xf32>) {
  %r = hlo.batch_norm_training %x, %s, %o epsilon = 1.000000e-03 feature_index = 1 : (tensor<2x3xf32>, tensor<1x3xf32>, tensor<3xf32>) -> tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>
  func.return
}

// -----

// CHECK: // {{-----}}
// Batch-norm-training offset of another element type.
// CHECK-NEXT: batch_norm_training offset element type f64 differs from the operand's f32
func.func @f(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %o: tensor<3xf64>) {
  %r = hlo.batch_norm_training %x, %s, %o epsilon = 1.000000e-03 feature_index = 1 : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf64>) -> tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>
  func.return
}

// -----

// CHECK: // {{-----}}
// Batch-norm-training scale size is not the feature size.
// CHECK-NEXT: batch_norm_training scale size 2 differs from the feature dimension size 3
func.func @f(%x: tensor<2x3xf32>, %s: tensor<2xf32>, %o: tensor<3xf32>) {
  %r = hlo.batch_norm_training %x, %s, %o epsilon = 1.000000e-03 feature_index = 1 : (tensor<2x3xf32>, tensor<2xf32>, tensor<3xf32>) -> tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>
  func.return
}

// -----

// CHECK: // {{-----}}
// Batch-norm-training result tuple.
// CHECK-NEXT: batch_norm_training result must be tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>, got tuple<tensor<2x3xf32>, tensor<3xf32>>
func.func @f(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %o: tensor<3xf32>) {
  %r = hlo.batch_norm_training %x, %s, %o epsilon = 1.000000e-03 feature_index = 1 : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3xf32>, tensor<3xf32>>
  func.return
}

// -----

// CHECK: // {{-----}}
// Batch-norm-inference feature_index negative.
// CHECK-NEXT: batch_norm_inference feature_index -1 is out of range for operand rank 2
func.func @f(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %o: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) {
  %r = hlo.batch_norm_inference %x, %s, %o, %m, %v epsilon = 1.000000e-03 feature_index = -1 : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

// CHECK: // {{-----}}
// Batch-norm-inference mean size.
// CHECK-NEXT: batch_norm_inference mean size 2 differs from the feature dimension size 3
func.func @f(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %o: tensor<3xf32>, %m: tensor<2xf32>, %v: tensor<3xf32>) {
  %r = hlo.batch_norm_inference %x, %s, %o, %m, %v epsilon = 1.000000e-03 feature_index = 1 : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

// CHECK: // {{-----}}
// Batch-norm-inference variance of another element type.
// CHECK-NEXT: batch_norm_inference variance element type f16 differs from the operand's f32
func.func @f(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %o: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf16>) {
  %r = hlo.batch_norm_inference %x, %s, %o, %m, %v epsilon = 1.000000e-03 feature_index = 1 : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf16>) -> tensor<2x3xf32>
  func.return
}

// -----

// CHECK: // {{-----}}
// Batch-norm-inference result type.
// CHECK-NEXT: batch_norm_inference result must be tensor<2x3xf32>, got tensor<3x2xf32>
func.func @f(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %o: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) {
  %r = hlo.batch_norm_inference %x, %s, %o, %m, %v epsilon = 1.000000e-03 feature_index = 1 : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3x2xf32>
  func.return
}

// -----

// CHECK: // {{-----}}
// Batch-norm-grad variance of rank 0.
// CHECK-NEXT: batch_norm_grad variance must have rank 1, got tensor<f32>
func.func @f(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<f32>, %g: tensor<2x3xf32>) {
  %r = hlo.batch_norm_grad %x, %s, %m, %v, %g epsilon = 1.000000e-03 feature_index = 1 : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<f32>, tensor<2x3xf32>) -> tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>
  func.return
}

// -----

// CHECK: // {{-----}}
// Batch-norm-grad grad_output shape.
// CHECK-NEXT: batch_norm_grad grad_output type tensor<3x2xf32> differs from the operand type tensor<2x3xf32>
func.func @f(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>, %g: tensor<3x2xf32>) {
  %r = hlo.batch_norm_grad %x, %s, %m, %v, %g epsilon = 1.000000e-03 feature_index = 1 : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3x2xf32>) -> tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>
  func.return
}

// -----

// CHECK: // {{-----}}
// Batch-norm-grad result tuple.
// CHECK-NEXT: batch_norm_grad result must be tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>, got tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<2xf32>>
func.func @f(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>, %g: tensor<2x3xf32>) {
  %r = hlo.batch_norm_grad %x, %s, %m, %v, %g epsilon = 1.000000e-03 feature_index = 1 : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2x3xf32>) -> tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<2xf32>>
  func.return
}

// -----

// CHECK: // {{-----}}
// Cholesky of an integer matrix.
// CHECK-NEXT: cholesky 'a' element type must be a float or complex, got s32
func.func @f(%a: tensor<4x4xi32>) {
  %r = hlo.cholesky %a, lower = true : (tensor<4x4xi32>) -> tensor<4x4xi32>
  func.return
}

// -----

// CHECK: // {{-----}}
// Cholesky of a vector.
// CHECK-NEXT: cholesky 'a' must have rank at least 2, got 1
func.func @f(%a: tensor<4xf32>) {
  %r = hlo.cholesky %a, lower = true : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

// CHECK: // {{-----}}
// Cholesky of a non-square matrix.
// CHECK-NEXT: cholesky minor dimensions of 'a' must be equal, got 4x3
func.func @f(%a: tensor<4x3xf32>) {
  %r = hlo.cholesky %a, lower = true : (tensor<4x3xf32>) -> tensor<4x3xf32>
  func.return
}

// -----

// CHECK: // {{-----}}
// Cholesky result type.
// CHECK-NEXT: cholesky result must be tensor<4x4xf32>, got tensor<4x4xf64>
func.func @f(%a: tensor<4x4xf32>) {
  %r = hlo.cholesky %a, lower = true : (tensor<4x4xf32>) -> tensor<4x4xf64>
  func.return
}

// -----

// CHECK: // {{-----}}
// Triangular-solve of integer matrices.
// CHECK-NEXT: triangular_solve 'a' element type must be a float or complex, got s32
func.func @f(%a: tensor<4x4xi32>, %b: tensor<3x4xi32>) {
  %r = hlo.triangular_solve %a, %b, left_side = false, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<4x4xi32>, tensor<3x4xi32>) -> tensor<3x4xi32>
  func.return
}

// -----

// CHECK: // {{-----}}
// Triangular-solve 'b' of rank 1.
// CHECK-NEXT: triangular_solve 'b' must have rank at least 2, got 1
func.func @f(%a: tensor<4x4xf32>, %b: tensor<4xf32>) {
  %r = hlo.triangular_solve %a, %b, left_side = false, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<4x4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

// CHECK: // {{-----}}
// Triangular-solve element types differ.
// CHECK-NEXT: triangular_solve 'a' and 'b' element types differ: f32 vs f64
func.func @f(%a: tensor<4x4xf32>, %b: tensor<3x4xf64>) {
  %r = hlo.triangular_solve %a, %b, left_side = false, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<4x4xf32>, tensor<3x4xf64>) -> tensor<3x4xf64>
  func.return
}

// -----

// CHECK: // {{-----}}
// Triangular-solve 'a' not square.
// CHECK-NEXT: triangular_solve 'a' must be square in its minor dimensions, got 4x3
func.func @f(%a: tensor<4x3xf32>, %b: tensor<3x4xf32>) {
  %r = hlo.triangular_solve %a, %b, left_side = false, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<4x3xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  func.return
}

// -----

// CHECK: // {{-----}}
// Triangular-solve ranks differ.
// CHECK-NEXT: triangular_solve 'a' and 'b' ranks differ: 3 vs 2
func.func @f(%a: tensor<2x4x4xf32>, %b: tensor<3x4xf32>) {
  %r = hlo.triangular_solve %a, %b, left_side = false, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<2x4x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  func.return
}

// -----

// CHECK: // {{-----}}
// Triangular-solve batch dimensions differ.
// CHECK-NEXT: triangular_solve batch dimensions differ: [2] vs [3]
func.func @f(%a: tensor<2x4x4xf32>, %b: tensor<3x3x4xf32>) {
  %r = hlo.triangular_solve %a, %b, left_side = false, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<2x4x4xf32>, tensor<3x3x4xf32>) -> tensor<3x3x4xf32>
  func.return
}

// -----

// CHECK: // {{-----}}
// Triangular-solve shared dimension (left side).
// CHECK-NEXT: triangular_solve shared dimension of 'a' (4) and 'b' (3) does not match
func.func @f(%a: tensor<4x4xf32>, %b: tensor<3x4xf32>) {
  %r = hlo.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<4x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  func.return
}

// -----

// CHECK: // {{-----}}
// Triangular-solve result type.
// CHECK-NEXT: triangular_solve result must be tensor<3x4xf32>, got tensor<4x3xf32>
func.func @f(%a: tensor<4x4xf32>, %b: tensor<3x4xf32>) {
  %r = hlo.triangular_solve %a, %b, left_side = false, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<4x4xf32>, tensor<3x4xf32>) -> tensor<4x3xf32>
  func.return
}

// -----

// CHECK: // {{-----}}
// Fft of rank 4.
// CHECK-NEXT: fft supports 1 to 3 dimensions, got fft_length [2, 2, 2, 2]
func.func @f(%x: tensor<2x2x2x2xcomplex<f32>>) {
  %r = hlo.fft %x, type = FFT, length = [2, 2, 2, 2] : (tensor<2x2x2x2xcomplex<f32>>) -> tensor<2x2x2x2xcomplex<f32>>
  func.return
}

// -----

// CHECK: // {{-----}}
// Fft with a negative length.
// CHECK-NEXT: fft_length [-4] must not be negative
func.func @f(%x: tensor<4xcomplex<f32>>) {
  %r = hlo.fft %x, type = FFT, length = [-4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  func.return
}

// -----

// CHECK: // {{-----}}
// Fft operand rank below the fft rank.
// CHECK-NEXT: fft operand rank 1 is below the fft_length rank 2
func.func @f(%x: tensor<4xcomplex<f32>>) {
  %r = hlo.fft %x, type = IFFT, length = [4, 4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  func.return
}

// -----

// CHECK: // {{-----}}
// Fft minor dimensions differ from fft_length.
// CHECK-NEXT: fft FFT operand minor dimensions [8] must be [4] (fft_length [4])
func.func @f(%x: tensor<8xcomplex<f32>>) {
  %r = hlo.fft %x, type = FFT, length = [4] : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
  func.return
}

// -----

// CHECK: // {{-----}}
// Irfft operand last dimension is not fft_length / 2 + 1.
// CHECK-NEXT: fft IRFFT operand minor dimensions [8] must be [5] (fft_length [8])
func.func @f(%x: tensor<8xcomplex<f32>>) {
  %r = hlo.fft %x, type = IRFFT, length = [8] : (tensor<8xcomplex<f32>>) -> tensor<8xf32>
  func.return
}

// -----

// CHECK: // {{-----}}
// Fft of a real operand.
// CHECK-NEXT: fft FFT needs a c64/c128 operand, got f32
func.func @f(%x: tensor<8xf32>) {
  %r = hlo.fft %x, type = FFT, length = [8] : (tensor<8xf32>) -> tensor<8xf32>
  func.return
}

// -----

// CHECK: // {{-----}}
// Rfft of a complex operand.
// CHECK-NEXT: fft RFFT needs a f32/f64 operand, got c64
func.func @f(%x: tensor<8xcomplex<f32>>) {
  %r = hlo.fft %x, type = RFFT, length = [8] : (tensor<8xcomplex<f32>>) -> tensor<5xcomplex<f32>>
  func.return
}

// -----

// CHECK: // {{-----}}
// Rfft result type.
// CHECK-NEXT: fft result must be tensor<5xcomplex<f32>>, got tensor<8xcomplex<f32>>
func.func @f(%x: tensor<8xf32>) {
  %r = hlo.fft %x, type = RFFT, length = [8] : (tensor<8xf32>) -> tensor<8xcomplex<f32>>
  func.return
}

// -----

// CHECK: // {{-----}}
// Triangular-solve with XLA's TRANSPOSE_INVALID (a parse error: no such spelling).
// CHECK: Expected `NO_TRANSPOSE`, `TRANSPOSE`, or `ADJOINT`.
func.func @f(%a: tensor<4x4xf32>, %b: tensor<3x4xf32>) {
  %r = hlo.triangular_solve %a, %b, left_side = false, lower = true, unit_diagonal = false, transpose_a = TRANSPOSE_INVALID : (tensor<4x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  func.return
}

// -----

// CHECK: // {{-----}}
// Fft with an unknown fft_type (a parse error).
// CHECK: Expected `FFT`, `IFFT`, `RFFT`, or `IRFFT`.
func.func @f(%x: tensor<8xcomplex<f32>>) {
  %r = hlo.fft %x, type = DCT, length = [8] : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
  func.return
}
