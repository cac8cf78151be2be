"""Recursive-descent parser of XLA HLO text into plain records (phase 1 of the import).

Accepts both XLA print styles: `%name (p: T) -> T {` headers with `%`-prefixed names and
metadata (dumps, `compile().as_text()`), and bare `name {` headers (`as_hlo_text()`).
Attribute values are kept as raw text; `attrs.py` interprets them per opcode in phase 2.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from xdsl.dialects.builtin import (
    NoneAttr,
    TensorType,
)
from xdsl.ir import Attribute

from neuron_cc.dialects.hlo.types import ELEMENT_TYPES, TokenType, tuple_type
from neuron_cc.translate.hlo_text.async_sugar import check_async_callers, desugar
from neuron_cc.translate.hlo_text.layouts import layout_problem, minor_to_major
from neuron_cc.translate.hlo_text.lexer import SIMPLE_VALUE, Cursor, clean_raw
from neuron_cc.translate.hlo_text.parser_records import Computation, HloModuleRecord, Instruction

# A `{` after the dims opens a layout only when an integer or `:` follows (XLA's look-ahead), so
# `-> f32[4] {` in a signature is not one. Unlike XLA, a `{}` right after the dims is read as an
# empty layout (valid for scalars only), as older dumps print `f32[]{}`.
_ARRAY_SHAPE_PATTERN = (
    r"([a-z][a-z0-9]*)\[([^\]]*)\](?:[ \t\n\r]*(\{(?=[ \t\n\r]*[-0-9:])[^{}]*\})|(\{\}))?"
)
_ARRAY_SHAPE = re.compile(_ARRAY_SHAPE_PATTERN)
# Fast paths for the common instruction layout (one regex match instead of a dozen cursor
# calls); anything else (comments, newlines, old-style typed or inline operands, errors) takes
# the general cursor path, which owns every error message.
_ID = r"[A-Za-z_][A-Za-z0-9_.\-]*"
_COMPUTATION_HEAD = re.compile(rf"(?:ENTRY[ \t]+)?%?{_ID}[ \t\n]*[{{(]")
"""The start of a computation (`name {`, `ENTRY %name (`) in a text without a header."""
_SHAPELESS = re.compile(r"[A-Za-z][\w-]*\(")
"""An opcode right after `name =`: the instruction has no result shape (XLA infers it)."""
_ANONYMOUS_HEAD = re.compile(r"(?:\(|[a-z][a-z0-9]*\[)")
"""A shape where a single instruction starts: the instruction has no name (canonical form)."""
_INSTRUCTION_START = rf"(?:ROOT[ \t]+)?%?{_ID}[ \t]*=[ \t]*(?:\(|[a-z][a-z0-9]*\[|[A-Za-z][\w-]*\()"
"""`name = f32[...`, `name = (`, `name = opcode(`: the start of an instruction."""
_INLINE_BODY = re.compile(rf"\{{[ \t\n\r]*{_INSTRUCTION_START}")
"""`{ name = ...`: an attribute value that is an inline computation."""
_INLINE_LIST = re.compile(rf"\{{[ \t\n\r]*\{{[ \t\n\r]*{_INSTRUCTION_START}")
"""`{ { name = ...`: a list of inline computations (`branch_computations`)."""
INFERRED = NoneAttr()
"""`Instruction.type` of an instruction written without a shape, until the importer infers it."""
_INST_HEAD = re.compile(rf"%?({_ID})[ \t]*=")
_WHOLE_ID = r"[A-Za-z_][A-Za-z0-9_.\-]*+"
"""`_ID`, possessive (no shorter prefix is tried)."""
_OPERAND = rf"[ \t]*+%{_WHOLE_ID}[ \t]*+"
_SIMPLE_OPERANDS_PATTERN = rf"[ \t]*\((?P<names>{_OPERAND}(?:,{_OPERAND})*+)?\)"
_SIMPLE_OPERANDS = re.compile(_SIMPLE_OPERANDS_PATTERN)
_ATTR_KEY = re.compile(rf"[ \t]*,[ \t]*({_ID})[ \t]*=")
_SPACE = r"[ \t\n\r\f\v]*+"
_FAST_INSTRUCTION = re.compile(
    rf"{_SPACE}(?:(?P<root>ROOT ){_SPACE})?+(?P<head>%?(?P<name>{_WHOLE_ID}))[ \t]*={_SPACE}"
    rf"(?P<shape>(?>{_ARRAY_SHAPE_PATTERN})){_SPACE}%?(?P<opcode>{_WHOLE_ID})"
    rf"(?P<operands>{_SIMPLE_OPERANDS_PATTERN})?"
)
"""The common instruction start in one match: `ROOT %name = f32[4]{0} opcode(%a, %b)` (array
shape, operands by name, whitespace without comments between the tokens); anything else takes
the general path. Every part matches what the general path's own match at that point would."""
_FAST_ATTR = re.compile(
    rf"[ \t]*+,[ \t]*+({_WHOLE_ID})[ \t]*+=[ \t]*+(?![\s/])"
    rf"(?!\{{[ \t\n\r]*(?:\{{[ \t\n\r]*)?{_INSTRUCTION_START})"
    rf"({SIMPLE_VALUE})(?=[,)}}\n]|\Z)",
    re.S,
)
"""`, key=value` where the value needs no comment skipping before it, is no inline computation
(`_INLINE_BODY`, `_INLINE_LIST`) and has no deeper nesting (what `Cursor.raw_value` reads in
one match)."""
_LINE_END = re.compile(r"\n[ \t\n\r\f\v]*+(?![,/\s])")
"""A line end after which no attribute follows (no comma, nor a comment that may hide one)."""
_XLA_WHITESPACE = " \t\n\r"
_SECTION_NAMES = ("FileNames", "FunctionNames", "FileLocations", "StackFrames")
_SECTION_LINE = re.compile(
    r"[ \t]*(?:FileNames|FunctionNames|FileLocations|StackFrames|[0-9]+ )[^\n]*\n?"
)


class _UniqueNames:
    """Names for computations the parser adds, apart from those of the text so far."""

    def __init__(self, taken: dict[str, Computation]) -> None:
        self.taken = taken
        self.added: set[str] = set()

    def __call__(self, base: str) -> str:
        name, k = base, 0
        while name in self.added or name in self.taken:
            k += 1
            name = f"{base}.{k}"
        self.added.add(name)
        return name


class Nesting:
    """The nesting depth of what is being parsed (tuple shapes and literals, inline operands,
    inline computations), refused beyond `limit` as XLA's `max_recursion_depth` does."""

    def __init__(self, cursor: Cursor, limit: int | None) -> None:
        self.cursor = cursor
        self.limit = limit
        self.depth = 0

    def enter(self, pos: int | None = None) -> None:
        self.depth += 1
        if self.limit is not None and self.depth > self.limit:
            self.cursor.error(f"maximum recursion depth exceeded ({self.limit})", pos)

    def leave(self) -> None:
        self.depth -= 1


class ShapeParser:
    """Parses shapes at the cursor, caching array types by their text."""

    def __init__(self, cursor: Cursor, nesting: Nesting | None = None) -> None:
        self.cursor = cursor
        self.cache: dict[str, tuple[Attribute, bool]] = {}
        self.nesting = nesting if nesting is not None else Nesting(cursor, None)

    def shape(self) -> tuple[Attribute, bool]:
        """(type, has a non-default layout)."""
        c = self.cursor
        c.skip()
        if c.startswith("("):
            self.nesting.enter()
            c.accept("(")
            elements: list[Attribute] = []
            custom = False
            if not c.accept(")"):
                while True:
                    t, nd = self.shape()
                    elements.append(t)
                    custom = custom or nd
                    if c.accept(")"):
                        break
                    c.expect(",", "in a tuple shape")
            self.nesting.leave()
            return tuple_type(elements), custom
        m = _ARRAY_SHAPE.match(c.text, c.pos)
        if m is None:
            c.error("expected a shape")
        c.pos = m.end()
        key = m.group(0)
        hit = self.cache.get(key)
        if hit is None:
            group = 3 if m.group(3) is not None else 4
            layout = m.group(group)
            hit = self._array(m.group(1), m.group(2), layout, m.start())
            t = hit[0]
            if layout is not None and isinstance(t, TensorType):
                self._check_layout(layout, len(t.get_shape()), m.start(group), m.start())
            self.cache[key] = hit
        return hit

    def _check_layout(self, layout: str, rank: int, pos: int, shape_pos: int) -> None:
        """XLA's layout syntax (errors at the offending token), and a minor-to-major permutation
        of the dimensions (at the shape; XLA's parser only counts the entries, its layout
        validation refuses the rest later)."""
        problem = layout_problem(layout)
        if problem is not None:
            self.cursor.error(f"malformed layout {layout}: {problem[0]}", pos + problem[1])
        if sorted(minor_to_major(layout)) != list(range(rank)):
            self.cursor.error(
                f"layout {layout} is not a permutation of the {rank} dimensions", shape_pos
            )

    def _array(
        self, elem: str, dims_text: str, layout: str | None, pos: int
    ) -> tuple[Attribute, bool]:
        if elem == "token":
            return TokenType(), False
        element = ELEMENT_TYPES.get(elem)
        if element is None:
            self.cursor.error(f"unsupported element type '{elem}'", pos)
        dims: list[int] = []
        for d in dims_text.split(","):
            d = d.strip()
            if not d:
                continue
            if not d.isdigit():
                self.cursor.error(f"unsupported dynamic dimension '{d}' in shape", pos)
            dims.append(int(d))
        default = "{" + ",".join(str(i) for i in range(len(dims) - 1, -1, -1)) + "}"
        custom = layout is not None and layout != default and not (layout == "{}" and not dims)
        return TensorType(element, dims), custom


class HloTextParser:
    """Phase 1: text -> `HloModuleRecord`."""

    def __init__(self, text: str, max_depth: int | None = None) -> None:
        self.c = Cursor(text)
        self.nesting = Nesting(self.c, max_depth)
        self.shapes = ShapeParser(self.c, self.nesting)
        self.counter = 0
        self.inline: list[Computation] = []
        """Computations written inline in an attribute (`calls={...}`), not yet placed."""
        self.inline_names: set[str] = set()

    def module(self) -> HloModuleRecord:
        c = self.c
        if not c.startswith("HloModule"):
            return self._headerless()
        c.expect("HloModule", "at the start of the module")
        name = c.name("a module name")
        c.accept(":")  # `HloModule name:`, as older XLA text and XLA's own tests write it
        header: list[tuple[str, str]] = []
        header_pos: list[int] = []
        while c.accept(","):
            key = c.name("a module attribute")
            c.expect("=")
            c.skip()
            header_pos.append(c.pos)
            header.append((key, c.raw_value()))
        sections = self._sections()
        computations, entry = self._computations()
        return HloModuleRecord(name, header, sections, computations, entry, header_pos)

    def _computations(self) -> tuple[dict[str, Computation], Computation]:
        """Every computation up to the end, and the entry (ENTRY, else the last one); the
        computations of async syntax sugar come right before their user."""
        c = self.c
        computations: dict[str, Computation] = {}
        entry: Computation | None = None
        last: Computation | None = None
        unique = _UniqueNames(computations)
        while not c.at_end():
            comp = self.computation()
            for inline in self._take_inline():
                if inline.name in computations:
                    c.error(f"computation '{inline.name}' is defined twice", inline.pos)
                computations[inline.name] = inline
            if comp.name in computations:
                what = (
                    "clashes with an async computation"
                    if comp.name in unique.added
                    else "is defined twice"
                )
                c.error(f"computation '{comp.name}' {what}", comp.pos)
            for wrapped in desugar(comp, unique, c.error):
                computations[wrapped.name] = wrapped
            computations[comp.name] = last = comp
            if comp.is_entry:
                if entry is not None:
                    c.error("more than one ENTRY computation", comp.pos)
                entry = comp
        if last is None:
            c.error("the module has no computations")
        if entry is None:
            entry = last
            entry.is_entry = True
        check_async_callers(computations, c.error)
        return computations, entry

    def _headerless(self) -> HloModuleRecord:
        """A text without the `HloModule` line, as XLA's parser also reads it: computations
        (named `module`), or one instruction, which becomes the ROOT of an ENTRY computation
        `entry` whose parameters are its operands (each written with its shape)."""
        c = self.c
        c.skip()
        start = c.pos
        body = start + 5 if c.text.startswith("ROOT ", start) else start
        head = _INST_HEAD.match(c.text, body)
        anonymous = head is None and _ANONYMOUS_HEAD.match(c.text, body) is not None
        if head is None and not anonymous:
            if _COMPUTATION_HEAD.match(c.text, start) is None:
                c.expect("HloModule", "at the start of the module")
            computations, entry = self._computations()
            return HloModuleRecord("module", [], None, computations, entry)
        c.accept("ROOT ")
        if anonymous:  # XLA's canonical form `f32[4] negate(f32[4])`: named by its opcode
            inst = self._instruction_body("", c.pos)
            inst.name = inst.opcode
        else:
            inst = self.instruction()
        if not c.at_end():
            c.error("expected the end of the text after a single instruction")
        params: list[Instruction] = []
        for k, operand in enumerate(inst.operands):
            if isinstance(operand, Instruction):
                continue
            declared = inst.operand_shapes.get(k)
            if declared is None:
                c.error(f"operand '%{operand}' of a single instruction needs its shape", inst.pos)
            if any(p.name == operand for p in params):
                continue
            params.append(
                Instruction(
                    operand, declared[0], "parameter", [], {}, declared[1], None, str(len(params))
                )
            )
        comp = Computation("entry", [*params, inst], inst, True, start)
        self._collect_parameters(comp)
        computations = {inline.name: inline for inline in self._take_inline()}
        if "entry" in computations:
            c.error("an inline computation is named 'entry'", start)
        computations["entry"] = comp
        return HloModuleRecord("module", [], None, computations, comp)

    def _sections(self) -> str | None:
        c = self.c
        c.skip()
        start = c.pos
        if not any(c.text.startswith(s, start) for s in _SECTION_NAMES):
            return None
        pos = start
        while True:
            m = _SECTION_LINE.match(c.text, pos)
            if m is None or m.end() == pos:
                break
            pos = m.end()
            while pos < len(c.text) and c.text[pos] == "\n":
                pos += 1
        c.pos = pos
        return c.text[start:pos].strip()

    def computation(self) -> Computation:
        c = self.c
        c.skip()
        pos = c.pos
        is_entry = c.accept("ENTRY ")
        name = c.name("a computation name")
        result = self._skip_signature() if c.startswith("(") else None
        c.expect("{", f"to open computation '{name}'")
        comp = self._body(name, pos, is_entry)
        if c.startswith(","):
            mark = c.pos
            c.accept(",")
            if c.accept("execution_thread"):
                c.expect("=", "after execution_thread")
                comp.execution_thread = c.string()
            else:
                c.pos = mark
        if result is not None and comp.root.type is not INFERRED and result != comp.root.type:
            c.error(
                f"ROOT '{comp.root.name}' of computation '{name}' does not have the result shape "
                "of the computation's signature",
                comp.root.pos,
            )
        return comp

    def _body(self, name: str, pos: int, is_entry: bool = False) -> Computation:
        """The instructions of a computation up to its closing `}` (the `{` is read)."""
        c = self.c
        counter = self.counter
        """Changes when an inline operand is read."""
        instructions: list[Instruction] = []
        root: Instruction | None = None
        while True:
            fast = _FAST_INSTRUCTION.match(c.text, c.pos)
            if fast is not None:
                is_root = fast.group("root") is not None
                inst = self._fast_instruction(fast)
            else:
                if c.accept("}"):
                    break
                if c.at_end():
                    c.error(f"computation '{name}' is not closed", pos)
                is_root = c.accept("ROOT ")
                inst = self.instruction()
            instructions.append(inst)
            if is_root:
                if root is not None:
                    c.error(f"computation '{name}' has two ROOT instructions", inst.pos)
                root = inst
        if not instructions:
            c.error(f"computation '{name}' is empty", pos)
        comp = Computation(name, instructions, root or instructions[-1], is_entry, pos)
        self._collect_parameters(comp, self.counter != counter)
        return comp

    def _inline_computations(self, inst: Instruction, key: str) -> str | None:
        """`key={ instructions }` (or `branch_computations={ {...}, {...} }`), as XLA's canonical
        form writes called computations: each becomes a computation named
        `<instruction>.<key>[.N]`; returns the attribute's text naming them (None when the value
        is not inline)."""
        c = self.c
        nested = _INLINE_LIST.match(c.text, c.pos)
        single = nested is None and _INLINE_BODY.match(c.text, c.pos)
        if nested is None and not single:
            return None
        names: list[str] = []
        c.expect("{")
        while True:
            if nested is not None:
                c.skip()
                c.expect("{", f"to open a computation of '{key}'")
            pos = c.pos
            name = self._inline_name(f"{inst.name}.{key}")
            self.nesting.enter(pos)
            self.inline.append(self._body(name, pos))
            self.nesting.leave()
            names.append(name)
            if nested is None or not c.accept(","):
                break
        if nested is not None:
            c.expect("}", f"to close '{key}'")
        return "{" + ", ".join(names) + "}"

    def _inline_name(self, base: str) -> str:
        name, k = base, 0
        while name in self.inline_names:
            k += 1
            name = f"{base}.{k}"
        self.inline_names.add(name)
        return name

    def _take_inline(self) -> list[Computation]:
        taken, self.inline = self.inline, []
        return taken

    def _collect_parameters(self, comp: Computation, inline: bool = True) -> None:
        """Number the computation's parameters, including inline ones (`add(f32[]
        parameter(0), ...)`, as XLA's tests write reducers): an inline parameter becomes a
        parameter of the computation and its user refers to it by name. Without `inline`, no
        instruction has inline operands (the parser made none while reading them)."""
        c = self.c

        def register(inst: Instruction) -> None:
            number = _parameter_number(c, inst)
            if number in comp.params:
                c.error(f"parameter {number} is defined twice in '{comp.name}'", inst.pos)
            comp.params[number] = inst

        for inst in comp.instructions:
            if inst.opcode == "parameter":
                register(inst)
            elif inline:
                _inline_parameters(inst, register)
        if sorted(comp.params) != list(range(len(comp.params))):
            c.error(
                f"parameters of '{comp.name}' are not numbered 0..{len(comp.params) - 1}", comp.pos
            )

    def _skip_signature(self) -> Attribute:
        """Skip the parameters of a computation signature; return its result type."""
        c = self.c
        c.expect("(")
        depth = 1
        while depth:
            if c.at_end():
                c.error("unterminated computation signature")
            ch = c.text[c.pos]
            depth += ch == "("
            depth -= ch == ")"
            c.pos += 1
        c.expect("->", "in a computation signature")
        return self.shapes.shape()[0]

    def instruction(self) -> Instruction:
        c = self.c
        c.skip()
        pos = c.pos
        head = _INST_HEAD.match(c.text, pos)
        if head is not None:
            name = head.group(1)
            c.pos = head.end()
        else:
            name = c.name("an instruction name")
            c.expect("=", f"after instruction name '{name}'")
        return self._instruction_body(name, pos)

    def _fast_instruction(self, m: re.Match[str]) -> Instruction:
        """The instruction whose start `_FAST_INSTRUCTION` matched (as `instruction` reads
        it)."""
        c = self.c
        shape_start, shape_end = m.span("shape")
        hit = self.shapes.cache.get(m.group("shape"))
        if hit is None:  # first use of the shape: parsed (and checked) as usual
            c.pos = shape_start
            hit = self.shapes.shape()
        t, custom = hit
        shape_text = c.text[shape_start:shape_end] if custom else None
        opcode = m.group("opcode")
        inst = Instruction(m.group("name"), t, opcode, [], {}, m.start("head"), shape_text)
        if m.start("operands") < 0 or opcode in ("constant", "parameter"):
            c.pos = m.end("opcode")
            self._arguments(inst)
        else:
            c.pos = m.end("operands")
            names = m.group("names")
            if names:
                inst.operands = [o.strip()[1:] for o in names.split(",")]
        self._attributes(inst)
        return inst

    def _instruction_body(self, name: str, pos: int, with_attrs: bool = True) -> Instruction:
        c = self.c
        c.skip()
        shape_start = c.pos
        if _SHAPELESS.match(c.text, c.pos):
            t, custom = INFERRED, False
        else:
            t, custom = self.shapes.shape()
        shape_text = c.text[shape_start : c.pos] if custom else None
        opcode = c.name("an opcode")
        inst = Instruction(name, t, opcode, [], {}, pos, shape_text)
        self._arguments(inst)
        if with_attrs:
            self._attributes(inst)
        return inst

    def _arguments(self, inst: Instruction) -> None:
        """The parenthesized part after the opcode: a payload or the operands."""
        c = self.c
        if inst.opcode in ("constant", "parameter"):
            inst.payload, inst.payload_pos = self._balanced_payload()
            return
        simple = _SIMPLE_OPERANDS.match(c.text, c.pos)
        if simple is None:
            self._operands(inst)
            return
        c.pos = simple.end()
        names = simple.group("names")
        if names:
            inst.operands = [o.strip()[1:] for o in names.split(",")]

    def _attributes(self, inst: Instruction) -> None:
        """The `, key=value` attributes after the operands (the whitespace after the last
        one may be left unread: every next read skips it)."""
        text = self.c.text
        while True:
            fast = _FAST_ATTR.match(text, self.c.pos)
            if fast is not None and self._plain_attribute(inst, fast):
                continue
            if _LINE_END.match(text, self.c.pos) is not None or not self._attribute(inst):
                return

    def _plain_attribute(self, inst: Instruction, m: re.Match[str]) -> bool:
        """Record the attribute `_FAST_ATTR` matched, unless it is given twice (the general
        path reports it)."""
        key = m.group(1)
        if key in inst.attrs:
            return False
        inst.attr_pos[key] = m.start(2)
        inst.attrs[key] = clean_raw(m.group(2))
        self.c.pos = m.end()
        return True

    def _attribute(self, inst: Instruction) -> bool:
        """One `, key=value` attribute (False: there is none)."""
        c = self.c
        attr = _ATTR_KEY.match(c.text, c.pos)
        if attr is not None:
            key = attr.group(1)
            c.pos = attr.end()
        elif c.accept(","):
            key = c.name("an attribute name")
            c.expect("=", f"after attribute '{key}'")
        else:
            return False
        if key in inst.attrs:
            c.error(f"attribute '{key}' is given twice")
        c.skip()
        inst.attr_pos[key] = c.pos
        inline = self._inline_computations(inst, key) if c.peek() == "{" else None
        inst.attrs[key] = inline if inline is not None else c.raw_value()
        return True

    def _balanced_payload(self) -> tuple[str, int]:
        """The text between `(` and its matching `)` without XLA's whitespace around it, and
        where it starts."""
        c = self.c
        c.expect("(")
        start = c.pos
        depth = 1
        text = c.text
        pos = start
        while depth:
            # Jump from paren to paren (a 50 MB constant payload has none inside).
            close = text.find(")", pos)
            if close < 0:
                c.error("unterminated '(' in instruction", start)
            opening = text.find("(", pos, close)
            if opening >= 0:
                depth += 1
                pos = opening + 1
            else:
                depth -= 1
                pos = close + 1
        c.pos = pos
        raw = text[start : pos - 1]
        body = raw.lstrip(_XLA_WHITESPACE)
        return body.rstrip(_XLA_WHITESPACE), start + len(raw) - len(body)

    def _operands(self, inst: Instruction) -> None:
        c = self.c
        c.expect("(", f"after opcode '{inst.opcode}'")
        if c.accept(")"):
            return
        while True:
            inst.operands.append(self._operand(inst))
            if c.accept(")"):
                return
            c.expect(",", "between operands")

    def _operand(self, user: Instruction) -> str | Instruction:
        """`%a`, `f32[4] %a` (the declared shape is kept in `user.operand_shapes`) or a nested
        instruction `f32[4] negate(%a)`."""
        c = self.c
        c.skip()
        pos = c.pos
        if c.text.startswith("%", pos):
            return c.name("an operand")
        declared: Attribute | None = None
        if c.peek() == "(" or _ARRAY_SHAPE.match(c.text, c.pos):
            declared = self.shapes.shape()[0]
        c.skip()
        op_pos = c.pos
        if declared is not None and c.peek() in (",", ")"):
            # An operand written by its shape only (XLA's canonical single instruction).
            self.counter += 1
            user.operand_shapes[len(user.operands)] = (declared, pos)
            return f"parameter.anonymous{self.counter}"
        word = c.name("an operand")
        if c.peek() == "(":
            # Nested inline instruction: `maximum(f32[] parameter(0), ...)`.
            c.pos = op_pos
            self.counter += 1
            return self._inline_instruction(f"{word}.inline{self.counter}", pos)
        if declared is not None:
            user.operand_shapes[len(user.operands)] = (declared, pos)
        return word

    def _inline_instruction(self, name: str, pos: int) -> Instruction:
        c = self.c
        c.pos = pos
        self.nesting.enter(pos)
        inst = self._instruction_body(name, pos, with_attrs=False)
        self.nesting.leave()
        return inst


def _inline_parameters(inst: Instruction, register: Callable[[Instruction], None]) -> None:
    """Register the inline parameters among the (nested) inline operands of `inst` and refer
    to each by name."""
    users = [inst]
    while users:  # inline operands nest arbitrarily deep: no recursion
        user = users.pop()
        for k, operand in enumerate(user.operands):
            if not isinstance(operand, Instruction):
                continue
            if operand.opcode == "parameter":
                register(operand)
                user.operands[k] = operand.name
            else:
                users.append(operand)


def parse_shapes(raw: str) -> list[Attribute]:
    """`{f32[4]{0}, (s32[], f32[2])}` -> the shapes (HloParseError, offset in `raw`)."""
    c = Cursor(raw)
    shapes = ShapeParser(c)
    c.expect("{")
    found: list[Attribute] = []
    if c.accept("}"):
        return found
    while True:
        found.append(shapes.shape()[0])
        if c.accept("}"):
            return found
        c.expect(",", "between shapes")


def _parameter_number(c: Cursor, inst: Instruction) -> int:
    payload = inst.payload or ""
    if not payload.isdigit():
        c.error(f"parameter number must be a non-negative integer, got '{payload}'", inst.pos)
    return int(payload)
