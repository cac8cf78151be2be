// RUN: neuron-opt %s --split-input-file --verify-diagnostics -p legalize-ccops-for-tensorizer | filecheck %s
// RUN: env PYTHONUNBUFFERED=1 neuron-opt %s --split-input-file --verify-diagnostics -p legalize-ccops-for-tensorizer 2>&1 | filecheck %s --check-prefix=WARN
// RUN: env PYTHONUNBUFFERED=1 neuron-opt %s --split-input-file --verify-diagnostics -p 'legalize-ccops-for-tensorizer{lossy-widest-bitwidth=true}' 2>&1 | filecheck %s --check-prefix=LOSSY
// RUN: not neuron-opt %s --split-input-file -p legalize-ccops-for-tensorizer 2>&1 | filecheck %s --check-prefix=ERR

// legalize-ccops-for-tensorizer gives all operands of a mixed-type all_gather / all_reduce /
// reduce_scatter (in every function and nested region) one element type: convert up, rebuild
// the collective at the promoted type, convert each result back where it was up-cast. By
// default the promoted type is the narrowest supported type that represents every operand's
// element type exactly (or none: unchanged, with a remark); the reference's lossy "widest bit
// width wins" rule is the option `lossy-widest-bitwidth=true`.
//
// The WARN and LOSSY runs merge stderr into stdout, unbuffered, so each case's diagnostics come
// right after its chunk separator and before its `builtin.module` line: the -NEXT chains pin
// exactly which warning / remark lines each case prints (one up-cast warning per module at
// most, however many collectives were rewritten; none when nothing changed; with the option,
// one precision warning per collective rebuilt at a type that loses values, none otherwise).
// CHECK checks the default IR; LOSSY checks the IR with the option where it differs (where it
// does not, LOSSY pins only the diagnostics).
// `--verify-diagnostics` lets the runs go on past the error case at the end; the ERR run
// checks that, without it, the same case fails with `error:` and exit code 1.

// Nothing to legalize (uniform element types, single operands): unchanged, no warning.
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @uniform(%a: tensor<2xbf16>, %b: tensor<3xbf16>) -> (tuple<tensor<4xbf16>, tensor<6xbf16>>, tensor<2xbf16>) {
    %g = hlo.all_gather(%a, %b) dim = 0 replica_groups = [[0, 1]] : (tensor<2xbf16>, tensor<3xbf16>) -> tuple<tensor<4xbf16>, tensor<6xbf16>>
    %r = hlo.all_reduce(%a) replica_groups = [[0, 1]] {
    ^bb0(%x: tensor<bf16>, %y: tensor<bf16>):
      %s = hlo.add %x, %y : tensor<bf16>
      hlo.return %s : tensor<bf16>
    } : (tensor<2xbf16>) -> tensor<2xbf16>
    func.return %g, %r : tuple<tensor<4xbf16>, tensor<6xbf16>>, tensor<2xbf16>
  }
}
// WARN-NOT: {{warning|remark}}:
// WARN: builtin.module
// LOSSY-NOT: {{warning|remark}}:
// LOSSY: builtin.module
// LOSSY-NEXT: func.func @uniform(%a: tensor<2xbf16>, %b: tensor<3xbf16>) -> (tuple<tensor<4xbf16>, tensor<6xbf16>>, tensor<2xbf16>) {

// CHECK-LABEL: func.func @uniform(%a: tensor<2xbf16>, %b: tensor<3xbf16>) -> (tuple<tensor<4xbf16>, tensor<6xbf16>>, tensor<2xbf16>) {
// CHECK-NEXT:     %g = hlo.all_gather(%a, %b) dim = 0 replica_groups = [[0, 1]] : (tensor<2xbf16>, tensor<3xbf16>) -> tuple<tensor<4xbf16>, tensor<6xbf16>>
// CHECK-NEXT:     %r = hlo.all_reduce(%a) replica_groups = [[0, 1]] {
// CHECK-NEXT:     ^bb0(%x: tensor<bf16>, %y: tensor<bf16>):
// CHECK-NEXT:       %s = hlo.add %x, %y : tensor<bf16>
// CHECK-NEXT:       hlo.return %s : tensor<bf16>
// CHECK-NEXT:     } : (tensor<2xbf16>) -> tensor<2xbf16>
// CHECK-NEXT:     func.return %g, %r : tuple<tensor<4xbf16>, tensor<6xbf16>>, tensor<2xbf16>
// CHECK-NEXT:   }

// -----

// The worked example: f32 + bf16 -> f32 (f32 represents bf16). Only the bf16 operand is
// converted; the collective is rebuilt with f32 operands and a fresh f32 `add` reducer,
// element 0 is kept as it is and element 1 converted back to bf16. New ops carry no name
// hints; users see the new tuple. The lossy rule picks f32 too: no precision warning.
builtin.module attributes {hlo.num_replicas = 4 : i64} {
  func.func @main(%a: tensor<4xf32>, %b: tensor<4xbf16>) -> (tensor<4xbf16>, tuple<tensor<4xf32>, tensor<4xbf16>>) {
    %r = hlo.all_reduce(%a, %b) replica_groups = [[0, 1, 2, 3]] channel_id = 1 use_global_device_ids {
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = hlo.add %x, %y : tensor<f32>
      hlo.return %s : tensor<f32>
    } : (tensor<4xf32>, tensor<4xbf16>) -> tuple<tensor<4xf32>, tensor<4xbf16>>
    %r1 = hlo.get_tuple_element %r[1] : tuple<tensor<4xf32>, tensor<4xbf16>>
    func.return %r1, %r : tensor<4xbf16>, tuple<tensor<4xf32>, tensor<4xbf16>>
  }
}
// WARN: // {{-----}}
// WARN-NEXT: warning: We up-casted some collective-communication ops to ensure that all operands have the same type. This may result in a performance penalty.
// WARN-NEXT: builtin.module
// LOSSY: // {{-----}}
// LOSSY-NEXT: warning: We up-casted some collective-communication ops to ensure that all operands have the same type. This may result in a performance penalty.
// LOSSY-NEXT: builtin.module
// LOSSY-NEXT: func.func @main(%a: tensor<4xf32>, %b: tensor<4xbf16>) -> (tensor<4xbf16>, tuple<tensor<4xf32>, tensor<4xbf16>>) {

// CHECK-LABEL: func.func @main(%a: tensor<4xf32>, %b: tensor<4xbf16>) -> (tensor<4xbf16>, tuple<tensor<4xf32>, tensor<4xbf16>>) {
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.convert %b : tensor<4xbf16> -> tensor<4xf32>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.all_reduce(%a, [[V0]]) replica_groups = [[0, 1, 2, 3]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:     ^bb0([[V2:%[0-9]+]]: tensor<f32>, [[V3:%[0-9]+]]: tensor<f32>):
// CHECK-NEXT:       [[V4:%[0-9]+]] = hlo.add [[V2]], [[V3]] : tensor<f32>
// CHECK-NEXT:       hlo.return [[V4]] : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     [[V5:%[0-9]+]] = hlo.get_tuple_element [[V1]][0] : tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     [[V6:%[0-9]+]] = hlo.get_tuple_element [[V1]][1] : tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     [[V7:%[0-9]+]] = hlo.convert [[V6]] : tensor<4xf32> -> tensor<4xbf16>
// CHECK-NEXT:     [[V8:%[0-9]+]] = hlo.tuple [[V5]], [[V7]] : tuple<tensor<4xf32>, tensor<4xbf16>>
// CHECK-NEXT:     %r1 = hlo.get_tuple_element [[V8]][1] : tuple<tensor<4xf32>, tensor<4xbf16>>
// CHECK-NEXT:     func.return %r1, [[V8]] : tensor<4xbf16>, tuple<tensor<4xf32>, tensor<4xbf16>>
// CHECK-NEXT:   }

// -----

// bf16 + s32 -> f64: f32 has 24 significand bits, too few for s32, so both operands go to
// f64. This all_gather is bit-identical to the original. With the lossy option it is rebuilt
// at s32 (the widest bit width), truncating every bf16 value (-3.671875 -> -3) although an
// all_gather only moves data, with a precision warning naming the collective and bf16.
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @bf16_s32(%a: tensor<2xbf16>, %b: tensor<3xi32>) -> tuple<tensor<4xbf16>, tensor<6xi32>> {
    %gather = hlo.all_gather(%a, %b) dim = 0 replica_groups = [[0, 1]] : (tensor<2xbf16>, tensor<3xi32>) -> tuple<tensor<4xbf16>, tensor<6xi32>>
    func.return %gather : tuple<tensor<4xbf16>, tensor<6xi32>>
  }
}
// WARN: // {{-----}}
// WARN-NEXT: warning: We up-casted some collective-communication ops to ensure that all operands have the same type. This may result in a performance penalty.
// WARN-NEXT: builtin.module
// LOSSY: // {{-----}}
// LOSSY-NEXT: warning: legalize-ccops-for-tensorizer: lossy-widest-bitwidth: %gather is rebuilt at s32, which does not represent bf16 exactly: values are rounded or truncated
// LOSSY-NEXT: warning: We up-casted some collective-communication ops to ensure that all operands have the same type. This may result in a performance penalty.
// LOSSY-NEXT: builtin.module

// LOSSY-LABEL: func.func @bf16_s32(%a: tensor<2xbf16>, %b: tensor<3xi32>) -> tuple<tensor<4xbf16>, tensor<6xi32>> {
// LOSSY-NEXT:     [[V0:%[0-9]+]] = hlo.convert %a : tensor<2xbf16> -> tensor<2xi32>
// LOSSY-NEXT:     [[V1:%[0-9]+]] = hlo.all_gather([[V0]], %b) dim = 0 replica_groups = [[0, 1]] : (tensor<2xi32>, tensor<3xi32>) -> tuple<tensor<4xi32>, tensor<6xi32>>
// LOSSY-NEXT:     [[V2:%[0-9]+]] = hlo.get_tuple_element [[V1]][0] : tuple<tensor<4xi32>, tensor<6xi32>>
// LOSSY-NEXT:     [[V3:%[0-9]+]] = hlo.convert [[V2]] : tensor<4xi32> -> tensor<4xbf16>
// LOSSY-NEXT:     [[V4:%[0-9]+]] = hlo.get_tuple_element [[V1]][1] : tuple<tensor<4xi32>, tensor<6xi32>>
// LOSSY-NEXT:     [[V5:%[0-9]+]] = hlo.tuple [[V3]], [[V4]] : tuple<tensor<4xbf16>, tensor<6xi32>>
// LOSSY-NEXT:     func.return [[V5]] : tuple<tensor<4xbf16>, tensor<6xi32>>
// LOSSY-NEXT:   }

// CHECK-LABEL: func.func @bf16_s32(%a: tensor<2xbf16>, %b: tensor<3xi32>) -> tuple<tensor<4xbf16>, tensor<6xi32>> {
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.convert %a : tensor<2xbf16> -> tensor<2xf64>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.convert %b : tensor<3xi32> -> tensor<3xf64>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.all_gather([[V0]], [[V1]]) dim = 0 replica_groups = [[0, 1]] : (tensor<2xf64>, tensor<3xf64>) -> tuple<tensor<4xf64>, tensor<6xf64>>
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element [[V2]][0] : tuple<tensor<4xf64>, tensor<6xf64>>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.convert [[V3]] : tensor<4xf64> -> tensor<4xbf16>
// CHECK-NEXT:     [[V5:%[0-9]+]] = hlo.get_tuple_element [[V2]][1] : tuple<tensor<4xf64>, tensor<6xf64>>
// CHECK-NEXT:     [[V6:%[0-9]+]] = hlo.convert [[V5]] : tensor<6xf64> -> tensor<6xi32>
// CHECK-NEXT:     [[V7:%[0-9]+]] = hlo.tuple [[V4]], [[V6]] : tuple<tensor<4xbf16>, tensor<6xi32>>
// CHECK-NEXT:     func.return [[V7]] : tuple<tensor<4xbf16>, tensor<6xi32>>
// CHECK-NEXT:   }

// -----

// f32 + s32 -> f64, on a reduce_scatter whose reducer is typed i32 (rebuilt as an f64 add).
// The lossy option keeps the reference's f32 (a same-width tie prefers the float), which
// rounds integers above 2**24: precision warning naming s32.
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f32_s32(%a: tensor<4x2xi32>, %b: tensor<4xf32>) -> tuple<tensor<2x2xi32>, tensor<2xf32>> {
    %r = hlo.reduce_scatter(%a, %b) dim = 0 replica_groups = [[0, 1]] {
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = hlo.add %y, %x : tensor<i32>
      hlo.return %s : tensor<i32>
    } : (tensor<4x2xi32>, tensor<4xf32>) -> tuple<tensor<2x2xi32>, tensor<2xf32>>
    func.return %r : tuple<tensor<2x2xi32>, tensor<2xf32>>
  }
}
// WARN: // {{-----}}
// WARN-NEXT: warning: We up-casted some collective-communication ops to ensure that all operands have the same type. This may result in a performance penalty.
// WARN-NEXT: builtin.module
// LOSSY: // {{-----}}
// LOSSY-NEXT: warning: legalize-ccops-for-tensorizer: lossy-widest-bitwidth: %r is rebuilt at f32, which does not represent s32 exactly: values are rounded or truncated
// LOSSY-NEXT: warning: We up-casted some collective-communication ops to ensure that all operands have the same type. This may result in a performance penalty.
// LOSSY-NEXT: builtin.module

// LOSSY-LABEL: func.func @f32_s32(%a: tensor<4x2xi32>, %b: tensor<4xf32>) -> tuple<tensor<2x2xi32>, tensor<2xf32>> {
// LOSSY-NEXT:     [[V0:%[0-9]+]] = hlo.convert %a : tensor<4x2xi32> -> tensor<4x2xf32>
// LOSSY-NEXT:     [[V1:%[0-9]+]] = hlo.reduce_scatter([[V0]], %b) dim = 0 replica_groups = [[0, 1]] {
// LOSSY-NEXT:     ^bb0([[V2]]: tensor<f32>, [[V3]]: tensor<f32>):
// LOSSY-NEXT:       [[V4:%[0-9]+]] = hlo.add [[V2]], [[V3]] : tensor<f32>
// LOSSY-NEXT:       hlo.return [[V4]] : tensor<f32>
// LOSSY-NEXT:     } : (tensor<4x2xf32>, tensor<4xf32>) -> tuple<tensor<2x2xf32>, tensor<2xf32>>
// LOSSY-NEXT:     [[V5:%[0-9]+]] = hlo.get_tuple_element [[V1]][0] : tuple<tensor<2x2xf32>, tensor<2xf32>>
// LOSSY-NEXT:     [[V6:%[0-9]+]] = hlo.convert [[V5]] : tensor<2x2xf32> -> tensor<2x2xi32>
// LOSSY-NEXT:     [[V7:%[0-9]+]] = hlo.get_tuple_element [[V1]][1] : tuple<tensor<2x2xf32>, tensor<2xf32>>
// LOSSY-NEXT:     [[V8:%[0-9]+]] = hlo.tuple [[V6]], [[V7]] : tuple<tensor<2x2xi32>, tensor<2xf32>>
// LOSSY-NEXT:     func.return [[V8]] : tuple<tensor<2x2xi32>, tensor<2xf32>>
// LOSSY-NEXT:   }

// CHECK-LABEL: func.func @f32_s32(%a: tensor<4x2xi32>, %b: tensor<4xf32>) -> tuple<tensor<2x2xi32>, tensor<2xf32>> {
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.convert %a : tensor<4x2xi32> -> tensor<4x2xf64>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.convert %b : tensor<4xf32> -> tensor<4xf64>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.reduce_scatter([[V0]], [[V1]]) dim = 0 replica_groups = [[0, 1]] {
// CHECK-NEXT:     ^bb0([[V3]]: tensor<f64>, [[V4]]: tensor<f64>):
// CHECK-NEXT:       [[V5:%[0-9]+]] = hlo.add [[V3]], [[V4]] : tensor<f64>
// CHECK-NEXT:       hlo.return [[V5]] : tensor<f64>
// CHECK-NEXT:     } : (tensor<4x2xf64>, tensor<4xf64>) -> tuple<tensor<2x2xf64>, tensor<2xf64>>
// CHECK-NEXT:     [[V6:%[0-9]+]] = hlo.get_tuple_element [[V2]][0] : tuple<tensor<2x2xf64>, tensor<2xf64>>
// CHECK-NEXT:     [[V7:%[0-9]+]] = hlo.convert [[V6]] : tensor<2x2xf64> -> tensor<2x2xi32>
// CHECK-NEXT:     [[V8:%[0-9]+]] = hlo.get_tuple_element [[V2]][1] : tuple<tensor<2x2xf64>, tensor<2xf64>>
// CHECK-NEXT:     [[V9:%[0-9]+]] = hlo.convert [[V8]] : tensor<2xf64> -> tensor<2xf32>
// CHECK-NEXT:     [[V10:%[0-9]+]] = hlo.tuple [[V7]], [[V9]] : tuple<tensor<2x2xi32>, tensor<2xf32>>
// CHECK-NEXT:     func.return [[V10]] : tuple<tensor<2x2xi32>, tensor<2xf32>>
// CHECK-NEXT:   }

// -----

// f16 + s16 -> f32: f16 has 11 significand bits, too few for s16. Lossy: f16 (tie -> float),
// with a precision warning.
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f16_s16(%a: tensor<2xf16>, %b: tensor<2xi16>) -> tuple<tensor<2xf16>, tensor<2xi16>> {
    %r = hlo.all_reduce(%a, %b) replica_groups = [[0, 1]] {
    ^bb0(%x: tensor<f16>, %y: tensor<f16>):
      %s = hlo.add %x, %y : tensor<f16>
      hlo.return %s : tensor<f16>
    } : (tensor<2xf16>, tensor<2xi16>) -> tuple<tensor<2xf16>, tensor<2xi16>>
    func.return %r : tuple<tensor<2xf16>, tensor<2xi16>>
  }
}
// WARN: // {{-----}}
// WARN-NEXT: warning: We up-casted some collective-communication ops to ensure that all operands have the same type. This may result in a performance penalty.
// WARN-NEXT: builtin.module
// LOSSY: // {{-----}}
// LOSSY-NEXT: warning: legalize-ccops-for-tensorizer: lossy-widest-bitwidth: %r is rebuilt at f16, which does not represent s16 exactly: values are rounded or truncated
// LOSSY-NEXT: warning: We up-casted some collective-communication ops to ensure that all operands have the same type. This may result in a performance penalty.
// LOSSY-NEXT: builtin.module

// LOSSY-LABEL: func.func @f16_s16(%a: tensor<2xf16>, %b: tensor<2xi16>) -> tuple<tensor<2xf16>, tensor<2xi16>> {
// LOSSY-NEXT:     [[V0:%[0-9]+]] = hlo.convert %b : tensor<2xi16> -> tensor<2xf16>
// LOSSY-NEXT:     [[V1:%[0-9]+]] = hlo.all_reduce(%a, [[V0]]) replica_groups = [[0, 1]] {
// LOSSY-NEXT:     ^bb0([[V2]]: tensor<f16>, [[V3]]: tensor<f16>):
// LOSSY-NEXT:       [[V4:%[0-9]+]] = hlo.add [[V2]], [[V3]] : tensor<f16>
// LOSSY-NEXT:       hlo.return [[V4]] : tensor<f16>
// LOSSY-NEXT:     } : (tensor<2xf16>, tensor<2xf16>) -> tuple<tensor<2xf16>, tensor<2xf16>>
// LOSSY-NEXT:     [[V5:%[0-9]+]] = hlo.get_tuple_element [[V1]][0] : tuple<tensor<2xf16>, tensor<2xf16>>
// LOSSY-NEXT:     [[V6:%[0-9]+]] = hlo.get_tuple_element [[V1]][1] : tuple<tensor<2xf16>, tensor<2xf16>>
// LOSSY-NEXT:     [[V7:%[0-9]+]] = hlo.convert [[V6]] : tensor<2xf16> -> tensor<2xi16>
// LOSSY-NEXT:     [[V8:%[0-9]+]] = hlo.tuple [[V5]], [[V7]] : tuple<tensor<2xf16>, tensor<2xi16>>
// LOSSY-NEXT:     func.return [[V8]] : tuple<tensor<2xf16>, tensor<2xi16>>
// LOSSY-NEXT:   }

// CHECK-LABEL: func.func @f16_s16(%a: tensor<2xf16>, %b: tensor<2xi16>) -> tuple<tensor<2xf16>, tensor<2xi16>> {
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.convert %a : tensor<2xf16> -> tensor<2xf32>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.convert %b : tensor<2xi16> -> tensor<2xf32>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.all_reduce([[V0]], [[V1]]) replica_groups = [[0, 1]] {
// CHECK-NEXT:     ^bb0([[V3]]: tensor<f32>, [[V4]]: tensor<f32>):
// CHECK-NEXT:       [[V5:%[0-9]+]] = hlo.add [[V3]], [[V4]] : tensor<f32>
// CHECK-NEXT:       hlo.return [[V5]] : tensor<f32>
// CHECK-NEXT:     } : (tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:     [[V6:%[0-9]+]] = hlo.get_tuple_element [[V2]][0] : tuple<tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:     [[V7:%[0-9]+]] = hlo.convert [[V6]] : tensor<2xf32> -> tensor<2xf16>
// CHECK-NEXT:     [[V8:%[0-9]+]] = hlo.get_tuple_element [[V2]][1] : tuple<tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:     [[V9:%[0-9]+]] = hlo.convert [[V8]] : tensor<2xf32> -> tensor<2xi16>
// CHECK-NEXT:     [[V10:%[0-9]+]] = hlo.tuple [[V7]], [[V9]] : tuple<tensor<2xf16>, tensor<2xi16>>
// CHECK-NEXT:     func.return [[V10]] : tuple<tensor<2xf16>, tensor<2xi16>>
// CHECK-NEXT:   }

// -----

// bf16 + s16 -> f32 (bf16 has 8 significand bits). Lossy: bf16, with a precision warning.
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @bf16_s16(%a: tensor<2xbf16>, %b: tensor<2xi16>) -> tuple<tensor<2xbf16>, tensor<2xi16>> {
    %r = hlo.all_reduce(%a, %b) replica_groups = [[0, 1]] {
    ^bb0(%x: tensor<bf16>, %y: tensor<bf16>):
      %s = hlo.add %x, %y : tensor<bf16>
      hlo.return %s : tensor<bf16>
    } : (tensor<2xbf16>, tensor<2xi16>) -> tuple<tensor<2xbf16>, tensor<2xi16>>
    func.return %r : tuple<tensor<2xbf16>, tensor<2xi16>>
  }
}
// WARN: // {{-----}}
// WARN-NEXT: warning: We up-casted some collective-communication ops to ensure that all operands have the same type. This may result in a performance penalty.
// WARN-NEXT: builtin.module
// LOSSY: // {{-----}}
// LOSSY-NEXT: warning: legalize-ccops-for-tensorizer: lossy-widest-bitwidth: %r is rebuilt at bf16, which does not represent s16 exactly: values are rounded or truncated
// LOSSY-NEXT: warning: We up-casted some collective-communication ops to ensure that all operands have the same type. This may result in a performance penalty.
// LOSSY-NEXT: builtin.module

// LOSSY-LABEL: func.func @bf16_s16(%a: tensor<2xbf16>, %b: tensor<2xi16>) -> tuple<tensor<2xbf16>, tensor<2xi16>> {
// LOSSY-NEXT:     [[V0:%[0-9]+]] = hlo.convert %b : tensor<2xi16> -> tensor<2xbf16>
// LOSSY-NEXT:     [[V1:%[0-9]+]] = hlo.all_reduce(%a, [[V0]]) replica_groups = [[0, 1]] {
// LOSSY-NEXT:     ^bb0([[V2]]: tensor<bf16>, [[V3]]: tensor<bf16>):
// LOSSY-NEXT:       [[V4:%[0-9]+]] = hlo.add [[V2]], [[V3]] : tensor<bf16>
// LOSSY-NEXT:       hlo.return [[V4]] : tensor<bf16>
// LOSSY-NEXT:     } : (tensor<2xbf16>, tensor<2xbf16>) -> tuple<tensor<2xbf16>, tensor<2xbf16>>
// LOSSY-NEXT:     [[V5:%[0-9]+]] = hlo.get_tuple_element [[V1]][0] : tuple<tensor<2xbf16>, tensor<2xbf16>>
// LOSSY-NEXT:     [[V6:%[0-9]+]] = hlo.get_tuple_element [[V1]][1] : tuple<tensor<2xbf16>, tensor<2xbf16>>
// LOSSY-NEXT:     [[V7:%[0-9]+]] = hlo.convert [[V6]] : tensor<2xbf16> -> tensor<2xi16>
// LOSSY-NEXT:     [[V8:%[0-9]+]] = hlo.tuple [[V5]], [[V7]] : tuple<tensor<2xbf16>, tensor<2xi16>>
// LOSSY-NEXT:     func.return [[V8]] : tuple<tensor<2xbf16>, tensor<2xi16>>
// LOSSY-NEXT:   }

// CHECK-LABEL: func.func @bf16_s16(%a: tensor<2xbf16>, %b: tensor<2xi16>) -> tuple<tensor<2xbf16>, tensor<2xi16>> {
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.convert %a : tensor<2xbf16> -> tensor<2xf32>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.convert %b : tensor<2xi16> -> tensor<2xf32>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.all_reduce([[V0]], [[V1]]) replica_groups = [[0, 1]] {
// CHECK-NEXT:     ^bb0([[V3]]: tensor<f32>, [[V4]]: tensor<f32>):
// CHECK-NEXT:       [[V5:%[0-9]+]] = hlo.add [[V3]], [[V4]] : tensor<f32>
// CHECK-NEXT:       hlo.return [[V5]] : tensor<f32>
// CHECK-NEXT:     } : (tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:     [[V6:%[0-9]+]] = hlo.get_tuple_element [[V2]][0] : tuple<tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:     [[V7:%[0-9]+]] = hlo.convert [[V6]] : tensor<2xf32> -> tensor<2xbf16>
// CHECK-NEXT:     [[V8:%[0-9]+]] = hlo.get_tuple_element [[V2]][1] : tuple<tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:     [[V9:%[0-9]+]] = hlo.convert [[V8]] : tensor<2xf32> -> tensor<2xi16>
// CHECK-NEXT:     [[V10:%[0-9]+]] = hlo.tuple [[V7]], [[V9]] : tuple<tensor<2xbf16>, tensor<2xi16>>
// CHECK-NEXT:     func.return [[V10]] : tuple<tensor<2xbf16>, tensor<2xi16>>
// CHECK-NEXT:   }

// -----

// s8 + pred -> s8, on an all_gather (no reducer). Both rules agree.
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @s8_pred(%a: tensor<2xi8>, %b: tensor<2xi1>) -> tuple<tensor<4xi8>, tensor<4xi1>> {
    %g = hlo.all_gather(%a, %b) dim = 0 replica_groups = [[0, 1]] channel_id = 7 : (tensor<2xi8>, tensor<2xi1>) -> tuple<tensor<4xi8>, tensor<4xi1>>
    func.return %g : tuple<tensor<4xi8>, tensor<4xi1>>
  }
}
// WARN: // {{-----}}
// WARN-NEXT: warning: We up-casted some collective-communication ops to ensure that all operands have the same type. This may result in a performance penalty.
// WARN-NEXT: builtin.module
// LOSSY: // {{-----}}
// LOSSY-NEXT: warning: We up-casted some collective-communication ops to ensure that all operands have the same type. This may result in a performance penalty.
// LOSSY-NEXT: builtin.module
// LOSSY-NEXT: func.func @s8_pred(%a: tensor<2xi8>, %b: tensor<2xi1>) -> tuple<tensor<4xi8>, tensor<4xi1>> {

// CHECK-LABEL: func.func @s8_pred(%a: tensor<2xi8>, %b: tensor<2xi1>) -> tuple<tensor<4xi8>, tensor<4xi1>> {
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.convert %b : tensor<2xi1> -> tensor<2xi8>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.all_gather(%a, [[V0]]) dim = 0 replica_groups = [[0, 1]] channel_id = 7 : (tensor<2xi8>, tensor<2xi8>) -> tuple<tensor<4xi8>, tensor<4xi8>>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.get_tuple_element [[V1]][0] : tuple<tensor<4xi8>, tensor<4xi8>>
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element [[V1]][1] : tuple<tensor<4xi8>, tensor<4xi8>>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.convert [[V3]] : tensor<4xi8> -> tensor<4xi1>
// CHECK-NEXT:     [[V5:%[0-9]+]] = hlo.tuple [[V2]], [[V4]] : tuple<tensor<4xi8>, tensor<4xi1>>
// CHECK-NEXT:     func.return [[V5]] : tuple<tensor<4xi8>, tensor<4xi1>>
// CHECK-NEXT:   }

// -----

// f16 + bf16 -> f32: neither represents the other, so BOTH operands are converted. Both
// rules agree.
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f16_bf16(%a: tensor<2xf16>, %b: tensor<2xbf16>) -> tuple<tensor<2xf16>, tensor<2xbf16>> {
    %r = hlo.all_reduce(%a, %b) replica_groups = [[0, 1]] {
    ^bb0(%x: tensor<f16>, %y: tensor<f16>):
      %s = hlo.add %x, %y : tensor<f16>
      hlo.return %s : tensor<f16>
    } : (tensor<2xf16>, tensor<2xbf16>) -> tuple<tensor<2xf16>, tensor<2xbf16>>
    func.return %r : tuple<tensor<2xf16>, tensor<2xbf16>>
  }
}
// WARN: // {{-----}}
// WARN-NEXT: warning: We up-casted some collective-communication ops to ensure that all operands have the same type. This may result in a performance penalty.
// WARN-NEXT: builtin.module
// LOSSY: // {{-----}}
// LOSSY-NEXT: warning: We up-casted some collective-communication ops to ensure that all operands have the same type. This may result in a performance penalty.
// LOSSY-NEXT: builtin.module
// LOSSY-NEXT: func.func @f16_bf16(%a: tensor<2xf16>, %b: tensor<2xbf16>) -> tuple<tensor<2xf16>, tensor<2xbf16>> {

// CHECK-LABEL: func.func @f16_bf16(%a: tensor<2xf16>, %b: tensor<2xbf16>) -> tuple<tensor<2xf16>, tensor<2xbf16>> {
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.convert %a : tensor<2xf16> -> tensor<2xf32>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.convert %b : tensor<2xbf16> -> tensor<2xf32>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.all_reduce([[V0]], [[V1]]) replica_groups = [[0, 1]] {
// CHECK-NEXT:     ^bb0([[V3]]: tensor<f32>, [[V4]]: tensor<f32>):
// CHECK-NEXT:       [[V5:%[0-9]+]] = hlo.add [[V3]], [[V4]] : tensor<f32>
// CHECK-NEXT:       hlo.return [[V5]] : tensor<f32>
// CHECK-NEXT:     } : (tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:     [[V6:%[0-9]+]] = hlo.get_tuple_element [[V2]][0] : tuple<tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:     [[V7:%[0-9]+]] = hlo.convert [[V6]] : tensor<2xf32> -> tensor<2xf16>
// CHECK-NEXT:     [[V8:%[0-9]+]] = hlo.get_tuple_element [[V2]][1] : tuple<tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:     [[V9:%[0-9]+]] = hlo.convert [[V8]] : tensor<2xf32> -> tensor<2xbf16>
// CHECK-NEXT:     [[V10:%[0-9]+]] = hlo.tuple [[V7]], [[V9]] : tuple<tensor<2xf16>, tensor<2xbf16>>
// CHECK-NEXT:     func.return [[V10]] : tuple<tensor<2xf16>, tensor<2xbf16>>
// CHECK-NEXT:   }

// -----

// Signed + unsigned: s32 + u32 -> i64 (signless 64-bit, XLA's s64); both converted. Both
// rules agree.
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @s32_u32(%a: tensor<2xi32>, %b: tensor<2xui32>) -> tuple<tensor<2xi32>, tensor<2xui32>> {
    %r = hlo.all_reduce(%a, %b) replica_groups = [[0, 1]] {
    ^bb0(%x: tensor<ui32>, %y: tensor<ui32>):
      %s = hlo.add %x, %y : tensor<ui32>
      hlo.return %s : tensor<ui32>
    } : (tensor<2xi32>, tensor<2xui32>) -> tuple<tensor<2xi32>, tensor<2xui32>>
    func.return %r : tuple<tensor<2xi32>, tensor<2xui32>>
  }
}
// WARN: // {{-----}}
// WARN-NEXT: warning: We up-casted some collective-communication ops to ensure that all operands have the same type. This may result in a performance penalty.
// WARN-NEXT: builtin.module
// LOSSY: // {{-----}}
// LOSSY-NEXT: warning: We up-casted some collective-communication ops to ensure that all operands have the same type. This may result in a performance penalty.
// LOSSY-NEXT: builtin.module
// LOSSY-NEXT: func.func @s32_u32(%a: tensor<2xi32>, %b: tensor<2xui32>) -> tuple<tensor<2xi32>, tensor<2xui32>> {

// CHECK-LABEL: func.func @s32_u32(%a: tensor<2xi32>, %b: tensor<2xui32>) -> tuple<tensor<2xi32>, tensor<2xui32>> {
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.convert %a : tensor<2xi32> -> tensor<2xi64>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.convert %b : tensor<2xui32> -> tensor<2xi64>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.all_reduce([[V0]], [[V1]]) replica_groups = [[0, 1]] {
// CHECK-NEXT:     ^bb0([[V3]]: tensor<i64>, [[V4]]: tensor<i64>):
// CHECK-NEXT:       [[V5:%[0-9]+]] = hlo.add [[V3]], [[V4]] : tensor<i64>
// CHECK-NEXT:       hlo.return [[V5]] : tensor<i64>
// CHECK-NEXT:     } : (tensor<2xi64>, tensor<2xi64>) -> tuple<tensor<2xi64>, tensor<2xi64>>
// CHECK-NEXT:     [[V6:%[0-9]+]] = hlo.get_tuple_element [[V2]][0] : tuple<tensor<2xi64>, tensor<2xi64>>
// CHECK-NEXT:     [[V7:%[0-9]+]] = hlo.convert [[V6]] : tensor<2xi64> -> tensor<2xi32>
// CHECK-NEXT:     [[V8:%[0-9]+]] = hlo.get_tuple_element [[V2]][1] : tuple<tensor<2xi64>, tensor<2xi64>>
// CHECK-NEXT:     [[V9:%[0-9]+]] = hlo.convert [[V8]] : tensor<2xi64> -> tensor<2xui32>
// CHECK-NEXT:     [[V10:%[0-9]+]] = hlo.tuple [[V7]], [[V9]] : tuple<tensor<2xi32>, tensor<2xui32>>
// CHECK-NEXT:     func.return [[V10]] : tuple<tensor<2xi32>, tensor<2xui32>>
// CHECK-NEXT:   }

// -----

// u8 + s8: s16, f16 and bf16 all represent both; the tie goes to s16 (as in XLA / NumPy),
// the first of them in the promotion order. Both rules agree.
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @u8_s8(%a: tensor<2xui8>, %b: tensor<2xi8>) -> tuple<tensor<2xui8>, tensor<2xi8>> {
    %r = hlo.all_reduce(%a, %b) replica_groups = [[0, 1]] {
    ^bb0(%x: tensor<i8>, %y: tensor<i8>):
      %m = hlo.minimum %x, %y : tensor<i8>
      hlo.return %m : tensor<i8>
    } : (tensor<2xui8>, tensor<2xi8>) -> tuple<tensor<2xui8>, tensor<2xi8>>
    func.return %r : tuple<tensor<2xui8>, tensor<2xi8>>
  }
}
// WARN: // {{-----}}
// WARN-NEXT: warning: We up-casted some collective-communication ops to ensure that all operands have the same type. This may result in a performance penalty.
// WARN-NEXT: builtin.module
// LOSSY: // {{-----}}
// LOSSY-NEXT: warning: We up-casted some collective-communication ops to ensure that all operands have the same type. This may result in a performance penalty.
// LOSSY-NEXT: builtin.module
// LOSSY-NEXT: func.func @u8_s8(%a: tensor<2xui8>, %b: tensor<2xi8>) -> tuple<tensor<2xui8>, tensor<2xi8>> {

// CHECK-LABEL: func.func @u8_s8(%a: tensor<2xui8>, %b: tensor<2xi8>) -> tuple<tensor<2xui8>, tensor<2xi8>> {
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.convert %a : tensor<2xui8> -> tensor<2xi16>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.convert %b : tensor<2xi8> -> tensor<2xi16>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.all_reduce([[V0]], [[V1]]) replica_groups = [[0, 1]] {
// CHECK-NEXT:     ^bb0([[V3]]: tensor<i16>, [[V4]]: tensor<i16>):
// CHECK-NEXT:       [[V5:%[0-9]+]] = hlo.minimum [[V3]], [[V4]] : tensor<i16>
// CHECK-NEXT:       hlo.return [[V5]] : tensor<i16>
// CHECK-NEXT:     } : (tensor<2xi16>, tensor<2xi16>) -> tuple<tensor<2xi16>, tensor<2xi16>>
// CHECK-NEXT:     [[V6:%[0-9]+]] = hlo.get_tuple_element [[V2]][0] : tuple<tensor<2xi16>, tensor<2xi16>>
// CHECK-NEXT:     [[V7:%[0-9]+]] = hlo.convert [[V6]] : tensor<2xi16> -> tensor<2xui8>
// CHECK-NEXT:     [[V8:%[0-9]+]] = hlo.get_tuple_element [[V2]][1] : tuple<tensor<2xi16>, tensor<2xi16>>
// CHECK-NEXT:     [[V9:%[0-9]+]] = hlo.convert [[V8]] : tensor<2xi16> -> tensor<2xi8>
// CHECK-NEXT:     [[V10:%[0-9]+]] = hlo.tuple [[V7]], [[V9]] : tuple<tensor<2xui8>, tensor<2xi8>>
// CHECK-NEXT:     func.return [[V10]] : tuple<tensor<2xui8>, tensor<2xi8>>
// CHECK-NEXT:   }

// -----

// Three operands, bf16 + u8 + s8 -> bf16: bf16's 8 significand bits hold every u8 and s8
// value, so only the integer operands are converted. Both rules agree.
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @bf16_u8_s8(%a: tensor<2xbf16>, %b: tensor<2xui8>, %c: tensor<2xi8>) -> tuple<tensor<4xbf16>, tensor<4xui8>, tensor<4xi8>> {
    %g3 = hlo.all_gather(%a, %b, %c) dim = 0 replica_groups = [[0, 1]] : (tensor<2xbf16>, tensor<2xui8>, tensor<2xi8>) -> tuple<tensor<4xbf16>, tensor<4xui8>, tensor<4xi8>>
    func.return %g3 : tuple<tensor<4xbf16>, tensor<4xui8>, tensor<4xi8>>
  }
}
// WARN: // {{-----}}
// WARN-NEXT: warning: We up-casted some collective-communication ops to ensure that all operands have the same type. This may result in a performance penalty.
// WARN-NEXT: builtin.module
// LOSSY: // {{-----}}
// LOSSY-NEXT: warning: We up-casted some collective-communication ops to ensure that all operands have the same type. This may result in a performance penalty.
// LOSSY-NEXT: builtin.module
// LOSSY-NEXT: func.func @bf16_u8_s8(%a: tensor<2xbf16>, %b: tensor<2xui8>, %c: tensor<2xi8>) -> tuple<tensor<4xbf16>, tensor<4xui8>, tensor<4xi8>> {

// CHECK-LABEL: func.func @bf16_u8_s8(%a: tensor<2xbf16>, %b: tensor<2xui8>, %c: tensor<2xi8>) -> tuple<tensor<4xbf16>, tensor<4xui8>, tensor<4xi8>> {
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.convert %b : tensor<2xui8> -> tensor<2xbf16>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.convert %c : tensor<2xi8> -> tensor<2xbf16>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.all_gather(%a, [[V0]], [[V1]]) dim = 0 replica_groups = [[0, 1]] : (tensor<2xbf16>, tensor<2xbf16>, tensor<2xbf16>) -> tuple<tensor<4xbf16>, tensor<4xbf16>, tensor<4xbf16>>
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element [[V2]][0] : tuple<tensor<4xbf16>, tensor<4xbf16>, tensor<4xbf16>>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.get_tuple_element [[V2]][1] : tuple<tensor<4xbf16>, tensor<4xbf16>, tensor<4xbf16>>
// CHECK-NEXT:     [[V5:%[0-9]+]] = hlo.convert [[V4]] : tensor<4xbf16> -> tensor<4xui8>
// CHECK-NEXT:     [[V6:%[0-9]+]] = hlo.get_tuple_element [[V2]][2] : tuple<tensor<4xbf16>, tensor<4xbf16>, tensor<4xbf16>>
// CHECK-NEXT:     [[V7:%[0-9]+]] = hlo.convert [[V6]] : tensor<4xbf16> -> tensor<4xi8>
// CHECK-NEXT:     [[V8:%[0-9]+]] = hlo.tuple [[V3]], [[V5]], [[V7]] : tuple<tensor<4xbf16>, tensor<4xui8>, tensor<4xi8>>
// CHECK-NEXT:     func.return [[V8]] : tuple<tensor<4xbf16>, tensor<4xui8>, tensor<4xi8>>
// CHECK-NEXT:   }

// -----

// s64 + u64: no supported type represents both; unchanged, with a remark naming the types
// (and no warning), with or without the option.
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @s64_u64(%a: tensor<2xi64>, %b: tensor<2xui64>) -> tuple<tensor<2xi64>, tensor<2xui64>> {
    %r = hlo.all_reduce(%a, %b) replica_groups = [[0, 1]] {
    ^bb0(%x: tensor<i64>, %y: tensor<i64>):
      %s = hlo.add %x, %y : tensor<i64>
      hlo.return %s : tensor<i64>
    } : (tensor<2xi64>, tensor<2xui64>) -> tuple<tensor<2xi64>, tensor<2xui64>>
    func.return %r : tuple<tensor<2xi64>, tensor<2xui64>>
  }
}
// WARN: // {{-----}}
// WARN-NEXT: remark: legalize-ccops-for-tensorizer: %r not legalized: no supported type represents s64, u64 exactly
// WARN-NEXT: builtin.module
// LOSSY: // {{-----}}
// LOSSY-NEXT: remark: legalize-ccops-for-tensorizer: %r not legalized: no supported type represents s64, u64 exactly
// LOSSY-NEXT: builtin.module
// LOSSY-NEXT: func.func @s64_u64(%a: tensor<2xi64>, %b: tensor<2xui64>) -> tuple<tensor<2xi64>, tensor<2xui64>> {

// CHECK-LABEL: func.func @s64_u64(%a: tensor<2xi64>, %b: tensor<2xui64>) -> tuple<tensor<2xi64>, tensor<2xui64>> {
// CHECK-NEXT:     %r = hlo.all_reduce(%a, %b) replica_groups = [[0, 1]] {
// CHECK-NEXT:     ^bb0(%x: tensor<i64>, %y: tensor<i64>):
// CHECK-NEXT:       %s = hlo.add %x, %y : tensor<i64>
// CHECK-NEXT:       hlo.return %s : tensor<i64>
// CHECK-NEXT:     } : (tensor<2xi64>, tensor<2xui64>) -> tuple<tensor<2xi64>, tensor<2xui64>>
// CHECK-NEXT:     func.return %r : tuple<tensor<2xi64>, tensor<2xui64>>
// CHECK-NEXT:   }

// -----

// s64 + f32: f64 holds f32 but not s64 (53 significand bits): unchanged, with a remark. The
// lossy option rebuilds it at s64 (the widest), truncating the f32 values, with a precision
// warning; its f32 `maximum` reducer is rebuilt at i64.
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @s64_f32(%a: tensor<2xi64>, %b: tensor<3xf32>) -> tuple<tensor<2xi64>, tensor<3xf32>> {
    %r = hlo.all_reduce(%a, %b) replica_groups = [[0, 1]] {
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %m = hlo.maximum %x, %y : tensor<f32>
      hlo.return %m : tensor<f32>
    } : (tensor<2xi64>, tensor<3xf32>) -> tuple<tensor<2xi64>, tensor<3xf32>>
    func.return %r : tuple<tensor<2xi64>, tensor<3xf32>>
  }
}
// WARN: // {{-----}}
// WARN-NEXT: remark: legalize-ccops-for-tensorizer: %r not legalized: no supported type represents f32, s64 exactly
// WARN-NEXT: builtin.module
// LOSSY: // {{-----}}
// LOSSY-NEXT: warning: legalize-ccops-for-tensorizer: lossy-widest-bitwidth: %r is rebuilt at s64, which does not represent f32 exactly: values are rounded or truncated
// LOSSY-NEXT: warning: We up-casted some collective-communication ops to ensure that all operands have the same type. This may result in a performance penalty.
// LOSSY-NEXT: builtin.module

// LOSSY-LABEL: func.func @s64_f32(%a: tensor<2xi64>, %b: tensor<3xf32>) -> tuple<tensor<2xi64>, tensor<3xf32>> {
// LOSSY-NEXT:     [[V0:%[0-9]+]] = hlo.convert %b : tensor<3xf32> -> tensor<3xi64>
// LOSSY-NEXT:     [[V1:%[0-9]+]] = hlo.all_reduce(%a, [[V0]]) replica_groups = [[0, 1]] {
// LOSSY-NEXT:     ^bb0([[V2]]: tensor<i64>, [[V3]]: tensor<i64>):
// LOSSY-NEXT:       [[V4:%[0-9]+]] = hlo.maximum [[V2]], [[V3]] : tensor<i64>
// LOSSY-NEXT:       hlo.return [[V4]] : tensor<i64>
// LOSSY-NEXT:     } : (tensor<2xi64>, tensor<3xi64>) -> tuple<tensor<2xi64>, tensor<3xi64>>
// LOSSY-NEXT:     [[V5:%[0-9]+]] = hlo.get_tuple_element [[V1]][0] : tuple<tensor<2xi64>, tensor<3xi64>>
// LOSSY-NEXT:     [[V6:%[0-9]+]] = hlo.get_tuple_element [[V1]][1] : tuple<tensor<2xi64>, tensor<3xi64>>
// LOSSY-NEXT:     [[V7:%[0-9]+]] = hlo.convert [[V6]] : tensor<3xi64> -> tensor<3xf32>
// LOSSY-NEXT:     [[V8:%[0-9]+]] = hlo.tuple [[V5]], [[V7]] : tuple<tensor<2xi64>, tensor<3xf32>>
// LOSSY-NEXT:     func.return [[V8]] : tuple<tensor<2xi64>, tensor<3xf32>>
// LOSSY-NEXT:   }

// CHECK-LABEL: func.func @s64_f32(%a: tensor<2xi64>, %b: tensor<3xf32>) -> tuple<tensor<2xi64>, tensor<3xf32>> {
// CHECK-NEXT:     %r = hlo.all_reduce(%a, %b) replica_groups = [[0, 1]] {
// CHECK-NEXT:     ^bb0(%x: tensor<f32>, %y: tensor<f32>):
// CHECK-NEXT:       %m = hlo.maximum %x, %y : tensor<f32>
// CHECK-NEXT:       hlo.return %m : tensor<f32>
// CHECK-NEXT:     } : (tensor<2xi64>, tensor<3xf32>) -> tuple<tensor<2xi64>, tensor<3xf32>>
// CHECK-NEXT:     func.return %r : tuple<tensor<2xi64>, tensor<3xf32>>
// CHECK-NEXT:   }

// -----

// u64 + s8: no supported type holds a negative s8 and every u64: unchanged, with a remark.
// The lossy option rebuilds it at u64 (negative s8 values wrap), with a precision warning.
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @u64_s8(%a: tensor<2xui64>, %b: tensor<2xi8>) -> tuple<tensor<4xui64>, tensor<4xi8>> {
    %g64 = hlo.all_gather(%a, %b) dim = 0 replica_groups = [[0, 1]] : (tensor<2xui64>, tensor<2xi8>) -> tuple<tensor<4xui64>, tensor<4xi8>>
    func.return %g64 : tuple<tensor<4xui64>, tensor<4xi8>>
  }
}
// WARN: // {{-----}}
// WARN-NEXT: remark: legalize-ccops-for-tensorizer: %g64 not legalized: no supported type represents s8, u64 exactly
// WARN-NEXT: builtin.module
// LOSSY: // {{-----}}
// LOSSY-NEXT: warning: legalize-ccops-for-tensorizer: lossy-widest-bitwidth: %g64 is rebuilt at u64, which does not represent s8 exactly: values are rounded or truncated
// LOSSY-NEXT: warning: We up-casted some collective-communication ops to ensure that all operands have the same type. This may result in a performance penalty.
// LOSSY-NEXT: builtin.module

// LOSSY-LABEL: func.func @u64_s8(%a: tensor<2xui64>, %b: tensor<2xi8>) -> tuple<tensor<4xui64>, tensor<4xi8>> {
// LOSSY-NEXT:     [[V0:%[0-9]+]] = hlo.convert %b : tensor<2xi8> -> tensor<2xui64>
// LOSSY-NEXT:     [[V1:%[0-9]+]] = hlo.all_gather(%a, [[V0]]) dim = 0 replica_groups = [[0, 1]] : (tensor<2xui64>, tensor<2xui64>) -> tuple<tensor<4xui64>, tensor<4xui64>>
// LOSSY-NEXT:     [[V2:%[0-9]+]] = hlo.get_tuple_element [[V1]][0] : tuple<tensor<4xui64>, tensor<4xui64>>
// LOSSY-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element [[V1]][1] : tuple<tensor<4xui64>, tensor<4xui64>>
// LOSSY-NEXT:     [[V4:%[0-9]+]] = hlo.convert [[V3]] : tensor<4xui64> -> tensor<4xi8>
// LOSSY-NEXT:     [[V5:%[0-9]+]] = hlo.tuple [[V2]], [[V4]] : tuple<tensor<4xui64>, tensor<4xi8>>
// LOSSY-NEXT:     func.return [[V5]] : tuple<tensor<4xui64>, tensor<4xi8>>
// LOSSY-NEXT:   }

// CHECK-LABEL: func.func @u64_s8(%a: tensor<2xui64>, %b: tensor<2xi8>) -> tuple<tensor<4xui64>, tensor<4xi8>> {
// CHECK-NEXT:     %g64 = hlo.all_gather(%a, %b) dim = 0 replica_groups = [[0, 1]] : (tensor<2xui64>, tensor<2xi8>) -> tuple<tensor<4xui64>, tensor<4xi8>>
// CHECK-NEXT:     func.return %g64 : tuple<tensor<4xui64>, tensor<4xi8>>
// CHECK-NEXT:   }

// -----

// Bitwise reducers. and on s32 + f32 would run at f64 (f32 with the option): never at a
// float, so unchanged with a remark. or on pred + s8 runs at s8 and xor on s32 + u32 at s64:
// exact, rebuilt. The other two still count as up-casts: one warning.
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @bitwise(%a: tensor<2xi32>, %b: tensor<2xf32>, %p: tensor<2xi1>, %c: tensor<2xi8>, %u: tensor<2xui32>) -> (tuple<tensor<2xi32>, tensor<2xf32>>, tuple<tensor<2xi1>, tensor<2xi8>>, tuple<tensor<2xi32>, tensor<2xui32>>) {
    %and_f = hlo.all_reduce(%a, %b) replica_groups = [[0, 1]] {
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = hlo.and %x, %y : tensor<i32>
      hlo.return %s : tensor<i32>
    } : (tensor<2xi32>, tensor<2xf32>) -> tuple<tensor<2xi32>, tensor<2xf32>>
    %or_i = hlo.all_reduce(%p, %c) replica_groups = [[0, 1]] {
    ^bb0(%x: tensor<i1>, %y: tensor<i1>):
      %s = hlo.or %x, %y : tensor<i1>
      hlo.return %s : tensor<i1>
    } : (tensor<2xi1>, tensor<2xi8>) -> tuple<tensor<2xi1>, tensor<2xi8>>
    %xor_i = hlo.all_reduce(%a, %u) replica_groups = [[0, 1]] {
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = hlo.xor %x, %y : tensor<i32>
      hlo.return %s : tensor<i32>
    } : (tensor<2xi32>, tensor<2xui32>) -> tuple<tensor<2xi32>, tensor<2xui32>>
    func.return %and_f, %or_i, %xor_i : tuple<tensor<2xi32>, tensor<2xf32>>, tuple<tensor<2xi1>, tensor<2xi8>>, tuple<tensor<2xi32>, tensor<2xui32>>
  }
}
// WARN: // {{-----}}
// WARN-NEXT: remark: legalize-ccops-for-tensorizer: %and_f not legalized: a and reduction cannot run at f64
// WARN-NEXT: warning: We up-casted some collective-communication ops to ensure that all operands have the same type. This may result in a performance penalty.
// WARN-NEXT: builtin.module
// LOSSY: // {{-----}}
// LOSSY-NEXT: remark: legalize-ccops-for-tensorizer: %and_f not legalized: a and reduction cannot run at f32
// LOSSY-NEXT: warning: We up-casted some collective-communication ops to ensure that all operands have the same type. This may result in a performance penalty.
// LOSSY-NEXT: builtin.module
// LOSSY-NEXT: func.func @bitwise(%a: tensor<2xi32>, %b: tensor<2xf32>, %p: tensor<2xi1>, %c: tensor<2xi8>, %u: tensor<2xui32>) -> (tuple<tensor<2xi32>, tensor<2xf32>>, tuple<tensor<2xi1>, tensor<2xi8>>, tuple<tensor<2xi32>, tensor<2xui32>>) {

// CHECK-LABEL: func.func @bitwise(%a: tensor<2xi32>, %b: tensor<2xf32>, %p: tensor<2xi1>, %c: tensor<2xi8>, %u: tensor<2xui32>) -> (tuple<tensor<2xi32>, tensor<2xf32>>, tuple<tensor<2xi1>, tensor<2xi8>>, tuple<tensor<2xi32>, tensor<2xui32>>) {
// CHECK-NEXT:     %and_f = hlo.all_reduce(%a, %b) replica_groups = [[0, 1]] {
// CHECK-NEXT:     ^bb0(%x: tensor<i32>, %y: tensor<i32>):
// CHECK-NEXT:       %s = hlo.and %x, %y : tensor<i32>
// CHECK-NEXT:       hlo.return %s : tensor<i32>
// CHECK-NEXT:     } : (tensor<2xi32>, tensor<2xf32>) -> tuple<tensor<2xi32>, tensor<2xf32>>
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.convert %p : tensor<2xi1> -> tensor<2xi8>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.all_reduce([[V0]], %c) replica_groups = [[0, 1]] {
// CHECK-NEXT:     ^bb0([[V2]]: tensor<i8>, [[V3]]: tensor<i8>):
// CHECK-NEXT:       [[V4:%[0-9]+]] = hlo.or [[V2]], [[V3]] : tensor<i8>
// CHECK-NEXT:       hlo.return [[V4]] : tensor<i8>
// CHECK-NEXT:     } : (tensor<2xi8>, tensor<2xi8>) -> tuple<tensor<2xi8>, tensor<2xi8>>
// CHECK-NEXT:     [[V5:%[0-9]+]] = hlo.get_tuple_element [[V1]][0] : tuple<tensor<2xi8>, tensor<2xi8>>
// CHECK-NEXT:     [[V6:%[0-9]+]] = hlo.convert [[V5]] : tensor<2xi8> -> tensor<2xi1>
// CHECK-NEXT:     [[V7:%[0-9]+]] = hlo.get_tuple_element [[V1]][1] : tuple<tensor<2xi8>, tensor<2xi8>>
// CHECK-NEXT:     [[V8:%[0-9]+]] = hlo.tuple [[V6]], [[V7]] : tuple<tensor<2xi1>, tensor<2xi8>>
// CHECK-NEXT:     [[V9:%[0-9]+]] = hlo.convert %a : tensor<2xi32> -> tensor<2xi64>
// CHECK-NEXT:     [[V10:%[0-9]+]] = hlo.convert %u : tensor<2xui32> -> tensor<2xi64>
// CHECK-NEXT:     [[V11:%[0-9]+]] = hlo.all_reduce([[V9]], [[V10]]) replica_groups = [[0, 1]] {
// CHECK-NEXT:     ^bb0([[V12:%[0-9]+]]: tensor<i64>, [[V13:%[0-9]+]]: tensor<i64>):
// CHECK-NEXT:       [[V14:%[0-9]+]] = hlo.xor [[V12]], [[V13]] : tensor<i64>
// CHECK-NEXT:       hlo.return [[V14]] : tensor<i64>
// CHECK-NEXT:     } : (tensor<2xi64>, tensor<2xi64>) -> tuple<tensor<2xi64>, tensor<2xi64>>
// CHECK-NEXT:     [[V15:%[0-9]+]] = hlo.get_tuple_element [[V11]][0] : tuple<tensor<2xi64>, tensor<2xi64>>
// CHECK-NEXT:     [[V16:%[0-9]+]] = hlo.convert [[V15]] : tensor<2xi64> -> tensor<2xi32>
// CHECK-NEXT:     [[V17:%[0-9]+]] = hlo.get_tuple_element [[V11]][1] : tuple<tensor<2xi64>, tensor<2xi64>>
// CHECK-NEXT:     [[V18:%[0-9]+]] = hlo.convert [[V17]] : tensor<2xi64> -> tensor<2xui32>
// CHECK-NEXT:     [[V19:%[0-9]+]] = hlo.tuple [[V16]], [[V18]] : tuple<tensor<2xi32>, tensor<2xui32>>
// CHECK-NEXT:     func.return %and_f, [[V8]], [[V19]] : tuple<tensor<2xi32>, tensor<2xf32>>, tuple<tensor<2xi1>, tensor<2xi8>>, tuple<tensor<2xi32>, tensor<2xui32>>
// CHECK-NEXT:   }

// -----

// A reducer that is not a simple elementwise op of its two arguments: unchanged, with a
// remark naming the collective (no warning).
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @not_simple(%a: tensor<2xf32>, %b: tensor<2xbf16>) -> tuple<tensor<2xf32>, tensor<2xbf16>> {
    %sum_of_squares = hlo.all_reduce(%a, %b) replica_groups = [[0, 1]] {
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %yy = hlo.multiply %y, %y : tensor<f32>
      %s = hlo.add %x, %yy : tensor<f32>
      hlo.return %s : tensor<f32>
    } : (tensor<2xf32>, tensor<2xbf16>) -> tuple<tensor<2xf32>, tensor<2xbf16>>
    func.return %sum_of_squares : tuple<tensor<2xf32>, tensor<2xbf16>>
  }
}
// WARN: // {{-----}}
// WARN-NEXT: remark: legalize-ccops-for-tensorizer: %sum_of_squares not legalized: its reduction region is not a simple elementwise reducer
// WARN-NEXT: builtin.module
// LOSSY: // {{-----}}
// LOSSY-NEXT: remark: legalize-ccops-for-tensorizer: %sum_of_squares not legalized: its reduction region is not a simple elementwise reducer
// LOSSY-NEXT: builtin.module
// LOSSY-NEXT: func.func @not_simple(%a: tensor<2xf32>, %b: tensor<2xbf16>) -> tuple<tensor<2xf32>, tensor<2xbf16>> {

// CHECK-LABEL: func.func @not_simple(%a: tensor<2xf32>, %b: tensor<2xbf16>) -> tuple<tensor<2xf32>, tensor<2xbf16>> {
// CHECK-NEXT:     %sum_of_squares = hlo.all_reduce(%a, %b) replica_groups = [[0, 1]] {
// CHECK-NEXT:     ^bb0(%x: tensor<f32>, %y: tensor<f32>):
// CHECK-NEXT:       %yy = hlo.multiply %y, %y : tensor<f32>
// CHECK-NEXT:       %s = hlo.add %x, %yy : tensor<f32>
// CHECK-NEXT:       hlo.return %s : tensor<f32>
// CHECK-NEXT:     } : (tensor<2xf32>, tensor<2xbf16>) -> tuple<tensor<2xf32>, tensor<2xbf16>>
// CHECK-NEXT:     func.return %sum_of_squares : tuple<tensor<2xf32>, tensor<2xbf16>>
// CHECK-NEXT:   }

// -----

// Several mixed collectives in every function and nested region (the pass always looks at the
// whole module): a while body, another function, three operands. Uniform-type tuples and
// single-operand collectives are left alone. Exactly ONE warning for the whole module.
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @helper(%h: tensor<2xf32>, %k: tensor<2xbf16>) -> tuple<tensor<4xf32>, tensor<4xbf16>> {
    %hg = hlo.all_gather(%h, %k) dim = 0 replica_groups = [[0, 1]] : (tensor<2xf32>, tensor<2xbf16>) -> tuple<tensor<4xf32>, tensor<4xbf16>>
    func.return %hg : tuple<tensor<4xf32>, tensor<4xbf16>>
  }
  func.func @main(%v: tensor<2xf32>, %w: tensor<2xbf16>) -> (tuple<tensor<2xf32>, tensor<2xbf16>>, tuple<tensor<2xf32>, tensor<2xbf16>, tensor<2xf32>>, tuple<tensor<2xf32>, tensor<2xf32>>, tensor<2xbf16>) {
    %init = hlo.tuple %v, %w : tuple<tensor<2xf32>, tensor<2xbf16>>
    %loop = hlo.while(%init) : tuple<tensor<2xf32>, tensor<2xbf16>> condition {
    ^bb0(%cs: tuple<tensor<2xf32>, tensor<2xbf16>>):
      %go = hlo.custom_call "keep_going"(%cs) : (tuple<tensor<2xf32>, tensor<2xbf16>>) -> tensor<i1>
      hlo.return %go : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<2xf32>, tensor<2xbf16>>):
      %e0 = hlo.get_tuple_element %bs[0] : tuple<tensor<2xf32>, tensor<2xbf16>>
      %e1 = hlo.get_tuple_element %bs[1] : tuple<tensor<2xf32>, tensor<2xbf16>>
      %inner = hlo.all_reduce(%e0, %e1) replica_groups = [[0, 1]] {
      ^bb0(%x: tensor<bf16>, %y: tensor<bf16>):
        %s = hlo.add %x, %y : tensor<bf16>
        hlo.return %s : tensor<bf16>
      } : (tensor<2xf32>, tensor<2xbf16>) -> tuple<tensor<2xf32>, tensor<2xbf16>>
      hlo.return %inner : tuple<tensor<2xf32>, tensor<2xbf16>>
    }
    %three = hlo.all_reduce(%v, %w, %v) replica_groups = [[0, 1]] {
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %m = hlo.maximum %x, %y : tensor<f32>
      hlo.return %m : tensor<f32>
    } : (tensor<2xf32>, tensor<2xbf16>, tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xbf16>, tensor<2xf32>>
    %same = hlo.all_reduce(%v, %v) replica_groups = [[0, 1]] {
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = hlo.add %x, %y : tensor<f32>
      hlo.return %s : tensor<f32>
    } : (tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>>
    %single = hlo.all_reduce(%w) replica_groups = [[0, 1]] {
    ^bb0(%x: tensor<bf16>, %y: tensor<bf16>):
      %s = hlo.add %x, %y : tensor<bf16>
      hlo.return %s : tensor<bf16>
    } : (tensor<2xbf16>) -> tensor<2xbf16>
    func.return %loop, %three, %same, %single : tuple<tensor<2xf32>, tensor<2xbf16>>, tuple<tensor<2xf32>, tensor<2xbf16>, tensor<2xf32>>, tuple<tensor<2xf32>, tensor<2xf32>>, tensor<2xbf16>
  }
}
// WARN: // {{-----}}
// WARN-NEXT: warning: We up-casted some collective-communication ops to ensure that all operands have the same type. This may result in a performance penalty.
// WARN-NEXT: builtin.module
// LOSSY: // {{-----}}
// LOSSY-NEXT: warning: We up-casted some collective-communication ops to ensure that all operands have the same type. This may result in a performance penalty.
// LOSSY-NEXT: builtin.module
// LOSSY-NEXT: func.func @helper(%h: tensor<2xf32>, %k: tensor<2xbf16>) -> tuple<tensor<4xf32>, tensor<4xbf16>> {

// CHECK-LABEL: func.func @helper(%h: tensor<2xf32>, %k: tensor<2xbf16>) -> tuple<tensor<4xf32>, tensor<4xbf16>> {
// CHECK-NEXT:     [[V0:%[0-9]+]] = hlo.convert %k : tensor<2xbf16> -> tensor<2xf32>
// CHECK-NEXT:     [[V1:%[0-9]+]] = hlo.all_gather(%h, [[V0]]) dim = 0 replica_groups = [[0, 1]] : (tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     [[V2:%[0-9]+]] = hlo.get_tuple_element [[V1]][0] : tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     [[V3:%[0-9]+]] = hlo.get_tuple_element [[V1]][1] : tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     [[V4:%[0-9]+]] = hlo.convert [[V3]] : tensor<4xf32> -> tensor<4xbf16>
// CHECK-NEXT:     [[V5:%[0-9]+]] = hlo.tuple [[V2]], [[V4]] : tuple<tensor<4xf32>, tensor<4xbf16>>
// CHECK-NEXT:     func.return [[V5]] : tuple<tensor<4xf32>, tensor<4xbf16>>
// CHECK-NEXT:   }
// CHECK-LABEL: func.func @main(%v: tensor<2xf32>, %w: tensor<2xbf16>) -> (tuple<tensor<2xf32>, tensor<2xbf16>>, tuple<tensor<2xf32>, tensor<2xbf16>, tensor<2xf32>>, tuple<tensor<2xf32>, tensor<2xf32>>, tensor<2xbf16>) {
// CHECK-NEXT:     %init = hlo.tuple %v, %w : tuple<tensor<2xf32>, tensor<2xbf16>>
// CHECK-NEXT:     %loop = hlo.while(%init) : tuple<tensor<2xf32>, tensor<2xbf16>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<2xf32>, tensor<2xbf16>>):
// CHECK-NEXT:       %go = hlo.custom_call "keep_going"(%cs) : (tuple<tensor<2xf32>, tensor<2xbf16>>) -> tensor<i1>
// CHECK-NEXT:       hlo.return %go : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<2xf32>, tensor<2xbf16>>):
// CHECK-NEXT:       %e0 = hlo.get_tuple_element %bs[0] : tuple<tensor<2xf32>, tensor<2xbf16>>
// CHECK-NEXT:       %e1 = hlo.get_tuple_element %bs[1] : tuple<tensor<2xf32>, tensor<2xbf16>>
// CHECK-NEXT:       [[V0:%[0-9]+]] = hlo.convert %e1 : tensor<2xbf16> -> tensor<2xf32>
// CHECK-NEXT:       [[V1:%[0-9]+]] = hlo.all_reduce(%e0, [[V0]]) replica_groups = [[0, 1]] {
// CHECK-NEXT:       ^bb0([[V2]]: tensor<f32>, [[V3]]: tensor<f32>):
// CHECK-NEXT:         [[V4:%[0-9]+]] = hlo.add [[V2]], [[V3]] : tensor<f32>
// CHECK-NEXT:         hlo.return [[V4]] : tensor<f32>
// CHECK-NEXT:       } : (tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:       [[V5:%[0-9]+]] = hlo.get_tuple_element [[V1]][0] : tuple<tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:       [[V6:%[0-9]+]] = hlo.get_tuple_element [[V1]][1] : tuple<tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:       [[V7:%[0-9]+]] = hlo.convert [[V6]] : tensor<2xf32> -> tensor<2xbf16>
// CHECK-NEXT:       [[V8:%[0-9]+]] = hlo.tuple [[V5]], [[V7]] : tuple<tensor<2xf32>, tensor<2xbf16>>
// CHECK-NEXT:       hlo.return [[V8]] : tuple<tensor<2xf32>, tensor<2xbf16>>
// CHECK-NEXT:     }
// CHECK-NEXT:     [[V9:%[0-9]+]] = hlo.convert %w : tensor<2xbf16> -> tensor<2xf32>
// CHECK-NEXT:     [[V10:%[0-9]+]] = hlo.all_reduce(%v, [[V9]], %v) replica_groups = [[0, 1]] {
// CHECK-NEXT:     ^bb0([[V11]]: tensor<f32>, [[V12]]: tensor<f32>):
// CHECK-NEXT:       [[V13:%[0-9]+]] = hlo.maximum [[V11]], [[V12]] : tensor<f32>
// CHECK-NEXT:       hlo.return [[V13]] : tensor<f32>
// CHECK-NEXT:     } : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:     [[V14:%[0-9]+]] = hlo.get_tuple_element [[V10]][0] : tuple<tensor<2xf32>, tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:     [[V15:%[0-9]+]] = hlo.get_tuple_element [[V10]][1] : tuple<tensor<2xf32>, tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:     [[V16:%[0-9]+]] = hlo.convert [[V15]] : tensor<2xf32> -> tensor<2xbf16>
// CHECK-NEXT:     [[V17:%[0-9]+]] = hlo.get_tuple_element [[V10]][2] : tuple<tensor<2xf32>, tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:     [[V18:%[0-9]+]] = hlo.tuple [[V14]], [[V16]], [[V17]] : tuple<tensor<2xf32>, tensor<2xbf16>, tensor<2xf32>>
// CHECK-NEXT:     %same = hlo.all_reduce(%v, %v) replica_groups = [[0, 1]] {
// CHECK-NEXT:     ^bb0(%x: tensor<f32>, %y: tensor<f32>):
// CHECK-NEXT:       %s = hlo.add %x, %y : tensor<f32>
// CHECK-NEXT:       hlo.return %s : tensor<f32>
// CHECK-NEXT:     } : (tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:     %single = hlo.all_reduce(%w) replica_groups = [[0, 1]] {
// CHECK-NEXT:     ^bb0(%x_1: tensor<bf16>, %y_1: tensor<bf16>):
// CHECK-NEXT:       %s_1 = hlo.add %x_1, %y_1 : tensor<bf16>
// CHECK-NEXT:       hlo.return %s_1 : tensor<bf16>
// CHECK-NEXT:     } : (tensor<2xbf16>) -> tensor<2xbf16>
// CHECK-NEXT:     func.return %loop, [[V18]], %same, %single : tuple<tensor<2xf32>, tensor<2xbf16>>, tuple<tensor<2xf32>, tensor<2xbf16>, tensor<2xf32>>, tuple<tensor<2xf32>, tensor<2xf32>>, tensor<2xbf16>
// CHECK-NEXT:   }

// -----

// No entry computation (two functions, neither marked hlo.entry nor named main).
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%a: tensor<2xf32>, %b: tensor<2xbf16>) -> tuple<tensor<4xf32>, tensor<4xbf16>> {
    %g = hlo.all_gather(%a, %b) dim = 0 replica_groups = [[0, 1]] : (tensor<2xf32>, tensor<2xbf16>) -> tuple<tensor<4xf32>, tensor<4xbf16>>
    func.return %g : tuple<tensor<4xf32>, tensor<4xbf16>>
  }
  func.func @g(%a: tensor<2xf32>) -> tensor<2xf32> {
    func.return %a : tensor<2xf32>
  }
}
// WARN: // {{-----}}
// WARN-NEXT: module has no entry computation
// WARN-NOT: {{warning|remark}}:
// LOSSY: // {{-----}}
// LOSSY-NEXT: module has no entry computation
// LOSSY-NOT: {{warning|remark}}:

// CHECK: module has no entry computation
// ERR: error: module has no entry computation
