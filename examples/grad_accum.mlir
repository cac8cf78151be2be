// Gradient accumulation over 4 microbatches on 8 partitions (one program per partition, as
// XLA's SPMD partitioner emits it). Each iteration computes a local gradient and all-reduces
// it across every partition, accumulating into slot 1 of the loop-carried tuple. This is the
// shape neuron-while-loop-all-reduce-code-motion rewrites (one all-reduce after the loop).
builtin.module attributes {hlo.num_partitions = 8 : i64, hlo.num_replicas = 1 : i64, hlo.use_spmd_partitioning} {
  func.func @main(%x: tensor<4x16xf32>, %w: tensor<16x8xf32>) -> tensor<16x8xf32> attributes {hlo.entry} {
    %zero = hlo.constant dense<0.000000e+00> : tensor<16x8xf32>
    %i0 = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %i0, %zero, %x, %w : tuple<tensor<i32>, tensor<16x8xf32>, tensor<4x16xf32>, tensor<16x8xf32>>
    %loop = hlo.while(%init) : tuple<tensor<i32>, tensor<16x8xf32>, tensor<4x16xf32>, tensor<16x8xf32>> condition {
    ^bb0(%s: tuple<tensor<i32>, tensor<16x8xf32>, tensor<4x16xf32>, tensor<16x8xf32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<16x8xf32>, tensor<4x16xf32>, tensor<16x8xf32>>
      %n = hlo.constant dense<4> : tensor<i32>
      %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
      hlo.return %p : tensor<i1>
    } body {
    ^bb0(%s: tuple<tensor<i32>, tensor<16x8xf32>, tensor<4x16xf32>, tensor<16x8xf32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<16x8xf32>, tensor<4x16xf32>, tensor<16x8xf32>>
      %acc = hlo.get_tuple_element %s[1] : tuple<tensor<i32>, tensor<16x8xf32>, tensor<4x16xf32>, tensor<16x8xf32>>
      %xs = hlo.get_tuple_element %s[2] : tuple<tensor<i32>, tensor<16x8xf32>, tensor<4x16xf32>, tensor<16x8xf32>>
      %ws = hlo.get_tuple_element %s[3] : tuple<tensor<i32>, tensor<16x8xf32>, tensor<4x16xf32>, tensor<16x8xf32>>
      %xt = hlo.transpose %xs, dims = [1, 0] : (tensor<4x16xf32>) -> tensor<16x4xf32>
      %grad = hlo.dot %xt, %xs lhs_contracting = [1], rhs_contracting = [0] : (tensor<16x4xf32>, tensor<4x16xf32>) -> tensor<16x16xf32>
      %g = hlo.slice %grad, start = [0, 0], limit = [16, 8], strides = [1, 1] : (tensor<16x16xf32>) -> tensor<16x8xf32>
      %scaled = hlo.multiply %g, %ws : tensor<16x8xf32>
      %sum = hlo.all_reduce(%scaled) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] channel_id = 1 use_global_device_ids {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %c = hlo.add %a, %b : tensor<f32>
        hlo.return %c : tensor<f32>
      } : (tensor<16x8xf32>) -> tensor<16x8xf32>
      %acc2 = hlo.add %acc, %sum : tensor<16x8xf32>
      %one = hlo.constant dense<1> : tensor<i32>
      %i2 = hlo.add %i, %one : tensor<i32>
      %unused = hlo.multiply %acc2, %acc2 : tensor<16x8xf32>
      %next = hlo.tuple %i2, %acc2, %xs, %ws : tuple<tensor<i32>, tensor<16x8xf32>, tensor<4x16xf32>, tensor<16x8xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<16x8xf32>, tensor<4x16xf32>, tensor<16x8xf32>>
    }
    %result = hlo.get_tuple_element %loop[1] : tuple<tensor<i32>, tensor<16x8xf32>, tensor<4x16xf32>, tensor<16x8xf32>>
    func.return %result : tensor<16x8xf32>
  }
}
