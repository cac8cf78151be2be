p='neuron_cc/translate/hlo_text/importer.py'
s=open(p).read()
s=s.replace('''        _check_operand_attrs(inst, operands)
        props_builder = OPCODE_PROPERTIES.get(inst.opcode)''','''        _check_operand_attrs(inst, operands)
        if inst.opcode in _INDEXED:
            operands = self.scalar_indices(inst, operands, ops)
        props_builder = OPCODE_PROPERTIES.get(inst.opcode)''')
s=s.replace('''    def regions(self, inst: Instruction, c: Consumer) -> list[Region]:''','''    def scalar_indices(
        self, inst: Instruction, operands: list[SSAValue], ops: list[Operation]
    ) -> list[SSAValue]:
        """The old form of dynamic-slice / dynamic-update-slice with one rank-1 index vector
        (XLA's parser still reads it): one scalar index per dimension, sliced out of the
        vector and reshaped, as XLA's parser rewrites it."""
        first = _INDEXED[inst.opcode]
        if len(operands) != first + 1:
            return operands
        vector = operands[first].type
        source = operands[0].type
        if not isinstance(vector, TensorType) or len(vector.get_shape()) != 1:
            return operands
        if not isinstance(source, TensorType):
            return operands
        rank = len(source.get_shape())
        if vector.get_shape()[0] != rank:
            raise AttrError(
                f"the index vector has {vector.get_shape()[0]} elements, the operand rank {rank}"
            )
        scalars: list[SSAValue] = []
        element = vector.element_type
        for i in range(rank):
            piece = SliceOp.create(
                operands=[operands[first]],
                result_types=[TensorType(element, [1])],
                properties={
                    "start_indices": DimensionsAttr((i,)),
                    "limit_indices": DimensionsAttr((i + 1,)),
                    "strides": DimensionsAttr((1,)),
                },
            )
            scalar = ReshapeOp.create(operands=[piece.results[0]], result_types=[TensorType(element, [])])
            for op in (piece, scalar):
                self.positions[op] = inst.pos
                ops.append(op)
            scalars.append(scalar.results[0])
        return [*operands[:first], *scalars]

    def regions(self, inst: Instruction, c: Consumer) -> list[Region]:''')
s=s.replace('''_FIXED_OPERANDS: dict[type[Operation], int | None] = {}''','''_INDEXED = {"dynamic-slice": 1, "dynamic-update-slice": 2}
"""Opcodes with start indices, and the operand position of the first index."""

_FIXED_OPERANDS: dict[type[Operation], int | None] = {}''')
s=s.replace('''from neuron_cc.dialects.hlo.elementwise_misc import ConstantOp''','''from neuron_cc.dialects.hlo.data_movement import ReshapeOp, SliceOp
from neuron_cc.dialects.hlo.elementwise_misc import ConstantOp''')
open(p,'w').write(s)

p='tests/test_hlo_syntax.py'
s=open(p).read()
s+='''

def test_index_vector_dynamic_slice_gets_scalar_indices() -> None:
    """XLA's old form: one rank-1 index vector; XLA's parser splits it into scalars, so do we."""
    text = (
        "HloModule m\\nENTRY e {\\n  p = f32[4,6] parameter(0)\\n  i = s32[2] parameter(1)\\n"
        "  u = f32[2,2] parameter(2)\\n"
        "  d = f32[2,3] dynamic-slice(p, i), dynamic_slice_sizes={2,3}\\n"
        "  x = f32[4,6] dynamic-update-slice(p, u, i)\\n"
        "  ROOT t = (f32[2,3], f32[4,6]) tuple(d, x)\\n}\\n"
    )
    module = import_hlo(text)
    module.verify()
    ir = str(module)
    assert ir.count("hlo.slice") == 4
    assert ir.count("hlo.reshape") == 4
    exported = export_hlo(module)
    assert "dynamic-slice(%p, " in exported
    assert export_hlo(import_hlo(exported)) == exported
    inputs = [
        np.arange(24, dtype=np.float32).reshape(4, 6),
        np.array([1, 2], np.int32),
        np.ones((2, 2), np.float32),
    ]
    outputs = run_module(module, inputs).outputs
    np.testing.assert_array_equal(np.asarray(outputs[0])[0], inputs[0][1:3, 2:5])
    expected = inputs[0].copy()
    expected[1:3, 2:4] = 1
    np.testing.assert_array_equal(np.asarray(outputs[1])[0], expected)
    with pytest.raises(HloImportError, match="the index vector has 3 elements, the operand rank 2"):
        import_hlo(text.replace("s32[2] parameter(1)", "s32[3] parameter(1)"))
'''
open(p,'w').write(s)
