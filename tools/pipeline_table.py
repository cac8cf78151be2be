"""Print the README's per-case table of the default loop pipeline on the corpus.

For every spmd.hlo: collectives inside loops before/after `-p neuron-default-pipeline`, the
collective launches per step (interpreter, 8 devices, the case's inputs) before -> after the
motion alone -> after the whole pipeline (with its combiners), and the alpha-beta estimate
(10 us per launch, 100 GB/s) of all collectives before -> after.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from neuron_cc.testing.corpus_pipeline import corpus_cases, pipeline_case  # noqa: E402

CORPUS = ROOT / "tests" / "corpus" / "jax"


def main() -> None:
    print(
        "| case | collectives in loops before | after "
        "| launches before -> motion -> combined | alpha-beta us before -> after |"
    )
    print("|---|---|---|---|---|")
    for case in corpus_cases(CORPUS):
        r = pipeline_case(CORPUS, case, motion_only=True)
        before = ", ".join(n[4:] for n in r["before_loops"]) or "-"
        after = ", ".join(n[4:] for n in r["after_loops"]) or "-"
        motion = r["motion_launches"]
        launches = (
            ", ".join(
                f"{k} {b} -> {motion[k]} -> {a}" for k, (b, a) in sorted(r["launches"].items())
            )
            or "-"
        )
        us_before, us_after = r["alpha_beta_us"]
        print(f"| {case} | {before} | {after} | {launches} | {us_before:.0f} -> {us_after:.0f} |")


if __name__ == "__main__":
    main()
