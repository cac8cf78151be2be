"""Tests of the XLA HLO text exporter (`neuron_cc.translate.hlo_text.exporter`): exact text.

Each case parses an hlo-dialect module, exports it and compares the exact HLO text; the op
table covers every hlo op. Layouts, names, errors, scale and XLA's acceptance of the texts are
in tests/test_hlo_export_edge_cases.py.
"""

from __future__ import annotations

import functools
import re

import pytest
from xdsl.dialects.builtin import (
    ModuleOp,
)
from xdsl.parser import Parser

from neuron_cc.dialects.hlo import HLO
from neuron_cc.testing.ir import neuron_context
from neuron_cc.testing.loop_text import WhileLoop
from neuron_cc.translate.hlo_text import exporter
from neuron_cc.translate.hlo_text.exporter import OPCODES, export_hlo
from tests.hlo_export_permute_numeric_cases import (
    HLO_COMBINED_PERMUTE,
    HLO_IN_PLACE_PERMUTE,
    HLO_NUMERIC,
    SRC_COMBINED_PERMUTE,
    SRC_IN_PLACE_PERMUTE,
    SRC_NUMERIC,
)
from tests.hlo_export_side_effect_cases import HLO_SIDE_EFFECTS, SRC_SIDE_EFFECTS
from tests.hlo_export_structured_cases import HLO_STRUCTURED, SRC_STRUCTURED

_context = functools.cache(neuron_context)
"""One context for the whole file (building it registers every dialect)."""


def parse(src: str) -> ModuleOp:
    module = Parser(_context(), src).parse_module()
    module.verify()
    return module


def export(src: str) -> str:
    return export_hlo(parse(src))


SRC_COLLECTIVES = r"""
builtin.module @collectives attributes {hlo.num_partitions = 4 : i64, hlo.num_replicas = 1 : i64} {
  func.func @main(%x: tensor<8x4xf32>, %y: tensor<4xi32>) -> tensor<8x4xf32> {
    %sum = hlo.all_reduce(%x) replica_groups = [[0, 1], [2, 3]] channel_id = 1 use_global_device_ids {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %g = hlo.all_gather(%x) dim = 1 replica_groups = [2,2]<=[2,2]T(1,0) channel_id = 2 use_global_device_ids : (tensor<8x4xf32>) -> tensor<8x8xf32>
    %s = hlo.reduce_scatter(%g) dim = 0 replica_groups = [1,4]<=[4] channel_id = 3 use_global_device_ids {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = hlo.maximum %a, %b : tensor<f32>
      hlo.return %m : tensor<f32>
    } : (tensor<8x8xf32>) -> tensor<2x8xf32>
    %a2a = hlo.all_to_all(%x) dim = 0 replica_groups = [[0, 1, 2, 3]] channel_id = 4 : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %t2t = hlo.all_to_all(%y, %y) replica_groups = [[0, 1], [2, 3]] channel_id = 5 : (tensor<4xi32>, tensor<4xi32>) -> tuple<tensor<4xi32>, tensor<4xi32>>
    %p = hlo.collective_permute %x pairs = [[0, 1], [1, 2], [2, 3], [3, 0]] channel_id = 6 : tensor<8x4xf32>
    %bc = hlo.collective_broadcast(%y) replica_groups = [[0, 1, 2, 3]] channel_id = 7 : (tensor<4xi32>) -> tensor<4xi32>
    %cr = hlo.all_reduce(%y) replica_groups = [] constrain_layout {
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %c = hlo.add %a, %b : tensor<i32>
      hlo.return %c : tensor<i32>
    } : (tensor<4xi32>) -> tensor<4xi32>
    %v = hlo.all_reduce(%x, %x) replica_groups = [[0, 1], [2, 3]] channel_id = 8 use_global_device_ids {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } : (tensor<8x4xf32>, tensor<8x4xf32>) -> tuple<tensor<8x4xf32>, tensor<8x4xf32>>
    func.return %sum : tensor<8x4xf32>
  }
}
"""

HLO_COLLECTIVES = r"""HloModule collectives, entry_computation_layout={(f32[8,4]{1,0}, s32[4]{0})->f32[8,4]{1,0}}, replica_count=1, num_partitions=4

%region_0 (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %c = f32[] add(%a, %b)
}

%region_1 (a.1: f32[], b.1: f32[]) -> f32[] {
  %a.1 = f32[] parameter(0)
  %b.1 = f32[] parameter(1)
  ROOT %m = f32[] maximum(%a.1, %b.1)
}

%region_2 (a.2: s32[], b.2: s32[]) -> s32[] {
  %a.2 = s32[] parameter(0)
  %b.2 = s32[] parameter(1)
  ROOT %c.1 = s32[] add(%a.2, %b.2)
}

ENTRY %main (x: f32[8,4], y: s32[4]) -> f32[8,4] {
  %x = f32[8,4]{1,0} parameter(0)
  %y = s32[4]{0} parameter(1)
  ROOT %sum = f32[8,4]{1,0} all-reduce(%x), channel_id=1, replica_groups={{0,1},{2,3}}, use_global_device_ids=true, to_apply=%region_0
  %g = f32[8,8]{1,0} all-gather(%x), channel_id=2, replica_groups=[2,2]<=[2,2]T(1,0), dimensions={1}, use_global_device_ids=true
  %s = f32[2,8]{1,0} reduce-scatter(%g), channel_id=3, replica_groups=[1,4]<=[4], use_global_device_ids=true, dimensions={0}, to_apply=%region_1
  %a2a = f32[8,4]{1,0} all-to-all(%x), channel_id=4, replica_groups={{0,1,2,3}}, dimensions={0}
  %t2t = (s32[4]{0}, s32[4]{0}) all-to-all(%y, %y), channel_id=5, replica_groups={{0,1},{2,3}}
  %p = f32[8,4]{1,0} collective-permute(%x), channel_id=6, source_target_pairs={{0,1},{1,2},{2,3},{3,0}}
  %bc = s32[4]{0} collective-broadcast(%y), channel_id=7, replica_groups={{0,1,2,3}}
  %cr = s32[4]{0} all-reduce(%y), replica_groups={}, constrain_layout=true, to_apply=%region_2
  %v = (f32[8,4]{1,0}, f32[8,4]{1,0}) all-reduce(%x, %x), channel_id=8, replica_groups={{0,1},{2,3}}, use_global_device_ids=true, to_apply=%region_0
}
"""


_WHILE = WhileLoop(
    ["tensor<i32>", "tensor<4xf32>"],
    """
    %one = hlo.constant dense<1> : tensor<i32>
    %i1 = hlo.add %i, %one : tensor<i32>
    %v1 = hlo.multiply %v, %v : tensor<4xf32>
    """,
    ["%i1", "%v1"],
    condition="""
    %n = hlo.constant dense<8> : tensor<i32>
    %lt = hlo.compare LT, %i, %n type = SIGNED : tensor<i32> -> tensor<i1>
    """,
    names=["%i", "%v"],
    arguments=("%s", "%s"),
    predicate="%lt",
)
SRC_WHILE = f"""
builtin.module @loop {{
  func.func @main(%w: tensor<4xf32>) -> tensor<4xf32> attributes {{hlo.entry}} {{
    %zero = hlo.constant dense<0> : tensor<i32>
    %init = hlo.tuple %zero, %w : {_WHILE.type}
{_WHILE.text("%init", result="%loop")}
    %r = hlo.get_tuple_element %loop[1] : {_WHILE.type}
    func.return %r : tensor<4xf32>
  }}
}}
"""

HLO_WHILE = r"""HloModule loop, entry_computation_layout={(f32[4]{0})->f32[4]{0}}, replica_count=1, num_partitions=1

%region_0 (s: (s32[], f32[4])) -> pred[] {
  %s = (s32[], f32[4]{0}) parameter(0)
  %i = s32[] get-tuple-element(%s), index=0
  %n = s32[] constant(8)
  ROOT %lt = pred[] compare(%i, %n), direction=LT, type=SIGNED
}

%region_1 (s.1: (s32[], f32[4])) -> (s32[], f32[4]) {
  %s.1 = (s32[], f32[4]{0}) parameter(0)
  %i.1 = s32[] get-tuple-element(%s.1), index=0
  %v = f32[4]{0} get-tuple-element(%s.1), index=1
  %one = s32[] constant(1)
  %i1 = s32[] add(%i.1, %one)
  %v1 = f32[4]{0} multiply(%v, %v)
  ROOT %next = (s32[], f32[4]{0}) tuple(%i1, %v1)
}

ENTRY %main (w: f32[4]) -> f32[4] {
  %w = f32[4]{0} parameter(0)
  %zero = s32[] constant(0)
  %init = (s32[], f32[4]{0}) tuple(%zero, %w)
  %loop = (s32[], f32[4]{0}) while(%init), condition=%region_0, body=%region_1
  ROOT %r = f32[4]{0} get-tuple-element(%loop), index=1
}
"""


SRC_CONSTS = r"""
builtin.module @consts {
  func.func @main() -> () {
    %f32 = hlo.constant dense<[1.5, 0.1, -0.0, 1.0e+10, 2.5e-20, 16777216.0]> : tensor<6xf32>
    %special = hlo.constant dense<"0x0000807F000080FF0000C07F0000C0FF0100807F"> : tensor<5xf32>
    %f64 = hlo.constant dense<[0.1, 1.0e+300, -2.0]> : tensor<3xf64>
    %f16 = hlo.constant dense<[0.1, 65504.0]> : tensor<2xf16>
    %bf16 = hlo.constant dense<[[0.1, 1.0], [-3.0, 256.0]]> : tensor<2x2xbf16>
    %pred = hlo.constant dense<[true, false]> : tensor<2xi1>
    %t = hlo.constant dense<true> : tensor<i1>
    %s8 = hlo.constant dense<-128> : tensor<i8>
    %s16 = hlo.constant dense<[1, -1]> : tensor<2xi16>
    %s32 = hlo.constant dense<[[[1, 2], [3, 4]], [[5, 6], [7, 8]]]> : tensor<2x2x2xi32>
    %s64 = hlo.constant dense<-9223372036854775808> : tensor<i64>
    %u8 = hlo.constant dense<255> : tensor<ui8>
    %u16 = hlo.constant dense<[65535, 0]> : tensor<2xui16>
    %u32 = hlo.constant dense<4294967295> : tensor<ui32>
    %u64 = hlo.constant dense<18446744073709551615> : tensor<ui64>
    %splat = hlo.constant dense<2.0> : tensor<2x3xf32>
    %empty = hlo.constant dense<> : tensor<0xf32>
    %empty2 = hlo.constant dense<> : tensor<2x0xi32>
    %scalar = hlo.constant dense<3.25> : tensor<f32>
    func.return
  }
}
"""

HLO_CONSTS = r"""HloModule consts, entry_computation_layout={()->()}, replica_count=1, num_partitions=1

ENTRY %main () -> () {
  %f32_ = f32[6]{0} constant({1.5, 0.1, -0.0, 1e+10, 2.5e-20, 16777216})
  %special = f32[5]{0} constant({inf, -inf, nan, -nan, nan(0x1)})
  %f64_ = f64[3]{0} constant({0.1, 1e+300, -2})
  %f16_ = f16[2]{0} constant({0.0999755859375, 65504})
  %bf16_ = bf16[2,2]{1,0} constant({ {0.10009765625, 1}, {-3, 256} })
  %pred_ = pred[2]{0} constant({true, false})
  %t = pred[] constant(true)
  %s8_ = s8[] constant(-128)
  %s16_ = s16[2]{0} constant({1, -1})
  %s32_ = s32[2,2,2]{2,1,0} constant({ { {1, 2}, {3, 4} }, { {5, 6}, {7, 8} } })
  %s64_ = s64[] constant(-9223372036854775808)
  %u8_ = u8[] constant(255)
  %u16_ = u16[2]{0} constant({65535, 0})
  %u32_ = u32[] constant(4294967295)
  %u64_ = u64[] constant(18446744073709551615)
  %splat = f32[2,3]{1,0} constant({ {2, 2, 2}, {2, 2, 2} })
  %empty = f32[0]{0} constant({})
  %empty2 = s32[2,0]{1,0} constant({ {}, {} })
  %scalar = f32[] constant(3.25)
  ROOT %tuple = () tuple()
}
"""


SRC_ATTRS = r"""
builtin.module @attrs {
  func.func @main(%x: tensor<8x4xf32>, %z: tensor<f32>, %i: tensor<3x1xi32>, %m: tensor<4x5xf32>) -> tensor<4x4xf32> {
    %s = hlo.slice %x, start = [0, 1], limit = [8, 4], strides = [2, 1] : (tensor<8x4xf32>) -> tensor<4x3xf32>
    %p = hlo.pad %s, %z, low = [1, 0], high = [-1, 1], interior = [0, 0] : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x4xf32>
    %pi = hlo.pad %s, %z, low = [0, 0], high = [0, 0], interior = [1, 2] : (tensor<4x3xf32>, tensor<f32>) -> tensor<7x7xf32>
    %d = hlo.dot %p, %m lhs_contracting = [1], rhs_contracting = [0] : (tensor<4x4xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
    %g = hlo.gather %x, %i offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1 slice_sizes = [1, 4] indices_are_sorted : (tensor<8x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
    %w = hlo.reduce_window(%x : tensor<8x4xf32>) init(%z : tensor<f32>) size = [2, 2], stride = [2, 1], padding = [[0, 1], [1, 0]], base_dilation = [1, 2], window_dilation = [2, 1] {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.maximum %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } -> tensor<4x7xf32>
    %w2 = hlo.reduce_window(%x : tensor<8x4xf32>) init(%z : tensor<f32>) size = [2, 2] {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.maximum %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } -> tensor<7x3xf32>
    %z0 = hlo.constant dense<0> : tensor<i32>
    %ds = hlo.dynamic_slice %x at [%z0, %z0] sizes = [2, 4] : (tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<2x4xf32>
    %b = hlo.broadcast %z, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %t = hlo.transpose %x, dims = [1, 0] : (tensor<8x4xf32>) -> tensor<4x8xf32>
    %cat = hlo.concatenate(%x, %x) dim = 0 : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<16x4xf32>
    %io = hlo.iota dim = 1 : tensor<2x3xi32>
    %bit = hlo.bitcast %x layout = [0, 1] : (tensor<8x4xf32>) -> tensor<4x8xf32>
    %rp = hlo.reduce_precision %z exponent_bits = 5 mantissa_bits = 10 : tensor<f32>
    func.return %p : tensor<4x4xf32>
  }
}
"""

HLO_ATTRS = r"""HloModule attrs, entry_computation_layout={(f32[8,4]{1,0}, f32[], s32[3,1]{1,0}, f32[4,5]{1,0})->f32[4,4]{1,0}}, replica_count=1, num_partitions=1

%region_0 (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %c = f32[] maximum(%a, %b)
}

ENTRY %main (x: f32[8,4], z: f32[], i: s32[3,1], m: f32[4,5]) -> f32[4,4] {
  %x = f32[8,4]{1,0} parameter(0)
  %z = f32[] parameter(1)
  %i = s32[3,1]{1,0} parameter(2)
  %m = f32[4,5]{1,0} parameter(3)
  %s = f32[4,3]{1,0} slice(%x), slice={[0:8:2], [1:4]}
  ROOT %p = f32[4,4]{1,0} pad(%s, %z), padding=1_-1x0_1
  %pi = f32[7,7]{1,0} pad(%s, %z), padding=0_0_1x0_0_2
  %d = f32[4,5]{1,0} dot(%p, %m), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  %g = f32[3,4]{1,0} gather(%x, %i), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,4}, indices_are_sorted=true
  %w = f32[4,7]{1,0} reduce-window(%x, %z), window={size=2x2 stride=2x1 pad=0_1x1_0 lhs_dilate=1x2 rhs_dilate=2x1}, to_apply=%region_0
  %w2 = f32[7,3]{1,0} reduce-window(%x, %z), window={size=2x2}, to_apply=%region_0
  %z0 = s32[] constant(0)
  %ds = f32[2,4]{1,0} dynamic-slice(%x, %z0, %z0), dynamic_slice_sizes={2,4}
  %b.1 = f32[4,4]{1,0} broadcast(%z), dimensions={}
  %t = f32[4,8]{1,0} transpose(%x), dimensions={1,0}
  %cat = f32[16,4]{1,0} concatenate(%x, %x), dimensions={0}
  %io = s32[2,3]{1,0} iota(), iota_dimension=1
  %bit = f32[4,8]{0,1} bitcast(%x)
  %rp = f32[] reduce-precision(%z), exponent_bits=5, mantissa_bits=10
}
"""


SRC_MISC = r"""
builtin.module @misc attributes {hlo.num_partitions = 2 : i64, hlo.num_replicas = 1 : i64, xla.module_config = {is_scheduled = "true", frontend_attributes = "{xla.sdy.meshes={mesh = #sdy.mesh<[\22x\22=2]>}}"}, xla.stack_frames = "FileNames\n1 \22a.py\22\n\nFunctionNames\n1 \22f\22\n\nFileLocations\n1 {file_name_id=1 function_name_id=1 line=3 end_line=3 column=1 end_column=9}\n\nStackFrames\n1 {file_location_id=1 parent_frame_id=1}\n"} {
  func.func @add(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
    %add = hlo.add %a, %b : tensor<4xf32>
    func.return %add : tensor<4xf32>
  }
  func.func @main(%x: tensor<4xf32> {xla.sharding = "{devices=[2]<=[2]}", xla.metadata = "{op_name=\22x\22}"}, %k: tensor<8xi32>, %idx: tensor<i32>, %tok: !hlo.token) -> (tensor<4xf32>, tensor<8xi32>) attributes {hlo.entry} {
    %add = hlo.call @add(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %add_1 = hlo.call @add(%add, %x) {xla.fusion_kind = "kLoop", xla.metadata = "{op_name=\22fused\22 stack_frame_id=1}"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %cc = hlo.custom_call "Sharding"(%add_1) side_effect backend_config = "{\"key\": \"a \\\"b\\\"\"}\n" api_version = 4 {xla.sharding = "{replicated}"} : (tensor<4xf32>) -> tensor<4xf32>
    %two = hlo.constant dense<2.0> : tensor<f32>
    %r = hlo.all_reduce(%cc) replica_groups = [[0, 1]] channel_id = 1 use_global_device_ids {
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = hlo.add %p, %q : tensor<f32>
      %s2 = hlo.multiply %s, %two : tensor<f32>
      hlo.return %s2 : tensor<f32>
    } : (tensor<4xf32>) -> tensor<4xf32>
    %r2 = hlo.all_reduce(%r) replica_groups = [[0, 1]] channel_id = 2 use_global_device_ids {
    ^bb0(%u: tensor<f32>, %v: tensor<f32>):
      %w = hlo.add %u, %v : tensor<f32>
      %w2 = hlo.multiply %w, %two : tensor<f32>
      hlo.return %w2 : tensor<f32>
    } : (tensor<4xf32>) -> tensor<4xf32>
    %pred = hlo.compare GT, %idx, %idx : tensor<i32> -> tensor<i1>
    %c = hlo.conditional(%pred) (%r2, %x) : (tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%t: tensor<4xf32>):
      hlo.return %t : tensor<4xf32>
    }, {
    ^bb0(%f: tensor<4xf32>):
      %n = hlo.negate %f : tensor<4xf32>
      hlo.return %n : tensor<4xf32>
    }
    %c3 = hlo.conditional(%idx) (%x, %x, %x) : (tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%b0: tensor<4xf32>):
      hlo.return %b0 : tensor<4xf32>
    }, {
    ^bb0(%b1: tensor<4xf32>):
      %e = hlo.exponential %b1 : tensor<4xf32>
      hlo.return %e : tensor<4xf32>
    }, {
    ^bb0(%b2: tensor<4xf32>):
      %l = hlo.log %b2 : tensor<4xf32>
      hlo.return %l : tensor<4xf32>
    }
    %sorted = hlo.sort(%k) dim = 0 is_stable {
    ^bb0(%l: tensor<i32>, %rr: tensor<i32>):
      %lt = hlo.compare LT, %l, %rr : tensor<i32> -> tensor<i1>
      hlo.return %lt : tensor<i1>
    } : (tensor<8xi32>) -> tensor<8xi32>
    %snd = hlo.send %x, %tok channel_id = 3 : tensor<4xf32> -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
    %sd = hlo.send_done %snd channel_id = 3 : tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
    %rcv = hlo.recv %sd channel_id = 4 is_host_transfer : tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
    %rd = hlo.recv_done %rcv channel_id = 4 is_host_transfer : tuple<tensor<4xf32>, tensor<ui32>, !hlo.token> -> tuple<tensor<4xf32>, !hlo.token>
    %joined = hlo.after_all(%tok, %sd)
    %ob = hlo.optimization_barrier %rd : tuple<tensor<4xf32>, !hlo.token>
    %pid = hlo.partition_id : tensor<ui32>
    %rid = hlo.replica_id : tensor<ui32>
    func.return %c, %sorted : tensor<4xf32>, tensor<8xi32>
  }
}
"""

HLO_MISC = r"""HloModule misc, entry_computation_layout={(f32[4]{0}, s32[8]{0}, s32[], token[])->(f32[4]{0}, s32[8]{0})}, replica_count=1, num_partitions=2, is_scheduled=true, frontend_attributes={xla.sdy.meshes={mesh = #sdy.mesh<["x"=2]>}}

FileNames
1 "a.py"

FunctionNames
1 "f"

FileLocations
1 {file_name_id=1 function_name_id=1 line=3 end_line=3 column=1 end_column=9}

StackFrames
1 {file_location_id=1 parent_frame_id=1}

%add (a: f32[4], b: f32[4]) -> f32[4] {
  %a = f32[4]{0} parameter(0)
  %b = f32[4]{0} parameter(1)
  ROOT %add = f32[4]{0} add(%a, %b)
}

%region_0 (p: f32[], q: f32[]) -> f32[] {
  %p = f32[] parameter(0)
  %q = f32[] parameter(1)
  %s = f32[] add(%p, %q)
  %two = f32[] constant(2)
  ROOT %s2_ = f32[] multiply(%s, %two)
}

%region_1 (u: f32[], v: f32[]) -> f32[] {
  %u = f32[] parameter(0)
  %v = f32[] parameter(1)
  %w = f32[] add(%u, %v)
  %two.1 = f32[] constant(2)
  ROOT %w2 = f32[] multiply(%w, %two.1)
}

%region_2 (t: f32[4]) -> f32[4] {
  ROOT %t = f32[4]{0} parameter(0)
}

%region_3 (f: f32[4]) -> f32[4] {
  %f = f32[4]{0} parameter(0)
  ROOT %n = f32[4]{0} negate(%f)
}

%region_4 (b0: f32[4]) -> f32[4] {
  ROOT %b0 = f32[4]{0} parameter(0)
}

%region_5 (b1: f32[4]) -> f32[4] {
  %b1 = f32[4]{0} parameter(0)
  ROOT %e = f32[4]{0} exponential(%b1)
}

%region_6 (b2: f32[4]) -> f32[4] {
  %b2 = f32[4]{0} parameter(0)
  ROOT %l = f32[4]{0} log(%b2)
}

%region_7 (l.1: s32[], rr: s32[]) -> pred[] {
  %l.1 = s32[] parameter(0)
  %rr = s32[] parameter(1)
  ROOT %lt = pred[] compare(%l.1, %rr), direction=LT
}

ENTRY %main (x: f32[4], k: s32[8], idx: s32[], tok: token[]) -> (f32[4], s32[8]) {
  %x = f32[4]{0} parameter(0), sharding={devices=[2]<=[2]}, metadata={op_name="x"}
  %k = s32[8]{0} parameter(1)
  %idx = s32[] parameter(2)
  %tok = token[] parameter(3)
  %add.1 = f32[4]{0} call(%x, %x), to_apply=%add
  %add.2 = f32[4]{0} fusion(%add.1, %x), kind=kLoop, calls=%add, metadata={op_name="fused" stack_frame_id=1}
  %cc = f32[4]{0} custom-call(%add.2), custom_call_target="Sharding", custom_call_has_side_effect=true, backend_config="{\"key\": \"a \\\"b\\\"\"}\n", api_version=API_VERSION_TYPED_FFI, sharding={replicated}
  %two.2 = f32[] constant(2)
  %r = f32[4]{0} all-reduce(%cc), channel_id=1, replica_groups={{0,1}}, use_global_device_ids=true, to_apply=%region_0
  %r2 = f32[4]{0} all-reduce(%r), channel_id=2, replica_groups={{0,1}}, use_global_device_ids=true, to_apply=%region_1
  %pred_ = pred[] compare(%idx, %idx), direction=GT
  %c = f32[4]{0} conditional(%pred_, %r2, %x), true_computation=%region_2, false_computation=%region_3
  %c3 = f32[4]{0} conditional(%idx, %x, %x, %x), branch_computations={%region_4, %region_5, %region_6}
  %sorted = s32[8]{0} sort(%k), dimensions={0}, is_stable=true, to_apply=%region_7
  %snd = (f32[4]{0}, u32[], token[]) send(%x, %tok), channel_id=3
  %sd = token[] send-done(%snd), channel_id=3
  %rcv = (f32[4]{0}, u32[], token[]) recv(%sd), channel_id=4, is_host_transfer=true
  %rd = (f32[4]{0}, token[]) recv-done(%rcv), channel_id=4, is_host_transfer=true
  %joined = token[] after-all(%tok, %sd)
  %ob = (f32[4]{0}, token[]) opt-barrier(%rd)
  %pid = u32[] partition-id()
  %rid = u32[] replica-id()
  ROOT %tuple = (f32[4]{0}, s32[8]{0}) tuple(%c, %sorted)
}
"""


SRC_NAMES = r"""
builtin.module @names {
  func.func @helper(%v: tensor<f32>) -> tensor<f32> {
    %0 = hlo.add %v, %v : tensor<f32>
    func.return %0 : tensor<f32>
  }
  func.func @main(%v: tensor<f32>, %s1: tensor<f32>) -> tensor<f32> {
    %0 = hlo.add %v, %s1 : tensor<f32>
    %v_1 = hlo.call @helper(%0) : (tensor<f32>) -> tensor<f32>
    %pred = hlo.compare LT, %v_1, %v : tensor<f32> -> tensor<i1>
    %1 = hlo.add %v_1, %v_1 : tensor<f32>
    func.return %1 : tensor<f32>
  }
}
"""

HLO_NAMES = r"""HloModule names, entry_computation_layout={(f32[], f32[])->f32[]}, replica_count=1, num_partitions=1

%helper (v: f32[]) -> f32[] {
  %v = f32[] parameter(0)
  ROOT %add = f32[] add(%v, %v)
}

ENTRY %main (v.1: f32[], s1_: f32[]) -> f32[] {
  %v.1 = f32[] parameter(0)
  %s1_ = f32[] parameter(1)
  %add.1 = f32[] add(%v.1, %s1_)
  %v.2 = f32[] call(%add.1), to_apply=%helper
  %pred_ = pred[] compare(%v.2, %v.1), direction=LT
  ROOT %add.2 = f32[] add(%v.2, %v.2)
}
"""


SRC_DEDUPE = r"""
builtin.module @dedupe attributes {hlo.num_replicas = 2 : i64} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %a = hlo.all_reduce(%x) replica_groups = [[0, 1]] {
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = hlo.add %p, %q : tensor<f32>
      hlo.return %s : tensor<f32>
    } : (tensor<4xf32>) -> tensor<4xf32>
    %b = hlo.all_reduce(%a) replica_groups = [[0, 1]] {
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = hlo.add %p, %q : tensor<f32>
      hlo.return %s : tensor<f32>
    } : (tensor<4xf32>) -> tensor<4xf32>
    %c = hlo.all_reduce(%b) replica_groups = [[0, 1]] {
    ^bb0(%l: tensor<f32>, %r: tensor<f32>):
      %t = hlo.add %r, %l : tensor<f32>
      hlo.return %t : tensor<f32>
    } : (tensor<4xf32>) -> tensor<4xf32>
    func.return %c : tensor<4xf32>
  }
}
"""

HLO_DEDUPE = r"""HloModule dedupe, entry_computation_layout={(f32[4]{0})->f32[4]{0}}, replica_count=2, num_partitions=1

%region_0 (p: f32[], q: f32[]) -> f32[] {
  %p = f32[] parameter(0)
  %q = f32[] parameter(1)
  ROOT %s = f32[] add(%p, %q)
}

%region_1 (l: f32[], r: f32[]) -> f32[] {
  %l = f32[] parameter(0)
  %r = f32[] parameter(1)
  ROOT %t = f32[] add(%r, %l)
}

ENTRY %main (x: f32[4]) -> f32[4] {
  %x = f32[4]{0} parameter(0)
  %a = f32[4]{0} all-reduce(%x), replica_groups={{0,1}}, to_apply=%region_0
  %b = f32[4]{0} all-reduce(%a), replica_groups={{0,1}}, to_apply=%region_0
  ROOT %c = f32[4]{0} all-reduce(%b), replica_groups={{0,1}}, to_apply=%region_1
}
"""


SRC_ELEMENTWISE = r"""
builtin.module @elementwise {
  func.func @main(%x: tensor<4xf32>, %i: tensor<4xi32>, %u: tensor<4xui32>, %p: tensor<4xi1>, %idx: tensor<i32>) -> tensor<4xf32> {
    %abs = hlo.abs %x : tensor<4xf32>
    %neg = hlo.negate %i : tensor<4xi32>
    %sign = hlo.sign %x : tensor<4xf32>
    %exp = hlo.exponential %x : tensor<4xf32>
    %expm1 = hlo.exponential_minus_one %x : tensor<4xf32>
    %log = hlo.log %x : tensor<4xf32>
    %log1p = hlo.log_plus_one %x : tensor<4xf32>
    %sqrt = hlo.sqrt %x : tensor<4xf32>
    %rsqrt = hlo.rsqrt %x : tensor<4xf32>
    %cbrt = hlo.cbrt %x : tensor<4xf32>
    %tanh = hlo.tanh %x : tensor<4xf32>
    %logistic = hlo.logistic %x : tensor<4xf32>
    %sin = hlo.sine %x : tensor<4xf32>
    %cos = hlo.cosine %x : tensor<4xf32>
    %tan = hlo.tan %x : tensor<4xf32>
    %erf = hlo.erf %x : tensor<4xf32>
    %floor = hlo.floor %x : tensor<4xf32>
    %ceil = hlo.ceil %x : tensor<4xf32>
    %afz = hlo.round_nearest_afz %x : tensor<4xf32>
    %even = hlo.round_nearest_even %x : tensor<4xf32>
    %not = hlo.not %p : tensor<4xi1>
    %popcnt = hlo.popcnt %u : tensor<4xui32>
    %clz = hlo.clz %i : tensor<4xi32>
    %fin = hlo.is_finite %x : tensor<4xf32> -> tensor<4xi1>
    %add = hlo.add %x, %x : tensor<4xf32>
    %sub = hlo.subtract %x, %x : tensor<4xf32>
    %mul = hlo.multiply %x, %x : tensor<4xf32>
    %div = hlo.divide %x, %x : tensor<4xf32>
    %rem = hlo.remainder %i, %i : tensor<4xi32>
    %max = hlo.maximum %x, %x : tensor<4xf32>
    %min = hlo.minimum %x, %x : tensor<4xf32>
    %pow = hlo.power %x, %x : tensor<4xf32>
    %atan2 = hlo.atan2 %x, %x : tensor<4xf32>
    %and = hlo.and %p, %p : tensor<4xi1>
    %or = hlo.or %u, %u : tensor<4xui32>
    %xor = hlo.xor %i, %i : tensor<4xi32>
    %shl = hlo.shift_left %i, %i : tensor<4xi32>
    %sra = hlo.shift_right_arithmetic %i, %i : tensor<4xi32>
    %srl = hlo.shift_right_logical %u, %u : tensor<4xui32>
    %sel = hlo.select %p, %x, %x : tensor<4xi1>, tensor<4xf32>
    %clamp = hlo.clamp %x, %x, %x : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
    %conv = hlo.convert %i : tensor<4xi32> -> tensor<4xf32>
    %bc = hlo.bitcast_convert %x : tensor<4xf32> -> tensor<4xi32>
    %rs = hlo.reshape %x : (tensor<4xf32>) -> tensor<2x2xf32>
    %cp = hlo.copy %x : tensor<4xf32>
    %dus = hlo.dynamic_update_slice %x, %x at [%idx] : (tensor<4xf32>, tensor<4xf32>, tensor<i32>) -> tensor<4xf32>
    %ind = hlo.reshape %i : (tensor<4xi32>) -> tensor<4x1xi32>
    %sc = hlo.scatter(%x : tensor<4xf32>) indices(%ind : tensor<4x1xi32>) updates(%x : tensor<4xf32>) update_window_dims = [], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 unique_indices {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = hlo.add %a, %b : tensor<f32>
      hlo.return %c : tensor<f32>
    } -> tensor<4xf32>
    %idx2 = hlo.convert %idx : tensor<i32> -> tensor<f32>
    %r = hlo.reduce(%x, %i : tensor<4xf32>, tensor<4xi32>) init(%idx2, %idx : tensor<f32>, tensor<i32>) dimensions = [0] {
    ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
      %c = hlo.add %a, %b : tensor<f32>
      %ci = hlo.add %ai, %bi : tensor<i32>
      hlo.return %c, %ci : tensor<f32>, tensor<i32>
    } -> tuple<tensor<f32>, tensor<i32>>
    func.return %sc : tensor<4xf32>
  }
}
"""

HLO_ELEMENTWISE = r"""HloModule elementwise, entry_computation_layout={(f32[4]{0}, s32[4]{0}, u32[4]{0}, pred[4]{0}, s32[])->f32[4]{0}}, replica_count=1, num_partitions=1

%region_0 (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %c = f32[] add(%a, %b)
}

%region_1 (a.1: f32[], ai: s32[], b.1: f32[], bi: s32[]) -> (f32[], s32[]) {
  %a.1 = f32[] parameter(0)
  %ai = s32[] parameter(1)
  %b.1 = f32[] parameter(2)
  %bi = s32[] parameter(3)
  %c.1 = f32[] add(%a.1, %b.1)
  %ci = s32[] add(%ai, %bi)
  ROOT %tuple = (f32[], s32[]) tuple(%c.1, %ci)
}

ENTRY %main (x: f32[4], i: s32[4], u: u32[4], p: pred[4], idx: s32[]) -> f32[4] {
  %x = f32[4]{0} parameter(0)
  %i = s32[4]{0} parameter(1)
  %u = u32[4]{0} parameter(2)
  %p = pred[4]{0} parameter(3)
  %idx = s32[] parameter(4)
  %abs = f32[4]{0} abs(%x)
  %neg = s32[4]{0} negate(%i)
  %sign = f32[4]{0} sign(%x)
  %exp = f32[4]{0} exponential(%x)
  %expm1 = f32[4]{0} exponential-minus-one(%x)
  %log = f32[4]{0} log(%x)
  %log1p = f32[4]{0} log-plus-one(%x)
  %sqrt = f32[4]{0} sqrt(%x)
  %rsqrt = f32[4]{0} rsqrt(%x)
  %cbrt = f32[4]{0} cbrt(%x)
  %tanh = f32[4]{0} tanh(%x)
  %logistic = f32[4]{0} logistic(%x)
  %sin = f32[4]{0} sine(%x)
  %cos = f32[4]{0} cosine(%x)
  %tan = f32[4]{0} tan(%x)
  %erf = f32[4]{0} erf(%x)
  %floor = f32[4]{0} floor(%x)
  %ceil = f32[4]{0} ceil(%x)
  %afz = f32[4]{0} round-nearest-afz(%x)
  %even = f32[4]{0} round-nearest-even(%x)
  %not = pred[4]{0} not(%p)
  %popcnt = u32[4]{0} popcnt(%u)
  %clz = s32[4]{0} count-leading-zeros(%i)
  %fin = pred[4]{0} is-finite(%x)
  %add = f32[4]{0} add(%x, %x)
  %sub = f32[4]{0} subtract(%x, %x)
  %mul = f32[4]{0} multiply(%x, %x)
  %div = f32[4]{0} divide(%x, %x)
  %rem = s32[4]{0} remainder(%i, %i)
  %max = f32[4]{0} maximum(%x, %x)
  %min = f32[4]{0} minimum(%x, %x)
  %pow = f32[4]{0} power(%x, %x)
  %atan2 = f32[4]{0} atan2(%x, %x)
  %and = pred[4]{0} and(%p, %p)
  %or = u32[4]{0} or(%u, %u)
  %xor = s32[4]{0} xor(%i, %i)
  %shl = s32[4]{0} shift-left(%i, %i)
  %sra = s32[4]{0} shift-right-arithmetic(%i, %i)
  %srl = u32[4]{0} shift-right-logical(%u, %u)
  %sel = f32[4]{0} select(%p, %x, %x)
  %clamp = f32[4]{0} clamp(%x, %x, %x)
  %conv = f32[4]{0} convert(%i)
  %bc = s32[4]{0} bitcast-convert(%x)
  %rs = f32[2,2]{1,0} reshape(%x)
  %cp = f32[4]{0} copy(%x)
  %dus = f32[4]{0} dynamic-update-slice(%x, %x, %idx)
  %ind = s32[4,1]{1,0} reshape(%i)
  ROOT %sc = f32[4]{0} scatter(%x, %ind, %x), update_window_dims={}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, unique_indices=true, to_apply=%region_0
  %idx2 = f32[] convert(%idx)
  %r = (f32[], s32[]) reduce(%x, %i, %idx2, %idx), dimensions={0}, to_apply=%region_1
}
"""

SRC_ASYNC = r"""
builtin.module @async_collectives attributes {hlo.num_replicas = 4 : i64, hlo.num_partitions = 1 : i64} {
  func.func @negate(%p: tensor<8xf32>) -> tensor<8xf32> {
    %n = hlo.negate %p : tensor<8xf32>
    func.return %n : tensor<8xf32>
  }
  func.func @main(%x: tensor<8xf32>) -> tuple<tensor<32xf32>, tensor<8xf32>> attributes {hlo.entry} {
    %ars = hlo.all_reduce_start(%x) replica_groups = [[0, 1, 2, 3]] {
    ^bb0(%lhs: tensor<f32>, %rhs: tensor<f32>):
      %add = hlo.add %lhs, %rhs : tensor<f32>
      hlo.return %add : tensor<f32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    %ard = hlo.all_reduce_done %ars : (tensor<8xf32>) -> tensor<8xf32>
    %ags = hlo.all_gather_start(%ard) dim = 0 replica_groups = [] : (tensor<8xf32>) -> tuple<tensor<8xf32>, tensor<32xf32>>
    %agd = hlo.all_gather_done %ags : (tuple<tensor<8xf32>, tensor<32xf32>>) -> tensor<32xf32>
    %cps = hlo.collective_permute_start %ard pairs = [[0, 1], [1, 2], [2, 3], [3, 0]] : (tensor<8xf32>) -> tuple<tensor<8xf32>, tensor<8xf32>, tensor<ui32>, tensor<ui32>>
    %cpd = hlo.collective_permute_done %cps : (tuple<tensor<8xf32>, tensor<8xf32>, tensor<ui32>, tensor<ui32>>) -> tensor<8xf32>
    %as = hlo.async_start @negate(%cpd) : (tensor<8xf32>) -> tuple<tuple<tensor<8xf32>>, tensor<8xf32>, tensor<i32>>
    %au = hlo.async_update %as : (tuple<tuple<tensor<8xf32>>, tensor<8xf32>, tensor<i32>>) -> tuple<tuple<tensor<8xf32>>, tensor<8xf32>, tensor<i32>>
    %ad = hlo.async_done %au calls = @negate : (tuple<tuple<tensor<8xf32>>, tensor<8xf32>, tensor<i32>>) -> tensor<8xf32>
    %t = hlo.tuple %agd, %ad : tuple<tensor<32xf32>, tensor<8xf32>>
    func.return %t : tuple<tensor<32xf32>, tensor<8xf32>>
  }
}
"""

HLO_ASYNC = r"""HloModule async_collectives, entry_computation_layout={(f32[8]{0})->(f32[32]{0}, f32[8]{0})}, replica_count=4, num_partitions=1

%negate (p: f32[8]) -> f32[8] {
  %p = f32[8]{0} parameter(0)
  ROOT %n = f32[8]{0} negate(%p)
}

%region_0 (lhs: f32[], rhs: f32[]) -> f32[] {
  %lhs = f32[] parameter(0)
  %rhs = f32[] parameter(1)
  ROOT %add = f32[] add(%lhs, %rhs)
}

ENTRY %main (x: f32[8]) -> (f32[32], f32[8]) {
  %x = f32[8]{0} parameter(0)
  %ars = f32[8]{0} all-reduce-start(%x), replica_groups={{0,1,2,3}}, to_apply=%region_0
  %ard = f32[8]{0} all-reduce-done(%ars)
  %ags = (f32[8]{0}, f32[32]{0}) all-gather-start(%ard), replica_groups={}, dimensions={0}
  %agd = f32[32]{0} all-gather-done(%ags)
  %cps = (f32[8]{0}, f32[8]{0}, u32[], u32[]) collective-permute-start(%ard), source_target_pairs={{0,1},{1,2},{2,3},{3,0}}
  %cpd = f32[8]{0} collective-permute-done(%cps)
  %as = ((f32[8]{0}), f32[8]{0}, s32[]) async-start(%cpd), calls=%negate
  %au = ((f32[8]{0}), f32[8]{0}, s32[]) async-update(%as)
  %ad = f32[8]{0} async-done(%au), calls=%negate
  ROOT %t = (f32[32]{0}, f32[8]{0}) tuple(%agd, %ad)
}
"""
"""The asynchronous collectives (issue 17), as tests/filecheck/translate/async-collectives.hlo
imports them; `calls=` only where the IR has it."""

CASES = {
    "async": (SRC_ASYNC, HLO_ASYNC),
    "in_place_permute": (SRC_IN_PLACE_PERMUTE, HLO_IN_PLACE_PERMUTE),
    "combined_permute": (SRC_COMBINED_PERMUTE, HLO_COMBINED_PERMUTE),
    "collectives": (SRC_COLLECTIVES, HLO_COLLECTIVES),
    "while": (SRC_WHILE, HLO_WHILE),
    "consts": (SRC_CONSTS, HLO_CONSTS),
    "attrs": (SRC_ATTRS, HLO_ATTRS),
    "misc": (SRC_MISC, HLO_MISC),
    "names": (SRC_NAMES, HLO_NAMES),
    "dedupe": (SRC_DEDUPE, HLO_DEDUPE),
    "elementwise": (SRC_ELEMENTWISE, HLO_ELEMENTWISE),
    "structured": (SRC_STRUCTURED, HLO_STRUCTURED),
    "side_effects": (SRC_SIDE_EFFECTS, HLO_SIDE_EFFECTS),
    "numeric": (SRC_NUMERIC, HLO_NUMERIC),
}


@pytest.mark.parametrize("case", CASES)
def test_exact_text(case: str) -> None:
    src, expected = CASES[case]
    assert export(src) == expected


def test_export_is_deterministic() -> None:
    module = parse(SRC_MISC)
    assert export_hlo(module) == export_hlo(module)


def test_every_hlo_op_has_an_opcode_and_a_handler() -> None:
    names = {op.name for op in HLO.operations} - {"hlo.return"}
    assert set(OPCODES) == names
    assert set(exporter._HANDLERS) == names
    assert OPCODES["hlo.clz"] == "count-leading-zeros"
    assert OPCODES["hlo.optimization_barrier"] == "opt-barrier"
    assert OPCODES["hlo.get_tuple_element"] == "get-tuple-element"


def test_cases_cover_every_op() -> None:
    used = {name for src, _ in CASES.values() for name in re.findall(r"\bhlo\.[a-z_0-9]+", src)}
    assert set(OPCODES) <= used


def test_region_dedupe_needs_the_same_body_and_names() -> None:
    text = export(SRC_DEDUPE)
    # %a and %b reduce with the same body under the same names; %c swaps the operands.
    assert re.findall(r"^%(region_\d+) ", text, re.MULTILINE) == ["region_0", "region_1"]
    assert text.count("to_apply=%region_0") == 2
    assert text.count("to_apply=%region_1") == 1


def test_captured_constant_is_cloned_into_the_region() -> None:
    text = export(SRC_MISC)
    region = text.split("%region_0 ")[1].split("}\n")[0]
    assert "%two = f32[] constant(2)" in region
    assert "%two.1 = f32[] constant(2)" in text


def test_regions_named_apart_keep_their_names() -> None:
    """Two reducers with the same body under other names stay two computations, so an
    imported module's instruction names survive export (issue 17)."""
    first = "%p: tensor<f32>, %q: tensor<f32>):\n      %s = hlo.add %p, %q : tensor<f32>\n      hlo.return %s"
    other = "%u: tensor<f32>, %v: tensor<f32>):\n      %w = hlo.add %u, %v : tensor<f32>\n      hlo.return %w"
    assert first in SRC_DEDUPE
    text = export(SRC_DEDUPE.replace(first, other, 1))
    assert re.findall(r"^%(region_\d+) ", text, re.MULTILINE) == [
        "region_0",
        "region_1",
        "region_2",
    ]
    assert "ROOT %w = f32[] add(%u, %v)" in text
    assert "ROOT %s = f32[] add(%p, %q)" in text
