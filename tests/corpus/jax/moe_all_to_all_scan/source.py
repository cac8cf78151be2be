@case
def moe_all_to_all_scan():
    E = 8
    def body(wr, we, x):        # wr (L=4,8,8) router replicated; we (4,8,8,8) expert-sharded -> (4,1,8,8)
        def layer(carry, ws):   # x (128, 8) tokens sharded -> (16, 8)
            h, counts, aux = carry
            w_r, w_e = ws
            probs = jax.nn.softmax(h @ w_r, axis=-1)                   # (16, E)
            mask = jax.nn.one_hot(jnp.argmax(probs, -1), E, dtype=h.dtype)   # top-1 (16, E)
            disp = jnp.einsum("te,td->etd", mask, h)                   # (E, 16, 8)
            y = lax.all_to_all(disp, "x", 0, 0, tiled=True)            # dispatch
            y = jax.nn.relu(jnp.einsum("std,de->ste", y, w_e[0]))      # local expert
            y = lax.all_to_all(y, "x", 0, 0, tiled=True)               # combine
            h = h + jnp.einsum("etd,te->td", y, mask * probs)
            c = jnp.sum(mask, axis=0)                                  # local tokens/expert (E,)
            counts = counts + lax.psum(c, "x")                         # load statistic (movable)
            aux = aux + lax.psum(jnp.sum(c * jnp.mean(probs, 0)) * E / h.shape[0], "x")
            return (h, counts, aux), None
        init = (x, jnp.zeros((E,), x.dtype), jnp.zeros((), x.dtype))
        (h, counts, aux), _ = lax.scan(layer, init, (wr, we))
        return h, counts, aux
    r = rng_for("moe_all_to_all_scan")
    return dict(
        kind="shard_map", mesh=MESH_X, fn=body,
        in_specs=(P(), P(None, "x"), P("x")), out_specs=(P("x"), P(), P()),
        args=[f32(r, 4, 8, 8) * 0.5, f32(r, 4, 8, 8, 8) * 0.3, f32(r, 128, 8)],
        description="Top-1 MoE layers in a scan: two all_to_all per layer, token-count and "
                    "load-balance aux psums accumulated.",
        expect=dict(
            summary="four collectives in the layer scan: the two all-to-alls (dispatch tokens "
                    "to experts, combine results back) stay - they are not reductions and the "
                    "combined output updates h, the next layer's input. The token-count and "
                    "load-balance aux psums are added into zero-initialised carries and move",
            collectives=[
                dict(op="all-to-all", dtype="f32", shape="[8,16,8]", in_loop=True,
                     hoistable=False, pattern="dispatch: all-to-all(einsum(mask, h)) over dim 0",
                     reason="not a reduction; its input depends on the loop-carried h"),
                dict(op="all-to-all", dtype="f32", shape="[8,16,8]", in_loop=True,
                     hoistable=False,
                     pattern="combine: all-to-all(relu(expert(y))); h' = h + einsum(result, "
                             "mask * probs)",
                     reason="not a reduction; the result updates the loop-carried h"),
                dict(op="all-reduce", reduction="add", dtype="f32", shape="[8]", in_loop=True,
                     hoistable=True, pattern="counts + all-reduce(reduce_sum(mask)), init 0",
                     rewrite="local accumulation, one all-reduce after the loop"),
                dict(op="all-reduce", reduction="add", dtype="f32", shape="[]", in_loop=True,
                     hoistable=True, pattern="aux + all-reduce(sum(c * mean(probs)) * E / n), "
                                             "init 0",
                     rewrite="local accumulation, one all-reduce after the loop")]))
