"""Nothing secret leaves: every credential this process can see, found by its NAME, replaced by ``[redacted NAME]``
wherever text leaves the process or is stored (the reviewer prompt, the store, the evidence file, the answers, the
plot, logs and stderr: ARCHITECTURE.md names each place).

What is a secret (worked out once per environment and kept, ``current``):

- an environment variable whose name contains one of ``NAME_WORDS`` (TOKEN, SECRET, PASSWORD, PASS, KEY, AUTH,
  SESSION, DSN ..., any case) and whose value looks like a credential (``looks_secret``: 8+ characters with letters
  and digits, 20+ with upper and lower case, or a known key prefix; never a number, a path or words with spaces, so
  ``KEYBOARD_LAYOUT=us`` or ``SESSION_MANAGER=local/host:@/tmp/.ICE-unix/1`` stay as they are), and any name a project's
  ``.training-check.toml`` adds in ``[security] redact_env``, under the same test;
- the variables the project itself reads keys from (``OWN_SECRET_ENV``) and the names the user's own config lists in
  ``[security] redact_env``: any value of 6+ characters, whatever it looks like;
- the values of the credential files the project reads: W&B's ``~/.netrc`` entry for the W&B host, the user
  config's secret-named keys, and values learnt while running (``remember_secret``: the HTTP token, Codex's key);
- the password of a URL (``scheme://user:password@host``), whatever its value (``[redacted]``).

``redact(text)`` is linear in the text: one scan left to right with ``str.find`` per secret value (a handful), the
leftmost match taken and, of matches at one place, the longest. ``redact_json`` redacts a JSON document (a store
record, an MCP message) as text, each value searched in its JSON-escaped forms. ``hide_secrets`` also hides credential
SHAPES whatever variable they came from (keys by their format, ``password=...`` pairs, JWTs, private key blocks): for
what an agent passes on to the reviewer.
"""

from __future__ import annotations

import json
import logging
import netrc
import os
import re
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlparse

NAME_WORDS = ("TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASS", "KEY", "CREDENTIAL", "AUTH", "COOKIE", "SESSION",
              "PRIVATE", "DSN")
# variables the project reads credentials from: redacted whatever their value looks like
OWN_SECRET_ENV = ("OPENAI_API_KEY", "WANDB_API_KEY", "ANTHROPIC_API_KEY", "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN",
                  "SSH_PASSPHRASE", "SSH_KEY_PASSPHRASE", "TRAINING_CHECK_SSH_PASSPHRASE", "TRAINING_CHECK_HTTP_TOKEN",
                  "GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "MLFLOW_TRACKING_TOKEN", "MLFLOW_TRACKING_PASSWORD")
KEY_PREFIXES = ("sk-", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "hf_", "xox", "AKIA", "ASIA", "glpat-",
                "wandb_v1_")
MIN_VALUE = 8  # a value a name marks as secret is redacted from this length (with letters and digits)
MIN_PREFIXED = 16  # a known key prefix alone marks a value this long (real keys are 20-60 characters)
MIN_RANDOM = 20  # mixed-case letters alone mark a value this long (a base64 token may hold no digit)
MIN_NAMED = 6  # a value named a secret outright (OWN_SECRET_ENV, the user's redact_env, a credential file)
MAX_EXTRA_NAMES = 200
REDACTED = "[redacted]"
DEFAULT_WANDB_HOST = "api.wandb.ai"
_PATH_MARKS = (":/", "=/", "@/", ",/", ";/", ":\\")
_LABEL_CHARS = re.compile(r"[^A-Za-z0-9_.:\-]")
ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,127}$")


def secret_name(name: str) -> bool:
    """Whether a variable's name says it holds a credential (``MY_DB_PASSWORD``, ``aws_session_token``)."""
    upper = name.upper()
    return any(w in upper for w in NAME_WORDS)


def _is_number(v: str) -> bool:
    try:
        float(v)
    except ValueError:
        return False
    return True


def _path_like(v: str) -> bool:
    if "://" in v:  # a URL (a DSN): its credentials are in it
        return False
    return v[0] in "/~." or any(m in v for m in _PATH_MARKS) or (len(v) > 2 and v[1] == ":" and v[2] in "\\/")


def looks_secret(value: str) -> bool:
    """A value that reads as a credential: a known key prefix (16+ characters), or 8+ characters with letters and
    digits (or 20+ with upper and lower case letters) that are not a number, a path or words (no whitespace).
    ``true``, ``1``, ``us``, ``/home/me``, ``ubuntu`` are not."""
    v = value.strip()
    if len(v) >= MIN_PREFIXED and v.startswith(KEY_PREFIXES):
        return True
    if len(v) < MIN_VALUE or any(c.isspace() for c in v) or _is_number(v) or _path_like(v):
        return False
    if len(v) >= MIN_RANDOM and any(c.isupper() for c in v) and any(c.islower() for c in v):
        return True  # a long random-looking token (base64 without a digit happens)
    return any(c.isalpha() for c in v) and any(c.isdigit() for c in v)


def could_be_secret(value: str) -> bool:
    """A value a secret-named setting may hold as its secret: 6+ characters, not a number or a path."""
    v = value.strip()
    return len(v) >= MIN_NAMED and not _is_number(v) and not _path_like(v)


def label(name: str) -> str:
    return f"[redacted {_LABEL_CHARS.sub('_', name)[:80]}]"


def _json_forms(value: str) -> set[str]:
    """The value as it appears inside a JSON string (escaped, with and without ensure_ascii)."""
    return {json.dumps(value)[1:-1], json.dumps(value, ensure_ascii=False)[1:-1]}


@dataclass(frozen=True)
class Secret:
    value: str
    name: str  # what the label names: the variable, the file entry


class Redactor:
    """Replaces each secret value (and its JSON-escaped forms) by ``[redacted NAME]``, then URL passwords."""

    def __init__(self, secrets: Iterable[Secret]):
        secrets = list(secrets)
        plain: dict[str, str] = {}
        in_json: dict[str, str] = {}
        for s in sorted(secrets, key=lambda s: (-len(s.value), s.name)):
            for form in _json_forms(s.value):
                in_json.setdefault(form, label(s.name))
                plain.setdefault(form, label(s.name))
            plain.setdefault(s.value, label(s.name))
        # longest first; a JSON document is searched for the escaped forms only (a raw value holding a quote could
        # only match there across two strings)
        self.needles = sorted(plain.items(), key=lambda kv: -len(kv[0]))
        self.json_needles = sorted(in_json.items(), key=lambda kv: -len(kv[0]))
        self.secrets = tuple(secrets)

    def values(self, text: str, needles: list[tuple[str, str]] | None = None) -> str:
        """``text`` with every secret value replaced: leftmost match first, the longest of those at one place."""
        needles = self.needles if needles is None else needles
        if not needles or not text:
            return text
        nxt = [text.find(v) for v, _ in needles]
        if max(nxt) < 0:
            return text
        out: list[str] = []
        pos = 0
        while True:
            best = -1
            for i, p in enumerate(nxt):
                if p >= 0 and (best < 0 or p < nxt[best]):  # ties keep the earlier (longer) needle
                    best = i
            if best < 0:
                break
            start = nxt[best]
            value, lab = needles[best]
            out.append(text[pos:start])
            out.append(lab)
            pos = start + len(value)
            for i, p in enumerate(nxt):
                if 0 <= p < pos:
                    nxt[i] = text.find(needles[i][0], pos)
        out.append(text[pos:])
        return "".join(out)

    def __call__(self, text: str) -> str:
        return hide_url_passwords(self.values(text))

    def json(self, text: str) -> str:
        """A JSON document's text redacted: each value in its escaped forms, then URL passwords."""
        return hide_url_passwords(self.values(text, self.json_needles))


# -- URL passwords -------------------------------------------------------------------------------------------------
# "://", a user (no ':' or '@'), ':', a password up to the authority's last '@': classes of characters with bounded
# repeats, so each "://" costs at most a few hundred steps and nothing nests
_URL_USERINFO = re.compile(r"://([^/?#\\\s\"'<>`@:]{0,256}):([^/?#\\\s\"'<>`]{1,256})@")
_SCHEME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-")


def _url_password(m: re.Match) -> str:
    text, i = m.string, m.start()
    j = i
    while j > 0 and i - j < 32 and text[j - 1] in _SCHEME_CHARS:
        j -= 1
    if j == i or not text[j].isalpha():  # no scheme before "://"
        return m.group(0)
    return f"://{m.group(1)}:{REDACTED}@"


def hide_url_passwords(text: str) -> str:
    """The password of every ``scheme://user:password@host`` replaced by [redacted]."""
    return _URL_USERINFO.sub(_url_password, text) if "://" in text else text


# -- what this process knows ----------------------------------------------------------------------------------------
@dataclass
class _Known:
    user_names: set[str]  # the user's config: any value
    project_names: set[str]  # a project's file: the value test
    values: dict[str, str]  # value -> name (credential files, config keys, learnt at run time)
    wandb_base_url: str | None = None
    generation: int = 0


_known = _Known(set(), set(), {})
_lock = threading.RLock()  # re-entrant: a signal handler that prints (redacted) may run inside a build
_cache: tuple[object, Redactor] | None = None


def remember_secret(value: str | None, name: str = "secret") -> None:
    """Treat ``value`` as a secret from now on (a generated token, a key read from a file), labelled ``name``."""
    if value and len(value.strip()) >= MIN_NAMED:
        with _lock:
            if _known.values.get(value.strip()) != name:
                _known.values[value.strip()] = name
                _known.generation += 1


def configure(*, user_names: Iterable[str] = (), project_names: Iterable[str] = (),
              values: Mapping[str, str] | None = None, wandb_base_url: str | None = None) -> None:
    """What a config file adds (names only ever added: a later config never removes what an earlier one named)."""
    with _lock:
        before = (len(_known.user_names), len(_known.project_names), len(_known.values), _known.wandb_base_url)
        _known.user_names.update(n for n in user_names if ENV_NAME.match(n))
        _known.project_names.update(n for n in project_names if ENV_NAME.match(n))
        for v, name in (values or {}).items():
            if v and len(v.strip()) >= MIN_NAMED:
                _known.values.setdefault(v.strip(), name)
        if wandb_base_url:
            _known.wandb_base_url = wandb_base_url
        if before != (len(_known.user_names), len(_known.project_names), len(_known.values), _known.wandb_base_url):
            _known.generation += 1


def known_state() -> dict:
    """What this process learnt beyond its environment (config names, remembered values), as ``configure``'s
    arguments: a worker process given it redacts as this one does (tools/check_pool.py)."""
    with _lock:
        return {"user_names": sorted(_known.user_names), "project_names": sorted(_known.project_names),
                "values": dict(_known.values), "wandb_base_url": _known.wandb_base_url}


def netrc_secret(env: Mapping[str, str], base_url: str | None = None) -> str | None:
    """The password of the ``~/.netrc`` entry ``wandb login`` wrote for the W&B host (``$NETRC`` if set)."""
    host = urlparse(base_url or env.get("WANDB_BASE_URL") or "").hostname or DEFAULT_WANDB_HOST
    path = env.get("NETRC") or os.path.join(os.path.expanduser("~"), ".netrc")
    try:
        auth = netrc.netrc(path).authenticators(host)
    except (OSError, netrc.NetrcParseError, UnicodeDecodeError):
        return None
    return auth[2] if auth and auth[2] else None


def env_secrets(env: Mapping[str, str], user_names: Iterable[str] = (),
                project_names: Iterable[str] = ()) -> list[Secret]:
    """The secrets in ``env``: named outright (any value of 6+ characters), or by their name's words and the look of
    their value."""
    outright = set(OWN_SECRET_ENV) | set(user_names)
    by_look = set(project_names)
    found = []
    for name, value in env.items():
        if not isinstance(value, str):
            continue
        v = value.strip()
        if name in outright and len(v) >= MIN_NAMED:
            found.append(Secret(v, name))
        elif (name in by_look or secret_name(name)) and looks_secret(v):
            found.append(Secret(v, name))
    return found


def _snapshot() -> object:
    data = getattr(os.environ, "_data", None)  # the bytes behind os.environ: a cheap exact snapshot
    return tuple(data.items()) if isinstance(data, dict) else tuple(os.environ.items())


def current() -> Redactor:
    """The redactor for this process now: built once per environment (and again when a config or a learnt value
    adds a secret)."""
    global _cache
    key = (_snapshot(), _known.generation)
    cached = _cache
    if cached is not None and cached[0] == key:
        return cached[1]
    with _lock:
        env = dict(os.environ)
        secrets = env_secrets(env, _known.user_names, _known.project_names)
        secrets += [Secret(v, n) for v, n in _known.values.items()]
        wandb = netrc_secret(env, _known.wandb_base_url)
        if wandb and len(wandb) >= MIN_NAMED:
            secrets.append(Secret(wandb, "netrc:wandb"))
        redactor = Redactor(secrets)
        _cache = (key, redactor)
    return redactor


def redact(text: object, extra: Mapping[str, str | None] | None = None) -> str:
    """``text`` with every secret this process knows (and each ``extra`` {name: value}) replaced by
    ``[redacted NAME]``, and URL passwords by ``[redacted]``."""
    s = text if isinstance(text, str) else str(text)
    redactor = current()
    if extra:
        more = [Secret(v.strip(), n) for n, v in extra.items() if v and len(v.strip()) >= MIN_NAMED]
        if more:
            redactor = Redactor([*redactor.secrets, *more])
    return redactor(s)


def redact_tree(value: Any) -> Any:
    """Every string (and key) in a JSON-like value redacted; numbers and the structure as they were."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {redact_tree(k): redact_tree(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [redact_tree(v) for v in value]
    return value


def redact_json(text: str) -> str:
    """A JSON document redacted as text (which also reaches what ``default=str`` made of objects); in the odd case
    where a secret holding quotes matched across strings, its strings redacted one by one."""
    out = current().json(text)
    if out is text or out == text:
        return text
    try:
        json.loads(out)
        return out
    except ValueError:
        pass
    try:
        value = json.loads(text)
    except ValueError:  # not JSON in the first place: redacted as text
        return out
    return json.dumps(redact_tree(value), separators=(",", ":"), ensure_ascii=False, allow_nan=True)


# -- credential shapes, for an agent's words on the way to the reviewer -----------------------------------------------
# every pattern is linear (no nested quantifiers), and applied to capped text
_SECRET_SHAPES = [
    re.compile(r"-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY-----[\s\S]{0,8000}?(?:-----END [A-Z0-9 ]{0,40}PRIVATE "
               r"KEY-----|$)"),
    re.compile(r"(?<![A-Za-z0-9])(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{22,255})"),
    re.compile(r"(?<![A-Za-z0-9])(?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}(?![0-9A-Z])"),
    re.compile(r"(?<![A-Za-z0-9])(?:sk-(?:ant-|proj-)?[A-Za-z0-9_\-]{20,}|hf_[A-Za-z0-9]{30,}|"
               r"xox[abposr]-[A-Za-z0-9\-]{10,}|wandb_v1_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_\-]{20,})"),
    re.compile(r"(?<![A-Za-z0-9])[0-9a-f]{40}(?![A-Za-z0-9])"),  # a W&B API key (40 hex digits)
    # a JWT, starting only where no token character comes before ("eyJeyJ..." would otherwise be tried at each eyJ)
    re.compile(r"(?<![A-Za-z0-9_\-])eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"),
]
# key = value pairs whose value is a secret: the value hidden, the key kept (a value already redacted stays as it is)
_SECRET_PAIR = re.compile(r"(?i)((?:password|passwd|pwd|secret|token|api[_\-]?key|access[_\-]?key|secret[_\-]access"
                          r"[_\-]key|auth)[\"']?\s{0,3}[=:]\s{0,3})(?!\[redacted)"
                          r"(\"[^\"\n]{0,500}\"|'[^'\n]{0,500}'|[^\s,;&\"']{1,500})")


def hide_secrets(text: object) -> str:
    """``redact`` plus every credential-shaped token hidden (keys by their shape, ``password=...`` values), wherever
    in the text it is."""
    out = redact(text)
    for shape in _SECRET_SHAPES:
        out = shape.sub(REDACTED, out)
    return _SECRET_PAIR.sub(lambda m: m.group(1) + REDACTED, out)


# -- logs -------------------------------------------------------------------------------------------------------------
def redact_log_records() -> None:
    """Every log record of this process redacted where it is made (its message, its traceback), whichever handler
    shows it later (stderr, a file, a test's capture)."""
    previous = logging.getLogRecordFactory()
    if getattr(previous, "redacting", False):
        return

    def factory(*args, **kwargs) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        try:
            message = record.getMessage()
        except Exception:  # a malformed %-format: shown as logging shows it
            return record
        safe = redact(message)
        if safe != message:  # only then: a formatter that reads record.args (uvicorn's) keeps them otherwise
            record.msg, record.args = safe, None
        if record.exc_info:
            trace = logging.Formatter().formatException(record.exc_info)
            if redact(trace) != trace:
                record.exc_text, record.exc_info = redact(trace), None
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return record

    factory.redacting = True  # type: ignore[attr-defined]
    logging.setLogRecordFactory(factory)


class RedactingStream:
    """A text stream (stdout, stderr) whose every write is redacted first; the rest is the stream's own."""

    def __init__(self, stream):
        self.unredacted = stream

    def write(self, text: str) -> int:
        self.unredacted.write(redact(text))
        return len(text)

    def __getattr__(self, name: str):
        return getattr(self.unredacted, name)
