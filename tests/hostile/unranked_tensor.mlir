builtin.module {
  func.func @main(%x: tensor<*xf32>) -> tensor<*xf32> {
    %r = hlo.negate %x : tensor<*xf32>
    func.return %r : tensor<*xf32>
  }
}
