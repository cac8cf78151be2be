"""Every registered dialect and pass loads; xdsl-opt finds them through the entry point."""

from __future__ import annotations

from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.universe import Universe

from neuron_cc.dialects import get_all_dialects
from neuron_cc.tools.registry import available_dialects, available_passes
from neuron_cc.transforms import get_all_passes
from neuron_cc.universe import NEURON_CC_UNIVERSE
from tests.conftest import run_tool

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "grad_accum.mlir"


def test_every_dialect_loads_and_names_match() -> None:
    for name, factory in get_all_dialects().items():
        dialect = factory()
        assert dialect.name == name
        ops = list(dialect.operations)
        assert ops, name
        for op in ops:
            assert op.name.startswith(name + "."), op.name
            assert op.__doc__, f"{op.name} has no docstring"


def test_every_pass_loads_and_names_match() -> None:
    for name, factory in get_all_passes().items():
        cls = factory()
        assert issubclass(cls, ModulePass)
        assert cls.name == name
        assert cls.__doc__
        # One module per pass, named after the pass (without the `neuron-` prefix).
        assert cls.__module__ == "neuron_cc.transforms." + name.removeprefix("neuron-").replace(
            "-", "_"
        )


def test_universe_is_discovered_by_xdsl() -> None:
    multiverse = Universe.get_multiverse()
    assert set(NEURON_CC_UNIVERSE.all_dialects) <= set(multiverse.all_dialects)
    assert set(NEURON_CC_UNIVERSE.all_passes) <= set(multiverse.all_passes)


def test_neuron_opt_registers_xdsl_basics() -> None:
    dialects = available_dialects()
    for name in ("builtin", "func", "arith", "scf", "test", "hlo"):
        assert name in dialects
    passes = available_passes()
    assert "hlo-dce" in passes
    assert "canonicalize" in passes
    ctx = Context()
    for name, factory in dialects.items():
        ctx.register_dialect(name, factory)
    assert ctx.get_optional_op("hlo.all_reduce") is not None
    assert isinstance(ModuleOp([]), ModuleOp)


def test_xdsl_opt_runs_hlo_dce_on_the_example() -> None:
    result = run_tool("xdsl-opt", EXAMPLE, "-p", "hlo-dce")
    assert result.returncode == 0, result.stderr
    assert "hlo.while" in result.stdout
    assert "hlo.all_reduce" in result.stdout
    assert "%unused = hlo.multiply" in EXAMPLE.read_text()
    assert "%unused" not in result.stdout
