// RUN: neuron-opt %s -p hlo-sync-collectives | filecheck %s
// RUN: neuron-opt %s -p hlo-sync-collectives --verify-equivalence -o /dev/null

// hlo-sync-collectives: one case per rewrite, and a pair it leaves.

builtin.module attributes {hlo.num_replicas = 4 : i64} {
  // The all_reduce takes the start's place, groups and reducer; the done's users use it.
  // CHECK-LABEL: func.func @all_reduce(%x: tensor<8xf32>) -> tensor<8xf32> attributes {hlo.entry} {
  // CHECK-NEXT:    %ard = hlo.all_reduce(%x) replica_groups = [[0, 1], [2, 3]] channel_id = 3 {
  // CHECK-NEXT:    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
  // CHECK-NEXT:      %c = hlo.maximum %a, %b : tensor<f32>
  // CHECK-NEXT:      hlo.return %c : tensor<f32>
  // CHECK-NEXT:    } : (tensor<8xf32>) -> tensor<8xf32>
  // CHECK-NEXT:    %n = hlo.negate %x : tensor<8xf32>
  // CHECK-NEXT:    %r = hlo.add %ard, %n : tensor<8xf32>
  // CHECK-NEXT:    func.return %r : tensor<8xf32>
  func.func @all_reduce(%x: tensor<8xf32>) -> tensor<8xf32> attributes {hlo.entry} {
    %ars = hlo.all_reduce_start(%x) replica_groups = [[0, 1], [2, 3]] channel_id = 3 {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.maximum %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    %n = hlo.negate %x : tensor<8xf32>
    %ard = hlo.all_reduce_done %ars : (tensor<8xf32>) -> tensor<8xf32>
    %r = hlo.add %ard, %n : tensor<8xf32>
    func.return %r : tensor<8xf32>
  }

  // CHECK-LABEL: func.func @all_gather(%x: tensor<8xf32>) -> tensor<32xf32> {
  // CHECK-NEXT:    %agd = hlo.all_gather(%x) dim = 0 replica_groups = [] : (tensor<8xf32>) -> tensor<32xf32>
  // CHECK-NEXT:    func.return %agd : tensor<32xf32>
  func.func @all_gather(%x: tensor<8xf32>) -> tensor<32xf32> {
    %ags = hlo.all_gather_start(%x) dim = 0 replica_groups = [] : (tensor<8xf32>) -> tuple<tensor<8xf32>, tensor<32xf32>>
    %agd = hlo.all_gather_done %ags : (tuple<tensor<8xf32>, tensor<32xf32>>) -> tensor<32xf32>
    func.return %agd : tensor<32xf32>
  }

  // CHECK-LABEL: func.func @permute(%x: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK-NEXT:    %cpd = hlo.collective_permute %x pairs = [[0, 1], [1, 2], [2, 3], [3, 0]] : tensor<8xf32>
  // CHECK-NEXT:    func.return %cpd : tensor<8xf32>
  func.func @permute(%x: tensor<8xf32>) -> tensor<8xf32> {
    %cps = hlo.collective_permute_start %x pairs = [[0, 1], [1, 2], [2, 3], [3, 0]] : (tensor<8xf32>) -> tuple<tensor<8xf32>, tensor<8xf32>, tensor<ui32>, tensor<ui32>>
    %cpd = hlo.collective_permute_done %cps : (tuple<tensor<8xf32>, tensor<8xf32>, tensor<ui32>, tensor<ui32>>) -> tensor<8xf32>
    func.return %cpd : tensor<8xf32>
  }

  // An async computation (with an update) becomes its body, inlined; @neg stays.
  // CHECK-LABEL: func.func @neg(%v: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK-LABEL: func.func @async(%x: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK-NEXT:    %m = hlo.negate %x : tensor<8xf32>
  // CHECK-NEXT:    func.return %m : tensor<8xf32>
  func.func @neg(%v: tensor<8xf32>) -> tensor<8xf32> {
    %m = hlo.negate %v : tensor<8xf32>
    func.return %m : tensor<8xf32>
  }
  func.func @async(%x: tensor<8xf32>) -> tensor<8xf32> {
    %as = hlo.async_start @neg(%x) : (tensor<8xf32>) -> tuple<tuple<tensor<8xf32>>, tensor<8xf32>, tensor<i32>>
    %au = hlo.async_update %as : (tuple<tuple<tensor<8xf32>>, tensor<8xf32>, tensor<i32>>) -> tuple<tuple<tensor<8xf32>>, tensor<8xf32>, tensor<i32>>
    %ad = hlo.async_done %au : (tuple<tuple<tensor<8xf32>>, tensor<8xf32>, tensor<i32>>) -> tensor<8xf32>
    func.return %ad : tensor<8xf32>
  }

  // A handle with another user than its done is left as it is.
  // CHECK-LABEL: func.func @handle_used_twice(%x: tensor<8xf32>) -> tuple<tensor<8xf32>, tuple<tensor<8xf32>, tensor<32xf32>>> {
  // CHECK-NEXT:    %ags = hlo.all_gather_start(%x)
  // CHECK-NEXT:    %agd = hlo.all_gather_done %ags
  func.func @handle_used_twice(%x: tensor<8xf32>) -> tuple<tensor<8xf32>, tuple<tensor<8xf32>, tensor<32xf32>>> {
    %ags = hlo.all_gather_start(%x) dim = 0 replica_groups = [] : (tensor<8xf32>) -> tuple<tensor<8xf32>, tensor<32xf32>>
    %agd = hlo.all_gather_done %ags : (tuple<tensor<8xf32>, tensor<32xf32>>) -> tensor<32xf32>
    %t = hlo.tuple %x, %ags : tuple<tensor<8xf32>, tuple<tensor<8xf32>, tensor<32xf32>>>
    func.return %t : tuple<tensor<8xf32>, tuple<tensor<8xf32>, tensor<32xf32>>>
  }
}
