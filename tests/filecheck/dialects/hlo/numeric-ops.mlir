// RUN: %roundtrip

// The ops added for issue 17: batch_norm_training/inference/grad, cholesky,
// triangular_solve and fft, round-tripped pretty -> pretty and pretty -> generic -> pretty.

// CHECK: builtin.module {
// CHECK-LABEL: func.func @numeric(%x: tensor<2x2x1x2xf32>, %s: tensor<2xf32>, %g: tensor<2x2x1x2xf32>, %xd: tensor<4x3xf64>, %sd: tensor<4xf64>, %a: tensor<3x4x4xf32>, %b: tensor<3x4x2xf32>, %ca: tensor<2x2xcomplex<f32>>, %cb: tensor<5x2xcomplex<f32>>, %c: tensor<5x64x32xf32>, %z: tensor<8x32xcomplex<f64>>, %w: tensor<5x64x128x33xcomplex<f32>>) {
// CHECK-NEXT: %t = hlo.batch_norm_training %x, %s, %s epsilon = 1.000000e-03 feature_index = 3 : (tensor<2x2x1x2xf32>, tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<2x2x1x2xf32>, tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT: %i = hlo.batch_norm_inference %xd, %sd, %sd, %sd, %sd epsilon = 1.000000e-05 feature_index = 0 : (tensor<4x3xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>) -> tensor<4x3xf64>
// CHECK-NEXT: %gr = hlo.batch_norm_grad %x, %s, %s, %s, %g epsilon = 1.000000e-03 feature_index = 3 : (tensor<2x2x1x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2x2x1x2xf32>) -> tuple<tensor<2x2x1x2xf32>, tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT: %l = hlo.cholesky %a, lower = true : (tensor<3x4x4xf32>) -> tensor<3x4x4xf32>
// CHECK-NEXT: %u = hlo.cholesky %ca, lower = false : (tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
// CHECK-NEXT: %ts = hlo.triangular_solve %a, %b, left_side = true, lower = false, unit_diagonal = true, transpose_a = TRANSPOSE : (tensor<3x4x4xf32>, tensor<3x4x2xf32>) -> tensor<3x4x2xf32>
// CHECK-NEXT: %tc = hlo.triangular_solve %ca, %cb, left_side = false, lower = true, unit_diagonal = false, transpose_a = ADJOINT : (tensor<2x2xcomplex<f32>>, tensor<5x2xcomplex<f32>>) -> tensor<5x2xcomplex<f32>>
// CHECK-NEXT: %f = hlo.fft %c, type = RFFT, length = [64, 32] : (tensor<5x64x32xf32>) -> tensor<5x64x17xcomplex<f32>>
// CHECK-NEXT: %f2 = hlo.fft %z, type = FFT, length = [32] : (tensor<8x32xcomplex<f64>>) -> tensor<8x32xcomplex<f64>>
// CHECK-NEXT: %f3 = hlo.fft %z, type = IFFT, length = [8, 32] : (tensor<8x32xcomplex<f64>>) -> tensor<8x32xcomplex<f64>>
// CHECK-NEXT: %f4 = hlo.fft %w, type = IRFFT, length = [64, 128, 64] : (tensor<5x64x128x33xcomplex<f32>>) -> tensor<5x64x128x64xf32>
// CHECK-NEXT: func.return
// CHECK-NEXT: }
// CHECK-NEXT: }

func.func @numeric(%x: tensor<2x2x1x2xf32>, %s: tensor<2xf32>, %g: tensor<2x2x1x2xf32>, %xd: tensor<4x3xf64>, %sd: tensor<4xf64>, %a: tensor<3x4x4xf32>, %b: tensor<3x4x2xf32>, %ca: tensor<2x2xcomplex<f32>>, %cb: tensor<5x2xcomplex<f32>>, %c: tensor<5x64x32xf32>, %z: tensor<8x32xcomplex<f64>>, %w: tensor<5x64x128x33xcomplex<f32>>) {
  %t = hlo.batch_norm_training %x, %s, %s epsilon = 1.000000e-03 feature_index = 3 : (tensor<2x2x1x2xf32>, tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<2x2x1x2xf32>, tensor<2xf32>, tensor<2xf32>>
  %i = hlo.batch_norm_inference %xd, %sd, %sd, %sd, %sd epsilon = 1.000000e-05 feature_index = 0 : (tensor<4x3xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>) -> tensor<4x3xf64>
  %gr = hlo.batch_norm_grad %x, %s, %s, %s, %g epsilon = 1.000000e-03 feature_index = 3 : (tensor<2x2x1x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2x2x1x2xf32>) -> tuple<tensor<2x2x1x2xf32>, tensor<2xf32>, tensor<2xf32>>
  %l = hlo.cholesky %a, lower = true : (tensor<3x4x4xf32>) -> tensor<3x4x4xf32>
  %u = hlo.cholesky %ca, lower = false : (tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
  %ts = hlo.triangular_solve %a, %b, left_side = true, lower = false, unit_diagonal = true, transpose_a = TRANSPOSE : (tensor<3x4x4xf32>, tensor<3x4x2xf32>) -> tensor<3x4x2xf32>
  %tc = hlo.triangular_solve %ca, %cb, left_side = false, lower = true, unit_diagonal = false, transpose_a = ADJOINT : (tensor<2x2xcomplex<f32>>, tensor<5x2xcomplex<f32>>) -> tensor<5x2xcomplex<f32>>
  %f = hlo.fft %c, type = RFFT, length = [64, 32] : (tensor<5x64x32xf32>) -> tensor<5x64x17xcomplex<f32>>
  %f2 = hlo.fft %z, type = FFT, length = [32] : (tensor<8x32xcomplex<f64>>) -> tensor<8x32xcomplex<f64>>
  %f3 = hlo.fft %z, type = IFFT, length = [8, 32] : (tensor<8x32xcomplex<f64>>) -> tensor<8x32xcomplex<f64>>
  %f4 = hlo.fft %w, type = IRFFT, length = [64, 128, 64] : (tensor<5x64x128x33xcomplex<f32>>) -> tensor<5x64x128x64xf32>
  func.return
}
