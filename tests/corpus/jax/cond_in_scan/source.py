@case
def cond_in_scan():
    def body(w, xs):                      # w (16,8) replicated; xs (T=4, 64, 16) -> local (4, 8, 16)
        def step(carry, inp):
            acc, n_upd = carry
            i, x = inp                    # i: the step number (replicated), x (8, 16) local
            g = x.T @ jnp.tanh(x @ w)     # (16, 8) local gradient
            acc = lax.cond(i % 2 == 0,    # replicated predicate: every device takes the same branch
                           lambda a: a + lax.psum(g, "x"),
                           lambda a: a,
                           acc)
            return (acc, n_upd + (i % 2 == 0).astype(jnp.int32)), None
        T = xs.shape[0]
        (acc, n), _ = lax.scan(step, (jnp.zeros_like(w), jnp.int32(0)), (jnp.arange(T), xs))
        return acc, n
    r = rng_for("cond_in_scan")
    return dict(
        kind="shard_map", mesh=MESH_X, fn=body,
        in_specs=(P(), P(None, "x")), out_specs=(P(), P()),
        args=[f32(r, 16, 8) * 0.3, f32(r, 4, 64, 16)],
        description="Gradient accumulation every other step: inside the scan body lax.cond on the "
                    "replicated predicate i % 2 == 0 either returns acc + psum(g) or acc unchanged.",
        expect=dict(
            summary="all-reduce inside a branch of a conditional in the while body: movable out "
                    "of the loop. The branch index is replicated (derived from iota(4) carried "
                    "through the loop and dynamic-sliced by the counter), so every device takes the "
                    "same branch; the taken branch adds AR(g) to acc, the other returns acc, so "
                    "acc_final = sum over even steps of AR(g_t) = AR(sum over even steps of g_t): "
                    "accumulate the local g in the branch, one all-reduce after the loop",
            collectives=[
                dict(op="all-reduce", reduction="add", dtype="f32", in_loop=True, hoistable=True,
                     location="branch 1 of conditional(convert(eq(i % 2, 0)) : s32) in the body",
                     pattern="conditional(idx, acc, tuple(g, acc)), branch_computations="
                             "{identity(acc), gte(p,1) + all-reduce(gte(p,0))}; result returned "
                             "at acc's tuple index; acc init broadcast(0)",
                     rewrite="branch 1 becomes acc + g (local), all-reduce(acc) after the loop")]))
