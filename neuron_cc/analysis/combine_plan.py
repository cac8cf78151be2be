"""Which collectives of one block a combiner merges (XLA's `CombineInstructionsByKey`).

The combiners (all-reduce, all-gather, reduce-scatter) share this plan. Every op of the
block is a node of a dependence graph: an edge from the op defining a value to each op using
it (a use inside a nested region counts for the op holding the region), from each op named
in an `xla.control-predecessors` list to the op listing it, and from each op with side effects
(not removable, not a collective: send/recv, infeed/outfeed, side-effecting custom calls,
RNG, calls, loops and conditionals with such ops) to the next one, so no combination reorders
two of them or makes a collective depend on itself through one. Candidates are the ops with a
key (`key_of`); ops with control dependences are never candidates (XLA's rule).

Rounds, as XLA runs them: the first remaining candidate in the current order starts a group;
the remaining candidates of its key follow in order. One larger than `threshold_bytes` alone is
dropped; one that depends on a member of the group is skipped (it stays for a later round:
XLA's current rule, which combines independent stages, `IndependentBlocksWithDependentStages`);
the group stops at the first that would push it over `threshold_bytes` or `threshold_count`
buffers (operands: a variadic member counts each of its own, so a second run of a combiner
changes nothing; XLA counts members and never combines a variadic one), or when it holds
`threshold_count`. A group of two or more is then contracted into one node (its members are
independent, so the graph stays acyclic), and the next round starts again from the first
remaining candidate, on the contracted graph - a later group never depends on an earlier one
through a cycle.

Until the first contraction the graph is the block's own, and whether a candidate depends on a
member is read from reachability bitmasks computed once (`_Graph.reaching`: one forward pass,
the candidates reaching each node), with a bit for each candidate the first round can take
(`_Planner._first_round_bits`; the masks then cost nodes x min(candidates, threshold_count) / 64
words): the first round, over a chain of dependent collectives where it skips candidates, costs
no search at all. A "depends" answer stays true after contractions (they only add paths); a
"does not depend" answer after one is the round's search's.

The contracted node takes the position of its last member; the ops that depend on an earlier
member and stood before it move right after it, in their order (XLA's post order does the
same implicitly). Positions are tuples ordered lexicographically, so every edge goes from a
smaller to a larger position at all times; the search of a round only visits nodes before
the candidate it tests. A round costs the ops between its first member and where it stops
(plus a log factor), not the whole block.

Where we differ from XLA: candidates are taken in program order, XLA walks its post order
(a DFS from the root; the groups are the same unless two independent candidates are written
in another order than the root's operands visit them); side effects order the graph (XLA's
combiners see only data and control dependences); and a round stops after skipping
`MAX_SKIPPED` dependent candidates (XLA scans to the end of the computation, rebuilding its
reachability map every round: quadratic on a chain of dependent collectives; the cap keeps a
round's search to the ops before the next `MAX_SKIPPED` candidates of its key).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field

from xdsl.dialects.builtin import ArrayAttr, StringAttr
from xdsl.ir import Block, Operation
from xdsl.traits import NoMemoryEffect

from neuron_cc.analysis.effects import is_removable
from neuron_cc.dialects.hlo.collectives import CollectiveOp

CONTROL_PREDECESSORS = "xla.control-predecessors"

Position = tuple[int, ...]
MAX_SKIPPED = 8
"""Dependent candidates a round skips before it stops (see the module docstring)."""
MAX_MASKED = 4096
"""At most this many candidates get a bit in the reachability masks (`_first_round_bits`)."""


@dataclass(frozen=True)
class Limits:
    threshold_bytes: int
    threshold_count: int
    wait_bytes_per_launch: float | None = None
    """`threshold-bytes=auto`: a group of k members may hold at most (k - 1) times this many
    bytes (alpha * bandwidth; see `neuron_cc.transforms.combiner_rewrite.auto_limits`)."""

    def too_big(self, total: int, members: int) -> bool:
        """Whether a group of `members` collectives of `total` bytes is over the limits."""
        if total > self.threshold_bytes:
            return True
        budget = self.wait_bytes_per_launch
        return budget is not None and members >= 2 and total > (members - 1) * budget


@dataclass
class Plan:
    """The groups to combine (members in order) and, when ops must move, the new order of
    the block: each entry an op of the block or the index of a group (its combined op)."""

    groups: list[list[Operation]] = field(default_factory=list[list[Operation]])
    order: list[Operation | int] | None = None


def _control_names(op: Operation) -> list[str]:
    attr = op.attributes.get(CONTROL_PREDECESSORS)
    if isinstance(attr, ArrayAttr):
        return [a.data for a in attr.data if isinstance(a, StringAttr)]
    if isinstance(attr, StringAttr):
        return [n.strip().lstrip("%") for n in attr.data.strip("{}").split(",") if n.strip()]
    return []


_PURE: dict[type[Operation], bool] = {}
"""Per op class: whether its effect traits say it has none (then it is never sequenced)."""


def _maybe_sequenced(op: Operation) -> bool:
    """Whether `op` may have side effects that order it (`is_removable` decides): not pure by
    its class, not a collective, and with results (an op without any is never combined and
    never removable)."""
    kind = type(op)
    pure = _PURE.get(kind)
    if pure is None:
        pure = _PURE[kind] = op.has_trait(NoMemoryEffect)
    return not pure and bool(op.results) and not isinstance(op, CollectiveOp)


def _holder(user: Operation, index: dict[int, int]) -> int | None:
    """The index of `user`'s ancestor among the block's ops (`index`, by identity; None: a
    user in another block of the region, which orders nothing here). `index` remembers the
    answer for every op on the way up (-1 for none), so each nested op is climbed from once."""
    path: list[Operation] = []
    op: Operation | None = user
    found = -1
    while op is not None:
        known = index.get(id(op))
        if known is not None:
            found = known
            break
        path.append(op)
        op = op.parent_op()
    for p in path:
        index[id(p)] = found
    return None if found < 0 else found


class _Graph:
    """The block's dependence graph, contracted group by group."""

    def __init__(self, ops: list[Operation]) -> None:
        self.ops = ops
        self.succs: list[set[int]] = [set() for _ in ops]
        self.preds: list[set[int]] = [set() for _ in ops]
        self.pos: list[Position] = [(i,) for i in range(len(ops))]
        self.alive = [True] * len(ops)
        self.members: list[list[int]] = []
        self.controlled: set[int] = set()
        self._data_edges()
        self._side_effect_edges()
        self._control_edges()

    def _data_edges(self) -> None:
        """An edge from the op of the block defining a value to each op of it using the value,
        also from inside its regions: a use by a nested op counts for its ancestor in the block.
        Found from the uses of the block's results, not by walking the regions: a loop body
        that uses nothing of the block costs nothing here. Each nested user's ancestor is looked
        up once (`_holder`). Ops are indexed by identity (an op's own `__hash__` is a Python
        call); a block argument has no defining op and so no edge."""
        index = {id(op): i for i, op in enumerate(self.ops)}
        succs, preds = self.succs, self.preds
        for j, op in enumerate(self.ops):
            mine = succs[j]
            for result in op.results:
                use = result.first_use
                while use is not None:
                    user = use.operation
                    i = index.get(id(user))
                    if i is None:
                        i = _holder(user, index)
                    if i is not None and i >= 0 and i != j:
                        mine.add(i)
                        preds[i].add(j)
                    use = use._next_use

    def _side_effect_edges(self) -> None:
        """A chain through the ops with side effects, in order. Whether an op has any is
        decided (walking a loop's body) only when at least two ops might: one alone orders
        nothing."""
        maybe = [i for i, op in enumerate(self.ops) if _maybe_sequenced(op)]
        if len(maybe) < 2:
            return
        previous: int | None = None
        for i in maybe:
            if not is_removable(self.ops[i]):
                if previous is not None:
                    self._edge(previous, i)
                previous = i

    def _control_edges(self) -> None:
        key = CONTROL_PREDECESSORS
        listed = [(i, op) for i, op in enumerate(self.ops) if key in op.attributes]
        if not listed:
            return
        names = {r.name_hint: i for i, op in enumerate(self.ops) for r in op.results if r.name_hint}
        for i, op in listed:
            for name in _control_names(op):
                j = names.get(name)
                if j is not None and j != i:
                    self._edge(j, i)
                    self.controlled.update((i, j))

    def reaching(self, bits: dict[int, int]) -> list[int]:
        """Per original node, the bitmask of the candidates (`bits`: candidate -> its bit) with
        a path to it (a candidate's own bit included). Edges go from lower to higher index
        until a contraction, so one pass in index order sees every predecessor first."""
        masks = [0] * len(self.ops)
        for c, bit in bits.items():
            masks[c] = bit
        preds = self.preds
        for i in range(len(masks)):
            m = masks[i]
            for p in preds[i]:
                m |= masks[p]
            masks[i] = m
        return masks

    def _edge(self, a: int, b: int) -> None:
        self.succs[a].add(b)
        self.preds[b].add(a)

    def contract(self, group: list[int]) -> tuple[int, list[int]]:
        """Merge `group` into a new node; (its id, the nodes moved after it)."""
        node = len(self.pos)
        inside = set(group)
        preds = set().union(*(self.preds[m] for m in group)) - inside
        succs = set().union(*(self.succs[m] for m in group)) - inside
        for p in preds:
            self.succs[p] -= inside
            self.succs[p].add(node)
        for s in succs:
            self.preds[s] -= inside
            self.preds[s].add(node)
        for m in group:
            self.alive[m] = False
        self.succs.append(succs)
        self.preds.append(preds)
        self.pos.append(max(self.pos[m] for m in group))
        self.alive.append(True)
        self.members.append(group)
        return node, self._move_after(node)

    def _move_after(self, node: int) -> list[int]:
        """Give the nodes depending on `node` that stand before it positions right after it."""
        at = self.pos[node]
        moved: set[int] = set()
        stack = [s for s in self.succs[node] if self.pos[s] < at]
        while stack:
            v = stack.pop()
            if v in moved:
                continue
            moved.add(v)
            stack.extend(s for s in self.succs[v] if self.pos[s] < at and s not in moved)
        ordered = sorted(moved, key=lambda v: self.pos[v])
        stamp = -len(self.pos)  # below every stamp used before under this prefix
        for k, v in enumerate(ordered):
            self.pos[v] = (*at, stamp, k)
        return ordered


class _Round:
    """The forward search from the members of the group being built."""

    def __init__(self, graph: _Graph) -> None:
        self.graph = graph
        self.reached: set[int] = set()
        self.frontier: list[tuple[Position, int]] = []

    def add(self, member: int) -> None:
        self.reached.add(member)
        for s in self.graph.succs[member]:
            if s not in self.reached:
                self.reached.add(s)
                heapq.heappush(self.frontier, (self.graph.pos[s], s))

    def depends(self, node: int) -> bool:
        """Whether `node` depends on a member (only nodes before it can lead to it)."""
        at = self.graph.pos[node]
        pos = self.graph.pos
        while self.frontier and self.frontier[0][0] < at:
            _, v = heapq.heappop(self.frontier)
            for s in self.graph.succs[v]:
                if s not in self.reached:
                    self.reached.add(s)
                    heapq.heappush(self.frontier, (pos[s], s))
        return node in self.reached


Queue = list[tuple[Position, int]]


class _Planner:
    """The rounds over one block's candidates."""

    def __init__(self, graph: _Graph, keys: dict[int, Hashable], sizes: dict[int, int]) -> None:
        self.graph = graph
        self.keys = keys
        self.sizes = sizes
        self.remaining = set(keys)
        self.everything: Queue = [(graph.pos[i], i) for i in keys]
        heapq.heapify(self.everything)
        self.by_key: dict[Hashable, Queue] = {}
        for i, key in keys.items():
            self.by_key.setdefault(key, []).append((graph.pos[i], i))
        for queue in self.by_key.values():
            heapq.heapify(queue)
        self.groups: list[list[int]] = []
        self.moved_any = False
        self.bits: dict[int, int] = {}
        self.reaching: list[int] = []
        """Per node, the bits of the candidates with a path to it (`_first_round_bits`); a
        "no" is exact only before the first contraction, a "yes" stays true."""

    def _first_round_bits(self, limits: Limits) -> dict[int, int]:
        """A bit for each candidate the first round can take: the first `threshold_count` +
        `MAX_SKIPPED` (at most `MAX_MASKED`) of the first round's key, in order, leaving out
        the ones too big alone (dropped unseen). A round takes at most `threshold_count`
        members (each adds a buffer) and skips at most `MAX_SKIPPED`, so the masks cost nodes
        x min(that, candidates) / 64 words, not nodes x candidates: after the first contraction
        every "no" is searched for anyway. A member without a bit (an operand-less collective
        adds no buffer) makes the round search instead (`round`)."""
        wanted = min(limits.threshold_count + MAX_SKIPPED, MAX_MASKED)
        fits = [c for c in self.keys if self.sizes[c] <= limits.threshold_bytes]
        if not fits:
            return {}
        first_key = self.keys[fits[0]]
        chosen = [c for c in fits if self.keys[c] == first_key][:wanted]
        return {c: 1 << k for k, c in enumerate(chosen)}

    def depends(self, candidate: int, members: int, search: _Round, exact: bool) -> bool:
        """Whether `candidate` depends on a member of the group (`members`: their bits; `exact`:
        every member has one)."""
        if self.bits:
            if self.reaching[candidate] & members:
                return True
            if exact and not self.groups:
                return False
        return search.depends(candidate)

    def current(self, queue: Queue) -> int | None:
        """The first remaining candidate of `queue` at its current position."""
        pos = self.graph.pos
        while queue and (queue[0][1] not in self.remaining or pos[queue[0][1]] != queue[0][0]):
            heapq.heappop(queue)
        return queue[0][1] if queue else None

    def run(self, limits: Limits) -> None:
        self.bits = self._first_round_bits(limits)
        self.reaching = self.graph.reaching(self.bits) if self.bits else []
        while (first := self.current(self.everything)) is not None:
            if self.sizes[first] > limits.threshold_bytes:
                self.remaining.discard(first)
                continue
            group = self.round(self.by_key[self.keys[first]], limits)
            if not group:  # `first` alone is over a limit (more operands than the count)
                self.remaining.discard(first)
            elif len(group) >= 2:
                self.combine(group)

    def round(self, queue: Queue, limits: Limits) -> list[int]:
        """The group of one round, from the key's queue (skipped candidates go back)."""
        group: list[int] = []
        total = 0
        buffers = 0
        search = _Round(self.graph)
        bits = 0
        skipped: Queue = []
        exact = True
        while (c := self.current(queue)) is not None:
            size = self.sizes[c]
            if size > limits.threshold_bytes:
                self.remaining.discard(c)
                continue
            width = len(self.graph.ops[c].operands)
            over = limits.too_big(total + size, len(group) + 1)
            if over or buffers + width > limits.threshold_count:
                break
            if group and self.depends(c, bits, search, exact):
                skipped.append(heapq.heappop(queue))
                if len(skipped) >= MAX_SKIPPED:
                    break
                continue
            heapq.heappop(queue)
            self.remaining.discard(c)
            group.append(c)
            total += size
            buffers += width
            search.add(c)
            bit = self.bits.get(c)
            if bit is None:
                exact = False
            else:
                bits |= bit
            if buffers >= limits.threshold_count:
                break
        for entry in skipped:
            heapq.heappush(queue, entry)
        return group

    def combine(self, group: list[int]) -> None:
        _, moved = self.graph.contract(group)
        self.groups.append(group)
        self.moved_any = self.moved_any or bool(moved)
        for v in moved:
            if v in self.remaining:
                entry = (self.graph.pos[v], v)
                heapq.heappush(self.everything, entry)
                heapq.heappush(self.by_key[self.keys[v]], entry)


def plan_groups(
    block: Block,
    key_of: Callable[[Operation], Hashable | None],
    bytes_of: Callable[[Operation], int],
    limits: Limits,
) -> Plan:
    """The combinations of `block`'s candidates (see the module docstring)."""
    ops = list(block.ops)
    keys = {i: key for i, op in enumerate(ops) if (key := key_of(op)) is not None}
    if len(set(keys.values())) == len(keys):  # no two candidates share a key
        return Plan()
    graph = _Graph(ops)
    for i in graph.controlled:
        keys.pop(i, None)
    planner = _Planner(graph, keys, {i: bytes_of(ops[i]) for i in keys})
    planner.run(limits)
    plan = Plan([[ops[m] for m in group] for group in planner.groups])
    if planner.moved_any:
        plan.order = _final_order(graph)
    return plan


def _final_order(graph: _Graph) -> list[Operation | int]:
    alive: Iterable[int] = (i for i, a in enumerate(graph.alive) if a)
    order: list[Operation | int] = []
    base = len(graph.ops)
    for i in sorted(alive, key=lambda v: graph.pos[v]):
        order.append(graph.ops[i] if i < base else i - base)
    return order
