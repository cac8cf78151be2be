// RUN: neuron-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

// hlo.combined_collective_permute (neuron_cc/dialects/hlo/combined_permute.py): the custom
// syntax round-trips, and one case per verifier rule.

// CHECK: %t = hlo.combined_collective_permute(%a, %b) pairs = [[0, 1], [1, 0]] : (tensor<4xf32>, tensor<2xi32>) -> tuple<tensor<4xf32>, tensor<2xi32>>
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%a: tensor<4xf32>, %b: tensor<2xi32>) -> tuple<tensor<4xf32>, tensor<2xi32>> {
    %t = hlo.combined_collective_permute(%a, %b) pairs = [[0, 1], [1, 0]] : (tensor<4xf32>, tensor<2xi32>) -> tuple<tensor<4xf32>, tensor<2xi32>>
    func.return %t : tuple<tensor<4xf32>, tensor<2xi32>>
  }
}

// -----

// CHECK: // {{-----}}
// CHECK-NEXT: a combined collective permute takes two or more operands
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%a: tensor<4xf32>) -> tuple<tensor<4xf32>> {
    %t = hlo.combined_collective_permute(%a) pairs = [[0, 1]] : (tensor<4xf32>) -> tuple<tensor<4xf32>>
    func.return %t : tuple<tensor<4xf32>>
  }
}

// -----

// CHECK: // {{-----}}
// CHECK-NEXT: result must be the tuple of the operand types
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%a: tensor<4xf32>, %b: tensor<2xi32>) -> tuple<tensor<4xf32>, tensor<4xf32>> {
    %t = hlo.combined_collective_permute(%a, %b) pairs = [[0, 1]] : (tensor<4xf32>, tensor<2xi32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
    func.return %t : tuple<tensor<4xf32>, tensor<4xf32>>
  }
}

// -----

// CHECK: // {{-----}}
// CHECK-NEXT: target id 2 is outside [0, 2)
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%a: tensor<4xf32>, %b: tensor<2xi32>) -> tuple<tensor<4xf32>, tensor<2xi32>> {
    %t = hlo.combined_collective_permute(%a, %b) pairs = [[0, 2]] : (tensor<4xf32>, tensor<2xi32>) -> tuple<tensor<4xf32>, tensor<2xi32>>
    func.return %t : tuple<tensor<4xf32>, tensor<2xi32>>
  }
}

// -----

// CHECK: // {{-----}}
// CHECK-NEXT: source id 0 appears in more than one pair
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%a: tensor<4xf32>, %b: tensor<2xi32>) -> tuple<tensor<4xf32>, tensor<2xi32>> {
    %t = hlo.combined_collective_permute(%a, %b) pairs = [[0, 1], [0, 0]] : (tensor<4xf32>, tensor<2xi32>) -> tuple<tensor<4xf32>, tensor<2xi32>>
    func.return %t : tuple<tensor<4xf32>, tensor<2xi32>>
  }
}

// -----

// hlo.in_place_collective_permute (neuron_cc/dialects/hlo/in_place_permute.py): the result is
// the output buffer's type.
// CHECK: // {{-----}}
// CHECK-NEXT: result type tensor<4x2xf32> must be the output buffer's tensor<8x2xf32>
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%i: tensor<4x2xf32>, %o: tensor<8x2xf32>, %t: tuple<tensor<i32>, tensor<i32>>) -> tensor<4x2xf32> {
    %p = "hlo.in_place_collective_permute"(%i, %o, %t, %t) <{source_target_pairs = #hlo.pairs<[[0, 1], [1, 0]]>}> : (tensor<4x2xf32>, tensor<8x2xf32>, tuple<tensor<i32>, tensor<i32>>, tuple<tensor<i32>, tensor<i32>>) -> tensor<4x2xf32>
    func.return %p : tensor<4x2xf32>
  }
}

// -----

// CHECK: // {{-----}}
// CHECK-NEXT: input and output must both be buffers or both tuples
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%i: tuple<tensor<4x2xf32>>, %o: tensor<8x2xf32>, %t: tuple<tensor<i32>, tensor<i32>>) -> tensor<8x2xf32> {
    %p = "hlo.in_place_collective_permute"(%i, %o, %t, %t) <{source_target_pairs = #hlo.pairs<[[0, 1], [1, 0]]>}> : (tuple<tensor<4x2xf32>>, tensor<8x2xf32>, tuple<tensor<i32>, tensor<i32>>, tuple<tensor<i32>, tensor<i32>>) -> tensor<8x2xf32>
    func.return %p : tensor<8x2xf32>
  }
}

// -----

// A source may send several slices (one pair each): repeated ids are allowed, out-of-range not.
// CHECK: // {{-----}}
// CHECK-NEXT: target id 2 is outside [0, 2)
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%i: tensor<4x2xf32>, %o: tensor<8x2xf32>, %t: tuple<tensor<i32>, tensor<i32>>) -> tensor<8x2xf32> {
    %p = "hlo.in_place_collective_permute"(%i, %o, %t, %t) <{source_target_pairs = #hlo.pairs<[[0, 1], [0, 1], [1, 2]]>}> : (tensor<4x2xf32>, tensor<8x2xf32>, tuple<tensor<i32>, tensor<i32>>, tuple<tensor<i32>, tensor<i32>>) -> tensor<8x2xf32>
    func.return %p : tensor<8x2xf32>
  }
}
