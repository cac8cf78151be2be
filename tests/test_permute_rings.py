"""analysis.permute_rings: a permute's pairs are a ring shift by one exactly when it says so."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from neuron_cc.analysis.permute_rings import ring_groups


def _cycles(perm: list[int]) -> list[list[int]]:
    seen: set[int] = set()
    cycles: list[list[int]] = []
    for start in range(len(perm)):
        if start in seen:
            continue
        cycle, d = [], start
        while d not in seen:
            seen.add(d)
            cycle.append(d)
            d = perm[d]
        cycles.append(cycle)
    return cycles


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 12).flatmap(lambda n: st.permutations(list(range(n)))), st.randoms())
def test_ring_groups_agree_with_the_cycles(perm: list[int], rng: random.Random) -> None:
    pairs = [(s, perm[s]) for s in range(len(perm))]
    rng.shuffle(pairs)
    groups = ring_groups(pairs, len(perm))
    cycles = _cycles(perm)
    uniform = len({len(c) for c in cycles}) == 1 and len(cycles[0]) >= 2
    assert (groups is not None) == uniform
    if groups is None:
        return
    # ring order: each group starts at its smallest id and follows the sends; groups by first id
    assert all(g[0] == min(g) for g in groups)
    assert [g[0] for g in groups] == sorted(g[0] for g in groups)
    implied = {(g[k], g[(k + 1) % len(g)]) for g in groups for k in range(len(g))}
    assert implied == set(pairs)


@pytest.mark.parametrize(
    ("pairs", "devices", "expected"),
    [
        ([(0, 1), (1, 2), (2, 3), (3, 0)], 4, [[0, 1, 2, 3]]),
        ([(0, 3), (3, 2), (2, 1), (1, 0)], 4, [[0, 3, 2, 1]]),  # a shift by -1: reversed ring
        ([(0, 1), (1, 0), (2, 3), (3, 2)], 4, [[0, 1], [2, 3]]),
        ([(0, 1), (1, 2), (2, 0)], 4, None),  # device 3 is in no ring
        ([(0, 1), (1, 0), (2, 2), (3, 3)], 4, None),  # rings of two sizes
        ([(0, 0), (1, 1)], 2, None),  # sending to itself is no ring
        ([(0, 1), (0, 1)], 2, None),  # a repeated source
        ([(0, 1), (1, 5)], 2, None),  # a device outside the run
        ([], 1, None),
    ],
)
def test_ring_groups_cases(
    pairs: list[tuple[int, int]], devices: int, expected: list[list[int]] | None
) -> None:
    assert ring_groups(pairs, devices) == expected
