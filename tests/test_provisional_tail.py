"""A file still being written: its unterminated tail counts for the answer, never for the cursor or the cache."""

from __future__ import annotations

import json

from training_check.tools.reading import load_run


def test_last_line_without_newline_is_read_provisionally_and_never_cached(tmp_path, store, config):
    log = tmp_path / "train.log"
    log.write_text("\n".join(f"s:{i} trl:{3 + 1 / i:.4f}" for i in range(1, 11)) + "\ns:11 trl:1.2")  # cut mid-number
    data = load_run(str(log), store=store, config=config)
    loss = data.frame.series["train_loss"]
    assert loss.index[-1] == 11 and loss.iloc[-1] == 1.2
    assert any("provisionally" in n for n in data.notes)
    cached = store.load_source(data.source.id).batch.columns["train_loss"]
    assert list(cached.steps) == list(range(1, 11))  # the cut line is not in the cache
    with open(log, "a") as f:
        f.write("5\ns:12 trl:3.01\n")  # the line completes as 1.25
    again = load_run(str(log), store=store, config=config).frame.series["train_loss"]
    assert list(again.index) == list(range(1, 13)) and again.loc[11] == 1.25 and again.loc[12] == 3.01


def test_a_young_compact_json_document_is_read_at_once(tmp_path, store, config):
    doc = tmp_path / "golden.json"
    doc.write_text(json.dumps({"lm loss": {"start_step": 1, "end_step": 20, "step_interval": 1,
                                           "values": {str(i): 3 + 1 / i for i in range(1, 21)}}}))
    data = load_run(str(doc), store=store, config=config)
    assert len(data.frame.series["lm loss"]) == 20
