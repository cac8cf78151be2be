"""Shared plumbing of neuron-cc's command-line tools: user errors and locations.

A user error prints `error: <file>:<line>:<col>: <message>` (location when one exists) to stderr
and exits 1; no traceback ever reaches the user (DESIGN §8). Parsed operations remember their
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
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.utils.exceptions import DiagnosticException, ParseError

RECURSION_LIMIT = 20_000


class UserError(Exception):
    """An error caused by the tool's input or arguments (reported without a traceback)."""


class ToolArgumentParser(argparse.ArgumentParser):
    """argparse that reports bad arguments as a UserError (exit 1, no usage dump)."""

    def error(self, message: str) -> NoReturn:
        raise UserError(message)


def tool_context() -> Context:
    """A context with every dialect neuron-opt knows (xDSL basics + neuron-cc's)."""
    from neuron_cc.tools.neuron_opt import available_dialects

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
    ctx: Context, text: str, name: str, allow_elided: bool = False
) -> tuple[ModuleOp, SourceMap]:
    """Import XLA HLO text (errors become located `UserError`s)."""
    from neuron_cc.translate.hlo_text.importer import HloImportError, ImportOptions, import_hlo

    positions: dict[Operation, int] = {}
    try:
        module = import_hlo(text, name, ImportOptions(allow_elided), positions)
    except HloImportError as e:
        raise UserError(str(e)) from None
    return module, SourceMap(name, text, 0, positions)


def parse_mlir(
    ctx: Context, text: str, name: str, line_offset: int = 0
) -> tuple[ModuleOp, SourceMap]:
    """Parse `.mlir` text with the GC paused (xDSL IR is full of cycles)."""
    parser = LocatingParser(ctx, text, name)
    with gc_paused():
        module = parser.parse_module()
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
    return f"{loc.file}:{loc.line}:{loc.col}: {e.msg}"


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
    with open(path, encoding="utf-8") as f:
        try:
            return f.read()
        except UnicodeDecodeError as e:
            raise UserError(
                f"{path}: not a UTF-8 text file ({e.reason} at byte {e.start})"
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
        fail("input is nested too deeply to process")
    except (OSError, UnicodeDecodeError) as e:
        fail(str(e))
    except DiagnosticException as e:
        fail(_first_line(e))
    except KeyboardInterrupt:
        fail("interrupted")
    except Exception as e:  # noqa: BLE001 - the no-traceback rule: report, never crash
        fail(f"internal error: {type(e).__name__}: {e}")
