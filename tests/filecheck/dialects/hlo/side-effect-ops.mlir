// RUN: neuron-opt %s | neuron-opt | filecheck %s
// RUN: neuron-opt %s --print-op-generic | neuron-opt | filecheck %s
// RUN: neuron-opt %s -p dce | filecheck %s --check-prefix=DCE

// ragged_all_to_all, add_dependency, domain, copy_start/done, infeed/outfeed and the RNG ops,
// round-tripped pretty -> pretty and pretty -> generic -> pretty. DCE keeps the unused
// infeed and RNG ops (they have side effects).

// CHECK: builtin.module attributes {hlo.num_replicas = 2 : i64} {
// CHECK-LABEL: func.func @side_effects(%in: tensor<4x2xf32>, %out: tensor<6x2xf32>, %o: tensor<2xi32>, %seed: tensor<2xui64>, %tok: !hlo.token, %a: tensor<f32>, %b: tensor<f32>) {
// CHECK-NEXT: %r = hlo.ragged_all_to_all %in, %out, %o, %o, %o, %o replica_groups = {{\[\[}}0, 1]] : (tensor<4x2xf32>, tensor<6x2xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<6x2xf32>
// CHECK-NEXT: %d = hlo.add_dependency %r, %tok : tensor<6x2xf32>
// CHECK-NEXT: %m = hlo.domain %d domain = "{kind=\22sharding\22}" : tensor<6x2xf32>
// CHECK-NEXT: %s = hlo.copy_start %m cross_program_prefetch_index = 1 : tensor<6x2xf32> -> tuple<tensor<6x2xf32>, tensor<6x2xf32>, tensor<ui32>>
// CHECK-NEXT: %c = hlo.copy_done %s : tuple<tensor<6x2xf32>, tensor<6x2xf32>, tensor<ui32>> -> tensor<6x2xf32>
// CHECK-NEXT: %i = hlo.infeed %tok : tuple<tensor<3xui32>, !hlo.token>
// CHECK-NEXT: %t = hlo.outfeed %c, %tok : tensor<6x2xf32>
// CHECK-NEXT: %n = hlo.rng %a, %b distribution = "rng_uniform" : (tensor<f32>, tensor<f32>) -> tensor<8xf32>
// CHECK-NEXT: %g = hlo.rng_bit_generator %seed algorithm = "rng_philox" : tensor<2xui64> -> tuple<tensor<2xui64>, tensor<3x4xui32>>
// CHECK-NEXT: %u = hlo.rng_get_and_update_state delta = 16 : tensor<2xui64>
// CHECK-NEXT: func.return
// CHECK-NEXT: }
// CHECK-NEXT: }

// DCE: hlo.infeed
// DCE: hlo.rng 
// DCE: hlo.rng_bit_generator
// DCE: hlo.rng_get_and_update_state
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @side_effects(%in: tensor<4x2xf32>, %out: tensor<6x2xf32>, %o: tensor<2xi32>, %seed: tensor<2xui64>, %tok: !hlo.token, %a: tensor<f32>, %b: tensor<f32>) {
    %r = hlo.ragged_all_to_all %in, %out, %o, %o, %o, %o replica_groups = [[0, 1]] : (tensor<4x2xf32>, tensor<6x2xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<6x2xf32>
    %d = hlo.add_dependency %r, %tok : tensor<6x2xf32>
    %m = hlo.domain %d domain = "{kind=\"sharding\"}" : tensor<6x2xf32>
    %s = hlo.copy_start %m cross_program_prefetch_index = 1 : tensor<6x2xf32> -> tuple<tensor<6x2xf32>, tensor<6x2xf32>, tensor<ui32>>
    %c = hlo.copy_done %s : tuple<tensor<6x2xf32>, tensor<6x2xf32>, tensor<ui32>> -> tensor<6x2xf32>
    %i = hlo.infeed %tok : tuple<tensor<3xui32>, !hlo.token>
    %t = hlo.outfeed %c, %tok : tensor<6x2xf32>
    %n = hlo.rng %a, %b distribution = "rng_uniform" : (tensor<f32>, tensor<f32>) -> tensor<8xf32>
    %g = hlo.rng_bit_generator %seed algorithm = "rng_philox" : tensor<2xui64> -> tuple<tensor<2xui64>, tensor<3x4xui32>>
    %u = hlo.rng_get_and_update_state delta = 16 : tensor<2xui64>
    func.return
  }
}
