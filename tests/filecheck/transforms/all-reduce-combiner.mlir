// RUN: neuron-opt %s --split-input-file -p all-reduce-combiner | filecheck %s
// RUN: neuron-opt %s --split-input-file -p 'all-reduce-combiner{combine-different-dtypes=true skip-while-bodies=true}' | filecheck %s --check-prefix=OPT
// RUN: neuron-opt %s --split-input-file -p 'all-reduce-combiner{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// all-reduce-combiner: one rewrite or legality rule per chunk. The second run: with
// combine-different-dtypes=true the s32 all-reduce of the first chunk joins the f32 ones (a
// mixed-type all-reduce, reduced per operand type); skip-while-bodies=true leaves the loop body
// alone.
// OPT-LABEL: builtin.module @independent
// OPT: %combined = hlo.all_reduce(%p0, %p1, %p2)
// OPT-LABEL: builtin.module @loop
// OPT: %ax = hlo.all_reduce(%x)
// OPT: %ay = hlo.all_reduce(%y)
// OPT-NOT: %combined
// OPT-LABEL: builtin.module @captured_use
// OPT: %combined = hlo.all_reduce(%p, %q)

// Independent all-reduces with one key (groups, mode, reducer kind, element type) become ONE
// variadic all-reduce at the last member's place: operands in order, the first member's channel
// id and reducer, each member's uses read get_tuple_element named as the member was. The s32 one
// stays alone (combine-different-dtypes is off by default).
builtin.module @independent attributes {hlo.num_replicas = 4 : i64, hlo.num_partitions = 1 : i64} {
  func.func @main(%p0: tensor<2xf32>, %p1: tensor<3xf32>, %p2: tensor<4xi32>) -> tuple<tensor<2xf32>, tensor<3xf32>, tensor<4xi32>> attributes {hlo.entry} {
    %ar0 = hlo.all_reduce(%p0) replica_groups = [[0, 1], [2, 3]] channel_id = 5 {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = hlo.add %a, %b : tensor<f32>
      hlo.return %s : tensor<f32>
    } : (tensor<2xf32>) -> tensor<2xf32>
    %ar1 = hlo.all_reduce(%p1) replica_groups = [[0, 1], [2, 3]] channel_id = 6 {
    ^bb0(%a_1: tensor<f32>, %b_1: tensor<f32>):
      %s_1 = hlo.add %a_1, %b_1 : tensor<f32>
      hlo.return %s_1 : tensor<f32>
    } : (tensor<3xf32>) -> tensor<3xf32>
    %ar2 = hlo.all_reduce(%p2) replica_groups = [[0, 1], [2, 3]] channel_id = 7 {
    ^bb0(%a_2: tensor<i32>, %b_2: tensor<i32>):
      %s_2 = hlo.add %a_2, %b_2 : tensor<i32>
      hlo.return %s_2 : tensor<i32>
    } : (tensor<4xi32>) -> tensor<4xi32>
    %t = hlo.tuple %ar0, %ar1, %ar2 : tuple<tensor<2xf32>, tensor<3xf32>, tensor<4xi32>>
    func.return %t : tuple<tensor<2xf32>, tensor<3xf32>, tensor<4xi32>>
  }
}

// REMARK: remark: all-reduce-combiner: %ar1 (hlo.all_reduce): combined 2 into one: %ar0 (hlo.all_reduce), %ar1 (hlo.all_reduce)
// REMARK-NEXT: remark: all-reduce-combiner: combined 2 collectives into 1
// CHECK-LABEL: builtin.module @independent attributes {hlo.num_replicas = 4 : i64, hlo.num_partitions = 1 : i64} {
// CHECK-NEXT:   func.func @main(%p0: tensor<2xf32>, %p1: tensor<3xf32>, %p2: tensor<4xi32>) -> tuple<tensor<2xf32>, tensor<3xf32>, tensor<4xi32>> attributes {hlo.entry} {
// CHECK-NEXT:     %combined = hlo.all_reduce(%p0, %p1) replica_groups = [[0, 1], [2, 3]] channel_id = 5 {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %s : tensor<f32>
// CHECK-NEXT:     } : (tensor<2xf32>, tensor<3xf32>) -> tuple<tensor<2xf32>, tensor<3xf32>>
// CHECK-NEXT:     %ar0 = hlo.get_tuple_element %combined[0] : tuple<tensor<2xf32>, tensor<3xf32>>
// CHECK-NEXT:     %ar1 = hlo.get_tuple_element %combined[1] : tuple<tensor<2xf32>, tensor<3xf32>>
// CHECK-NEXT:     %ar2 = hlo.all_reduce(%p2) replica_groups = [[0, 1], [2, 3]] channel_id = 7 {
// CHECK-NEXT:     ^bb0(%a_1: tensor<i32>, %b_1: tensor<i32>):
// CHECK-NEXT:       %s_1 = hlo.add %a_1, %b_1 : tensor<i32>
// CHECK-NEXT:       hlo.return %s_1 : tensor<i32>
// CHECK-NEXT:     } : (tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT:     %t = hlo.tuple %ar0, %ar1, %ar2 : tuple<tensor<2xf32>, tensor<3xf32>, tensor<4xi32>>
// CHECK-NEXT:     func.return %t : tuple<tensor<2xf32>, tensor<3xf32>, tensor<4xi32>>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// A member that depends on the group is skipped, not a barrier (XLA's current rule): ar0 and ar2
// combine, ar1 (reads ar0 through %n) stays; %n, which read ar0 before the combined op's place,
// moves right after it.
builtin.module @dependent attributes {hlo.num_replicas = 4 : i64, hlo.num_partitions = 1 : i64} {
  func.func @main(%p0: tensor<2xf32>, %p1: tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>, tensor<2xf32>> attributes {hlo.entry} {
    %ar0 = hlo.all_reduce(%p0) replica_groups = [] {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = hlo.add %a, %b : tensor<f32>
      hlo.return %s : tensor<f32>
    } : (tensor<2xf32>) -> tensor<2xf32>
    %n = hlo.negate %ar0 : tensor<2xf32>
    %ar1 = hlo.all_reduce(%n) replica_groups = [] {
    ^bb0(%a_1: tensor<f32>, %b_1: tensor<f32>):
      %s_1 = hlo.add %a_1, %b_1 : tensor<f32>
      hlo.return %s_1 : tensor<f32>
    } : (tensor<2xf32>) -> tensor<2xf32>
    %m = hlo.multiply %p1, %p1 : tensor<2xf32>
    %ar2 = hlo.all_reduce(%m) replica_groups = [] {
    ^bb0(%a_2: tensor<f32>, %b_2: tensor<f32>):
      %s_2 = hlo.add %a_2, %b_2 : tensor<f32>
      hlo.return %s_2 : tensor<f32>
    } : (tensor<2xf32>) -> tensor<2xf32>
    %t = hlo.tuple %ar0, %ar1, %ar2 : tuple<tensor<2xf32>, tensor<2xf32>, tensor<2xf32>>
    func.return %t : tuple<tensor<2xf32>, tensor<2xf32>, tensor<2xf32>>
  }
}

// REMARK: remark: all-reduce-combiner: %ar2 (hlo.all_reduce): combined 2 into one: %ar0 (hlo.all_reduce), %ar2 (hlo.all_reduce)
// REMARK-NEXT: remark: all-reduce-combiner: combined 2 collectives into 1
// CHECK-LABEL: builtin.module @dependent attributes {hlo.num_replicas = 4 : i64, hlo.num_partitions = 1 : i64} {
// CHECK-NEXT:   func.func @main(%p0: tensor<2xf32>, %p1: tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>, tensor<2xf32>> attributes {hlo.entry} {
// CHECK-NEXT:     %m = hlo.multiply %p1, %p1 : tensor<2xf32>
// CHECK-NEXT:     %combined = hlo.all_reduce(%p0, %m) replica_groups = [] {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %s : tensor<f32>
// CHECK-NEXT:     } : (tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:     %ar0 = hlo.get_tuple_element %combined[0] : tuple<tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:     %ar2 = hlo.get_tuple_element %combined[1] : tuple<tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:     %n = hlo.negate %ar0 : tensor<2xf32>
// CHECK-NEXT:     %ar1 = hlo.all_reduce(%n) replica_groups = [] {
// CHECK-NEXT:     ^bb0(%a_1: tensor<f32>, %b_1: tensor<f32>):
// CHECK-NEXT:       %s_1 = hlo.add %a_1, %b_1 : tensor<f32>
// CHECK-NEXT:       hlo.return %s_1 : tensor<f32>
// CHECK-NEXT:     } : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:     %t = hlo.tuple %ar0, %ar1, %ar2 : tuple<tensor<2xf32>, tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:     func.return %t : tuple<tensor<2xf32>, tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// Keys: different replica groups, another reducer kind, an unrecognised reducer (add then
// negate), a layout constraint, and control dependences (xla.control-predecessors) are never
// combined with each other.
builtin.module @keys attributes {hlo.num_replicas = 4 : i64, hlo.num_partitions = 1 : i64} {
  func.func @main(%p0: tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>> attributes {hlo.entry} {
    %g0 = hlo.all_reduce(%p0) replica_groups = [[0, 1], [2, 3]] {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = hlo.add %a, %b : tensor<f32>
      hlo.return %s : tensor<f32>
    } : (tensor<2xf32>) -> tensor<2xf32>
    %g1 = hlo.all_reduce(%p0) replica_groups = [[0, 2], [1, 3]] {
    ^bb0(%a_1: tensor<f32>, %b_1: tensor<f32>):
      %s_1 = hlo.add %a_1, %b_1 : tensor<f32>
      hlo.return %s_1 : tensor<f32>
    } : (tensor<2xf32>) -> tensor<2xf32>
    %r0 = hlo.all_reduce(%p0) replica_groups = [] {
    ^bb0(%a_2: tensor<f32>, %b_2: tensor<f32>):
      %m = hlo.maximum %a_2, %b_2 : tensor<f32>
      hlo.return %m : tensor<f32>
    } : (tensor<2xf32>) -> tensor<2xf32>
    %r1 = hlo.all_reduce(%p0) replica_groups = [] {
    ^bb0(%a_3: tensor<f32>, %b_3: tensor<f32>):
      %s_2 = hlo.add %a_3, %b_3 : tensor<f32>
      %n = hlo.negate %s_2 : tensor<f32>
      hlo.return %n : tensor<f32>
    } : (tensor<2xf32>) -> tensor<2xf32>
    %r2 = hlo.all_reduce(%p0) replica_groups = [] {
    ^bb0(%a_4: tensor<f32>, %b_4: tensor<f32>):
      %s_3 = hlo.add %a_4, %b_4 : tensor<f32>
      %n_1 = hlo.negate %s_3 : tensor<f32>
      hlo.return %n_1 : tensor<f32>
    } : (tensor<2xf32>) -> tensor<2xf32>
    %c0 = hlo.all_reduce(%p0) replica_groups = [] constrain_layout {
    ^bb0(%a_5: tensor<f32>, %b_5: tensor<f32>):
      %s_4 = hlo.add %a_5, %b_5 : tensor<f32>
      hlo.return %s_4 : tensor<f32>
    } : (tensor<2xf32>) -> tensor<2xf32>
    %c1 = hlo.all_reduce(%p0) replica_groups = [] constrain_layout {
    ^bb0(%a_6: tensor<f32>, %b_6: tensor<f32>):
      %s_5 = hlo.add %a_6, %b_6 : tensor<f32>
      hlo.return %s_5 : tensor<f32>
    } : (tensor<2xf32>) -> tensor<2xf32>
    %k0 = hlo.all_reduce(%p0) replica_groups = [] channel_id = 1 {
    ^bb0(%a_7: tensor<f32>, %b_7: tensor<f32>):
      %s_6 = hlo.add %a_7, %b_7 : tensor<f32>
      hlo.return %s_6 : tensor<f32>
    } : (tensor<2xf32>) -> tensor<2xf32>
    %k1 = hlo.all_reduce(%p0) replica_groups = [] channel_id = 2 {
    ^bb0(%a_8: tensor<f32>, %b_8: tensor<f32>):
      %s_7 = hlo.add %a_8, %b_8 : tensor<f32>
      hlo.return %s_7 : tensor<f32>
    } {"xla.control-predecessors" = "{k0}"} : (tensor<2xf32>) -> tensor<2xf32>
    %t = hlo.tuple %g0, %g1, %r0, %r1, %r2, %c0, %c1, %k0, %k1 : tuple<tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>>
    func.return %t : tuple<tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>>
  }
}

// REMARK: remark: all-reduce-combiner: combined 0 collectives into 0
// CHECK-LABEL: builtin.module @keys attributes {hlo.num_replicas = 4 : i64, hlo.num_partitions = 1 : i64} {
// CHECK-NEXT:   func.func @main(%p0: tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>> attributes {hlo.entry} {
// CHECK-NEXT:     %g0 = hlo.all_reduce(%p0) replica_groups = [[0, 1], [2, 3]] {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %s : tensor<f32>
// CHECK-NEXT:     } : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:     %g1 = hlo.all_reduce(%p0) replica_groups = [[0, 2], [1, 3]] {
// CHECK-NEXT:     ^bb0(%a_1: tensor<f32>, %b_1: tensor<f32>):
// CHECK-NEXT:       %s_1 = hlo.add %a_1, %b_1 : tensor<f32>
// CHECK-NEXT:       hlo.return %s_1 : tensor<f32>
// CHECK-NEXT:     } : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:     %r0 = hlo.all_reduce(%p0) replica_groups = [] {
// CHECK-NEXT:     ^bb0(%a_2: tensor<f32>, %b_2: tensor<f32>):
// CHECK-NEXT:       %m = hlo.maximum %a_2, %b_2 : tensor<f32>
// CHECK-NEXT:       hlo.return %m : tensor<f32>
// CHECK-NEXT:     } : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:     %r1 = hlo.all_reduce(%p0) replica_groups = [] {
// CHECK-NEXT:     ^bb0(%a_3: tensor<f32>, %b_3: tensor<f32>):
// CHECK-NEXT:       %s_2 = hlo.add %a_3, %b_3 : tensor<f32>
// CHECK-NEXT:       %n = hlo.negate %s_2 : tensor<f32>
// CHECK-NEXT:       hlo.return %n : tensor<f32>
// CHECK-NEXT:     } : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:     %r2 = hlo.all_reduce(%p0) replica_groups = [] {
// CHECK-NEXT:     ^bb0(%a_4: tensor<f32>, %b_4: tensor<f32>):
// CHECK-NEXT:       %s_3 = hlo.add %a_4, %b_4 : tensor<f32>
// CHECK-NEXT:       %n_1 = hlo.negate %s_3 : tensor<f32>
// CHECK-NEXT:       hlo.return %n_1 : tensor<f32>
// CHECK-NEXT:     } : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:     %c0 = hlo.all_reduce(%p0) replica_groups = [] constrain_layout {
// CHECK-NEXT:     ^bb0(%a_5: tensor<f32>, %b_5: tensor<f32>):
// CHECK-NEXT:       %s_4 = hlo.add %a_5, %b_5 : tensor<f32>
// CHECK-NEXT:       hlo.return %s_4 : tensor<f32>
// CHECK-NEXT:     } : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:     %c1 = hlo.all_reduce(%p0) replica_groups = [] constrain_layout {
// CHECK-NEXT:     ^bb0(%a_6: tensor<f32>, %b_6: tensor<f32>):
// CHECK-NEXT:       %s_5 = hlo.add %a_6, %b_6 : tensor<f32>
// CHECK-NEXT:       hlo.return %s_5 : tensor<f32>
// CHECK-NEXT:     } : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:     %k0 = hlo.all_reduce(%p0) replica_groups = [] channel_id = 1 {
// CHECK-NEXT:     ^bb0(%a_7: tensor<f32>, %b_7: tensor<f32>):
// CHECK-NEXT:       %s_6 = hlo.add %a_7, %b_7 : tensor<f32>
// CHECK-NEXT:       hlo.return %s_6 : tensor<f32>
// CHECK-NEXT:     } : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:     %k1 = hlo.all_reduce(%p0) replica_groups = [] channel_id = 2 {
// CHECK-NEXT:     ^bb0(%a_8: tensor<f32>, %b_8: tensor<f32>):
// CHECK-NEXT:       %s_7 = hlo.add %a_8, %b_8 : tensor<f32>
// CHECK-NEXT:       hlo.return %s_7 : tensor<f32>
// CHECK-NEXT:     } {"xla.control-predecessors" = "{k0}"} : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:     %t = hlo.tuple %g0, %g1, %r0, %r1, %r2, %c0, %c1, %k0, %k1 : tuple<tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:     func.return %t : tuple<tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// Side effects keep their order: ar0 feeds a side-effecting custom call that runs before the one
// feeding ar1, so combining them would reorder the two calls: not combined.
builtin.module @effects attributes {hlo.num_replicas = 4 : i64, hlo.num_partitions = 1 : i64} {
  func.func @main(%p0: tensor<2xf32>, %p1: tensor<3xf32>) -> tuple<tensor<2xf32>, tensor<3xf32>> attributes {hlo.entry} {
    %ar0 = hlo.all_reduce(%p0) replica_groups = [] {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = hlo.add %a, %b : tensor<f32>
      hlo.return %s : tensor<f32>
    } : (tensor<2xf32>) -> tensor<2xf32>
    %c0 = hlo.custom_call "log"(%ar0) side_effect : (tensor<2xf32>) -> tensor<2xf32>
    %c1 = hlo.custom_call "log"(%p1) side_effect : (tensor<3xf32>) -> tensor<3xf32>
    %ar1 = hlo.all_reduce(%c1) replica_groups = [] {
    ^bb0(%a_1: tensor<f32>, %b_1: tensor<f32>):
      %s_1 = hlo.add %a_1, %b_1 : tensor<f32>
      hlo.return %s_1 : tensor<f32>
    } : (tensor<3xf32>) -> tensor<3xf32>
    %t = hlo.tuple %c0, %ar1 : tuple<tensor<2xf32>, tensor<3xf32>>
    func.return %t : tuple<tensor<2xf32>, tensor<3xf32>>
  }
}

// REMARK: remark: all-reduce-combiner: combined 0 collectives into 0
// CHECK-LABEL: builtin.module @effects attributes {hlo.num_replicas = 4 : i64, hlo.num_partitions = 1 : i64} {
// CHECK-NEXT:   func.func @main(%p0: tensor<2xf32>, %p1: tensor<3xf32>) -> tuple<tensor<2xf32>, tensor<3xf32>> attributes {hlo.entry} {
// CHECK-NEXT:     %ar0 = hlo.all_reduce(%p0) replica_groups = [] {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %s : tensor<f32>
// CHECK-NEXT:     } : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:     %c0 = hlo.custom_call "log"(%ar0) side_effect : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:     %c1 = hlo.custom_call "log"(%p1) side_effect : (tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:     %ar1 = hlo.all_reduce(%c1) replica_groups = [] {
// CHECK-NEXT:     ^bb0(%a_1: tensor<f32>, %b_1: tensor<f32>):
// CHECK-NEXT:       %s_1 = hlo.add %a_1, %b_1 : tensor<f32>
// CHECK-NEXT:       hlo.return %s_1 : tensor<f32>
// CHECK-NEXT:     } : (tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:     %t = hlo.tuple %c0, %ar1 : tuple<tensor<2xf32>, tensor<3xf32>>
// CHECK-NEXT:     func.return %t : tuple<tensor<2xf32>, tensor<3xf32>>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// The ops that used an earlier member and stood before the last one (%n, %m) move after the
// combined op; %x, which the last member reads, stays before it.
builtin.module @moves attributes {hlo.num_replicas = 4 : i64, hlo.num_partitions = 1 : i64} {
  func.func @main(%p0: tensor<2xf32>, %p1: tensor<3xf32>) -> tuple<tensor<2xf32>, tensor<3xf32>> attributes {hlo.entry} {
    %ar0 = hlo.all_reduce(%p0) replica_groups = [] {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = hlo.add %a, %b : tensor<f32>
      hlo.return %s : tensor<f32>
    } : (tensor<2xf32>) -> tensor<2xf32>
    %n = hlo.negate %ar0 : tensor<2xf32>
    %m = hlo.multiply %n, %n : tensor<2xf32>
    %x = hlo.negate %p1 : tensor<3xf32>
    %ar1 = hlo.all_reduce(%x) replica_groups = [] {
    ^bb0(%a_1: tensor<f32>, %b_1: tensor<f32>):
      %s_1 = hlo.add %a_1, %b_1 : tensor<f32>
      hlo.return %s_1 : tensor<f32>
    } : (tensor<3xf32>) -> tensor<3xf32>
    %t = hlo.tuple %m, %ar1 : tuple<tensor<2xf32>, tensor<3xf32>>
    func.return %t : tuple<tensor<2xf32>, tensor<3xf32>>
  }
}

// REMARK: remark: all-reduce-combiner: %ar1 (hlo.all_reduce): combined 2 into one: %ar0 (hlo.all_reduce), %ar1 (hlo.all_reduce)
// REMARK-NEXT: remark: all-reduce-combiner: combined 2 collectives into 1
// CHECK-LABEL: builtin.module @moves attributes {hlo.num_replicas = 4 : i64, hlo.num_partitions = 1 : i64} {
// CHECK-NEXT:   func.func @main(%p0: tensor<2xf32>, %p1: tensor<3xf32>) -> tuple<tensor<2xf32>, tensor<3xf32>> attributes {hlo.entry} {
// CHECK-NEXT:     %x = hlo.negate %p1 : tensor<3xf32>
// CHECK-NEXT:     %combined = hlo.all_reduce(%p0, %x) replica_groups = [] {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %s = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %s : tensor<f32>
// CHECK-NEXT:     } : (tensor<2xf32>, tensor<3xf32>) -> tuple<tensor<2xf32>, tensor<3xf32>>
// CHECK-NEXT:     %ar0 = hlo.get_tuple_element %combined[0] : tuple<tensor<2xf32>, tensor<3xf32>>
// CHECK-NEXT:     %ar1 = hlo.get_tuple_element %combined[1] : tuple<tensor<2xf32>, tensor<3xf32>>
// CHECK-NEXT:     %n = hlo.negate %ar0 : tensor<2xf32>
// CHECK-NEXT:     %m = hlo.multiply %n, %n : tensor<2xf32>
// CHECK-NEXT:     %t = hlo.tuple %m, %ar1 : tuple<tensor<2xf32>, tensor<3xf32>>
// CHECK-NEXT:     func.return %t : tuple<tensor<2xf32>, tensor<3xf32>>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// Inside a while body the two all-reduces combine (skip-while-bodies is off by default).
builtin.module @loop attributes {hlo.num_replicas = 2 : i64, hlo.num_partitions = 1 : i64} {
  func.func @main(%p: tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> attributes {hlo.entry} {
    %zero = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %zero, %p, %p : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> condition {
    ^bb0(%s: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %three = hlo.constant dense<3> : tensor<i32>
      %lt = hlo.compare LT, %i, %three : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%s_1: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
      %i_1 = hlo.get_tuple_element %s_1[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %x = hlo.get_tuple_element %s_1[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %y = hlo.get_tuple_element %s_1[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      %ax = hlo.all_reduce(%x) replica_groups = [] {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s_2 = hlo.add %a, %b : tensor<f32>
        hlo.return %s_2 : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %ay = hlo.all_reduce(%y) replica_groups = [] {
      ^bb0(%a_1: tensor<f32>, %b_1: tensor<f32>):
        %s_3 = hlo.add %a_1, %b_1 : tensor<f32>
        hlo.return %s_3 : tensor<f32>
      } : (tensor<4xf32>) -> tensor<4xf32>
      %one = hlo.constant dense<1> : tensor<i32>
      %n = hlo.add %i_1, %one : tensor<i32>
      %r = hlo.tuple %n, %ax, %ay : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
      hlo.return %r : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    }
    func.return %w : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
  }
}

// REMARK: remark: all-reduce-combiner: %ay (hlo.all_reduce): combined 2 into one: %ax (hlo.all_reduce), %ay (hlo.all_reduce)
// REMARK-NEXT: remark: all-reduce-combiner: combined 2 collectives into 1
// CHECK-LABEL: builtin.module @loop attributes {hlo.num_replicas = 2 : i64, hlo.num_partitions = 1 : i64} {
// CHECK-NEXT:   func.func @main(%p: tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> attributes {hlo.entry} {
// CHECK-NEXT:     %zero = hlo.constant dense<0> : tensor<i32>
// CHECK-NEXT:     %init = hlo.tuple %zero, %p, %p : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> condition {
// CHECK-NEXT:     ^bb0(%s: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %three = hlo.constant dense<3> : tensor<i32>
// CHECK-NEXT:       %lt = hlo.compare LT, %i, %three : tensor<i32> -> tensor<i1>
// CHECK-NEXT:       hlo.return %lt : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%s_1: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>):
// CHECK-NEXT:       %i_1 = hlo.get_tuple_element %s_1[0] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %x = hlo.get_tuple_element %s_1[1] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %y = hlo.get_tuple_element %s_1[2] : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %combined = hlo.all_reduce(%x, %y) replica_groups = [] {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %s_2 = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %s_2 : tensor<f32>
// CHECK-NEXT:       } : (tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %ax = hlo.get_tuple_element %combined[0] : tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %ay = hlo.get_tuple_element %combined[1] : tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       %one = hlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:       %n = hlo.add %i_1, %one : tensor<i32>
// CHECK-NEXT:       %r = hlo.tuple %n, %ax, %ay : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:       hlo.return %r : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     func.return %w : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// A use inside a loop body counts for the loop: %a1 reads the loop that reads %a0 (captured
// from the enclosing block), so it never joins %a0; the independent %a2 does.
// CHECK-LABEL: builtin.module @captured_use
// CHECK: %combined = hlo.all_reduce(%p, %q)
// CHECK: %a0 = hlo.get_tuple_element %combined[0]
// CHECK: %a2 = hlo.get_tuple_element %combined[1]
// CHECK: %w = hlo.while(%init)
// CHECK: %sum = hlo.add %v, %a0
// CHECK: %a1 = hlo.all_reduce(%g)
// CHECK-NOT: hlo.all_reduce
builtin.module @captured_use attributes {hlo.num_replicas = 2 : i64, hlo.num_partitions = 1 : i64} {
  func.func @main(%p: tensor<4xf32>, %q: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) attributes {hlo.entry} {
    %a0 = hlo.all_reduce(%p) replica_groups = [] {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = hlo.add %a, %b : tensor<f32>
      hlo.return %s : tensor<f32>
    } : (tensor<4xf32>) -> tensor<4xf32>
    %zero = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %zero, %q : tuple<tensor<i32>, tensor<4xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<4xf32>> condition {
    ^bb0(%c: tuple<tensor<i32>, tensor<4xf32>>):
      %i = hlo.get_tuple_element %c[0] : tuple<tensor<i32>, tensor<4xf32>>
      %two = hlo.constant dense<2> : tensor<i32>
      %lt = hlo.compare LT, %i, %two : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } body {
    ^bb0(%t: tuple<tensor<i32>, tensor<4xf32>>):
      %j = hlo.get_tuple_element %t[0] : tuple<tensor<i32>, tensor<4xf32>>
      %v = hlo.get_tuple_element %t[1] : tuple<tensor<i32>, tensor<4xf32>>
      %sum = hlo.add %v, %a0 : tensor<4xf32>
      %one = hlo.constant dense<1> : tensor<i32>
      %k = hlo.add %j, %one : tensor<i32>
      %r = hlo.tuple %k, %sum : tuple<tensor<i32>, tensor<4xf32>>
      hlo.return %r : tuple<tensor<i32>, tensor<4xf32>>
    }
    %g = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<4xf32>>
    %a1 = hlo.all_reduce(%g) replica_groups = [] {
    ^bb0(%a_1: tensor<f32>, %b_1: tensor<f32>):
      %s_1 = hlo.add %a_1, %b_1 : tensor<f32>
      hlo.return %s_1 : tensor<f32>
    } : (tensor<4xf32>) -> tensor<4xf32>
    %a2 = hlo.all_reduce(%q) replica_groups = [] {
    ^bb0(%a_2: tensor<f32>, %b_2: tensor<f32>):
      %s_2 = hlo.add %a_2, %b_2 : tensor<f32>
      hlo.return %s_2 : tensor<f32>
    } : (tensor<4xf32>) -> tensor<4xf32>
    func.return %a0, %a1, %a2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  }
}
