builtin.module attributes {hlo.num_partitions = 8 : i64} {
  func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
    %r = hlo.all_reduce(%x) replica_groups = [[0, 1, 2, 3, 4, 5, 6, 7]] chann