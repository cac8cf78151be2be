builtin.module {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {hlo.entry} {
    %s = hlo.async_start @nowhere(%x) : (tensor<4xf32>) -> tuple<tuple<tensor<4xf32>>, tensor<4xf32>, tensor<i32>>
    %d = hlo.async_done %s : (tuple<tuple<tensor<4xf32>>, tensor<4xf32>, tensor<i32>>) -> tensor<4xf32>
    func.return %d : tensor<4xf32>
  }
}
