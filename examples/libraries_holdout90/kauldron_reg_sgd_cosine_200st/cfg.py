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
        layers=[nn.Dense(32), nn.relu, nn.Dense(32), nn.relu, nn.Dense(1)],
    )
    cfg.num_train_steps = 200
    cfg.log_metrics_every = 20
    cfg.train_losses = {"l2": kd.losses.L2(preds="preds", targets="batch.y")}
    cfg.schedules = {"learning_rate": optax.cosine_decay_schedule(init_value=0.05, decay_steps=200)}
    cfg.optimizer = optax.sgd(learning_rate=cfg.ref.schedules["learning_rate"])
    return cfg
