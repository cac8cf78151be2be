@case
def bf16_clip_global_norm():
    CLIP = 1.0
    def body(params, xs, ys):   # params bf16 {w1 (16,32), b1 (32,), w2 (32,4), b2 (4,)} replicated
        def loss(p, x, y):      # f32 compute on bf16-stored params: the grads come out bf16
            p = jax.tree.map(lambda a: a.astype(jnp.float32), p)
            h = jnp.tanh(x @ p["w1"] + p["b1"])
            out = h @ p["w2"] + p["b2"]
            return jnp.mean((out - y) ** 2)
        def step(carry, xy):
            acc, = carry
            x, y = xy
            local = jax.tree.map(lambda a: lax.pcast(a, ("x",), to="varying"), params)
            g = jax.grad(loss)(local, x, y)                          # bf16 local grads
            g32 = jax.tree.map(lambda a: a.astype(jnp.float32), g)
            sq = sum(jnp.sum(a * a) for a in jax.tree.leaves(g32))   # local squared norm
            gnorm = jnp.sqrt(lax.psum(sq, "x"))                      # global norm (stays)
            scale = jnp.minimum(1.0, CLIP / (gnorm + 1e-6))
            gm = lax.pmean(g, "x")                                   # bf16 all-reduces
            acc = jax.tree.map(lambda a, b: a + scale * b.astype(jnp.float32), acc, gm)
            return (acc,), gnorm
        acc0 = jax.tree.map(lambda a: jnp.zeros(a.shape, jnp.float32), params)
        (acc,), gnorms = lax.scan(step, (acc0,), (xs, ys))
        return acc, gnorms
    r = rng_for("bf16_clip_global_norm")
    params = {"w1": (f32(r, 16, 32) * 0.3).astype(ml_dtypes.bfloat16),
              "b1": (f32(r, 32) * 0.1).astype(ml_dtypes.bfloat16),
              "w2": (f32(r, 32, 4) * 0.3).astype(ml_dtypes.bfloat16),
              "b2": (f32(r, 4) * 0.1).astype(ml_dtypes.bfloat16)}
    return dict(
        kind="shard_map", mesh=MESH_X, fn=body,
        in_specs=(P(), P(None, "x"), P(None, "x")), out_specs=(P(), P()),
        args=[params, f32(r, 5, 64, 16), f32(r, 5, 64, 4) + 1.0],
        description="bf16-stored params, an f32 forward/backward whose grads w.r.t. the bf16 "
                    "params come out bf16 (one f32->bf16 convert each), pmean'd in bf16, "
                    "converted to f32, scaled by a clip factor from psum of the local squared "
                    "norms (f32), accumulated in f32 over 5 scan steps (gnorm ~10: the clip is "
                    "active). Targets are N(1, 1) so the gradient sums do not cancel across "
                    "devices: the moved all-reduce rounds each device's bf16 partial sum, an "
                    "error on the partials' scale, and the tests bound it by the output's bf16 "
                    "scale.",
        expect=dict(
            summary="five all-reduces in the scan; the four bf16 gradient pmeans move, the f32 "
                    "global-norm psum stays. gnorm = sqrt(psum(sum of squared local grads)) "
                    "gives the clip scale min(1, 1/(gnorm + 1e-6)) that multiplies this step's "
                    "gradients inside the loop and is also the stacked gnorm output, so it is "
                    "needed every step. The bf16 pmeans are converted to f32, multiplied by that "
                    "scale (replicated: every device computes it from the same psum) and added "
                    "to f32 zero-initialised accumulators: scale_t * AR(g_t) = AR(scale_t * g_t) "
                    "because the scale is the same on every device, so the local scaled sum can "
                    "be accumulated and all-reduced once after the loop. The moved sum rounds "
                    "differently from XLA's per-step bf16 all-reduce then f32 scale: each "
                    "device's f32 partial sum is rounded to bf16 before the one all-reduce "
                    "(here within 0.5% of each output's max |value|)",
            collectives=[
                dict(op="all-reduce", reduction="add", dtype="f32", shape="[]", in_loop=True,
                     hoistable=False,
                     pattern="sqrt(all-reduce(sum_k reduce_sum(convert<f32>(g_k)^2))) -> clip scale, "
                             "used by this step's update and written to the gnorm ys buffer",
                     reason="its result is needed inside the same iteration (sqrt -> clip "
                            "scale -> multiplies the step's gradients): not an accumulation"),
                *[dict(op="all-reduce", reduction="add", dtype="bf16", shape=shape,
                       in_loop=True, hoistable=True,
                       pattern="acc + scale * convert<f32>(all-reduce<bf16>(convert<bf16>(g32)) "
                               "/ 8), acc f32 init 0, scale replicated (from the gnorm "
                               "all-reduce)",
                       rewrite="local accumulation of the scaled gradient, one bf16-typed "
                               "all-reduce after the loop (the pass keeps the collective bf16)")
                  for shape in ("[32]", "[4]", "[16,32]", "[32,4]")]]))
