"""Command line: ``python -m codegen [--check]`` and ``python -m codegen check-schemas FILE``."""

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m codegen", description=__doc__)
    parser.add_argument("--check", action="store_true", help="exit 1 if generated/ is stale; write nothing")
    sub = parser.add_subparsers(dest="command")
    check = sub.add_parser(
        "check-schemas", help="parse and round-trip every func: of a native_functions.yaml"
    )
    check.add_argument("file")
    args = parser.parse_args(argv)
    if args.command == "check-schemas":
        from codegen.check_schemas import check_schemas

        return check_schemas(args.file)
    from codegen.generate import generate

    return generate(check=args.check)


if __name__ == "__main__":
    sys.exit(main())
