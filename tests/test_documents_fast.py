"""The whole-file JSON documents read from their bytes in C (``documents.read_fast``, tools/parsers/_kernel_doc.c)
against the reading they replace, kept here as the reference: ``json.loads`` of the decoded text, the depth and
``log_history`` caps, ``document_format``, then the ``parse_doc`` of trainer_state.json / golden values as they were.

Wherever the fast read answers (points, or a cap's error) it is the reference's answer exactly: every key in the same
order, every step, every value bit for bit (NaN, -0.0), the total steps, the config, the error's type and text. Where
it does not (None: not the common shape, not valid JSON) the reader reads as before; a document that is not valid
JSON is never answered. The common shapes are answered (the corpora's files, grown ones, generated ones), so the
speed is there. DOC_EXAMPLES raises the number of random examples.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from training_check.tools import limits
from training_check.tools.errors import TrainingCheckError
from training_check.tools.parsers import documents, kernel
from training_check.tools.parsers.base import Emitter
from training_check.tools.parsers.detect import document_format
from training_check.tools.parsers.jsonl import _flatten
from training_check.tools.parsers.text import to_step
from training_check.tools.sources.files import LocalFileSystem
from training_check.tools.sources.logfile import LogFileSource

from .conftest import CORPUS, REPO, require

EXAMPLES = int(os.environ.get("DOC_EXAMPLES", "300"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
CORPORA = [CORPUS, CORPUS.parent / "real-logs-2", REPO / "examples"]
WHERE = "doc.json"


@pytest.fixture(scope="module", autouse=True)
def _kernel_built():
    require(kernel.HAVE_KERNEL and hasattr(kernel._KERNEL, "doc_records"),
            "the C extension training_check.tools.parsers._kernel (pip install -e . builds it)")


# ---------------------------------------------------------------- the reference: the reading as it was


def old_trainer_state(doc: dict, em: Emitter) -> None:
    for entry in doc["log_history"]:
        if not isinstance(entry, dict) or "train_runtime" in entry:
            continue
        step = to_step(str(entry.get("step")))
        if step is None:
            continue
        rec: dict[str, float] = {}
        _flatten({k: v for k, v in entry.items() if k not in {"step", "total_flos"}}, "", rec)
        em.record(step, rec)
    total = doc.get("max_steps") or doc.get("global_step")
    if isinstance(total, (int, float)) and total > 0:
        em.total_steps = int(total)
    for key in ("num_train_epochs", "train_batch_size", "logging_steps", "eval_steps"):
        if isinstance(doc.get(key), (int, float)):
            em.config[key] = doc[key]


def old_golden_values(doc: dict, em: Emitter) -> None:
    end = None
    for metric, spec in doc.items():
        for k, v in spec["values"].items():
            step = to_step(k)
            if step is None or isinstance(v, bool):
                continue
            if isinstance(v, str):
                continue
            if isinstance(v, (int, float)):
                em.add(step, metric, float(v))
        if isinstance(spec.get("end_step"), int):
            end = max(end or 0, spec["end_step"])
    if end:
        em.total_steps = end


OLD = {"hf_trainer_state": old_trainer_state, "megatron_golden_values": old_golden_values}


def answer(name: str, em: Emitter) -> tuple:
    batch = em.build()
    cols = [(k, c.steps.tolist(), c.values.view(np.int64).tolist()) for k, c in batch.columns.items()]  # bitwise
    return ("read", name, cols, em.total_steps, repr(em.config))


def reference(data: bytes) -> tuple:
    """What LogFileSource._read_document gave before read_fast, after the containers cap: ("read", ...), ("error",
    type, text), or ("not json",) where it goes on to its JSON-lines / being-written / not-valid-JSON answers."""
    try:
        limits.check_containers(data, WHERE)
        try:
            doc = json.loads(data.decode("utf-8", errors="replace"))
        except RecursionError:
            return ("error", "BadInput", f"{WHERE} nests JSON deeper than {limits.MAX_DEPTH} levels (the cap): not a "
                                         f"metrics document")
        except ValueError:
            return ("not json",)
        limits.check_depth(doc, WHERE)
        limits.check_log_history(doc, WHERE)
        f = document_format(doc, WHERE)
        em = Emitter()
        OLD[f.name](doc, em)
        return answer(f.name, em)
    except (TrainingCheckError, ArithmeticError) as e:
        return ("error", type(e).__name__, str(e))


def fast(data: bytes) -> tuple | None:
    """The new reading's answer, None where it hands the document to the reading as before."""
    try:
        limits.check_containers(data, WHERE)
        got = documents.read_fast(data, WHERE)
    except (TrainingCheckError, ArithmeticError) as e:
        return ("error", type(e).__name__, str(e))
    return None if got is None else answer(*got)


def same(data: bytes, must_answer: bool = False) -> tuple | None:
    got, want = fast(data), reference(data)
    if got is not None:
        assert want != ("not json",), f"answered a document json.loads refuses: {data[:300]!r}"
        assert got == want, data[:300]
    elif must_answer:
        pytest.fail(f"the common shape was not read fast: {data[:300]!r} (reference {str(want)[:200]})")
    return got


# ---------------------------------------------------------------- the corpora, as they are and grown


def corpus_documents() -> list[Path]:
    found = []
    for root in CORPORA:
        if not root.is_dir():
            continue
        for p in sorted(root.rglob("*.json")):
            if "trainer_state" in p.name or "golden_values" in p.name:
                found.append(p)
    return found


def grow(body: bytes, copies: int) -> bytes:
    """A longer run's document, as bench/log_parse.py grows it: log_history / values repeated, steps moved on."""
    sys.path.insert(0, str(REPO / "bench"))
    try:
        from log_parse import grow_document
    finally:
        sys.path.remove(str(REPO / "bench"))
    grown = grow_document(body, copies)
    assert grown is not None
    return grown


def test_every_corpus_document_reads_fast_and_the_same():
    files = corpus_documents()
    require(len(files) >= 10, f"the corpus documents under {CORPORA} (trainer_state / golden values)")
    kinds = set()
    for p in files:
        body = p.read_bytes()
        got = same(body, must_answer=True)
        assert got is not None and got[0] == "read", p
        kinds.add(got[1])
        same(grow(body, 7), must_answer=True)
        same(json.dumps(json.loads(body), indent=4).encode(), must_answer=True)  # written another way
    assert kinds == {"hf_trainer_state", "megatron_golden_values"}


def test_the_reader_gives_the_reference_through_the_source(tmp_path):
    """End to end: LogFileSource reads a grown file of each kind fast, and gives the reference's points."""
    for p in corpus_documents()[:: max(1, len(corpus_documents()) // 4)]:
        path = tmp_path / p.name
        path.write_bytes(grow(p.read_bytes(), 3))
        src = LogFileSource(LocalFileSystem(), str(path))
        src.settle_seconds = 0
        res = src.read(None)
        want = reference(path.read_bytes())
        cols = [(k, c.steps.tolist(), c.values.view(np.int64).tolist()) for k, c in res.batch.columns.items()]
        assert ("read", res.cursor["format"], cols, res.cursor["total_steps"]) == want[:4]


# ---------------------------------------------------------------- generated documents

NUMBERS = st.one_of(
    st.integers(-(10**20), 10**20).map(str),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.sampled_from(["NaN", "Infinity", "-Infinity", "-0", "-0.0", "0e0", "1E+2", "1e400", "-1e400", "2.5e-330",
                     "123456789012345678", "1234567890123456789", "12345678901234567890123", "0.30000000000000004",
                     "9007199254740993", "9007199254740993.0", "1.00000000000000000000000001", "1e-7", "5e-324",
                     "1" + "0" * 400, "0.1e99999999999", "1.7976931348623159e308"]),
)
SCALARS = st.one_of(
    NUMBERS,
    st.sampled_from(['"nan"', '"NaN"', '"1.5"', '" 2 "', '"12ms"', '"x"', '"inf"', '"' + "7" * 45 + '"',
                     '"' + "a" * 41 + '"', '"\\u00e9t\\u00e9"', '"\\ud800"', '"a\\"b"', '"caf\xc3\xa9"', '"\xff\xfe"',
                     "true", "false", "null", '""']),
)
KEYS = st.sampled_from(["loss", "learning_rate", "epoch", "grad_norm", "eval_loss", "step", "total_flos",
                        "train_runtime", "config", "args", "a/b", "caf\xc3\xa9", "\\u0073tep", "x\\ny", ""])


def obj(members: list[tuple[str, str]], ws: str) -> str:
    return "{" + ws + ("," + ws).join(f'"{k}"{ws}:{ws}{v}' for k, v in members) + ws + "}"


@st.composite
def values(draw, depth: int = 0) -> str:
    """A JSON value's text (duplicate keys, any number literal, odd strings)."""
    if depth >= 2 or draw(st.integers(0, 3)):
        return draw(SCALARS)
    if draw(st.booleans()):
        return "[" + ",".join(draw(st.lists(values(depth + 1), max_size=3))) + "]"
    return obj(draw(st.lists(st.tuples(KEYS, values(depth + 1)), max_size=3)), "")


STEPS = st.one_of(st.integers(-5, 10**6).map(str), st.sampled_from(
    ['"7"', '"x"', "7.0", "7.9", "-2.5", "1e3", "1e30", "NaN", "Infinity", "null", "true", "false", '"1e3"',
     "12345678901234567890", "{}", "[1]"]))


@st.composite
def entries(draw) -> str:
    if not draw(st.integers(0, 12)):
        return draw(st.one_of(SCALARS, values()))  # not an object
    members = draw(st.lists(st.tuples(KEYS.filter(lambda k: k != "step"), SCALARS), max_size=5))
    if draw(st.integers(0, 6)):
        members.insert(draw(st.integers(0, len(members))), ("step", draw(STEPS)))
    if not draw(st.integers(0, 8)):
        members.append((draw(KEYS), draw(values())))  # nested, a repeated key
    return obj(members, draw(st.sampled_from(["", " ", "\n    "])))


@st.composite
def trainer_states(draw) -> bytes:
    ws = draw(st.sampled_from(["", " ", "\n  ", "\t"]))
    history = "[" + ws + ("," + ws).join(draw(st.lists(entries(), max_size=12))) + ws + "]"
    members = [("log_history", history)]
    for key in draw(st.lists(st.sampled_from(["max_steps", "global_step", "num_train_epochs", "train_batch_size",
                                              "logging_steps", "eval_steps", "best_metric", "trial_params",
                                              "log_history"]), max_size=5)):
        members.insert(draw(st.integers(0, len(members))), (key, draw(values())))
    return obj(members, ws).encode("utf-8", "surrogatepass")


@st.composite
def golden(draw) -> bytes:
    ws = draw(st.sampled_from(["", " ", "\n"]))
    metrics = []
    for name in draw(st.lists(st.sampled_from(["lm loss", "num-zeros", "mem", "caf\xc3\xa9", "lm loss", "a\\tb"]),
                              min_size=1, max_size=4)):
        steps = draw(st.lists(st.integers(0, 10**6), max_size=12))
        if draw(st.integers(0, 3)):
            steps = sorted(set(steps))
        keys = [str(s) for s in steps]
        if not draw(st.integers(0, 8)):
            keys.insert(draw(st.integers(0, len(keys))), draw(st.sampled_from(
                ["05", "x", "1e3", " 7", "+3", "1_000", "", "1234567890123456789", "-1", "7.0", "nan"])))
        vals = [draw(st.one_of(NUMBERS, NUMBERS, st.sampled_from(['"nan"', "true", "null", '"1.5"', "{}", "[]"])))
                for _ in keys]
        spec = [("start_step", draw(STEPS)), ("end_step", draw(STEPS)), ("step_interval", "5"),
                ("values", obj(list(zip(keys, vals, strict=True)), ws))]
        if not draw(st.integers(0, 10)):
            spec.append((draw(st.sampled_from(["values", "meta", "end_step"])), draw(values())))
        metrics.append((name, obj(spec, ws)))
    if not draw(st.integers(0, 10)):
        metrics.append((draw(st.sampled_from(["other", "lm loss"])), draw(values())))
    return obj(metrics, ws).encode("utf-8", "surrogatepass")


@st.composite
def mutated(draw, docs) -> bytes:
    """A generated document, sometimes damaged: cut, a byte changed, a BOM, trailing data."""
    data = draw(docs)
    how = draw(st.integers(0, 9))
    if how == 0 and data:
        data = data[: draw(st.integers(0, len(data) - 1))]
    elif how == 1 and data:
        i = draw(st.integers(0, len(data) - 1))
        data = data[:i] + bytes([draw(st.sampled_from(b'"\\{}[],:0 \x00\xff-eE.'))]) + data[i + 1:]
    elif how == 2:
        data = b"\xef\xbb\xbf" + data
    elif how == 3:
        data = data + draw(st.sampled_from([b"\n", b" {}", b"x", b"\n\n"]))
    return data


@SETTINGS
@given(mutated(trainer_states()))
def test_generated_trainer_states_read_as_before(data):
    same(data)


@SETTINGS
@given(mutated(golden()))
def test_generated_golden_values_read_as_before(data):
    same(data)


@st.composite
def plain_trainer_states(draw) -> bytes:
    """The shape HF's Trainer writes: entries of numbers with a step, the final summary, settings."""
    history = []
    for i in range(draw(st.integers(0, 30))):
        e = {"step": i * draw(st.integers(1, 3)), "epoch": draw(st.floats(0, 10))}
        for k in draw(st.lists(st.sampled_from(["loss", "learning_rate", "grad_norm", "eval_loss"]), unique=True)):
            e[k] = draw(st.one_of(st.floats(), st.integers(-(10**15), 10**15)))
        history.append(e)
    if draw(st.booleans()):
        history.append({"step": len(history), "train_runtime": 1.5, "train_loss": 2.0, "total_flos": 1e16})
    doc = {"log_history": history, "max_steps": draw(st.integers(0, 10**6)), "logging_steps": 5,
           "stateful_callbacks": {"TrainerControl": {"args": {"should_save": True}}}}
    return json.dumps(doc, indent=draw(st.sampled_from([None, 2])), sort_keys=draw(st.booleans())).encode()


@st.composite
def plain_golden(draw) -> bytes:
    doc = {}
    for name in draw(st.lists(st.sampled_from(["lm loss", "num-zeros", "iteration-time", "mem"]), min_size=1,
                              unique=True)):
        steps = sorted(set(draw(st.lists(st.integers(0, 10**6), max_size=30))))
        doc[name] = {"start_step": 1, "end_step": steps[-1] if steps else 0, "step_interval": 5,
                     "values": {str(s): draw(st.one_of(st.floats(), st.just("nan"), st.integers(0, 10**9)))
                                for s in steps}}
    return json.dumps(doc).encode()


@SETTINGS
@given(st.one_of(plain_trainer_states(), plain_golden()))
def test_the_common_shapes_are_read_fast(data):
    got = same(data, must_answer=True)
    assert got is not None and got[0] == "read"


def test_odd_but_valid_documents():
    """Cases picked by hand: each as the reference reads it (the fast read answers or hands over)."""
    docs = [
        b'{"log_history": [{"step": 1, "loss": NaN}, {"step": 2, "loss": Infinity, "x": -Infinity}]}',
        b'{"log_history": [{"step": 1, "loss": 1}], "log_history": [{"step": 2, "loss": 2}]}',
        b'{"log_history": [{"step": 1, "loss": 1, "loss": 3}]}',
        b'{"log_history": [{"loss": 1, "step": 9}, 5, "x", null, [], {"step": 2.7, "loss": -0.0}]}',
        b'{"log_history": [{"step": 1, "loss": 12345678901234567890}], "max_steps": 7}',
        b'{"log_history": [{"step": 1, "loss": "2.5"}]}',
        b'{"log_history": [{"step": "3", "loss": 2.5}]}',
        b'{"log_history": [{"step": 1e30, "loss": 2.5}]}',
        b'{"log_history": [{"step": 1, "m": {"a": 1}}]}',
        b'{"log_history": [{"st\\u0065p": 1, "loss": 1}]}',
        b'{"log_history": {"values": {"1": 2}}}',
        b'{"log_history": [], "global_step": 5, "max_steps": 0}',
        b'{"log_history": [{"step": 1, "loss": 0.1000000000000000055511151231257827021181583404541015625}]}',
        b'{"a": {"values": {"1": 1, "2": "nan", "3": NaN, "4": true, "5": null, "6": 1e400}, "end_step": true}}',
        b'{"a": {"values": {"2": 1, "1": 2}}, "b": {"values": {"1": 1, "01": 2}}}',
        b'{"a": {"values": {"1": 1}}, "a": {"values": {"2": 2}, "values": {"3": 3}}}',
        b'{"a": {"values": {"1": 1}}, "b": 5}',
        b'{"a": {"values": {"1": 1}}, "b": {"values": [1]}}',
        b'{"a": {"values": {"1": 1.0e-400, "2": -0}}}',
        b'{"a": {"values": {"1": 1}, "meta": ' + b"[" * 70 + b"]" * 70 + b"}}",
        b'{"log_history": [{"step": 1, "loss": 1}], "x": ' + b"[" * 70 + b"]" * 70 + b"}",
        b'{"a": {"values": {"1": 1}}}  \n',
        b'{"a": {"values": {}}}',
        b"{}",
        b'{"caf\xc3\xa9 \xff": {"values": {"1": 1}}}',
    ]
    answered = 0
    for d in docs:
        answered += same(d) is not None
    assert answered >= 12  # most of these are still read fast


JSON_TEXT = st.text(st.sampled_from('ab"\\/{}[]:, \n\u00e9\x01'), max_size=40)
JSON_VALUES = st.recursive(st.one_of(st.none(), st.booleans(), st.floats(allow_nan=False), st.integers(), JSON_TEXT),
                           lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                   st.dictionaries(JSON_TEXT, inner, max_size=4)), max_leaves=30)


@SETTINGS
@given(st.dictionaries(JSON_TEXT, JSON_VALUES, max_size=6), st.sampled_from([None, 0, 2]), st.booleans())
def test_members_are_split_where_json_loads_splits_them(doc, indent, ascii_only):
    """doc_members' spans (strings, escapes and brackets skipped 16 bytes at a time) hold each member's key and value
    exactly, one level down too."""
    data = json.dumps(doc, indent=indent, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")
    spans = kernel._KERNEL.doc_members(data, 0, len(data), 1)  # type: ignore[union-attr]
    assert spans is not None
    assert [json.loads(data[ks:ke]) for ks, ke, _, _, _ in spans] == list(doc)
    for (_, _, vs, ve, sub), value in zip(spans, doc.values(), strict=True):
        assert json.loads(data[vs:ve]) == value
        assert (sub is not None) == isinstance(value, dict)
        if sub is not None:
            assert {json.loads(data[a:b]): json.loads(data[c:d]) for a, b, c, d, _ in sub} == value
    for cut in range(1, len(data), max(1, len(data) // 7)):  # a cut document is never split
        assert kernel._KERNEL.doc_members(data[:cut], 0, cut, 1) is None  # type: ignore[union-attr]


NUMBER_TEXT = st.one_of(
    st.from_regex(r"\A-?(0|[1-9][0-9]{0,25})(\.[0-9]{1,25})?([eE][-+]?[0-9]{1,4})?\Z"),
    st.floats().map(repr).filter(lambda t: t not in ("nan", "inf", "-inf")),
    st.from_regex(r"\A-?[0-9]{1,30}\Z"),  # not all JSON: 0123
)


@SETTINGS
@given(st.lists(NUMBER_TEXT, min_size=1, max_size=8))
def test_numbers_read_as_json_loads_then_float(texts):
    """Each number of a values object as float(json.loads(text)), bit for bit; a document json.loads refuses (a
    leading zero) or one whose int float() may not take (19 digits and more) is not answered."""
    data = ("{" + ", ".join(f'"{i}": {t}' for i, t in enumerate(texts)) + "}").encode()
    got = kernel._KERNEL.doc_values(data, 0, len(data))  # type: ignore[union-attr]
    try:
        want = [float(v) for v in json.loads(data).values()]
    except (ValueError, OverflowError):
        assert got is None
        return
    if got is None:
        assert any(t.lstrip("-").isdigit() and len(t.lstrip("-")) > 18 for t in texts)
        return
    assert np.frombuffer(got[0], dtype=np.int64).tolist() == list(range(len(texts)))
    assert np.frombuffer(got[1], dtype=np.float64).view(np.int64).tolist() == \
        np.array(want, dtype=np.float64).view(np.int64).tolist()


@SETTINGS
@given(st.binary(max_size=5000), st.integers(0, 300))
def test_containers_are_counted_as_bytes_count_counts_them(data, braces):
    """The containers cap's count in C (documents of 1 MB and more) is bytes.count's."""
    data = data + b"{" * braces + data[::-1]
    assert kernel._KERNEL.doc_containers(data) == data.count(b"{") + data.count(b"[")  # type: ignore[union-attr]
    big = data * ((1 << 20) // max(1, len(data)) + 1) if data else b"[" * (1 << 20)
    over = big.count(b"{") + big.count(b"[") > limits.MAX_CONTAINERS
    with pytest.raises(TrainingCheckError, match="objects and arrays") if over else contextlib.nullcontext():
        limits.check_containers(big, WHERE)


def old_check_depth(value: object) -> bool:
    """limits.check_depth as it was: whether it refused ``value``."""
    todo: list[tuple[object, int]] = [(value, 1)]
    while todo:
        v, d = todo.pop()
        if not isinstance(v, (dict, list)):
            continue
        items = list(v.values()) if isinstance(v, dict) else v
        if d > limits.MAX_DEPTH:
            return True
        todo.extend((x, d + 1) for x in items if isinstance(x, (dict, list)))
    return False


@st.composite
def nested(draw) -> object:
    """A value nesting about MAX_DEPTH deep, in lists and dicts, with scalars beside."""
    v: object = draw(st.one_of(st.integers(), st.just([]), st.just({}), st.text(max_size=2)))
    cap = limits.MAX_DEPTH
    for _ in range(draw(st.one_of(st.integers(0, cap + 3), st.integers(cap - 3, cap + 3)))):
        side = draw(st.lists(st.one_of(st.integers(), st.just([]), st.just({"a": []})), max_size=2))
        v = {"k": v, **{str(i): x for i, x in enumerate(side)}} if draw(st.booleans()) else [*side, v]
    return v


@SETTINGS
@given(nested())
def test_the_depth_cap_refuses_what_it_refused(value):
    refused = False
    try:
        limits.check_depth(value, WHERE)
    except TrainingCheckError as e:
        refused = True
        assert str(e) == f"{WHERE} nests JSON deeper than {limits.MAX_DEPTH} levels (the cap): not a metrics document"
    assert refused == old_check_depth(value)


# ---------------------------------------------------------------- hostile documents


def timed(data: bytes) -> tuple[float, tuple | None]:
    t = time.perf_counter()
    got = fast(data)
    return time.perf_counter() - t, got


def test_hostile_documents_are_refused_fast_with_the_same_error(tmp_path):
    deep = b'{"log_history": [], "x": ' + b"[" * 200_000 + b"]" * 200_000 + b"}"
    deep_golden = b'{"a": {"values": {"1": 1}, "m": ' + b'{"a":' * 100_000 + b"1" + b"}" * 100_000 + b"}}"
    many = b'{"log_history": [' + b",".join([b"{}"] * (limits.MAX_CONTAINERS + 1)) + b"]}"
    entries = b'{"log_history": [' + b",".join([b"1"] * (limits.MAX_LOG_HISTORY + 1)) + b"]}"
    big = b'{"log_history": [' + b",".join([b'{"step": 1, "loss": 2}'] * 499_000) + b"]}"
    keys = b'{"log_history": [' + b",".join(b'{"step": 1, "k%d": 2}' % i for i in range(300_000)) + b"]}"
    bad = b'{"log_history": [' + b'{"step": 1, "loss": 2},' * 400_000 + b'{"step": 1, "loss": 2]}'
    for data in (deep, deep_golden, many, entries, big, keys, bad):
        assert len(data) <= limits.MAX_DOCUMENT_BYTES
        seconds, got = timed(data)
        assert seconds < 3, (data[:60], seconds)
        want = reference(data)
        if got is not None:
            assert got == want
    assert reference(deep) == ("error", "BadInput", f"{WHERE} nests JSON deeper than {limits.MAX_DEPTH} levels (the "
                                                    f"cap): not a metrics document")
    assert fast(deep) in (None, reference(deep))  # None: the reading as before refuses it
    assert fast(big) is not None and fast(big)[0] == "read"  # type: ignore[index]
    assert fast(entries) == reference(entries) and fast(entries)[0] == "error"  # type: ignore[index]
    assert fast(many)[0] == "error" and "objects and arrays" in fast(many)[2]  # type: ignore[index]
    assert fast(bad) is None and reference(bad) == ("not json",)
    # through the source, the same one-line errors, quickly, for 32 MB documents too
    pad = b'"' + b"x" * (limits.MAX_DOCUMENT_BYTES - max(len(deep), len(deep_golden)) - 64) + b'"'
    deep32 = deep[:-1] + b', "pad": ' + pad + b"}"
    golden32 = b'{"pad": {"values": {"1": ' + pad + b'}}, "a": ' + deep_golden[5:]
    for name, data in (("deep", deep), ("deep_golden", deep_golden), ("entries", entries), ("deep32", deep32),
                       ("golden32", golden32)):
        assert len(data) <= limits.MAX_DOCUMENT_BYTES
        path = tmp_path / f"{name}_trainer_state.json"
        path.write_bytes(data)
        src = LogFileSource(LocalFileSystem(), str(path))
        src.settle_seconds = 0
        t = time.perf_counter()
        with pytest.raises(TrainingCheckError) as e:
            src.read(None)
        assert time.perf_counter() - t < 3, name
        assert "\n" not in str(e.value) and str(e.value) == reference(data)[2].replace(WHERE, str(path))
        assert "nests JSON deeper" in str(e.value) or name == "entries"


def test_without_the_kernel_the_reading_is_as_before(monkeypatch, tmp_path):
    """No kernel (no compiler; TRAINING_CHECK_NO_KERNEL=1): read_fast hands every document over, and the source reads
    it with json.loads, the same points."""
    body = corpus_documents()[0].read_bytes() if corpus_documents() else \
        b'{"log_history": [{"step": 1, "loss": 2.5}], "max_steps": 9}'
    path = tmp_path / "trainer_state.json"
    path.write_bytes(body)

    def read() -> tuple:
        src = LogFileSource(LocalFileSystem(), str(path))
        src.settle_seconds = 0
        res = src.read(None)
        return res.cursor["format"], [(k, c.steps.tolist(), c.values.view(np.int64).tolist())
                                      for k, c in res.batch.columns.items()]

    fast_read = read()
    monkeypatch.setattr(documents, "_KERNEL", None)
    assert documents.read_fast(body, WHERE) is None
    assert read() == fast_read and fast_read[1]


def test_a_document_over_the_cap_is_refused_before_a_byte_is_read(tmp_path):
    """The source refused only documents over 256 MB (its own cap) while limits caps JSON documents at 32 MB: a
    200 MB trainer_state.json was parsed whole (gigabytes of Python objects). One cap, checked on the file's size."""
    path = tmp_path / "trainer_state.json"
    with open(path, "wb") as f:
        f.write(b'{"log_history": [')
        f.truncate(limits.MAX_DOCUMENT_BYTES + 1)  # sparse: nothing to read, only its size
    src = LogFileSource(LocalFileSystem(), str(path))
    src.settle_seconds = 0
    with pytest.raises(TrainingCheckError, match=r"over the 32 MB cap for a JSON document") as e:
        src.read(None)
    assert "\n" not in str(e.value)
