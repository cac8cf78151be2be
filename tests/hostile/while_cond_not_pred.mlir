builtin.module attributes {hlo.num_partitions = 8 : i64} {
  func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
    %zero = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %zero, %x : tuple<tensor<i32>, tensor<8xf32>>
    %w = hlo.while(%init) : tuple<tensor<i32>, tensor<8xf32>> condition {
    ^bb0(%s: tuple<tensor<i32>, tensor<8xf32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<8xf32>>
      %n = hlo.constant dense<3> : tensor<i32>
      %p = hlo.compare LT, %i, %n : tensor<i32> -> tensor<i1>
      hlo.return %i : tensor<i32>
    } body {
    ^bb0(%s: tuple<tensor<i32>, tensor<8xf32>>):
      %i = hlo.get_tuple_element %s[0] : tuple<tensor<i32>, tensor<8xf32>>
      %v = hlo.get_tuple_element %s[1] : tuple<tensor<i32>, tensor<8xf32>>
      %one = hlo.constant dense<1> : tensor<i32>
      %i2 = hlo.add %i, %one : tensor<i32>
      %next = hlo.tuple %i2, %v : tuple<tensor<i32>, tensor<8xf32>>
      hlo.return %next : tuple<tensor<i32>, tensor<8xf32>>
    }
    %r = hlo.get_tuple_element %w[1] : tuple<tensor<i32>, tensor<8xf32>>
    func.return %r : tensor<8xf32>
  }
}
