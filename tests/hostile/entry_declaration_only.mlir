builtin.module {
  func.func private @main(%x: tensor<8xf32>) -> tensor<8xf32>
}
