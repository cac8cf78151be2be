builtin.module {
  func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.call @f(%x) : (tensor<8xf32>) -> tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
  func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.call @g(%a) : (tensor<8xf32>) -> tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
  func.func @g(%b: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.call @f(%b) : (tensor<8xf32>) -> tensor<8xf32>
    func.return %r : tensor<8xf32>
  }
}
