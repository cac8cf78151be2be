builtin.module {
  func.func @main() -> tensor<i32> {
    %c = hlo.constant dense<4294967296> : tensor<i32>
    func.return %c : tensor<i32>
  }
}
