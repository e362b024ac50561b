"""What examples/libraries_holdout51 showed (issue 32). An interatomic-potential trainer prints per epoch a banner
``Epoch 3/20  lr: 0.004901`` then a table whose columns are metrics (``Energy_RMSE (eV/atom)``, ``TotalLoss``) and
whose rows are named by a split (``trainset``, ``validset``; a run without validation prints ``trainset`` only): one
record per epoch, the split row's cells that split's values (``TotalLoss`` the loss, the valid row's
``val_TotalLoss``), at the banner's epoch (1-based), the preprocessing bars printed before the first banner
(``graph_build (1): 100%| 24/24``) no step of the records."""

from __future__ import annotations

import math

from .test_read_misses import primary_names, whole_as_live

_RULE = "-" * 120
_HEAD = "          Energy_RMSE (eV/atom)   Force_RMSE (eV/Å)   Stress_RMSE (kbar)   TotalLoss  \n" + "-" * 86 + "\n"


def _row(split: str, e: float, f: float, s: float, loss: float) -> str:
    return f"{split:<8}{e:>23.6f}{f:>20.6f}{s:>21.6f}{loss:>12.6f}\n"


def _log(epochs: int, val: bool, nan_from: int | None = None) -> tuple[str, list[float], list[float]]:
    out = [f"Processing...\nsuccessfully read yaml config!\n\nepoch               : {epochs}\n"
           "batch_size          : 4\n",
           "graph_build (1):   0%|          | 0/24 [00:00<?, ?it/s]graph_build (1): 100%|██████████| 24/24 "
           "[00:00<00:00, 4457.28it/s]\nDone!\n",
           "trainset distribution:\ntotal_energy        : {'mean': '0.310', 'std': '0.134'}\n"
           "# structures (graph): 24\n" + _RULE + "\nKnown species are obtained from the dataset\n"
           "# learnable parameters: 1904\n\n"]
    train, valid = [], []
    lr = 0.005
    for e in range(1, epochs + 1):
        loss = 0.5 * math.exp(-0.2 * e) + 0.01
        vloss = 0.4 * math.exp(-0.2 * e) + 0.02
        if nan_from is not None and e >= nan_from:
            loss = vloss = float("nan")
        out.append(f"{_RULE}\nEpoch {e}/{epochs}  lr: {lr:.6f}\n{_RULE}\n{_HEAD}")
        out.append(_row("trainset", loss / 2, 1.4, 147.1 - e, loss))
        train.append(round(loss, 6))
        if val:
            out.append(_row("validset", vloss / 2, 1.3, 104.5 + e, vloss))
            valid.append(round(vloss, 6))
        if e % 3 == 1:
            out.append("Best checkpoint written\n")
        out.append(f"Epoch {e} elapsed: 0:00:00.{10 + e}\n")
        lr *= 0.99
    out.append("Total wall time: 0:00:07.76\n")
    return "".join(out), train, valid


def _same(got: list[float], want: list[float]) -> bool:
    return len(got) == len(want) and all(
        a == b or math.isnan(a) and math.isnan(b) for a, b in zip(got, want, strict=True))


def test_split_rows_under_an_epoch_banner_are_one_record_an_epoch(tmp_path):
    text, train, valid = _log(12, val=True)
    pts = whole_as_live(tmp_path, text.encode(), "sevenn.log")
    assert pts["TotalLoss"][0] == list(range(1, 13)), pts["TotalLoss"]
    assert pts["TotalLoss"][1] == train
    assert pts["val_TotalLoss"] == (list(range(1, 13)), valid)
    assert pts["val_Energy_RMSE (eV/atom)"][0] == list(range(1, 13))
    assert primary_names(pts) == ["TotalLoss"]


def test_a_train_row_alone_and_its_nan_rows(tmp_path):
    text, train, _valid = _log(10, val=False, nan_from=7)
    pts = whole_as_live(tmp_path, text.encode(), "noval.log")
    assert pts["TotalLoss"][0] == list(range(1, 11)), pts["TotalLoss"]
    assert _same(pts["TotalLoss"][1], train)
    assert not any(k.startswith("val_") for k in pts)
    assert primary_names(pts) == ["TotalLoss"]


def test_the_corpus_shape_as_printed(tmp_path):
    text, train, valid = _log(5, val=True)
    pts = whole_as_live(tmp_path, text.encode(), "five.log", cuts=(0.1, 0.33, 0.5, 0.52, 0.9))
    assert pts["TotalLoss"] == (list(range(1, 6)), train)
    assert pts["val_TotalLoss"] == (list(range(1, 6)), valid)
