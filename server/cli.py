"""The ``training-check`` command: the MCP server, and the same operations for people in a terminal.

Exit codes of ``check`` (and ``sweep`` and ``watch --once``, for the worst run) say the verdict, also when stdout
is a pipe its reader closed early (``check RUN | head -1``)::

    0 CONTINUE   1 ESCALATE   2 STOP   3 WAIT   4 UNREACHABLE
    64 usage error or bad input (bad run reference, missing file, unknown format)
    70 any other failure (store, reviewer, ...)

Other commands exit 0 on success, 64 on bad input, 4 when a source is unreachable, 70 otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..tools.errors import BadInput, RunNotFound, SourceUnreachable, TrainingCheckError, UnknownFormat
from ..tools.redact import RedactingStream, redact, redact_log_records
from ..tools.rundata import escape_for_terminal

VERDICT_EXIT = {"CONTINUE": 0, "ESCALATE": 1, "STOP": 2, "WAIT": 3, "UNREACHABLE": 4}
EXIT_USAGE = 64
EXIT_UNREACHABLE = 4
EXIT_FAILURE = 70
DEFAULT_HTTP_PORT = 8765


class UsageError(Exception):
    """argparse's complaint, raised instead of exiting so main() can return 64."""


class Parser(argparse.ArgumentParser):
    def error(self, message: str):  # noqa: D401 - argparse API
        raise UsageError(f"{self.prog}: {message} (see {self.prog} --help)")


class PipeSafe:
    """stdout that outlives its reader: ``training-check check RUN | head -1`` closes the pipe early, and the exit
    code must still be the verdict. The first write that finds the reader gone points the file descriptor at
    /dev/null (so the interpreter's last flush cannot fail either), and later writes are dropped. Every write is
    redacted first (``tools/redact.py``): the one place the CLI's answers leave."""

    def __init__(self, stream):
        self.stream = stream
        self.reader_gone = False

    def write(self, text: str) -> int:
        if not self.reader_gone:
            try:
                self.stream.write(redact(text))
            except BrokenPipeError:
                self._gone()
        return len(text)

    def flush(self) -> None:
        if not self.reader_gone:
            try:
                self.stream.flush()
            except BrokenPipeError:
                self._gone()

    def _gone(self) -> None:
        self.reader_gone = True
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self.stream.fileno())
            os.close(devnull)
        except (OSError, ValueError, AttributeError):  # no file descriptor (a test's StringIO): nothing to flush
            pass

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


# -- small helpers -----------------------------------------------------------------------------------------------
def _ctx():
    from ..tools.config import load_config
    from ..tools.store import Store

    config = load_config()
    return config, Store(config.store_path)


def _as_dict(result: Any) -> dict:
    from .shaping import result_dict

    return result_dict(result)


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.4g}"
    if v is None:
        return "-"
    return str(v)


def _print_json(obj: Any, out=None) -> None:
    out = out or sys.stdout
    out.write(json.dumps(obj, indent=1, default=str) + "\n")


def _show(result: Any, as_json: bool, render: Callable[[dict], str]) -> dict:
    """Print a domain result as JSON or as ``render``'s text; returns its dict."""
    d = _as_dict(result)
    clear_progress()
    print(json.dumps(d, indent=1, default=str) if as_json else escape_for_terminal(render(d)))
    return d


def _summary_text(d: dict) -> str:
    return d.get("summary") or json.dumps(d, default=str)


PROGRESS_AFTER_S = 2.0  # a read shorter than this shows no progress line
_PROGRESS_SHOWN: list = []  # the streams with a progress line on screen now (cleared before an error or Ctrl-C)


def clear_progress() -> None:
    """Erase a progress line still on the terminal (a read cut short by an error or Ctrl-C)."""
    while _PROGRESS_SHOWN:
        stream = _PROGRESS_SHOWN.pop()
        try:
            stream.write("\r\x1b[2K")
            stream.flush()
        except OSError:
            pass


def terminal_progress(label: str, stream=None, min_interval_s: float = 0.2, after_s: float = PROGRESS_AFTER_S,
                      clock: Callable[[], float] = time.monotonic) -> Callable[[float, float | None, str], None] | None:
    """A one-line progress display on stderr for reads that last longer than ``after_s`` (counted from now), only
    when stderr is a terminal: a pipe or a file (cron, CI, ``2> log``) gets no carriage-return noise."""
    stream = stream or sys.stderr
    if not getattr(stream, "isatty", lambda: False)():
        return None
    started = clock()
    last = [0.0]
    shown = [False]

    def progress(done: float, total: float | None = None, message: str = "") -> None:
        now = clock()
        final = total is not None and done >= total
        if now - started < after_s and not shown[0]:
            return  # a short read: no display at all
        if not final and now - last[0] < min_interval_s:
            return
        last[0] = now
        shown[0] = True
        pct = f"{100.0 * done / total:5.1f}%" if total else f"{done:,.0f}"
        stream.write(f"\r\x1b[2K{label}: {pct} {message}"[:200])
        if stream not in _PROGRESS_SHOWN:
            _PROGRESS_SHOWN.append(stream)
        if final:
            stream.write("\r\x1b[2K")
            _PROGRESS_SHOWN.remove(stream)
        stream.flush()

    return progress


def _baseline(value: str | None) -> Any:
    """--baseline: inline JSON, a path to a JSON file, or plain text."""
    if value is None:
        return None
    v = value.strip()
    if v.startswith(("{", "[")):
        try:
            return json.loads(v)
        except json.JSONDecodeError as e:
            raise BadInput(f"--baseline is not valid JSON ({e.msg} at {e.pos}); pass JSON, a .json file or "
                           f"text") from None
    p = Path(v).expanduser()
    if p.suffix == ".json" and p.is_file():
        try:
            return json.loads(p.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as e:
            raise BadInput(f"cannot read baseline file {p}: {e}") from None
    return v


# -- commands ----------------------------------------------------------------------------------------------------
def cmd_serve(args) -> int:
    if not args.http:
        from .stdio_front import serve_stdio

        return serve_stdio()
    from .app import create_server

    server = create_server()
    from ..tools.config import home_dir
    from .http_auth import serve_http

    serve_http(server, args.host, args.port, home_dir(), no_auth=args.no_auth)  # bearer token (http_auth.py)
    return 0


def render_metrics(d: dict) -> str:
    """A human table of a read_metrics answer."""
    lines = []
    src = d.get("source") or {}
    lines.append(f"run: {d.get('run')}   source: {src.get('description') or src.get('kind') or '-'}")
    if d.get("fallback_reason"):
        lines.append(f"fell back to the log because: {d['fallback_reason']}")
    info = d.get("info") or {}
    if info:
        bits = [f"{k}={info[k]}" for k in ("name", "state", "url", "total_steps") if info.get(k)]
        if bits:
            lines.append("info: " + "  ".join(bits))
    if d.get("last_step") is None:
        lines.append(f"steps: none read yet ({_fmt(d.get('new_points'))} new points)")
    else:
        lines.append(f"steps: {_fmt(d.get('first_step'))}..{_fmt(d.get('last_step'))} ({_fmt(d.get('n_steps'))} "
                     f"steps, {_fmt(d.get('new_points'))} new points)")
    header = ("metric", "role", "last", "at step", "min", "max", "recent mean", "nan/inf")
    rows = [header]
    for m in d.get("metrics") or []:
        rows.append((str(m.get("name")), str(m.get("role") or "-"), _fmt(m.get("last")), _fmt(m.get("last_step")),
                     _fmt(m.get("min")), _fmt(m.get("max")), _fmt(m.get("recent_mean")),
                     f"{m.get('nan_count', 0)}/{m.get('inf_count', 0)}"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    for i, r in enumerate(rows):
        lines.append("  ".join(c.ljust(w) if j < 2 else c.rjust(w)
                               for j, (c, w) in enumerate(zip(r, widths, strict=True))).rstrip())
        if i == 0:
            lines.append("  ".join("-" * w for w in widths))
    for n in d.get("notes") or []:
        lines.append(f"note: {n}")
    if d.get("summary"):
        lines.append(d["summary"])
    return "\n".join(lines)


def cmd_read(args) -> int:
    from ..tools.read_metrics import read_metrics

    config, store = _ctx()
    keys = [k for part in (args.keys or []) for k in part.split(",") if k] or None
    report = read_metrics(args.run, store=store, config=config, fallback_log=args.fallback_log, keys=keys,
                          since_step=args.since_step, max_points=args.max_points, loss_metric=args.loss_metric,
                          progress=terminal_progress(f"reading {args.run}"))
    _show(report, args.json, render_metrics)
    return 0


def render_assessment(d: dict) -> str:
    lines = [f"{d.get('verdict')}  {d.get('run') or d.get('run_key') or ''}".rstrip()]
    if d.get("fallback_reason"):
        lines.append(f"read the fallback log because: {d['fallback_reason']}")
    if d.get("summary"):
        lines.append(d["summary"])
    for f in d.get("findings") or []:
        if isinstance(f, dict):
            lines.append(f"  [{f.get('status', '?'):>8}] {f.get('signal', '?')}: {f.get('message', '')}")
    dx = d.get("diagnosis")
    if isinstance(dx, dict) and dx.get("cause"):
        lines.append(f"probable cause: {dx['cause']} (confidence {float(dx.get('confidence') or 0):.0%})")
        lines.extend(f"  event  {e}" for e in dx.get("events") or [])
        lines.extend(f"  relaunch with: {a}" for a in dx.get("actions") or [])
    for note in d.get("notes") or []:
        lines.append(f"note: {note}")
    if d.get("assessment_id"):
        lines.append(f"assessment_id: {d['assessment_id']}")
    return "\n".join(lines)


def cmd_check(args) -> int:
    from ..tools.assess import assess_run

    config, store = _ctx()
    a = assess_run(args.run, store=store, config=config, fallback_log=args.fallback_log,
                   baseline=_baseline(args.baseline), total_steps=args.total_steps, as_of_step=args.as_of_step,
                   loss_metric=args.loss_metric, progress=terminal_progress(f"reading {args.run}"))
    d = _show(a, args.json, render_assessment)
    return VERDICT_EXIT.get(str(d.get("verdict")), EXIT_FAILURE)


def cmd_sweep(args) -> int:
    from ..tools.assess_runs import assess_runs

    config, store = _ctx()
    if not args.runs and not args.project:
        raise BadInput("sweep needs runs or --project entity/project")
    rep = assess_runs(args.runs or None, args.project, store=store, config=config,
                      max_concurrency=args.max_concurrency, state=None if args.state == "any" else args.state,
                      progress=terminal_progress("checking runs"), answer_budget=None, total_steps=args.total_steps)
    d = _as_dict(rep)
    clear_progress()
    if args.json:
        _print_json(d)
    else:
        for line in rep.runs:
            print(escape_for_terminal(line.line))
        if rep.sweep is not None:
            print(f"\nsweep on {rep.sweep['metric']} ({rep.sweep['direction']}), ranked at equal steps:")
            ranked = sorted((ln for ln in rep.runs if ln.relative is not None),
                            key=lambda ln: (ln.relative["rank"] or 0) if ln.relative is not None else 0)
            for ln in ranked:
                rel = ln.relative
                assert rel is not None
                print(escape_for_terminal(f"{rel['rank'] or '-':>4} {rel['recommend']:<5} {ln.run}: {rel['reason']}"))
            for run, why in rep.sweep["left_out"].items():
                print(escape_for_terminal(f"   - left out {run}: {why}"))
        print(escape_for_terminal(rep.summary))
    worst = rep.runs[0].verdict if rep.runs else "CONTINUE"
    return VERDICT_EXIT.get(worst, EXIT_FAILURE)


def cmd_review(args) -> int:
    from ..tools.reviewer import escalate_to_reviewer

    config, store = _ctx()
    if not args.assessment_id and not args.run:
        raise BadInput("review needs --assessment-id or --run")
    r = escalate_to_reviewer(store=store, config=config, concern=args.concern, assessment_id=args.assessment_id,
                             run=args.run, baseline=_baseline(args.baseline))
    _show(r, args.json, lambda d: f"{d.get('decision')}: {d.get('reason')}\nreview_id: {d.get('review_id')}")
    return 0


def cmd_stop(args) -> int:
    from ..tools.stop_run import stop_run

    config, store = _ctx()
    s = stop_run(args.run, args.reason, store=store, config=config, assessment_id=args.assessment_id,
                 review_id=args.review_id, method=args.method, target=args.target, host=args.host,
                 dry_run=args.dry_run, force=args.force, grace_s=args.grace_s, named_by_person=True,
                 prune=args.prune)
    _show(s, args.json, _summary_text)
    return 0


def cmd_target(args) -> int:
    from ..tools.stop_run import name_target

    config, store = _ctx()
    print(escape_for_terminal(name_target(args.run, args.target, store=store, config=config, host=args.host)))
    return 0


def cmd_reschedule(args) -> int:
    from ..tools.schedule import reschedule

    config, store = _ctx()
    s = reschedule(args.run, store=store, config=config, assessment_id=args.assessment_id,
                   current_job_id=args.current_job_id, target=args.target, host=args.host, durable=args.durable)
    _show(s, args.json, _summary_text)
    return 0


def command_targets(user: bool, project: str | None, home: Path | None = None) -> Path:
    """Where install-command writes the slash command."""
    if user:
        return (home or Path.home()) / ".claude" / "commands" / "training-check.md"
    return Path(project or os.getcwd()).expanduser().resolve() / ".claude" / "commands" / "training-check.md"


def cmd_install_command(args) -> int:
    from .prompt_text import prompt_file

    if args.user and args.project:
        raise BadInput("pass --user or --project DIR, not both")
    if args.project and not Path(args.project).expanduser().is_dir():
        raise BadInput(f"--project {args.project}: no such folder")
    text = prompt_file("training-check.md")
    dest = command_targets(args.user, args.project)
    for p in (dest.parents[1], dest.parent, dest):
        if p.is_symlink():
            raise BadInput(f"refusing to write {dest}: {'it' if p == dest else p} is a symbolic link (to "
                           f"{os.readlink(p)}); remove it and run install-command again")
    if dest.is_file() and dest.read_text(encoding="utf-8") == text:
        print(f"{dest} is already up to date")
        return 0
    existed = dest.exists()
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        tmp = dest.with_name(f".{dest.name}.{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, dest)  # replaces the file itself, never writes through a link
    except OSError as e:
        raise BadInput(f"cannot write {dest}: {e.strerror}") from None
    print(f"{'updated' if existed else 'installed'} {dest}: use /training-check <run> in Claude Code")
    return 0


def cmd_plot(args) -> int:
    from ..tools.plot import plot_run, plot_sweep

    config, store = _ctx()
    res: Any
    if args.sweep:
        res = plot_sweep(([args.run] if args.run else []) + args.sweep, args.output, store=store, config=config,
                         total_steps=args.total_steps)
    elif not args.run:
        raise BadInput("plot needs a run (or --sweep RUN RUN ...)")
    else:
        res = plot_run(args.run, args.output, store=store, config=config, fallback_log=args.fallback_log,
                       progress=terminal_progress(f"reading {args.run}"))
    if args.json:
        _print_json(res.to_dict())
    else:
        print(escape_for_terminal(res.summary))
    return 0


def _due_text(due: dict[str, float], now: float) -> str:
    """``a.log at 01:23:05 (in 10 min), b.log at ...``: when each run is checked next."""
    def until(t: float) -> str:
        left = max(0.0, t - now)
        return "now" if left < 1 else f"in {left:.0f} s" if left < 90 else f"in {left / 60:.0f} min"
    return ", ".join(f"{run} at {time.strftime('%H:%M:%S', time.localtime(t))} ({until(t)})"
                     for run, t in sorted(due.items(), key=lambda kv: kv[1]))


def cmd_watch(args) -> int:
    from ..tools.watch import STOPPED, VANISHED, Watcher, post_webhook

    config, store = _ctx()
    if args.webhook and not args.webhook.startswith(("http://", "https://")):
        raise BadInput(f"--webhook must be an http(s) URL, got {args.webhook[:40]!r}")
    if args.every is not None and not 1 / 60 <= args.every <= 7 * 24 * 60:
        raise BadInput(f"--every takes minutes between 0.02 (1 s) and 10080 (7 days), got {args.every:g}")
    lock = threading.Lock()

    def say(text: str, **fields: Any) -> None:
        with lock:
            if args.json:
                print(json.dumps({**fields, "info": text}, default=str), flush=True)
            else:
                print(escape_for_terminal(text), flush=True)

    def notify(event) -> None:
        with lock:
            clear_progress()
            if args.json:
                print(json.dumps(event.to_dict(), default=str), flush=True)
            else:
                mark = "[alert] " if event.anomaly else ""
                nxt = (f" (next check {time.strftime('%H:%M:%S', time.localtime(event.next_check_at))})"
                       if event.next_check_at else "")
                print(escape_for_terminal(f"{time.strftime('%H:%M:%S')} {mark}{event.line}{nxt}"), flush=True)
                for n in event.notes:
                    print(escape_for_terminal(f"    {n}"), flush=True)
        if args.webhook and event.anomaly:
            try:
                post_webhook(args.webhook, event)
            except TrainingCheckError as e:
                print(f"training-check: warning: {e.message}", file=sys.stderr, flush=True)

    def waiting(due: dict[str, float]) -> None:
        say(f"waiting: next check of {_due_text(due, time.time())}", waiting=due)

    watcher = Watcher(args.runs, store=store, config=config, notify=notify, allow_stop=args.allow_stop,
                      stop_target=args.stop_target, stop_host=args.stop_host,
                      use_reviewer=False if args.no_reviewer else None, fallback_log=args.fallback_log,
                      progress=lambda run: terminal_progress(f"reading {run}"),
                      every_s=None if args.every is None else args.every * 60)
    if watcher.vanished:
        say(f"not watching (vanished earlier): {', '.join(watcher.vanished)}", vanished=watcher.vanished)
    for run in watcher.halted:
        say(f"not checking {run}: it said STOP (training-check check {run} looks again)", halted=run)
    for line in watcher.prepare_stop():
        say(f"stop: {line}")
    if args.once:
        if not watcher.check_due():
            due = watcher.due_times()
            say(f"nothing due: next check of {_due_text(due, time.time())}" if due else "no run left to watch",
                waiting=due)
        worst = watcher.worst() or "CONTINUE"
        exit_codes = {**VERDICT_EXIT, STOPPED: VERDICT_EXIT["STOP"], VANISHED: EXIT_USAGE}
        return exit_codes.get(worst, EXIT_FAILURE)
    if not watcher.active:
        say("no run to watch")
        return 0
    stop = threading.Event()

    def on_signal(signum, _frame):
        print(f"training-check watch: {signal.Signals(signum).name} received, stopping after the current check",
              file=sys.stderr, flush=True)
        stop.set()

    old = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        n = len(watcher.active)
        every = f", every {args.every:g} min" if args.every else ", on the pacing ladder"
        say(f"watching {n} run{'s' if n != 1 else ''}{every}"
            f"{'' if args.allow_stop else ' (stopping disabled; --allow-stop enables it)'}")
        watcher.run(stop, max_sleep_s=args.max_sleep, waiting=waiting)
    finally:
        for s, h in old.items():
            signal.signal(s, h)
    if not watcher.active and not stop.is_set():
        say("no run left to watch")
    return 0


# -- parser ------------------------------------------------------------------------------------------------------
def build_parser() -> Parser:
    p = Parser(prog="training-check", description="Watch ML training runs for quality problems (an MCP server).",
               epilog="check exit codes: 0 CONTINUE, 1 ESCALATE, 2 STOP, 3 WAIT, 4 UNREACHABLE, 64 bad input, "
                      "70 other failure")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser,
                           help="what to do; 'training-check COMMAND --help' tells more")
    sub.required = True

    s = sub.add_parser("serve", help="run the MCP server (stdio by default)")
    s.add_argument("--http", action="store_true", help="serve streamable HTTP instead of stdio")
    s.add_argument("--host", default="127.0.0.1", help="HTTP host (default 127.0.0.1)")
    s.add_argument("--port", type=int, default=DEFAULT_HTTP_PORT, help=f"HTTP port (default {DEFAULT_HTTP_PORT})")
    s.add_argument("--no-auth", action="store_true", help="with --http on 127.0.0.1 only: no bearer token")
    s.set_defaults(fn=cmd_serve)

    def run_args(sp, fallback=True, optional=False):
        sp.add_argument("run", nargs="?" if optional else None,
                        help="W&B run path/URL, local log/.wandb/wandb dir, mlflow.db[#run_id], mlruns/, "
                             "mlflow:<run_id>, dvclive/, or ssh://host/path")
        if fallback:
            sp.add_argument("--fallback-log", help="log to read when the W&B API is unreachable")
        sp.add_argument("--json", action="store_true", help="print the structured answer as JSON")

    def loss_arg(sp):
        sp.add_argument("--loss-metric", help="the metric to judge as the loss when none is named one, as read names "
                                              "it (default: the config's loss_metric)")

    s = sub.add_parser("read", help="show a run's metrics as a table")
    run_args(s)
    s.add_argument("--keys", action="append", help="only these metrics (comma-separated, repeatable)")
    s.add_argument("--since-step", type=int, default=None, help="only points after this step")
    s.add_argument("--max-points", type=int, default=50, help="points per series (default 50)")
    loss_arg(s)
    s.set_defaults(fn=cmd_read)

    s = sub.add_parser("check", help="assess a run; the exit code is the verdict")
    run_args(s)
    s.add_argument("--baseline", help="expected values: JSON, a .json file, or another run's reference")
    s.add_argument("--total-steps", type=int, default=None, help="planned length of the run")
    s.add_argument("--as-of-step", type=int, default=None, help="judge the run as it was at this step")
    loss_arg(s)
    s.set_defaults(fn=cmd_check)

    s = sub.add_parser("sweep", help="assess many runs at once, worst first; the exit code is the worst verdict")
    s.add_argument("runs", nargs="*", help="runs (a local wandb/ folder expands to its runs)")
    s.add_argument("--project", help="a W&B entity/project: check its runs")
    s.add_argument("--state", default="running", help="with --project: runs in this state (default running; any)")
    s.add_argument("--max-concurrency", type=int, default=8, help="runs checked at once (default 8)")
    s.add_argument("--total-steps", type=int, default=None,
                   help="the runs' planned length: where the sweep comparison projects each run")
    s.add_argument("--json", action="store_true", help="print the structured answer as JSON")
    s.set_defaults(fn=cmd_sweep)

    s = sub.add_parser("review", help="ask the reviewer model about an assessment")
    s.add_argument("--concern", required=True, help="the specific worry")
    s.add_argument("--assessment-id", help="the assessment to review (asm_..., printed by check)")
    s.add_argument("--run", help="the run (its latest assessment) when no --assessment-id")
    s.add_argument("--baseline", help="expected values for the reviewer: JSON, a .json file, or a short text note")
    s.add_argument("--json", action="store_true", help="print the structured answer as JSON")
    s.set_defaults(fn=cmd_review)

    s = sub.add_parser("stop", help="stop a run (needs its latest check to say STOP, or --force)",
                       description="Stop a run. Allowed by the run's latest check or review when it says STOP and is "
                                   "recent (never a replay or one a newer check superseded), or by --force. The "
                                   "target defaults to the one named with 'training-check target', else the process "
                                   "that holds the run's log open for writing.")
    s.add_argument("run", help="the run, as given to check")
    s.add_argument("--reason", required=True, help="why the run is stopped (goes into the evidence file)")
    s.add_argument("--assessment-id", help="the STOP assessment that allows it (default: the run's latest)")
    s.add_argument("--review-id", help="the STOP review that allows it (default: the run's latest judgment)")
    s.add_argument("--method", default="auto", choices=["auto", "wandb", "pid", "pidfile", "cmd", "slurm", "tmux"],
                   help="what kind of target (default auto: told by --target)")
    s.add_argument("--target", help="pid:N, pidfile:/path, cmd:<exact command line>, slurm:<job>, tmux:<session> "
                                    "(default: the run's named target, else the process writing its log)")
    s.add_argument("--host", help="stop over SSH on this host")
    s.add_argument("--dry-run", action="store_true", help="describe the plan only")
    s.add_argument("--force", action="store_true", help="stop without a STOP verdict (a person's decision; needs "
                                                        "--reason)")
    s.add_argument("--grace-s", type=float, default=30.0, help="seconds before the hard kill (default 30)")
    s.add_argument("--prune", action="store_true", help="allow stopping a run its latest sweep comparison says to "
                                                        "prune (a person's decision)")
    s.add_argument("--json", action="store_true", help="print the structured answer as JSON")
    s.set_defaults(fn=cmd_stop)

    s = sub.add_parser("target", help="name the process (or tmux session, Slurm job) that stop_run may stop for a run",
                       description="Name what stops a run; later stops of the run without a target (stop, watch, "
                                   "MCP stop_run) use it.")
    s.add_argument("run", help="the run, as given to check")
    s.add_argument("target", help="pid:N, pidfile:/path, cmd:<exact command line>, slurm:<job>, tmux:<session>")
    s.add_argument("--host", help="the target is on this host (over SSH)")
    s.set_defaults(fn=cmd_target)

    s = sub.add_parser("reschedule", help="pace the next check of a run")
    s.add_argument("run", help="the run, as given to check")
    s.add_argument("--assessment-id", help="the check to pace from (default: the run's latest)")
    s.add_argument("--current-job-id", help="the id of the cron job that started this check")
    s.add_argument("--target", help="the check's target= (kept in the job's prompt)")
    s.add_argument("--host", help="the check's host= (kept in the job's prompt)")
    s.add_argument("--durable", action="store_true", help="a job that survives restarts of Claude Code")
    s.add_argument("--json", action="store_true", help="print the structured answer as JSON")
    s.set_defaults(fn=cmd_reschedule)

    s = sub.add_parser("install-command", help="install the /training-check slash command for Claude Code")
    s.add_argument("--user", action="store_true", help="into ~/.claude/commands (all projects)")
    s.add_argument("--project", metavar="DIR", help="into DIR/.claude/commands (default: this folder)")
    s.set_defaults(fn=cmd_install_command)

    s = sub.add_parser("watch", help="check runs on the pacing ladder without an agent, until stopped")
    s.add_argument("runs", nargs="+", help="the runs to watch")
    s.add_argument("--once", action="store_true", help="check the runs that are due, say when the others are, then "
                                                       "exit with the worst latest verdict's exit code (for cron)")
    s.add_argument("--every", type=float, metavar="MINUTES", help="check every MINUTES minutes instead of the pacing "
                                                                  "ladder (10 -> 20 -> 30 -> 60)")
    s.add_argument("--webhook", help="POST anomalies as JSON to this URL (Slack incoming webhook style)")
    s.add_argument("--allow-stop", action="store_true", help="let the watcher stop a run on a STOP (the process "
                                                             "writing its log, or its named target)")
    s.add_argument("--stop-target", help="with one run: what a STOP stops (pid:N, tmux:<session>, ...; named for the "
                                         "run as 'training-check target' does)")
    s.add_argument("--stop-host", help="stop over SSH on this host")
    s.add_argument("--no-reviewer", action="store_true", help="never ask the reviewer model")
    s.add_argument("--fallback-log", help="log to read when the W&B API is unreachable")
    s.add_argument("--max-sleep", type=float, default=60.0, help="longest sleep between wake-ups (s, default 60)")
    s.add_argument("--json", action="store_true", help="one JSON object per event")
    s.set_defaults(fn=cmd_watch)

    s = sub.add_parser("plot", help="draw loss/eval/LR/grad-norm with the latest findings marked (or --sweep)")
    run_args(s, optional=True)
    s.add_argument("-o", "--output", help="PNG path (default under TRAINING_CHECK_HOME/plots)")
    s.add_argument("--sweep", nargs="+", metavar="RUN", help="draw every run's curve with its projection band, the "
                                                             "runs to prune marked (the runs of a sweep)")
    s.add_argument("--total-steps", type=int, default=None, help="with --sweep: the runs' planned length")
    s.set_defaults(fn=cmd_plot)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the exit code (never a traceback for an anticipated failure)."""
    real_stdout, real_stderr = sys.stdout, sys.stderr
    sys.stderr = RedactingStream(real_stderr)  # errors, warnings, progress: redacted as they are written
    redact_log_records()  # every log line, whichever handler writes it
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except UsageError as e:
        print(str(e), file=sys.stderr)
        sys.stderr = real_stderr
        return EXIT_USAGE
    except SystemExit as e:  # --help
        sys.stderr = real_stderr
        return int(e.code or 0)
    if args.command != "serve":  # the MCP server owns its stdout; every other command survives a closed pipe
        sys.stdout = PipeSafe(real_stdout)
    try:
        try:
            return args.fn(args)
        finally:
            clear_progress()
    except (BadInput, RunNotFound, UnknownFormat) as e:
        print(f"training-check: {escape_for_terminal(e.message)}", file=sys.stderr)
        return EXIT_USAGE
    except SourceUnreachable as e:
        print(f"training-check: {escape_for_terminal(e.message)}", file=sys.stderr)
        return EXIT_UNREACHABLE
    except TrainingCheckError as e:
        print(f"training-check: {escape_for_terminal(e.message)}", file=sys.stderr)
        return EXIT_FAILURE
    except KeyboardInterrupt:
        print("training-check: interrupted", file=sys.stderr)
        return 130
    except Exception as e:  # a bug: one line, not a traceback (TRAINING_CHECK_DEBUG=1 shows it)
        if _interrupted(e):  # Ctrl-C, masked by a library's clean-up failing after it (paramiko's SFTP close)
            print("training-check: interrupted", file=sys.stderr)
            return 130
        if os.environ.get("TRAINING_CHECK_DEBUG"):
            raise
        first = (str(e).splitlines() or [""])[0][:200]
        print(f"training-check: internal error ({type(e).__name__}: {first}); rerun with TRAINING_CHECK_DEBUG=1 "
              f"and report it", file=sys.stderr)
        return EXIT_FAILURE
    finally:
        if isinstance(sys.stdout, PipeSafe):
            sys.stdout.flush()
            sys.stdout = real_stdout
        sys.stderr = real_stderr


def _interrupted(e: BaseException) -> bool:
    """Whether a KeyboardInterrupt is among the exceptions that led to ``e``."""
    seen = 0
    cur: BaseException | None = e
    while cur is not None and seen < 20:
        if isinstance(cur, KeyboardInterrupt):
            return True
        cur, seen = cur.__cause__ or cur.__context__, seen + 1
    return False


QUICK_EXIT = ("check",)  # commands whose work is all written when main returns: no interpreter teardown after them
BLAS_THREAD_VARS = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")  # what OpenBLAS reads, in order


def entry() -> None:
    """The console script. numpy's BLAS runs on one thread unless the user chose otherwise: a check's arrays are
    small (OpenBLAS gives them one thread anyway), and starting a worker per core when numpy loads costs a fresh
    process ~0.05 s. After ``check`` (its answer printed, the assessment committed to the store) the process leaves
    at once, as ``serve`` does: unloading pandas and the domain would take longer than the check itself."""
    if not any(name in os.environ for name in BLAS_THREAD_VARS):
        os.environ["OPENBLAS_NUM_THREADS"] = "1"  # read once, when numpy loads (later, on the first check)
    argv = sys.argv[1:]
    code = main(argv)
    if argv[:1] and argv[0] in QUICK_EXIT:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):  # the reader left: nothing more to write
                pass
        os._exit(code)
    sys.exit(code)


if __name__ == "__main__":
    entry()
