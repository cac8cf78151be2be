// RUN: neuron-opt %s -p neuron-default-pipeline --verify-equivalence | filecheck %s
// RUN: not neuron-opt %s -p neuron-default-pipeline --verify-equivalence --equivalence-per-device-inputs 2>&1 | filecheck %s --check-prefix=PER-DEVICE
// RUN: neuron-run %s --random-inputs 0 --stats | filecheck %s --check-prefix=RUN-STATS
// RUN: not neuron-run %s --random-inputs 0 --per-device-random-inputs 2>&1 | filecheck %s --check-prefix=RUN-PER-DEVICE

// A loop with a traced trip count (`fori_loop(0, n, ...)`: %n reaches the condition only
// through the while init tuple) and a conditional whose predicate is the parameter %flag.
// --verify-equivalence gives %n and %flag one value on every device (they decide control
// flow) and %x per-device values; with --equivalence-per-device-inputs every parameter is
// random per device and the interpreter stops at the loop.

builtin.module attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 1 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%n: tensor<i32>, %x: tensor<4xf32>, %flag: tensor<i1>) -> tensor<4xf32> attributes {hlo.entry} {
    %zero = hlo.constant dense<0.000000e+00> : tensor<4xf32>
    %i0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %i0, %n, %zero, %x : tuple<tensor<i32>, tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<i32>, tensor<4xf32>, tensor<4xf32>> condition {
    ^bb0(%s: tuple<tensor<i32>, tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %bound = hlo.get_tuple_element %s[1] : tuple<tensor<i32>, tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %p = hlo.compare LT, %i, %bound : tensor<i32> -> tensor<i1>
      hlo.return %p : tensor<i1>
    } body {
    ^bb0(%s: tuple<tensor<i32>, tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %bound = hlo.get_tuple_element %s[1] : tuple<tensor<i32>, tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %acc = hlo.get_tuple_element %s[2] : tuple<tensor<i32>, tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %xs = hlo.get_tuple_element %s[3] : tuple<tensor<i32>, tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %sum = hlo.all_reduce(%xs) replica_groups = [[0, 1, 2, 3]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %c = hlo.add %a, %b : tensor<f32>
        hlo.return %c : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %acc2 = hlo.add %acc, %sum : tensor<4xf32>
      %one = hlo.constant dense<1> : tensor<i32>
      %i2 = hlo.add %i, %one : tensor<i32>
      %next = hlo.tuple %i2, %bound, %acc2, %xs : tuple<tensor<i32>, tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    }
    %total = hlo.get_tuple_element %loop[2] : tuple<tensor<i32>, tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    %r = hlo.conditional(%flag) (%total, %total) : (tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%t: tensor<4xf32>):
      hlo.return %t : tensor<4xf32>
    }, {
    ^bb0(%f: tensor<4xf32>):
      %neg = hlo.negate %f : tensor<4xf32>
      hlo.return %neg : tensor<4xf32>
    }
    func.return %r : tensor<4xf32>
  }
}

// The all-reduce left the loop (the pipeline changed the program) and the results agree.
// CHECK:      } body {
// CHECK-NOT:    hlo.all_reduce
// CHECK:        hlo.return %next : tuple<tensor<i32>, tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT: }
// CHECK-NEXT: %[[SUM:.*]] = hlo.get_tuple_element %loop[2]
// CHECK-NEXT: %{{.*}} = hlo.all_reduce(%[[SUM]]) replica_groups = [[0, 1, 2, 3]]

// PER-DEVICE: error: cannot check equivalence: divergent control flow at 'hlo.while' (%loop): devices 0 and {{[0-9, ]+}} disagree on the loop condition

// neuron-run --random-inputs follows the same rule: %n = 6 on every device with seed 0.
// RUN-STATS: | all-reduce | 6 | 144 |

// RUN-PER-DEVICE: error: {{.*}}verify-equivalence-traced-bounds.mlir:{{[0-9]+}}:5: divergent control flow at 'hlo.while' (%loop)
