"""Exact HLO text of ragged-all-to-all, add-dependency, domain, copy-start/-done,
infeed/outfeed and the RNG ops (issue 17); tests/test_hlo_export.py adds the case to its op
table."""

SRC_SIDE_EFFECTS = r"""
builtin.module @side_effects attributes {hlo.num_replicas = 2 : i64} {
func.func @main(%in: tensor<4x2xf32>, %out: tensor<6x2xf32>, %o: tensor<2xi32>, %seed: tensor<2xui64>, %a: tensor<f32>, %b: tensor<f32>) -> tuple<tensor<6x2xf32>, tuple<tensor<3xui32>, !hlo.token>, !hlo.token, tensor<8xf32>, tuple<tensor<2xui64>, tensor<3x4xui32>>, tensor<2xui64>> {
  %tok = hlo.after_all()
  %r = hlo.ragged_all_to_all %in, %out, %o, %o, %o, %o replica_groups = [[0, 1]] : (tensor<4x2xf32>, tensor<6x2xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<6x2xf32>
  %d = hlo.add_dependency %r, %tok : tensor<6x2xf32>
  %m = hlo.domain %d domain = "{kind=\"sharding\", entry={maximal device=0}, exit={maximal device=1}}" : tensor<6x2xf32>
  %s = hlo.copy_start %m cross_program_prefetch_index = 1 : tensor<6x2xf32> -> tuple<tensor<6x2xf32>, tensor<6x2xf32>, tensor<ui32>>
  %c = hlo.copy_done %s : tuple<tensor<6x2xf32>, tensor<6x2xf32>, tensor<ui32>> -> tensor<6x2xf32>
  %i = hlo.infeed %tok : tuple<tensor<3xui32>, !hlo.token>
  %t = hlo.outfeed %c, %tok {xla.outfeed_shape = "f32[6,2]{1,0}"} : tensor<6x2xf32>
  %n = hlo.rng %a, %b distribution = "rng_uniform" : (tensor<f32>, tensor<f32>) -> tensor<8xf32>
  %g = hlo.rng_bit_generator %seed algorithm = "rng_philox" : tensor<2xui64> -> tuple<tensor<2xui64>, tensor<3x4xui32>>
  %u = hlo.rng_get_and_update_state delta = 16 : tensor<2xui64>
  %res = hlo.tuple %c, %i, %t, %n, %g, %u : tuple<tensor<6x2xf32>, tuple<tensor<3xui32>, !hlo.token>, !hlo.token, tensor<8xf32>, tuple<tensor<2xui64>, tensor<3x4xui32>>, tensor<2xui64>>
  func.return %res : tuple<tensor<6x2xf32>, tuple<tensor<3xui32>, !hlo.token>, !hlo.token, tensor<8xf32>, tuple<tensor<2xui64>, tensor<3x4xui32>>, tensor<2xui64>>
}
}
"""

HLO_SIDE_EFFECTS = r"""HloModule side_effects, entry_computation_layout={(f32[4,2]{1,0}, f32[6,2]{1,0}, s32[2]{0}, u64[2]{0}, f32[], f32[])->(f32[6,2]{1,0}, (u32[3]{0}, token[]), token[], f32[8]{0}, (u64[2]{0}, u32[3,4]{1,0}), u64[2]{0})}, replica_count=2, num_partitions=1

ENTRY %main (in: f32[4,2], out: f32[6,2], o: s32[2], seed: u64[2], a: f32[], b: f32[]) -> (f32[6,2], (u32[3], token[]), token[], f32[8], (u64[2], u32[3,4]), u64[2]) {
  %in = f32[4,2]{1,0} parameter(0)
  %out = f32[6,2]{1,0} parameter(1)
  %o = s32[2]{0} parameter(2)
  %seed = u64[2]{0} parameter(3)
  %a = f32[] parameter(4)
  %b = f32[] parameter(5)
  %tok = token[] after-all()
  %r = f32[6,2]{1,0} ragged-all-to-all(%in, %out, %o, %o, %o, %o), replica_groups={{0,1}}
  %d = f32[6,2]{1,0} add-dependency(%r, %tok)
  %m = f32[6,2]{1,0} domain(%d), domain={kind="sharding", entry={maximal device=0}, exit={maximal device=1}}
  %s = (f32[6,2]{1,0}, f32[6,2]{1,0}, u32[]) copy-start(%m), cross_program_prefetch_index=1
  %c = f32[6,2]{1,0} copy-done(%s)
  %i = (u32[3]{0}, token[]) infeed(%tok)
  %t = token[] outfeed(%c, %tok), outfeed_shape=f32[6,2]{1,0}
  %n = f32[8]{0} rng(%a, %b), distribution=rng_uniform
  %g = (u64[2]{0}, u32[3,4]{1,0}) rng-bit-generator(%seed), algorithm=rng_philox
  %u = u64[2]{0} rng-get-and-update-state(), delta=16
  ROOT %res = (f32[6,2]{1,0}, (u32[3]{0}, token[]), token[], f32[8]{0}, (u64[2]{0}, u32[3,4]{1,0}), u64[2]{0}) tuple(%c, %i, %t, %n, %g, %u)
}
"""
