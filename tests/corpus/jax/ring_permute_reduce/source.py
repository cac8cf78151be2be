@case
def ring_permute_reduce():
    def body(x, y):            # x, y: (16, 8) -> local (2, 8)
        up = [(i, (i + 1) % 8) for i in range(8)]
        down = [(i, (i - 1) % 8) for i in range(8)]
        pairs = [(i, i ^ 1) for i in range(8)]
        def it(i, carry):
            acc, hi = carry
            acc = acc + lax.ppermute(acc, "x", up)          # ring shift + add
            hi = jnp.maximum(lax.ppermute(hi, "x", down), hi)  # ring shift by -1 + max
            return acc, hi
        acc, hi = lax.fori_loop(0, 3, it, (x, y))
        swapped = lax.ppermute(acc, "x", pairs) * y        # rings of two + multiply
        return acc, hi, swapped
    r = rng_for("ring_permute_reduce")
    return dict(
        kind="shard_map", mesh=MESH_X, fn=body,
        in_specs=(P("x"), P("x")), out_specs=(P("x"), P("x"), P("x")),
        args=[f32(r, 16, 8), f32(r, 16, 8)],
        description="ppermute combined with its local value: acc + ppermute(acc, i -> i+1), "
                    "max(ppermute(hi, i -> i-1), hi) in fori_loop(0, 3), ppermute(acc, i <-> i^1) * y.",
        expect=dict(summary="each collective-permute's only use is an add / maximum / multiply with "
                            "a local value: convert-hlo-to-bir fuses PermuteReduce(Implicit)",
                    collectives=[dict(op="collective-permute", in_loop=True, hoistable=False),
                                 dict(op="collective-permute", in_loop=True, hoistable=False),
                                 dict(op="collective-permute", in_loop=False, hoistable=False)]))
