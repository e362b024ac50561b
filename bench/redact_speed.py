"""What redaction costs (tools/redact.py): throughput on ordinary and hostile text, and the cost of one call.

Plants the eight credentials of tests/test_security_redact_env.py plus ordinary variables whose names look secret,
then times ``redact`` (and ``redact_json``) on 8 MB texts: clean run text, text dense with secrets, every hostile
shape the URL-password pass sees, and a 20 KB MCP message. Linear means the MB/s figures stay flat as the text grows
(the 2 MB and 8 MB columns; clean text costs one ``str.find`` per value, so its rate is the memory's once the text
no longer fits in the cache).

    .venv/bin/python bench/redact_speed.py
"""

from __future__ import annotations

import json
import os
import time

PLANTED = {
    "OPENAI_API_KEY": "sk-planted-OPENAI-7c1e9a2b4d6f8035aa", "WANDB_API_KEY": "plantedWANDB5a3c1e9b7d5a3c1e9b7dabcd",
    "HF_TOKEN": "hf_plantedHFtoken9a8b7c6d5e4f3a2b1c", "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/K7MDENG/bPxRfiCY9pl",
    "GITHUB_TOKEN": "ghp_planted0123456789abcdefghijklmnopqrs", "MY_DB_PASSWORD": "hunter2-Pa55word-planted",
    "AWS_SESSION_TOKEN": "FwoGZXIvYXdzEJr//////////wEaDPlanted7Xq+b/cSession2", "COMET_API_KEY": "c0met9f8e7d6c5b4",
    "KEYBOARD_LAYOUT": "us", "SESSION_MANAGER": "local/host:@/tmp/.ICE-unix/1", "PASS_COUNT": "3",
}


def texts(size: int) -> dict[str, str]:
    line = "step=1200 loss=2.3456 lr=0.0003 grad_norm=1.02 tokens/s=51234 eval/acc=0.612\n"
    dense = " ".join(PLANTED.values()) + " "
    return {
        "run log, no secret": (line * (size // len(line) + 1))[:size],
        "a secret every 40 chars": (dense * (size // len(dense) + 1))[:size],
        "'a://' repeated": ("a://" * (size // 4 + 1))[:size],
        "'a://b:c@' repeated (all URL passwords)": ("a://b:c@" * (size // 8 + 1))[:size],
        "'a://b:' + one long password": "a://b:" + "c" * size,
    }


def rate(fn, text: str, repeats: int = 3) -> float:
    """MB/s, the best of ``repeats`` (the machine is shared: the best is the least disturbed)."""
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        fn(text)
        best = min(best, time.perf_counter() - t)
    return len(text) / best / 1e6


def main() -> None:
    os.environ.update(PLANTED)
    from training_check.tools.redact import current, redact, redact_json

    print(f"secrets found: {', '.join(sorted(s.name for s in current().secrets))}")
    small, big = texts(2 << 20), texts(8 << 20)
    print(f"{'text':42s} {'2 MB':>9s} {'8 MB':>9s}  (MB/s)")
    for name in small:
        print(f"{name:42s} {rate(redact, small[name]):9.1f} {rate(redact, big[name]):9.1f}")
    message = json.dumps({"result": {"structuredContent": {"summary": "x" * 100, "findings": [
        {"message": f"loss spike {i}", "steps": [i, i + 10]} for i in range(400)]}}})
    n = 200
    t = time.perf_counter()
    for _ in range(n):
        redact_json(message)
    per_msg = (time.perf_counter() - t) / n * 1e3
    t = time.perf_counter()
    for _ in range(10_000):
        redact("short error line")
    per_call = (time.perf_counter() - t) / 10_000 * 1e6
    print(f"one {len(message) // 1024} KB MCP message: {per_msg:.2f} ms; one short string: {per_call:.1f} us "
          f"(the environment snapshot compared, the redactor reused)")


if __name__ == "__main__":
    main()
