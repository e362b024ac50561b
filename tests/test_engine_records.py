"""Issue 32, record kinds of the text-log engine beyond line templates and bordered tables: borderless blocks of
``name: value`` lines nested by indentation (Ray RLlib's ``pretty_print`` of a result), dicts printed over several
lines (``pprint``), a value named before its position (``Loss after epoch 3: 0.5``), a bar whose postfix is drawn
before its counter moves (PyKEEN's epoch bar), a bar described by words with a postfix, structlog's key=value
records. Each input is written as the library prints it, read by the one engine through the real LogFileSource;
and the same bytes read in any number of reads give the same points."""

from __future__ import annotations

import json
import pprint

from .test_engine_tables import _in_reads, _line_starts, _read


def _same_in_reads(data: bytes, every: int) -> dict:
    """The points of ``data`` read whole, checked equal (NaN as NaN) to its reads in two parts cut at every
    ``every``-th line start."""
    whole = _in_reads(data, [])
    for cut in _line_starts(data)[::every]:
        assert json.dumps(_in_reads(data, [cut])) == json.dumps(whole), f"one cut at byte {cut}"
    return whole


def _rllib_result(it: int, nested_iteration: bool = True) -> str:
    """An RLlib result as ``print(pretty_print(result))`` prints it (YAML, two spaces a level, a blank after)."""
    loss = 8.0 - 0.5 * it
    return (
        "config:\n  lr: 0.0003\n  num_epochs: 4\n"
        "env_runners:\n"
        f"  episode_len_mean: {20 + it}\n"
        f"  episode_return_mean: {20.5 + 3 * it}\n"
        "  module_episode_return_mean:\n"
        f"    default_policy: {20.5 + 3 * it}\n"
        "  num_env_steps_sampled: 1000\n"
        f"  num_env_steps_sampled_lifetime: {1000.0 * it}\n"
        "hostname: vm\n"
        "learners:\n"
        "  __all_modules__:\n"
        "    num_trainable_parameters: .nan\n"
        "  default_policy:\n"
        f"    entropy: {0.69 - 0.01 * it}\n"
        f"    policy_loss: {-0.01 * it}\n"
        f"    total_loss: {loss}\n"
        f"    vf_loss: {loss - 0.1}\n"
        "node_ip: 192.0.2.2\n"
        + (f"timers:\n  training_iteration: {3.44 + it / 100}\n  training_step: 3.4\n" if nested_iteration else "")
        + f"training_iteration: {it}\n"
        "trial_id: default\n\n")


RLLIB = ("2026-12-05 17:16:04,123\tINFO worker.py:1917 -- Started a local Ray instance.\n"
         + "".join(_rllib_result(i) for i in range(1, 6))).encode()


def test_rllib_pretty_print_blocks_one_record_each_at_training_iteration(tmp_path):
    res, pts = _read(tmp_path, RLLIB)
    assert pts["learners/default_policy/total_loss"] == ([1, 2, 3, 4, 5], [7.5, 7.0, 6.5, 6.0, 5.5])
    assert pts["env_runners/episode_return_mean"][0] == [1, 2, 3, 4, 5]
    assert pts["env_runners/module_episode_return_mean/default_policy"][1][0] == 23.5
    assert pts["timers/training_iteration"][0] == [1, 2, 3, 4, 5]  # a time under a step's name: a metric, no step
    assert any("at its training_iteration" in n for n in res.notes)


def test_rllib_blocks_read_alike_in_any_reads():
    whole = _same_in_reads(RLLIB, 5)
    assert whole["learners/default_policy/total_loss"][0] == [1, 2, 3, 4, 5]


def test_records_printed_without_a_line_between_are_split_where_a_name_comes_again(tmp_path):
    text = "".join(f"epoch: {e}\ntrain:\n  loss: {1.0 / e}\n  acc: {0.5 + e / 100}\n" for e in range(1, 7))
    _res, pts = _read(tmp_path, ("starting\n" + text + "finished\n").encode())
    assert pts["train/loss"][0] == [1, 2, 3, 4, 5, 6]
    assert pts["train/loss"][1][1] == 0.5
    # the last record of a log that ends in it may go on: it waits for the next line (only it)
    _res, pts = _read(tmp_path, ("starting\n" + text).encode(), name="open.log")
    assert pts["train/loss"][0] == [1, 2, 3, 4, 5]


def test_a_block_of_settings_printed_once_is_no_series(tmp_path):
    settings = "config:\n  lr: 0.001\n  batch_size: 64\n  model:\n    hidden: 256\n    layers: 2\n\n"
    body = "".join(f"step {s} loss {2.0 / s:.4f}\n" for s in range(1, 30))
    _res, pts = _read(tmp_path, (settings + body).encode())
    assert pts["loss"][0][:3] == [1, 2, 3]
    assert not any(k.startswith("config") for k in pts)


def test_pprint_dicts_over_several_lines_one_record_each(tmp_path):
    out = ["2026-12-05 17:16:04,123\tINFO worker.py:1917 -- Started a local Ray instance."]
    for it in range(1, 6):
        r = {"config": {"lr": 0.0003, "model": {"fcnet_hiddens": [256, 256]}, "name": "PPO"},
             "date": "2026-12-05_17-16-14",
             "env_runners": {"episode_return_mean": 20.5 + it, "hist_stats": {"episode_lengths": [10, 12, 9]},
                             "module_episode_return_mean": {"default_policy": 20.5 + it}},
             "learners": {"default_policy": {"total_loss": 8.0 - 0.5 * it, "vf_loss": float("nan")}},
             "num_env_steps_sampled_lifetime": 1000.0 * it, "training_iteration": it}
        out.append(pprint.pformat(r))
    data = ("\n".join(out) + "\n").encode()
    _res, pts = _read(tmp_path, data)
    assert pts["learners/default_policy/total_loss"] == ([1, 2, 3, 4, 5], [7.5, 7.0, 6.5, 6.0, 5.5])
    assert pts["env_runners/episode_return_mean"][0] == [1, 2, 3, 4, 5]
    assert not any("episode_lengths" in k for k in pts)  # numbers in a list are no metric
    _same_in_reads(data, 4)


def test_a_value_named_before_its_position(tmp_path):
    """gensim's tutorials' callback (``Loss after epoch 0: 541516.9``) and TensorFlow's word2vec (``Average loss at
    step 2000: 4.52``): the words before the position name the value after ``N:``."""
    lines = "".join(f"Loss after epoch {e}: {500000.0 / (e + 1):.4f}\n" for e in range(8))
    _res, pts = _read(tmp_path, ("collecting all words\n" + lines).encode())
    assert pts["Loss"][0] == list(range(8))
    lines = "".join(f"Average loss at step {s}: {5.0 - s / 1000:.3f}\n" for s in range(2000, 20001, 2000))
    _res, pts = _read(tmp_path, lines.encode(), name="w2v.log")
    assert pts["Average loss"][0] == list(range(2000, 20001, 2000))


def _pykeen_bar(n_epochs: int) -> bytes:
    """PyKEEN's epoch bar (``set_postfix`` then ``update``: a value first shown while the counter still reads the
    unit before) with its inner batch bar, as a redirected stdout holds it."""
    losses = [1.5 / (e + 1) + 0.3 for e in range(n_epochs)]
    out = [f"\rTraining epochs on cpu:   0%|          | 0/{n_epochs} [00:00<?, ?epoch/s]\n"]
    prev = "nan"
    for e in range(n_epochs):
        out.append("\rTraining batches on cpu:   0%|          | 0.00/7.00 [00:00<?, ?batch/s]\x1b[A\n")
        done = 100 * e // n_epochs
        rate = "00:00<?, ?epoch/s" if e == 0 else "00:00<00:17,  2.24epoch/s"  # tqdm has no rate at 0 yet
        out.append(f"\r{' ' * 71}\x1b[A\rTraining epochs on cpu: {done:3d}%|#         | {e}/{n_epochs} "
                   f"[{rate}, loss={losses[e]:.3g}, prev_loss={prev}]")
        done = 100 * (e + 1) // n_epochs
        out.append(f"\rTraining epochs on cpu: {done:3d}%|#         | {e + 1}/{n_epochs} "
                   f"[00:00<00:17,  2.24epoch/s, loss={losses[e]:.3g}, prev_loss={prev}]")
        prev = f"{losses[e]:.3g}"
    out.append("\n")
    return "".join(out).encode()


def test_a_postfix_drawn_before_its_counter_moves_is_at_the_next_count(tmp_path):
    data = _pykeen_bar(12)
    _res, pts = _read(tmp_path, data)
    want = [float(f"{1.5 / (e + 1) + 0.3:.3g}") for e in range(12)]
    assert pts["loss"] == (list(range(1, 13)), want)


def _described_bar(losses: list[float], counts: list[int]) -> bytes:
    """A ``for _ in tqdm(range(N))`` bar whose description holds the values (``set_description`` in the loop body,
    before the step ends; pykan's ``fit``): the description's redraw shows the count of the bar's last redraw, and
    the bar skips redraws (``miniters``). ``counts[k]`` is the count shown while step k + 1's values are set (each
    set at the step's start, one per step)."""
    n = len(losses)
    out = [f"\rdescription:   0%|          | 0/{n} [00:00<?, ?it/s]"]
    desc = ""
    for k, loss in enumerate(losses):
        desc = f"| train_loss: {loss:.2e} | test_loss: {loss / 2:.2e} | "
        out.append(f"\r{desc}: {100 * counts[k] // n:3d}%|#   | {counts[k]}/{n} [00:01<00:09, 2.00it/s]")
        if k + 1 < n and counts[k + 1] > counts[k]:  # the bar redrawn when its counter moved on (not at every step)
            out.append(f"\r{desc}: {100 * counts[k + 1] // n:3d}%|#   | {counts[k + 1]}/{n} [00:01<00:09, 2.00it/s]")
    end = f"\r{desc}: 100%|####| {n}/{n} [00:02<00:00, 2.00it/s]"
    out.append(end + end + "\n")  # the last update's redraw, then close()'s (at its total: no unit after it)
    return "".join(out).encode()


def test_values_in_a_bar_description_set_before_the_step_are_at_the_next_count(tmp_path):
    # one value a step, the bar redrawn every other step: the second and third states at one count are the next
    # units' (the description is set before the counter moves, so the count it shows is the step before)
    losses = [round(1.0 / (k + 1), 3) for k in range(12)]
    counts = [0, 1, 1, 3, 3, 5, 5, 7, 7, 9, 9, 11]
    data = _described_bar(losses, counts)
    _res, pts = _read(tmp_path, data)
    want = [float(f"{v:.2e}") for v in losses]
    assert pts["train_loss"] == (list(range(1, 13)), want)
    assert tuple(_same_in_reads(data, 2)["train_loss"]) == (list(range(1, 13)), want)


def _epoch_step_bar(epochs: int, steps: int) -> bytes:
    """An epoch's step bar redrawn with each batch's loss, then the epoch's summary line (Poutyne's default
    progress): the epoch's number right-aligned, so ``Epoch:  9/20`` and ``Epoch: 10/20`` are two templates."""
    out = []
    for e in range(1, epochs + 1):
        for s in range(1, steps + 1):
            out.append(f"\rEpoch: {e:2d}/{epochs} Step: {s:2d}/{steps} {100 * s / steps:6.2f}% |##   |ETA: 0.01s "
                       f"loss: {10 / e + s / 100:.6f}")
        out.append(f"\rEpoch: {e:2d}/{epochs} Train steps: {steps} 0.20s loss: {10 / e:.6f}          \n")
    return "".join(out).encode()


def test_epoch_summaries_of_two_templates_continue_in_line_order(tmp_path):
    # the batch values at the global batch step; each epoch's summary at the epoch's last batch (its record)
    data = _epoch_step_bar(20, 8)
    _res, pts = _read(tmp_path, data)
    steps, values = pts["loss"]
    assert steps == list(range(1, 161))
    assert [values[8 * e - 1] for e in range(1, 21)] == [round(10 / e, 6) for e in range(1, 21)]
    assert values[:7] == [round(10 + s / 100, 6) for s in range(1, 8)]
    assert tuple(_same_in_reads(data, 37)["loss"]) == (steps, values)


def test_structlog_key_value_records_at_their_step(tmp_path):
    """d3rlpy's structlog records (colours as its ConsoleRenderer writes them to a redirected stdout)."""
    out = []
    for e in range(1, 7):
        step = 500 * e
        out.append(f"\x1b[2m2026-12-05 17:13.{e:02d}\x1b[0m [\x1b[32m\x1b[1minfo     \x1b[0m] \x1b[1mrun: epoch={e} "
                   f"step={step}        \x1b[0m \x1b[36mepoch\x1b[0m=\x1b[35m{e}\x1b[0m \x1b[36mmetrics\x1b[0m="
                   f"\x1b[35m{{'time_sample_batch': 0.0012, 'loss': {1.0 / e:.12f}, 'time_step': 0.0053}}\x1b[0m "
                   f"\x1b[36mstep\x1b[0m=\x1b[35m{step}\x1b[0m\n")
    _res, pts = _read(tmp_path, "".join(out).encode())
    assert pts["loss"][0] == [500 * e for e in range(1, 7)]
    assert pts["loss"][1][1] == 0.5


def test_a_record_printed_with_its_step_is_the_value_a_bar_displays(tmp_path):
    """d3rlpy: a bar's postfix shows a rounded running loss; the epoch's record after the bar, with its step, is the
    value logged at that step."""
    out = []
    for e in range(1, 5):
        for n in range(0, 101, 20):
            out.append(f"\rEpoch {e}/4: {n}%|#   | {n}/100 [00:01<00:00, 90.0it/s, loss={0.5 / e + n / 1e4:.3g}]")
        out.append(f"\n2026-12-05 17:13.{e:02d} [info     ] run: epoch={e} step={100 * e} epoch={e} "
                   f"metrics={{'time_step': 0.005, 'loss': {0.5 / e + 0.001:.12f}}} step={100 * e}\n")
    _res, pts = _read(tmp_path, "".join(out).encode())
    steps, values = pts["loss"]
    at = dict(zip(steps, values, strict=True))
    assert [at[100 * e] for e in range(1, 5)] == [float(f"{0.5 / e + 0.001:.12f}") for e in range(1, 5)]


def test_a_line_read_once_before_its_series_is_its_first_point(tmp_path):
    """tianshou's ``Initial test step: test_reward: ...`` before its ``Epoch #N: test_reward: ...`` records; a line
    after the series naming the same (a final summary) stays no point."""
    lines = ["Initial test step: test_reward: 10.600000 ± 1.019804, best_reward: 10.600000 ± 1.019804 in #0"]
    for e in range(1, 7):
        lines.append(f"step {e * 100} loss {1.0 / e:.4f}")
        lines.append(f"Epoch #{e}: test_reward: {10.0 + 5 * e:.6f} ± 1.0, best_reward: {10.0 + 5 * e:.6f} ± 1.0 "
                     f"in #{e}")
    lines.append("Final: test_reward: 99.000000 ± 1.0, best_reward: 99.000000 ± 1.0 in #6")
    _res, pts = _read(tmp_path, ("\n".join(lines) + "\n").encode())
    values = pts["test_reward"][1]
    assert values[0] == 10.6 and len(values) == 7 and 99.0 not in values


def test_a_table_in_long_form_one_value_a_row(tmp_path):
    """PyKEEN's CSV result tracker: ``type,step,key,value``, settings' rows (with quoted commas and line breaks)
    first, then one metric a row."""
    rows = ["type,step,key,value", "parameter,0,dataset,nations", "parameter,0,model_kwargs.embedding_dim,32",
            'parameter,0,model_kwargs.loss,"MarginRankingLoss(', '  (margin_activation): ReLU()', ')"',
            'parameter,0,optimizer_kwargs.betas,"(0.9, 0.999)"']
    rows += [f"metric,{e},loss,{1.0 / e}" for e in range(1, 21)]
    rows += ["metric,20,validation.both.realistic.hits_at_10,0.93"]
    _res, pts = _read(tmp_path, ("\n".join(rows) + "\n").encode(), name="tracker.csv")
    assert pts["loss"] == (list(range(1, 21)), [1.0 / e for e in range(1, 21)])
    assert "model_kwargs.embedding_dim" not in pts and pts["validation.both.realistic.hits_at_10"] == ([20], [0.93])


def test_numbers_in_a_wrappers_repr_are_numbers_of_a_printed_dict():
    """numpy 2 prints ``np.float64(6.13)`` in a dict's repr (RLlib's results through pprint), torch ``tensor(0.5,
    grad_fn=...)``; a number in a list or a call of other arguments is none."""
    from training_check.tools.parsers.kv_blocks import _dict_values

    got = _dict_values(b"{'a': {'x': np.float64(6.13), 'y': np.int64(3), 't': tensor(0.5, grad_fn=<AddBackward0>),"
                       b" 'z': [1, 2], 'w': 'str'}, 'c': Foo(Bar(1)), 'b': 4.5}")
    assert got == {"a/x": 6.13, "a/y": 3.0, "a/t": 0.5, "b": 4.5}


def _tianshou_epoch(epoch: int, total: int, start: int, reward: float) -> str:
    """One epoch as tianshou 2's trainer prints it: an ascii bar whose postfix prints env_step, past its total at the
    end (``1008it``), then the test record."""
    out = []
    for n in range(12, total + 13, 12):
        env = start + n
        post = f"env_episode={env // 10}, env_step={env}, n_ep=1, n_st=12, rew=9.50, update_step={env // 12}"
        if n <= total:
            out.append(f"\rEpoch #{epoch}: {100 * n // total:3d}%|#####     | {n}/{total} "
                       f"[00:01<00:00, 861.08it/s, {post}]\x1b[A")
        else:
            out.append(f"\rEpoch #{epoch}: {n}it [00:01, 710.98it/s, {post}]\x1b[A")
    out.append("\n")
    best = f"best_reward: {reward:.6f} ± 1.000000 in #{epoch}"
    out.append(f"Epoch #{epoch}: test_reward: {reward:.6f} ± 1.000000, {best}\n")
    return "".join(out)


def test_a_record_after_a_bar_printing_its_step_is_at_that_step(tmp_path):
    """tianshou: the bar counts to its total and past it (``1008it``); its postfix prints the step the framework's
    logger counts (env_step): the test record after it is at that step, not at the bar's counter."""
    text = "Initial test step: test_reward: 9.400000 ± 0.800000, best_reward: 9.400000 ± 0.800000 in #0\n"
    text += "".join(_tianshou_epoch(e, 996, (e - 1) * 1008, 9.0 + 10 * e) for e in range(1, 5))
    _res, pts = _read(tmp_path, text.encode())
    assert pts["test_reward"][0] == [0, 1008, 2016, 3024, 4032]


def test_a_table_without_a_header_named_after_its_metric(tmp_path):
    """d3rlpy's per-metric CSVs (``d3rlpy_logs/<run>/loss.csv``: ``epoch,step,value`` rows, no header): the file's
    name is the metric, the middle column its step; a CSV of other columns stays unread as before."""
    rows = "".join(f"{e},{250 * e},{1.0 / e}\n" for e in range(1, 9))
    _res, pts = _read(tmp_path, rows.encode(), name="loss.csv")
    assert pts["loss"] == ([250 * e for e in range(1, 9)], [1.0 / e for e in range(1, 9)])
    _res, pts = _read(tmp_path, "".join(f"{s},{2.0 / s}\n" for s in range(1, 6)).encode(), name="td_error.csv")
    assert pts["td_error"][0] == [1, 2, 3, 4, 5]
