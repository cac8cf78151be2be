// RUN: neuron-opt %s --split-input-file --verify-diagnostics -p legalize-ccops-for-tensorizer | filecheck %s
// RUN: env PYTHONUNBUFFERED=1 neuron-opt %s --split-input-file --verify-diagnostics -p legalize-ccops-for-tensorizer 2>&1 | filecheck %s --check-prefix=WARN
// RUN: not neuron-opt %s --split-input-file -p legalize-ccops-for-tensorizer 2>&1 | filecheck %s --check-prefix=ERR

// legalize-ccops-for-tensorizer gives all operands of a mixed-type all_gather / all_reduce /
// reduce_scatter (in every function and nested region) one element type: convert up, rebuild
// the collective at the wide type, convert each result back where it was up-cast.
//
// The WARN run merges stderr into stdout, unbuffered, so each case's diagnostics come right
// after its chunk separator and before its `builtin.module` line: WARN-NEXT chains pin
// exactly which warning / remark lines each case prints (one warning per module at most,
// however many collectives were rewritten; none when nothing changed).
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

// The worked example: f32 + bf16 -> f32. Only the bf16 operand is converted; the collective
// is rebuilt with f32 operands and a fresh f32 `add` reducer, element 0 is kept as it is and
// element 1 converted back to bf16. New ops carry no name hints; users see the new tuple.
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

// CHECK-LABEL: func.func @main(%a: tensor<4xf32>, %b: tensor<4xbf16>) -> (tensor<4xbf16>, tuple<tensor<4xf32>, tensor<4xbf16>>) {
// CHECK-NEXT:     %0 = hlo.convert %b : tensor<4xbf16> -> tensor<4xf32>
// CHECK-NEXT:     %1 = hlo.all_reduce(%a, %0) replica_groups = [[0, 1, 2, 3]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%2: tensor<f32>, %3: tensor<f32>):
// CHECK-NEXT:       %4 = hlo.add %2, %3 : tensor<f32>
// CHECK-NEXT:       hlo.return %4 : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %5 = hlo.get_tuple_element %1[0] : tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %6 = hlo.get_tuple_element %1[1] : tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %7 = hlo.convert %6 : tensor<4xf32> -> tensor<4xbf16>
// CHECK-NEXT:     %8 = hlo.tuple %5, %7 : tuple<tensor<4xf32>, tensor<4xbf16>>
// CHECK-NEXT:     %r1 = hlo.get_tuple_element %8[1] : tuple<tensor<4xf32>, tensor<4xbf16>>
// CHECK-NEXT:     func.return %r1, %8 : tensor<4xbf16>, tuple<tensor<4xf32>, tensor<4xbf16>>
// CHECK-NEXT:   }

// -----

// Different widths: s64 + f32 -> s64 (the widest). The f32 `maximum` reducer is rebuilt at i64.
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
// WARN-NEXT: warning: We up-casted some collective-communication ops to ensure that all operands have the same type. This may result in a performance penalty.
// WARN-NEXT: builtin.module

// CHECK-LABEL: func.func @s64_f32(%a: tensor<2xi64>, %b: tensor<3xf32>) -> tuple<tensor<2xi64>, tensor<3xf32>> {
// CHECK-NEXT:     %0 = hlo.convert %b : tensor<3xf32> -> tensor<3xi64>
// CHECK-NEXT:     %1 = hlo.all_reduce(%a, %0) replica_groups = [[0, 1]] {
// CHECK-NEXT:     ^bb0(%2: tensor<i64>, %3: tensor<i64>):
// CHECK-NEXT:       %4 = hlo.maximum %2, %3 : tensor<i64>
// CHECK-NEXT:       hlo.return %4 : tensor<i64>
// CHECK-NEXT:     } : (tensor<2xi64>, tensor<3xi64>) -> tuple<tensor<2xi64>, tensor<3xi64>>
// CHECK-NEXT:     %5 = hlo.get_tuple_element %1[0] : tuple<tensor<2xi64>, tensor<3xi64>>
// CHECK-NEXT:     %6 = hlo.get_tuple_element %1[1] : tuple<tensor<2xi64>, tensor<3xi64>>
// CHECK-NEXT:     %7 = hlo.convert %6 : tensor<3xi64> -> tensor<3xf32>
// CHECK-NEXT:     %8 = hlo.tuple %5, %7 : tuple<tensor<2xi64>, tensor<3xf32>>
// CHECK-NEXT:     func.return %8 : tuple<tensor<2xi64>, tensor<3xf32>>
// CHECK-NEXT:   }

// -----

// Different widths: s8 + pred -> s8, on an all_gather (no reducer).
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @s8_pred(%a: tensor<2xi8>, %b: tensor<2xi1>) -> tuple<tensor<4xi8>, tensor<4xi1>> {
    %g = hlo.all_gather(%a, %b) dim = 0 replica_groups = [[0, 1]] channel_id = 7 : (tensor<2xi8>, tensor<2xi1>) -> tuple<tensor<4xi8>, tensor<4xi1>>
    func.return %g : tuple<tensor<4xi8>, tensor<4xi1>>
  }
}
// WARN: // {{-----}}
// WARN-NEXT: warning: We up-casted some collective-communication ops to ensure that all operands have the same type. This may result in a performance penalty.
// WARN-NEXT: builtin.module

// CHECK-LABEL: func.func @s8_pred(%a: tensor<2xi8>, %b: tensor<2xi1>) -> tuple<tensor<4xi8>, tensor<4xi1>> {
// CHECK-NEXT:     %0 = hlo.convert %b : tensor<2xi1> -> tensor<2xi8>
// CHECK-NEXT:     %1 = hlo.all_gather(%a, %0) dim = 0 replica_groups = [[0, 1]] channel_id = 7 : (tensor<2xi8>, tensor<2xi8>) -> tuple<tensor<4xi8>, tensor<4xi8>>
// CHECK-NEXT:     %2 = hlo.get_tuple_element %1[0] : tuple<tensor<4xi8>, tensor<4xi8>>
// CHECK-NEXT:     %3 = hlo.get_tuple_element %1[1] : tuple<tensor<4xi8>, tensor<4xi8>>
// CHECK-NEXT:     %4 = hlo.convert %3 : tensor<4xi8> -> tensor<4xi1>
// CHECK-NEXT:     %5 = hlo.tuple %2, %4 : tuple<tensor<4xi8>, tensor<4xi1>>
// CHECK-NEXT:     func.return %5 : tuple<tensor<4xi8>, tensor<4xi1>>
// CHECK-NEXT:   }

// -----

// Same width, one float: f32 + s32 -> f32, on a reduce_scatter whose reducer is typed i32.
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

// CHECK-LABEL: func.func @f32_s32(%a: tensor<4x2xi32>, %b: tensor<4xf32>) -> tuple<tensor<2x2xi32>, tensor<2xf32>> {
// CHECK-NEXT:     %0 = hlo.convert %a : tensor<4x2xi32> -> tensor<4x2xf32>
// CHECK-NEXT:     %1 = hlo.reduce_scatter(%0, %b) dim = 0 replica_groups = [[0, 1]] {
// CHECK-NEXT:     ^bb0(%2: tensor<f32>, %3: tensor<f32>):
// CHECK-NEXT:       %4 = hlo.add %2, %3 : tensor<f32>
// CHECK-NEXT:       hlo.return %4 : tensor<f32>
// CHECK-NEXT:     } : (tensor<4x2xf32>, tensor<4xf32>) -> tuple<tensor<2x2xf32>, tensor<2xf32>>
// CHECK-NEXT:     %5 = hlo.get_tuple_element %1[0] : tuple<tensor<2x2xf32>, tensor<2xf32>>
// CHECK-NEXT:     %6 = hlo.convert %5 : tensor<2x2xf32> -> tensor<2x2xi32>
// CHECK-NEXT:     %7 = hlo.get_tuple_element %1[1] : tuple<tensor<2x2xf32>, tensor<2xf32>>
// CHECK-NEXT:     %8 = hlo.tuple %6, %7 : tuple<tensor<2x2xi32>, tensor<2xf32>>
// CHECK-NEXT:     func.return %8 : tuple<tensor<2x2xi32>, tensor<2xf32>>
// CHECK-NEXT:   }

// -----

// Same width, one float: bf16 + s16 -> bf16.
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

// CHECK-LABEL: func.func @bf16_s16(%a: tensor<2xbf16>, %b: tensor<2xi16>) -> tuple<tensor<2xbf16>, tensor<2xi16>> {
// CHECK-NEXT:     %0 = hlo.convert %b : tensor<2xi16> -> tensor<2xbf16>
// CHECK-NEXT:     %1 = hlo.all_reduce(%a, %0) replica_groups = [[0, 1]] {
// CHECK-NEXT:     ^bb0(%2: tensor<bf16>, %3: tensor<bf16>):
// CHECK-NEXT:       %4 = hlo.add %2, %3 : tensor<bf16>
// CHECK-NEXT:       hlo.return %4 : tensor<bf16>
// CHECK-NEXT:     } : (tensor<2xbf16>, tensor<2xbf16>) -> tuple<tensor<2xbf16>, tensor<2xbf16>>
// CHECK-NEXT:     %5 = hlo.get_tuple_element %1[0] : tuple<tensor<2xbf16>, tensor<2xbf16>>
// CHECK-NEXT:     %6 = hlo.get_tuple_element %1[1] : tuple<tensor<2xbf16>, tensor<2xbf16>>
// CHECK-NEXT:     %7 = hlo.convert %6 : tensor<2xbf16> -> tensor<2xi16>
// CHECK-NEXT:     %8 = hlo.tuple %5, %7 : tuple<tensor<2xbf16>, tensor<2xi16>>
// CHECK-NEXT:     func.return %8 : tuple<tensor<2xbf16>, tensor<2xi16>>
// CHECK-NEXT:   }

// -----

// f16 + bf16 -> f32: neither represents the other, so BOTH operands are converted.
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

// CHECK-LABEL: func.func @f16_bf16(%a: tensor<2xf16>, %b: tensor<2xbf16>) -> tuple<tensor<2xf16>, tensor<2xbf16>> {
// CHECK-NEXT:     %0 = hlo.convert %a : tensor<2xf16> -> tensor<2xf32>
// CHECK-NEXT:     %1 = hlo.convert %b : tensor<2xbf16> -> tensor<2xf32>
// CHECK-NEXT:     %2 = hlo.all_reduce(%0, %1) replica_groups = [[0, 1]] {
// CHECK-NEXT:     ^bb0(%3: tensor<f32>, %4: tensor<f32>):
// CHECK-NEXT:       %5 = hlo.add %3, %4 : tensor<f32>
// CHECK-NEXT:       hlo.return %5 : tensor<f32>
// CHECK-NEXT:     } : (tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:     %6 = hlo.get_tuple_element %2[0] : tuple<tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:     %7 = hlo.convert %6 : tensor<2xf32> -> tensor<2xf16>
// CHECK-NEXT:     %8 = hlo.get_tuple_element %2[1] : tuple<tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:     %9 = hlo.convert %8 : tensor<2xf32> -> tensor<2xbf16>
// CHECK-NEXT:     %10 = hlo.tuple %7, %9 : tuple<tensor<2xf16>, tensor<2xbf16>>
// CHECK-NEXT:     func.return %10 : tuple<tensor<2xf16>, tensor<2xbf16>>
// CHECK-NEXT:   }

// -----

// Same-width signed + unsigned: s32 + u32 -> i64 (signless 64-bit, XLA's s64); both converted.
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

// CHECK-LABEL: func.func @s32_u32(%a: tensor<2xi32>, %b: tensor<2xui32>) -> tuple<tensor<2xi32>, tensor<2xui32>> {
// CHECK-NEXT:     %0 = hlo.convert %a : tensor<2xi32> -> tensor<2xi64>
// CHECK-NEXT:     %1 = hlo.convert %b : tensor<2xui32> -> tensor<2xi64>
// CHECK-NEXT:     %2 = hlo.all_reduce(%0, %1) replica_groups = [[0, 1]] {
// CHECK-NEXT:     ^bb0(%3: tensor<i64>, %4: tensor<i64>):
// CHECK-NEXT:       %5 = hlo.add %3, %4 : tensor<i64>
// CHECK-NEXT:       hlo.return %5 : tensor<i64>
// CHECK-NEXT:     } : (tensor<2xi64>, tensor<2xi64>) -> tuple<tensor<2xi64>, tensor<2xi64>>
// CHECK-NEXT:     %6 = hlo.get_tuple_element %2[0] : tuple<tensor<2xi64>, tensor<2xi64>>
// CHECK-NEXT:     %7 = hlo.convert %6 : tensor<2xi64> -> tensor<2xi32>
// CHECK-NEXT:     %8 = hlo.get_tuple_element %2[1] : tuple<tensor<2xi64>, tensor<2xi64>>
// CHECK-NEXT:     %9 = hlo.convert %8 : tensor<2xi64> -> tensor<2xui32>
// CHECK-NEXT:     %10 = hlo.tuple %7, %9 : tuple<tensor<2xi32>, tensor<2xui32>>
// CHECK-NEXT:     func.return %10 : tuple<tensor<2xi32>, tensor<2xui32>>
// CHECK-NEXT:   }

// -----

// s64 + u64: no supported type represents both; unchanged, with a remark (and no warning).
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
// WARN-NEXT: remark: legalize-ccops-for-tensorizer: %r not legalized: no type represents s64, u64 exactly
// WARN-NEXT: builtin.module

// CHECK-LABEL: func.func @s64_u64(%a: tensor<2xi64>, %b: tensor<2xui64>) -> tuple<tensor<2xi64>, tensor<2xui64>> {
// CHECK-NEXT:     %r = hlo.all_reduce(%a, %b) replica_groups = [[0, 1]] {
// CHECK-NEXT:     ^bb0(%x: tensor<i64>, %y: tensor<i64>):
// CHECK-NEXT:       %s = hlo.add %x, %y : tensor<i64>
// CHECK-NEXT:       hlo.return %s : tensor<i64>
// CHECK-NEXT:     } : (tensor<2xi64>, tensor<2xui64>) -> tuple<tensor<2xi64>, tensor<2xui64>>
// CHECK-NEXT:     func.return %r : tuple<tensor<2xi64>, tensor<2xui64>>
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

// CHECK-LABEL: func.func @helper(%h: tensor<2xf32>, %k: tensor<2xbf16>) -> tuple<tensor<4xf32>, tensor<4xbf16>> {
// CHECK-NEXT:     %0 = hlo.convert %k : tensor<2xbf16> -> tensor<2xf32>
// CHECK-NEXT:     %1 = hlo.all_gather(%h, %0) dim = 0 replica_groups = [[0, 1]] : (tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %2 = hlo.get_tuple_element %1[0] : tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %3 = hlo.get_tuple_element %1[1] : tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %4 = hlo.convert %3 : tensor<4xf32> -> tensor<4xbf16>
// CHECK-NEXT:     %5 = hlo.tuple %2, %4 : tuple<tensor<4xf32>, tensor<4xbf16>>
// CHECK-NEXT:     func.return %5 : tuple<tensor<4xf32>, tensor<4xbf16>>
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
// CHECK-NEXT:       %0 = hlo.convert %e1 : tensor<2xbf16> -> tensor<2xf32>
// CHECK-NEXT:       %1 = hlo.all_reduce(%e0, %0) replica_groups = [[0, 1]] {
// CHECK-NEXT:       ^bb0(%2: tensor<f32>, %3: tensor<f32>):
// CHECK-NEXT:         %4 = hlo.add %2, %3 : tensor<f32>
// CHECK-NEXT:         hlo.return %4 : tensor<f32>
// CHECK-NEXT:       } : (tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:       %5 = hlo.get_tuple_element %1[0] : tuple<tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:       %6 = hlo.get_tuple_element %1[1] : tuple<tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:       %7 = hlo.convert %6 : tensor<2xf32> -> tensor<2xbf16>
// CHECK-NEXT:       %8 = hlo.tuple %5, %7 : tuple<tensor<2xf32>, tensor<2xbf16>>
// CHECK-NEXT:       hlo.return %8 : tuple<tensor<2xf32>, tensor<2xbf16>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %9 = hlo.convert %w : tensor<2xbf16> -> tensor<2xf32>
// CHECK-NEXT:     %10 = hlo.all_reduce(%v, %9, %v) replica_groups = [[0, 1]] {
// CHECK-NEXT:     ^bb0(%11: tensor<f32>, %12: tensor<f32>):
// CHECK-NEXT:       %13 = hlo.maximum %11, %12 : tensor<f32>
// CHECK-NEXT:       hlo.return %13 : tensor<f32>
// CHECK-NEXT:     } : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:     %14 = hlo.get_tuple_element %10[0] : tuple<tensor<2xf32>, tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:     %15 = hlo.get_tuple_element %10[1] : tuple<tensor<2xf32>, tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:     %16 = hlo.convert %15 : tensor<2xf32> -> tensor<2xbf16>
// CHECK-NEXT:     %17 = hlo.get_tuple_element %10[2] : tuple<tensor<2xf32>, tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:     %18 = hlo.tuple %14, %16, %17 : tuple<tensor<2xf32>, tensor<2xbf16>, tensor<2xf32>>
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
// CHECK-NEXT:     func.return %loop, %18, %same, %single : tuple<tensor<2xf32>, tensor<2xbf16>>, tuple<tensor<2xf32>, tensor<2xbf16>, tensor<2xf32>>, tuple<tensor<2xf32>, tensor<2xf32>>, tensor<2xbf16>
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

// CHECK: module has no entry computation
// ERR: error: module has no entry computation
