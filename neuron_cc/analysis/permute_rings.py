"""Ring shifts: when a permutation's pairs are exactly "each member sends to the next one".

`ring_groups(pairs, devices)` returns the groups of a permute whose (source, target) pairs
(flattened device ids) are exactly a ring shift by one along each group, or None:
- every device 0..D-1 is the source of exactly one pair and the target of exactly one pair
  (the pairs form a permutation of all D devices; a device left out is not a ring member);
- the permutation's cycles all have one length n >= 2 (bir groups have one size; a device
  sending to itself is no ring).

Each cycle is one group in RING ORDER: it starts at its smallest id and follows the sends, so
group g has the pairs (g[k], g[k+1 mod n]) - member k receives from member k-1 (the shift is
by +1 along the group; a shift "by -1" in device order is a +1 shift of the reversed ring). The
groups are listed by their smallest id. Linear in the number of pairs.
"""

from __future__ import annotations

from collections.abc import Sequence


def ring_groups(pairs: Sequence[tuple[int, int]], devices: int) -> list[list[int]] | None:
    """The rings (ring order) of `pairs` when they are a ring shift by one over every device."""
    if devices < 2 or len(pairs) != devices:
        return None
    nxt = [-1] * devices
    received = [False] * devices
    for s, t in pairs:
        if not (0 <= s < devices and 0 <= t < devices) or nxt[s] != -1 or received[t]:
            return None
        nxt[s] = t
        received[t] = True
    seen = [False] * devices
    groups: list[list[int]] = []
    for start in range(devices):
        if seen[start]:
            continue
        group = [start]
        seen[start] = True
        d = nxt[start]
        while d != start:
            group.append(d)
            seen[d] = True
            d = nxt[d]
        if len(group) < 2 or (groups and len(group) != len(groups[0])):
            return None
        groups.append(group)
    return groups
