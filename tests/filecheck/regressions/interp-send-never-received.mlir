// RUN: not neuron-run %s --random-inputs 0 --outputs %t.npz 2>&1 | filecheck %s
// RUN: not test -e %t.npz

// Found for issue 10 (interpreter safety): a send whose value no recv takes was silently
// dropped (XLA would block forever in send-done). The run now fails at the send.

// CHECK: error: {{.*}}interp-send-never-received.mlir:13:5: send on channel 1 is never received (no recv on that channel runs after it)
// CHECK-NOT: Traceback

builtin.module attributes {hlo.num_partitions = 2 : i64} {
  func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
    %t = hlo.after_all()
    %s = hlo.send %x, %t channel_id = 1 {_xla_send_recv_source_target_pairs = "{{0,1},{1,0}}"} : tensor<2xf32> -> tuple<tensor<2xf32>, tensor<ui32>, !hlo.token>
    func.return %x : tensor<2xf32>
  }
}
