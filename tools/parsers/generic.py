"""The tolerant reader: any line-oriented log with numbers in it, from generic grammars.

Used when no specific format reads a loss from the log (``detect.py`` tries the specific
ones first: they are faster and know their names). Each line (hard-wrapped terminal
lines joined first: lines exactly as long as the terminal's width continue on the
next line) yields one record of (name, value) pairs from any of:

- JSON / Python-dict objects: ``{"loss": 2.3}``, ``{'loss': 2.3, 'epoch': 0.5}``;
- ``key=value``, ``key: value`` (keys of up to four words: ``Train loss: 0.75``), and
  ``key value`` pairs on lines that name a loss (``loss 2.31 lr 3e-4``);
- tables with a header row: a line of three or more names followed by rows with as many
  whitespace-separated cells, mostly numbers (YOLOv5's ``Epoch gpu_mem box obj cls`` /
  ``100/299 4.89G 0.0176 ...``; a ``Class Images ... mAP@.5`` header makes its rows eval rows);
- tqdm bars: the description before the bar and the postfix after it both hold pairs.

Steps, as the user knows them: an explicit step key (``step``, ``global_step``,
``current_steps``, ``iter``, ``iteration``...) or counter (``Step [s/N]``, ``Iter:[i/N]``,
``(Iteration i / N)``); a counter within an epoch (``Epoch [e][i/N]``, ``Epoch 2 | Step 450/6501``)
becomes ``(e - e0) * N + i``, and one that restarts each epoch without saying N is made
monotone (each epoch continues from the last step of the one before); else the tqdm counter
(``epoch * total + n`` when the line names an epoch); else a fractional epoch times the steps
per epoch (from a line holding both a step and an epoch, or from ``Total optimization steps = N``
and ``Num Epochs = E`` in the header); else the epoch when each epoch logs once; else line order,
and the read's notes say so. An eval record (its words say validation/test, or it repeats a counted record's
names without a counter, like ``Loss: 3.12, MeanIU: 0.06`` between training lines) keeps its
own ``val_`` names and sits at the current training step. Tracebacks and config dumps
(``name: value`` with one pair and no step) do not make records.
"""

from __future__ import annotations

import json
import re
from itertools import pairwise

from .base import Emitter, LineFormat
from .kv import pair_number
from .text import NUM, to_value

_KEYWORD = r"[A-Za-z_][\w./@\-]*"
_PAIR = re.compile(rf"(?<![\w/.@\-])({_KEYWORD}(?: {_KEYWORD}){{0,3}})\s*(?:=|:)\s*"
                   rf"\[?\s*({NUM}[A-Za-z%/]*)(?=[\s,;|\]}}\)]|$|:\s)")
_QPAIR = re.compile(rf"['\"]([^'\"]{{1,60}})['\"]\s*:\s*['\"]?({NUM})['\"]?(?=\s*[,}}])")
_SPACED = re.compile(rf"(?<![\w./\-])([A-Za-z_][A-Za-z0-9_/.@\-]*)\s+({NUM})(?=[\s,;|\]]|$)")
_TQDM_BAR = re.compile(r"(?:\s*:)?\s*\d{1,3}%\|[^|]*\|\s*(\d+)/(\d+)\s*(?:\[([^\]]*)\])?")
_EPOCH = re.compile(r"\bepoch\s*(?:\(\w+\))?\s*[:#=]?\s*\[?\s*(\d+)\s*(?:\]\s*)?(?:/\s*(\d+)\s*\]?)?", re.I)
_EPOCH_ITER = re.compile(r"\[\s*(\d+)\s*\]\s*\[\s*(\d+)\s*/\s*(\d+)\s*\]")
_COUNTER = re.compile(r"\b(global[_ ]step|current_steps|step|steps|iteration|iter|batch|update)"
                      r"\s*(?:\(\w+\))?\s*[:#=]?\s*"
                      r"[\[(]?\s*(\d+)\s*(?:/\s*(\d+)\s*)?[\])]?(?![\w.])", re.I)
_PAREN_ITER = re.compile(r"\(\s*(?:iteration|iter|step)\s+(\d+)\s*/\s*(\d+)\s*\)", re.I)
_EVAL_WORDS = re.compile(r"\b(valid|validation|validating|eval|evaluation|evaluating|test|testing|dev|val)\b", re.I)
_EVAL_HINT = re.compile(r"val|eval|test|dev", re.I)  # a cheap first look before the word-exact search
_EVAL_KEY = re.compile(r"^(val|valid|validation|eval|test|dev)[_/ ]", re.I)
_EVAL_METRIC = re.compile(r"iou|miou|map|acc|prec|recall|f1|bleu|rouge|auc|dice|wer|cer", re.I)
_LEVEL_WORDS = {"info", "debug", "warning", "warn", "error", "critical", "trace", "notice", "main"}
_STEP_NAMES = {"step", "steps", "global_step", "global step", "current_steps", "iter", "iteration", "it", "update",
               "num_updates", "train/global_step", "_step", "batch"}
_SKIP_NAMES = {"rank", "pid", "line", "port", "tid", "total_steps", "eta", "epochs", "seed", "percentage"}
_TRACE = re.compile(r"^\s*(Traceback \(most recent call last\)|File \"|raise "
                    r"|\w*(Error|Exception|Warning):|warnings\.warn)")
_CELL = re.compile(rf"^(?:{NUM})(?:[A-Za-z%]{{0,3}})$|^\d+/\d+$")
_HEADER_TOKEN = re.compile(r"^[A-Za-z_][\w@.:/\-%()]*$")
_YOLO_LOSSES = {"box", "obj", "cls", "dfl", "seg", "kobj", "pose"}
_DIGITS = re.compile(r"[\d:.,/\-\[\]]+")
_NUM_EPOCHS = re.compile(r"\bnum(?:ber of)?[ _]epochs\s*[=:]\s*([\d,]+)\s*$", re.I)
_TOTAL_STEPS = re.compile(r"total (?:optimization|training) steps\s*=\s*([\d,]+)", re.I)
WRAP_MIN = 80  # a terminal narrower than this does not hard-wrap metric records worth joining


def _shape(line: str) -> str:
    """How a line starts, digits masked: records of one log start alike (``[12/22 20:00:22] ...``)."""
    return _DIGIT.sub("0", line[:8])


_DIGIT = re.compile(r"\d")


def _num_cells(tokens: list[str]) -> int:
    return sum(1 for t in tokens if _CELL.match(t))


def _key(words: str) -> str:
    parts = words.split()
    while len(parts) > 1 and parts[0].lower().rstrip(":") in _LEVEL_WORDS:
        parts = parts[1:]
    if len(parts) > 1 and parts[-1].lower() in _STEP_NAMES:
        parts = parts[-1:]
    return " ".join(parts)


class GenericFormat(LineFormat):
    name = "generic"
    detect_re = re.compile(r"\d")
    generic = True
    priority = -5

    def score(self, lines: list[str]) -> int:
        return sum(1 for line in lines if _PAIR.search(line) or _QPAIR.search(line))

    # -- lines ---------------------------------------------------------------------------
    def parse(self, text: str, em: Emitter) -> None:
        st = em.state
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        width = int(st.get("wrap", 0))
        lens: dict[int, int] = {}
        for ln in lines:
            n = len(ln)
            if n >= WRAP_MIN:
                lens[n] = lens.get(n, 0) + 1
        if lens and not width:
            common, count = max(lens.items(), key=lambda kv: (kv[1], kv[0]))
            # the terminal's width: the longest line length, shared by several lines that each continue on a line
            # shaped unlike their own start (a cut record, not a run of equally long records)
            cont = sum(1 for a, b in pairwise(lines) if len(a) == common and _shape(b) != _shape(a))
            if count >= 3 and common >= max(lens) and cont >= max(3, count // 2):
                width = st["wrap"] = common
        pending = st.pop("pending", "")
        for phys in lines:
            if pending and _shape(phys) == _shape(pending):
                self._line(pending, em)  # the next line starts like the record did: a new record, not a wrap
                pending = ""
            ln = pending + phys if pending else phys
            pending = ""
            # a physical line as wide as the terminal (a trailing blank may have been trimmed) continues below
            if width and width - 2 <= len(phys) <= width and not phys.rstrip().endswith(("}", "]")):
                pending = ln
                continue
            self._line(ln, em)
        if pending:
            st["pending"] = pending[-8192:]

    def finish(self, em: Emitter) -> None:
        # A wrapped record still pending stays in the state: its continuation may not be written yet.
        if em.state.get("line_order") and not em.state.get("counted"):
            em.notes.append("the log gives no step numbers: points are numbered by line order")

    @staticmethod
    def _banner(line: str, st: dict) -> None:
        """Remember the first text lines of the file; seeing one again later marks a run start (a restarted job
        printing its start-up banner into the same log)."""
        key = _DIGITS.sub("", line).strip()
        if len(key) < 8:
            return
        banner = st.setdefault("banner", [])
        if not st.get("g_seen"):
            if len(banner) < 3 and key not in banner:
                banner.append(key)
        elif key in banner:
            st["restart"] = True

    def _line(self, line: str, em: Emitter) -> None:
        st = em.state
        if _TRACE.match(line):
            return
        if self._header(line, st):
            self._banner(line, st)
            return
        if "=" in line or "pochs" in line:
            m = _TOTAL_STEPS.search(line)
            if m:
                em.total_steps = st["total"] = int(m.group(1).replace(",", ""))
                return
            m = _NUM_EPOCHS.search(line)
            if m:
                st["epochs"] = int(m.group(1).replace(",", ""))
                return
        bar = _TQDM_BAR.search(line) if "%|" in line else None
        n_bar = total_bar = None
        body = line
        if bar:
            n_bar, total_bar = int(bar.group(1)), int(bar.group(2))
            postfix = (bar.group(3) or "").partition(",")[2]  # "1.8s/it, loss=2.3": the pairs after the rate
            after = " " + postfix.partition(",")[2] if "=" in postfix else ""
            body = line[: bar.start()] + after + " " + line[bar.end():]
        pairs = [(k, v) for k, v in _QPAIR.findall(body)] if ("'" in body or '"' in body) else []
        if "{" in body and not pairs:
            pairs = self._json_pairs(body)
        if not pairs:
            pairs = [(_key(k), v) for k, v in _PAIR.findall(body)]
        table = None
        if not pairs:
            table = self._row(body, st)
            if table is None:
                sp = _SPACED.findall(body)
                if len(sp) >= 2 and any("loss" in k.lower() for k, _ in sp):
                    pairs = sp
        if table is not None:
            pairs, is_eval_table = table
        else:
            is_eval_table = False
        if not pairs or not self._record(line, body, pairs, n_bar, total_bar, is_eval_table, em):
            self._banner(line, st)

    @staticmethod
    def _json_pairs(body: str) -> list[tuple[str, str]]:
        i, j = body.find("{"), body.rfind("}")
        if i < 0 or j <= i:
            return []
        try:
            obj = json.loads(body[i: j + 1])
        except ValueError:
            return []
        out: list[tuple[str, str]] = []
        if isinstance(obj, dict):
            for k, v in obj.items():
                if isinstance(v, (int, float)) and not isinstance(v, bool):
                    out.append((str(k), repr(v)))
                elif isinstance(v, str) and to_value(v) is not None and len(v) < 40:
                    out.append((str(k), v))
        return out

    # -- tables ----------------------------------------------------------------------------
    @staticmethod
    def _header(line: str, st: dict) -> bool:
        """A row of three or more names (a table's header; a tqdm bar after it is dropped): remembered, True."""
        body = _TQDM_BAR.sub("", line) if "%|" in line else line
        tokens = body.split()
        if 3 <= len(tokens) <= 30 and all(_HEADER_TOKEN.match(t.rstrip(":")) for t in tokens):
            tokens = [t.rstrip(":") for t in tokens]
            st["header"] = tokens
            return True
        return _DIGIT.search(line) is None

    def _row(self, body: str, st: dict) -> tuple[list[tuple[str, str]], bool] | None:
        header = st.get("header")
        if not header:
            return None
        tokens = body.split()
        if tokens and tokens[-1].endswith(":"):
            tokens[-1] = tokens[-1][:-1]
        if len(tokens) != len(header) or _num_cells(tokens) < max(2, len(tokens) // 2):
            return None
        lower = [h.lower() for h in header]
        yolo = "gpu_mem" in lower or "gpu_mem" in [h.replace("GPU", "gpu") for h in header]
        is_eval = bool({"class", "images"} & set(lower)) or any(_EVAL_WORDS.fullmatch(h) for h in lower)
        pairs = []
        for h, t in zip(header, tokens, strict=True):  # as many tokens as header cells (checked above)
            name = h
            if yolo and h.lower() in _YOLO_LOSSES:
                name = f"train/{h.lower()}_loss"
            elif is_eval and h.lower() not in ("epoch", "class"):
                name = f"val/{h}"
            if "/" in t and t.replace("/", "").isdigit():
                a, b = t.split("/")
                pairs.append((name, a))
                if h.lower() == "epoch":
                    st["epochs_total"] = int(b) + 1 if int(a) == 0 or st.get("epoch0") == 0 else int(b)
                continue
            pairs.append((name, t))
        return pairs, is_eval

    # -- records ---------------------------------------------------------------------------
    def _record(self, line: str, body: str, pairs: list[tuple[str, str]], n_bar: int | None, total_bar: int | None,
                is_eval_table: bool, em: Emitter) -> bool:
        """Record the line's metrics at its step; False when it holds no metric record."""
        st = em.state
        is_eval = is_eval_table or (_EVAL_HINT.search(body) is not None
                                    and _EVAL_WORDS.search(_PAIR.sub(" ", body)) is not None)
        rec: dict[str, float] = {}
        step = epoch = None
        inner = inner_total = None
        inner_word = ""
        for k, raw in pairs:
            lk = k.strip().lower()
            if lk in _SKIP_NAMES or not lk:
                continue
            is_step, s, v = pair_number(lk, raw, _STEP_NAMES)
            if is_step:
                if s is not None:
                    if lk == "batch":
                        inner = s if inner is None else inner
                    elif step is None:
                        step = s
                continue
            if v is None:
                continue
            if lk == "epoch":
                epoch = v
                continue
            rec[k] = v
        if not rec:
            return False
        m = _EPOCH_ITER.search(line) if "[" in line else None
        if m:
            epoch, inner, inner_total = float(m.group(1)), int(m.group(2)), int(m.group(3))
        else:
            if epoch is None and ("poch" in line or "POCH" in line):
                me = _EPOCH.search(line)
                if me:
                    epoch = float(me.group(1))
                    if me.group(2):
                        em.total_steps = None
            for mc in (_COUNTER.finditer(line) if step is None or "/" in line else ()):
                word = mc.group(1).lower()
                if word == "batch" or mc.group(3):
                    if step is None and word != "batch" and not mc.group(3):
                        step = int(mc.group(2))
                    elif inner is None:
                        inner, inner_total = int(mc.group(2)), (int(mc.group(3)) if mc.group(3) else None)
                        inner_word = word
                elif step is None:
                    step = int(mc.group(2))
            mp = _PAREN_ITER.search(line) if step is None and "(" in line else None
            if mp:
                step = int(mp.group(1))
        if step is not None and inner is not None and inner_total is None:
            inner = None  # "Step: 10 ... batch 3": the step is the step
        if inner is not None and step is None:
            step, inner = inner, None
            if inner_total is None and epoch is not None:
                inner = step  # a counter within an epoch, restarting
            elif inner_total and epoch is None and inner_word != "batch" and step <= inner_total:
                em.total_steps = inner_total  # "step 10/19560" with no epoch on the line: the run's planned length
        if is_eval:
            rec = {(k if _EVAL_KEY.match(k) or k.startswith("val/") else "val_" + k): v for k, v in rec.items()}
            at = step if step is not None and not inner_total else st.get("g")
            if at is None:
                at = int(epoch) if epoch is not None and float(epoch).is_integer() else int(st.get("n", 0))
            em.record(int(at), rec)
            return True
        counted = step is not None or n_bar is not None or (epoch is not None and st.get("epoch_steps"))
        g: int | None = None
        if step is not None:
            if epoch is not None and float(epoch).is_integer():
                e = int(epoch)
                if "e0" not in st:
                    st["e0"] = 0 if e == 0 else 1
                if inner_total:
                    g = (e - st["e0"]) * inner_total + step
                elif inner is not None or (st.get("last_e") is not None and e > st["last_e"]
                                           and step <= st.get("last_raw", -1)):
                    # a counter that restarts each epoch: continue from the last step of the epoch before
                    if st.get("last_e") is not None and e > st["last_e"] and step <= st.get("last_raw", -1):
                        st["off"] = int(st.get("g", 0))
                    g = int(st.get("off", 0)) + step
                else:
                    g = int(st.get("off", 0)) + step
                st["last_e"] = e
            else:
                g = step
            st["last_raw"] = step
        elif n_bar is not None:
            if epoch is not None and float(epoch).is_integer() and total_bar:
                e = int(epoch)
                if "e0" not in st:
                    st["e0"] = 0 if e == 0 else 1
                g = (e - st["e0"]) * total_bar + n_bar
            else:
                g = n_bar
        fractional = epoch is not None and epoch > 0 and not float(epoch).is_integer()
        if g is not None and fractional and epoch is not None:  # fractional: epoch is a number
            st["spe"] = g / epoch  # a counted line with a fractional epoch: steps per epoch
        elif g is None and fractional and epoch is not None and (st.get("spe") or st.get("total") and st.get("epochs")):
            g = round(epoch * (st.get("spe") or st["total"] / st["epochs"]))  # epoch x steps per epoch
            counted = True
        if g is None:
            # no counter: a repeat of counted names is a summary/eval record at the current step
            known = set(st.get("counted_keys", []))
            if st.get("counted") and known & set(rec):
                evalish = any(_EVAL_METRIC.search(k) for k in rec)
                pre = "val_" if evalish else "avg_"
                rec = {pre + k: v for k, v in rec.items()}
                em.record(int(st.get("g", 0)), rec)
                return True
            if ((len(rec) < 2 and epoch is None and _role(next(iter(rec))) not in ("train_loss", "eval"))
                    or not any(_role(k) in _METRIC_ROLES for k in rec)):
                return False  # a config line ("num_gpus: 1", "World size: 1"), not a metric record
            st["n"] = int(st.get("n", 0)) + 1
            ep_only = epoch is not None and float(epoch).is_integer()
            if (ep_only and epoch is not None and st.get("mode") != "order"
                    and (st.get("ep_last") is None or int(epoch) > st["ep_last"])):
                g = int(epoch)  # one record per epoch so far: the epoch is the step
                st["mode"], st["ep_last"] = "epoch", int(epoch)
            elif not st.get("counted") and (ep_only or st.get("mode") == "order" or st.get("g") is None):
                if ep_only and st.get("mode") == "epoch":
                    st["n"] = max(int(st["n"]), int(st.get("g", 0)) + 1)
                st["mode"] = "order"  # several records in one epoch, or no position at all: line order
                g = int(st["n"])
                if any(_role(k) == "train_loss" for k in rec):
                    st["line_order"] = True
            else:
                g = int(st["g"])  # a record without a position among positioned ones: at the current step
        elif not st.get("counted"):
            st["counted"] = True
        if counted and st.get("restart") and "g_first" in st and g <= int(st["g_first"]):
            # the step is back at the run's start after the start-up banner printed again: a new run
            em.new_run()
            for k in ("off", "e0", "last_e", "last_raw", "n", "g", "counted_keys", "counted", "g_first", "mode",
                      "ep_last"):
                st.pop(k, None)
        if counted:
            st["restart"] = False
        st["g_seen"] = True
        if counted and "g_first" not in st:
            st["g_first"] = int(g)
        if counted:
            ck = st.get("counted_keys", [])
            if len(ck) < 200:
                st["counted_keys"] = sorted(set(ck) | set(rec))[:200]
        st["g"] = g
        em.record(int(g), rec)
        return True


_ROLE_CACHE: dict[str, str] = {}
_METRIC_ROLES = {"train_loss", "eval", "train_metric", "lr", "grad_norm"}


def _role(name: str) -> str:
    r = _ROLE_CACHE.get(name)
    if r is None:
        from ..roles import infer_role

        r = infer_role(name).role
        if len(_ROLE_CACHE) < 20000:
            _ROLE_CACHE[name] = r
    return r
