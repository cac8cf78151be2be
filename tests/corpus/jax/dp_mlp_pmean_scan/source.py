@case
def dp_mlp_pmean_scan():
    def body(params, xs, ys):   # params {w1 (16,32), b1 (32,), w2 (32,4), b2 (4,)} replicated
        def loss(p, x, y):      # xs (M=4, 64, 16) -> (4, 8, 16); ys (4, 64, 4) -> (4, 8, 4)
            h = jnp.tanh(x @ p["w1"] + p["b1"])
            out = h @ p["w2"] + p["b2"]
            return jnp.mean((out - y) ** 2)
        def step(acc, xy):
            x, y = xy
            local = jax.tree.map(lambda a: lax.pcast(a, ("x",), to="varying"), params)
            l, g = jax.value_and_grad(loss)(local, x, y)
            g = lax.pmean(g, "x")                       # 4 all-reduces (one per leaf) / 8
            acc = jax.tree.map(jnp.add, acc, g)
            return acc, lax.pmean(l, "x")               # per-step loss, stacked scan output
        acc0 = jax.tree.map(jnp.zeros_like, params)
        acc, losses = lax.scan(step, acc0, (xs, ys))
        acc = jax.tree.map(lambda a: a / xs.shape[0], acc)
        return acc, losses
    r = rng_for("dp_mlp_pmean_scan")
    params = {"w1": f32(r, 16, 32) * 0.3, "b1": f32(r, 32) * 0.1,
              "w2": f32(r, 32, 4) * 0.3, "b2": f32(r, 4) * 0.1}
    return dict(
        kind="shard_map", mesh=MESH_X, fn=body,
        in_specs=(P(), P(None, "x"), P(None, "x")), out_specs=(P(), P()),
        args=[params, f32(r, 4, 64, 16), f32(r, 4, 64, 4)],
        description="DP grad accumulation of a 2-layer MLP: value_and_grad in scan, pmean of the "
                    "4-leaf grad pytree accumulated, pmean of the loss as stacked scan output.",
        expect=dict(
            summary="five all-reduces in the scan, all movable. The four gradient pmeans "
                    "(one per leaf of the {w1, b1, w2, b2} pytree: all-reduce then divide by 8) "
                    "are added into zero-initialised carries: local sums, one all-reduce and the "
                    "/8 per leaf after the loop. The loss pmean is the per-step stacked scan "
                    "output: all-reduce(l) / 8 -> reshape -> dynamic-update-slice into the (4,) "
                    "ys buffer at i. Each step writes a distinct row and nothing else in the "
                    "loop reads the buffer, so the local losses can be stacked instead and the "
                    "whole buffer all-reduced (and divided by 8) once after the loop",
            collectives=[
                dict(op="all-reduce", reduction="add", dtype="f32", shape="[32]", in_loop=True,
                     hoistable=True, pattern="acc_b1 + all-reduce(reduce_sum(dh)) / 8, acc init 0",
                     rewrite="local accumulation, one all-reduce (and /8) after the loop"),
                dict(op="all-reduce", reduction="add", dtype="f32", shape="[4]", in_loop=True,
                     hoistable=True, pattern="acc_b2 + all-reduce(reduce_sum(dout)) / 8, acc init 0",
                     rewrite="local accumulation, one all-reduce (and /8) after the loop"),
                dict(op="all-reduce", reduction="add", dtype="f32", shape="[16,32]", in_loop=True,
                     hoistable=True, pattern="acc_w1 + all-reduce(transpose(x^T dh)) / 8, "
                                             "acc init 0",
                     rewrite="local accumulation, one all-reduce (and /8) after the loop"),
                dict(op="all-reduce", reduction="add", dtype="f32", shape="[32,4]", in_loop=True,
                     hoistable=True, pattern="acc_w2 + all-reduce(transpose(h^T dout)) / 8, "
                                             "acc init 0",
                     rewrite="local accumulation, one all-reduce (and /8) after the loop"),
                dict(op="all-reduce", reduction="add", dtype="f32", shape="[]", in_loop=True,
                     hoistable=True,
                     pattern="dynamic-update-slice(ys, reshape(all-reduce(l) / 8), i): the "
                             "per-step loss as a stacked scan output, row i written once",
                     rewrite="dynamic-update-slice the local loss into a local (4,) buffer, one "
                             "all-reduce of the buffer (and /8) after the loop")]))
