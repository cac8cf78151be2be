@case
def mean_of_psum():
    def body(w, xs, n, cnt):              # w (16,8) repl; xs (4,64,16) batch-sharded; n f32[] repl;
        inv_n = 1.0 / n                   # cnt (4, 8) per-step token count, sharded -> local (4, 1)
        def step(carry, inp):
            a_div, a_mul, a_tok = carry
            x, c = inp                    # x (8, 16); c (1,) this shard's count at this step
            g = x.T @ jnp.tanh(x @ w)     # (16, 8)
            a_div = a_div + lax.psum(g, "x") / n          # jnp.mean-style: sum / n
            a_mul = a_mul + lax.psum(g * 0.5, "x") * inv_n  # * (1/n), 1/n computed before the loop
            a_tok = a_tok + lax.psum(g * 2.0, "x") / c[0]  # divisor differs per device AND per step
            return (a_div, a_mul, a_tok), None
        z = jnp.zeros_like(w)
        (a, b, c), _ = lax.scan(step, (z, z, lax.pcast(z, ("x",), to="varying")), (xs, cnt))
        return a, b, c
    r = rng_for("mean_of_psum")
    return dict(
        kind="shard_map", mesh=MESH_X, fn=body,
        in_specs=(P(), P(None, "x"), P(), P(None, "x")), out_specs=(P(), P(), P("x")),
        args=[f32(r, 16, 8) * 0.3, f32(r, 4, 64, 16), np.float32(64.0),
              r.integers(1, 9, size=(4, 8)).astype(np.float32)],
        description="Mean-style scaling of psum'd gradients accumulated over 4 scan steps: "
                    "acc + psum(g)/n and acc + psum(g*0.5)*(1/n) with n a replicated f32 scalar "
                    "argument (1/n computed before the loop), and acc + psum(g*2)/c_t with c_t a "
                    "per-device, per-step count (sharded input sliced per step).",
        expect=dict(
            summary="psum/n and psum*(1/n) with a replicated loop-invariant n: movable out of the "
                    "loop (sum_t AR(g_t)/n == AR(sum_t g_t)/n); psum/c_t with c_t varying per "
                    "step: must stay (the scale changes every iteration and differs per device, so "
                    "sum_t AR(g_t)/c_t,d is not one all-reduce of a local accumulation)",
            collectives=[
                dict(op="all-reduce", reduction="add", dtype="f32", in_loop=True, hoistable=True,
                     pattern="acc + divide(all-reduce(g), broadcast(n)), n = loop-invariant "
                             "(while-carried pass-through) replicated scalar parameter",
                     rewrite="accumulate g locally, after the loop divide(all-reduce(acc), n)"),
                dict(op="all-reduce", reduction="add", dtype="f32", in_loop=True, hoistable=True,
                     pattern="acc + multiply(all-reduce(g*0.5), broadcast(1/n)), 1/n computed "
                             "before the loop and carried through unchanged",
                     rewrite="accumulate g*0.5 locally, after the loop all-reduce(acc) * (1/n)"),
                dict(op="all-reduce", reduction="add", dtype="f32", in_loop=True, hoistable=False,
                     reason="divisor c_t is loop-variant (dynamic-slice of the per-step counts) "
                            "and device-varying: the scale cannot be factored out of the sum over "
                            "iterations, and cannot be pushed inside the all-reduce")]))
