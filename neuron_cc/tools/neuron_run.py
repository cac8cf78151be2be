"""neuron-run: not implemented yet (see the project's issues); exits with code 2."""

import sys


def main() -> int:
    print("neuron-run: not implemented yet", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())


def entry() -> None:
    """Console-script entry point."""
    sys.exit(main())
