builtin.module {
  func.func @main() -> tensor<4xf32> {
    %c = hlo.constant dense<"0x0000803F0000"> : tensor<4xf32>
    func.return %c : tensor<4xf32>
  }
}
