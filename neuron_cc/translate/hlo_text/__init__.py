"""XLA HLO text import (lexer, parser, importer) and export."""
