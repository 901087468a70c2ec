"""A ``bench load`` variant for the test of the variants' hook: says what it was asked."""

from __future__ import annotations

import argparse


def main(args: argparse.Namespace) -> int:
    print(f"variant with {args.tables} tables")
    return 0
