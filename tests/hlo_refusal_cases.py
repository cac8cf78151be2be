"""XLA's verdict on each HLO text of tests/test_hlo_import_refusals.py (issue 15, item 5).

`CASES` holds XLA's verdict for each text, measured with jaxlib 0.10.2 (see the test module's
docstring for how, and for the meaning of `where`, `why` and `ours`). Cases prefixed `xla-` come
from XLA's own xla/hlo/parser/hlo_parser_test.cc.
"""

from __future__ import annotations

from dataclasses import dataclass

ACCEPT, REFUSE, CRASH = "accept", "refuse", "crash"


@dataclass(frozen=True)
class Case:
    id: str
    text: str
    xla: str
    """XLA's measured verdict."""
    where: str | None = None
    """`line:col` of our error (refusals)."""
    ours: str | None = None
    """Our verdict where it deliberately differs from XLA's."""
    why: str = ""
    """Why we deliberately differ (in verdict, or with the same verdict in the value read)."""

    @property
    def expected(self) -> str:
        if self.ours is not None:
            return self.ours
        return REFUSE if self.xla == CRASH else self.xla


def _const(shape: str, payload: str) -> str:
    """A module whose ROOT is `constant(payload)` of `shape`."""
    dims = shape.split("{")[0]
    return (
        f"HloModule m\n\nENTRY %main () -> {dims} {{\n  ROOT %c = {shape} constant({payload})\n}}\n"
    )


def _header(attrs: str) -> str:
    """A module with header attributes `attrs` and a 2-tuple result."""
    return (
        f"HloModule m{attrs}\n\n"
        "ENTRY %main (p0: f32[4], p1: f32[4]) -> (f32[4], f32[4]) {\n"
        "  %p0 = f32[4]{0} parameter(0)\n"
        "  %p1 = f32[4]{0} parameter(1)\n"
        "  ROOT %t = (f32[4]{0}, f32[4]{0}) tuple(%p0, %p1)\n"
        "}\n"
    )


def _pair(attrs: str) -> str:
    """hlo_parser_test.cc's aliasing module: a (f32[], f32[]) parameter passed through."""
    return (
        f"HloModule Module{attrs}\n\n"
        "ENTRY entry {\n"
        "  %p = (f32[], f32[]) parameter(0)\n"
        "  %p0 = f32[] get-tuple-element((f32[], f32[]) %p), index=0\n"
        "  %p1 = f32[] get-tuple-element((f32[], f32[]) %p), index=1\n"
        "  ROOT %out = (f32[], f32[]) tuple(%p0, %p1)\n"
        "}\n"
    )


def _unary(opcode: str, attrs: str) -> str:
    """`ROOT %y = f32[4] opcode(%x)` with attributes `attrs`."""
    return (
        "HloModule m\n\nENTRY %main (x: f32[4]) -> f32[4] {\n"
        "  %x = f32[4]{0} parameter(0)\n"
        f"  ROOT %y = f32[4]{{0}} {opcode}(%x){attrs}\n"
        "}\n"
    )


def _param(shape: str, signature: str | None = None) -> str:
    """A parameter of `shape` (the signature's shape defaults to its dims)."""
    sig = signature or shape.split("{")[0]
    return (
        f"HloModule m\n\nENTRY %main (x: {sig}) -> {sig} {{\n  ROOT %x = {shape} parameter(0)\n}}\n"
    )


def _operands(body: str) -> str:
    """Parameters %a: f32[8] and %b: f32[4], then `body`."""
    return (
        "HloModule m\n\nENTRY %main (a: f32[8], b: f32[4]) -> f32[4] {\n"
        "  %a = f32[8]{0} parameter(0)\n"
        "  %b = f32[4]{0} parameter(1)\n"
        f"{body}\n"
        "}\n"
    )


CASES: list[Case] = [
    Case("lit-closing-brace-first", _const("f32[2,3]{1,0}", "}{1,2,3},{4,5,6}}"), REFUSE, "4:36"),
    Case(
        "lit-xla-LiteralDimensionsError",
        _const("f32[2,3]{1,0}", "}{1, 2, 3}, {4, 5, 6}}"),
        REFUSE,
        "4:36",
    ),
    Case("lit-nested-too-deep-1", _const("f32[2]{0}", "{1,{2}}"), REFUSE, "4:35"),
    Case("lit-nested-first", _const("f32[2]{0}", "{{1},2}"), REFUSE, "4:33"),
    Case("lit-nested-whole", _const("f32[2]{0}", "{{1,2}}"), REFUSE, "4:33"),
    Case("lit-flat-for-rank-2", _const("f32[2,3]{1,0}", "{1, 2, 3, 4, 5, 6}"), REFUSE, "4:37"),
    Case(
        "lit-xla-LiteralDimensionsMismatch_3",
        _const("f32[2,3,2]{2,1,0}", "{{{1, 2}, {3, 4}, {5, 6}, {7, 8}, {9, 10}, {11, 12}}}"),
        REFUSE,
        "4:66",
    ),
    Case("lit-short-row", _const("f32[2,2]{1,0}", "{{1,2},{3}}"), REFUSE, "4:45"),
    Case("lit-short-first-row", _const("f32[2,2]{1,0}", "{{1},{2,3,4}}"), REFUSE, "4:39"),
    Case("lit-long-row", _const("f32[2,2]{1,0}", "{{1,2,3},{4}}"), REFUSE, "4:42"),
    Case("lit-too-many-rows", _const("f32[2,3]", "{{1,2,3},{4,5,6},{7,8,9}}"), REFUSE, "4:48"),
    Case("lit-too-few-rows", _const("f32[2,3]", "{{1,2,3}}"), REFUSE, "4:39"),
    Case("lit-too-many-values", _const("f32[2]", "{1,2,3}"), REFUSE, "4:34"),
    Case("lit-too-few-values", _const("f32[2]", "{1}"), REFUSE, "4:31"),
    Case("lit-two-groups", _const("f32[2]", "{1}{2}"), REFUSE, "4:31"),
    Case("lit-trailing-group", _const("f32[2]", "{1,2}{3}"), REFUSE, "4:34"),
    Case("lit-extra-closing", _const("f32[2]{0}", "{1,2}}"), REFUSE, "4:37"),
    Case("lit-unclosed", _const("f32[2]{0}", "{{1,2}"), REFUSE, "4:33"),
    Case("lit-scalar-braced", _const("f32[]", "{1}"), REFUSE, "4:28"),
    Case("lit-rank-3-for-rank-2", _const("f32[2,1]{1,0}", "{{{1}},{{2}}}"), REFUSE, "4:38"),
    Case("lit-value-before-row", _const("f32[2,2]", "{1,{1,2},{3,4}}"), REFUSE, "4:32"),
    Case("lit-value-after-rows", _const("f32[2,2]", "{{1,2},{3,4},5}"), REFUSE, "4:44"),
    Case("lit-value-between-rows", _const("f32[2,2]", "{{1,2},3,{4}}"), REFUSE, "4:38"),
    Case("lit-empty-for-2x0", _const("f32[2,0]{1,0}", "{}"), REFUSE, "4:37"),
    Case("lit-bare-values", _const("f32[2]{0}", "1,2"), REFUSE, "4:32"),
    Case("lit-scalar-for-empty", _const("f32[0]", "1"), REFUSE, "4:29"),
    Case("lit-two-scalars", _const("f32[]", "1 2"), REFUSE, "4:30"),
    Case("lit-empty", _const("f32[]", ""), REFUSE, "4:28"),
    Case("lit-trailing-comma-after", _const("f32[]", "1,"), REFUSE, "4:29"),
    Case("lit-trailing-comma-outside", _const("f32[2]", "{1,2},"), REFUSE, "4:34"),
    Case("lit-leading-comma", _const("f32[2]", ",{1,2}"), REFUSE, "4:30"),
    Case("lit-paren", _const("f32[2]", "{1, (2)}"), REFUSE, "4:33"),
    Case("lit-dots-scalar", _const("f32[]", "..."), REFUSE, "4:28"),
    Case("lit-dots-depth-2", _const("f32[2,2]", "{{1,2},{...}}"), REFUSE, "4:39"),
    Case("lit-dots-then-value", _const("f32[2]", "{...,1}"), REFUSE, "4:34"),
    Case("lit-ok-2x3", _const("f32[2,3]{1,0}", "{{1,2,3},{4,5,6}}"), ACCEPT),
    Case("lit-ok-trailing-commas", _const("f32[2,2]{1,0}", "{{1,2},{3,4},}"), ACCEPT),
    Case("lit-ok-double-comma", _const("f32[2]{0}", "{1,,2}"), ACCEPT),
    Case("lit-ok-no-commas", _const("f32[2]{0}", "{1 2}"), ACCEPT),
    Case("lit-ok-rows-without-comma", _const("f32[2,1]", "{{1}{2}}"), ACCEPT),
    Case("lit-ok-1x2", _const("f32[1,2]", "{{1,2}}"), ACCEPT),
    Case("lit-ok-rank-3", _const("f32[2,1,1]{2,1,0}", "{{{1}},{{2}}}"), ACCEPT),
    Case("lit-ok-empty", _const("f32[0]{0}", "{}"), ACCEPT),
    Case("lit-ok-2x0", _const("f32[2,0]{1,0}", "{{},{}}"), ACCEPT),
    Case("lit-ok-0x2", _const("f32[0,2]{1,0}", "{}"), ACCEPT),
    Case("lit-ok-lone-comma", _const("f32[2]", ","), ACCEPT),
    Case("lit-ok-scalar-for-array", _const("f32[3]", "1"), ACCEPT),
    Case("lit-ok-scalar-for-matrix", _const("f32[2,2]", "7"), ACCEPT),
    Case("lit-ok-comments", _const("f32[2]", "{ 1 /* c */, 2 // x\n }"), ACCEPT),
    Case("lit-ok-column-major", _const("f32[2,2]{0,1}", "{{1,2},{3,4}}"), ACCEPT),
    Case(
        "lit-elided",
        _const("f32[2,3]{1,0}", "{...}"),
        ACCEPT,
        "4:8",
        ours=REFUSE,
        why="XLA fills an elided constant with arbitrary values; we refuse unless --allow-elided-constants (then zeros)",
    ),
    Case(
        "lit-elided-after-value",
        _const("f32[2]{0}", "{1,...}"),
        ACCEPT,
        "4:8",
        ours=REFUSE,
        why="as lit-elided",
    ),
    Case("tok-point-five", _const("f32[]", ".5"), REFUSE, "4:28"),
    Case("tok-plus", _const("f32[]", "+5"), REFUSE, "4:28"),
    Case("tok-plus-inf", _const("f32[]", "+inf"), REFUSE, "4:28"),
    Case("tok-INF", _const("f32[]", "INF"), REFUSE, "4:28"),
    Case("tok-NaN", _const("f32[]", "NaN"), REFUSE, "4:28"),
    Case("tok-hex", _const("f32[]", "0x10"), REFUSE, "4:28"),
    Case("tok-pad-pattern", _const("f32[]", "1_2"), REFUSE, "4:28"),
    Case("tok-dxd-pattern", _const("f32[]", "1x2"), REFUSE, "4:28"),
    Case("tok-two-points", _const("f32[]", "1.5.3"), REFUSE, "4:31"),
    Case("tok-two-exponents", _const("f32[]", "1e5e5"), REFUSE, "4:31"),
    Case("tok-minus", _const("f32[]", "-"), REFUSE, "4:28"),
    Case("tok-minus-minus", _const("s32[]", "--1"), REFUSE, "4:28"),
    Case("tok-one-minus-two", _const("f32[]", "1-2"), REFUSE, "4:29"),
    Case("tok-string", _const("f32[]", '"1"'), REFUSE, "4:28"),
    Case("tok-form-feed", _const("f32[]", "1\f"), REFUSE, "4:29"),
    Case("tok-inf-payload", _const("f32[]", "inf(0x1)"), REFUSE, "4:31"),
    Case("tok-ok-minus-point-five", _const("f32[]", "-.5"), ACCEPT),
    Case("tok-ok-five-point", _const("f32[]", "5."), ACCEPT),
    Case("tok-ok-exponent-point", _const("f32[]", "1.e5"), ACCEPT),
    Case("tok-ok-xla-ConstantWithExp", _const("f32[]", "3e+2"), ACCEPT),
    Case("val-true-in-f32", _const("f32[]", "true"), CRASH, "4:28"),
    Case("val-true-in-s32", _const("s32[]", "true"), CRASH, "4:28"),
    Case("val-true-in-s8", _const("s8[]", "true"), CRASH, "4:27"),
    Case("val-decimal-in-s32", _const("s32[]", "1.0"), REFUSE, "4:28"),
    Case("val-exponent-in-s32", _const("s32[]", "1e3"), REFUSE, "4:28"),
    Case("val-decimal-in-row", _const("s32[2]", "{1, 2.5}"), REFUSE, "4:33"),
    Case("val-decimal-in-pred", _const("pred[]", "1.0"), REFUSE, "4:29"),
    Case("val-ok-pred-2", _const("pred[]", "2"), ACCEPT),
    Case("val-ok-pred-minus-1", _const("pred[]", "-1"), ACCEPT),
    Case("val-ok-pred-mixed", _const("pred[2]", "{true, 5}"), ACCEPT),
    Case("val-s32-overflow", _const("s32[]", "2147483648"), REFUSE, "4:8"),
    Case("val-u32-negative", _const("u32[]", "-1"), REFUSE, "4:8"),
    Case("val-xla-ConstantUnsignedOverflow", _const("u32[]", "4294967296"), REFUSE, "4:8"),
    Case("val-u64-beyond-64-bits", _const("u64[]", "18446744073709551616"), REFUSE, "4:28"),
    Case("val-s64-below-int64", _const("s64[]", "-9223372036854775809"), REFUSE, "4:28"),
    Case("val-ok-u64-max", _const("u64[]", "18446744073709551615"), ACCEPT),
    Case("val-ok-xla-ConstantUnsignedUnderflow", _const("u64[]", "-1"), ACCEPT),
    Case(
        "val-ok-xla-ConstantUnsignedInt64Overflow", _const("u64[]", "9223372036854775808"), ACCEPT
    ),
    Case("val-ok-s64-wraps", _const("s64[]", "18446744073709551615"), ACCEPT),
    Case("val-ok-s64-wraps-to-min", _const("s64[]", "9223372036854775808"), ACCEPT),
    Case("val-ok-s32-wraps", _const("s32[]", "18446744073709551615"), ACCEPT),
    Case("val-ok-f32-of-wrapped-int", _const("f32[]", "18446744073709551615"), ACCEPT),
    Case("val-ok-minus-zero-int", _const("s8[]", "-0"), ACCEPT),
    Case("val-double-overflow", _const("f32[]", "1e400"), REFUSE, "4:8"),
    Case("val-xla-ConstantF64Overflow", _const("f64[]", "1.8e308"), REFUSE, "4:8"),
    Case("val-f32-rounds-to-inf", _const("f32[]", "3.4028235677973366e38"), REFUSE, "4:8"),
    Case("val-f32-above-max", _const("f32[]", "3.40282357e38"), REFUSE, "4:8"),
    Case("val-xla-ConstantF16Overflow", _const("f16[]", "-65520"), REFUSE, "4:8"),
    Case("val-bf16-overflow", _const("bf16[]", "3.4e38"), REFUSE, "4:8"),
    Case("val-xla-ConstantBf16Overflow", _const("bf16[]", "1e100"), REFUSE, "4:8"),
    Case("val-ok-f16-rounds-to-max", _const("f16[]", "65519"), ACCEPT),
    Case("val-ok-bf16-rounds-to-max", _const("bf16[]", "3.3961e38"), ACCEPT),
    Case("val-ok-xla-ConstantBf16NoOverflow", _const("bf16[]", "-65505"), ACCEPT),
    Case("val-ok-bf16-double-rounding", _const("bf16[]", "1.0039062500009095"), ACCEPT),
    Case("val-ok-f16-double-rounding", _const("f16[]", "1.0004882812509095"), ACCEPT),
    Case("val-ok-underflow", _const("f32[]", "1e-46"), ACCEPT),
    Case("nan-bf16-0x1234", _const("bf16[]", "nan(0x1234)"), REFUSE, "4:8"),
    Case("nan-bf16-0x80", _const("bf16[]", "nan(0x80)"), REFUSE, "4:8"),
    Case("nan-xla-InvalidNanPayloadBf16", _const("bf16[1]{0}", "{nan(0x3ff)}"), REFUSE, "4:8"),
    Case("nan-f16-0x400", _const("f16[]", "nan(0x400)"), REFUSE, "4:8"),
    Case("nan-f32-0x800000", _const("f32[]", "nan(0x800000)"), REFUSE, "4:8"),
    Case("nan-f32-0x7fc00001", _const("f32[2]{0}", "{nan(0x7fc00001), -nan(0x1)}"), REFUSE, "4:8"),
    Case("nan-zero-payload", _const("bf16[]", "nan(0x0)"), REFUSE, "4:29"),
    Case("nan-payload-beyond-double", _const("f64[]", "nan(0x10000000000000)"), REFUSE, "4:28"),
    Case("nan-empty-payload", _const("bf16[]", "nan(0x)"), REFUSE, "4:29"),
    Case("nan-decimal-payload", _const("bf16[]", "nan(1)"), REFUSE, "4:29"),
    Case("nan-space-in-payload", _const("bf16[]", "nan( 0x1)"), REFUSE, "4:29"),
    Case("nan-space-before-payload", _const("bf16[]", "nan (0x1)"), REFUSE, "4:33"),
    Case("nan-uppercase-x", _const("f32[]", "nan(0X1)"), REFUSE, "4:28"),
    Case("nan-suffix", _const("f32[]", "-nana"), REFUSE, "4:32"),
    Case("nan-dot-suffix", _const("f32[]", "nan.5"), REFUSE, "4:28"),
    Case("nan-ok-bf16-0x7f", _const("bf16[]", "nan(0x7f)"), ACCEPT),
    Case("nan-ok-bf16-quiet", _const("bf16[]", "nan(0x40)"), ACCEPT),
    Case("nan-ok-bf16-double-quiet", _const("bf16[]", "nan(0x8000000000000)"), ACCEPT),
    Case("nan-ok-xla-NanPayload", _const("bf16[2]{0}", "{-nan(0x7f), -nan(0x3f)}"), ACCEPT),
    Case("nan-ok-xla-NegativeNan", _const("bf16[2]{0}", "{-nan, -nan}"), ACCEPT),
    Case("nan-ok-f16-0x3ff", _const("f16[]", "nan(0x3ff)"), ACCEPT),
    Case("nan-ok-f32-0x7fffff", _const("f32[]", "nan(0x7fffff)"), ACCEPT),
    Case("nan-ok-f64-max", _const("f64[]", "nan(0xfffffffffffff)"), ACCEPT),
    Case("nan-ok-leading-zeros", _const("f32[]", "nan(0x00000000000000001)"), ACCEPT),
    Case(
        "hdr-alias-ok",
        _header(", input_output_alias={ {0}: (0, {}, may-alias), {1}: (1, {}) }"),
        ACCEPT,
    ),
    Case("hdr-alias-ok-must", _header(", input_output_alias={ {0}: (0, {}, must-alias) }"), ACCEPT),
    Case("hdr-alias-ok-empty", _header(", input_output_alias={}"), ACCEPT),
    Case("hdr-alias-ok-trailing-comma", _header(", input_output_alias={ {0}: (0, {}), }"), ACCEPT),
    Case(
        "hdr-alias-ok-unknown-parameter", _header(", input_output_alias={ {0}: (5, {}) }"), ACCEPT
    ),
    Case(
        "hdr-alias-kind",
        _header(", input_output_alias={ {0}: (0, {}, sometimes-alias) }"),
        REFUSE,
        "1:48",
    ),
    Case("hdr-alias-bare-parameter", _header(", input_output_alias={ {0}: 0 }"), REFUSE, "1:40"),
    Case("hdr-alias-no-colon", _header(", input_output_alias={ {0} (0, {}) }"), REFUSE, "1:39"),
    Case(
        "hdr-alias-no-comma",
        _header(", input_output_alias={ {0}: (0, {}) {1}: (1, {}) }"),
        REFUSE,
        "1:48",
    ),
    Case("hdr-alias-not-braced", _header(", input_output_alias=5"), REFUSE, "1:33"),
    Case(
        "hdr-alias-output-index", _header(", input_output_alias={ {2}: (0, {}) }"), REFUSE, "1:35"
    ),
    Case(
        "hdr-alias-negative-parameter",
        _header(", input_output_alias={ {0}: (-1, {}) }"),
        REFUSE,
        "1:35",
    ),
    Case(
        "hdr-alias-name-parameter", _header(", input_output_alias={ {0}: (x, {}) }"), REFUSE, "1:41"
    ),
    Case(
        "hdr-alias-twice",
        _header(", input_output_alias={ {0}: (0, {}) }, input_output_alias={}"),
        REFUSE,
        "1:70",
    ),
    Case(
        "hdr-alias-ok-xla-SimpleAliasing",
        _pair(", input_output_alias={ {0}: (0, {0}, must-alias), {1}: (0, {1}) }"),
        ACCEPT,
    ),
    Case(
        "hdr-alias-xla-AliasingWrongIndex",
        _pair(", input_output_alias={ {0 : (0, {0}), {1}: (0, {1}) }"),
        REFUSE,
        "1:38",
    ),
    Case(
        "hdr-alias-xla-AliasingShapeIndexNotNumerical",
        _pair(", input_output_alias={ {0, a}: (0, {0}), {1}: (0, {1}) }"),
        REFUSE,
        "1:44",
    ),
    Case(
        "hdr-alias-xla-AliasingWrongFormatNoColon",
        _pair(", input_output_alias={ {0, 0}: (0, {0}), (0, {1}) }"),
        REFUSE,
        "1:58",
    ),
    Case(
        "hdr-alias-xla-AliasingWrongFormatTwoColons",
        _pair(", input_output_alias={ {0}: (0, {0}): {0, 1}, {1}: (0, {1}) }"),
        REFUSE,
        "1:53",
    ),
    Case(
        "hdr-alias-xla-AliasingWrongFormatAlphaParam",
        _pair(", input_output_alias={ {0, a}: (zero, {0}), {1}: (0, {1}) }"),
        REFUSE,
        "1:44",
    ),
    Case(
        "hdr-alias-nested-index-of-array",
        _pair(", input_output_alias={ {0, 0}: (0, {0}) }"),
        REFUSE,
        "1:40",
    ),
    Case("hdr-donor-ok", _header(", buffer_donor={ (0, {}), (1, {}) }"), ACCEPT),
    Case("hdr-donor-ok-empty", _header(", buffer_donor={}"), ACCEPT),
    Case("hdr-donor-ok-trailing-comma", _header(", buffer_donor={ (0, {}), }"), ACCEPT),
    Case(
        "hdr-donor-ok-xla-SimpleBufferDonor", _pair(", buffer_donor={ (0, {0}), (0, {1}) }"), ACCEPT
    ),
    Case("hdr-donor-no-index", _header(", buffer_donor={ (0) }"), REFUSE, "1:31"),
    Case("hdr-donor-bare", _header(", buffer_donor={ 0 }"), REFUSE, "1:29"),
    Case("hdr-donor-negative", _header(", buffer_donor={ (-1, {}) }"), REFUSE, "1:29"),
    Case("hdr-donor-no-comma", _header(", buffer_donor={ (0, {}) (1, {}) }"), REFUSE, "1:37"),
    Case(
        "hdr-donor-xla-BufferDonorShapeIndexNotNumerical",
        _pair(", buffer_donor={ (0, {0, a}), (0, {1}) }"),
        REFUSE,
        "1:42",
    ),
    Case(
        "hdr-donor-xla-BufferDonorWrongFormatAlphaParam",
        _pair(", buffer_donor={ (zero, {0}), (0, {1}) }"),
        REFUSE,
        "1:35",
    ),
    Case("hdr-unknown-attribute", _header(", frobnicate=1"), REFUSE, "1:25"),
    Case("hdr-twice", _header(", replica_count=2, replica_count=2"), REFUSE, "1:45"),
    Case("hdr-bool-word", _header(", is_scheduled=yes"), REFUSE, "1:27"),
    Case("hdr-bool-capital", _header(", is_scheduled=True"), REFUSE, "1:27"),
    Case("hdr-bool-one", _header(", alias_passthrough_params=1"), REFUSE, "1:39"),
    Case("hdr-ok-bools", _header(", is_scheduled=true, alias_passthrough_params=true"), ACCEPT),
    Case(
        "hdr-bool-list-word",
        _header(", allow_spmd_sharding_propagation_to_output=maybe"),
        REFUSE,
        "1:56",
    ),
    Case(
        "hdr-bool-list-trailing-comma",
        _header(", allow_spmd_sharding_propagation_to_parameters={true,}"),
        REFUSE,
        "1:66",
    ),
    Case(
        "hdr-ok-bool-list",
        _header(", allow_spmd_sharding_propagation_to_output={true,false}"),
        ACCEPT,
    ),
    Case("hdr-layout-garbage", _header(", entry_computation_layout={garbage}"), REFUSE, "1:40"),
    Case(
        "hdr-layout-no-arrow",
        _header(", entry_computation_layout={(f32[4]{0}) (f32[4]{0})}"),
        REFUSE,
        "1:52",
    ),
    Case(
        "hdr-layout-bad-tile",
        _header(", entry_computation_layout={(f32[4]{0:T(x)}, f32[4]{0})->(f32[4]{0}, f32[4]{0})}"),
        REFUSE,
        "1:41",
    ),
    Case(
        "hdr-ok-layout",
        _header(", entry_computation_layout={(f32[4]{0}, f32[4]{0})->(f32[4]{0}, f32[4]{0})}"),
        ACCEPT,
    ),
    Case(
        "hdr-ok-layout-trailing-comma",
        _header(", entry_computation_layout={(f32[4]{0}, f32[4]{0},)->(f32[4]{0}, f32[4]{0})}"),
        ACCEPT,
    ),
    Case("hdr-frontend-unquoted", _header(", frontend_attributes={a=b}"), REFUSE, "1:37"),
    Case("hdr-frontend-space", _header(', frontend_attributes={a = "b"}'), REFUSE, "1:35"),
    Case("hdr-frontend-trailing-comma", _header(', frontend_attributes={a="b",}'), REFUSE, "1:41"),
    Case("hdr-frontend-not-braced", _header(", frontend_attributes=garbage"), REFUSE, "1:34"),
    Case("hdr-ok-frontend", _header(', frontend_attributes={a="b", c=\'d\', e={"x": 1}}'), ACCEPT),
    Case("hdr-replica-count-word", _header(", replica_count=x"), REFUSE, "1:1"),
    Case("acc-ok-highest", _unary("exponential", ", result_accuracy={mode=highest}"), ACCEPT),
    Case(
        "acc-ok-default-capitals", _unary("exponential", ", result_accuracy={mode=Default}"), ACCEPT
    ),
    Case(
        "acc-ok-tolerance",
        _unary("exponential", ", result_accuracy={tolerance={atol=1e-5,rtol=0,ulps=1}}"),
        ACCEPT,
    ),
    Case(
        "acc-ok-empty-tolerance", _unary("exponential", ", result_accuracy={tolerance={}}"), ACCEPT
    ),
    Case(
        "acc-ok-missing-value",
        _unary("exponential", ", result_accuracy={tolerance={atol=}}"),
        ACCEPT,
    ),
    Case("acc-ok-inf", _unary("exponential", ", result_accuracy={tolerance={atol=inf}}"), ACCEPT),
    Case("acc-ok-tanh", _unary("tanh", ", result_accuracy={mode=highest}"), ACCEPT),
    Case("acc-ok-sqrt", _unary("sqrt", ", result_accuracy={tolerance={rtol=0.5}}"), ACCEPT),
    Case("acc-ok-log", _unary("log", ", result_accuracy={tolerance={ulps=1.5}}"), ACCEPT),
    Case("acc-ok-cosine", _unary("cosine", ", result_accuracy={mode=highest}"), ACCEPT),
    Case("acc-mode-fast", _unary("exponential", ", result_accuracy={mode=fast}"), REFUSE, "5:62"),
    Case(
        "acc-mode-tolerance",
        _unary("exponential", ", result_accuracy={mode=tolerance}"),
        REFUSE,
        "5:62",
    ),
    Case(
        "acc-mode-string",
        _unary("exponential", ', result_accuracy={mode="highest"}'),
        REFUSE,
        "5:62",
    ),
    Case(
        "acc-mode-and-tolerance",
        _unary("exponential", ", result_accuracy={mode=highest, tolerance={atol=1}}"),
        REFUSE,
        "5:69",
    ),
    Case("acc-empty", _unary("exponential", ", result_accuracy={}"), REFUSE, "5:57"),
    Case("acc-not-braced", _unary("exponential", ", result_accuracy=highest"), REFUSE, "5:56"),
    Case(
        "acc-unknown-key", _unary("exponential", ", result_accuracy={foo=highest}"), REFUSE, "5:57"
    ),
    Case(
        "acc-unknown-tolerance",
        _unary("exponential", ", result_accuracy={tolerance={foo=1}}"),
        REFUSE,
        "5:68",
    ),
    Case(
        "acc-word-tolerance",
        _unary("exponential", ", result_accuracy={tolerance={atol=abc}}"),
        REFUSE,
        "5:73",
    ),
    Case(
        "acc-tolerance-trailing-comma",
        _unary("exponential", ", result_accuracy={tolerance={atol=1,}}"),
        REFUSE,
        "5:75",
    ),
    Case(
        "acc-tolerance-no-comma",
        _unary("exponential", ", result_accuracy={tolerance={atol=1 rtol=2}}"),
        REFUSE,
        "5:75",
    ),
    Case(
        "acc-space-before-equals",
        _unary("exponential", ", result_accuracy={mode =highest}"),
        REFUSE,
        "5:57",
    ),
    Case(
        "acc-negative-atol",
        _unary("exponential", ", result_accuracy={tolerance={atol=-1}}"),
        CRASH,
        "5:73",
    ),
    Case(
        "acc-negative-ulps",
        _unary("exponential", ", result_accuracy={tolerance={ulps=-1}}"),
        CRASH,
        "5:73",
    ),
    Case(
        "acc-nan", _unary("exponential", ", result_accuracy={tolerance={atol=nan}}"), CRASH, "5:73"
    ),
    Case(
        "acc-double-overflow",
        _unary("exponential", ", result_accuracy={tolerance={atol=1e400}}"),
        REFUSE,
        "5:73",
    ),
    Case(
        "acc-int-overflow",
        _unary("exponential", ", result_accuracy={tolerance={ulps=99999999999999999999}}"),
        REFUSE,
        "5:73",
    ),
    Case("acc-on-negate", _unary("negate", ", result_accuracy={mode=highest}"), REFUSE, "5:51"),
    Case("acc-on-abs", _unary("abs", ", result_accuracy={mode=highest}"), REFUSE, "5:48"),
    Case("lay-ok-tile", _param("f32[8,8]{1,0:T(8,128)}"), ACCEPT),
    Case("lay-ok-two-tiles", _param("f32[8,8]{1,0:T(8,128)(2,1)}"), ACCEPT),
    Case("lay-ok-combine", _param("f32[8,8]{1,0:T(8,*)}"), ACCEPT),
    Case("lay-ok-empty-tile", _param("f32[8,8]{1,0:T()}"), ACCEPT),
    Case("lay-ok-unclosed-tile", _param("f32[8,8]{1,0:T(8,128}"), ACCEPT),
    Case(
        "lay-ok-all-items",
        _param("f32[8,8]{1,0:T(8,128)L(1)#(u8)*(u8)E(4)S(2)SC(1:2,3)M(0)}"),
        ACCEPT,
    ),
    Case("lay-ok-element-size", _param("f32[8,8]{1,0:E(32)}"), ACCEPT),
    Case("lay-ok-memory-space", _param("f32[8,8]{1,0:S(1)}"), ACCEPT),
    Case("lay-ok-dim-level-types", _param("f32[8,8]{1,0:D(D,D)}"), ACCEPT),
    Case("lay-ok-spaces", _param("f32[8,8]{ 1 , 0 : T ( 8 , 128 ) }"), ACCEPT),
    Case("lay-ok-space-before", _param("f32[8]  {  0  }"), ACCEPT),
    Case("lay-ok-scalar-tile", _param("f32[]{:T(1)}"), ACCEPT),
    Case("lay-ok-tuple-element", _param("(f32[8]{0:T(8}, s32[])"), REFUSE, "6:1"),
    Case("lay-tile-no-parens", _param("f32[8,8]{1,0:T8,128}"), REFUSE, "4:26"),
    Case("lay-tile-semicolon", _param("f32[8,8]{1,0:T(8;128)}"), REFUSE, "4:29"),
    Case("lay-tile-word", _param("f32[8,8]{1,0:T(x)}"), REFUSE, "4:28"),
    Case("lay-tile-twice", _param("f32[8,8]{1,0:T(8,128)T(2)}"), REFUSE, "4:34"),
    Case("lay-tile-negative", _param("f32[8,8]{1,0:T(-8,128)}"), CRASH, "4:28"),
    Case("lay-tile-comma-after", _param("f32[8,8]{1,0:T(8,128),}"), REFUSE, "4:34"),
    Case("lay-unknown-item", _param("f32[8,8]{1,0:X(1)}"), REFUSE, "4:26"),
    Case("lay-items-out-of-order", _param("f32[8,8]{1,0:S(1)T(8,128)}"), REFUSE, "4:30"),
    Case("lay-items-out-of-order-2", _param("f32[8,8]{1,0:T(8,128)S(1)E(2)}"), REFUSE, "4:38"),
    Case("lay-element-size-word", _param("f32[8,8]{1,0:E(x)}"), REFUSE, "4:28"),
    Case("lay-bad-dim-level-type", _param("f32[8,8]{1,0:D(X,D)}"), REFUSE, "4:28"),
    Case("lay-physical-shape", _param("f32[8,8]{1,0:P(f32[8])}"), REFUSE, "4:21"),
    Case("lay-no-minor-to-major", _param("f32[8,8]{:T(8,128)}"), REFUSE, "4:13"),
    Case("lay-short-minor-to-major", _param("f32[8,8]{0:T(8,128)}"), REFUSE, "4:13"),
    Case("lay-long-minor-to-major", _param("f32[8,8]{1,0,2}"), REFUSE, "4:13"),
    Case("lay-no-comma", _param("f32[8,8]{1 0}"), REFUSE, "4:24"),
    Case("lay-trailing-comma", _param("f32[8,8]{1,0,}"), REFUSE, "4:26"),
    Case("lay-empty-braces", _param("f32[8]{}"), REFUSE, "4:13"),
    Case("lay-bad-tile-in-signature", _param("f32[8]{0}", "f32[8]{0:T(x)}"), REFUSE, "3:47"),
    Case("lay-bad-tile-in-tuple", _param("(f32[8]{0:T(x)}, s32[])"), REFUSE, "6:1"),
    Case(
        "lay-repeated-dimension",
        _param("f32[8,8]{1,1}"),
        ACCEPT,
        "4:13",
        ours=REFUSE,
        why="XLA's parser only counts layout entries; its layout validation refuses {1,1} later (hlo_to_stablehlo: out-of-bounds minor_to_major)",
    ),
    Case(
        "lay-out-of-range-dimension",
        _param("f32[8,2]{5,0}"),
        ACCEPT,
        "4:13",
        ours=REFUSE,
        why="as lay-repeated-dimension (tests/hostile/bad_layout.hlo)",
    ),
    Case(
        "opd-ok-matching",
        _operands(
            "  %s = f32[4]{0} slice(f32[8]{0} %a), slice={[0:4]}\n  ROOT %r = f32[4]{0} add(f32[4]{0} %s, f32[4]{0} %b)"
        ),
        ACCEPT,
    ),
    Case(
        "opd-ok-tiled-annotation",
        _operands(
            "  %s = f32[4]{0} slice(f32[8]{0:T(2)} %a), slice={[0:4]}\n  ROOT %r = f32[4]{0} add(%s, %b)"
        ),
        ACCEPT,
    ),
    Case(
        "opd-ok-tuple",
        _operands(
            "  %t = (f32[8], f32[4]) tuple(%a, %b)\n  ROOT %r = f32[4]{0} get-tuple-element((f32[8], f32[4]) %t), index=1"
        ),
        ACCEPT,
    ),
    Case(
        "opd-ok-nested-instruction",
        _operands(
            "  %s = f32[4]{0} slice(f32[8]{0} %a), slice={[0:4]}\n  ROOT %r = f32[4]{0} add(f32[4]{0} %s, f32[4]{0} negate(f32[4]{0} %b))"
        ),
        ACCEPT,
    ),
    Case(
        "opd-issue-example",
        _operands("  ROOT %r = f32[4]{0} add(f32[4] %a, f32[4] %b)"),
        REFUSE,
        "6:27",
    ),
    Case(
        "opd-element-type",
        _operands(
            "  %s = f32[4]{0} slice(s32[8]{0} %a), slice={[0:4]}\n  ROOT %r = f32[4]{0} add(%s, %b)"
        ),
        REFUSE,
        "6:24",
    ),
    Case(
        "opd-rank",
        _operands(
            "  %s = f32[4]{0} slice(f32[8,1] %a), slice={[0:4]}\n  ROOT %r = f32[4]{0} add(%s, %b)"
        ),
        REFUSE,
        "6:24",
    ),
    Case(
        "opd-scalar",
        _operands(
            "  %s = f32[4]{0} slice(f32[] %a), slice={[0:4]}\n  ROOT %r = f32[4]{0} add(%s, %b)"
        ),
        REFUSE,
        "6:24",
    ),
    Case(
        "opd-tuple-for-array",
        _operands(
            "  %s = f32[4]{0} slice(f32[8] %a), slice={[0:4]}\n  ROOT %r = f32[4]{0} add(%s, (f32[4]) %b)"
        ),
        REFUSE,
        "7:31",
    ),
    Case(
        "opd-tuple-elements",
        _operands(
            "  %t = (f32[8], f32[4]) tuple(%a, %b)\n  ROOT %r = f32[4]{0} get-tuple-element((f32[4], f32[4]) %t), index=1"
        ),
        REFUSE,
        "7:41",
    ),
    Case(
        "opd-tuple-arity",
        _operands(
            "  %t = (f32[8], f32[4]) tuple(%a, %b)\n  ROOT %r = f32[4]{0} get-tuple-element((f32[8]) %t), index=0"
        ),
        REFUSE,
        "7:41",
    ),
    Case(
        "opd-inside-nested-instruction",
        _operands(
            "  %s = f32[4]{0} slice(f32[8]{0} %a), slice={[0:4]}\n  ROOT %r = f32[4]{0} add(f32[4]{0} %s, f32[4]{0} negate(f32[8]{0} %b))"
        ),
        REFUSE,
        "7:58",
    ),
    Case(
        "opd-bad-layout",
        _operands(
            "  %s = f32[4]{0} slice(f32[8]{0:T(x)} %a), slice={[0:4]}\n  ROOT %r = f32[4]{0} add(%s, %b)"
        ),
        REFUSE,
        "6:35",
    ),
    Case(
        "opd-undefined",
        _operands(
            "  %s = f32[4]{0} slice(f32[8] %a), slice={[0:4]}\n  ROOT %r = f32[4]{0} add(%s, f32[4] %nope)"
        ),
        REFUSE,
        "7:8",
    ),
    Case(
        "lay-ok-empty-braces-scalar",
        _param("f32[]{}"),
        REFUSE,
        ours=ACCEPT,
        why="older dumps print scalars as f32[]{} (tests/filecheck/translate/shapes-layouts.hlo); XLA's parser no longer reads {} as a layout",
    ),
    Case(
        "val-ok-minus-zero-float",
        _const("f32[2]", "{-0, -0.0}"),
        ACCEPT,
        why="XLA prints -0.0 as -0 and reads -0 back as +0; we keep the sign (the export writes -0.0)",
    ),
]
