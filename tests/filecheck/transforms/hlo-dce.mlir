// RUN: neuron-opt %s --split-input-file -p hlo-dce | filecheck %s

// Unused pure ops are removed, including chains (one reverse walk).
builtin.module {
  func.func @dead_chain(%x: tensor<4xf32>) -> tensor<4xf32> {
    %a = hlo.add %x, %x : tensor<4xf32>
    %b = hlo.multiply %a, %a : tensor<4xf32>
    %c = hlo.exponential %b : tensor<4xf32>
    %k = hlo.constant dense<1.000000e+00> : tensor<4xf32>
    %t = hlo.tuple %c, %k : tuple<tensor<4xf32>, tensor<4xf32>>
    %g = hlo.get_tuple_element %t[0] : tuple<tensor<4xf32>, tensor<4xf32>>
    %live = hlo.negate %x : tensor<4xf32>
    func.return %live : tensor<4xf32>
  }
}
// CHECK-LABEL: func.func @dead_chain(%x: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:    %live = hlo.negate %x : tensor<4xf32>
// CHECK-NEXT:    func.return %live : tensor<4xf32>
// CHECK-NEXT:  }

// -----

// Collectives and side effects are never removed, even when their results are unused.
builtin.module attributes {hlo.num_partitions = 2 : i64} {
  func.func @keep_collectives(%x: tensor<4xf32>, %tok: !hlo.token) {
    %ar = hlo.all_reduce(%x) replica_groups = [[0, 1]] channel_id = 1 use_global_device_ids {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = hlo.add %a, %b : tensor<f32>
      %dead_in_region = hlo.multiply %a, %b : tensor<f32>
      hlo.return %s : tensor<f32>
    } : (tensor<4xf32>) -> tensor<4xf32>
    %ag = hlo.all_gather(%x) dim = 0 replica_groups = [[0, 1]] channel_id = 2 use_global_device_ids : (tensor<4xf32>) -> tensor<8xf32>
    %cp = hlo.collective_permute %x pairs = [[0, 1], [1, 0]] channel_id = 3 : tensor<4xf32>
    %cc = hlo.custom_call "effect"(%x) side_effect : (tensor<4xf32>) -> tensor<4xf32>
    %pure_cc = hlo.custom_call "no_effect"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    %ob = hlo.optimization_barrier %x : tensor<4xf32>
    %sd = hlo.send %x, %tok channel_id = 4 : tensor<4xf32> -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
    %pid = hlo.partition_id : tensor<ui32>
    func.return
  }
}
// CHECK-LABEL: func.func @keep_collectives(%x: tensor<4xf32>, %tok: !hlo.token) {
// CHECK-NEXT:    %ar = hlo.all_reduce(%x) replica_groups = [[0, 1]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:      %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:      hlo.return %s : tensor<f32>
// CHECK-NEXT:    } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %ag = hlo.all_gather(%x) dim = 0 replica_groups = [[0, 1]] channel_id = 2 use_global_device_ids : (tensor<4xf32>) -> tensor<8xf32>
// CHECK-NEXT:    %cp = hlo.collective_permute %x pairs = [[0, 1], [1, 0]] channel_id = 3 : tensor<4xf32>
// CHECK-NEXT:    %cc = hlo.custom_call "effect"(%x) side_effect : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %ob = hlo.optimization_barrier %x : tensor<4xf32>
// CHECK-NEXT:    %sd = hlo.send %x, %tok channel_id = 4 : tensor<4xf32> -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

// -----

// A dead while loop without side effects goes; one containing a collective stays, and dead ops
// inside its body are removed.
builtin.module attributes {hlo.num_partitions = 2 : i64} {
  func.func @loops(%x: tensor<4xf32>) {
    %pure = hlo.while(%x) : tensor<4xf32> condition {
    ^bb0(%s: tensor<4xf32>):
      %p = hlo.custom_call "pred"(%s) : (tensor<4xf32>) -> tensor<i1>
      hlo.return %p : tensor<i1>
    } body {
    ^bb0(%s: tensor<4xf32>):
      %n = hlo.negate %s : tensor<4xf32>
      hlo.return %n : tensor<4xf32>
    }
    %coll = hlo.while(%x) : tensor<4xf32> condition {
    ^bb0(%s: tensor<4xf32>):
      %p = hlo.custom_call "pred"(%s) : (tensor<4xf32>) -> tensor<i1>
      hlo.return %p : tensor<i1>
    } body {
    ^bb0(%s: tensor<4xf32>):
      %dead = hlo.negate %s : tensor<4xf32>
      %r = hlo.collective_permute %s pairs = [[0, 1], [1, 0]] channel_id = 1 : tensor<4xf32>
      hlo.return %r : tensor<4xf32>
    }
    func.return
  }
}
// CHECK-LABEL: func.func @loops(%x: tensor<4xf32>) {
// CHECK-NEXT:    %coll = hlo.while(%x) : tensor<4xf32> condition {
// CHECK-NEXT:    ^bb0(%s: tensor<4xf32>):
// CHECK-NEXT:      %p = hlo.custom_call "pred"(%s) : (tensor<4xf32>) -> tensor<i1>
// CHECK-NEXT:      hlo.return %p : tensor<i1>
// CHECK-NEXT:    } body {
// CHECK-NEXT:    ^bb0(%s_1: tensor<4xf32>):
// CHECK-NEXT:      %r = hlo.collective_permute %s_1 pairs = [[0, 1], [1, 0]] channel_id = 1 : tensor<4xf32>
// CHECK-NEXT:      hlo.return %r : tensor<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

// -----

// Calls are kept (the callee is not analysed); live ops are untouched.
builtin.module {
  func.func @calls(%x: tensor<4xf32>) -> tensor<4xf32> {
    %c = hlo.call @callee(%x) : (tensor<4xf32>) -> tensor<4xf32>
    func.return %x : tensor<4xf32>
  }
  func.func @callee(%y: tensor<4xf32>) -> tensor<4xf32> {
    func.return %y : tensor<4xf32>
  }
}
// CHECK-LABEL: func.func @calls(%x: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:    %c = hlo.call @callee(%x) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    func.return %x : tensor<4xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func @callee(%y: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:    func.return %y : tensor<4xf32>
// CHECK-NEXT:  }
