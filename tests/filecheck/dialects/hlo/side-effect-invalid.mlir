// RUN: neuron-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

// One case per verifier rule of ragged_all_to_all, add_dependency, domain, copy_start/done,
// infeed/outfeed and the RNG ops, each checking its message.

// Ragged all-to-all group id out of range.
// CHECK: replica group 0 contains id 2 outside [0, 2) (cross_replica mode, 2 replicas x 1 partitions)
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%a0: tensor<4x2xf32>, %a1: tensor<6x2xf32>, %a2: tensor<2xi32>, %a3: tensor<2xi32>, %a4: tensor<2xi32>, %a5: tensor<2xi32>) {
    %r = hlo.ragged_all_to_all %a0, %a1, %a2, %a3, %a4, %a5 replica_groups = [[0, 2]] : (tensor<4x2xf32>, tensor<6x2xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<6x2xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Ragged all-to-all output of rank 0.
// CHECK-NEXT: ragged_all_to_all output must have rank at least 1
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%a0: tensor<f32>, %a1: tensor<f32>, %a2: tensor<2xi32>, %a3: tensor<2xi32>, %a4: tensor<2xi32>, %a5: tensor<2xi32>) {
    %r = hlo.ragged_all_to_all %a0, %a1, %a2, %a3, %a4, %a5 replica_groups = [[0, 1]] : (tensor<f32>, tensor<f32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<f32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Ragged all-to-all input and output element types differ.
// CHECK-NEXT: ragged_all_to_all input tensor<4x2xf16> and output tensor<6x2xf32> must have one element type and rank
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%a0: tensor<4x2xf16>, %a1: tensor<6x2xf32>, %a2: tensor<2xi32>, %a3: tensor<2xi32>, %a4: tensor<2xi32>, %a5: tensor<2xi32>) {
    %r = hlo.ragged_all_to_all %a0, %a1, %a2, %a3, %a4, %a5 replica_groups = [[0, 1]] : (tensor<4x2xf16>, tensor<6x2xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<6x2xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Ragged all-to-all input and output differ beyond dimension 0.
// CHECK-NEXT: ragged_all_to_all input tensor<4x3xf32> and output tensor<6x2xf32> must agree beyond dimension 0
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%a0: tensor<4x3xf32>, %a1: tensor<6x2xf32>, %a2: tensor<2xi32>, %a3: tensor<2xi32>, %a4: tensor<2xi32>, %a5: tensor<2xi32>) {
    %r = hlo.ragged_all_to_all %a0, %a1, %a2, %a3, %a4, %a5 replica_groups = [[0, 1]] : (tensor<4x3xf32>, tensor<6x2xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<6x2xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Ragged all-to-all offsets of rank 3.
// CHECK-NEXT: ragged_all_to_all input_offsets must have rank 1 or 2, got tensor<2x1x1xi32>
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%a0: tensor<4x2xf32>, %a1: tensor<6x2xf32>, %a2: tensor<2x1x1xi32>, %a3: tensor<2x1x1xi32>, %a4: tensor<2x1x1xi32>, %a5: tensor<2x1x1xi32>) {
    %r = hlo.ragged_all_to_all %a0, %a1, %a2, %a3, %a4, %a5 replica_groups = [[0, 1]] : (tensor<4x2xf32>, tensor<6x2xf32>, tensor<2x1x1xi32>, tensor<2x1x1xi32>, tensor<2x1x1xi32>, tensor<2x1x1xi32>) -> tensor<6x2xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Ragged all-to-all offsets of a float type.
// CHECK-NEXT: ragged_all_to_all input_offsets must be s32 or s64, got tensor<2xf32>
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%a0: tensor<4x2xf32>, %a1: tensor<6x2xf32>, %a2: tensor<2xf32>, %a3: tensor<2xf32>, %a4: tensor<2xf32>, %a5: tensor<2xf32>) {
    %r = hlo.ragged_all_to_all %a0, %a1, %a2, %a3, %a4, %a5 replica_groups = [[0, 1]] : (tensor<4x2xf32>, tensor<6x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<6x2xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Ragged all-to-all sizes of another shape than the offsets.
// CHECK-NEXT: ragged_all_to_all send_sizes has type tensor<3xi32>, but input_offsets has tensor<2xi32>
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%a0: tensor<4x2xf32>, %a1: tensor<6x2xf32>, %a2: tensor<2xi32>, %a3: tensor<3xi32>, %a4: tensor<2xi32>, %a5: tensor<2xi32>) {
    %r = hlo.ragged_all_to_all %a0, %a1, %a2, %a3, %a4, %a5 replica_groups = [[0, 1]] : (tensor<4x2xf32>, tensor<6x2xf32>, tensor<2xi32>, tensor<3xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<6x2xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Ragged all-to-all result is not the output's type.
// CHECK-NEXT: ragged_all_to_all result must have the output's type tensor<6x2xf32>, got tensor<4x2xf32>
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%a0: tensor<4x2xf32>, %a1: tensor<6x2xf32>, %a2: tensor<2xi32>, %a3: tensor<2xi32>, %a4: tensor<2xi32>, %a5: tensor<2xi32>) {
    %r = hlo.ragged_all_to_all %a0, %a1, %a2, %a3, %a4, %a5 replica_groups = [[0, 1]] : (tensor<4x2xf32>, tensor<6x2xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<4x2xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Add dependency changes the type.
// CHECK-NEXT: result 'result' at position 0 does not verify:
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<2xf32>, %t: !hlo.token) {
    %y = "hlo.add_dependency"(%x, %t) : (tensor<2xf32>, !hlo.token) -> tensor<3xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Add dependency on a non-token.
// CHECK-NEXT: operand 'token' at position 1 does not verify:
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<2xf32>) {
    %y = "hlo.add_dependency"(%x, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Domain of a token.
// CHECK-NEXT: domain operand must not be a token
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%t: !hlo.token) {
    %y = hlo.domain %t domain = "{kind=\"sharding\"}" : !hlo.token
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Domain attribute without a kind.
// CHECK-NEXT: domain attribute must name a kind, got '{entry={}}'
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<2xf32>) {
    %y = hlo.domain %x domain = "{entry={}}" : tensor<2xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Copy start of a token.
// CHECK-NEXT: copy_start operand must not be a token
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%t: !hlo.token) {
    %s = hlo.copy_start %t : !hlo.token -> tuple<!hlo.token, !hlo.token, tensor<ui32>>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Copy start result of the wrong shape.
// CHECK-NEXT: copy_start result must be tuple<tensor<2xf32>, tensor<2xf32>, tensor<ui32>>, got tuple<tensor<2xf32>, tensor<3xf32>, tensor<ui32>>
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<2xf32>) {
    %s = hlo.copy_start %x : tensor<2xf32> -> tuple<tensor<2xf32>, tensor<3xf32>, tensor<ui32>>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Copy start with a negative cross-program prefetch index.
// CHECK-NEXT: cross_program_prefetch_index must be non-negative, got -1
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%x: tensor<2xf32>) {
    %s = hlo.copy_start %x cross_program_prefetch_index = -1 : tensor<2xf32> -> tuple<tensor<2xf32>, tensor<2xf32>, tensor<ui32>>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Copy done of something else than a copy start.
// CHECK-NEXT: copy_done operand must be a copy_start result (T, T, u32[]), got tuple<tensor<2xf32>, tensor<2xf32>, tensor<i32>>
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%s: tuple<tensor<2xf32>, tensor<2xf32>, tensor<i32>>) {
    %y = hlo.copy_done %s : tuple<tensor<2xf32>, tensor<2xf32>, tensor<i32>> -> tensor<2xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Copy done result of the wrong type.
// CHECK-NEXT: copy_done result must be tensor<2xf32>, got tensor<2xf16>
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%s: tuple<tensor<2xf32>, tensor<2xf32>, tensor<ui32>>) {
    %y = hlo.copy_done %s : tuple<tensor<2xf32>, tensor<2xf32>, tensor<ui32>> -> tensor<2xf16>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Infeed result without a token.
// CHECK-NEXT: infeed result must be (data, token), got tuple<tensor<2xf32>, tensor<2xf32>>
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%t: !hlo.token) {
    %i = hlo.infeed %t : tuple<tensor<2xf32>, tensor<2xf32>>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Infeed data holding a token.
// CHECK-NEXT: infeed data must not contain a token, got tuple<!hlo.token>
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%t: !hlo.token) {
    %i = hlo.infeed %t : tuple<tuple<!hlo.token>, !hlo.token>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Outfeed of a token.
// CHECK-NEXT: outfeed data must not contain a token, got !hlo.token
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%t: !hlo.token) {
    %o = hlo.outfeed %t, %t : !hlo.token
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Rng with an unknown distribution.
// CHECK-NEXT: rng distribution must be one of ('rng_uniform', 'rng_normal'), got 'rng_cauchy'
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%a: tensor<f32>) {
    %r = hlo.rng %a, %a distribution = "rng_cauchy" : (tensor<f32>, tensor<f32>) -> tensor<4xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Rng parameters that are not scalars.
// CHECK-NEXT: rng parameters must be scalars, got tensor<2xf32> and tensor<2xf32>
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%a: tensor<2xf32>) {
    %r = hlo.rng %a, %a distribution = "rng_uniform" : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Rng parameters of two types.
// CHECK-NEXT: rng parameters must have one type, got tensor<f32> and tensor<f16>
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%a: tensor<f32>, %b: tensor<f16>) {
    %r = hlo.rng %a, %b distribution = "rng_uniform" : (tensor<f32>, tensor<f16>) -> tensor<4xf32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Rng normal of integers.
// CHECK-NEXT: rng_normal needs floating-point parameters, got tensor<i32>
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%a: tensor<i32>) {
    %r = hlo.rng %a, %a distribution = "rng_normal" : (tensor<i32>, tensor<i32>) -> tensor<4xi32>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Rng uniform of predicates.
// CHECK-NEXT: rng_uniform needs float or integer parameters, got tensor<i1>
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%a: tensor<i1>) {
    %r = hlo.rng %a, %a distribution = "rng_uniform" : (tensor<i1>, tensor<i1>) -> tensor<4xi1>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Rng result of another element type.
// CHECK-NEXT: rng result tensor<4xf16> must have the parameters' element type
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%a: tensor<f32>) {
    %r = hlo.rng %a, %a distribution = "rng_uniform" : (tensor<f32>, tensor<f32>) -> tensor<4xf16>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Rng bit generator with an unknown algorithm.
// CHECK-NEXT: rng_bit_generator algorithm must be one of ('rng_default', 'rng_philox', 'rng_three_fry'), got 'rng_mt'
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%s: tensor<2xui64>) {
    %g = hlo.rng_bit_generator %s algorithm = "rng_mt" : tensor<2xui64> -> tuple<tensor<2xui64>, tensor<4xui32>>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Rng bit generator state that is not u64.
// CHECK-NEXT: rng_bit_generator state must be a rank-1 u64 tensor, got tensor<2xui32>
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%s: tensor<2xui32>) {
    %g = hlo.rng_bit_generator %s algorithm = "rng_default" : tensor<2xui32> -> tuple<tensor<2xui32>, tensor<4xui32>>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Rng bit generator result without the state.
// CHECK-NEXT: rng_bit_generator result must be (state tensor<2xui64>, bits), got tuple<tensor<3xui64>, tensor<4xui32>>
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%s: tensor<2xui64>) {
    %g = hlo.rng_bit_generator %s algorithm = "rng_default" : tensor<2xui64> -> tuple<tensor<3xui64>, tensor<4xui32>>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Rng bit generator of float bits.
// CHECK-NEXT: rng_bit_generator bits must be an integer tensor, got tensor<4xf32>
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%s: tensor<2xui64>) {
    %g = hlo.rng_bit_generator %s algorithm = "rng_default" : tensor<2xui64> -> tuple<tensor<2xui64>, tensor<4xf32>>
    func.return
  }
}

// -----

// CHECK: // {{-----}}
// Rng get and update state of another type.
// CHECK-NEXT: Expected attribute tensor<2xui64> but got tensor<2xui32>
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f() {
    %u = hlo.rng_get_and_update_state delta = 1 : tensor<2xui32>
    func.return
  }
}
