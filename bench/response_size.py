"""Response-size bench: how many bytes the default ``read_metrics`` and ``assess_run`` answers put into an agent's
context for runs of 1k, 100k and 1M steps with six metrics (train loss, lr, grad norm, an eval loss, throughput,
loss scale), as an MCP client receives them over stdio, and as the domain's ``to_dict()`` gives them.

    .venv/bin/python bench/response_size.py [--steps 1000,100000,1000000] [--keep DIR]

The runs are llm.c-style logs (``s:N trl:X lr:L norm:G throughput:T loss_scale:S`` and ``s:N tel:X``) written with
numpy into a temp dir. Each tool is called with its defaults (only ``run``) through the real server
(``training-check serve`` driven by the SDK's client, tests/mcp_client.py). Figures: bytes of
``json.dumps(structured_content)``, bytes of the text content block, and the domain ``to_dict()`` JSON; the targets
are read_metrics < 8 KB and assess_run < 2 KB.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import anyio
import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.mcp_client import mcp_session  # noqa: E402

TARGET_BYTES = {"read_metrics": 8192, "assess_run": 2048}
DEFAULT_STEPS = (1_000, 100_000, 1_000_000)


def eval_every_for(steps: int, every: int = 1000) -> int:
    """An eval every ``every`` steps, but at least ten evals on a short run."""
    return max(1, min(every, steps // 10))


def run_arrays(steps: int, seed: int = 0, start: int = 0, total: int | None = None) -> dict[str, np.ndarray]:
    """Healthy metrics for steps ``start .. start+steps-1`` of a run of ``total`` steps: power-law loss with noise,
    warmup + cosine LR, grad norm, throughput, a loss scale that halves now and then."""
    total = total or start + steps
    rng = np.random.default_rng(seed + start)
    s = np.arange(start, start + steps, dtype=np.int64)
    base = 2.8 + 8.0 * (s + 10.0) ** -0.3
    loss = base * (1 + 0.02 * rng.standard_normal(steps))
    warm = max(1, total // 100)
    lr = np.where(s < warm, 6e-4 * (s + 1) / warm, 6e-5 + 0.5 * (6e-4 - 6e-5) * (1 + np.cos(np.pi * np.clip(
        (s - warm) / max(1, total - warm), 0, 1))))
    norm = 0.3 + 0.7 * np.exp(-s / (0.05 * total + 1)) + 0.05 * np.abs(rng.standard_normal(steps))
    tput = 1.25e5 * (1 + 0.01 * rng.standard_normal(steps))
    scale = 2.0 ** (16 - (s // max(1, total // 7)) % 3)
    return {"step": s, "loss": loss, "lr": lr, "norm": norm, "tput": tput, "scale": scale, "base": base}


def log_text(arr: dict[str, np.ndarray], eval_every: int, seed: int = 0) -> str:
    """The llm.c-style lines for these arrays (an eval line after every ``eval_every``-th step)."""
    rng = np.random.default_rng(seed + 7 + int(arr["step"][0]))
    out: list[str] = []
    add = out.append
    for s, loss, lr, g, t, sc, b in zip(arr["step"].tolist(), arr["loss"].tolist(), arr["lr"].tolist(),
                                         arr["norm"].tolist(), arr["tput"].tolist(), arr["scale"].tolist(),
                                         arr["base"].tolist(), strict=True):  # one value per step in each
        add(f"s:{s} trl:{loss:.4f} lr:{lr:.4e} norm:{g:.4f} throughput:{t:.0f} loss_scale:{sc:.0f}\n")
        if s % eval_every == 0 and s:
            add(f"s:{s} tel:{b + 0.05 + 0.005 * rng.standard_normal():.4f}\n")
    return "".join(out)


def write_run(path: Path, steps: int, seed: int = 0) -> Path:
    """Write a healthy ``steps``-step run log to ``path``."""
    path.write_text(log_text(run_arrays(steps, seed), eval_every_for(steps), seed))
    return path


def content_sizes(res) -> tuple[int, int]:
    """(bytes of json.dumps(structured_content), bytes of the text content) of a CallToolResult."""
    assert not res.is_error, " ".join(getattr(c, "text", "") for c in res.content)[:300]
    text = "".join(getattr(c, "text", "") for c in res.content)
    return len(json.dumps(res.structured_content).encode()), len(text.encode())


async def over_mcp(logs: dict[int, Path], home: Path) -> dict[int, dict]:
    """Default read_metrics and assess_run of each log through one stdio server; sizes and wall times."""
    out: dict[int, dict] = {}
    async with mcp_session(home) as s:
        for steps, path in logs.items():
            row: dict = {}
            t = time.perf_counter()
            rm = await s.call("read_metrics", {"run": str(path)})
            row["rm_first_s"] = time.perf_counter() - t
            row["rm_struct"], row["rm_text"] = content_sizes(rm)
            t = time.perf_counter()
            a = await s.call("assess_run", {"run": str(path)})
            row["as_s"] = time.perf_counter() - t
            row["as_struct"], row["as_text"] = content_sizes(a)
            row["verdict"] = a.structured_content.get("verdict")
            row["n_metrics"] = len(rm.structured_content.get("metrics", []))
            row["series_pts"] = sum(len(m.get("series", [])) for m in rm.structured_content.get("metrics", []))
            out[steps] = row
    return out


def in_domain(logs: dict[int, Path], home: Path) -> dict[int, dict]:
    """The same two calls in-process: bytes of json.dumps(result.to_dict())."""
    os.environ["TRAINING_CHECK_HOME"] = str(home)
    from training_check.tools.assess import assess_run
    from training_check.tools.config import load_config
    from training_check.tools.read_metrics import read_metrics
    from training_check.tools.store import Store

    config = load_config(cwd=home)
    store = Store(config.store_path)
    out: dict[int, dict] = {}
    for steps, path in logs.items():
        rm = read_metrics(str(path), store=store, config=config).to_dict()
        a = assess_run(str(path), store=store, config=config).to_dict()
        out[steps] = {"rm": len(json.dumps(rm).encode()), "as": len(json.dumps(a).encode())}
    return out


def mark(n: int, tool: str) -> str:
    return "ok" if n < TARGET_BYTES[tool] else "OVER"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", default=",".join(map(str, DEFAULT_STEPS)), help="comma-separated run lengths")
    ap.add_argument("--keep", type=Path, default=None, help="write the logs and stores here and keep them")
    args = ap.parse_args(argv)
    sizes = [int(x) for x in args.steps.split(",") if x.strip()]
    root = args.keep or Path(tempfile.mkdtemp(prefix="tc-respsize-"))
    root.mkdir(parents=True, exist_ok=True)
    try:
        logs: dict[int, Path] = {}
        for n in sizes:
            t = time.perf_counter()
            logs[n] = write_run(root / f"run_{n}.log", n)
            print(f"wrote {logs[n].name}: {logs[n].stat().st_size / 1e6:.1f} MB in {time.perf_counter() - t:.1f}s",
                  flush=True)
        (root / "mcp" / "home").mkdir(parents=True, exist_ok=True)
        mcp = anyio.run(over_mcp, logs, root / "mcp" / "home")
        dom = in_domain(logs, root / "domain" / "home")

        print()
        print("six metrics per run (train loss, lr, grad norm, eval loss, throughput, loss scale); default arguments")
        print(f"targets: read_metrics < {TARGET_BYTES['read_metrics']} B, assess_run < {TARGET_BYTES['assess_run']} B")
        print()
        hdr = (f"{'steps':>9} | {'tool':<12} | {'structured B':>12} | {'text B':>7} | {'to_dict B':>9} | "
               f"{'target':>6} | {'wall s':>6} | note")
        print(hdr)
        print("-" * len(hdr))
        for n in sizes:
            r, d = mcp[n], dom[n]
            print(f"{n:>9} | {'read_metrics':<12} | {r['rm_struct']:>12} | {r['rm_text']:>7} | {d['rm']:>9} | "
                  f"{mark(max(r['rm_struct'], r['rm_text']), 'read_metrics'):>6} | {r['rm_first_s']:>6.2f} | "
                  f"first read; {r['n_metrics']} metrics, {r['series_pts']} series points")
            print(f"{n:>9} | {'assess_run':<12} | {r['as_struct']:>12} | {r['as_text']:>7} | {d['as']:>9} | "
                  f"{mark(max(r['as_struct'], r['as_text']), 'assess_run'):>6} | {r['as_s']:>6.2f} | "
                  f"verdict {r['verdict']} (cached points)")
        print()
        print("structured B = len(json.dumps(structured_content)) as the client receives it; text B = the text "
              "content block; to_dict B = json.dumps(result.to_dict()) in-process (nulls kept, default separators)")
    finally:
        if args.keep is None:
            shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
