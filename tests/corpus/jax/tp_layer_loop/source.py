@case
def tp_layer_loop():
    def body(w1s, w2s, x):      # w1s (L=4,16,32) col-sharded tp -> (4,16,8); w2s (4,32,16) row-sharded -> (4,8,16)
        def layer(carry, ws):   # x (16,16) dp-sharded rows -> (8,16), replicated over tp
            h, aux = carry
            w1, w2 = ws
            a = jax.nn.gelu(h @ w1)                       # (8, 8) column-parallel
            y = lax.psum(a @ w2, "tp")                    # row-parallel partial sums -> all-reduce tp
            h = h + y                                     # residual; next layer needs it (stays)
            aux = aux + lax.psum(jnp.mean(h * h), "dp")   # aux loss over dp: accumulated (movable)
            return (h, aux), None
        (h, aux), _ = lax.scan(layer, (x, jnp.zeros((), x.dtype)), (w1s, w2s))
        return h, aux
    r = rng_for("tp_layer_loop")
    return dict(
        kind="shard_map", mesh=MESH_DT, fn=body,
        in_specs=(P(None, None, "tp"), P(None, "tp", None), P("dp", None)),
        out_specs=(P("dp", None), P()),
        args=[f32(r, 4, 16, 32) * 0.2, f32(r, 4, 32, 16) * 0.2, f32(r, 16, 16)],
        description="Megatron MLP layers in a scan over L=4 layers on a 2x4 mesh: psum over tp "
                    "feeding the residual carry; aux loss psum over dp accumulated.",
        expect=dict(
            summary="two all-reduces in the layer scan on a 2x4 (dp, tp) mesh. The tp psum of "
                    "the row-parallel partial products feeds the residual h = h + psum(a @ w2), "
                    "and h is the next layer's input: it stays. The dp psum of the aux loss "
                    "mean(h * h) is added into a zero-initialised scalar carry: movable (h is "
                    "replicated over tp after the tp psum; the aux psum's groups are the dp "
                    "pairs {0,4},{1,5},{2,6},{3,7})",
            collectives=[
                dict(op="all-reduce", reduction="add", dtype="f32", shape="[8,16]", in_loop=True,
                     hoistable=False, groups="tp {{0,1,2,3},{4,5,6,7}}",
                     pattern="h' = h + all-reduce(gelu(h @ w1) @ w2); h' feeds the next "
                             "iteration's matmul and the aux loss",
                     reason="loop-carried dependency: the next layer needs the reduced value"),
                dict(op="all-reduce", reduction="add", dtype="f32", shape="[]", in_loop=True,
                     hoistable=True, groups="dp {{0,4},{1,5},{2,6},{3,7}}",
                     pattern="aux + all-reduce(mean(h' * h')), aux init 0",
                     rewrite="local accumulation, one dp all-reduce after the loop")]))
