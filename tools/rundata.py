"""Text the run wrote (metric names, run names, config values, log excerpts) made safe to show.

A run's text is written by whoever controls the run: it may hold control characters (terminal escapes, fake
newlines and fences), be huge, or be phrased as instructions. ``clean`` makes such a string one printable line of
bounded length (control characters shown as ``\\xNN`` escapes, so nothing is silently merged); ``run_data`` marks a
value as run data for an answer; ``safe_excerpt`` also redacts secrets (``tools/redact.py``, which holds every
secret rule) and masks key-like tokens in a line of the run's text.
"""

from __future__ import annotations

import re

from .redact import redact

NAME_CAP = 200  # metric / run names
TEXT_CAP = 2000  # config values, log excerpts
# C0/C1 controls, DEL, and the Unicode format characters that reorder or hide text (bidi overrides, zero width)
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")


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
    # a separator spaced out (skrl's `Reward / Total reward (mean)`) is one separator, not two words
    if name.replace(" / ", "/").count(" ") > 2 or ": " in name:
        return False
    return not any(w.lower() in _STEERING for w in _WORDS.findall(name))


def steers(text: str) -> bool:
    """Whether run text holds a word an instruction to the agent needs (``_STEERING``): shown only as run data."""
    return any(w.lower() in _STEERING for w in _WORDS.findall(text))


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
