"""Known gaps of the HLO front end against XLA's own test modules (issue 17), read by
tests/test_xla_conformance.py: the test fails when a listed case starts to pass, so the lists
only shrink. Each reason is what the importer says today."""

GAPS: dict[str, str] = {
    "all_gather_combiner_test/CombineFromTwoDomainsWithSameMetadata": "domain '%domain0': unsupported opcode 'domain'",
    "all_gather_combiner_test/DomainPreventsCombining": "domain '%domain0': unsupported opcode 'domain'",
    "all_reduce_combiner_test/CombineFromTwoDomainsWithSameMetadata": "domain '%domain0': unsupported opcode 'domain'",
    "all_reduce_combiner_test/CrossCoreAllReduce": "domain '%domain0': unsupported opcode 'domain'",
    "all_reduce_combiner_test/DomainPreventsCombining": "domain '%domain0': unsupported opcode 'domain'",
    "hlo_parser_test/AddDependency": "add-dependency '%p_after_token': unsupported opcode 'add-dependency'",
    "hlo_parser_test/BatchNormGrad": "batch-norm-grad '%batch-norm-grad': unsupported opcode 'batch-norm-grad'",
    "hlo_parser_test/BatchNormInference": "batch-norm-inference '%batch-norm-inference': unsupported opcode 'batch-norm-inference'",
    "hlo_parser_test/BatchNormTraining": "batch-norm-training '%batch-norm-training': unsupported opcode 'batch-norm-training'",
    "hlo_parser_test/CollectivePermuteStartAndDoneInplaceUpdate": "collective-permute-start '%collective-permute-start.1': collective-permute-start takes 1 operands, got 4",
    "hlo_parser_test/CombinedCollectivePermuteStartAndDone": "collective-permute-start '%collective-permute-start.1': collective-permute-start takes 1 operands, got 2",
    "hlo_parser_test/CopyStartAndCopyDone": "copy-start '%copy-start.1': unsupported opcode 'copy-start'",
    "hlo_parser_test/DomainParsing": "domain '%dom': unsupported opcode 'domain'",
    "hlo_parser_test/Fft": "fft '%fft': unsupported opcode 'fft'",
    "hlo_parser_test/Ifft2d": "fft '%fft': unsupported opcode 'fft'",
    "hlo_parser_test/InfeedOutfeed": "infeed '%infeed': unsupported opcode 'infeed'",
    "hlo_parser_test/Irfft3d": "fft '%fft': unsupported opcode 'fft'",
    "hlo_parser_test/MetadataWithCholesky": "cholesky '%out': unsupported opcode 'cholesky'",
    "hlo_parser_test/RaggedAllToAll": "ragged-all-to-all '%ra2a': unsupported opcode 'ragged-all-to-all'",
    "hlo_parser_test/RaggedAllToAllWithCollectiveDeviceList": "ragged-all-to-all '%ra2a': unsupported opcode 'ragged-all-to-all'",
    "hlo_parser_test/RaggedAllToAllWithReplicaGroups": "ragged-all-to-all '%ra2a': unsupported opcode 'ragged-all-to-all'",
    "hlo_parser_test/Rfft2d": "fft '%fft': unsupported opcode 'fft'",
    "hlo_parser_test/Rng": "rng '%rng': unsupported opcode 'rng'",
    "hlo_parser_test/RngBitGenerator": "rng-bit-generator '%rand': unsupported opcode 'rng-bit-generator'",
    "hlo_parser_test/RngGetAndUpdateState": "rng-get-and-update-state '%rng-get-and-update-state': unsupported opcode 'rng-get-and-update-state'",
    "hlo_parser_test/Scan": "scan '%scan': unsupported opcode 'scan'",
    "hlo_parser_test/SendRecvWoChannelID": "recv '%recv': recv needs attribute 'channel_id'",
    "hlo_parser_test/ShortConstant": "constant '%constant.1': constant value is elided ('{...}'); re-dump with print_large_constants=True or pass --allow-elid",
    "hlo_parser_test/TriangularSolve": "triangular-solve '%triangular-solve.3': unsupported opcode 'triangular-solve'",
    "hlo_replication_analysis_test/NoControlFlow": "infeed '%infeed': unsupported opcode 'infeed'",
    "hlo_replication_analysis_test/NoControlFlowSPMD": "infeed '%infeed': unsupported opcode 'infeed'",
    "hlo_replication_analysis_test/WhileLoopParameterAliasingNonReplicatedOutput": "infeed '%infeed': unsupported opcode 'infeed'",
    "while_loop_all_reduce_code_motion_test/MixMovableAllReduceWithNotMovable": "constant '%accumulation_buffer.0': constant value is elided ('{...}'); re-dump with print_large_constants=True or pass -",
    "while_loop_all_reduce_code_motion_test/MultipleAllReduceAccumulate": "constant '%accumulation_buffer.0': constant value is elided ('{...}'); re-dump with print_large_constants=True or pass -",
    "while_loop_all_reduce_code_motion_test/MultipleReduceScatterAccumulate": "constant '%accumulation_buffer.0': constant value is elided ('{...}'); re-dump with print_large_constants=True or pass -",
}
"""Modules XLA accepts that we refuse (or cannot export): case -> our reason."""

ACCEPTED_INVALID: dict[str, str] = {}
"""Modules XLA refuses that we import."""
