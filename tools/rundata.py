"""Text the run wrote (metric names, run names, config values, log excerpts) made safe to show, and secrets hidden.

A run's text is written by whoever controls the run: it may hold control characters (terminal escapes, fake
newlines and fences), be huge, or be phrased as instructions. ``clean`` makes such a string one printable line of
bounded length (control characters shown as ``\\xNN`` escapes, so nothing is silently merged); ``run_data`` marks a
value as run data for an answer. ``redact`` removes every known secret value (the API keys and passphrases in the
environment) from a message; every error message and every piece of evidence goes through it. ``hide_secrets`` also
hides text SHAPED like a credential whatever field it came in (W&B, AWS, GitHub, OpenAI/Anthropic, Hugging Face,
Slack keys, JWTs, private key blocks, ``password=...`` pairs, a password in a URL): what the agent passes on to the
reviewer goes through it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping

SECRET_ENV = ("OPENAI_API_KEY", "WANDB_API_KEY", "ANTHROPIC_API_KEY", "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN",
              "SSH_PASSPHRASE", "SSH_KEY_PASSPHRASE", "TRAINING_CHECK_SSH_PASSPHRASE", "TRAINING_CHECK_HTTP_TOKEN",
              "GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "MLFLOW_TRACKING_TOKEN", "MLFLOW_TRACKING_PASSWORD")
MIN_SECRET = 6  # shorter values would redact ordinary words
REDACTED = "[redacted]"
NAME_CAP = 200  # metric / run names
TEXT_CAP = 2000  # config values, log excerpts
# C0/C1 controls, DEL, and the Unicode format characters that reorder or hide text (bidi overrides, zero width)
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")
_extra_secrets: set[str] = set()


def remember_secret(value: str | None) -> None:
    """Treat ``value`` as a secret from now on (e.g. a key read from ~/.netrc or a generated token)."""
    if value and len(value) >= MIN_SECRET:
        _extra_secrets.add(value)


def known_secrets(env: Mapping[str, str] | None = None) -> list[str]:
    source: Mapping[str, str] = os.environ if env is None else env
    found = {source[v] for v in SECRET_ENV if source.get(v) and len(source[v]) >= MIN_SECRET} | _extra_secrets
    return sorted(found, key=len, reverse=True)  # longest first: a key containing another is hidden whole


def redact(text: object, extra: Iterable[str | None] = ()) -> str:
    """``text`` with every known secret value (and each of ``extra``) replaced by [redacted]."""
    out = str(text)
    for secret in [*known_secrets(), *(e for e in extra if e and len(e) >= MIN_SECRET)]:
        if secret in out:
            out = out.replace(secret, REDACTED)
    return out


# credential shapes: every pattern is linear (no nested quantifiers), and applied to capped text
_SECRET_SHAPES = [
    re.compile(r"-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY-----[\s\S]{0,8000}?(?:-----END [A-Z0-9 ]{0,40}PRIVATE "
               r"KEY-----|$)"),
    re.compile(r"(?<![A-Za-z0-9])(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{22,255})"),
    re.compile(r"(?<![A-Za-z0-9])(?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}(?![0-9A-Z])"),
    re.compile(r"(?<![A-Za-z0-9])(?:sk-(?:ant-|proj-)?[A-Za-z0-9_\-]{20,}|hf_[A-Za-z0-9]{30,}|"
               r"xox[abposr]-[A-Za-z0-9\-]{10,}|wandb_v1_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_\-]{20,})"),
    re.compile(r"(?<![A-Za-z0-9])[0-9a-f]{40}(?![A-Za-z0-9])"),  # a W&B API key (40 hex digits)
    re.compile(r"eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"),  # a JWT
]
# key = value pairs whose value is a secret, and user:password@ in a URL: the value hidden, the key kept
_SECRET_PAIR = re.compile(r"(?i)((?:password|passwd|pwd|secret|token|api[_\-]?key|access[_\-]?key|secret[_\-]access"
                          r"[_\-]key|auth)[\"']?\s{0,3}[=:]\s{0,3})(\"[^\"\n]{0,500}\"|'[^'\n]{0,500}'|[^\s,;&\"']{1,500})")
_URL_PASSWORD = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]{0,20}://[^\s:/@]{0,200}:)[^\s@/]{1,200}@")


def hide_secrets(text: object) -> str:
    """``redact`` plus every credential-shaped token hidden (keys by their shape, ``password=...`` values, the
    password of ``scheme://user:password@host``), wherever in the text it is."""
    out = redact(text)
    for shape in _SECRET_SHAPES:
        out = shape.sub(REDACTED, out)
    out = _SECRET_PAIR.sub(lambda m: m.group(1) + REDACTED, out)
    return _URL_PASSWORD.sub(lambda m: m.group(1) + REDACTED + "@", out)


def _escape(m: re.Match) -> str:
    c = m.group(0)
    return f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}"


def escape_controls(text: str) -> str:
    """Control and invisible formatting characters shown as escapes (``\\x1b``, ``\\n``, ``\\u202e``)."""
    return _CONTROL.sub(_escape, text)


def clean(value: object, cap: int = NAME_CAP) -> str:
    """One printable line of at most ``cap`` characters (plus a note of how much was cut)."""
    text = escape_controls(str(value))
    if len(text) > cap:
        text = text[:cap] + f"...[{len(text) - cap} chars cut]"
    return text


_KEY_LIKE = re.compile(r"[A-Za-z0-9_\-+/.]{20,}=*")
EXCERPT_CAP = 160


def safe_excerpt(line: str, cap: int = EXCERPT_CAP) -> str:
    """A line of the run's text fit to show as run data: known secrets redacted, long key-like tokens (API keys,
    tokens, hashes: 20+ characters with letters and digits) masked, control characters escaped, length capped."""
    def mask(m: re.Match) -> str:
        tok = m.group(0)
        return "[hidden]" if any(c.isdigit() for c in tok) and any(c.isalpha() for c in tok) else tok

    return clean(_KEY_LIKE.sub(mask, redact(line)), cap)


def escape_for_terminal(text: str) -> str:
    """What the CLI prints: newlines and tabs kept (its own layout), every other control character escaped."""
    return "\n".join("\t".join(escape_controls(p) for p in line.split("\t")) for line in str(text).split("\n"))


# -- metric names: plain ones pass, anything else travels as run data under a neutral alias ------------------------
PLAIN_NAME_MAX = 64
_PLAIN = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_ ./:@%+\-()\[\]=#,|]*$")
_WORDS = re.compile(r"[A-Za-z0-9_]+")
# words an instruction to the agent needs and a metric name does not (whole words; underscores join words)
_STEERING = {"ignore", "instruction", "instructions", "previous", "system", "assistant", "user", "prompt", "tool",
             "tools", "call", "stop_run", "assess_run", "escalate_to_reviewer", "reschedule", "read_metrics",
             "force", "pid", "kill", "must", "please", "now", "execute", "run_command", "bash", "shell"}


def is_plain_name(name: str) -> bool:
    """A name that reads as a metric name (``train/loss``, ``lm loss``, ``val_acc@1``), not as text to an agent."""
    if not isinstance(name, str) or not name or len(name) > PLAIN_NAME_MAX or not _PLAIN.match(name):
        return False
    if name.count(" ") > 2 or ": " in name:
        return False
    return not any(w.lower() in _STEERING for w in _WORDS.findall(name))


def alias_names(names, roles) -> dict[str, str]:
    """{name the run wrote: ``<role>_metric_<n>``} for every metric name that is not plain."""
    names = list(names)
    taken = set(names)
    renamed: dict[str, str] = {}
    for i, name in enumerate(names, 1):
        if is_plain_name(name):
            continue
        role = roles[name].role if name in roles else "other"
        alias = f"{role}_metric_{i}"
        while alias in taken:
            alias += "_"
        taken.add(alias)
        renamed[name] = alias
    return renamed


def rename_keys(mapping: dict, renamed: dict[str, str]) -> dict:
    return {renamed.get(k, k): v for k, v in mapping.items()}


def mark_names(frame):
    """``frame`` with every metric name that is not plain replaced by ``<role>_metric_<n>`` (series, roles, history
    and raw points alike), and {alias: the name, cleaned}: summaries and concerns then name the metric by its alias
    and role; the name itself is run data. Also returns {name: alias} to rename raw points read later."""
    renamed = alias_names(frame.series, frame.roles)
    if not renamed:
        return frame, {}, {}
    aliases = {alias: clean(name) for name, alias in renamed.items()}
    raw = frame.raw
    if raw is not None:
        raw = type(raw)(rename_keys(raw.columns, renamed))
    out = type(frame)(rename_keys(frame.series, renamed), rename_keys(frame.roles, renamed),
                      rename_keys(frame.history, renamed), raw)
    return out, aliases, renamed


def clean_tree(value, cap: int = TEXT_CAP, depth: int = 0):
    """Every string in a JSON-like value cleaned (keys capped to NAME_CAP); deep or huge structures cut."""
    if isinstance(value, str):
        return clean(value, cap)
    if depth > 6:
        return "[nested too deep]"
    if isinstance(value, dict):
        items = list(value.items())
        out = {clean(k, NAME_CAP): clean_tree(v, cap, depth + 1) for k, v in items[:200]}
        if len(items) > 200:
            out["[more]"] = f"{len(items) - 200} more entries left out"
        return out
    if isinstance(value, (list, tuple)):
        out_list = [clean_tree(v, cap, depth + 1) for v in value[:200]]
        if len(value) > 200:
            out_list.append(f"[{len(value) - 200} more items left out]")
        return out_list
    return value
