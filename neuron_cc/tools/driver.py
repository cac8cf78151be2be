"""Shared plumbing of neuron-cc's command-line tools: user errors and locations.

A user error prints `error: <file>:<line>:<col>: <message>` (location when one exists) to stderr
and exits 1; no traceback ever reaches the user (docs/tools.md §8). Parsed operations remember their
source offset in a side table so verifier errors can point at the line of the failing op.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import tempfile
from collections.abc import Callable, Generator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import NoReturn

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation
from xdsl.parser import Parser
from xdsl.utils.exceptions import DiagnosticException, ParseError

from neuron_cc.tools.registry import available_dialects

RECURSION_LIMIT = 20_000
# The input file being processed (for errors that have no better location, e.g. nesting too
# deep for the Python stack while printing or running passes).
_current_input: list[str] = []


class UserError(Exception):
    """An error caused by the tool's input or arguments (reported without a traceback)."""


def add_device_count_options(cli: argparse.ArgumentParser) -> None:
    """`--num-replicas` / `--num-partitions`: XLA's module config for an HLO header that has
    no `replica_count` / `num_partitions` (as XLA's tests pass it beside the text)."""
    cli.add_argument(
        "--num-replicas", type=int, metavar="R", help="replica count of an HLO header without one"
    )
    cli.add_argument(
        "--num-partitions",
        type=int,
        metavar="P",
        help="partition count of an HLO header without one",
    )


class ToolArgumentParser(argparse.ArgumentParser):
    """argparse that reports bad arguments as a UserError (exit 1, no usage dump)."""

    def error(self, message: str) -> NoReturn:
        raise UserError(message)


def tool_context() -> Context:
    """A context with every dialect neuron-opt knows (xDSL basics + neuron-cc's)."""
    ctx = Context()
    for name, factory in available_dialects().items():
        ctx.register_dialect(name, factory)
    return ctx


@dataclass
class SourceMap:
    """Maps parsed operations to (file, line, column)."""

    name: str
    text: str
    line_offset: int = 0
    offsets: dict[Operation, int] | None = None

    def location(self, op: Operation) -> str | None:
        if self.offsets is None or op not in self.offsets:
            return None
        pos = self.offsets[op]
        line = self.text.count("\n", 0, pos) + 1 + self.line_offset
        col = pos - (self.text.rfind("\n", 0, pos) + 1) + 1
        return f"{self.name}:{line}:{col}"


class LocatingParser(Parser):
    """An xDSL parser that records the source offset of every operation it parses."""

    def __init__(self, ctx: Context, text: str, name: str) -> None:
        super().__init__(ctx, text, name)
        self.offsets: dict[Operation, int] = {}

    def parse_operation(self) -> Operation:
        start = self._current_token.span.start
        op = super().parse_operation()
        self.offsets[op] = start
        return op


def read_hlo(
    ctx: Context,
    text: str,
    name: str,
    allow_elided: bool = False,
    num_replicas: int | None = None,
    num_partitions: int | None = None,
    max_depth: int | None = None,
) -> tuple[ModuleOp, SourceMap]:
    """Import XLA HLO text (errors become located `UserError`s); see `ImportOptions`."""
    from neuron_cc.translate.hlo_text.importer import HloImportError, ImportOptions, import_hlo

    positions: dict[Operation, int] = {}
    try:
        options = ImportOptions(allow_elided, num_replicas, num_partitions, max_depth)
        module = import_hlo(text, name, options, positions)
    except HloImportError as e:
        raise UserError(str(e)) from None
    except RecursionError:
        raise UserError(f"{name}:1:1: input is nested too deeply to import") from None
    return module, SourceMap(name, text, 0, positions)


def parse_mlir(
    ctx: Context, text: str, name: str, line_offset: int = 0, locate_errors: bool = True
) -> tuple[ModuleOp, SourceMap]:
    """Parse `.mlir` text with the GC paused (xDSL IR is full of cycles). With `locate_errors`,
    an exception raised while building an op or attribute becomes a ParseError at the token
    the parser stopped on (else it propagates as is, for `--parsing-diagnostics`)."""
    parser = LocatingParser(ctx, text, name)
    with gc_paused():
        try:
            module = parser.parse_module()
        except RecursionError:
            raise ParseError(
                parser._current_token.span,
                "nested too deeply to parse",
            ) from None
        except (DiagnosticException, ValueError, OverflowError) as e:
            if not locate_errors:
                raise
            # Raised while building an attribute (e.g. an integer out of its type's range):
            # report it at the token the parser stopped on.
            raise ParseError(parser._current_token.span, _first_line(e)) from None
    return module, SourceMap(name, text, line_offset, parser.offsets)


@contextmanager
def gc_paused() -> Generator[None]:
    """Disable the cyclic GC during bulk IR work (15-20% of parse time, super-linear)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def parse_error_message(e: ParseError) -> str:
    loc = e.span.get_location()
    msg = " ".join(e.msg.split())
    if not msg or msg.startswith("in "):  # xDSL says just " in block definition" at EOF
        msg = f"unexpected {'end of input' if e.span.start >= len(e.span.input.content) else 'token'} {msg}".rstrip()
    return f"{loc.file}:{loc.line}:{loc.col}: {msg}"


def verify_error_message(
    module: ModuleOp, error: DiagnosticException, source: SourceMap | None
) -> str:
    """Find the first op that fails verification and report it with its location."""
    for op in module.walk():
        try:
            op.verify(verify_nested_ops=False)
        except DiagnosticException as inner:
            where = source.location(op) if source is not None else None
            message = _first_line(inner)
            prefix = f"{where}: " if where is not None else ""
            return f"{prefix}'{op.name}' op {message}"
    return _first_line(error)


def check_module(module: ModuleOp, source: SourceMap | None) -> None:
    """What xDSL's verifier does not check, as located UserErrors: every operand is defined
    before its use (no forward references or cycles in a computation: MLIR's dominance rule
    for single-block regions) and no computation calls itself, directly or not (HLO has no
    recursion). Linear in the module size."""

    def located(op: Operation, message: str) -> UserError:
        where = source.location(op) if source is not None else None
        return UserError(f"{where + ': ' if where else ''}'{op.name}' op {message}")

    from xdsl.dialects.func import FuncOp

    for op in module.ops:
        if isinstance(op, FuncOp) and op.is_declaration:
            raise located(op, f"@{op.sym_name.data} is a declaration: HLO computations need a body")
    if not _defined_in_scope_order(module):  # the exact diagnosis only when it may fail
        _check_defined_before_use(module, located)
    _check_no_recursion(module, located)


def _defined_in_scope_order(module: ModuleOp) -> bool:
    """True when every operand is an argument of an enclosing block or a result of an op
    placed before its user in an enclosing block (all regions single-block): then
    `_check_defined_before_use` finds nothing. False when it might (or a region has several
    blocks); it then decides. One walk with a set of the values in scope (by identity: every
    value is alive meanwhile), instead of climbing from each use to the defining block."""
    scope = _Scope()
    scope.enter(module.body.block, None)
    scoped = scope.ids.__contains__
    while scope.frames:
        cursor, added, _ = scope.frames[-1]
        op = cursor[0]
        while op is not None:
            for operand in op._operands:
                if not scoped(id(operand)):
                    return False
            if op.regions:
                break
            for result in op.results:
                key = id(result)
                scope.ids.add(key)
                added.append(key)
            op = op.next_op
        if op is None:
            scope.leave()
            continue
        cursor[0] = op.next_op
        if not scope.enter_regions(op):
            return False
    return True


class _Scope:
    """The values in scope during `_defined_in_scope_order`'s walk, by id, and its frames:
    (the block's next op, ids the block put in scope, the op whose results enter the
    enclosing scope when the frame ends)."""

    def __init__(self) -> None:
        self.ids: set[int] = set()
        self.frames: list[tuple[list[Operation | None], list[int], Operation | None]] = []

    def enter(self, block: Block, owner: Operation | None) -> None:
        added = [id(arg) for arg in block.args]
        self.ids.update(added)
        self.frames.append(([block.first_op], added, owner))

    def enter_regions(self, op: Operation) -> bool:
        """Enter `op`'s regions (False if one has several blocks); its results enter the
        scope after them (at once when every region is empty)."""
        blocks = [region.first_block for region in op.regions]
        if any(b is not None and b.next_block is not None for b in blocks):
            return False
        inner = [b for b in blocks if b is not None]
        if not inner:
            self.publish(op)
            return True
        self.enter(inner[0], op)  # ends last
        for block in reversed(inner[1:]):
            self.enter(block, None)
        return True

    def leave(self) -> None:
        _, added, owner = self.frames.pop()
        self.ids.difference_update(added)
        if owner is not None:
            self.publish(owner)

    def publish(self, op: Operation) -> None:
        ids = [id(r) for r in op.results]
        self.ids.update(ids)
        self.frames[-1][1].extend(ids)


def _check_defined_before_use(
    module: ModuleOp, located: Callable[[Operation, str], UserError]
) -> None:
    index: dict[Operation, int] = {}
    for op in module.walk():
        for operand in op.operands:
            owner = operand.owner
            home = owner if isinstance(owner, Block) else owner.parent_block()
            # The ancestor of `op` (itself included) in the block defining the operand.
            user: Operation | None = op
            while user is not None and user.parent_block() is not home:
                user = user.parent_op()
            name = f"%{operand.name_hint}" if operand.name_hint else "an operand"
            if home is None or (user is None and _multi_block(home)):
                continue  # a CFG region with several blocks: dominance needs more than this
            if user is None:
                raise located(op, f"uses {name} outside the region that defines it")
            if isinstance(owner, Block) or home.parent_op() is module:
                continue
            if owner not in index:
                index.update((sibling, i) for i, sibling in enumerate(home.ops))
            if index[owner] >= index[user]:
                raise located(
                    op, f"uses {name} before it is defined (a cycle or forward reference)"
                )


_CALL_KEYS = {"hlo.call": "callee", "hlo.async_start": "calls"}
"""Ops that call a function, and the property naming it."""


def _call_graph(module: ModuleOp) -> dict[str, list[tuple[Operation, str]]]:
    """Function name -> its hlo.call / hlo.async_start ops and their callees (in program
    order)."""
    from xdsl.dialects.builtin import SymbolRefAttr
    from xdsl.dialects.func import FuncOp

    calls: dict[str, list[tuple[Operation, str]]] = {}
    for func in module.ops:
        if isinstance(func, FuncOp):
            edges = calls.setdefault(func.sym_name.data, [])
            for op in func.walk():
                key = _CALL_KEYS.get(op.name)
                callee = op.properties.get(key) if key is not None else None
                if isinstance(callee, SymbolRefAttr):
                    edges.append((op, callee.root_reference.data))
    return calls


def _multi_block(block: Block) -> bool:
    region = block.parent
    return region is not None and len(region.blocks) > 1


def _check_no_recursion(module: ModuleOp, located: Callable[[Operation, str], UserError]) -> None:
    calls = _call_graph(module)
    # Iterative DFS over the call graph (1: on the stack, 2: done).
    colour: dict[str, int] = {}
    for root in calls:
        if root in colour:
            continue
        colour[root] = 1
        stack = [(root, iter(calls[root]))]
        while stack:
            name, edges = stack[-1]
            step = next(edges, None)
            if step is None:
                colour[name] = 2
                stack.pop()
                continue
            call, callee = step
            if colour.get(callee) == 1:
                chain = [n for n, _ in stack]
                cycle = " -> ".join(f"@{n}" for n in [*chain[chain.index(callee) :], callee])
                raise located(
                    call, f"recursive call of @{callee} ({cycle}): HLO computations cannot recurse"
                )
            if callee in calls and callee not in colour:
                colour[callee] = 1
                stack.append((callee, iter(calls[callee])))


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    text = text.removeprefix("Operation does not verify: ")
    return " ".join(line.strip() for line in text.splitlines()) if text else type(e).__name__


def write_output(path: str | None, text: str) -> None:
    """Write to stdout, or to `path` atomically (temp file + rename: never a partial file)."""
    if path is None:
        sys.stdout.write(text)
        return
    write_pieces(path, [text])


def write_pieces(path: str, pieces: list[str]) -> None:
    """Write text pieces to `path` atomically as UTF-8, without joining them first."""

    def write(fd: int) -> None:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.writelines(pieces)

    _write_atomically(path, write)


def write_bytes_atomically(path: str, data: bytes) -> None:
    """Write `data` to `path` atomically."""

    def write(fd: int) -> None:
        with os.fdopen(fd, "wb") as f:
            f.write(data)

    _write_atomically(path, write)


def _write_atomically(path: str, write: Callable[[int], None]) -> None:
    """Temp file in the target's directory, then rename: readers never see a partial file."""
    target = os.path.abspath(path)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(target), prefix=".neuron-cc-")
    try:
        write(fd)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp's 0600 -> what open() would have created
        os.replace(tmp, target)
    except BaseException:
        os.unlink(tmp)
        raise


def read_text(path: str) -> str:
    if not os.path.isfile(path):
        raise UserError(f"no such input file: {path}")
    with open(path, "rb") as f:
        return decode_text(f.read(), path)


def decode_text(data: bytes, name: str) -> str:
    """UTF-8 text of an input file; a located UserError at the first invalid byte."""
    _current_input[:] = [name]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise UserError(
            f"{name}:{line}:{col}: not a UTF-8 text file ({e.reason} at byte {e.start})"
        ) from None


def fail(message: str) -> NoReturn:
    print(f"error: {message}", file=sys.stderr)
    sys.exit(1)


def run_guarded(body: Callable[[], int]) -> int:
    """Run a tool body, turning every failure into `error: ...` and exit code 1."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), RECURSION_LIMIT))
    try:
        return body()
    except UserError as e:
        fail(str(e))
    except ParseError as e:
        fail(parse_error_message(e))
    except RecursionError:
        where = f"{_current_input[0]}:1:1: " if _current_input else ""
        fail(f"{where}input is nested too deeply to process")
    except (OSError, UnicodeDecodeError) as e:
        fail(str(e))
    except DiagnosticException as e:
        fail(_first_line(e))
    except KeyboardInterrupt:
        fail("interrupted")
    except Exception as e:
        fail(f"internal error: {type(e).__name__}: {e}")


def exit_now(code: int) -> NoReturn:
    """End a console-script process without tearing its IR down.

    Freeing a 100,000-op module object by object takes about a second and does nothing useful
    at exit (compilers' drivers skip it too): flush the standard streams, then leave with
    `os._exit`. Files are already closed (outputs are written atomically before this point)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)
