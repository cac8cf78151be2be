"""neuron-jax: the per-partition HLO of a JAX function, as XLA's SPMD partitioner leaves it.

    neuron-jax SCRIPT.py:function [-o spmd.hlo]

SCRIPT.py is a corpus-style script (`tests/corpus/jax/*/source.py`): `function` returns a dict
with kind ("shard_map" or "jit_auto"), mesh, fn, in_specs, out_specs and args, and the script
may use the names `neuron_cc.jax.case_namespace` predefines. Without `:function`, the script's
one `@case` function. Needs the `xla` extra (JAX); sets up 8 host devices itself.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from neuron_cc.tools.driver import UserError, exit_now, run_guarded, write_output

_SUMMARY = "the per-partition HLO of a JAX function, as XLA's SPMD partitioner leaves it"


def main(argv: Sequence[str] | None = None) -> int:
    def body() -> int:
        cli = argparse.ArgumentParser(prog="neuron-jax", description=_SUMMARY)
        cli.add_argument("target", help="SCRIPT.py[:function]")
        cli.add_argument("-o", "--output", default=None, help="write here (default: stdout)")
        args = cli.parse_args(argv)
        script, _, name = str(args.target).partition(":")
        if not Path(script).is_file():
            raise UserError(f"no such script: {script}")
        from neuron_cc.jax import JaxEntryError, case_spmd_hlo, load_case

        try:
            _, spec = load_case(Path(script), name or None)
            text = case_spmd_hlo(spec)
        except JaxEntryError as e:
            raise UserError(f"{script}:1:1: {e}") from None
        except Exception as e:  # the user's script failed: say where, without a traceback
            raise UserError(f"{script}:1:1: {type(e).__name__}: {e}") from None
        write_output(args.output, text)
        return 0

    return run_guarded(body)


if __name__ == "__main__":
    sys.exit(main())


def entry() -> None:
    """Console-script entry point."""
    exit_now(main())
