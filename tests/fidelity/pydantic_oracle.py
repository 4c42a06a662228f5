#!/usr/bin/env python3
"""Differential test of poolcheck's typed request fields against pydantic 2.

Spec section 11 (reference-core.md): vLLM's request models are pydantic v2
models in lax mode, fed the `json.loads` result of the body. This script
declares models of that shape itself (not vLLM's code), generates values for
the int and bool fields, runs each one through `poolcheck preprocess --jsonl`
inside a minimal envelope and compares poolcheck's outcome with what pydantic
does with the same value, followed by the spec's post-validation checks. It
also checks which shape the score union picks and a few JSON-level cases.

Standard library and pydantic only. See tests/fidelity/README.md.

Usage: python3 tests/fidelity/pydantic_oracle.py --poolcheck build/gcc/cli/poolcheck
Exit: 0 no disagreement, 1 a disagreement (or pydantic 2 missing), 2 usage or
a poolcheck that cannot be run / prints what cannot be read.
"""
from __future__ import annotations

import argparse
import copy
import importlib.util
import itertools
import json
import os
import random
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from dataclasses import dataclass
from typing import Any, Callable, Optional

DEFAULT_SEED = 20260911
SUMMARY_PREFIX = "fidelity:"

INT_FIELDS = ["truncate_prompt_tokens", "priority", "max_tokens_per_query", "max_tokens_per_doc", "top_n"]
BOOL_FIELDS = ["use_activation"]
OTHER_GROUPS = ["score-union", "json"]
ALL_GROUPS = INT_FIELDS + BOOL_FIELDS + OTHER_GROUPS


# ---------------------------------------------------------------------------
# pydantic: present and version 2, or a clear failure (never a skip).
# ---------------------------------------------------------------------------

def _apt_candidate() -> str:
    if shutil.which("apt-cache") is None:
        return "unknown (no apt-cache here)"
    try:
        out = subprocess.run(["apt-cache", "policy", "python3-pydantic"], capture_output=True,
                             text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return "unknown (apt-cache policy failed)"
    for line in out.splitlines():
        if line.strip().startswith("Candidate:"):
            return line.split(":", 1)[1].strip()
    return "none"


def require_pydantic_2():
    found = None
    try:
        import pydantic  # noqa: F401
        found = f"pydantic {pydantic.VERSION} at {os.path.dirname(pydantic.__file__)}"
        if str(pydantic.VERSION).split(".")[0] == "2":
            return pydantic
    except ImportError as e:
        found = f"no pydantic ({e})"
    has_pip = importlib.util.find_spec("pip") is not None
    managed = os.path.exists(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED"))
    apt = _apt_candidate()
    py = sys.executable or "python3"
    print(f"{SUMMARY_PREFIX} FAILED: the fidelity test needs pydantic 2 for {py}; found {found}.",
          file=sys.stderr)
    print("Install it for that interpreter (or run the test with a python3 that has it), one of:",
          file=sys.stderr)
    if not has_pip:
        print("  (pip is not available for it: apt-get install python3-pip python3-venv first)", file=sys.stderr)
    if managed:
        print(f"  {py} -m venv /opt/pydantic2 && /opt/pydantic2/bin/pip install 'pydantic>=2,<3'\n"
              "    (needs apt-get install python3-venv), then put /opt/pydantic2/bin first in PATH;\n"
              "    this interpreter is Debian-managed (PEP 668), so plain pip refuses; or:\n"
              f"  {py} -m pip install --break-system-packages 'pydantic>=2,<3'", file=sys.stderr)
    else:
        print(f"  {py} -m pip install 'pydantic>=2,<3'", file=sys.stderr)
    print("  (the machine image ships pydantic 2.13 / pydantic-core 2.46, installed with pip for its\n"
          "   Python 3.11; `python3 -m pip show pydantic` says where)", file=sys.stderr)
    print(f"  apt-get install python3-pydantic is NOT enough on Debian 12: its candidate is {apt},\n"
          "   pydantic 1.x, and this test needs major version 2.", file=sys.stderr)
    sys.exit(1)


pydantic = require_pydantic_2()
from typing import Literal, Union  # noqa: E402

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError  # noqa: E402


# ---------------------------------------------------------------------------
# The declarations: our own, of the shape spec sections 6 and 11 give.
# ---------------------------------------------------------------------------

class CommonRequest(BaseModel):
    model_config = ConfigDict(extra="allow")

    model: Optional[str] = None
    user: Optional[str] = None
    request_id: str = "0"
    truncate_prompt_tokens: Optional[int] = Field(None, ge=-1)
    truncation_side: Optional[Literal["left", "right"]] = None
    padding: Optional[Literal["max_length", "do_not_pad"]] = None
    priority: int = 0
    mm_processor_kwargs: Optional[dict] = None
    cache_salt: Optional[str] = None
    use_activation: Optional[bool] = None
    max_tokens_per_query: int = 0
    max_tokens_per_doc: int = 0
    instruction: Optional[str] = None
    chat_template_kwargs: Optional[dict] = None


Side = Union[str, list[str]]


class RerankRequest(CommonRequest):
    query: str
    documents: Side
    top_n: int = Field(0, ge=0)


class ScoreQueriesDocuments(CommonRequest):
    queries: Side
    documents: Side


class ScoreQueriesItems(CommonRequest):
    queries: Side
    items: Side


class ScoreData(CommonRequest):
    data_1: Side
    data_2: Side


class ScoreText(CommonRequest):
    text_1: Side
    text_2: Side


SCORE_CLASSES = [ScoreQueriesDocuments, ScoreQueriesItems, ScoreData, ScoreText]
SCORE_SHAPES = {ScoreQueriesDocuments: ("queries", "documents"), ScoreQueriesItems: ("queries", "items"),
                ScoreData: ("data_1", "data_2"), ScoreText: ("text_1", "text_2")}
ScoreRequest = TypeAdapter(Union[ScoreQueriesDocuments, ScoreQueriesItems, ScoreData, ScoreText])


@dataclass
class Verdict:
    """What pydantic did with one request body."""
    ok: bool
    instance: Any = None
    field: Optional[str] = None   # top-level field of the first error
    msg: Optional[str] = None     # its msg
    loc: tuple = ()

    def describe(self, name: Optional[str] = None) -> str:
        if self.ok:
            if name is None:
                return f"accepted as {type(self.instance).__name__}"
            return f"accepted, {name} = {short(safe_repr(getattr(self.instance, name)))}"
        return f"rejected: {self.field}: {self.msg}  (loc {self.loc})"


def score_complete_shapes(body: dict) -> list:
    return [cls for cls in SCORE_CLASSES if all(k in body for k in SCORE_SHAPES[cls])]


def validate(endpoint: str, body: Any) -> Verdict:
    """pydantic's outcome on the json.loads'ed body (Python mode, lax)."""
    try:
        if endpoint == "rerank":
            return Verdict(True, RerankRequest.model_validate(body))
        return Verdict(True, ScoreRequest.validate_python(body))
    except ValidationError as e:
        errors = e.errors()
        first = errors[0]
        if endpoint == "score" and isinstance(body, dict):
            # A union error lists each member's errors; the one that counts is
            # the first complete shape's first error (spec 11.5).
            complete = score_complete_shapes(body)
            if complete:
                name = complete[0].__name__
                own = [err for err in errors if err["loc"] and err["loc"][0] == name]
                if own:
                    first = own[0]
            loc = tuple(first["loc"][1:]) if first["loc"] and first["loc"][0] in {
                c.__name__ for c in SCORE_CLASSES} else tuple(first["loc"])
        else:
            loc = tuple(first["loc"])
        return Verdict(False, None, str(loc[0]) if loc else None, first["msg"], loc)


# ---------------------------------------------------------------------------
# The toy tokenizer (spec section 5), for the plain words this script writes.
# ---------------------------------------------------------------------------

CLS, SEP = 101, 102
DEFAULT_VOCAB = 30522


def word_id(word: str, vocab: int = DEFAULT_VOCAB) -> int:
    h = 2166136261
    for byte in word.lower().encode():
        h = ((h ^ byte) * 16777619) & 0xFFFFFFFF
    return 1000 + h % (vocab - 1000)


def words(prefix: str, n: int) -> str:
    return " ".join(f"{prefix}{i}" for i in range(n))


# ---------------------------------------------------------------------------
# Values: JSON texts, generated deterministically from the seed.
# ---------------------------------------------------------------------------

WHITE_SPACE = [" ", "\t", "\n", "\r", "\x0b", "\x0c", "\u0085", "\u00a0", "\u1680", "\u2000", "\u2001",
               "\u2002", "\u2003", "\u2004", "\u2005", "\u2006", "\u2007", "\u2008", "\u2009", "\u200a",
               "\u2028", "\u2029", "\u202f", "\u205f", "\u3000"]
NOT_WHITE_SPACE = ["\u200b", "\u001f", "\u001c", "\u001d", "\u001e", "\u180e", "\ufeff", "\u00ad",
                   "\u2060", "\x00", "\x7f", "\u200c", "\u200d"]
UNICODE_DIGITS = {"3": ["\u0663", "\u0969", "\uff13", "\U0001d7d1", "\u00b3", "\u0033\u0301"],
                  "5": ["\u0665", "\u096b", "\uff15", "\U0001d7d3", "\u2464"],
                  "1": ["\u0661", "\uff11", "\u00b9", "\u2160"], "0": ["\u0660", "\uff10", "\u2070"]}
BOOL_WORDS = ["true", "yes", "on", "t", "y", "1", "false", "no", "off", "f", "n", "0"]
BOOL_NEAR_MISSES = ["tru", "truee", "ye", "yess", "o", "of", "offf", "nope", "none", "null", "nil",
                    "True.", "1.0", "0.0", "00", "01", "10", "2", "-1", "+1", "-0", "+0", "yes!",
                    "tr ue", "\u0442rue", "tru\u0435", "on\u200b", "t\u00a0", "", " ", "enable",
                    "disable", "ok", "si", "oui", "nan", "inf"]
BOUNDARY_INTS = [0, 1, -1, -2, 2, 3, 5, 27, 28, 29, 31, 32, 33, 64, 100, 1000, 2**31 - 1, 2**31,
                 -2**31, -2**31 - 1, 2**32, 2**53, 2**53 + 1, -2**53 - 1, 2**63 - 1, 2**63, 2**63 + 1,
                 -2**63, -2**63 - 1, 2**64 - 1, 2**64, 2**64 + 1, -2**64, 10**19, 10**20, 10**30,
                 -10**30, 10**100, -10**100, 10**4299, -10**4299, int("9" * 4300)]
RAW_NUMBERS = ["1e2", "1E2", "1e+2", "1E-0", "1.0", "-2.0", "-0", "-0.0", "0.0", "0e0", "1.5", "-1.5",
               "0.5", "1e-2", "5.00", "100e-2", "2.5e1", "1e308", "-1e308", "1.7976931348623157e308",
               "1e400", "-1e400", "NaN", "Infinity", "-Infinity", "4.9e-324", "1e19", "1e18",
               "9.2e18", "-9.2e18", "9.3e18", "9.223372036854775807e18", "1.8446744073709552e19",
               "3.0000000000000004", "32.0", "33.0", "31.999999999999996", "-1.0", "-1.0000000000000002",
               "28.0", "1e1", "3e1", "0.1e2", "123456789012345678901234567890.0", "1e30", "1e-400",
               "-1e-400", "5e-324", "2e0", "0.0e5", "-0e0", "1" + "0" * 400 + ".0"]


@dataclass
class Value:
    text: str          # the JSON text written into the envelope
    origin: str        # which generator made it


def dumps(obj, ensure_ascii=True) -> str:
    if isinstance(obj, int) and not isinstance(obj, bool):
        return int_str(obj)
    return json.dumps(obj, ensure_ascii=ensure_ascii)


def int_str(n: int) -> str:
    """str(n) for any n: Python refuses ints of more than 4300 digits by default,
    and json.loads keeps that limit (so it is only lifted here, for printing)."""
    try:
        return str(n)
    except ValueError:
        old = sys.get_int_max_str_digits()
        sys.set_int_max_str_digits(0)
        try:
            return str(n)
        finally:
            sys.set_int_max_str_digits(old)


def safe_repr(v) -> str:
    return int_str(v) if isinstance(v, int) and not isinstance(v, bool) else repr(v)


class ValueGenerator:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    # -- pieces ------------------------------------------------------------
    def magnitude(self) -> int:
        r = self.rng.random()
        if r < 0.45:
            return self.rng.randint(-3, 40)
        if r < 0.65:
            return self.rng.choice(BOUNDARY_INTS[:-3])
        if r < 0.80:
            return self.rng.randint(-2**64, 2**64)
        if r < 0.95:
            return self.rng.choice([-1, 1]) * 10 ** self.rng.randint(15, 60) + self.rng.randint(-5, 5)
        digits = self.rng.choice([100, 1000, 4299, 4300, 4300, 4301, 4302, 5000])
        return self.rng.choice([-1, 1, 1]) * self.rng.randint(10 ** (digits - 1), 10 ** digits - 1)

    def pad(self) -> str:
        r = self.rng.random()
        if r < 0.6:
            return "".join(self.rng.choice(WHITE_SPACE) for _ in range(self.rng.randint(1, 3)))
        if r < 0.85:
            return self.rng.choice(NOT_WHITE_SPACE)
        return self.rng.choice(WHITE_SPACE) + self.rng.choice(NOT_WHITE_SPACE)

    def with_underscores(self, digits: str) -> str:
        kind = self.rng.choice(["single", "single", "double", "leading", "trailing", "every"])
        if len(digits) < 2 and kind in ("single", "double", "every"):
            kind = "leading"
        if kind == "single":
            i = self.rng.randint(1, len(digits) - 1)
            return digits[:i] + "_" + digits[i:]
        if kind == "double":
            i = self.rng.randint(1, len(digits) - 1)
            return digits[:i] + "__" + digits[i:]
        if kind == "leading":
            return "_" + digits
        if kind == "trailing":
            return digits + "_"
        return "_".join(digits)

    def int_string(self) -> str:
        n = self.magnitude()
        digits = int_str(abs(n))
        sign = "-" if n < 0 else self.rng.choice(["", "", "", "+"])
        body = digits
        for _ in range(self.rng.choice([0, 1, 1, 1, 2, 2, 3])):
            m = self.rng.random()
            if m < 0.15:
                body = "0" * self.rng.randint(1, 3) + body
            elif m < 0.30:
                body = self.with_underscores(body)
            elif m < 0.45:
                body = body + self.rng.choice([".0", ".00", ".000", ".5", ".", ".01", ".10", ".0_0", "._0"])
            elif m < 0.52:
                body = self.rng.choice(["", "0"]) + "." + body if self.rng.random() < 0.5 else body + "e" + self.rng.choice(["0", "1", "2", "+1", "-1"])
            elif m < 0.60:
                prefix = self.rng.choice(["0x", "0X", "0o", "0b", "0d"])
                conv = {"0x": "x", "0X": "X", "0o": "o", "0b": "b", "0d": "d"}[prefix]
                body = prefix + (format(abs(n) % 10**30, conv) if conv in "xXob" else body)
            elif m < 0.70:
                d = [c for c in body if c in UNICODE_DIGITS]
                if d:
                    c = self.rng.choice(d)
                    body = body.replace(c, self.rng.choice(UNICODE_DIGITS[c]), 1)
                else:
                    body = self.rng.choice(UNICODE_DIGITS["5"]) + body
            elif m < 0.78:
                sign = self.rng.choice(["+-", "-+", "--", "++", "- ", "+ ", "\u2212", "-\u00a0"])
            else:
                pass
        text = sign + body
        r = self.rng.random()
        if r < 0.5:
            text = self.pad() + text if self.rng.random() < 0.5 else text + self.pad()
        elif r < 0.65:
            text = self.pad() + text + self.pad()
        return text

    def bool_word(self) -> str:
        if self.rng.random() < 0.7:
            word = self.rng.choice(BOOL_WORDS)
        else:
            word = self.rng.choice(BOOL_NEAR_MISSES)
        r = self.rng.random()
        if r < 0.4:
            word = "".join(c.upper() if self.rng.random() < 0.5 else c for c in word)
        elif r < 0.5:
            word = word.upper()
        elif r < 0.6:
            word = word.capitalize()
        r = self.rng.random()
        if r < 0.2:
            word = self.pad() + word if self.rng.random() < 0.5 else word + self.pad()
        return word

    def raw_number(self) -> str:
        r = self.rng.random()
        if r < 0.35:
            return self.rng.choice(RAW_NUMBERS)
        n = self.rng.randint(-40, 40) if self.rng.random() < 0.7 else self.magnitude() % 10**25
        if r < 0.55:
            return f"{n}.{'0' * self.rng.randint(1, 3)}"
        if r < 0.7:
            e = self.rng.randint(0, 3)
            return f"{n}e{self.rng.choice(['', '+'])}{e}" if n != 0 or self.rng.random() < 0.5 else "0e0"
        if r < 0.85:
            return repr(self.rng.uniform(-100, 100))
        return f"{n}{self.rng.choice(['.5', '.25', '.1', '.9999999999999999', '.0000000000000001'])}"

    def container(self) -> Any:
        return self.rng.choice([[], [1], ["1"], [True], [None], [[]], {}, {"a": 1}, {"value": 5},
                                [1, 2], {"": None}, [1.0], {"true": True}])

    # -- pools ---------------------------------------------------------------
    def _pool(self, count: int, fixed: list, draw: Callable[[], Value]) -> list:
        seen = set()
        pool = []
        for v in fixed:
            if v.text not in seen:
                seen.add(v.text)
                pool.append(v)
        attempts = 0
        while len(pool) < count and attempts < count * 50:
            attempts += 1
            v = draw()
            if v.text not in seen:
                seen.add(v.text)
                pool.append(v)
        return pool

    def as_value(self, obj, origin: str) -> Value:
        return Value(dumps(obj, ensure_ascii=self.rng.random() < 0.5), origin)

    def fixed_common(self) -> list:
        fixed = [Value(dumps(n), "int") for n in BOUNDARY_INTS]
        fixed += [Value(t, "raw-number") for t in RAW_NUMBERS]
        fixed += [Value(dumps(x), "float") for x in [0.5, -0.0, 1e16, float(2**63), 32.0, -1.0, 1e-300]]
        fixed += [Value(dumps(s, ensure_ascii=a), "string") for a in (True, False) for s in [
            "5", " 5 ", "+5", "-5", "1_000", "5.00", "05", "\u00a05", "5.5", "1e2", "0x10", "1__0", "",
            "_1", "1_", "+-1", "5.", ".5", "٣", "５", "\u20005", "\u30005", "\u00855", "\u16805",
            "\u205f5", "5\u3000", "\u200b5", "\u001f5", "5\u001f", "\x005", "1" * 4300, "1" * 4301,
            "9" * 5000, " " + "1" * 4300, "-" + "1" * 4300, "+" + "1" * 4300, "0" * 4301 + "5",
            "1_" * 2150 + "1", "32", "33", "-1", "-2", "0", "28", "29", "  -1  ", "1.0", "-1.0",
            "9223372036854775808", "18446744073709551616", "-9223372036854775809", "1" + "0" * 30,
            "0_1", "00_1", "1 000", "1,000", "five", "NaN", "nan", "inf", "Infinity", "-0", "+0",
            "0.0", "-0.0", "5.0000000000000000001", "\t5\n", "5\r\n"]]
        fixed += [Value(dumps(x), "container") for x in [[], {}, [1], {"a": 1}, [[]], ["5"]]]
        fixed += [Value("true", "bool"), Value("false", "bool"), Value("null", "null")]
        fixed += [Value(dumps(w), "bool-word") for w in BOOL_WORDS + [w.upper() for w in BOOL_WORDS]
                  + BOOL_NEAR_MISSES + [" true ", "TRUE", "Yes", "oN"]]
        return fixed

    def int_pool(self, count: int) -> list:
        def draw() -> Value:
            r = self.rng.random()
            if r < 0.25:
                return Value(dumps(self.magnitude()), "int")
            if r < 0.45:
                return Value(self.raw_number(), "raw-number")
            if r < 0.85:
                return self.as_value(self.int_string(), "int-string")
            if r < 0.92:
                return self.as_value(self.bool_word(), "bool-word")
            if r < 0.97:
                return Value(dumps(self.container()), "container")
            return Value(self.rng.choice(["true", "false", "null"]), "literal")
        return self._pool(count, self.fixed_common(), draw)

    def bool_pool(self, count: int) -> list:
        def draw() -> Value:
            r = self.rng.random()
            if r < 0.55:
                return self.as_value(self.bool_word(), "bool-word")
            if r < 0.65:
                return Value(dumps(self.rng.choice([0, 1, 2, -1, 10, 2**63, 10**30, -2**64])), "int")
            if r < 0.78:
                return Value(self.raw_number(), "raw-number")
            if r < 0.93:
                return self.as_value(self.int_string(), "int-string")
            if r < 0.97:
                return Value(dumps(self.container()), "container")
            return Value(self.rng.choice(["true", "false", "null"]), "literal")
        # Every upper/lower-case spelling of every bool word: the accepted set is small.
        variants = [Value(dumps("".join(chars)), "bool-word") for w in BOOL_WORDS
                    for chars in itertools.product(*[(c.lower(), c.upper()) if c.isalpha() else (c,) for c in w])]
        return self._pool(count, variants + self.fixed_common(), draw)


# ---------------------------------------------------------------------------
# Cases: one envelope line each, with the outcome it must have.
# ---------------------------------------------------------------------------

PLACEHOLDER = "@@POOLCHECK-FIDELITY-VALUE@@"


@dataclass
class Case:
    group: str             # field name, "score-union" or "json"
    value_text: str        # the JSON text varied (or the body, for the union)
    line: str              # the envelope, one line
    pydantic: str          # what pydantic said, for humans
    expect: str            # what poolcheck must do, for humans
    check: Callable[[int, Any], Optional[str]]  # (exit, output) -> None or a reason
    canonical: Optional[str] = None  # a canonical spelling's envelope: outputs must be identical
    origin: str = ""       # which generator made the value
    kind: str = ""         # the expected outcome in short, for grouping disagreements
    result: Any = None
    canonical_result: Any = None


def error_body(message: str, param: Optional[str]) -> dict:
    return {"error": {"message": message, "type": "BadRequestError", "param": param, "code": 400}}


def expect_error(message: str, param: Optional[str]):
    want = error_body(message, param)

    def check(code, output):
        if code != 1:
            return f"exit {code}, expected 1"
        if output != want:
            return "expected exactly " + json.dumps(want, ensure_ascii=False)
        return None
    return check


def prompt_lengths(output) -> Optional[list]:
    try:
        return [len(o["prompt"]["prompt_token_ids"]) for o in output["outputs"]]
    except (KeyError, TypeError):
        return None


def prompt_ids(output) -> Optional[list]:
    try:
        return [o["prompt"]["prompt_token_ids"] for o in output["outputs"]]
    except (KeyError, TypeError):
        return None


def envelope_line(endpoint: str, model: dict, request: dict, field: Optional[str], value_text: Optional[str]) -> str:
    body = dict(request)
    if field is not None:
        body[field] = PLACEHOLDER
    line = json.dumps({"endpoint": endpoint, "model": model, "request": body})
    if field is not None:
        line = line.replace(json.dumps(PLACEHOLDER), value_text, 1)
    return line


@dataclass
class FieldSetup:
    endpoint: str
    model: dict
    request: dict
    # (coerced value) -> (expectation text, check); the spec's post-validation rules
    after: Callable[[Any], tuple]


M = 32  # max_model_len of every field envelope


def long_request():
    return {"queries": words("qw", 20), "documents": words("dw", 20)}  # 3 + 20 + 20 = 43 > M


def setups(reference: dict) -> dict:
    """Per field: the envelope and the spec's rules after pydantic accepted value v."""
    plain_score = {"queries": "alpha beta", "documents": ["gamma delta", "epsilon"]}
    plain_rerank = {"query": "alpha beta", "documents": ["gamma delta", "epsilon"]}

    def unchanged(key):
        def after(v):
            want = reference[key]

            def check(code, output):
                if code != 0:
                    return f"exit {code}, expected 0"
                if output != want:
                    return "output differs from the same envelope without the field (it is validated, then unused)"
                return None
            return ("accepted, output identical to the envelope without the field", check)
        return after

    def use_activation_after(v):
        want = copy.deepcopy(reference["score-plain"])
        for o in want["outputs"]:
            o["pooling_params"]["use_activation"] = v

        def check(code, output):
            if code != 0:
                return f"exit {code}, expected 0"
            if output != want:
                got = [o.get("pooling_params", {}).get("use_activation", "<missing>")
                       for o in output.get("outputs", [])] if isinstance(output, dict) else output
                return f"pooling_params.use_activation is {got}, expected {json.dumps(v)} in every output"
            return None
        return (f"accepted, outputs[i].pooling_params.use_activation == {json.dumps(v)}", check)

    def truncate_after(v):
        full = 3 + 20 + 20
        if v is None:
            msg = (f"You passed {full} input tokens and requested 0 output tokens. However, the model's "
                   f"context length is only {M} tokens, resulting in a maximum input length of {M} tokens. "
                   f"Please reduce the length of the input prompt.")
            return ("rejected: context length (no truncation target)", expect_error(msg, None))
        if v > M:
            return ("rejected: greater than max_model_len", expect_error(
                "truncate_prompt_tokens value is greater than max_model_len. Please request a smaller "
                "truncation size.", "truncate_prompt_tokens"))
        target = M if v == -1 else v
        return (f"accepted, prompt of {target} tokens", expect_lengths([target]))

    def limit_after(name, q, d, side_len):
        def after(v):
            if v < 0:
                return ("rejected: negative", expect_error(f"{name} must be a non-negative integer", name))
            if v != 0 and v >= M:
                return ("rejected: not below max_model_len", expect_error(
                    f"{name} ({int_str(v)}) must be less than max_model_len ({M}).", name))
            kept = side_len if v == 0 else min(v, side_len)
            length = 3 + kept + (d if name == "max_tokens_per_query" else q)
            return (f"accepted, {kept} {'query' if name == 'max_tokens_per_query' else 'document'} "
                    f"word tokens, prompt of {length}", expect_lengths([length]))
        return after

    model = {"max_model_len": M}
    return {
        "truncate_prompt_tokens": FieldSetup("score", model, long_request(), truncate_after),
        "priority": FieldSetup("score", model, plain_score, unchanged("score-plain")),
        "max_tokens_per_query": FieldSetup("score", model, {"queries": words("qw", 28), "documents": "dw"},
                                           limit_after("max_tokens_per_query", 28, 1, 28)),
        "max_tokens_per_doc": FieldSetup("score", model, {"queries": "qw", "documents": words("dw", 28)},
                                         limit_after("max_tokens_per_doc", 1, 28, 28)),
        "top_n": FieldSetup("rerank", model, plain_rerank, unchanged("rerank-plain")),
        "use_activation": FieldSetup("score", model, plain_score, use_activation_after),
    }


def expect_lengths(lengths: list):
    def check(code, output):
        if code != 0:
            return f"exit {code}, expected 0"
        got = prompt_lengths(output)
        if got != lengths:
            return f"prompt lengths {got}, expected {lengths}"
        return None
    return check


def canonical_text(v) -> str:
    return "null" if v is None else dumps(v)


def field_cases(field: str, setup: FieldSetup, pool: list) -> list:
    cases = []
    for value in pool:
        line = envelope_line(setup.endpoint, setup.model, setup.request, field, value.text)
        try:
            parsed = json.loads(line)
        except ValueError as e:  # e.g. an integer literal of more than 4300 digits
            cases.append(Case(field, value.text, line, f"json.loads fails: {e}", f"rejected: Invalid JSON: {e}",
                              expect_error(f"Invalid JSON: {e}", None), origin=value.origin, kind="json.loads fails"))
            continue
        verdict = validate(setup.endpoint, parsed["request"])
        if not verdict.ok:
            msg = f"{verdict.field}: {verdict.msg}"
            cases.append(Case(field, value.text, line, verdict.describe(),
                              f"rejected: {msg}", expect_error(msg, verdict.field), origin=value.origin,
                              kind=f"pydantic rejects: {verdict.msg}"))
            continue
        v = getattr(verdict.instance, field)
        expect, check = setup.after(v)
        canonical = None
        if value.text != canonical_text(v):
            canonical = envelope_line(setup.endpoint, setup.model, setup.request, field, canonical_text(v))
        cases.append(Case(field, value.text, line, verdict.describe(field), expect, check, canonical,
                          origin=value.origin, kind="pydantic accepts, then " + normalise(expect)))
    return cases


# -- the score union ----------------------------------------------------------

SIDE_KEYS = ["queries", "documents", "items", "data_1", "data_2", "text_1", "text_2"]
SIDE_PREFIX = {"queries": "qry", "documents": "doc", "items": "itm", "data_1": "daa", "data_2": "dab",
               "text_1": "txa", "text_2": "txb"}
BAD_SIDES = [5, 0, -1, 1.5, True, False, [5], ["ok", 7], [None], [["nested"]], [True], 1e400]


def side_value(rng: random.Random, key: str) -> Any:
    r = rng.random()
    prefix = SIDE_PREFIX[key]
    if r < 0.30:
        return f"{prefix}0"
    if r < 0.55:
        return [f"{prefix}{i}" for i in range(rng.randint(1, 3))]
    if r < 0.62:
        return []
    return rng.choice(BAD_SIDES)


def union_expectation(body: dict, verdict: Verdict, no_shape_error: dict) -> tuple:
    if verdict.ok:
        first, second = SCORE_SHAPES[type(verdict.instance)]
        a, b = body[first], body[second]
        qs = a if isinstance(a, list) else [a]
        ds = b if isinstance(b, list) else [b]
        where = f"paired as {first}/{second}"
        if len(qs) > 1 and len(qs) != len(ds):
            return (where + ", then the pairing error 1:1/1:N/N:N",
                    expect_error("Input lengths must be either 1:1, 1:N or N:N", None))
        if not qs:
            return (where + ", then: at least one text element", expect_error("At least one text element must be given", None))
        if not ds:
            return (where + ", then: at least one text_pair element",
                    expect_error("At least one text_pair element must be given", None))
        pairs = [(qs[0], d) for d in ds] if len(qs) == 1 else list(zip(qs, ds))
        want = [[CLS, word_id(q), SEP, word_id(d), SEP] for q, d in pairs]

        def check(code, output):
            if code != 0:
                return f"exit {code}, expected 0"
            got = prompt_ids(output)
            if got != want:
                return f"prompt_token_ids {got}, expected {want} ({first}/{second})"
            return None
        return (where + f": {len(pairs)} pair(s) of " + ", ".join(f"({q},{d})" for q, d in pairs), check)
    complete = score_complete_shapes(body)
    if not complete:
        def check_none(code, output):
            if code != 1:
                return f"exit {code}, expected 1"
            if output != no_shape_error:
                return "not the error a body with no complete shape gets (section 10.5)"
            return None
        return ("rejected: no complete shape, the section 10.5 error", check_none)
    name = complete[0].__name__
    field = verdict.field

    def check_field(code, output):
        if code != 1:
            return f"exit {code}, expected 1"
        err = output.get("error") if isinstance(output, dict) else None
        if not isinstance(err, dict) or err.get("code") != 400 or err.get("type") != "BadRequestError":
            return "expected a 400 BadRequestError body"
        param = err.get("param")
        if not isinstance(param, str) or not (param == field or param.startswith(field + "[") or param.startswith(field + ".")):
            return f"param {param!r}, expected {field!r} (or a path inside it)"
        if not str(err.get("message", "")).startswith(param + ": "):
            return f"message does not start with {param + ': '!r}"
        return None
    return (f"rejected: the first complete shape ({name}) fails on {field}", check_field)


def union_cases(count: int, seed: int, no_shape_error: dict) -> list:
    rng = random.Random(seed ^ 0x5C0E)
    cases = []
    seen = set()
    fixed = [
        {"queries": "qry0", "documents": "doc0", "text_1": "txa0", "text_2": "txb0"},
        {"queries": "qry0", "documents": 5, "text_1": "txa0", "text_2": "txb0"},
        {"queries": "qry0", "items": "itm0", "documents": "doc0"},
        {"queries": "qry0", "items": "itm0", "documents": 5},
        {"data_1": "daa0", "data_2": ["dab0", "dab1"], "text_1": 1.5, "text_2": "txb0"},
        {"queries": [], "documents": "doc0", "text_1": "txa0", "text_2": "txb0"},
        {"queries": 5, "documents": 5},
        {"queries": "qry0", "documents": 5, "items": True},
        {"queries": "qry0"},
        {"documents": "doc0", "items": "itm0", "data_1": "daa0", "text_2": "txb0"},
        {"text_2": "txb0", "text_1": "txa0", "documents": "doc0", "queries": "qry0"},
    ]
    lines = []
    for body in fixed:
        line = envelope_line("score", {}, body, None, None)
        if line not in seen:
            seen.add(line)
            lines.append(line)
    attempts = 0
    while len(lines) < count and attempts < count * 50:
        attempts += 1
        body = {}
        shapes = rng.sample(list(SCORE_SHAPES.values()), rng.randint(1, 4))
        for shape in shapes:
            for key in shape:
                if key not in body:
                    body[key] = side_value(rng, key)
        for key in SIDE_KEYS:  # sometimes a lone side of another shape
            if key not in body and rng.random() < 0.1:
                body[key] = side_value(rng, key)
        if rng.random() < 0.3:
            keys = list(body)
            rng.shuffle(keys)
            body = {k: body[k] for k in keys}
        line = envelope_line("score", {}, body, None, None)
        if line not in seen:
            seen.add(line)
            lines.append(line)
    for line in lines[:max(count, len(fixed))]:
        parsed = json.loads(line)["request"]
        verdict = validate("score", parsed)
        expect, check = union_expectation(parsed, verdict, no_shape_error)
        if verdict.ok:
            kind = "pydantic picks a shape" + (", then a pairing error" if "then" in expect else "")
        elif score_complete_shapes(parsed):
            kind = "pydantic rejects: the first complete shape fails"
        else:
            kind = "pydantic rejects: no complete shape"
        cases.append(Case("score-union", json.dumps(parsed), line, verdict.describe(), expect, check,
                          origin="union", kind=kind))
    return cases


# -- JSON level (spec 11.3) -----------------------------------------------------

def json_cases(reference: dict) -> list:
    base = {"queries": "alpha beta", "documents": ["gamma delta", "epsilon"]}
    model = {"max_model_len": M}
    cases = []
    want = reference["score-plain"]

    def same_as_plain(code, output):
        if code != 0:
            return f"exit {code}, expected 0"
        if output != want:
            return "output differs from the envelope without the unknown key"
        return None

    for text in ["NaN", "Infinity", "-Infinity", "1e400", "-1e400", "[NaN, {\"y\": Infinity}]",
                 "{\"nested\": [-Infinity, 1e999, NaN]}", "123456789012345678901234567890"]:
        line = envelope_line("score", model, base, "x_unknown", text)
        verdict = validate("score", json.loads(line)["request"])
        assert verdict.ok, verdict
        cases.append(Case("json", text, line, "accepted (unknown key, extra='allow')",
                          "accepted, output identical to the envelope without the key", same_as_plain,
                          kind="accepted: non-finite or big number in an unknown key"))
    # Free-form objects keep what json.loads read: exact big integers, NaN and infinities.
    for text in ["{\"big\": 1180591620717411303424, \"neg\": -98765432109876543210987654321}",
                 "{\"a\": NaN, \"b\": Infinity, \"c\": -Infinity}", "{\"f\": 1e400}"]:
        line = envelope_line("score", model, base, "mm_processor_kwargs", text)
        parsed = json.loads(line)
        verdict = validate("score", parsed["request"])
        assert verdict.ok, verdict
        value = parsed["request"]["mm_processor_kwargs"]

        def check(code, output, value=value):
            if code != 0:
                return f"exit {code}, expected 0"
            try:
                got = [o["prompt"].get("mm_processor_kwargs", "<missing>") for o in output["outputs"]]
            except (KeyError, TypeError, AttributeError):
                return "no outputs[i].prompt"
            if any(json.dumps(g) != json.dumps(value) for g in got):
                return f"prompt.mm_processor_kwargs {json.dumps(got)}, expected {json.dumps(value)} in each"
            return None
        cases.append(Case("json", text, line, "accepted, mm_processor_kwargs = " + json.dumps(value),
                          "accepted, each prompt's mm_processor_kwargs as json.loads read it", check,
                          kind="accepted: free-form object keeps what json.loads read"))
    # Bodies json.loads itself refuses: the message is `Invalid JSON: ` and
    # json.loads' own text, position included (CPython's C scanner; the lone
    # surrogate escapes the core refuses on purpose are not among them). Each
    # text is the value of an unknown key, so the error is the value's.
    texts = ["1" + "0" * 4300, "\"\\q\"", "\"\\\x7f\"", "\"\\u12\"", "\"\\u12x4\"", "\"a\x01b\"", "tru",
             "nul", "01", "1.", "-", "1e", "1e+", "[1 2]", "{\"a\" 1}", "{\"a\":}", "{,}", "[1,]", "{\"a\":1,}",
             "NaN1", "-Infinit", "[", "\"\\ud83d\\ude00\" x"]
    lines = [(text, envelope_line("score", model, base, "x_unknown", text)) for text in texts]
    # A body cut inside a string, just after a backslash, and after its opening quote.
    whole = envelope_line("score", model, base, "x_unknown", "\"ab\\\"c\"")
    lines += [(whole[:whole.index("ab") + 3] + " (cut)", whole[:whole.index("ab") + 3]),
              (whole[:whole.index("ab")] + " (cut)", whole[:whole.index("ab")])]
    # A body holding each kind of token (a number with sign, fraction and
    # exponent, literals, escapes, a \u escape, non-ASCII text, nesting),
    # cut after each of its characters: json.loads refuses every cut, each with
    # its own message and position. (No surrogate pair: a high surrogate that
    # a cut leaves unpaired is the lone surrogate the core refuses on purpose.)
    rich = envelope_line("score", model, base, "x_unknown",
                         '{"n": [-1.5e+3, 0, 10E2, true, false, null, NaN, -Infinity], '
                         '"s": "\\u00e9\\n\\"\\\\ \u00e9", "o": {"a": []}}')
    lines += [(f"{rich[:cut]} (cut at {cut})", rich[:cut]) for cut in range(1, len(rich))]
    for text, line in lines:
        try:
            json.loads(line)
            raise AssertionError(f"json.loads accepted {line!r}")
        except ValueError as e:
            cases.append(Case("json", text, line, f"json.loads fails: {e}", f"rejected: Invalid JSON: {e}",
                              expect_error(f"Invalid JSON: {e}", None), kind="json.loads fails"))
    return cases


# ---------------------------------------------------------------------------
# Running poolcheck
# ---------------------------------------------------------------------------

class PoolcheckError(Exception):
    pass


class Runner:
    def __init__(self, binary: str, chunk: int, timeout: float):
        self.binary = binary
        self.chunk = chunk
        self.timeout = timeout

    def _run(self, args, stdin: bytes):
        try:
            return subprocess.run([self.binary, *args], input=stdin, capture_output=True, timeout=self.timeout)
        except subprocess.TimeoutExpired as e:
            raise PoolcheckError(f"poolcheck timed out after {self.timeout} s: {' '.join(args)}") from e
        except OSError as e:
            raise PoolcheckError(f"cannot run {self.binary}: {e}") from e

    def single(self, line: str):
        """(exit, output) of `poolcheck preprocess -` on one envelope."""
        p = self._run(["preprocess", "-"], line.encode())
        if p.returncode not in (0, 1, 3):
            return ("crash", f"exit {p.returncode}; stderr: {p.stderr.decode(errors='replace')[-2000:]}")
        text = p.stdout.decode("utf-8", errors="replace")
        try:
            return (p.returncode, json.loads(text))
        except (ValueError, RecursionError) as e:
            return ("unparsable", f"stdout is not JSON ({e}): {short(text, 400)}")

    def batch(self, lines: list) -> list:
        """(exit, output) per line through `poolcheck preprocess --jsonl -`.

        A process that dies part-way (a crash) costs the line it was on; the
        rest are run again in a fresh process.
        """
        results = []
        pos = 0
        while pos < len(lines):
            part = lines[pos:pos + self.chunk]
            p = self._run(["preprocess", "--jsonl", "-"], ("\n".join(part) + "\n").encode())
            if p.returncode == 2:
                raise PoolcheckError("poolcheck preprocess --jsonl: usage error (does this binary have --jsonl?): "
                                     + p.stderr.decode(errors="replace").strip())
            out = p.stdout.decode("utf-8", errors="replace").split("\n")
            complete = out[:-1]  # the piece after the last newline is not a whole line
            for text in complete[:len(part)]:
                results.append(parse_record(text))
            done = min(len(complete), len(part))
            if done < len(part):
                if p.returncode in (0, 1, 3):
                    raise PoolcheckError(f"poolcheck --jsonl printed {done} lines for {len(part)} inputs "
                                         f"(exit {p.returncode}); stderr: "
                                         f"{p.stderr.decode(errors='replace')[-2000:]}")
                results.append(("crash", f"exit {p.returncode}; stderr: "
                                         f"{p.stderr.decode(errors='replace')[-2000:]}"))
                done += 1
            elif len(complete) > len(part):
                raise PoolcheckError(f"poolcheck --jsonl printed {len(complete)} lines for {len(part)} inputs")
            elif p.returncode not in (0, 3):
                # Every line printed, then a bad exit: a sanitizer's report at exit (a leak), say.
                raise PoolcheckError(f"poolcheck --jsonl exited {p.returncode} after printing every line; "
                                     f"stderr: {p.stderr.decode(errors='replace')[-3000:]}")
            pos += done
        return results


def parse_record(text: str):
    try:
        record = json.loads(text)
    except (ValueError, RecursionError) as e:
        return ("unparsable", f"not JSON ({e}): {short(text, 400)}")
    if not isinstance(record, dict) or set(record) != {"exit", "output"} or record["exit"] not in (0, 1, 3):
        return ("unparsable", f"not an {{\"exit\": 0|1|3, \"output\": ...}} record: {short(text, 400)}")
    return (record["exit"], record["output"])


def short(text: str, limit: int = 160) -> str:
    text = str(text)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"


def said(result) -> str:
    code, output = result
    if not isinstance(code, int):
        return f"{code}: {output}"
    if isinstance(output, dict) and isinstance(output.get("error"), dict):
        return f"exit {code}: {short(json.dumps(output['error'], ensure_ascii=False), 600)}"
    try:
        return (f"exit {code}: {len(output['outputs'])} output(s), prompt lengths {prompt_lengths(output)}, "
                "use_activation " + json.dumps([o["pooling_params"]["use_activation"] for o in output["outputs"]]))
    except (KeyError, TypeError, AttributeError):
        return f"exit {code}: {short(json.dumps(output), 300)}"


def normalise(text: str, limit: int = 100) -> str:
    """Digits runs as N, for grouping: `prompt of 7 tokens` and `of 9` are one category."""
    out, digits = [], False
    for ch in str(text):
        if ch.isdigit() and ch.isascii():
            if not digits:
                out.append("N")
            digits = True
        else:
            out.append(ch)
            digits = False
    text = "".join(out)
    return text if len(text) <= limit else text[:limit] + "..."


def poolcheck_kind(result, group: str) -> str:
    code, output = result
    if not isinstance(code, int):
        return str(code)
    if isinstance(output, dict) and isinstance(output.get("error"), dict):
        message = str(output["error"].get("message", ""))
        if group == "score-union":  # which side the core named is detail here
            for key in sorted(SIDE_KEYS, key=len, reverse=True):
                message = message.replace(key, "<side>")
            message = message.split(" must be given; got ")[0]
        return f"exit {code} '{normalise(message, 90)}'"
    return f"exit {code}"


def judge(case: Case) -> Optional[str]:
    code, output = case.result
    if not isinstance(code, int):
        return f"poolcheck {code}: {output}"
    if code == 3:
        return "internal error (exit 3)"
    try:
        reason = case.check(code, output)
    except Exception as e:  # an output of a shape the check did not foresee
        return f"unexpected output ({type(e).__name__}: {e}): {short(json.dumps(output), 400)}"
    if reason:
        return reason
    if case.canonical_result is not None:
        ccode, coutput = case.canonical_result
        if (ccode, coutput) != (code, output):
            return (f"not coercion-invariant (spec 11.6): the canonical spelling gives {said(case.canonical_result)}")
    return None


# ---------------------------------------------------------------------------

def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="Example: python3 tests/fidelity/pydantic_oracle.py --poolcheck "
                                        "build/gcc/cli/poolcheck --field top_n --count 500")
    ap.add_argument("--poolcheck", required=True, help="the poolcheck binary")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"generator seed (default {DEFAULT_SEED})")
    ap.add_argument("--count", type=int, default=3000,
                    help="values per field type (int, bool; default 3000); union bodies: count/5")
    ap.add_argument("--field", action="append", choices=ALL_GROUPS, metavar="FIELD",
                    help="check only FIELD (repeatable): " + ", ".join(ALL_GROUPS))
    ap.add_argument("--show", type=int, default=20, help="disagreements shown in full (default 20)")
    ap.add_argument("--categories", type=int, default=12, help="categories listed per field (default 12)")
    ap.add_argument("--repro-dir", help="where reproducer files go (default: a new temporary directory, "
                                        "made only when there is a disagreement)")
    ap.add_argument("--chunk", type=int, default=2000, help="envelopes per poolcheck --jsonl process")
    ap.add_argument("--timeout", type=float, default=900, help="seconds per poolcheck process")
    args = ap.parse_args()
    groups = args.field or ALL_GROUPS
    if args.count < 1 or args.chunk < 1:
        ap.error("--count and --chunk must be positive")
    if not (os.path.isfile(args.poolcheck) and os.access(args.poolcheck, os.X_OK)):
        print(f"{SUMMARY_PREFIX} FAILED: {args.poolcheck} is not an executable file", file=sys.stderr)
        return 2
    runner = Runner(os.path.abspath(args.poolcheck), args.chunk, args.timeout)
    print(f"{SUMMARY_PREFIX} pydantic {pydantic.VERSION}, python {sys.version.split()[0]}, seed {args.seed}, "
          f"count {args.count}, poolcheck {args.poolcheck}", flush=True)

    try:
        # Reference outputs: the envelopes with no varied field.
        model = {"max_model_len": M}
        plain = {"queries": "alpha beta", "documents": ["gamma delta", "epsilon"]}
        refs = runner.batch([envelope_line("score", model, plain, None, None),
                             envelope_line("rerank", model, {"query": "alpha beta", "documents": ["gamma delta", "epsilon"]}, None, None),
                             envelope_line("score", {}, {}, None, None)])
        reference = {"score-plain": refs[0], "rerank-plain": refs[1]}
        for name in ("score-plain", "rerank-plain"):
            code, out = reference[name]
            if code != 0:
                raise PoolcheckError(f"the reference envelope {name} is not accepted: {said(reference[name])}")
            reference[name] = out
        code, no_shape_error = refs[2]
        if code != 1:
            raise PoolcheckError(f"a score body with no shape is not rejected: {said(refs[2])}")

        gen = ValueGenerator(args.seed)
        int_pool = gen.int_pool(args.count) if any(f in groups for f in INT_FIELDS) else []
        bool_pool = gen.bool_pool(args.count) if any(f in groups for f in BOOL_FIELDS) else []
        field_setups = setups(reference)
        cases = []
        for f in INT_FIELDS:
            if f in groups:
                cases += field_cases(f, field_setups[f], int_pool)
        for f in BOOL_FIELDS:
            if f in groups:
                cases += field_cases(f, field_setups[f], bool_pool)
        if "score-union" in groups:
            cases += union_cases(max(1, args.count // 5), args.seed, no_shape_error)
        batch_cases = list(cases)
        single_cases = json_cases(reference) if "json" in groups else []

        # The bulk through --jsonl; canonical spellings deduplicated.
        canon = sorted({c.canonical for c in batch_cases if c.canonical is not None})
        results = runner.batch([c.line for c in batch_cases] + canon)
        canon_result = dict(zip(canon, results[len(batch_cases):]))
        for c, r in zip(batch_cases, results):
            c.result = r
            if c.canonical is not None:
                c.canonical_result = canon_result[c.canonical]
        # The JSON-level cases one process each, through the single-shot command.
        for c in single_cases:
            c.result = runner.single(c.line)
        cases += single_cases
    except PoolcheckError as e:
        print(f"{SUMMARY_PREFIX} FAILED: {e}", file=sys.stderr)
        return 2

    disagreements = [(c, reason) for c in cases for reason in [judge(c)] if reason]
    counts = {"int": sum(c.group in INT_FIELDS for c in cases), "bool": sum(c.group in BOOL_FIELDS for c in cases),
              "union": sum(c.group == "score-union" for c in cases), "json": sum(c.group == "json" for c in cases)}

    if args.repro_dir and os.path.isdir(args.repro_dir):  # the last run's reproducers go
        for name in os.listdir(args.repro_dir):
            if name == "disagreements.jsonl" or (name.startswith("disagreement-") and name.endswith(".json")):
                os.remove(os.path.join(args.repro_dir, name))
    if disagreements:
        repro = args.repro_dir or tempfile.mkdtemp(prefix="poolcheck-fidelity-")
        os.makedirs(repro, exist_ok=True)
        all_path = os.path.join(repro, "disagreements.jsonl")
        with open(all_path, "w", encoding="utf-8") as f:
            for c, _ in disagreements:
                f.write(c.line + "\n")
        by_group, categories = {}, {}
        for c, reason in disagreements:
            by_group[c.group] = by_group.get(c.group, 0) + 1
            key = (c.group, c.kind, poolcheck_kind(c.result, c.group))
            categories.setdefault(key, []).append((c, reason))
        print(f"{SUMMARY_PREFIX} disagreements by field: " +
              ", ".join(f"{g} {n}" for g, n in sorted(by_group.items())))
        print(f"{SUMMARY_PREFIX} {len(categories)} categories (field | expected | poolcheck: count):")
        table = sorted(categories.items(), key=lambda kv: (kv[0][0], -len(kv[1])))
        listed = {}
        for (group, kind, pk), members in table:
            listed[group] = listed.get(group, 0) + 1
            if listed[group] <= args.categories:
                print(f"  {group} | {kind} | poolcheck {pk}: {len(members)}")
            elif listed[group] == args.categories + 1:
                rest = sum(1 for key in categories if key[0] == group) - args.categories
                print(f"  {group} | ... and {rest} more categories (--categories N lists more)")
        # Shown in full, up to --show: the first of each category, taking one
        # category of each field in turn (biggest first), then more.
        shown, seen = [], set()
        per_group = {}
        for key, members in table:
            per_group.setdefault(key[0], []).append(members)
        for round_ in range(max((len(v) for v in per_group.values()), default=0)):
            for group_members in per_group.values():
                if round_ < len(group_members) and len(shown) < args.show:
                    shown.append(group_members[round_][0])
                    seen.add(id(group_members[round_][0][0]))
        for c, reason in disagreements:
            if len(shown) >= args.show:
                break
            if id(c) not in seen:
                shown.append((c, reason))
                seen.add(id(c))
        for i, (c, reason) in enumerate(shown, 1):
            path = os.path.join(repro, f"disagreement-{i:03d}-{c.group}.json")
            with open(path, "w", encoding="utf-8") as f:
                f.write(c.line + "\n")
            value = c.value_text
            try:
                pyvalue = short(safe_repr(json.loads(value)))
            except ValueError:
                pyvalue = "(json.loads fails)"
            print(f"--- disagreement {i}: {c.group}" + (f" ({c.origin})" if c.origin else ""))
            print(f"  value:     {short(value)}   (python: {pyvalue})")
            print(f"  pydantic:  {c.pydantic}")
            print(f"  expected:  {c.expect}")
            print(f"  poolcheck: {said(c.result)}")
            print(f"  why:       {short(reason, 600)}")
            print(f"  reproduce: {shlex.quote(args.poolcheck)} preprocess {shlex.quote(path)}")
            if len(c.line) <= 300 and c.line.isascii():
                print(f"         or: echo {shlex.quote(c.line)} | {shlex.quote(args.poolcheck)} preprocess -")
        if len(disagreements) > len(shown):
            print(f"... and {len(disagreements) - len(shown)} more")
        print(f"All {len(disagreements)} disagreeing envelopes, one per line: "
              f"{shlex.quote(args.poolcheck)} preprocess --jsonl {shlex.quote(all_path)}")
    if counts["json"]:
        print(f"{SUMMARY_PREFIX} the total includes {counts['json']} JSON-level checks (spec 11.3)")
    print(f"{SUMMARY_PREFIX} {len(cases)} values checked (int fields: {counts['int']}, bool fields: {counts['bool']}, "
          f"score union: {counts['union']}), {len(disagreements)} disagreements")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
