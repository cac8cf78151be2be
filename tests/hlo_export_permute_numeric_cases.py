"""Exact HLO text of the combined and in-place collective-permute and of the numeric ops
(batch-norm-*, cholesky, triangular-solve, fft) added for issue 17; tests/test_hlo_export.py
adds the cases to its op table."""

SRC_COMBINED_PERMUTE = """
builtin.module attributes {hlo.num_partitions = 2 : i64} {
func.func @main(%a: tensor<4xf32>, %b: tensor<2xi32>) -> tuple<tensor<4xf32>, tensor<2xi32>> {
  %t = hlo.combined_collective_permute(%a, %b) pairs = [[0, 1], [1, 0]] channel_id = 3 : (tensor<4xf32>, tensor<2xi32>) -> tuple<tensor<4xf32>, tensor<2xi32>>
  func.return %t : tuple<tensor<4xf32>, tensor<2xi32>>
}
}
"""
HLO_COMBINED_PERMUTE = """HloModule module, entry_computation_layout={(f32[4]{0}, s32[2]{0})->(f32[4]{0}, s32[2]{0})}, replica_count=1, num_partitions=2

ENTRY %main (a: f32[4], b: s32[2]) -> (f32[4], s32[2]) {
  %a = f32[4]{0} parameter(0)
  %b = s32[2]{0} parameter(1)
  ROOT %t = (f32[4]{0}, s32[2]{0}) collective-permute(%a, %b), channel_id=3, source_target_pairs={{0,1},{1,0}}
}
"""

SRC_IN_PLACE_PERMUTE = """
builtin.module attributes {hlo.num_replicas = 1 : i64, hlo.num_partitions = 2 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%input: tensor<4x2xf32>, %output: tensor<8x2xf32>) -> tensor<8x2xf32> attributes {hlo.entry} {
    %zero = hlo.constant dense<0> : tensor<i32>
    %four = hlo.constant dense<4> : tensor<i32>
    %from = hlo.tuple %zero, %zero : tuple<tensor<i32>, tensor<i32>>
    %to = hlo.tuple %four, %zero : tuple<tensor<i32>, tensor<i32>>
    %p = "hlo.in_place_collective_permute"(%input, %output, %from, %to) <{source_target_pairs = #hlo.pairs<[[0, 1], [1, 0]]>, channel_id = 2 : i64}> {xla.slice_sizes = "{{4,2}}"} : (tensor<4x2xf32>, tensor<8x2xf32>, tuple<tensor<i32>, tensor<i32>>, tuple<tensor<i32>, tensor<i32>>) -> tensor<8x2xf32>
    func.return %p : tensor<8x2xf32>
  }
}
"""
HLO_IN_PLACE_PERMUTE = """HloModule module, entry_computation_layout={(f32[4,2]{1,0}, f32[8,2]{1,0})->f32[8,2]{1,0}}, replica_count=1, num_partitions=2

ENTRY %main (input: f32[4,2], output: f32[8,2]) -> f32[8,2] {
  %input = f32[4,2]{1,0} parameter(0)
  %output = f32[8,2]{1,0} parameter(1)
  %zero = s32[] constant(0)
  %four = s32[] constant(4)
  %from = (s32[], s32[]) tuple(%zero, %zero)
  %to = (s32[], s32[]) tuple(%four, %zero)
  ROOT %p = f32[8,2]{1,0} collective-permute(%input, %output, %from, %to), channel_id=2, source_target_pairs={{0,1},{1,0}}, slice_sizes={{4,2}}
}
"""

SRC_NUMERIC = """
builtin.module attributes {hlo.num_replicas = 1 : i64, hlo.num_partitions = 1 : i64} {
  func.func @main(%x: tensor<2x3x4xf32>, %s: tensor<3xf32>, %g: tensor<2x3x4xf32>, %a: tensor<2x4x4xf64>, %b: tensor<2x4x3xf64>, %c: tensor<5x8xcomplex<f32>>, %r: tensor<6x16xf32>) -> tuple<tuple<tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>>, tensor<2x3x4xf32>, tuple<tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>>, tensor<2x4x4xf64>, tensor<2x4x3xf64>, tensor<2x3x4xf64>, tensor<5x8xcomplex<f32>>, tensor<6x16xf32>, tensor<6x9xcomplex<f32>>, tensor<6x16xf32>> attributes {hlo.entry} {
    %bnt = hlo.batch_norm_training %x, %s, %s epsilon = 1.000000e-03 feature_index = 1 : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>>
    %bni = hlo.batch_norm_inference %x, %s, %s, %s, %s epsilon = 1.000000e-05 feature_index = 1 : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
    %bng = hlo.batch_norm_grad %x, %s, %s, %s, %g epsilon = 1.000000e-01 feature_index = 1 : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2x3x4xf32>) -> tuple<tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>>
    %chol = hlo.cholesky %a, lower = true : (tensor<2x4x4xf64>) -> tensor<2x4x4xf64>
    %ts = hlo.triangular_solve %chol, %b, left_side = true, lower = true, unit_diagonal = true, transpose_a = ADJOINT : (tensor<2x4x4xf64>, tensor<2x4x3xf64>) -> tensor<2x4x3xf64>
    %ts2in = hlo.transpose %b, dims = [0, 2, 1] : (tensor<2x4x3xf64>) -> tensor<2x3x4xf64>
    %ts2 = hlo.triangular_solve %a, %ts2in, left_side = false, lower = false, unit_diagonal = false, transpose_a = TRANSPOSE : (tensor<2x4x4xf64>, tensor<2x3x4xf64>) -> tensor<2x3x4xf64>
    %fft = hlo.fft %c, type = FFT, length = [8] : (tensor<5x8xcomplex<f32>>) -> tensor<5x8xcomplex<f32>>
    %ifft = hlo.fft %fft, type = IFFT, length = [5, 8] : (tensor<5x8xcomplex<f32>>) -> tensor<5x8xcomplex<f32>>
    %rfft = hlo.fft %r, type = RFFT, length = [6, 16] : (tensor<6x16xf32>) -> tensor<6x9xcomplex<f32>>
    %irfft = hlo.fft %rfft, type = IRFFT, length = [6, 16] : (tensor<6x9xcomplex<f32>>) -> tensor<6x16xf32>
    %out = hlo.tuple %bnt, %bni, %bng, %chol, %ts, %ts2, %ifft, %r, %rfft, %irfft : tuple<tuple<tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>>, tensor<2x3x4xf32>, tuple<tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>>, tensor<2x4x4xf64>, tensor<2x4x3xf64>, tensor<2x3x4xf64>, tensor<5x8xcomplex<f32>>, tensor<6x16xf32>, tensor<6x9xcomplex<f32>>, tensor<6x16xf32>>
    func.return %out : tuple<tuple<tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>>, tensor<2x3x4xf32>, tuple<tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>>, tensor<2x4x4xf64>, tensor<2x4x3xf64>, tensor<2x3x4xf64>, tensor<5x8xcomplex<f32>>, tensor<6x16xf32>, tensor<6x9xcomplex<f32>>, tensor<6x16xf32>>
  }
}
"""
HLO_NUMERIC = """HloModule module, entry_computation_layout={(f32[2,3,4]{2,1,0}, f32[3]{0}, f32[2,3,4]{2,1,0}, f64[2,4,4]{2,1,0}, f64[2,4,3]{2,1,0}, c64[5,8]{1,0}, f32[6,16]{1,0})->((f32[2,3,4]{2,1,0}, f32[3]{0}, f32[3]{0}), f32[2,3,4]{2,1,0}, (f32[2,3,4]{2,1,0}, f32[3]{0}, f32[3]{0}), f64[2,4,4]{2,1,0}, f64[2,4,3]{2,1,0}, f64[2,3,4]{2,1,0}, c64[5,8]{1,0}, f32[6,16]{1,0}, c64[6,9]{1,0}, f32[6,16]{1,0})}, replica_count=1, num_partitions=1

ENTRY %main (x: f32[2,3,4], s: f32[3], g: f32[2,3,4], a: f64[2,4,4], b: f64[2,4,3], c: c64[5,8], r: f32[6,16]) -> ((f32[2,3,4], f32[3], f32[3]), f32[2,3,4], (f32[2,3,4], f32[3], f32[3]), f64[2,4,4], f64[2,4,3], f64[2,3,4], c64[5,8], f32[6,16], c64[6,9], f32[6,16]) {
  %x = f32[2,3,4]{2,1,0} parameter(0)
  %s = f32[3]{0} parameter(1)
  %g = f32[2,3,4]{2,1,0} parameter(2)
  %a = f64[2,4,4]{2,1,0} parameter(3)
  %b = f64[2,4,3]{2,1,0} parameter(4)
  %c = c64[5,8]{1,0} parameter(5)
  %r = f32[6,16]{1,0} parameter(6)
  %bnt = (f32[2,3,4]{2,1,0}, f32[3]{0}, f32[3]{0}) batch-norm-training(%x, %s, %s), epsilon=0.001, feature_index=1
  %bni = f32[2,3,4]{2,1,0} batch-norm-inference(%x, %s, %s, %s, %s), epsilon=1e-05, feature_index=1
  %bng = (f32[2,3,4]{2,1,0}, f32[3]{0}, f32[3]{0}) batch-norm-grad(%x, %s, %s, %s, %g), epsilon=0.1, feature_index=1
  %chol = f64[2,4,4]{2,1,0} cholesky(%a), lower=true
  %ts = f64[2,4,3]{2,1,0} triangular-solve(%chol, %b), left_side=true, lower=true, unit_diagonal=true, transpose_a=ADJOINT
  %ts2in = f64[2,3,4]{2,1,0} transpose(%b), dimensions={0,2,1}
  %ts2 = f64[2,3,4]{2,1,0} triangular-solve(%a, %ts2in), transpose_a=TRANSPOSE
  %fft = c64[5,8]{1,0} fft(%c), fft_type=FFT, fft_length={8}
  %ifft = c64[5,8]{1,0} fft(%fft), fft_type=IFFT, fft_length={5,8}
  %rfft = c64[6,9]{1,0} fft(%r), fft_type=RFFT, fft_length={6,16}
  %irfft = f32[6,16]{1,0} fft(%rfft), fft_type=IRFFT, fft_length={6,16}
  ROOT %out = ((f32[2,3,4]{2,1,0}, f32[3]{0}, f32[3]{0}), f32[2,3,4]{2,1,0}, (f32[2,3,4]{2,1,0}, f32[3]{0}, f32[3]{0}), f64[2,4,4]{2,1,0}, f64[2,4,3]{2,1,0}, f64[2,3,4]{2,1,0}, c64[5,8]{1,0}, f32[6,16]{1,0}, c64[6,9]{1,0}, f32[6,16]{1,0}) tuple(%bnt, %bni, %bng, %chol, %ts, %ts2, %ifft, %r, %rfft, %irfft)
}
"""
"""tests/filecheck/translate/numeric-ops.hlo as the exporter writes it (that lit test checks the
text imports back to the same IR)."""
