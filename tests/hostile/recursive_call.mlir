builtin.module {
  func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.call @main(%x) : (tensor<8xf32>) -> tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}
