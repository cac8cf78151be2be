builtin.module {
  func.func @helper(%x: tensor<8xf32>) -> tensor<8xf32> {
    func.return %x : tensor<8xf32>
  }
  func.func @other(%x: tensor<8xf32>) -> tensor<8xf32> {
    func.return %x : tensor<8xf32>
  }
}
