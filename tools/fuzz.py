"""Fuzz driver: run the property tests with random seeds until a time budget is spent.

The properties (`tests/test_properties.py`: every pass preserves outputs and is idempotent and
deterministic, .mlir and HLO round trips, convert-hlo-to-bir preserves outputs; and
`tests/test_generate_loops.py`: loop passes move exactly the movable collectives) run under the
hypothesis "fuzz" profile (random seeds, `--examples` generated programs per property and
round) in `--jobs` parallel workers, each with its own share of the properties. Rounds repeat
until `--minutes` have passed; the first failing property stops everything (exit 1; hypothesis
prints the minimised program and a `@reproduce_failure` blob). At the end it prints how many
programs each property checked, the total, and the rate. `make fuzz` runs
`tools/fuzz.py --minutes 30`.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from neuron_cc.tools.progress import TimeBar  # noqa: E402

PROPERTIES = "tests/test_properties.py"
LOOPS = "tests/test_generate_loops.py"


@dataclass(frozen=True)
class Share:
    """What one worker runs: pytest arguments and the property tests they select."""

    args: tuple[str, ...]
    properties: tuple[str, ...]


# The pass property costs about as much as all the others together: two balanced shares.
SHARES = (
    Share(
        (PROPERTIES, "-k", "every_pass"),
        ("every pass preserves outputs, idempotent, deterministic",),
    ),
    Share(
        (PROPERTIES, LOOPS, "-k", "roundtrip or bir_preserves or movable"),
        (
            "mlir print/parse round trip",
            "hlo export/import round trip",
            "convert-hlo-to-bir preserves outputs",
            "loop passes move exactly the movable collectives",
        ),
    ),
)


def _command(share: Share) -> list[str]:
    return [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *share.args]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="run the property tests with random seeds")
    parser.add_argument("--minutes", type=float, default=30.0, help="time budget (default 30)")
    parser.add_argument("--examples", type=int, default=500, help="programs per property/round")
    parser.add_argument("--jobs", type=int, default=2, choices=(1, 2), help="parallel workers")
    args = parser.parse_args(argv)
    env = dict(
        os.environ,
        NEURON_HYPOTHESIS_PROFILE="fuzz",
        NEURON_FUZZ_EXAMPLES=str(args.examples),
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
    )
    shares = (
        list(SHARES)
        if args.jobs == 2
        else [Share((PROPERTIES, LOOPS), SHARES[0].properties + SHARES[1].properties)]
    )
    start = time.monotonic()
    deadline = start + args.minutes * 60
    rounds = [0] * len(shares)
    running: dict[int, subprocess.Popen[bytes]] = {}
    failed = False
    progress = TimeBar(args.minutes * 60, "fuzz")
    while running or (not failed and time.monotonic() < deadline):
        progress.update(time.monotonic() - start)
        for i, share in enumerate(shares):
            if i not in running and not failed and time.monotonic() < deadline:
                running[i] = subprocess.Popen(_command(share), cwd=ROOT, env=env)
        time.sleep(0.5)
        for i, process in list(running.items()):
            code = process.poll()
            if code is None:
                continue
            del running[i]
            if code != 0:
                print(f"fuzz: {shares[i].args} failed in round {rounds[i] + 1}", file=sys.stderr)
                failed = True
            else:
                rounds[i] += 1
    progress.close()
    elapsed = time.monotonic() - start
    total = 0
    for share, done in zip(shares, rounds, strict=True):
        for name in share.properties:
            print(f"fuzz: {done * args.examples:6d} programs: {name}")
            total += done * args.examples
    print(
        f"fuzz: {total} programs in {elapsed / 60:.1f} min ({total / elapsed:.1f} programs/s), "
        + ("A PROPERTY FAILED" if failed else "no failure")
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
