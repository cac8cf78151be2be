builtin.module attributes {hlo.num_partitions = 8 : i64} {
  func.func @main(%x: tensor<8x