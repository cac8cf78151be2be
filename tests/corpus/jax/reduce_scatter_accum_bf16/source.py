@case
def reduce_scatter_accum_bf16():
    def body(w, xs):                      # w (16,16) replicated; xs (T=4, 64, 16) -> (4, 8, 16)
        def step(carry, x):               # ZeRO-2 style: each device keeps 1/8 of the gradient
            a32, a16, a_col = carry
            g = x.T @ jnp.tanh(x @ w)                                   # (16, 16) f32 local
            g16 = g.astype(jnp.bfloat16)
            rs = lax.psum_scatter(g16, "x", scatter_dimension=0, tiled=True)    # bf16 (2, 16)
            a32 = a32 + rs.astype(jnp.float32)          # f32 -> bf16 -> reduce-scatter -> f32 acc
            a16 = a16 + lax.psum_scatter(g16 * 0.5, "x", scatter_dimension=0, tiled=True)  # bf16 acc
            a_col = a_col + lax.psum_scatter(g, "x", scatter_dimension=1, tiled=True)   # f32 (16, 2)
            return (a32, a16, a_col), None
        z = lambda shape, dt: lax.pcast(jnp.zeros(shape, dt), ("x",), to="varying")
        init = (z((2, 16), jnp.float32), z((2, 16), jnp.bfloat16), z((16, 2), jnp.float32))
        out, _ = lax.scan(step, init, xs)
        return out
    r = rng_for("reduce_scatter_accum_bf16")
    return dict(
        kind="shard_map", mesh=MESH_X, fn=body,
        in_specs=(P(), P(None, "x")), out_specs=(P("x"), P("x"), P(None, "x")),
        args=[f32(r, 16, 16) * 0.3, f32(r, 4, 64, 16)],
        description="Sharded gradient accumulation with lax.psum_scatter(tiled=True) over 4 scan "
                    "steps: a bf16 reduce-scatter (dim 0) of the bf16-cast gradient converted to "
                    "f32 and added to an f32 shard accumulator; a bf16 reduce-scatter added to a "
                    "bf16 accumulator; an f32 reduce-scatter on dim 1.",
        expect=dict(
            summary="three reduce-scatters add-accumulated into zero-init shard carries: all "
                    "movable out of the loop (accumulate the un-scattered local (16,16) values in "
                    "a widened carry, one reduce-scatter after the loop). bf16 ones: the sunk sum "
                    "is reassociated, so outputs match at bf16 scale",
            collectives=[
                dict(op="reduce-scatter", reduction="add", dtype="bf16", dimensions=[0],
                     in_loop=True, hoistable=True,
                     pattern="acc_f32 + convert(reduce-scatter(convert_f32_to_bf16(g)))",
                     rewrite="setup reorders convert(RS(x)) -> RS(convert(x)); the (16,16) carry "
                             "accumulates convert(convert(g)) in f32; one reduce-scatter after",
                     dtype_after="f32",
                     dtype_after_reason="the setup's convert reorder (ISSUE6 section 1; upstream "
                                        "ReorderConvertReduceAdd does the same) widens the "
                                        "reduce-scatter to f32: unlike all-reduce, reduce-scatter "
                                        "has no 'stay narrow when the operand is a convert from "
                                        "the wide type' exception (2x the bytes of the bf16 one)"),
                dict(op="reduce-scatter", reduction="add", dtype="bf16", dimensions=[0],
                     in_loop=True, hoistable=True,
                     pattern="acc_bf16 + reduce-scatter(g_bf16 * 0.5) (bf16 add into bf16 carry)",
                     rewrite="bf16 (16,16) local accumulator, one bf16 reduce-scatter after"),
                dict(op="reduce-scatter", reduction="add", dtype="f32", dimensions=[1],
                     in_loop=True, hoistable=True,
                     pattern="acc + reduce-scatter(g) on dim 1 (f32[16,2] shard)",
                     rewrite="f32 (16,16) local accumulator, one reduce-scatter after")]))
