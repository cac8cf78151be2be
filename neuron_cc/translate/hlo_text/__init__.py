"""Translation between XLA HLO text and the hlo dialect (see notes/HLO_MAPPING.md)."""
