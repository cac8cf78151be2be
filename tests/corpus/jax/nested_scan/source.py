@case
def nested_scan():
    def body(ws, xs):                     # ws (L=3,16,16) replicated; xs (M=2,64,16) -> (2,8,16)
        L = ws.shape[0]
        def microbatch(carry, x):         # outer scan: one microbatch per step
            acc_b, acc_w = carry
            def layer(l, inner):          # inner loop over layers
                h, acc_b, acc_w = inner
                w = lax.dynamic_index_in_dim(ws, l, keepdims=False)          # (16, 16)
                y = jnp.tanh(h @ w)
                g_w = h.T @ y                                                # local dL/dw_l
                g_b = jnp.sum(y, axis=0)                                     # local dL/db (16,)
                acc_b = acc_b + lax.psum(g_b, "x")                           # shared accumulator
                row = lax.dynamic_index_in_dim(acc_w, l, keepdims=False)
                acc_w = lax.dynamic_update_index_in_dim(acc_w, row + lax.psum(g_w, "x"), l, 0)
                return y, acc_b, acc_w
            _, acc_b, acc_w = lax.fori_loop(0, L, layer, (x, acc_b, acc_w))
            return (acc_b, acc_w), None
        init = (jnp.zeros((16,), ws.dtype), jnp.zeros_like(ws))
        (acc_b, acc_w), _ = lax.scan(microbatch, init, xs)
        return acc_b, acc_w
    r = rng_for("nested_scan")
    return dict(
        kind="shard_map", mesh=MESH_X, fn=body,
        in_specs=(P(), P(None, "x")), out_specs=(P(), P()),
        args=[f32(r, 3, 16, 16) * 0.3, f32(r, 2, 64, 16)],
        description="Microbatch x layer: an outer lax.scan over 2 microbatches, an inner "
                    "fori_loop over 3 layers; the inner loop adds psum(g_b) into a shared (16,) "
                    "carry and psum(g_w) into row l of a (3,16,16) carry (dynamic-slice + add + "
                    "dynamic-update-slice at l); both accumulators are zero-initialised before the "
                    "outer loop and threaded through its carry.",
        expect=dict(
            summary="two all-reduces in the inner (layer) loop, both movable out of BOTH loops: "
                    "the inner loop's accumulators are initialised from the outer carry (not zero), "
                    "so the inner sink is init + AR(local sum); the outer loop then sees "
                    "acc + AR(...) into zero-init carries and sinks again: one all-reduce per "
                    "accumulator after the outer loop",
            collectives=[
                dict(op="all-reduce", reduction="add", dtype="f32", shape="[16]", in_loop=True,
                     hoistable=True, loops="inner fori_loop inside outer scan",
                     pattern="inner: acc_b + all-reduce(reduce_sum(y)); acc_b threaded "
                             "outer carry -> inner init -> inner result -> outer root",
                     rewrite="local accumulation through both loops, one all-reduce after the "
                             "outer loop"),
                dict(op="all-reduce", reduction="add", dtype="f32", shape="[16,16]", in_loop=True,
                     hoistable=True, loops="inner fori_loop inside outer scan",
                     pattern="dynamic-update-slice(acc_w, reshape(dynamic-slice(acc_w, l') + "
                             "all-reduce(g_w)), l'), l' = select(l < 0, l + 3, l) with l the "
                             "fori_loop's own counter (tuple index 1, not the while counter at 0)",
                     rewrite="accumulate the local g_w into row l' of a local (3,16,16) buffer, "
                             "one all-reduce of the whole buffer after the outer loop")]))
