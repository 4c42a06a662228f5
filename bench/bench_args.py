"""Argument types shared by the bench/ scripts, so that a bad value is an
argparse error (usage and one line) rather than a Python traceback."""
import argparse


def positive_int(text):
    """An integer of at least 1 (rounds, runs, repetitions, seconds)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is less than 1")
    return value


def seed_list(text):
    """A comma-separated list of libFuzzer seeds, each a positive integer: 1,2,3."""
    seeds = [s for s in text.split(",") if s]
    if not seeds:
        raise argparse.ArgumentTypeError("no seed given (example: 1,2,3)")
    return [positive_int(s) for s in seeds]
