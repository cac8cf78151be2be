@case
def pmean_grad_accum():
    def body(w, xs):                      # w: (16,8) replicated; xs: (M=4, 64, 16) batch-sharded
        def step(acc, x):                 # x: local microbatch (8, 16)
            h = jnp.tanh(x @ w)           # (8, 8)
            g = x.T @ h                   # local gradient (16, 8)
            return acc + lax.pmean(g, "x"), None     # pmean = psum / 8
        acc, _ = lax.scan(step, jnp.zeros_like(w), xs)
        return acc
    r = rng_for("pmean_grad_accum")
    return dict(
        kind="shard_map", mesh=MESH_X, fn=body,
        in_specs=(P(), P(None, "x")), out_specs=P(),
        args=[f32(r, 16, 8) * 0.3, f32(r, 4, 64, 16)],
        description="Data-parallel gradient accumulation with lax.pmean: each of 4 scan steps adds "
                    "pmean(local_grad) (= all-reduce(add) then divide by the axis size 8) into a "
                    "zero-init carry.",
        expect=dict(
            summary="all-reduce(add) -> divide by constant 8 -> add into zero-init carry: movable "
                    "out of the loop (division by a loop-invariant, replicated constant distributes "
                    "over the sum: sum_t AR(g_t)/8 == AR(sum_t g_t)/8); the divide has to move with it",
            collectives=[dict(op="all-reduce", reduction="add", dtype="f32", group="all 8",
                              in_loop=True, hoistable=True,
                              pattern="body: acc + divide(all-reduce(g), broadcast(constant(8)))",
                              rewrite="accumulate local g in the loop; after it one all-reduce of "
                                      "the accumulator, then the divide by 8")]))
