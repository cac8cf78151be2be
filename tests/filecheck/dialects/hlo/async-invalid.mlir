// RUN: neuron-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

// One case per verifier rule of the asynchronous ops (neuron_cc/dialects/hlo/async_ops.py).

// all_reduce_done of something that is not an all_reduce_start.
// CHECK: the operand of hlo.all_reduce_done must be the result of hlo.all_reduce_start
builtin.module attributes {hlo.num_replicas = 4 : i64} {
  func.func @neg(%v: tensor<8xf32>) -> tensor<8xf32> {
    %n = hlo.negate %v : tensor<8xf32>
    func.return %n : tensor<8xf32>
  }
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %d = hlo.all_reduce_done %x : (tensor<8xf32>) -> tensor<8xf32>
    func.return %d : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// all_reduce_done of another type.
// CHECK-NEXT: result tensor<4xf32> is not the started tensor<8xf32>
builtin.module attributes {hlo.num_replicas = 4 : i64} {
  func.func @neg(%v: tensor<8xf32>) -> tensor<8xf32> {
    %n = hlo.negate %v : tensor<8xf32>
    func.return %n : tensor<8xf32>
  }
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %s = hlo.all_reduce_start(%x) replica_groups = [] {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    %d = hlo.all_reduce_done %s : (tensor<8xf32>) -> tensor<4xf32>
    func.return %x : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// all_reduce_start checks its groups like all_reduce.
// CHECK-NEXT: replica group 0 contains id 7 outside [0, 4)
builtin.module attributes {hlo.num_replicas = 4 : i64} {
  func.func @neg(%v: tensor<8xf32>) -> tensor<8xf32> {
    %n = hlo.negate %v : tensor<8xf32>
    func.return %n : tensor<8xf32>
  }
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %s = hlo.all_reduce_start(%x) replica_groups = [[0, 7]] {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    func.return %x : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// all_gather_start returns the tuple (operand, gathered).
// CHECK-NEXT: result tensor<32xf32> should be tuple<tensor<8xf32>, tensor<32xf32>>
builtin.module attributes {hlo.num_replicas = 4 : i64} {
  func.func @neg(%v: tensor<8xf32>) -> tensor<8xf32> {
    %n = hlo.negate %v : tensor<8xf32>
    func.return %n : tensor<8xf32>
  }
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %g = hlo.all_gather_start(%x) dim = 0 replica_groups = [] : (tensor<8xf32>) -> tensor<32xf32>
    func.return %x : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// all_gather_done returns the gathered value.
// CHECK-NEXT: result 0 has type tensor<8xf32>, expected tensor<32xf32>
builtin.module attributes {hlo.num_replicas = 4 : i64} {
  func.func @neg(%v: tensor<8xf32>) -> tensor<8xf32> {
    %n = hlo.negate %v : tensor<8xf32>
    func.return %n : tensor<8xf32>
  }
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %g = hlo.all_gather_start(%x) dim = 0 replica_groups = [] : (tensor<8xf32>) -> tuple<tensor<8xf32>, tensor<32xf32>>
    %d = hlo.all_gather_done %g : (tuple<tensor<8xf32>, tensor<32xf32>>) -> tensor<8xf32>
    func.return %d : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// collective_permute_start returns (operand, result, ui32, ui32).
// CHECK-NEXT: should be tuple<tensor<8xf32>, tensor<8xf32>, tensor<ui32>, tensor<ui32>>
builtin.module attributes {hlo.num_replicas = 4 : i64} {
  func.func @neg(%v: tensor<8xf32>) -> tensor<8xf32> {
    %n = hlo.negate %v : tensor<8xf32>
    func.return %n : tensor<8xf32>
  }
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %p = hlo.collective_permute_start %x pairs = [[0, 1]] : (tensor<8xf32>) -> tuple<tensor<8xf32>, tensor<8xf32>>
    func.return %x : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// collective_permute_start checks its pairs like collective_permute.
// CHECK-NEXT: source id 0 appears in more than one pair
builtin.module attributes {hlo.num_replicas = 4 : i64} {
  func.func @neg(%v: tensor<8xf32>) -> tensor<8xf32> {
    %n = hlo.negate %v : tensor<8xf32>
    func.return %n : tensor<8xf32>
  }
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %p = hlo.collective_permute_start %x pairs = [[0, 1], [0, 2]] : (tensor<8xf32>) -> tuple<tensor<8xf32>, tensor<8xf32>, tensor<ui32>, tensor<ui32>>
    func.return %x : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// collective_permute_done returns the permuted value.
// CHECK-NEXT: result tensor<4xf32> should be tensor<8xf32>
builtin.module attributes {hlo.num_replicas = 4 : i64} {
  func.func @neg(%v: tensor<8xf32>) -> tensor<8xf32> {
    %n = hlo.negate %v : tensor<8xf32>
    func.return %n : tensor<8xf32>
  }
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %p = hlo.collective_permute_start %x pairs = [[0, 1]] : (tensor<8xf32>) -> tuple<tensor<8xf32>, tensor<8xf32>, tensor<ui32>, tensor<ui32>>
    %d = hlo.collective_permute_done %p : (tuple<tensor<8xf32>, tensor<8xf32>, tensor<ui32>, tensor<ui32>>) -> tensor<4xf32>
    func.return %x : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// async_start: the handle starts with the tuple of the operands.
// CHECK-NEXT: the handle's first element tuple<tensor<4xf32>> is not the tuple of the operands
builtin.module attributes {hlo.num_replicas = 4 : i64} {
  func.func @neg(%v: tensor<8xf32>) -> tensor<8xf32> {
    %n = hlo.negate %v : tensor<8xf32>
    func.return %n : tensor<8xf32>
  }
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %as = hlo.async_start @neg(%x) : (tensor<8xf32>) -> tuple<tuple<tensor<4xf32>>, tensor<8xf32>, tensor<i32>>
    func.return %x : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// async_done: calls must be the start's.
// CHECK-NEXT: calls @other is not the computation of its async_start, @neg
builtin.module attributes {hlo.num_replicas = 4 : i64} {
  func.func @neg(%v: tensor<8xf32>) -> tensor<8xf32> {
    %n = hlo.negate %v : tensor<8xf32>
    func.return %n : tensor<8xf32>
  }
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %as = hlo.async_start @neg(%x) : (tensor<8xf32>) -> tuple<tuple<tensor<8xf32>>, tensor<8xf32>, tensor<i32>>
    %ad = hlo.async_done %as calls = @other : (tuple<tuple<tensor<8xf32>>, tensor<8xf32>, tensor<i32>>) -> tensor<8xf32>
    func.return %ad : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// async_done: the thread must be the start's.
// CHECK-NEXT: the execution thread is not the one of its async_start
builtin.module attributes {hlo.num_replicas = 4 : i64} {
  func.func @neg(%v: tensor<8xf32>) -> tensor<8xf32> {
    %n = hlo.negate %v : tensor<8xf32>
    func.return %n : tensor<8xf32>
  }
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %as = hlo.async_start @neg(%x) execution_thread = "a" : (tensor<8xf32>) -> tuple<tuple<tensor<8xf32>>, tensor<8xf32>, tensor<i32>>
    %ad = hlo.async_done %as execution_thread = "b" : (tuple<tuple<tensor<8xf32>>, tensor<8xf32>, tensor<i32>>) -> tensor<8xf32>
    func.return %ad : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// async_update keeps the handle type.
// CHECK-NEXT: is not the handle
builtin.module attributes {hlo.num_replicas = 4 : i64} {
  func.func @neg(%v: tensor<8xf32>) -> tensor<8xf32> {
    %n = hlo.negate %v : tensor<8xf32>
    func.return %n : tensor<8xf32>
  }
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %as = hlo.async_start @neg(%x) : (tensor<8xf32>) -> tuple<tuple<tensor<8xf32>>, tensor<8xf32>, tensor<i32>>
    %au = hlo.async_update %as : (tuple<tuple<tensor<8xf32>>, tensor<8xf32>, tensor<i32>>) -> tuple<tuple<tensor<8xf32>>, tensor<8xf32>, tensor<ui32>>
    func.return %x : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// async_done returns the call's result.
// CHECK-NEXT: result tensor<4xf32> should be tensor<8xf32>
builtin.module attributes {hlo.num_replicas = 4 : i64} {
  func.func @neg(%v: tensor<8xf32>) -> tensor<8xf32> {
    %n = hlo.negate %v : tensor<8xf32>
    func.return %n : tensor<8xf32>
  }
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %as = hlo.async_start @neg(%x) : (tensor<8xf32>) -> tuple<tuple<tensor<8xf32>>, tensor<8xf32>, tensor<i32>>
    %ad = hlo.async_done %as : (tuple<tuple<tensor<8xf32>>, tensor<8xf32>, tensor<i32>>) -> tensor<4xf32>
    func.return %x : tensor<8xf32>
  }
}

// -----

// CHECK: // {{-----}}
// async_done of something that is not an async start or update.
// CHECK-NEXT: the operand of hlo.async_done must be the result of hlo.async_start or hlo.async_update
builtin.module attributes {hlo.num_replicas = 4 : i64} {
  func.func @neg(%v: tensor<8xf32>) -> tensor<8xf32> {
    %n = hlo.negate %v : tensor<8xf32>
    func.return %n : tensor<8xf32>
  }
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %t = hlo.tuple %x : tuple<tensor<8xf32>>
    %h = hlo.tuple %t, %x, %x : tuple<tuple<tensor<8xf32>>, tensor<8xf32>, tensor<8xf32>>
    %ad = hlo.async_done %h : (tuple<tuple<tensor<8xf32>>, tensor<8xf32>, tensor<8xf32>>) -> tensor<8xf32>
    func.return %ad : tensor<8xf32>
  }
}
