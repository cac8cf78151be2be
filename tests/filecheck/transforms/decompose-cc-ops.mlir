// RUN: neuron-opt %s --split-input-file --verify-diagnostics -p decompose-cc-ops | filecheck %s
// RUN: neuron-opt %s --split-input-file --verify-diagnostics -p 'decompose-cc-ops{all-computations=true}' | filecheck %s --check-prefix=ALL
// RUN: not neuron-opt %s --split-input-file -p decompose-cc-ops 2>&1 | filecheck %s --check-prefix=ERR

// decompose-cc-ops splits every tuple-shaped all_gather / all_reduce / reduce_scatter of the
// entry function into one single-operand clone per operand (`%_<i>-clone`) and an `hlo.tuple`
// (`%cc-tuple<k>`, k = collectives replaced so far in this run). The printer makes repeated
// names unique with a `_<n>` suffix (`%_0-clone_1` is the second collective's clone 0).
// `--verify-diagnostics` lets the run go on past the error case at the end; the ERR run checks
// that, without it, the same case fails with `error:` and exit code 1.

// Several tuple collectives in the entry (@main): one clone per operand, then `hlo.tuple`
// `%cc-tuple<k>` with k counting the collectives replaced in this run. Properties (groups,
// channel id, flags, dimension) and the reducer are copied; users of the tuple are rewired.
// The single-operand all_reduce and the tuple-form all_to_all (not a candidate) stay as they are.
builtin.module attributes {hlo.num_replicas = 2 : i64, hlo.num_partitions = 2 : i64} {
  func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>, %c: tensor<2x8xf32>, %d: tensor<2xi32>) -> (tensor<4xf32>, tuple<tensor<8xf32>, tensor<4xi32>>, tensor<2x2xf32>) {
    %sum = hlo.all_reduce(%a, %b) replica_groups = [[0, 1, 2, 3]] channel_id = 1 use_global_device_ids {
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = hlo.add %x, %y : tensor<f32>
      hlo.return %s : tensor<f32>
    } : (tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
    %single = hlo.all_reduce(%a) replica_groups = [[0, 1]] {
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %m = hlo.maximum %x, %y : tensor<f32>
      hlo.return %m : tensor<f32>
    } : (tensor<4xf32>) -> tensor<4xf32>
    %gathered = hlo.all_gather(%a, %d) dim = 0 replica_groups = [[0, 1], [2, 3]] channel_id = 2 use_global_device_ids constrain_layout : (tensor<4xf32>, tensor<2xi32>) -> tuple<tensor<8xf32>, tensor<4xi32>>
    %scattered = hlo.reduce_scatter(%c, %c) dim = 1 replica_groups = [[0, 1]] channel_id = 3 {
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %p = hlo.multiply %y, %x : tensor<f32>
      hlo.return %p : tensor<f32>
    } : (tensor<2x8xf32>, tensor<2x8xf32>) -> tuple<tensor<2x2xf32>, tensor<2x2xf32>>
    %swapped = hlo.all_to_all(%a, %b) replica_groups = [[0, 1]] : (tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
    %s0 = hlo.get_tuple_element %sum[0] : tuple<tensor<4xf32>, tensor<4xf32>>
    %s1 = hlo.get_tuple_element %sum[1] : tuple<tensor<4xf32>, tensor<4xf32>>
    %total = hlo.add %s0, %s1 : tensor<4xf32>
    %r1 = hlo.get_tuple_element %scattered[1] : tuple<tensor<2x2xf32>, tensor<2x2xf32>>
    func.return %total, %gathered, %r1 : tensor<4xf32>, tuple<tensor<8xf32>, tensor<4xi32>>, tensor<2x2xf32>
  }
}

// CHECK-LABEL: func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>, %c: tensor<2x8xf32>, %d: tensor<2xi32>) -> (tensor<4xf32>, tuple<tensor<8xf32>, tensor<4xi32>>, tensor<2x2xf32>) {
// CHECK-NEXT:     %_0-clone = hlo.all_reduce(%a) replica_groups = [[0, 1, 2, 3]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%x: tensor<f32>, %y: tensor<f32>):
// CHECK-NEXT:       %s = hlo.add %x, %y : tensor<f32>
// CHECK-NEXT:       hlo.return %s : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %_1-clone = hlo.all_reduce(%b) replica_groups = [[0, 1, 2, 3]] channel_id = 1 use_global_device_ids {
// CHECK-NEXT:     ^bb0(%x_1: tensor<f32>, %y_1: tensor<f32>):
// CHECK-NEXT:       %s_1 = hlo.add %x_1, %y_1 : tensor<f32>
// CHECK-NEXT:       hlo.return %s_1 : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %cc-tuple0 = hlo.tuple %_0-clone, %_1-clone : tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %single = hlo.all_reduce(%a) replica_groups = [[0, 1]] {
// CHECK-NEXT:     ^bb0(%x_2: tensor<f32>, %y_2: tensor<f32>):
// CHECK-NEXT:       %m = hlo.maximum %x_2, %y_2 : tensor<f32>
// CHECK-NEXT:       hlo.return %m : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %_0-clone_1 = hlo.all_gather(%a) dim = 0 replica_groups = [[0, 1], [2, 3]] channel_id = 2 use_global_device_ids constrain_layout : (tensor<4xf32>) -> tensor<8xf32>
// CHECK-NEXT:     %_1-clone_1 = hlo.all_gather(%d) dim = 0 replica_groups = [[0, 1], [2, 3]] channel_id = 2 use_global_device_ids constrain_layout : (tensor<2xi32>) -> tensor<4xi32>
// CHECK-NEXT:     %cc-tuple1 = hlo.tuple %_0-clone_1, %_1-clone_1 : tuple<tensor<8xf32>, tensor<4xi32>>
// CHECK-NEXT:     %_0-clone_2 = hlo.reduce_scatter(%c) dim = 1 replica_groups = [[0, 1]] channel_id = 3 {
// CHECK-NEXT:     ^bb0(%x_3: tensor<f32>, %y_3: tensor<f32>):
// CHECK-NEXT:       %p = hlo.multiply %y_3, %x_3 : tensor<f32>
// CHECK-NEXT:       hlo.return %p : tensor<f32>
// CHECK-NEXT:     } : (tensor<2x8xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:     %_1-clone_2 = hlo.reduce_scatter(%c) dim = 1 replica_groups = [[0, 1]] channel_id = 3 {
// CHECK-NEXT:     ^bb0(%x_4: tensor<f32>, %y_4: tensor<f32>):
// CHECK-NEXT:       %p_1 = hlo.multiply %y_4, %x_4 : tensor<f32>
// CHECK-NEXT:       hlo.return %p_1 : tensor<f32>
// CHECK-NEXT:     } : (tensor<2x8xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:     %cc-tuple2 = hlo.tuple %_0-clone_2, %_1-clone_2 : tuple<tensor<2x2xf32>, tensor<2x2xf32>>
// CHECK-NEXT:     %swapped = hlo.all_to_all(%a, %b) replica_groups = [[0, 1]] : (tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %s0 = hlo.get_tuple_element %cc-tuple0[0] : tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %s1 = hlo.get_tuple_element %cc-tuple0[1] : tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %total = hlo.add %s0, %s1 : tensor<4xf32>
// CHECK-NEXT:     %r1 = hlo.get_tuple_element %cc-tuple2[1] : tuple<tensor<2x2xf32>, tensor<2x2xf32>>
// CHECK-NEXT:     func.return %total, %cc-tuple1, %r1 : tensor<4xf32>, tuple<tensor<8xf32>, tensor<4xi32>>, tensor<2x2xf32>
// CHECK-NEXT:   }

// -----

// A mixed-type tuple all_reduce (decompose-cc-ops may run before legalize-ccops-for-tensorizer)
// in the only function of the module (which makes it the entry): the reducer is typed for
// f32; the i32 and bf16 clones get an `add` rebuilt at their own element type, the f32 clone
// keeps a copy of the original region.
builtin.module attributes {hlo.num_replicas = 4 : i64} {
  func.func @mixed(%a: tensor<4xf32>, %b: tensor<4xi32>, %c: tensor<4xbf16>) -> tuple<tensor<4xf32>, tensor<4xi32>, tensor<4xbf16>> {
    %r = hlo.all_reduce(%a, %b, %c) replica_groups = [[0, 1, 2, 3]] {
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = hlo.add %x, %y : tensor<f32>
      hlo.return %s : tensor<f32>
    } : (tensor<4xf32>, tensor<4xi32>, tensor<4xbf16>) -> tuple<tensor<4xf32>, tensor<4xi32>, tensor<4xbf16>>
    func.return %r : tuple<tensor<4xf32>, tensor<4xi32>, tensor<4xbf16>>
  }
}

// CHECK-LABEL: func.func @mixed(%a: tensor<4xf32>, %b: tensor<4xi32>, %c: tensor<4xbf16>) -> tuple<tensor<4xf32>, tensor<4xi32>, tensor<4xbf16>> {
// CHECK-NEXT:     %_0-clone = hlo.all_reduce(%a) replica_groups = [[0, 1, 2, 3]] {
// CHECK-NEXT:     ^bb0(%x: tensor<f32>, %y: tensor<f32>):
// CHECK-NEXT:       %s = hlo.add %x, %y : tensor<f32>
// CHECK-NEXT:       hlo.return %s : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %_1-clone = hlo.all_reduce(%b) replica_groups = [[0, 1, 2, 3]] {
// CHECK-NEXT:     ^bb0([[V0:%[0-9]+]]: tensor<i32>, [[V1:%[0-9]+]]: tensor<i32>):
// CHECK-NEXT:       [[V2:%[0-9]+]] = hlo.add [[V0]], [[V1]] : tensor<i32>
// CHECK-NEXT:       hlo.return [[V2]] : tensor<i32>
// CHECK-NEXT:     } : (tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT:     %_2-clone = hlo.all_reduce(%c) replica_groups = [[0, 1, 2, 3]] {
// CHECK-NEXT:     ^bb0([[V3:%[0-9]+]]: tensor<bf16>, [[V4:%[0-9]+]]: tensor<bf16>):
// CHECK-NEXT:       [[V5:%[0-9]+]] = hlo.add [[V3]], [[V4]] : tensor<bf16>
// CHECK-NEXT:       hlo.return [[V5]] : tensor<bf16>
// CHECK-NEXT:     } : (tensor<4xbf16>) -> tensor<4xbf16>
// CHECK-NEXT:     %cc-tuple0 = hlo.tuple %_0-clone, %_1-clone, %_2-clone : tuple<tensor<4xf32>, tensor<4xi32>, tensor<4xbf16>>
// CHECK-NEXT:     func.return %cc-tuple0 : tuple<tensor<4xf32>, tensor<4xi32>, tensor<4xbf16>>
// CHECK-NEXT:   }

// -----

// A mixed-type reduce_scatter whose `maximum` reducer is typed for the SECOND operand (i32).
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @mixed_scatter(%a: tensor<4xf32>, %b: tensor<4xi32>) -> tuple<tensor<2xf32>, tensor<2xi32>> {
    %r = hlo.reduce_scatter(%a, %b) dim = 0 replica_groups = [[0, 1]] {
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %m = hlo.maximum %x, %y : tensor<i32>
      hlo.return %m : tensor<i32>
    } : (tensor<4xf32>, tensor<4xi32>) -> tuple<tensor<2xf32>, tensor<2xi32>>
    func.return %r : tuple<tensor<2xf32>, tensor<2xi32>>
  }
}

// CHECK-LABEL: func.func @mixed_scatter(%a: tensor<4xf32>, %b: tensor<4xi32>) -> tuple<tensor<2xf32>, tensor<2xi32>> {
// CHECK-NEXT:     %_0-clone = hlo.reduce_scatter(%a) dim = 0 replica_groups = [[0, 1]] {
// CHECK-NEXT:     ^bb0([[V0]]: tensor<f32>, [[V1]]: tensor<f32>):
// CHECK-NEXT:       [[V2:%[0-9]+]] = hlo.maximum [[V0]], [[V1]] : tensor<f32>
// CHECK-NEXT:       hlo.return [[V2]] : tensor<f32>
// CHECK-NEXT:     } : (tensor<4xf32>) -> tensor<2xf32>
// CHECK-NEXT:     %_1-clone = hlo.reduce_scatter(%b) dim = 0 replica_groups = [[0, 1]] {
// CHECK-NEXT:     ^bb0(%x: tensor<i32>, %y: tensor<i32>):
// CHECK-NEXT:       %m = hlo.maximum %x, %y : tensor<i32>
// CHECK-NEXT:       hlo.return %m : tensor<i32>
// CHECK-NEXT:     } : (tensor<4xi32>) -> tensor<2xi32>
// CHECK-NEXT:     %cc-tuple0 = hlo.tuple %_0-clone, %_1-clone : tuple<tensor<2xf32>, tensor<2xi32>>
// CHECK-NEXT:     func.return %cc-tuple0 : tuple<tensor<2xf32>, tensor<2xi32>>
// CHECK-NEXT:   }

// -----

// Nested candidates: a tuple all_reduce in a while body and a tuple all_gather in another
// function (@helper, called from the entry). By default only the entry's top-level collectives
// are processed; with all-computations=true every function and nested region is, and k counts
// in walk order (@helper first, then @main's body top to bottom).
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @helper(%h: tensor<2xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>> {
    %hg = hlo.all_gather(%h, %h) dim = 0 replica_groups = [[0, 1]] : (tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
    func.return %hg : tuple<tensor<4xf32>, tensor<4xf32>>
  }
  func.func @main(%v: tensor<2xf32>, %w: tensor<2xf32>) -> (tuple<tensor<2xf32>, tensor<2xf32>>, tuple<tensor<4xf32>, tensor<4xf32>>, tuple<tensor<2xf32>, tensor<2xf32>>) {
    %init = hlo.tuple %v, %w : tuple<tensor<2xf32>, tensor<2xf32>>
    %loop = hlo.while(%init) : tuple<tensor<2xf32>, tensor<2xf32>> condition {
    ^bb0(%cs: tuple<tensor<2xf32>, tensor<2xf32>>):
      %go = hlo.custom_call "keep_going"(%cs) : (tuple<tensor<2xf32>, tensor<2xf32>>) -> tensor<i1>
      hlo.return %go : tensor<i1>
    } body {
    ^bb0(%bs: tuple<tensor<2xf32>, tensor<2xf32>>):
      %e0 = hlo.get_tuple_element %bs[0] : tuple<tensor<2xf32>, tensor<2xf32>>
      %e1 = hlo.get_tuple_element %bs[1] : tuple<tensor<2xf32>, tensor<2xf32>>
      %inner = hlo.all_reduce(%e0, %e1) replica_groups = [[0, 1]] {
      ^bb0(%x: tensor<f32>, %y: tensor<f32>):
        %s = hlo.add %x, %y : tensor<f32>
        hlo.return %s : tensor<f32>
      } : (tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>>
      hlo.return %inner : tuple<tensor<2xf32>, tensor<2xf32>>
    }
    %called = hlo.call @helper(%v) : (tensor<2xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
    %outer = hlo.all_reduce(%v, %w) replica_groups = [[0, 1]] {
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = hlo.add %x, %y : tensor<f32>
      hlo.return %s : tensor<f32>
    } : (tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>>
    func.return %loop, %called, %outer : tuple<tensor<2xf32>, tensor<2xf32>>, tuple<tensor<4xf32>, tensor<4xf32>>, tuple<tensor<2xf32>, tensor<2xf32>>
  }
}

// CHECK-LABEL: func.func @helper(%h: tensor<2xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>> {
// CHECK-NEXT:     %hg = hlo.all_gather(%h, %h) dim = 0 replica_groups = [[0, 1]] : (tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     func.return %hg : tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:   }
// CHECK-LABEL: func.func @main(%v: tensor<2xf32>, %w: tensor<2xf32>) -> (tuple<tensor<2xf32>, tensor<2xf32>>, tuple<tensor<4xf32>, tensor<4xf32>>, tuple<tensor<2xf32>, tensor<2xf32>>) {
// CHECK-NEXT:     %init = hlo.tuple %v, %w : tuple<tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:     %loop = hlo.while(%init) : tuple<tensor<2xf32>, tensor<2xf32>> condition {
// CHECK-NEXT:     ^bb0(%cs: tuple<tensor<2xf32>, tensor<2xf32>>):
// CHECK-NEXT:       %go = hlo.custom_call "keep_going"(%cs) : (tuple<tensor<2xf32>, tensor<2xf32>>) -> tensor<i1>
// CHECK-NEXT:       hlo.return %go : tensor<i1>
// CHECK-NEXT:     } body {
// CHECK-NEXT:     ^bb0(%bs: tuple<tensor<2xf32>, tensor<2xf32>>):
// CHECK-NEXT:       %e0 = hlo.get_tuple_element %bs[0] : tuple<tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:       %e1 = hlo.get_tuple_element %bs[1] : tuple<tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:       %inner = hlo.all_reduce(%e0, %e1) replica_groups = [[0, 1]] {
// CHECK-NEXT:       ^bb0(%x: tensor<f32>, %y: tensor<f32>):
// CHECK-NEXT:         %s = hlo.add %x, %y : tensor<f32>
// CHECK-NEXT:         hlo.return %s : tensor<f32>
// CHECK-NEXT:       } : (tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:       hlo.return %inner : tuple<tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     %called = hlo.call @helper(%v) : (tensor<2xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     %_0-clone = hlo.all_reduce(%v) replica_groups = [[0, 1]] {
// CHECK-NEXT:     ^bb0(%x_1: tensor<f32>, %y_1: tensor<f32>):
// CHECK-NEXT:       %s_1 = hlo.add %x_1, %y_1 : tensor<f32>
// CHECK-NEXT:       hlo.return %s_1 : tensor<f32>
// CHECK-NEXT:     } : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:     %_1-clone = hlo.all_reduce(%w) replica_groups = [[0, 1]] {
// CHECK-NEXT:     ^bb0(%x_2: tensor<f32>, %y_2: tensor<f32>):
// CHECK-NEXT:       %s_2 = hlo.add %x_2, %y_2 : tensor<f32>
// CHECK-NEXT:       hlo.return %s_2 : tensor<f32>
// CHECK-NEXT:     } : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:     %cc-tuple0 = hlo.tuple %_0-clone, %_1-clone : tuple<tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:     func.return %loop, %called, %cc-tuple0 : tuple<tensor<2xf32>, tensor<2xf32>>, tuple<tensor<4xf32>, tensor<4xf32>>, tuple<tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:   }

// ALL-LABEL: func.func @helper(%h: tensor<2xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>> {
// ALL-NEXT:     %_0-clone = hlo.all_gather(%h) dim = 0 replica_groups = [[0, 1]] : (tensor<2xf32>) -> tensor<4xf32>
// ALL-NEXT:     %_1-clone = hlo.all_gather(%h) dim = 0 replica_groups = [[0, 1]] : (tensor<2xf32>) -> tensor<4xf32>
// ALL-NEXT:     %cc-tuple0 = hlo.tuple %_0-clone, %_1-clone : tuple<tensor<4xf32>, tensor<4xf32>>
// ALL-NEXT:     func.return %cc-tuple0 : tuple<tensor<4xf32>, tensor<4xf32>>
// ALL-NEXT:   }
// ALL-LABEL: func.func @main(%v: tensor<2xf32>, %w: tensor<2xf32>) -> (tuple<tensor<2xf32>, tensor<2xf32>>, tuple<tensor<4xf32>, tensor<4xf32>>, tuple<tensor<2xf32>, tensor<2xf32>>) {
// ALL-NEXT:     %init = hlo.tuple %v, %w : tuple<tensor<2xf32>, tensor<2xf32>>
// ALL-NEXT:     %loop = hlo.while(%init) : tuple<tensor<2xf32>, tensor<2xf32>> condition {
// ALL-NEXT:     ^bb0(%cs: tuple<tensor<2xf32>, tensor<2xf32>>):
// ALL-NEXT:       %go = hlo.custom_call "keep_going"(%cs) : (tuple<tensor<2xf32>, tensor<2xf32>>) -> tensor<i1>
// ALL-NEXT:       hlo.return %go : tensor<i1>
// ALL-NEXT:     } body {
// ALL-NEXT:     ^bb0(%bs: tuple<tensor<2xf32>, tensor<2xf32>>):
// ALL-NEXT:       %e0 = hlo.get_tuple_element %bs[0] : tuple<tensor<2xf32>, tensor<2xf32>>
// ALL-NEXT:       %e1 = hlo.get_tuple_element %bs[1] : tuple<tensor<2xf32>, tensor<2xf32>>
// ALL-NEXT:       %_0-clone = hlo.all_reduce(%e0) replica_groups = [[0, 1]] {
// ALL-NEXT:       ^bb0(%x: tensor<f32>, %y: tensor<f32>):
// ALL-NEXT:         %s = hlo.add %x, %y : tensor<f32>
// ALL-NEXT:         hlo.return %s : tensor<f32>
// ALL-NEXT:       } : (tensor<2xf32>) -> tensor<2xf32>
// ALL-NEXT:       %_1-clone = hlo.all_reduce(%e1) replica_groups = [[0, 1]] {
// ALL-NEXT:       ^bb0(%x_1: tensor<f32>, %y_1: tensor<f32>):
// ALL-NEXT:         %s_1 = hlo.add %x_1, %y_1 : tensor<f32>
// ALL-NEXT:         hlo.return %s_1 : tensor<f32>
// ALL-NEXT:       } : (tensor<2xf32>) -> tensor<2xf32>
// ALL-NEXT:       %cc-tuple1 = hlo.tuple %_0-clone, %_1-clone : tuple<tensor<2xf32>, tensor<2xf32>>
// ALL-NEXT:       hlo.return %cc-tuple1 : tuple<tensor<2xf32>, tensor<2xf32>>
// ALL-NEXT:     }
// ALL-NEXT:     %called = hlo.call @helper(%v) : (tensor<2xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
// ALL-NEXT:     %_0-clone_1 = hlo.all_reduce(%v) replica_groups = [[0, 1]] {
// ALL-NEXT:     ^bb0(%x_2: tensor<f32>, %y_2: tensor<f32>):
// ALL-NEXT:       %s_2 = hlo.add %x_2, %y_2 : tensor<f32>
// ALL-NEXT:       hlo.return %s_2 : tensor<f32>
// ALL-NEXT:     } : (tensor<2xf32>) -> tensor<2xf32>
// ALL-NEXT:     %_1-clone_1 = hlo.all_reduce(%w) replica_groups = [[0, 1]] {
// ALL-NEXT:     ^bb0(%x_3: tensor<f32>, %y_3: tensor<f32>):
// ALL-NEXT:       %s_3 = hlo.add %x_3, %y_3 : tensor<f32>
// ALL-NEXT:       hlo.return %s_3 : tensor<f32>
// ALL-NEXT:     } : (tensor<2xf32>) -> tensor<2xf32>
// ALL-NEXT:     %cc-tuple2 = hlo.tuple %_0-clone_1, %_1-clone_1 : tuple<tensor<2xf32>, tensor<2xf32>>
// ALL-NEXT:     func.return %loop, %called, %cc-tuple2 : tuple<tensor<2xf32>, tensor<2xf32>>, tuple<tensor<4xf32>, tensor<4xf32>>, tuple<tensor<2xf32>, tensor<2xf32>>
// ALL-NEXT:   }

// -----

// The entry is the function marked `hlo.entry` (here not named main): only its collective is
// split by default; @other's stays.
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @other(%a: tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>> {
    %o = hlo.all_reduce(%a, %a) replica_groups = [[0, 1]] {
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = hlo.add %x, %y : tensor<f32>
      hlo.return %s : tensor<f32>
    } : (tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>>
    func.return %o : tuple<tensor<2xf32>, tensor<2xf32>>
  }
  func.func @marked(%a: tensor<2xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>> attributes {hlo.entry} {
    %g = hlo.all_gather(%a, %a) dim = 0 replica_groups = [[0, 1]] : (tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
    func.return %g : tuple<tensor<4xf32>, tensor<4xf32>>
  }
}

// CHECK-LABEL: func.func @other(%a: tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>> {
// CHECK-NEXT:     %o = hlo.all_reduce(%a, %a) replica_groups = [[0, 1]] {
// CHECK-NEXT:     ^bb0(%x: tensor<f32>, %y: tensor<f32>):
// CHECK-NEXT:       %s = hlo.add %x, %y : tensor<f32>
// CHECK-NEXT:       hlo.return %s : tensor<f32>
// CHECK-NEXT:     } : (tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:     func.return %o : tuple<tensor<2xf32>, tensor<2xf32>>
// CHECK-NEXT:   }
// CHECK-LABEL: func.func @marked(%a: tensor<2xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>> attributes {hlo.entry} {
// CHECK-NEXT:     %_0-clone = hlo.all_gather(%a) dim = 0 replica_groups = [[0, 1]] : (tensor<2xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %_1-clone = hlo.all_gather(%a) dim = 0 replica_groups = [[0, 1]] : (tensor<2xf32>) -> tensor<4xf32>
// CHECK-NEXT:     %cc-tuple0 = hlo.tuple %_0-clone, %_1-clone : tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:     func.return %cc-tuple0 : tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:   }

// ALL-LABEL: func.func @other(%a: tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>> {
// ALL-NEXT:     %_0-clone = hlo.all_reduce(%a) replica_groups = [[0, 1]] {
// ALL-NEXT:     ^bb0(%x: tensor<f32>, %y: tensor<f32>):
// ALL-NEXT:       %s = hlo.add %x, %y : tensor<f32>
// ALL-NEXT:       hlo.return %s : tensor<f32>
// ALL-NEXT:     } : (tensor<2xf32>) -> tensor<2xf32>
// ALL-NEXT:     %_1-clone = hlo.all_reduce(%a) replica_groups = [[0, 1]] {
// ALL-NEXT:     ^bb0(%x_1: tensor<f32>, %y_1: tensor<f32>):
// ALL-NEXT:       %s_1 = hlo.add %x_1, %y_1 : tensor<f32>
// ALL-NEXT:       hlo.return %s_1 : tensor<f32>
// ALL-NEXT:     } : (tensor<2xf32>) -> tensor<2xf32>
// ALL-NEXT:     %cc-tuple0 = hlo.tuple %_0-clone, %_1-clone : tuple<tensor<2xf32>, tensor<2xf32>>
// ALL-NEXT:     func.return %cc-tuple0 : tuple<tensor<2xf32>, tensor<2xf32>>
// ALL-NEXT:   }
// ALL-LABEL: func.func @marked(%a: tensor<2xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>> attributes {hlo.entry} {
// ALL-NEXT:     %_0-clone = hlo.all_gather(%a) dim = 0 replica_groups = [[0, 1]] : (tensor<2xf32>) -> tensor<4xf32>
// ALL-NEXT:     %_1-clone = hlo.all_gather(%a) dim = 0 replica_groups = [[0, 1]] : (tensor<2xf32>) -> tensor<4xf32>
// ALL-NEXT:     %cc-tuple1 = hlo.tuple %_0-clone, %_1-clone : tuple<tensor<4xf32>, tensor<4xf32>>
// ALL-NEXT:     func.return %cc-tuple1 : tuple<tensor<4xf32>, tensor<4xf32>>
// ALL-NEXT:   }

// -----

// Nothing to do: only single-operand collectives; the module is printed unchanged.
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @only_single(%a: tensor<2xf32>) -> tensor<4xf32> {
    %g = hlo.all_gather(%a) dim = 0 replica_groups = [[0, 1]] : (tensor<2xf32>) -> tensor<4xf32>
    func.return %g : tensor<4xf32>
  }
}

// CHECK-LABEL: func.func @only_single(%a: tensor<2xf32>) -> tensor<4xf32> {
// CHECK-NEXT:     %g = hlo.all_gather(%a) dim = 0 replica_groups = [[0, 1]] : (tensor<2xf32>) -> tensor<4xf32>
// CHECK-NEXT:     func.return %g : tensor<4xf32>
// CHECK-NEXT:   }

// -----

// No entry computation (two functions, neither marked hlo.entry nor named main).
builtin.module attributes {hlo.num_replicas = 2 : i64} {
  func.func @f(%a: tensor<2xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>> {
    %g = hlo.all_gather(%a, %a) dim = 0 replica_groups = [[0, 1]] : (tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
    func.return %g : tuple<tensor<4xf32>, tensor<4xf32>>
  }
  func.func @g(%a: tensor<2xf32>) -> tensor<2xf32> {
    func.return %a : tensor<2xf32>
  }
}

// CHECK: module has no entry computation
// ERR: error: module has no entry computation
