"""Known gaps of the HLO front end against XLA's own test modules (issue 17), read by
tests/test_xla_conformance.py: the test fails when a listed case starts to pass, so the lists
only shrink. Each reason is what the importer says today."""

GAPS: dict[str, str] = {
    "hlo_parser_test/BatchNormGrad": "batch-norm-grad '%batch-norm-grad': unsupported opcode 'batch-norm-grad'",
    "hlo_parser_test/BatchNormInference": "batch-norm-inference '%batch-norm-inference': unsupported opcode 'batch-norm-inference'",
    "hlo_parser_test/BatchNormTraining": "batch-norm-training '%batch-norm-training': unsupported opcode 'batch-norm-training'",
    "hlo_parser_test/BroadcastOfScalarDoesntNeedDimensionsAttr": "broadcast '%broadcast.inline1': broadcast needs attribute 'dimensions'",
    "hlo_parser_test/CanonicalOp": "expected 'HloModule' at the start of the module, found 'f32[2,4]{1,0'",
    "hlo_parser_test/CanonicalOpIndexedConditionalInlinedBranches": "expected 'HloModule' at the start of the module, found 'f32[5,10]{1,'",
    "hlo_parser_test/CanonicalOpWithNested": "expected 'HloModule' at the start of the module, found 'f32[5,20]{1,'",
    "hlo_parser_test/CollectivePermuteInPlaceUpdate": "round trip: the export imports to other IR",
    "hlo_parser_test/CollectivePermuteInPlaceUpdate3D": "round trip: the export imports to other IR",
    "hlo_parser_test/CollectivePermuteInPlaceUpdateMultipleReadWrite": "round trip: the export imports to other IR",
    "hlo_parser_test/CollectivePermuteInPlaceUpdateTupleMultipleReadWrite": "round trip: the export imports to other IR",
    "hlo_parser_test/CollectivePermuteStartAndDoneInplaceUpdate": "round trip: the export imports to other IR",
    "hlo_parser_test/CollectivePermuteTupleInPlaceUpdate": "round trip: the export imports to other IR",
    "hlo_parser_test/CombinedCollectivePermute": "round trip: the export imports to other IR",
    "hlo_parser_test/CombinedCollectivePermuteStartAndDone": "round trip: the export imports to other IR",
    "hlo_parser_test/Fft": "fft '%fft': unsupported opcode 'fft'",
    "hlo_parser_test/Ifft2d": "fft '%fft': unsupported opcode 'fft'",
    "hlo_parser_test/InferShapeMixedExplicitShape": "conditional '%conditional': the result shape of 'conditional' cannot be inferred: write it",
    "hlo_parser_test/Irfft3d": "fft '%fft': unsupported opcode 'fft'",
    "hlo_parser_test/MetadataWithCholesky": "cholesky '%out': unsupported opcode 'cholesky'",
    "hlo_parser_test/Rfft2d": "fft '%fft': unsupported opcode 'fft'",
    "hlo_parser_test/Scan": "scan '%scan': unsupported opcode 'scan'",
    "hlo_parser_test/SendRecvWoChannelID": "recv '%recv': recv needs attribute 'channel_id'",
    "hlo_parser_test/ShortConstant": "constant '%constant.1': constant value is elided ('{...}'); re-dump with print_large_constants=True or pass --allow-elid",
    "hlo_parser_test/SingleOpNoNames": "expected an operand, found ', f32[2,4]{1'",
    "hlo_parser_test/SingleOpWithNested": "fusion '%fusion': fusion calls exactly one computation, got ['param_0 = f32[3', '2', '1', '1]{3', '2', '1', '0} paramete",
    "hlo_parser_test/TriangularSolve": "triangular-solve '%triangular-solve.3': unsupported opcode 'triangular-solve'",
    "hlo_parser_test/TupleConstant": "constant '%constant': constants of type tuple<tensor<2x1xf32>, tensor<2xf32>> are not supported (only array literals)",
    "while_loop_all_reduce_code_motion_test/MixMovableAllReduceWithNotMovable": "constant '%accumulation_buffer.0': constant value is elided ('{...}'); re-dump with print_large_constants=True or pass -",
    "while_loop_all_reduce_code_motion_test/MultipleAllReduceAccumulate": "constant '%accumulation_buffer.0': constant value is elided ('{...}'); re-dump with print_large_constants=True or pass -",
    "while_loop_all_reduce_code_motion_test/MultipleReduceScatterAccumulate": "constant '%accumulation_buffer.0': constant value is elided ('{...}'); re-dump with print_large_constants=True or pass -",
    "while_loop_analysis_test/AvoidBruteForceForHugeParams": "broadcast '%param.0': broadcast needs attribute 'dimensions'",
    "while_loop_analysis_test/IndvarWithNonScalarShape": "broadcast '%broadcast': broadcast needs attribute 'dimensions'",
}
"""Modules XLA accepts that we refuse (or cannot export): case -> our reason."""

ACCEPTED_INVALID: dict[str, str] = {
    "hlo_parser_test/CheckPredicatedConditionalRequiresTrueAndFalseComputation": "imports: XLA's parser refuses it",
    "hlo_parser_test/CustomCallIncompatibleOperandConstraints": "imports: XLA's parser refuses it",
    "hlo_parser_test/CustomCallWrongNumberofOperandConstraints": "imports: XLA's parser refuses it",
    "hlo_parser_test/DeeplyNestedShapesExceedsRecursionLimit": "imports: XLA's parser refuses it",
    "hlo_parser_test/PredecessorUndefined": "imports: XLA's parser refuses it",
    "hlo_parser_test/UnexpectedAttribute": "imports: XLA's parser refuses it",
    "hlo_parser_test/WrongNumberOfParameterLeafBuffersInReplication": "imports: XLA's parser refuses it",
}
"""Modules XLA refuses that we import."""
