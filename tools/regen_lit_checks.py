"""Regenerate the CHECK / REMARK blocks of a `--split-input-file` lit file from neuron-opt.

    .venv/bin/python tools/regen_lit_checks.py FILE PIPELINE

For every `// -----` chunk of FILE: drop its `// CHECK...` and `// REMARK...` lines (other
prefixes such as `UPSTREAM-CHECK` stay), run `neuron-opt CHUNK -p PIPELINE` and, with
`remarks=true` added to the (last) pass's options, append one `// REMARK:` block (the remark
lines) and one `// CHECK-LABEL:` + `// CHECK-NEXT:` block (the printed result), with the
printer's incidental value numbers `%0, %1, ...` as FileCheck captures (`[[V0:%[0-9]+]]` where
defined, `[[V0]]` where used). Like MLIR's generate-test-checks.py: review the diff, the output
is whatever the compiler does today.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

_OURS = re.compile(r"// (CHECK|REMARK)(-NEXT|-LABEL|-NOT)?:")
_NUMBER = re.compile(r"%(\d+)\b(?![.\w])")
_DEFINED = re.compile(r"^\s*((?:%\d+\s*,\s*)*%\d+)\s*=")
_NEURON_OPT = str(Path(sys.executable).parent / "neuron-opt")


def _with_remarks(pipeline: str) -> str:
    if pipeline.endswith("}"):
        return pipeline[:-1] + ",remarks=true}"
    return pipeline + "{remarks=true}"


def _run(path: Path, pipeline: str) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [_NEURON_OPT, str(path), "-p", pipeline], capture_output=True, text=True, check=False
    )
    if result.returncode != 0:
        raise SystemExit(f"neuron-opt failed on a chunk of {path}:\n{result.stderr}")
    return result


def capture_numbers(lines: list[str]) -> list[str]:
    """`lines` (printed IR) with every `%N` as a FileCheck capture: defined where it is a
    result (or first seen), referenced after."""
    seen: set[str] = set()
    out: list[str] = []
    for line in lines:
        match = _DEFINED.match(line)
        results = set(_NUMBER.findall(match.group(1))) if match else set()

        def capture(m: re.Match[str], results: set[str] = results) -> str:
            n = m.group(1)
            if n in results or n not in seen:
                results.discard(n)
                seen.add(n)
                return f"[[V{n}:%[0-9]+]]"
            return f"[[V{n}]]"

        out.append(_NUMBER.sub(capture, line))
    return out


def regenerate_chunk(chunk: str, pipeline: str, suffix: str) -> str:
    """`chunk` without its old CHECK/REMARK lines, followed by freshly generated ones."""
    kept = [line for line in chunk.rstrip("\n").split("\n") if not _OURS.match(line)]
    body = "\n".join(kept).rstrip("\n") + "\n"
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"chunk{suffix}"
        path.write_text(body)
        printed = capture_numbers(_run(path, pipeline).stdout.rstrip("\n").split("\n"))
        stderr = _run(path, _with_remarks(pipeline)).stderr.split("\n")
    remarks = [line for line in stderr if line.startswith("remark:")]
    block = [f"// REMARK{'' if i == 0 else '-NEXT'}: {line}" for i, line in enumerate(remarks)]
    block += [
        f"// CHECK{'-LABEL' if i == 0 else '-NEXT'}: {line}" for i, line in enumerate(printed)
    ]
    return body.rstrip("\n") + "\n\n" + "\n".join(block) + "\n"


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    path, pipeline = Path(argv[0]), argv[1]
    chunks = path.read_text().split("\n// -----\n")
    path.write_text("\n// -----\n".join(regenerate_chunk(c, pipeline, path.suffix) for c in chunks))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
