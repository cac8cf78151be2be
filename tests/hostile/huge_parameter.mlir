builtin.module {
  func.func @main(%x: tensor<1000000000000xf32>) -> tensor<1000000000000xf32> {
    %r = hlo.negate %x : tensor<1000000000000xf32>
    func.return %r : tensor<1000000000000xf32>
  }
}
