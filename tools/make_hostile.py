"""Generate the big hostile inputs of tests/hostile (too large to commit).

    python tools/make_hostile.py OUT_DIR

writes a ~50 MB constant (HLO text and .mlir), 10,000-level nested tuples, regions, calls and
inline operands into OUT_DIR and prints their manifest (same format as tests/hostile/MANIFEST.json:
for each file what it exercises and the expected outcome, "ok" = exit 0, "error" = exit 1 with a
located `error: FILE:LINE:COL: message`, "any" = either of the two). tests/test_hostile.py calls
`generate()` at test time into a temporary directory.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

DEPTH = 10_000
CALL_DEPTH = 1_000  # each level is a function: the interpreter runs them all
CONSTANT_BYTES = 50_000_000

Entry = dict[str, object]


def _big_constant_hlo() -> str:
    """An f64 constant whose HLO text is ~50 MB: full-precision values as XLA prints them
    (varying, so no splat shortcut applies)."""
    import numpy as np

    values = [repr(float(v)) for v in np.random.default_rng(0).standard_normal(1000) * 1e-3]
    chunk = ", ".join(values)
    reps = CONSTANT_BYTES // (len(chunk) + 2)
    n = reps * 1000
    body = ", ".join([chunk] * reps)
    return (
        "HloModule big_constant\n\n"
        f"ENTRY %main () -> f64[{n}] {{\n"
        f"  ROOT %c = f64[{n}]{{0}} constant({{{body}}})\n"
        "}\n"
    )


def _big_constant_mlir() -> str:
    """An f64 dense hex constant of ~50 MB of text (varying values)."""
    import numpy as np

    n = CONSTANT_BYTES // 16
    data = (np.arange(n, dtype=np.float64) % 1000).astype("<f8").tobytes().hex().upper()
    return (
        "builtin.module {\n"
        f"  func.func @main() -> tensor<{n}xf64> {{\n"
        f'    %c = hlo.constant dense<"0x{data}"> : tensor<{n}xf64>\n'
        f"    func.return %c : tensor<{n}xf64>\n"
        "  }\n"
        "}\n"
    )


def _deep_tuple_hlo() -> str:
    """A parameter whose shape is a tuple nested DEPTH levels deep."""
    shape = "(" * DEPTH + "f32[]" + ")" * DEPTH
    return (
        "HloModule deep_tuple\n\n"
        f"ENTRY %main (p: {shape}) -> {shape} {{\n"
        f"  ROOT %p = {shape} parameter(0)\n"
        "}\n"
    )


def _deep_tuple_mlir() -> str:
    """A function argument whose type is a tuple nested DEPTH levels deep."""
    t = "tuple<" * DEPTH + "tensor<f32>" + ">" * DEPTH
    return (
        "builtin.module {\n"
        f"  func.func @main(%p: {t}) -> {t} {{\n"
        f"    func.return %p : {t}\n"
        "  }\n"
        "}\n"
    )


def _deep_regions_mlir() -> str:
    """DEPTH nested single-branch conditionals (regions inside regions)."""
    lines = [
        "builtin.module {",
        "  func.func @main(%p: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {",
    ]
    for i in range(DEPTH):
        lines.append(
            f"    %r{i} = hlo.conditional(%p) (%x) : (tensor<i32>, tensor<f32>) -> tensor<f32> {{"
        )
        lines.append(f"    ^bb0(%a{i}: tensor<f32>):")
    lines.append(f"    hlo.return %a{DEPTH - 1} : tensor<f32>")
    for i in reversed(range(DEPTH)):
        lines.append("    }")
        if i > 0:
            lines.append(f"    hlo.return %r{i} : tensor<f32>")
    lines += ["    func.return %r0 : tensor<f32>", "  }", "}", ""]
    return "\n".join(lines)


def _deep_modules_mlir() -> str:
    """DEPTH nested builtin.module ops."""
    return "builtin.module {" * DEPTH + "}" * DEPTH + "\n"


def _deep_calls_hlo() -> str:
    """A chain of CALL_DEPTH computations, each calling the next (valid, a deep call graph)."""
    parts = ["HloModule deep_calls\n"]
    last = CALL_DEPTH - 1
    parts.append(f"%f{last} (a: f32[]) -> f32[] {{\n  ROOT %a = f32[] parameter(0)\n}}\n")
    for i in reversed(range(last)):
        parts.append(
            f"%f{i} (a: f32[]) -> f32[] {{\n  %a = f32[] parameter(0)\n"
            f"  ROOT %r = f32[] call(%a), to_apply=%f{i + 1}\n}}\n"
        )
    parts.append(
        "ENTRY %main (x: f32[]) -> f32[] {\n  %x = f32[] parameter(0)\n"
        "  ROOT %r = f32[] call(%x), to_apply=%f0\n}\n"
    )
    return "\n".join(parts)


def _deep_inline_operands_hlo() -> str:
    """Old-style nested inline operands, DEPTH levels: negate(f32[] negate(...))."""
    inner = "f32[] parameter(0)"
    text = "negate(" * DEPTH + inner + ")" * DEPTH
    return f"HloModule deep_inline\n\nENTRY %main (x: f32[]) -> f32[] {{\n  ROOT %r = f32[] {text}\n}}\n"


def _deep_chain_mlir() -> str:
    """A straight-line chain of DEPTH dependent ops (valid; deep def-use chains)."""
    lines = ["builtin.module {", "  func.func @main(%v0: tensor<f32>) -> tensor<f32> {"]
    lines += [f"    %v{i + 1} = hlo.negate %v{i} : tensor<f32>" for i in range(DEPTH)]
    lines += [f"    func.return %v{DEPTH} : tensor<f32>", "  }", "}", ""]
    return "\n".join(lines)


GENERATORS: dict[str, tuple[Callable[[], str], str, str]] = {
    "big_constant_50mb.hlo": (_big_constant_hlo, "a ~50 MB f64 constant literal (valid)", "ok"),
    "big_constant_50mb.mlir": (_big_constant_mlir, "a ~50 MB hex dense f64 constant (valid)", "ok"),
    "deep_tuple_10000.hlo": (_deep_tuple_hlo, "a tuple shape nested 10,000 levels", "any"),
    "deep_tuple_10000.mlir": (_deep_tuple_mlir, "a tuple type nested 10,000 levels", "any"),
    "deep_regions_10000.mlir": (
        _deep_regions_mlir,
        "10,000 nested conditional regions",
        "any",
    ),
    "deep_modules_10000.mlir": (_deep_modules_mlir, "10,000 nested builtin.module ops", "any"),
    "deep_calls_1000.hlo": (_deep_calls_hlo, "a chain of 1,000 calls (valid)", "any"),
    "deep_inline_operands_10000.hlo": (
        _deep_inline_operands_hlo,
        "old-style inline operands nested 10,000 levels",
        "any",
    ),
    "deep_chain_10000.mlir": (_deep_chain_mlir, "a chain of 10,000 dependent ops (valid)", "ok"),
}


def generate(directory: Path) -> dict[str, Entry]:
    """Write every generated hostile input into `directory`; return their manifest."""
    directory.mkdir(parents=True, exist_ok=True)
    manifest: dict[str, Entry] = {}
    for name, (make, exercises, expect) in GENERATORS.items():
        (directory / name).write_text(make(), encoding="utf-8")
        manifest[name] = {"exercises": exercises, "expect": expect}
    return manifest


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    print(json.dumps(generate(Path(argv[0])), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
