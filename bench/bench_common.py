"""What the bench/ scripts share: argument types (a bad value is an argparse
error, usage and one line, not a Python traceback) and a fuzz target's
libFuzzer flags from its .options file."""
import argparse
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def int_at_least(text, least):
    """`text` as an integer of at least `least`, or an argparse error that says why not."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"{value} is less than {least}")
    return value


def positive_int(text):
    """An integer of at least 1 (rounds, runs, repetitions, seconds)."""
    return int_at_least(text, 1)


def non_negative_int(text):
    """An integer of at least 0 (a warm-up that may be left out)."""
    return int_at_least(text, 0)


def seed_list(text):
    """A comma-separated list of libFuzzer seeds, each a positive integer: 1,2,3."""
    seeds = [s for s in text.split(",") if s]
    if not seeds:
        raise argparse.ArgumentTypeError("no seed given (example: 1,2,3)")
    return [positive_int(s) for s in seeds]


def libfuzzer_options(target):
    """fuzz/<target>.options as libFuzzer flags (-key=value), the dictionary's path made absolute."""
    flags = []
    path = os.path.join(ROOT, "fuzz", f"{target}.options")
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                if "=" in line and not line.lstrip().startswith("#"):
                    key, value = (part.strip() for part in line.split("=", 1))
                    if key == "dict":
                        value = os.path.join(ROOT, "fuzz", value)
                    flags.append(f"-{key}={value}")
    return flags
