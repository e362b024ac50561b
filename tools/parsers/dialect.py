"""What is format-specific in a text log, as data: which names are the step, the epoch, an evaluation, a final
summary, or nothing to read. The engine (``engine.py``) reads every log with these; a new framework's convention
is a word added here, not a parser.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Dialect:
    #: a wide table's header row ending in this goes on in the next chunk (pandas' wrapped ``DataFrame`` print:
    #: ``wrapped_tables.py``)
    table_continuation: bytes = b" \\"
    #: a number under one of these names is the step as the framework counts it (``step 12``, ``iter: 12``,
    #: ``Iteration 12``, llm.c's ``s:12``, ``step:12/5000`` with the run's length)
    step_names: frozenset[str] = frozenset({
        "step", "steps", "global_step", "global step", "globalstep", "iter", "iters", "iteration", "it", "update",
        "updates", "num_updates", "current_steps", "s", "_step", "train/global_step", "trainer/global_step",
        "optimizer step", "optimization step", "train step", "training step", "total_steps_done", "env_step",
        "example counter", "frames", "collected frames", "total frames", "timesteps", "total_timesteps", "env_steps",
        "env steps", "cumulative_steps", "generation", "gen", "iterate"})
    #: a step named as the run's own count (``GLOBAL_STEP: 18``): in a record that names a counter ``n/N`` as a step
    #: too (coqui's ``STEP: 2/15 -- GLOBAL_STEP: 18``, its n restarting each epoch), the record's position
    run_step_names: frozenset[str] = frozenset({
        "global_step", "global step", "globalstep", "train/global_step", "trainer/global_step"})
    #: a count of an optimiser's function evaluations named alone (NiaPy's ``evals:38 => 48.02``, jMetalPy's
    #: ``Evaluations: 80. fitness: [38.26]``; ZOOpt's budget spent, ``budget 20, fx result: 0.47``): the record's
    #: position; within a longer name (``f evals``, ``function evaluations: 60``) it stays a metric
    evaluation_counts: frozenset[str] = frozenset({"evals", "evaluations", "budget"})
    #: a table's first column counting a search's evaluations or trials (NOMAD's ``BBE OBJ``, blackbox evaluations;
    #: scipy's ``nfev``; ``eval``, ``trial``, ``#eval``): the rows' position, the table a search's evaluations (two
    #: words naming it and an objective are a header: ``tables_text.parse_header``)
    evaluation_columns: frozenset[str] = frozenset({
        "bbe", "nfev", "eval", "evals", "#eval", "#evals", "neval", "nevals", "n_eval", "nfe", "feval", "fevals",
        "trial", "#trial", "trials"})
    #: a counter written ``N <noun> from M`` / ``N <noun> of M`` with one of these nouns (geneticalgorithm2's bar
    #: ``2 gen from 25``): the run's step and its length
    of_counter_nouns: frozenset[str] = frozenset({"gen", "generation", "iteration", "iter", "step"})
    #: a name an optimiser gives the value it minimises (jMetalPy's ``fitness: [38.26]``; a particle swarm's best so
    #: far, scikit-opt's ``Iter: 4, Best fit: [4.88] at [0.18 2.19 0.24]``): named alone in a record that names a
    #: position and no loss, it is the record's ``objective``
    objective_names: frozenset[str] = frozenset({"fitness", "best fit"})
    #: a one-letter name an optimizer's iteration line gives the value it minimises (scipy's L-BFGS-B, shown by
    #: statsmodels, GPy, scikit-learn, pmdarima: ``At iterate    3    f=  2.46423D+00    |proj g|=  1.10304D-02``):
    #: in a record at an iteration (its step named by one of ``iteration_words``) naming no loss, the ``objective``
    iteration_objective_names: frozenset[str] = frozenset({"f"})
    #: an estimate of the objective a stochastic solver prints each epoch (pyttb's / Tensor Toolbox's GCP-OPT ``Epoch
    #: 0: f-est = 54.6, step = 0.01``): the record's ``objective`` (``objective_estimates``)
    objective_estimate_names: frozenset[str] = frozenset({
        "f-est", "f_est", "fest", "f est", "f-estimate", "obj-est", "obj_est", "objective estimate",
        "estimated objective"})
    #: a word saying a value is the one before the first step (``Initial f-est: 5.406391e+02``): before the objective
    #: (``objective_estimate_names``, ``solver_objective_names``), its value at step 0 (``objective_estimates``)
    initial_words: frozenset[str] = frozenset({"initial", "init", "starting"})
    #: a field named a step whose value has a fraction is the solver's step size, a rate (pyttb's ``step = 0.01``)
    step_size_name: str = "step_size"
    #: a word saying a value is the run's last (``Final f-est:  2.9765e+01``): before the objective, the run's end
    #: (``objective_estimates.after_the_end``)
    final_words: frozenset[str] = frozenset({"final"})
    #: a one-letter name beside its own change: a decomposition's fit, 1 - relative error, rising (Tensor Toolbox's
    #: and pyttb's ``cp_als``: `` Iter 0: f = 7.867189e-01 f-delta = 7.9e-01``), named ``fit_name``, maximised
    fit_with_change: dict = field(default_factory=lambda: {"f": "f-delta"})
    fit_name: str = "fit (maximised)"
    #: a model-selection criterion: a record naming one with no position of its own is a candidate of a search over
    #: models (pmdarima's ``auto_arima(trace=True)``: `` ARIMA(2,1,2)(0,0,0)[0] intercept   : AIC=1030.672, Time=0.08
    #: sec``, one line a candidate, ``AIC=inf`` possible): no series, never the run's loss
    criterion_names: frozenset[str] = frozenset({"aic", "aicc", "bic", "hqic"})
    iteration_words: frozenset[str] = frozenset({"iterate", "iteration", "iter", "it", "iterations", "iters"})
    #: a name too general to be the objective beside other values (an RL loop's value estimate), but the objective
    #: when it is the record's only value, at a position (GPJax's bar ``100/100 [..., Value=50.20]``)
    sole_objective_names: frozenset[str] = frozenset({"value"})
    #: a primal-dual solver's table's names (the run's health its residuals going to zero, its objective no loss: a
    #: constrained problem's may rise or fall while the iterates become feasible): its primal residual (SCS's
    #: ``pri res``, OSQP's ``prim res``/``pri res``, ECOS's and Clarabel's ``pres``), beside a dual residual (``dua
    #: res``, ``dual res``, ``dres``) or a duality gap, is the run's objective; the objective's value (``obj``,
    #: ``objective``, ``pcost``, ``dcost``) a diagnostic without a direction (``objective.primal_residual``). Not
    #: ipopt's ``inf_pr``/``inf_du``: an interior-point run with no gap keeps its ``objective``. A first-order
    #: solver's table spells them longer (OR-Tools PDLP's ``prim_resid  dual_resid  obj_gap | prim_obj  dual_obj``,
    #: beside their relative twins ``rel_prim_res``, ``rel_gap``, which are no residual's absolute value: fixpdlp)
    primal_residual_names: frozenset[str] = frozenset({"pri res", "prim res", "pres", "prim resid", "primal resid",
                                                       "primal residual"})
    dual_residual_names: frozenset[str] = frozenset({"dua res", "dual res", "dres", "dual resid", "dual residual"})
    duality_gap_names: frozenset[str] = frozenset({"gap", "duality gap", "obj gap", "objective gap"})
    solver_objective_names: frozenset[str] = frozenset({"obj", "objective", "pcost", "dcost", "prim obj", "dual obj",
                                                        "primal obj", "primal objective", "dual objective"})
    #: ... of them, a primal's objective and a dual's: a gap printed beside one of each, with no residual, is the
    #: solve's progress (``objective.duality_gap``; fixpdlp). Not a branch-and-bound's bounds (SCIP's ``primalbound``)
    primal_objective_names: frozenset[str] = frozenset({"prim obj", "primal obj", "primal objective", "pcost"})
    dual_objective_names: frozenset[str] = frozenset({"dual obj", "dual objective", "dcost"})
    #: an optimiser's table naming its figure of merit by a generic word (elastix's ``2:Metric``, the similarity
    #: measure a registration minimises): the run's objective when nothing else has a direction
    #: (``objective.optimiser_metric``)
    optimiser_metric_names: frozenset[str] = frozenset({"metric"})
    #: words naming a policy-gradient term among an RL run's losses (PPO's clipped ``surrogate`` loss, A2C's and
    #: stable-baselines3's ``policy_gradient_loss``, ``pg_loss``): a surrogate hovers near 0 by construction (its
    #: advantages are normalised), so beside a value (critic) loss or a total loss it never stands for the run; nor
    #: then does another term beside them (an entropy bonus, an exploration bonus's predictor loss: RND's):
    #: ``objective.choose_primary_loss``
    policy_gradient_terms: frozenset[str] = frozenset({"surrogate", "policy gradient", "pg"})
    #: the acceptance threshold of a likelihood-free (ABC-SMC) sampler, the tolerance its simulations' distances must
    #: fall under (pyabc's ``ABC INFO: t: 3, eps: 2.56e-01.``, examples/libraries_holdout99; ``epsilon``): it falls as
    #: the sampler's populations close in on the posterior. Named alone in a run that logs no loss nor any other
    #: value with a direction, the run's objective, lower is better (``tools/thresholds.py``); beside a loss, a
    #: reward or an accuracy (an RL run's exploration ``eps``), a setting's schedule with no say on the run
    threshold_names: frozenset[str] = frozenset({"eps", "epsilon", "abc eps", "acceptance threshold"})
    #: a generic word after a split's name (``Train metric: 3.01``, ``Validation metric``): the split's value of what
    #: the run minimises (a boosting library's metric is its error); in a record naming no value for what it is, the
    #: run's ``objective`` (``fields._split_generic``)
    generic_value_words: frozenset[str] = frozenset({"metric"})
    #: a last word that numbers what the word before it names (``Iteration No: 7``, ``Trial #3``): the name is that
    #: word's (a step, an epoch)
    number_words: frozenset[str] = frozenset({"no", "no.", "nr", "nr.", "number", "#"})
    #: a count of the optimizer's updates so far: a record where it is 0 has updated nothing, so a NaN it prints is
    #: the mean of nothing yet (``('average_loss', nan), ..., ('n_updates', 0)``), no point of a NaN loss
    update_counts: frozenset[str] = frozenset({"n_updates", "num_updates", "updates", "update_count", "n_update"})
    #: a value printed in a wrapper's repr (numpy 2's ``np.float64(0.53)``, torch's ``tensor(2.30, grad_fn=<..>)``):
    #: the opening of each wrapper; the text log reads the number inside (``lines.unwrap_reprs``), named by what
    #: comes before the wrapper (``loss: tensor(2.30)`` is ``loss``)
    wrapper_reprs: tuple[bytes, ...] = (
        b"np.float64(", b"np.float32(", b"np.float16(", b"np.int64(", b"np.int32(", b"numpy.float64(",
        b"numpy.float32(", b"tensor(")
    #: a repr of a named value (a dataclass's or a named tuple's ``Cls(field=value, ...)``: orion's ``Result(name=
    #: 'objective', type='objective', value=17.8)``, MLflow's ``Metric(key='loss', value=0.3, timestamp=..., step=3)``,
    #: ``Measurement(metric='loss', value=0.3)``): the fields that name it by a quoted name, the first present, and
    #: the field holding its number; read as ``name: value`` (``lines.named_values``), a field of a step's or an
    #: epoch's name holding a whole number its position (``step: 3``), every other field (its type, a time) no value
    repr_name_fields: tuple[bytes, ...] = (b"name", b"key", b"metric", b"tag")
    repr_value_fields: tuple[bytes, ...] = (b"value",)
    #: a name opening with one of these words is a statistic of what its last word counts (``max num steps 43``: an
    #: RL episode's length), never the step even when that word names one (unless a position word comes between:
    #: ``Average loss at step 2000: 4.52`` names the step)
    statistic_words: frozenset[str] = frozenset({"max", "min", "mean", "avg", "average", "median", "std"})
    #: a name opening with one of these words is the mean of what the rest of it names: an epoch's own record
    #: ``avg_loss`` (neuralhydrology's ``Epoch 3 average loss: avg_loss: 0.0897``) records the value a bar beside it
    #: shows batch by batch as ``Loss`` (``engine._view_name``)
    mean_words: frozenset[str] = frozenset({"avg", "average", "mean"})
    #: a word naming the training phase of an epoch's report (``Avg Train Metrics --- Loss: 2.51``, beside ``Avg Eval
    #: Metrics --- ...``: ``epoch_reports``)
    train_phase_words: frozenset[str] = frozenset({"train", "training"})
    #: a population's statistics by rank (an evolution strategy's ``bestever, best, median, worst objective function
    #: value``: each word one column of the quantity named after the last, ``tables_text._listed_header``)
    population_words: frozenset[str] = frozenset({"best", "bestever", "worst", "median", "mean", "min", "max"})
    #: a name holding one of these words is a running best (hyperopt's ``best loss``, scikit-optimize's ``Current
    #: minimum``): while it never rises, each redraw at a new count is that count's value, a repeat included
    running_best_words: frozenset[str] = frozenset({"best", "bestever", "min", "minimum", "lowest", "smallest"})
    #: the name a combinatorial solver's progress line gives its best objective so far (OR-Tools CP-SAT's ``#3  0.05s
    #: best:17283 next:[0,17282]  main``, the line at its 3rd solution): in a record at a position naming no value of
    #: a known kind, the record's running best (``incumbents.progress_best``); elsewhere no metric (``skip_names``)
    progress_best_names: frozenset[str] = frozenset({"best"})
    #: a solver's table's column holding its incumbent, the best solution's objective so far (SCIP's ``primalbound``
    #: beside its ``dualbound``; ``incumbent``): the run's objective at each row marked a new incumbent
    #: (``incumbents.IncumbentTable``), a best so far (``objective.search_objective``)
    incumbent_names: frozenset[str] = frozenset({"primalbound", "primal bound", "incumbent"})
    #: a best so far named alone by its initials (LEAP's ``FitnessStatsCSVProbe``: ``step, bsf, mean_fitness, ...``):
    #: beside a population's mean, the population's best found so far (``objective.population_best_and_mean``)
    best_so_far_names: frozenset[str] = frozenset({"bsf"})
    #: the epoch (``Epoch 3:``, ``'epoch': '0.124'``, ``Epoch 1/10`` with the run's epoch count)
    epoch_names: frozenset[str] = frozenset({"epoch", "ep", "train/epoch", "epoch_num", "progress_or_epoch"})
    #: a split's name before a counter in parentheses ``name (n/N)`` counts that split's passes over its data: the
    #: epoch (catalyst's ``train (3/8) loss: 0.52 | ...`` and ``valid (3/8) ...``; ``val[ 0/40]`` counts batches)
    pass_names: frozenset[str] = frozenset({"train", "training", "valid", "validation", "val", "test", "eval"})
    #: a counter within an epoch (``batch 3/94``); an unnamed ``n/N`` (a progress bar) is one too
    #: (PyTorch-BigGraph's ``bucket 2 / 4``: a pair of partitions, trained in turn within an epoch's edge chunk)
    inner_names: frozenset[str] = frozenset({
        "batch", "batches", "minibatch", "mini-batch", "batch_idx", "bucket", "buckets"})
    #: beside such a counter with no total, a count of what the run has consumed that never restarts (an estimator's
    #: ``[Epoch 1][Batch 0][Samples 672]``): where the counter restarts, the batches run since its last print
    #: (``engine._continue_inner``)
    consumed_names: frozenset[str] = frozenset({"samples", "examples", "samples seen", "seen samples", "num_samples"})
    #: a run's batch size as its printed settings name it (``batch_size: 32``, ``Namespace(batch_size=64)``; a split's
    #: own, ``eval_batch_size``, is not): what a counter of samples steps by (``bar_steps.sample_counts``)
    batch_size_names: tuple[str, ...] = ("batch_size", "batch-size", "batchsize")
    #: a table's column telling apart the processes whose rows interleave (rlberry's ``worker``): one series each,
    #: the lowest's the run's (``Plan.worker``)
    worker_names: frozenset[str] = frozenset({"worker", "worker_id", "rank"})
    #: a tag opening a log record's message that names the process printing it (NVFlare's simulator: ``... - INFO -
    #: site=site-1, Epoch: 0/1, ...``; ``rank=0 ...``; ``[worker-2] ...``): ``name=value``, ``name: value`` or
    #: ``[name-N]`` with one of these names, the value numbered (``site-1``, ``3``, ``gpu0``); a process as a
    #: launcher's prefix names one (``streams.py``)
    process_tag_names: tuple[str, ...] = (
        "site", "rank", "worker", "client", "node", "party", "process", "proc", "learner", "actor")
    #: the last word of a position's name that counts a unit larger than the step a record prints (a federated
    #: learning round: ``Round 3 started.``, ``current_round=3``; a registration's resolution or pyramid level,
    #: elastix's ``Resolution: 1`` over its iteration table, ``ItNr`` from 0 again): a step counter going back to its
    #: start under a later one continues (``engine._continue_rounds``)
    outer_unit_words: frozenset[str] = frozenset({"round", "resolution", "level"})
    #: numbers that are neither metrics nor positions
    skip_names: frozenset[str] = frozenset({
        "rank", "local_rank", "pid", "tid", "line", "port", "seed", "v_num", "version", "dataloader", "gpu", "gpus",
        "device", "worker", "workers", "node", "nodes", "eta", "total_steps", "max_steps", "max_epochs", "epochs",
        "num_epochs", "num_train_epochs",
        "percentage", "percent", "of", "world_size", "world size", "total", "remaining", "run", "id", "micro_step",
        "best",
        # processes a step runs on (a dataset map's bar, ``Map (num_proc=4): 100%|##| 144/144``): a setting
        "num_proc", "num_workers",
        # how many best checkpoints are kept (Lightning's ``saving model to '...' as top 1``, ``was not in top 3``)
        "top"})
    #: words between a quoted name and its value that say the value is the name's (Lightning's ModelCheckpoint:
    #: ``'train_loss' reached -0.05``): the name is the quoted one (``'train' took 1.3 s`` keeps its words)
    value_verbs: frozenset[str] = frozenset({
        "reached", "is", "was", "became", "now", "improved to", "changed to", "equals", "decreased to",
        "increased to"})
    #: a number in parentheses after a metric's value under one of these words is a statistic of that metric so
    #: far (Lightning's ``'train_loss' reached -0.05 (best -0.05)``, ``loss 0.52 (avg 0.61)``): no point of its own
    aside_words: frozenset[str] = frozenset({
        "best", "avg", "average", "mean", "running", "run avg", "running avg", "running mean", "moving avg", "ema",
        "smoothed", "min", "max", "median", "prev", "previous", "last best"})
    #: statistics of an estimate printed in brackets right after its value (a Monte Carlo estimate's ``Energy=-8.31
    #: [σ²=7.6e+00, R̂=1.006]``: its variance, the chains' Gelman-Rubin R̂, its autocorrelation time, standard error,
    #: effective sample size): no points of their own (``fields._of_estimate``)
    estimate_statistics: frozenset[str] = frozenset({
        "σ²", "σ^2", "σ", "sigma", "sigma²", "sigma^2", "var", "variance", "r̂", "rhat", "r_hat", "r hat", "τ",
        "tau", "tau_corr", "taucorr", "τ_corr", "stderr", "std_err", "sem", "ess", "n_eff", "neff"})
    #: a word outside the metric names that makes the line an evaluation record (its metrics get a ``val_`` name
    #: unless they already say so)
    eval_words: frozenset[str] = frozenset({
        "val", "valid", "validation", "validating", "eval", "evaluation", "evaluating", "test", "testing", "dev"})
    #: a value printed for a metric not measured yet (litgpt's ``val: n/a`` before its first validation): the name
    #: before it is no word of the line's (a split's bare name so named marks no evaluation record)
    placeholder_values: frozenset[str] = frozenset({"n/a", "n.a.", "none", "null"})
    #: names of a final summary record (HF's ``train_runtime``...): the record is no point (its ``train_loss`` is
    #: the run's average)
    summary_names: frozenset[str] = frozenset({
        "train_runtime", "train_samples_per_second", "train_steps_per_second", "total_flos"})
    #: a line holding one of these announces a summary: the record after it (or after the table's header printed
    #: again under it) is a report, not a point: OR-Tools PDLP's ``Final solution stats:`` over its header and the
    #: returned point's row, at the last step again, another iterate's values than the table's row there (fixpdlp)
    summary_markers: tuple[bytes, ...] = (b"best iteration is", b"best iteration:", b"best epoch is",
                                          b"final solution stats")
    #: log levels in front of a metric name (``INFO train loss 2.3``) are not part of it
    level_words: frozenset[str] = frozenset({
        "info", "debug", "warning", "warn", "error", "critical", "trace", "notice", "main", "root", "log"})
    #: a split's name alone before its number is that split's loss (build-nanogpt's ``12 train 3.10``)
    bare_names: dict = field(default_factory=lambda: {"train": "train_loss", "val": "val_loss", "valid": "val_loss",
                                                      "test": "test_loss", "learn": "train_loss",
                                                      "hella": "val_hellaswag_acc"})
    #: a progress bar holding one of these is Lightning's, whose logged step is the bar's counter - 1
    zero_based_markers: tuple[bytes, ...] = (b"v_num=",)
    #: a table whose header holds one of ``loss_table_markers`` names its ``loss_table_columns`` ``train/X_loss``
    #: (YOLOv5's ``Epoch gpu_mem box obj cls``); one holding an ``eval_table_markers`` name is an evaluation table
    loss_table_markers: frozenset[str] = frozenset({"gpu_mem"})
    loss_table_columns: frozenset[str] = frozenset({"box", "obj", "cls", "dfl", "seg", "kobj", "pose"})
    eval_table_markers: frozenset[str] = frozenset({"class", "images"})
    #: a table's column names that say what the column is in a framework's own words (spaCy's ``E`` and ``#``),
    #: and the name it is read under (``tables_text.py``; pycma's display abbreviates its ``Iterat``ion)
    #: (an evolutionary algorithm's ``Gen``eration; an optimiser's loop index ``i``; a solver's ``It.``)
    table_names: dict = field(default_factory=lambda: {"E": "epoch", "#": "step", "Iterat": "iteration",
                                                       "Gen": "generation", "i": "iteration", "Itn": "iteration",
                                                       "It.": "iteration"})
    #: a table whose step column is named one of these sums its losses over the steps since the row before (spaCy's
    #: ``#``: a row every ``eval_frequency`` updates): its row at step 0 sums a single update, no point of a loss
    partial_first_steps: frozenset[str] = frozenset({"#"})
    #: a table whose header holds one of these words names a model's layers (YOLO's ``from n params module
    #: arguments``, Keras' ``Layer (type)  Output Shape  Param #``, torchinfo, Lightning's summary): no series
    summary_table_words: frozenset[str] = frozenset({"params", "param", "parameters", "module", "arguments", "shape",
                                                     "coef"})
    #: a header whose first column is one of these heads a fitted model's coefficient table (a statistics summary
    #: printed once: statsmodels' ``coef  std err  z  P>|z|  [0.025  0.975]`` over ``ar.L1``, ``ma.L1``, ``sigma2``
    #: rows, whatever its other cells: a glued test's name, an interval's bounds): its row names are never metrics
    coefficient_headers: frozenset[str] = frozenset({"coef", "coef."})
    #: the row of a vertical table (a block per iteration, ``blocks.py``) that is its step, the first one present
    #: (stable-baselines3's ``time/total_timesteps``; Ray Tune's ``training_iteration``)
    block_step_names: tuple[str, ...] = (
        "total_timesteps", "num_timesteps", "timesteps", "timesteps_total", "global_step", "step", "steps",
        "training_iteration", "iterations", "iteration", "iter", "n_updates", "epoch", "episode", "episodes")
    #: a transposed table's rows (``transposed.py``: DI-engine's ``| Name | a | b |`` over ``| Value | 1 | 2 |``): the
    #: first cell of its row of names, and of its row of values
    transposed_rows: tuple[tuple[str, str], ...] = (("name", "value"), ("key", "value"), ("metric", "value"))
    #: a word of a message naming the agent of an evaluation (DI-engine's ``[EVALUATOR]``): its records are an eval's
    eval_agents: frozenset[str] = frozenset({"evaluator", "validator", "tester"})
    #: the key of a statistics row naming its current value (livelossplot's ``training (min: .., max: .., cur: ..)``,
    #: ``stat_rows.py``; lpd's tree-drawn ``curr:6.92, prev:inf, best:6.92``, ``tree_blocks.py``); the other keys
    #: summarise the points so far
    current_words: frozenset[str] = frozenset({"cur", "curr", "current", "value", "last", "latest", "now"})
    #: a statistics row named by a split under a metric's heading (``Loss`` / ``validation``) is that split's value
    #: of the metric: the prefix its name takes (``val_loss``); any other row keeps its own name
    split_rows: dict = field(default_factory=lambda: {
        "training": "", "train": "", "validation": "val_", "valid": "val_", "val": "val_", "test": "test_",
        "testing": "test_", "trainset": "", "validset": "val_", "valset": "val_", "testset": "test_"})
    #: a second unnamed value beside the one a heading names, on rows under a one-name heading (pzflow's ``Loss:``
    #: over ``(3) 2.3386  2.3645``, train then validation: ``headed_rows.py``): the prefix its name takes
    beside_heading_prefix: str = "val_"
    #: a JSON record nested one level under one of these keys is that split's record (deeppavlov's
    #: ``{"train": {"epochs_done": 1, "batches_seen": 10, "metrics": {...}, "loss": 0.9}}``): the prefix its
    #: ``metrics`` sub-dict's names take (``split_records.py``)
    record_splits: dict = field(default_factory=lambda: {
        "train": "", "training": "", "valid": "val_", "validation": "val_", "val": "val_", "dev": "val_",
        "test": "test_", "eval": "eval_", "evaluation": "eval_"})
    #: in such a record, its counters by name: the batches' (finest first) and the epochs'
    record_batch_counters: tuple[str, ...] = (
        "batches_seen", "global_step", "step", "current_steps", "iteration", "iter", "num_updates", "update", "_step")
    record_epoch_counters: tuple[str, ...] = ("epochs_done", "epoch", "epoch_num")
    #: an arrow between a metric's name and its values per split (torchfitter's ``loss -> Train: 3.43e+00 |
    #: Validation: 2.56e+00``): each split's value is that split's of the metric (``arrow_splits.py``)
    split_arrows: tuple[bytes, ...] = (b"->", b"=>", "\u2192".encode())
    #: a mark a table prints before a cell whose value is a new best (hippynn's ``Loss  :    *    2.4951   *
    #: 2.0084``), there or not from row to row: no part of the row (``templates.unmark_best``)
    best_marks: str = "*"
    #: a mark printed alone before a row's label to set the row apart (nequip's summary rows ``! Train  1  0.845 ...``,
    #: ``! Validation ...`` under ``  Train  #  Epoch  wal ...``): no cell of the row, the label after it names the row
    row_marks: str = "!>"
    #: a record headed by one of these phrases (before its first value) measures the model before its unit of work
    #: trains (PyTorch-BigGraph's ``( 0 , 1 ): Stats before training: pos_rank: 554.5 , mrr: 0.013 , ...`` before
    #: each bucket, beside its ``Stats after training: ...``): its names take the prefix, a series apart from the one
    #: measured after it
    heading_prefixes: dict = field(default_factory=lambda: {"before training": "before_"})
    #: a quantity measured after a unit's own local work, beside the same quantity measured before it (federated
    #: learning's ``Train population | loss after local training``: each device's loss after its local steps; the
    #: loss ``before local training`` is the central model's): the phrase after and the phrase its twin holds. The
    #: twin measured before is the run's loss (``objective.choose_primary_loss``)
    local_work_twins: dict = field(default_factory=lambda: {
        "after local training": "before local training", "after local update": "before local update",
        "after local updates": "before local updates"})
    #: a preposition between a metric's name and its position (``Loss after epoch 3: 0.52``, ``Average loss at
    #: step 2000: 4.52``): the value after the position is named by the words before it
    position_words: frozenset[str] = frozenset({"after", "at", "for", "in", "of", "on"})
    #: the longest metric name, in words (``number of skipped iterations``)
    name_words: int = 4
    #: names a framework abbreviates or words otherwise, and the name they are read under (llm.c's ``trl``/``tel``/
    #: ``norm``, DeepSpeed's cumulative ``skipped``, Megatron's ``lm loss value`` in its validation record)
    aliases: dict = field(default_factory=lambda: {
        "trl": "train_loss", "tel": "val_loss", "norm": "grad_norm", "skipped": "skipped_steps",
        "lm loss value": "lm_loss", "lm loss PPL": "lm_loss_ppl", "validation loss": "val_loss", "dt": "step_time",
        "tok/sec": "tokens_per_sec", "LR": "lr", "average reward score": "average_reward", "valid loss": "valid_loss",
        "val loss": "val_loss",
        "valid ppl": "valid_ppl", "test loss": "test_loss", "test ppl": "test_ppl",
        "chosen_last_scores": "reward_score",
        # MushroomRL's ``Epoch 3 | J: -91.6``: J, the mean discounted return of its evaluation episodes (RL's objective)
        "J": "eval_discounted_return",
        # ElegantRL's evaluator table: the mean / spread of its evaluation episodes' returns (``avgR``, ``stdR``) and
        # lengths (``avgS``, ``stdS``), the critic's loss and the actor's objective (``objC``, ``objA``)
        "avgR": "avg_return", "stdR": "std_return", "avgS": "mean_episode_length", "stdS": "std_episode_length",
        "objC": "critic_loss", "objA": "actor_objective",
        # a swarm's global best (particle swarm's ``gbest``: the best any particle found so far); a norm of the
        # gradient written as one (``|g|``, an optimiser's table beside its objective ``f``)
        "gbest": "global best", "|g|": "grad_norm",
        # a clustering's new cost after an iteration's moves (k-prototypes' ``moves: 23, ncost: 5261.7``)
        "ncost": "cost",
        # a JVM optimizer's phrase naming two values (breeze's ``Val and Grad Norm: 0.494965 (rel: 0.285) 0.0976562``):
        # the objective's value first (its relative change aside, the gradient's norm last): the value
        "Val and Grad Norm": "f value"})
    #: a number with one of these units glued on (``train_time:216ms``, ``time: 35.58s``) keeps its unit in its
    #: name (``train_time_ms``); a unit in brackets after a name stays (``elapsed time per iteration (ms)``)
    time_units: frozenset[str] = frozenset({"ms", "s", "us", "min", "mins", "sec", "secs", "h"})
    #: names whose zero means "not computed" (Megatron prints ``grad norm: 0.000`` when it skipped the norm): no point
    zero_is_absent: frozenset[str] = frozenset({"grad norm"})
    #: a progress bar holding one of these is Keras' meter: its metrics are the epoch's running averages, so the
    #: record is the epoch's (its step is the epoch, its last state counts), as Keras' History has it
    epoch_bar_markers: tuple[bytes, ...] = (b"/step", b"[] - ")  # the bar's body is gone by then (lines.py)
    #: a progress bar per epoch whose description holds one of these words at its total (torch-training-loop's
    #: ``Epoch 3/10 - Finished: 100%|...| 20/20 [..., loss=0.1495; val_loss=0.2228]``) is redrawn at the epoch's end
    #: with the epoch's record: its values are the epoch's, at the epoch (``bar_steps.epoch_done_bar``)
    epoch_done_words: frozenset[str] = frozenset({"finished", "done", "complete", "completed", "end", "ended"})
    #: a name ending in one of these extensions is a source location (``[logging.py:96:log_dist]``), not a metric
    source_suffixes: frozenset[str] = frozenset({
        "py", "pyx", "c", "cc", "cpp", "cu", "h", "hpp", "rs", "go", "java", "js", "ts", "sh", "lua", "jl"})
    #: a name ending in one of these words is prose (``reducing to``, ``but hysteresis is``), not a metric
    #: (a verb before a name is no part of it either: DFO-LS's ``Function eval 7 at point 7 has obj = 3.378`` names
    #: ``obj``)
    prose_words: frozenset[str] = frozenset({
        "to", "from", "is", "are", "was", "were", "has", "have", "had", "of", "at", "by", "with", "and", "but", "or",
        "for", "in", "on", "as",
        "than", "into", "the", "a", "an"})
    #: a name "total ..." ending in one of these counts a setting (``Total Micro Batches 460``), not a metric
    count_nouns: frozenset[str] = frozenset({
        "batches", "samples", "steps", "iterations", "iters", "epochs", "examples", "tokens", "params", "parameters",
        "images", "sequences", "updates"})
    #: a number followed by one of these words counts things (``8 images, 0 backgrounds``, ``Found 100 samples``,
    #: ``3 batches``): a count, not the value of the name before it; the word names no number after it either
    #: (``0 corrupt: 100%``), and a table's column named so (ultralytics' ``Images``, ``Instances``) is no metric
    counted_nouns: frozenset[str] = frozenset({
        "image", "images", "sample", "samples", "example", "examples", "file", "files", "batch", "batches", "item",
        "items", "instance", "instances", "token", "tokens", "label", "labels", "background", "backgrounds",
        "corrupt", "duplicate", "duplicates", "missing", "empty", "class", "classes", "sequence", "sequences",
        "sentence", "sentences", "document", "documents", "record", "records", "row", "rows", "word", "words",
        "shard", "shards", "object", "objects", "box", "boxes", "video", "videos", "clip", "clips", "frame",
        "frames", "pair", "pairs", "user", "users", "node", "nodes", "edge", "edges", "graph", "graphs"})
    #: a number followed by one of these units of a run's length is a count in prose too (ignite's ``epoch 0
    #: until 8 epochs``, ``for 100 steps``): no value of the word before it (``until``); unlike a counted noun's, a
    #: table's column named so is left to the table's step rules
    length_units: frozenset[str] = frozenset({
        "epochs", "steps", "iterations", "iters", "generations", "rounds", "episodes", "updates"})
    #: a table's column named ``number_of_<unit>`` with one of these units (h2o's ``Scoring History``:
    #: ``number_of_trees`` printed 0.0, 1.0, ...) over whole numbers is its step: the run's length so far
    step_count_units: frozenset[str] = frozenset({
        "trees", "estimators", "rounds", "iterations", "iters", "steps", "updates", "generations"})
    #: words of a date printed before a clock at a line's start (``05 Dec 20:28 INFO ...``, ``Sat 05 Dec 2026
    #: 20:28:13``): with the clock they are a time stamp, whose numbers (the day, the year, the hour) are no fields
    date_words: frozenset[str] = frozenset({
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "january",
        "february", "march", "april", "june", "july", "august", "september", "october", "november", "december",
        "mon", "tue", "wed", "thu", "fri", "sat", "sun", "monday", "tuesday", "wednesday", "thursday", "friday",
        "saturday", "sunday"})
    #: a line holding one of these is an event, counted under the name (cumulative) at the step it happens at
    #: (DeepSpeed's fp16 loss-scale overflows, benign calibration: never a NaN loss)
    event_markers: tuple[tuple[bytes, str], ...] = (
        (b"OVERFLOW! Rank 0 Skipping step", "overflow_skips"), (b"Overflow detected. Skipping step", "overflow_skips"))
    #: a JSON record's step, the first of these it holds (``jsonl.py``): a counter of updates before one of epochs or
    #: rounds (lenskit's structlog records ``{"epoch": 3, "loss": ..., "event": "finished epoch"}``, a boosting or
    #: federated round); chosen on the first record holding one (``record_steps.py``)
    record_step_keys: tuple[str, ...] = (
        "step", "global_step", "current_steps", "iteration", "iter", "num_updates", "update", "_step", "epoch_num",
        "epoch", "round")
    #: where a logger's JSON record nests the values a program passed it (loguru's ``serialize=True``: ``{"text": ...,
    #: "record": {"extra": {"epoch": 3, "loss": 0.5}, "line": 42, "level": {...}, "time": {...}, ...}}``, flattened
    #: as ``record/extra/epoch``): a step key there is the record's step, the logger's own fields beside it no series
    #: of the training (``record_steps.py``)
    record_extra_prefixes: tuple[str, ...] = ("record/extra/",)
    #: a logger's numbers of every record (Python's ``LogRecord`` attributes a JSON formatter may add:
    #: python-json-logger's ``%(lineno)d %(process)d``; structlog's ``CallsiteParameterAdder``): no series of the
    #: training, so a record holding them read at an index does not keep a later record's step key from being chosen
    #: (``record_steps.py``)
    record_location_keys: frozenset[str] = frozenset({
        "lineno", "line", "levelno", "process", "thread", "pid", "tid", "process_id", "thread_id", "created", "msecs",
        "relativeCreated", "relative_created"})
    #: a line opening so is a tracker's shutdown talk: it may follow the exception a log ends with (run_end.py)
    end_noise_prefixes: tuple[str, ...] = ("wandb:",)
    #: a native library's exception a log ends with (``native_errors``: ITK's ``ITK ERROR: Class(0x..): message``
    #: under the ``file.hxx:389:`` it was thrown at): the words its tag may have at most, the source files' extensions
    native_error_tag: int = 3
    native_source_exts: tuple[str, ...] = (".hxx", ".cxx", ".txx", ".cpp", ".cc", ".c", ".h", ".hpp", ".hh")
    #: exceptions that end a run from outside its training (a person's interrupt, a closed pipe or connection at
    #: teardown): said, never a question of the run's health (tools/signals/run_end.py)
    outside_ends: frozenset[str] = frozenset({
        "KeyboardInterrupt", "BrokenPipeError", "ConnectionResetError", "SystemExit", "SIGTERM", "Terminated"})


DIALECT = Dialect()
