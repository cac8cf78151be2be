@case
def zero_fsdp_scan():
    def body(w1s, w2s, xs):     # w1 (16,32) sharded dim0 -> (2,32); w2 (32,8) sharded dim0 -> (4,8)
        def loss1(w1, w2, x):   # xs (M=4, 64, 16) -> (4, 8, 16)
            return jnp.mean(jnp.tanh(jnp.tanh(x @ w1) @ w2) ** 2)
        def loss2(w2_shard, w1, x):     # FSDP idiom: all_gather inside the differentiated fn
            w2 = lax.all_gather(w2_shard, "x", axis=0, tiled=True)
            return loss1(w1, w2, x)
        def step(carry, x):
            a1, a2 = carry
            w1 = lax.all_gather(w1s, "x", axis=0, tiled=True)          # loop-invariant param
            w2 = lax.all_gather(w2s, "x", axis=0, tiled=True)
            v = lambda a: a                       # all_gather output is already varying (vma)
            g1 = jax.grad(loss1)(v(w1), v(w2), x)                      # local full grad (16,32)
            a1 = a1 + lax.psum_scatter(g1, "x", scatter_dimension=0, tiled=True)   # (2,32)
            g2 = jax.grad(loss2)(w2s, v(w1), x)                        # transpose(all_gather) = RS
            a2 = a2 + g2
            return (a1, a2), None
        init = (jnp.zeros_like(w1s), jnp.zeros_like(w2s))
        (a1, a2), _ = lax.scan(step, init, xs)
        return a1, a2
    r = rng_for("zero_fsdp_scan")
    return dict(
        kind="shard_map", mesh=MESH_X, fn=body,
        in_specs=(P("x"), P("x"), P(None, "x")), out_specs=(P("x"), P("x")),
        args=[f32(r, 16, 32) * 0.3, f32(r, 32, 8) * 0.3, f32(r, 4, 64, 16)],
        description="ZeRO/FSDP: all_gather of sharded loop-invariant params inside the scan, "
                    "explicit psum_scatter of the w1 grad and autodiff (transpose of all_gather) "
                    "reduce-scatter of the w2 grad, both accumulated into shard buffers.",
        expect=dict(
            summary="four collectives in the scan, all movable. The two all-gathers rebuild the "
                    "full w1/w2 from loop-invariant shards (parameters threaded unchanged "
                    "through the carry): hoist them before the loop. The explicit "
                    "psum_scatter of the w1 gradient and the reduce-scatter that autodiff "
                    "emits for the transpose of all_gather(w2) are added into zero-initialised "
                    "shard buffers: accumulate the local full gradients and reduce-scatter once "
                    "after the loop",
            collectives=[
                dict(op="all-gather", dtype="f32", shape="[16,32]", in_loop=True, hoistable=True,
                     pattern="all-gather(w1 shard), shard loop-invariant (carried unchanged)",
                     rewrite="one all-gather before the loop"),
                dict(op="all-gather", dtype="f32", shape="[32,8]", in_loop=True, hoistable=True,
                     pattern="all-gather(w2 shard), shard loop-invariant (carried unchanged)",
                     rewrite="one all-gather before the loop"),
                dict(op="reduce-scatter", reduction="add", dtype="f32", shape="[2,32]",
                     in_loop=True, hoistable=True,
                     pattern="a1 + reduce-scatter(g1) (lax.psum_scatter), a1 init 0",
                     rewrite="accumulate the local (16,32) gradient, one reduce-scatter after "
                             "the loop"),
                dict(op="reduce-scatter", reduction="add", dtype="f32", shape="[4,8]",
                     in_loop=True, hoistable=True,
                     pattern="a2 + reduce-scatter(g2), the transpose of all_gather(w2) under "
                             "jax.grad, a2 init 0",
                     rewrite="accumulate the local (32,8) gradient, one reduce-scatter after "
                             "the loop")]))
