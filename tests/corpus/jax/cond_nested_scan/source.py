@case
def cond_nested_scan():
    def body(w, ws, xs, xs2):   # w (16,8) replicated; ws (L=3,16,16) replicated
        # (a) dynamic-loss-scaling style skip: predicate from a psum (replicated)
        def step(carry, x):     # xs (T=5, 64, 16) -> (5, 8, 16)
            acc, nskip = carry
            g = x.T @ jnp.tanh(x @ w)                                  # (16, 8) local grad
            bad = lax.psum(jnp.sum(jnp.where(jnp.isfinite(g), 0.0, 1.0)) + jnp.sum(x * x) * 0.0
                           + (jnp.max(jnp.abs(g)) > 4.0).astype(jnp.float32), "x")
            ok = bad == 0.0
            acc = lax.cond(ok, lambda a: a + lax.psum(g, "x"), lambda a: a, acc)
            return (acc, nskip + (1 - ok.astype(jnp.int32))), None
        (acc, nskip), _ = lax.scan(step, (jnp.zeros_like(w), jnp.int32(0)), xs)
        # (b) nested: outer microbatches, inner scan over layers, pmean of per-layer grads
        def micro(carry, x):    # xs2 (M=4, 64, 16) -> (4, 8, 16)
            gacc, bacc = carry
            def layer(inner, wl):
                h, bacc = inner
                y = jnp.tanh(h @ wl)
                gw = lax.pmean(h.T @ (1 - y * y), "x")                 # per-layer weight grad
                bacc = bacc + lax.pmean(jnp.sum(1 - y * y, 0), "x")    # shared bias-grad accum
                return (y, bacc), gw
            (_, bacc), gws = lax.scan(layer, (x, bacc), ws)            # gws stacked (3,16,16)
            return (gacc + gws, bacc), None
        (gacc, bacc), _ = lax.scan(micro, (jnp.zeros_like(ws), jnp.zeros((16,), ws.dtype)), xs2)
        return acc, nskip, gacc, bacc
    r = rng_for("cond_nested_scan")
    xs = f32(r, 5, 64, 16) * 0.3
    xs[3, :8] *= 3.0           # make device 0 trip the threshold at step 3 -> skipped everywhere
    return dict(
        kind="shard_map", mesh=MESH_X, fn=body,
        in_specs=(P(), P(), P(None, "x"), P(None, "x")), out_specs=(P(), P(), P(), P()),
        args=[f32(r, 16, 8) * 0.3, f32(r, 3, 16, 16) * 0.3, xs, f32(r, 4, 64, 16)],
        description="(a) scan with lax.cond whose predicate comes from a psum (overflow/skip "
                    "check), taken branch accumulates psum(g); (b) outer microbatch scan, inner "
                    "layer scan emitting pmean per-layer grads (stacked) and accumulating a pmean "
                    "bias grad.",
        expect=dict(
            summary="four all-reduces in three loops. (a) skip-check scan: the psum of the "
                    "local bad-gradient indicators is compared with 0 to pick the lax.cond "
                    "branch in the same step - it stays; the taken branch's psum(g) is added "
                    "into a zero-initialised carry and the predicate is replicated (it comes "
                    "from a psum), so it can be split out of the conditional and sunk (the "
                    "skipped steps add a local 0). (b) an outer microbatch scan around an inner "
                    "layer scan: the bias-grad pmean accumulates into a carry threaded through "
                    "both loops (movable out of both), and the per-layer weight-grad pmean is "
                    "the inner scan's stacked output (/8 -> reshape -> dynamic-update-slice at "
                    "the layer index), which the outer scan adds into a zero-initialised "
                    "(3,16,16) carry: stack local grads, all-reduce once after the outer loop",
            collectives=[
                dict(op="all-reduce", reduction="add", dtype="f32", shape="[16,8]", in_loop=True,
                     hoistable=True, loops="skip-check scan, inside the true branch of a "
                                           "conditional",
                     pattern="acc = cond(psum(bad) == 0, acc + all-reduce(g), acc), acc init 0",
                     rewrite="split out of the conditional (replicated predicate: the false "
                             "branch adds 0), local accumulation, one all-reduce after the loop"),
                dict(op="all-reduce", reduction="add", dtype="f32", shape="[]", in_loop=True,
                     hoistable=False, loops="skip-check scan",
                     pattern="compare(all-reduce(bad), 0, EQ) -> the conditional's predicate "
                             "and nskip + (1 - ok)",
                     reason="its result decides this step's branch: needed inside the loop; "
                            "not an accumulation"),
                dict(op="all-reduce", reduction="add", dtype="f32", shape="[16]", in_loop=True,
                     hoistable=True, loops="inner layer scan inside outer microbatch scan",
                     pattern="bacc + all-reduce(reduce_sum(1 - y * y)) / 8; bacc threaded outer "
                             "carry -> inner init -> inner result -> outer root, init 0",
                     rewrite="local accumulation through both loops, one all-reduce after the "
                             "outer loop"),
                dict(op="all-reduce", reduction="add", dtype="f32", shape="[16,16]", in_loop=True,
                     hoistable=True, loops="inner layer scan inside outer microbatch scan",
                     pattern="inner: dynamic-update-slice(ys, reshape(all-reduce(h^T (1 - y*y)) "
                             "/ 8), l), the stacked per-layer grad; outer: gacc + gws, gacc "
                             "init 0",
                     rewrite="stack the local grads in the inner loop, accumulate the local "
                             "stack in the outer loop, one all-reduce of the (3,16,16) buffer "
                             "(and /8) after the outer loop")]))
