// RUN: neuron-opt %s --split-input-file --verify-diagnostics -p legalize-cpu-cc-ops | filecheck %s
// RUN: neuron-opt %s --split-input-file --verify-diagnostics -p 'legalize-cpu-cc-ops{all-computations=true}' | filecheck %s --check-prefix=ALL
// RUN: not neuron-opt %s --split-input-file -p legalize-cpu-cc-ops 2>&1 | filecheck %s --check-prefix=ERR

// legalize-cpu-cc-ops erases `channel_id` and `use_global_device_ids` in place (entry function
// only by default). ALL checks are given where all-computations=true prints something else.
// `--verify-diagnostics` lets the runs go on past the two error cases at the end; the ERR run
// stops at the first of them, and checks the `error:` line and exit code 1 of the CLI.

// Every flag combination of the three collectives that carry `use_global_device_ids`
// (4 replicas, num_partitions absent = 1): channel_id and use_global_device_ids are erased,
// everything else (groups, dimension, constrain_layout, reducer, names) is kept. The fourth
// combination, use_global_device_ids without channel_id, does not verify (docs/collective-semantics.md §5), so it
// cannot be an input.
builtin.module attributes {hlo.num_replicas = 4 : i64} {
  func.func @main(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
    %ar_none = hlo.all_reduce(%x) replica_groups = [[0, 1, 2, 3]] {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    %ar_channel = hlo.all_reduce(%x) replica_groups = [[0, 1], [2, 3]] channel_id = 1 {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    %ar_global = hlo.all_reduce(%x) replica_groups = [[0, 2], [1, 3]] channel_id = 2 use_global_device_ids {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.maximum %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    %ag_none = hlo.all_gather(%x) dim = 0 replica_groups = [[0, 1, 2, 3]] : (tensor<8xf32>) -> tensor<32xf32>
    %ag_channel = hlo.all_gather(%x) dim = 0 replica_groups = [[0, 1, 2, 3]] channel_id = 3 constrain_layout : (tensor<8xf32>) -> tensor<32xf32>
    %ag_global = hlo.all_gather(%x) dim = 0 replica_groups = [[3, 2, 1, 0]] channel_id = 4 use_global_device_ids : (tensor<8xf32>) -> tensor<32xf32>
    %rs_none = hlo.reduce_scatter(%x) dim = 0 replica_groups = [[0, 1, 2, 3]] {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<8xf32>) -> tensor<2xf32>
    %rs_channel = hlo.reduce_scatter(%x) dim = 0 replica_groups = [[0, 1, 2, 3]] channel_id = 5 {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<8xf32>) -> tensor<2xf32>
    %rs_global = hlo.reduce_scatter(%x) dim = 0 replica_groups = [[0, 1, 2, 3]] channel_id = 6 use_global_device_ids {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<8xf32>) -> tensor<2xf32>
    func.return %ar_none, %ar_channel, %ar_global, %ag_none, %ag_channel, %ag_global, %rs_none, %rs_channel, %rs_global : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
  }
}

// CHECK-LABEL: func.func @main(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
// CHECK-NEXT:     %ar_none = hlo.all_reduce(%x) replica_groups = [[0, 1, 2, 3]] {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %c = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %c : tensor<f32>
// CHECK-NEXT:     } : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:     %ar_channel = hlo.all_reduce(%x) replica_groups = [[0, 1], [2, 3]] {
// CHECK-NEXT:     ^bb0(%a_1: tensor<f32>, %b_1: tensor<f32>):
// CHECK-NEXT:       %c_1 = hlo.add %a_1, %b_1 : tensor<f32>
// CHECK-NEXT:       hlo.return %c_1 : tensor<f32>
// CHECK-NEXT:     } : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:     %ar_global = hlo.all_reduce(%x) replica_groups = [[0, 2], [1, 3]] {
// CHECK-NEXT:     ^bb0(%a_2: tensor<f32>, %b_2: tensor<f32>):
// CHECK-NEXT:       %c_2 = hlo.maximum %a_2, %b_2 : tensor<f32>
// CHECK-NEXT:       hlo.return %c_2 : tensor<f32>
// CHECK-NEXT:     } : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:     %ag_none = hlo.all_gather(%x) dim = 0 replica_groups = [[0, 1, 2, 3]] : (tensor<8xf32>) -> tensor<32xf32>
// CHECK-NEXT:     %ag_channel = hlo.all_gather(%x) dim = 0 replica_groups = [[0, 1, 2, 3]] constrain_layout : (tensor<8xf32>) -> tensor<32xf32>
// CHECK-NEXT:     %ag_global = hlo.all_gather(%x) dim = 0 replica_groups = [[3, 2, 1, 0]] : (tensor<8xf32>) -> tensor<32xf32>
// CHECK-NEXT:     %rs_none = hlo.reduce_scatter(%x) dim = 0 replica_groups = [[0, 1, 2, 3]] {
// CHECK-NEXT:     ^bb0(%a_3: tensor<f32>, %b_3: tensor<f32>):
// CHECK-NEXT:       %c_3 = hlo.add %a_3, %b_3 : tensor<f32>
// CHECK-NEXT:       hlo.return %c_3 : tensor<f32>
// CHECK-NEXT:     } : (tensor<8xf32>) -> tensor<2xf32>
// CHECK-NEXT:     %rs_channel = hlo.reduce_scatter(%x) dim = 0 replica_groups = [[0, 1, 2, 3]] {
// CHECK-NEXT:     ^bb0(%a_4: tensor<f32>, %b_4: tensor<f32>):
// CHECK-NEXT:       %c_4 = hlo.add %a_4, %b_4 : tensor<f32>
// CHECK-NEXT:       hlo.return %c_4 : tensor<f32>
// CHECK-NEXT:     } : (tensor<8xf32>) -> tensor<2xf32>
// CHECK-NEXT:     %rs_global = hlo.reduce_scatter(%x) dim = 0 replica_groups = [[0, 1, 2, 3]] {
// CHECK-NEXT:     ^bb0(%a_5: tensor<f32>, %b_5: tensor<f32>):
// CHECK-NEXT:       %c_5 = hlo.add %a_5, %b_5 : tensor<f32>
// CHECK-NEXT:       hlo.return %c_5 : tensor<f32>
// CHECK-NEXT:     } : (tensor<8xf32>) -> tensor<2xf32>
// CHECK-NEXT:     func.return %ar_none, %ar_channel, %ar_global, %ag_none, %ag_channel, %ag_global, %rs_none, %rs_channel, %rs_global : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT:   }

// -----

// Tuple-shaped collectives are edited in place too (no decomposition, no new ops).
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @main(%x: tensor<2xf32>, %y: tensor<2xi32>) -> (tuple<tensor<2xf32>, tensor<2xi32>>, tuple<tensor<4xf32>, tensor<4xi32>>) {
    %ar = hlo.all_reduce(%x, %y) replica_groups = [[0, 1]] channel_id = 1 use_global_device_ids {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<2xf32>, tensor<2xi32>) -> tuple<tensor<2xf32>, tensor<2xi32>>
    %ag = hlo.all_gather(%x, %y) dim = 0 replica_groups = [[0, 1]] channel_id = 2 : (tensor<2xf32>, tensor<2xi32>) -> tuple<tensor<4xf32>, tensor<4xi32>>
    func.return %ar, %ag : tuple<tensor<2xf32>, tensor<2xi32>>, tuple<tensor<4xf32>, tensor<4xi32>>
  }
}

// CHECK-LABEL: func.func @main(%x: tensor<2xf32>, %y: tensor<2xi32>) -> (tuple<tensor<2xf32>, tensor<2xi32>>, tuple<tensor<4xf32>, tensor<4xi32>>) {
// CHECK-NEXT:     %ar = hlo.all_reduce(%x, %y) replica_groups = [[0, 1]] {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %c = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %c : tensor<f32>
// CHECK-NEXT:     } : (tensor<2xf32>, tensor<2xi32>) -> tuple<tensor<2xf32>, tensor<2xi32>>
// CHECK-NEXT:     %ag = hlo.all_gather(%x, %y) dim = 0 replica_groups = [[0, 1]] : (tensor<2xf32>, tensor<2xi32>) -> tuple<tensor<4xf32>, tensor<4xi32>>
// CHECK-NEXT:     func.return %ar, %ag : tuple<tensor<2xf32>, tensor<2xi32>>, tuple<tensor<4xf32>, tensor<4xi32>>
// CHECK-NEXT:   }

// -----

// all_to_all (with and without a split dimension), collective_broadcast and collective_permute have no
// use_global_device_ids flag: only channel_id is erased (one device, num_partitions = 1 given
// explicitly). constrain_layout and the dimension stay.
builtin.module attributes {hlo.num_replicas = 1 : i64, hlo.num_partitions = 1 : i64} {
  func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
    %a2a_none = hlo.all_to_all(%x) dim = 0 replica_groups = [[0]] : (tensor<4xf32>) -> tensor<4xf32>
    %a2a_channel = hlo.all_to_all(%x) dim = 0 replica_groups = [[0]] channel_id = 1 constrain_layout : (tensor<4xf32>) -> tensor<4xf32>
    %a2a_tuple = hlo.all_to_all(%x) replica_groups = [[0]] channel_id = 2 : (tensor<4xf32>) -> tensor<4xf32>
    %bc_none = hlo.collective_broadcast(%x) replica_groups = [[0]] : (tensor<4xf32>) -> tensor<4xf32>
    %bc_channel = hlo.collective_broadcast(%x) replica_groups = [[0]] channel_id = 3 : (tensor<4xf32>) -> tensor<4xf32>
    %cp_none = hlo.collective_permute %x pairs = [[0, 0]] : tensor<4xf32>
    %cp_channel = hlo.collective_permute %x pairs = [[0, 0]] channel_id = 4 : tensor<4xf32>
    func.return %a2a_none, %a2a_channel, %a2a_tuple, %bc_none, %bc_channel, %cp_none, %cp_channel : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  }
}

// CHECK-LABEL: func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
// CHECK-NEXT:     %a2a_none = hlo.all_to_all(%x) dim = 0 replica_groups = [[0]] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %a2a_channel = hlo.all_to_all(%x) dim = 0 replica_groups = [[0]] constrain_layout : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %a2a_tuple = hlo.all_to_all(%x) replica_groups = [[0]] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %bc_none = hlo.collective_broadcast(%x) replica_groups = [[0]] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %bc_channel = hlo.collective_broadcast(%x) replica_groups = [[0]] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %cp_none = hlo.collective_permute %x pairs = [[0, 0]] : tensor<4xf32>
// CHECK-NEXT:     %cp_channel = hlo.collective_permute %x pairs = [[0, 0]] : tensor<4xf32>
// CHECK-NEXT:     func.return %a2a_none, %a2a_channel, %a2a_tuple, %bc_none, %bc_channel, %cp_none, %cp_channel : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT:   }

// -----

// Nothing needs clearing (no channel ids, no use_global_device_ids): the module is unchanged.
builtin.module attributes {hlo.num_replicas = 4 : i64} {
  func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<16xf32>, tensor<1xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
    %ar = hlo.all_reduce(%x) replica_groups = [[0, 1, 2, 3]] {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<4xf32>) -> tensor<4xf32>
    %ag = hlo.all_gather(%x) dim = 0 replica_groups = [[0, 1, 2, 3]] : (tensor<4xf32>) -> tensor<16xf32>
    %rs = hlo.reduce_scatter(%x) dim = 0 replica_groups = [[0, 1, 2, 3]] {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<4xf32>) -> tensor<1xf32>
    %a2a = hlo.all_to_all(%x) dim = 0 replica_groups = [[0, 1, 2, 3]] : (tensor<4xf32>) -> tensor<4xf32>
    %bc = hlo.collective_broadcast(%x) replica_groups = [[2, 0]] : (tensor<4xf32>) -> tensor<4xf32>
    %cp = hlo.collective_permute %x pairs = [[0, 1], [1, 2], [2, 3], [3, 0]] : tensor<4xf32>
    func.return %ar, %ag, %rs, %a2a, %bc, %cp : tensor<4xf32>, tensor<16xf32>, tensor<1xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  }
}

// CHECK-LABEL: func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<16xf32>, tensor<1xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
// CHECK-NEXT:     %ar = hlo.all_reduce(%x) replica_groups = [[0, 1, 2, 3]] {
// CHECK-NEXT:     ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:       %c = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:       hlo.return %c : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %ag = hlo.all_gather(%x) dim = 0 replica_groups = [[0, 1, 2, 3]] : (tensor<4xf32>) -> tensor<16xf32>
// CHECK-NEXT:     %rs = hlo.reduce_scatter(%x) dim = 0 replica_groups = [[0, 1, 2, 3]] {
// CHECK-NEXT:     ^bb0(%a_1: tensor<f32>, %b_1: tensor<f32>):
// CHECK-NEXT:       %c_1 = hlo.add %a_1, %b_1 : tensor<f32>
// CHECK-NEXT:       hlo.return %c_1 : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>) -> tensor<1xf32>
// CHECK-NEXT:     %a2a = hlo.all_to_all(%x) dim = 0 replica_groups = [[0, 1, 2, 3]] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %bc = hlo.collective_broadcast(%x) replica_groups = [[2, 0]] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %cp = hlo.collective_permute %x pairs = [[0, 1], [1, 2], [2, 3], [3, 0]] : tensor<4xf32>
// CHECK-NEXT:     func.return %ar, %ag, %rs, %a2a, %bc, %cp : tensor<4xf32>, tensor<16xf32>, tensor<1xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT:   }

// -----

// Nested candidates: the all_reduce in the while body and the all_gather in @helper keep
// their channel ids by default; with all-computations=true they are cleared as well.
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @helper(%h: tensor<2xf32>) -> tensor<4xf32> {
    %hg = hlo.all_gather(%h) dim = 0 replica_groups = [[0, 1]] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<4xf32>
    func.return %hg : tensor<4xf32>
  }
  func.func @main(%v: tensor<2xf32>) -> (tensor<2xf32>, tensor<4xf32>, tensor<2xf32>) {
    %loop = hlo.while(%v) : tensor<2xf32> condition {
    ^bb0(%cs: tensor<2xf32>):
      %go = hlo.custom_call "keep_going"(%cs) : (tensor<2xf32>) -> tensor<i1>
      hlo.return %go : tensor<i1>
    } body {
    ^bb0(%bs: tensor<2xf32>):
      %inner = hlo.all_reduce(%bs) replica_groups = [[0, 1]] channel_id = 2 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %c = hlo.add %a, %b : tensor<f32>
        hlo.return %c : tensor<f32>
      } : (tensor<2xf32>) -> tensor<2xf32>
      hlo.return %inner : tensor<2xf32>
    }
    %called = hlo.call @helper(%v) : (tensor<2xf32>) -> tensor<4xf32>
    %outer = hlo.collective_permute %v pairs = [[0, 1], [1, 0]] : tensor<2xf32>
    %top = hlo.all_reduce(%outer) replica_groups = [[0, 1]] channel_id = 3 {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<2xf32>) -> tensor<2xf32>
    func.return %loop, %called, %top : tensor<2xf32>, tensor<4xf32>, tensor<2xf32>
  }
}

// CHECK-LABEL: func.func @helper(%h: tensor<2xf32>) -> tensor<4xf32> {
// CHECK-NEXT:     %hg = hlo.all_gather(%h) dim = 0 replica_groups = [[0, 1]] channel_id = 1 use_global_device_ids : (tensor<2xf32>) -> tensor<4xf32>
// CHECK-NEXT:     func.return %hg : tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-LABEL: func.func @main(%v: tensor<2xf32>) -> (tensor<2xf32>, tensor<4xf32>, tensor<2xf32>) {
// CHECK-NEXT:     %loop = hlo.while(%v) : tensor<2xf32> condition {
// CHECK-NEXT:     ^bb0(%cs: tensor<2xf32>):
// CHECK-NEXT:       %go = hlo.custom_call "keep_going"(%cs) : (tensor<2xf32>) -> tensor<i1>
// CHECK-NEXT:       hlo.return %go : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tensor<2xf32>):
// CHECK-NEXT:       %inner = hlo.all_reduce(%bs) replica_groups = [[0, 1]] channel_id = 2 use_global_device_ids {
// CHECK-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:         %c = hlo.add %a, %b : tensor<f32>
// CHECK-NEXT:         hlo.return %c : tensor<f32>
// CHECK-NEXT:       } : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:       hlo.return %inner : tensor<2xf32>
// CHECK-NEXT:     }
// CHECK-NEXT:     %called = hlo.call @helper(%v) : (tensor<2xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %outer = hlo.collective_permute %v pairs = [[0, 1], [1, 0]] : tensor<2xf32>
// CHECK-NEXT:     %top = hlo.all_reduce(%outer) replica_groups = [[0, 1]] {
// CHECK-NEXT:     ^bb0(%a_1: tensor<f32>, %b_1: tensor<f32>):
// CHECK-NEXT:       %c_1 = hlo.add %a_1, %b_1 : tensor<f32>
// CHECK-NEXT:       hlo.return %c_1 : tensor<f32>
// CHECK-NEXT:     } : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:     func.return %loop, %called, %top : tensor<2xf32>, tensor<4xf32>, tensor<2xf32>
// CHECK-NEXT:   }

// ALL-LABEL: func.func @helper(%h: tensor<2xf32>) -> tensor<4xf32> {
// ALL-NEXT:     %hg = hlo.all_gather(%h) dim = 0 replica_groups = [[0, 1]] : (tensor<2xf32>) -> tensor<4xf32>
// ALL-NEXT:     func.return %hg : tensor<4xf32>
// ALL-NEXT:   }
// ALL-LABEL: func.func @main(%v: tensor<2xf32>) -> (tensor<2xf32>, tensor<4xf32>, tensor<2xf32>) {
// ALL-NEXT:     %loop = hlo.while(%v) : tensor<2xf32> condition {
// ALL-NEXT:     ^bb0(%cs: tensor<2xf32>):
// ALL-NEXT:       %go = hlo.custom_call "keep_going"(%cs) : (tensor<2xf32>) -> tensor<i1>
// ALL-NEXT:       hlo.return %go : tensor<i1>
// ALL-NEXT:     } body {
// ALL-NEXT:     ^bb0(%bs: tensor<2xf32>):
// ALL-NEXT:       %inner = hlo.all_reduce(%bs) replica_groups = [[0, 1]] {
// ALL-NEXT:       ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// ALL-NEXT:         %c = hlo.add %a, %b : tensor<f32>
// ALL-NEXT:         hlo.return %c : tensor<f32>
// ALL-NEXT:       } : (tensor<2xf32>) -> tensor<2xf32>
// ALL-NEXT:       hlo.return %inner : tensor<2xf32>
// ALL-NEXT:     }
// ALL-NEXT:     %called = hlo.call @helper(%v) : (tensor<2xf32>) -> tensor<4xf32>
// ALL-NEXT:     %outer = hlo.collective_permute %v pairs = [[0, 1], [1, 0]] : tensor<2xf32>
// ALL-NEXT:     %top = hlo.all_reduce(%outer) replica_groups = [[0, 1]] {
// ALL-NEXT:     ^bb0(%a_1: tensor<f32>, %b_1: tensor<f32>):
// ALL-NEXT:       %c_1 = hlo.add %a_1, %b_1 : tensor<f32>
// ALL-NEXT:       hlo.return %c_1 : tensor<f32>
// ALL-NEXT:     } : (tensor<2xf32>) -> tensor<2xf32>
// ALL-NEXT:     func.return %loop, %called, %top : tensor<2xf32>, tensor<4xf32>, tensor<2xf32>
// ALL-NEXT:   }

// -----

// num_partitions > 1: the edits would change the groups' meaning, so the pass fails and
// changes nothing.
builtin.module attributes {hlo.num_partitions = 4 : i64} {
  func.func @main(%x: tensor<4xf32>) -> tensor<16xf32> {
    %g = hlo.all_gather(%x) dim = 0 replica_groups = [[0, 1, 2, 3]] channel_id = 1 use_global_device_ids : (tensor<4xf32>) -> tensor<16xf32>
    func.return %g : tensor<16xf32>
  }
}

// CHECK: legalize-cpu-cc-ops requires num_partitions == 1 (got 4)
// ERR: error: legalize-cpu-cc-ops requires num_partitions == 1 (got 4)

// -----

// No entry computation (two functions, neither marked hlo.entry nor named main).
builtin.module {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    %r = hlo.collective_permute %x pairs = [[0, 0]] channel_id = 1 : tensor<4xf32>
    func.return %r : tensor<4xf32>
  }
  func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {
    func.return %x : tensor<4xf32>
  }
}

// CHECK: module has no entry computation
