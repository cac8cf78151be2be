builtin.module {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %c = hlo.constant dense<[0x7FC00000, 0x7F800000, 0xFF800000, 0xFFC00000]> : tensor<4xf32>
    %h = hlo.constant dense<[0x7F80, 0x7FC0]> : tensor<2xbf16>
    %r = hlo.add %x, %c : tensor<4xf32>
    func.return %r : tensor<4xf32>
  }
}
