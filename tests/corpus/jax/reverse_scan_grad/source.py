@case
def reverse_scan_grad():
    def body(ws, w0, xs):                 # ws (T=4,16,8) per-step weights, replicated; w0 (8,16)
        def loss(ws, w0):                 # replicated; xs (T, 64, 16) batch-sharded -> (T, 8, 16)
            def step(h, inp):
                w, x = inp                # w (16, 8) replicated, x (8, 16) local
                y = jnp.tanh((x + h) @ w)            # (8, 8)
                return y @ w0, jnp.mean(y * y)        # carry (8, 16); per-step loss
            h0 = lax.pcast(jnp.zeros(xs.shape[1:], xs.dtype), ("x",), to="varying")
            h, ls = lax.scan(step, h0, (ws, xs))
            return jnp.sum(ls) + jnp.mean(h)
        # d/dws is the stacked output of the reverse (transposed) scan, written at T-1-i;
        # the replicated->varying cast of each w_t transposes to a psum inside that loop.
        gws, gw0 = jax.grad(loss, argnums=(0, 1))(ws, w0)
        return gws, gw0
    r = rng_for("reverse_scan_grad")
    return dict(
        kind="shard_map", mesh=MESH_X, fn=body,
        in_specs=(P(), P(), P(None, "x")), out_specs=(P(), P()),
        args=[f32(r, 4, 16, 8) * 0.3, f32(r, 8, 16) * 0.3, f32(r, 4, 64, 16)],
        description="jax.grad through a forward lax.scan over T=4 steps with per-step replicated "
                    "weights ws[t] and a shared weight w0: the backward pass is a reverse scan.",
        expect=dict(
            summary="forward loop: no collective. Backward (transposed, reverse) loop: two "
                    "all-reduces, both movable out of it: d/dw0 is add-accumulated into a zero-init "
                    "carry (sink: one all-reduce after the loop); d/dws[t] is written by "
                    "dynamic-update-slice at index T-1-i (subtract(subtract(4, i), 1)) into a "
                    "zero-init (4,16,8) buffer, every slot exactly once (trip count 4 == buffer dim "
                    "0, T-1-i a bijection on [0,4)): sinkable by stacking the local values and "
                    "all-reducing the whole buffer once after the loop",
            collectives=[
                dict(op="all-reduce", reduction="add", dtype="f32", shape="[8,16]{0,1}",
                     in_loop=True, hoistable=True, loop="backward (transpose(jvp())/while)",
                     pattern="acc + all-reduce(transpose(dot)), acc init broadcast(0); the "
                             "all-reduce has layout {0,1}, the carry {1,0}",
                     rewrite="accumulate locally, one all-reduce after the loop"),
                dict(op="all-reduce", reduction="add", dtype="f32", shape="[16,8]{0,1}",
                     in_loop=True, sinkable=True, loop="backward (transpose(jvp())/while)",
                     pattern="dynamic-update-slice(buf, reshape(all-reduce(x)), 4-i-1, 0, 0), "
                             "buf init broadcast(0), trip count 4",
                     rewrite="DUS the local (16,8) values into the (4,16,8) buffer at 4-i-1 "
                             "inside the loop, one all-reduce of the stacked buffer after it")]))
