from kauldron import konfig

with konfig.imports():
    from flax import linen as nn
    from kauldron import kd
    import optax
    import h90data


def get_config():
    cfg = kd.train.Trainer()
    cfg.seed = 0
    cfg.train_ds = kd.data.InMemoryPipeline(loader=h90data.train_data, batch_size=32, shuffle=True)
    cfg.model = kd.nn.Sequential(
        inputs="batch.x",
        layers=[nn.Dense(32), nn.relu, nn.Dense(32), nn.relu, nn.Dense(4)],
    )
    cfg.num_train_steps = 150
    cfg.log_metrics_every = 15
    cfg.train_losses = {"xent": kd.losses.SoftmaxCrossEntropyWithIntLabels(logits="preds", labels="batch.y")}
    cfg.train_metrics = {"accuracy": kd.metrics.Accuracy(logits="preds", labels="batch.y"), "grad_norm": kd.metrics.TreeReduce(metric=kd.metrics.Norm(tensor="grads", axis=None))}
    cfg.schedules = {"learning_rate": optax.constant_schedule(0.003)}
    cfg.optimizer = optax.adam(learning_rate=cfg.ref.schedules["learning_rate"])
    cfg.evals = {
        "eval": kd.evals.Evaluator(
            run=kd.evals.EveryNSteps(50),
            num_batches=None,
            ds=kd.data.InMemoryPipeline(loader=h90data.eval_data, batch_size=32, num_epochs=1),
            losses={"xent": kd.losses.SoftmaxCrossEntropyWithIntLabels(logits="preds", labels="batch.y")},
            metrics={},
        ),
    }
    return cfg
