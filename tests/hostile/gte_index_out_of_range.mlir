builtin.module attributes {hlo.num_partitions = 8 : i64} {
  func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
    %t = hlo.tuple %x : tuple<tensor<8xf32>>
    %r = hlo.get_tuple_element %t[5] : tuple<tensor<8xf32>>
    func.return %r : tensor<8xf32>
  }
}
