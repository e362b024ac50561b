"""PyTorch-BigGraph (torchbiggraph): knowledge-graph embeddings of a small synthetic graph (entities in communities,
each relation sending a community to another one; no download), trained as its README says: the edges imported with
its own ``torchbiggraph_import_from_tsv`` and trained with its ``torchbiggraph_train config.py`` (both called
in-process, as their console scripts do), its config a Python file with ``get_torchbiggraph_config()``. PBG logs to
stdout (``setup_logging``: ``2026-12-06 22:20:37,401   [Trainer-0] ( 0 , 0 ): loss:  9.2104 , violators_lhs: ...``,
one line a bucket, ``%.6g``) and appends each bucket's stats to ``training_stats.json`` in its checkpoint folder.
Truth: ``training_stats.json`` (``stats.metrics.loss`` at its ``index``: the bucket, 1-based, counted across epochs,
edge paths and chunks)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from h52_truth import keep, seed_all, tol_sig, write_truth

CONFIG = '''def get_torchbiggraph_config():
    return dict(
        entity_path="data",
        edge_paths=["data/edges_partitioned"],
        checkpoint_path="model",
        entities={{"node": {{"num_partitions": {partitions}}}}},
        relations=[{{"name": "all", "lhs": "node", "rhs": "node", "operator": "{operator}"}}],
        dynamic_relations=True,
        dimension={dim},
        global_emb=False,
        comparator="{comparator}",
        num_epochs={epochs},
        num_edge_chunks={chunks},
        batch_size={batch},
        num_uniform_negs={negs},
        loss_fn="{loss}",
        margin={margin},
        lr={lr},
        {relation_lr}
        eval_fraction={eval_fraction},
        workers=1,
        verbose={verbose},
    )
'''


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--lr", type=float, default=0.1)
    ap.add_argument("--relation-lr", type=float, default=None)
    ap.add_argument("--loss", default="softmax", choices=["softmax", "ranking", "logistic"])
    ap.add_argument("--margin", type=float, default=0.1)
    ap.add_argument("--comparator", default="dot", choices=["dot", "cos", "l2", "squared_l2"])
    ap.add_argument("--operator", default="translation",
                    choices=["none", "translation", "diagonal", "linear", "complex_diagonal"])
    ap.add_argument("--partitions", type=int, default=1)
    ap.add_argument("--chunks", type=int, default=1)
    ap.add_argument("--batch", type=int, default=1000)
    ap.add_argument("--negs", type=int, default=50)
    ap.add_argument("--dim", type=int, default=16)
    ap.add_argument("--eval-fraction", type=float, default=0.05)
    ap.add_argument("--verbose", type=int, default=0)
    ap.add_argument("--nodes", type=int, default=300)
    ap.add_argument("--edges", type=int, default=6000)
    ap.add_argument("--label", default="healthy")
    ap.add_argument("--should-stop", action="store_true")
    a = ap.parse_args()
    seed_all(0)

    import numpy as np

    rng = np.random.default_rng(0)
    k, n_rel = 6, 4
    comm = rng.integers(0, k, a.nodes)
    members = [np.flatnonzero(comm == c) for c in range(k)]
    with open("edges.tsv", "w") as f:
        for _ in range(a.edges):
            h = int(rng.integers(a.nodes))
            r = int(rng.integers(n_rel))
            pool = members[(comm[h] + r + 1) % k]
            # each head keeps a few favourite tails in the target community
            t = int(pool[(h * 7 + r * 3 + int(rng.integers(3))) % len(pool)])
            f.write(f"n{h}\tr{r}\tn{t}\n")
    Path("config.py").write_text(CONFIG.format(
        partitions=a.partitions, operator=a.operator, dim=a.dim, comparator=a.comparator, epochs=a.epochs,
        chunks=a.chunks, batch=a.batch, negs=a.negs, loss=a.loss, margin=a.margin, lr=a.lr,
        relation_lr="" if a.relation_lr is None else f"relation_lr={a.relation_lr},",
        eval_fraction=a.eval_fraction, verbose=a.verbose))

    from torchbiggraph import train
    from torchbiggraph.converters import import_from_tsv

    sys.argv = ["torchbiggraph_import_from_tsv", "--lhs-col", "0", "--rel-col", "1", "--rhs-col", "2", "config.py",
                "edges.tsv"]
    import_from_tsv.main()
    sys.argv = ["torchbiggraph_train", "config.py"]
    train.main()

    rows = [json.loads(ln) for ln in Path("model/training_stats.json").read_text().splitlines() if ln.strip()]
    keep("model/training_stats.json")
    import torchbiggraph

    per_epoch = a.partitions * a.partitions * a.chunks
    write_truth(framework=f"torchbiggraph {torchbiggraph.__version__}", settings=vars(a), loss_name="loss",
                step_unit="bucket, 1-based, across epochs and edge chunks (`training_stats.json`'s `index`; "
                          "`bucket 2 / 4` within each `Starting epoch 3 / 8, ..., edge chunk 1 / 2`)",
                tolerance=tol_sig(6), record="its `training_stats.json` (`stats.metrics.loss` at `index`)",
                train_loss=[(r["index"], r["stats"]["metrics"]["loss"]) for r in rows],
                steps_per_epoch=per_epoch)


if __name__ == "__main__":
    main()
