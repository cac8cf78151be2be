"""neuron-opt's user-error discipline: `error: ...` on stderr, exit 1, no traceback, no partial -o."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.conftest import run_tool

GOOD = """
builtin.module attributes {hlo.num_partitions = 2 : i64} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %y = hlo.collective_permute %x pairs = [[0, 1], [1, 0]] channel_id = 1 : tensor<4xf32>
    func.return %y : tensor<4xf32>
  }
}
"""

VERIFY_ERROR = GOOD.replace("[[0, 1], [1, 0]]", "[[0, 1], [1, 1]]")
PARSE_ERROR = "func.func @f(%x: tensor<4xf32> {\n"
UNKNOWN_OP = GOOD.replace("hlo.collective_permute", "hlo.collective_permutation")


def _write(tmp_path: Path, text: str, name: str = "in.mlir") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def _assert_user_error(result: subprocess.CompletedProcess[str], *fragments: str) -> None:
    assert result.returncode == 1, result
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("error: "), result.stderr
    for fragment in fragments:
        assert fragment in result.stderr, result.stderr


def test_good_input_succeeds(tmp_path: Path) -> None:
    result = run_tool("neuron-opt", _write(tmp_path, GOOD), "-p", "hlo-dce")
    assert result.returncode == 0, result.stderr
    assert "hlo.collective_permute %x pairs = [[0, 1], [1, 0]] channel_id = 1" in result.stdout


def test_verifier_error_has_location(tmp_path: Path) -> None:
    path = _write(tmp_path, VERIFY_ERROR)
    result = run_tool("neuron-opt", path)
    _assert_user_error(
        result,
        f"{path}:4:5:",
        "'hlo.collective_permute' op target id 1 appears in more than one pair",
    )


def test_parse_error_has_location(tmp_path: Path) -> None:
    path = _write(tmp_path, PARSE_ERROR)
    _assert_user_error(run_tool("neuron-opt", path), f"{path}:2:1:", "attribute entry")


def test_unknown_op(tmp_path: Path) -> None:
    path = _write(tmp_path, UNKNOWN_OP)
    _assert_user_error(run_tool("neuron-opt", path), f"{path}:4:", "hlo.collective_permutation")


def test_unknown_pass(tmp_path: Path) -> None:
    result = run_tool("neuron-opt", _write(tmp_path, GOOD), "-p", "no-such-pass")
    _assert_user_error(result, "no-such-pass")


def test_bad_pass_option(tmp_path: Path) -> None:
    result = run_tool("neuron-opt", _write(tmp_path, GOOD), "-p", "hlo-dce{bogus=1}")
    _assert_user_error(result, "bogus")


def test_malformed_pipeline(tmp_path: Path) -> None:
    result = run_tool("neuron-opt", _write(tmp_path, GOOD), "-p", "hlo-dce{")
    _assert_user_error(result, "invalid pass pipeline")


def test_bad_command_line_flag(tmp_path: Path) -> None:
    _assert_user_error(
        run_tool("neuron-opt", _write(tmp_path, GOOD), "--no-such-flag"), "--no-such-flag"
    )


def test_missing_file(tmp_path: Path) -> None:
    _assert_user_error(run_tool("neuron-opt", tmp_path / "missing.mlir"), "missing.mlir")


def test_unknown_extension(tmp_path: Path) -> None:
    _assert_user_error(run_tool("neuron-opt", _write(tmp_path, GOOD, "in.txt")), "txt")


def test_binary_garbage(tmp_path: Path) -> None:
    path = tmp_path / "garbage.mlir"
    path.write_bytes(bytes(range(256)) * 4)
    _assert_user_error(run_tool("neuron-opt", path))


def test_deep_nesting_is_a_clean_error_or_success(tmp_path: Path) -> None:
    depth = 3000
    text = "builtin.module {" * depth + "}" * depth
    result = run_tool("neuron-opt", _write(tmp_path, text))
    assert "Traceback" not in result.stderr
    assert result.returncode in (0, 1)
    if result.returncode == 1:
        assert result.stderr.startswith("error: ")


@pytest.mark.parametrize("bad", [VERIFY_ERROR, PARSE_ERROR])
def test_output_file_never_partial(tmp_path: Path, bad: str) -> None:
    out = tmp_path / "out.mlir"
    result = run_tool("neuron-opt", _write(tmp_path, bad), "-o", out)
    assert result.returncode == 1
    assert not out.exists()
    assert list(tmp_path.iterdir()) == [tmp_path / "in.mlir"]


def test_output_file_written_on_success(tmp_path: Path) -> None:
    out = tmp_path / "out.mlir"
    result = run_tool("neuron-opt", _write(tmp_path, GOOD), "-o", out)
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    assert "hlo.collective_permute" in out.read_text()


def test_split_input_file_verify_diagnostics(tmp_path: Path) -> None:
    text = GOOD + "\n// -----\n" + VERIFY_ERROR
    result = run_tool(
        "neuron-opt", _write(tmp_path, text), "--split-input-file", "--verify-diagnostics"
    )
    assert result.returncode == 0, result.stderr
    assert "target id 1 appears in more than one pair" in result.stdout
