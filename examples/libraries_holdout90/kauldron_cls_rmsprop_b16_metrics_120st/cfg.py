from kauldron import konfig

with konfig.imports():
    from flax import linen as nn
    from kauldron import kd
    import optax
    import h90data


def get_config():
    cfg = kd.train.Trainer()
    cfg.seed = 0
    cfg.train_ds = kd.data.InMemoryPipeline(loader=h90data.train_data, batch_size=16, shuffle=True)
    cfg.model = kd.nn.Sequential(
        inputs="batch.x",
        layers=[nn.Dense(16), nn.relu, nn.Dense(16), nn.relu, nn.Dense(4)],
    )
    cfg.num_train_steps = 120
    cfg.log_metrics_every = 10
    cfg.train_losses = {"xent": kd.losses.SoftmaxCrossEntropyWithIntLabels(logits="preds", labels="batch.y")}
    cfg.train_metrics = {"accuracy": kd.metrics.Accuracy(logits="preds", labels="batch.y"), "grad_norm": kd.metrics.TreeReduce(metric=kd.metrics.Norm(tensor="grads", axis=None))}
    cfg.schedules = {"learning_rate": optax.constant_schedule(0.001)}
    cfg.optimizer = optax.rmsprop(learning_rate=cfg.ref.schedules["learning_rate"])
    return cfg
