@case
def pmax_accumulate():
    def body(xs):                         # xs (T=4, 64, 16) batch-sharded -> local (4, 8, 16)
        def step(carry, x):               # x (8, 16)
            hi, lo, any_big, all_pos, n_big = carry
            v = jnp.max(jnp.abs(x), axis=0)                      # (16,) per-feature max |x|
            hi = jnp.maximum(hi, lax.pmax(v, "x"))               # running max of a MAX all-reduce
            lo = jnp.minimum(lo, lax.pmin(jnp.min(x, axis=0), "x"))  # running min of a MIN all-reduce
            big = v > 3.0
            any_big = jnp.logical_or(any_big, lax.pmax(big.astype(jnp.int32), "x") > 0)
            all_pos = jnp.logical_and(all_pos, lax.pmin((v > 0.9).astype(jnp.int32), "x") > 0)
            n_big = n_big + lax.psum(jnp.sum(big.astype(jnp.int32)), "x")  # scalar s32 psum
            return (hi, lo, any_big, all_pos, n_big), None
        init = (jnp.full((16,), -jnp.inf, jnp.float32), jnp.full((16,), jnp.inf, jnp.float32),
                jnp.zeros((16,), jnp.bool_), jnp.ones((16,), jnp.bool_), jnp.int32(0))
        out, _ = lax.scan(step, init, xs)
        return out
    r = rng_for("pmax_accumulate")
    return dict(
        kind="shard_map", mesh=MESH_X, fn=body,
        in_specs=(P(None, "x"),), out_specs=(P(), P(), P(), P(), P()),
        args=[f32(r, 4, 64, 16)],
        description="Running statistics over 4 scan steps: max(acc, pmax(v)) from -inf, "
                    "min(acc, pmin(v)) from +inf, any-flag or(flag, pmax(pred as s32) > 0), "
                    "all-flag and(flag, pmin(pred as s32) > 0), and a scalar s32 count "
                    "acc + psum(sum(pred as s32)).",
        expect=dict(
            summary="five all-reduces, all movable out of the loop. max(acc, pmax(v)) and "
                    "min(acc, pmin(v)): the accumulation op matches the reduction (associative, "
                    "commutative, idempotent) so a local running max/min plus one all-reduce "
                    "after the loop is exact (bitwise, no rounding); the scalar s32 psum count is "
                    "an exact integer add accumulation. The any/all flags are legal too but need "
                    "the compare moved: or(flag, pmax(c) > 0) with c in {0,1} equals "
                    "flag | (pmax(max_t c_t) > 0) - keep a local s32 running max (init 0; for "
                    "the all-flag a running min, init 1) and compare/or once after the loop",
            collectives=[
                dict(op="all-reduce", reduction="max", dtype="f32", in_loop=True, hoistable=True,
                     pattern="maximum(acc, all-reduce(max)(v)), acc init broadcast(-inf)",
                     rewrite="local running max, one max all-reduce after the loop"),
                dict(op="all-reduce", reduction="min", dtype="f32", in_loop=True, hoistable=True,
                     pattern="minimum(acc, all-reduce(min)(v)), acc init broadcast(inf)",
                     rewrite="local running min, one min all-reduce after the loop"),
                dict(op="all-reduce", reduction="max", dtype="s32", in_loop=True, hoistable=True,
                     pattern="or(flag, compare(all-reduce(max)(convert(pred)), 0, GT)), "
                             "flag: pred[16] init false",
                     rewrite="needs a new s32 carry: local running max of convert(pred), after "
                             "the loop flag_init | (all-reduce(max) > 0)",
                     today="unsupported operation on the collective's result: compare"),
                dict(op="all-reduce", reduction="min", dtype="s32", in_loop=True, hoistable=True,
                     pattern="and(flag, compare(all-reduce(min)(convert(pred)), 0, GT)), "
                             "flag: pred[16] init true",
                     rewrite="local running min (init 1), after the loop "
                             "flag_init & (all-reduce(min) > 0)",
                     today="unsupported operation on the collective's result: compare"),
                dict(op="all-reduce", reduction="add", dtype="s32", shape="[]", in_loop=True,
                     hoistable=True, pattern="n + all-reduce(reduce_sum(convert(pred))), n init 0",
                     rewrite="local integer count, one scalar all-reduce after the loop")]))
