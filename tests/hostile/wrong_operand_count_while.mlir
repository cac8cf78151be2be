builtin.module attributes {hlo.num_partitions = 8 : i64} {
  func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = "hlo.while"() ({
    ^bb0(%s: tensor<8xf32>):
      %p = "hlo.constant"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
      "hlo.return"(%p) : (tensor<i1>) -> ()
    }, {
    ^bb0(%s: tensor<8xf32>):
      "hlo.return"(%s) : (tensor<8xf32>) -> ()
    }) : () -> tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}
