@case
def pytree_mixed_accum():
    DT = [jnp.float32, jnp.bfloat16, jnp.float32, jnp.bfloat16, jnp.float32]
    def body(params, xs):                 # params: 5 layers x {w (8,8), b (8,)}, replicated;
        def loss(p, x):                   # xs (T=3, 64, 8) batch-sharded -> local (3, 8, 8)
            h = x
            for layer in p:
                h = jnp.tanh(h @ layer["w"].astype(jnp.float32) + layer["b"].astype(jnp.float32))
            return jnp.sum(h * h)
        # master accumulators: f32 for every w (bf16 w grads are converted), the b's in their
        # own dtype (bf16 b grads accumulate in bf16)
        acc0 = [{"w": jnp.zeros(l["w"].shape, jnp.float32), "b": jnp.zeros_like(l["b"])}
                for l in params]
        def step(acc, x):
            local = [jax.tree.map(lambda a: lax.pcast(a, ("x",), to="varying"), l) for l in params]
            grads = jax.grad(loss)(local, x)          # local (varying) gradients, dtypes of params
            grads = lax.psum(grads, "x")              # one all-reduce per leaf
            acc = [{"w": a["w"] + g["w"].astype(jnp.float32), "b": a["b"] + g["b"]}
                   for a, g in zip(acc, grads)]
            return acc, None
        acc, _ = lax.scan(step, acc0, xs)
        return acc
    r = rng_for("pytree_mixed_accum")
    params = [{"w": (f32(r, 8, 8) * 0.35).astype(dt), "b": (f32(r, 8) * 0.1).astype(dt)} for dt in DT]
    return dict(
        kind="shard_map", mesh=MESH_X, fn=body,
        in_specs=(P(), P(None, "x")), out_specs=P(),
        args=[params, f32(r, 3, 64, 8)],
        description="Gradient accumulation of a 5-layer MLP's parameter pytree (10 leaves: w (8,8) "
                    "and b (8,) per layer; layers 1 and 3 in bf16, the rest f32) over 3 scan "
                    "steps: local grads via jax.grad, lax.psum of the whole pytree, w grads "
                    "accumulated in f32 (bf16 ones converted), b grads in their own dtype.",
        expect=dict(
            summary="JAX emits one all-reduce per leaf (10, each in its leaf's dtype: 6 f32, 4 "
                    "bf16) inside the scan's while body; all are add-accumulated into zero-init "
                    "carries and movable out of the loop, each keeping its element type. The two "
                    "bf16 b leaves accumulate in bf16 (bf16 add into a bf16 carry: the sunk form "
                    "rounds differently, at bf16 scale); the two bf16 w leaves are "
                    "convert(all-reduce(convert_f32_to_bf16(g))) -> f32 add (the grad_accum_bf16_"
                    "convert pattern: the sunk all-reduce stays bf16 between converts). XLA:CPU's "
                    "combiner later merges all 10 into one tuple all-reduce, promoting the bf16 "
                    "ones to f32 (opt.hlo)",
            collectives=[
                dict(op="all-reduce", reduction="add", in_loop=True, hoistable=True,
                     leaf=f"{k}{i}", dtype="f32" if DT[i] == jnp.float32 else "bf16",
                     shape="[8]" if k == "b" else "[8,8]{0,1} (all-reduce of a transpose)",
                     accumulator=("f32" if k == "w" or DT[i] == jnp.float32 else "bf16"),
                     note={("w", True): "convert(all-reduce(bf16 convert of the f32 grad)) -> f32 "
                                        "add: the moved all-reduce must stay bf16",
                           ("b", True): "bf16 add into a bf16 carry: the reassociated sum matches "
                                        "the oracle at bf16 scale, not bitwise"}.get(
                               (k, DT[i] == jnp.bfloat16), "f32 add into an f32 carry"))
                for i in range(5) for k in ("b", "w")]))
