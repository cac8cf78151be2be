"""neuron-run: execute an hlo program (.mlir or .hlo) on R x P simulated devices.

    neuron-run FILE (--inputs in.npz | --random-inputs SEED [--per-device-random-inputs])
               [--outputs out.npz] [--infeed feed.npz] [--outfeed out.npz] [--stats]
               [--num-partitions N] [--num-replicas R] [--alpha-us A] [--bandwidth-gbps B]
               [--max-while-iterations N] [--max-value-bytes B]

Inputs are keyed `arg<I>_dev<D>` (per device) or `arg<I>` (same on every device) and cast
exactly to the parameter's element type; `--random-inputs` makes seeded ones as
--verify-equivalence does (per device, except one value on every device for the parameters
that decide control flow). Outputs are written as `out<J>_dev<D>`. `--infeed` fills the host
infeed queue (`infeed<K>_<L>[_dev<D>]`: tensor L of the K-th infeed run) and `--outfeed` writes
what the outfeeds wrote (`outfeed<K>_<L>_dev<D>`; neuron_cc.interpreter.host_feeds). `--stats`
prints, per collective kind, the launches, bytes moved per device and an alpha-beta time
estimate (alpha per launch + bytes / bandwidth). Programs the interpreter refuses (divergent
control flow, a while past --max-while-iterations, a value over --max-value-bytes, recursion,
unmatched send/recv; see notes/INTERPRETER_SAFETY.md) fail with `error: <file>:<line>:<col>:`
at the offending op.
"""

from __future__ import annotations

import argparse
import io
import sys
import zipfile
from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.utils.exceptions import DiagnosticException

from neuron_cc.interpreter.cost_model import DEFAULT, AlphaBeta
from neuron_cc.interpreter.host_feeds import infeed_from_npz, outfeed_to_npz
from neuron_cc.interpreter.runner import (
    RunResult,
    entry_function,
    inputs_from_npz,
    outputs_to_npz,
    run_module,
)
from neuron_cc.interpreter.values import (
    DEFAULT_MAX_VALUE_BYTES,
    DEFAULT_MAX_WHILE_ITERATIONS,
    InterpretationError,
    storage_bytes,
)
from neuron_cc.tools.driver import (
    ToolArgumentParser,
    UserError,
    check_module,
    exit_now,
    parse_mlir,
    read_hlo,
    read_text,
    run_guarded,
    tool_context,
    verify_error_message,
    write_bytes_atomically,
)
from neuron_cc.tools.progress import op_ticker


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    cli = ToolArgumentParser(
        prog="neuron-run", description="run an hlo program on simulated devices"
    )
    cli.add_argument("file", help="program (.mlir or .hlo)")
    source = cli.add_mutually_exclusive_group(required=True)
    source.add_argument("--inputs", help="npz with arg<I>_dev<D> / arg<I> arrays")
    source.add_argument(
        "--random-inputs",
        type=int,
        metavar="SEED",
        help="seeded random inputs, different on every device except those that decide "
        "control flow (as --verify-equivalence uses)",
    )
    cli.add_argument(
        "--per-device-random-inputs",
        action="store_true",
        help="with --random-inputs, every input differs per device, also those that decide "
        "control flow",
    )
    cli.add_argument("--outputs", help="write out<J>_dev<D> arrays to this npz")
    cli.add_argument(
        "--infeed",
        metavar="NPZ",
        help="host infeed queue: infeed<K>_<L>_dev<D> / infeed<K>_<L> arrays (tensor L of the "
        "K-th infeed the program runs)",
    )
    cli.add_argument(
        "--outfeed", metavar="NPZ", help="write what the outfeeds wrote as outfeed<K>_<L>_dev<D>"
    )
    cli.add_argument("--stats", action="store_true", help="print collective statistics")
    cli.add_argument("--num-partitions", type=int)
    cli.add_argument("--num-replicas", type=int)
    cli.add_argument(
        "--alpha-us", type=float, default=DEFAULT.alpha_us, help="latency per launch (us)"
    )
    cli.add_argument(
        "--bandwidth-gbps", type=float, default=DEFAULT.bandwidth_gbps, help="GB/s per device"
    )
    cli.add_argument("--allow-elided-constants", action="store_true")
    cli.add_argument(
        "--max-while-iterations",
        type=int,
        default=DEFAULT_MAX_WHILE_ITERATIONS,
        metavar="N",
        help="stop a while loop that runs more than N iterations (0: no limit; "
        f"default {DEFAULT_MAX_WHILE_ITERATIONS})",
    )
    cli.add_argument(
        "--max-value-bytes",
        type=int,
        default=DEFAULT_MAX_VALUE_BYTES,
        metavar="B",
        help="refuse a value bigger than B bytes, all devices together (0: no limit; "
        f"default {DEFAULT_MAX_VALUE_BYTES} = 1 GiB)",
    )
    args = cli.parse_args(argv)
    if args.per_device_random_inputs and args.random_inputs is None:
        cli.error("--per-device-random-inputs needs --random-inputs")
    return args


def stats_table(result: RunResult, alpha_us: float, bandwidth_gbps: float) -> str:
    """A Markdown table of the run's collectives with an alpha-beta time estimate."""
    lines = [
        "| collective | launches | bytes/device | est. time (us) |",
        "|---|---:|---:|---:|",
    ]
    model = AlphaBeta(alpha_us, bandwidth_gbps)
    total = 0.0
    for kind in sorted(result.state.stats):
        record = result.state.stats[kind]
        time_us = model.record_us(record)
        total += time_us
        lines.append(
            f"| {kind} | {record.launches} | {record.bytes_per_device:.0f} | {time_us:.2f} |"
        )
    lines.append(
        f"| total | {sum(r.launches for r in result.state.stats.values())} | "
        f"{sum(r.bytes_per_device for r in result.state.stats.values()):.0f} | {total:.2f} |"
    )
    return "\n".join(lines) + "\n"


def _load_npz(path: str) -> dict[str, Any]:
    try:
        with np.load(path) as data:
            return {k: data[k] for k in data.files}
    except FileNotFoundError:
        raise UserError(f"no such inputs file: {path}") from None
    except (ValueError, OSError, zipfile.BadZipFile) as e:
        raise UserError(f"{path}: not a readable .npz file ({e})") from None


def run(argv: Sequence[str] | None = None) -> int:
    args = _arguments(argv)
    ctx = tool_context()
    text = read_text(args.file)
    if args.file.endswith(".hlo"):
        module, source = read_hlo(
            ctx,
            text,
            args.file,
            args.allow_elided_constants,
            args.num_replicas,
            args.num_partitions,
        )
    else:
        module, source = parse_mlir(ctx, text, args.file)
    try:
        module.verify()
    except DiagnosticException as e:
        raise UserError(verify_error_message(module, e, source)) from e
    check_module(module, source)
    data = _load_npz(args.inputs) if args.inputs is not None else None
    feed = _load_npz(args.infeed) if args.infeed is not None else {}
    try:
        result = _execute(module, data, feed, args)
    except InterpretationError as e:
        where = source.location(e.op) if e.op is not None else None
        raise UserError(f"{where or args.file + ':1:1'}: {e}") from None
    for path, arrays in (
        (args.outputs, outputs_to_npz(result)),
        (args.outfeed, outfeed_to_npz(result.state.outfeed)),
    ):
        if path is not None:
            buffer = io.BytesIO()
            np.savez(buffer, **arrays)  # pyright: ignore[reportArgumentType]
            write_bytes_atomically(path, buffer.getvalue())
    if args.stats:
        sys.stdout.write(stats_table(result, args.alpha_us, args.bandwidth_gbps))
    return 0


def _execute(
    module: Any, data: dict[str, Any] | None, feed: dict[str, Any], args: argparse.Namespace
) -> RunResult:
    from neuron_cc.dialects.replica_groups import device_counts
    from neuron_cc.interpreter.equivalence import random_inputs

    r, p = device_counts(module)
    r = args.num_replicas or r
    p = args.num_partitions or p
    entry = entry_function(module)
    if data is None:
        too_big = [
            t
            for t in entry.function_type.inputs.data
            if storage_bytes(t) * r * p > args.max_value_bytes > 0
        ]
        if too_big:
            raise InterpretationError(
                f"random input of type {too_big[0]} would exceed --max-value-bytes "
                f"{args.max_value_bytes} on {r * p} devices",
                entry,
            )
        inputs = random_inputs(
            module, args.random_inputs, devices=r * p, per_device=args.per_device_random_inputs
        )
    else:
        inputs = inputs_from_npz(entry, data, r * p)
    ticker = op_ticker()
    try:
        return run_module(
            module,
            inputs,
            r,
            p,
            max_while_iterations=args.max_while_iterations,
            max_value_bytes=args.max_value_bytes,
            infeed=infeed_from_npz(feed, r * p),
            on_ops=ticker,
        )
    finally:
        if ticker is not None:
            ticker.close()


def main(argv: Sequence[str] | None = None) -> int:
    return run_guarded(lambda: run(argv))


def entry() -> None:
    """Console-script entry point."""
    exit_now(main())


if __name__ == "__main__":
    sys.exit(main())
