"""The run's objective among its metrics: the one train loss that stands for the run, or, when no metric is named a
loss, the objective under another name or the state of the search an optimiser prints.

``roles.py`` reads what each name is; this module chooses among them (``assign_objective``), once per frame.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .parsers.dialect import DIALECT
from .roles import (
    ROLES,
    MetricRole,
    infer_role,
    is_adversarial,
    is_bare_running_best,
    is_current_state,
    is_energy,
    is_maximised,
    is_negated,
    is_regulariser,
    is_rl_return,
    names_best_so_far,
    norm_name,
    short_name,
)
from .thresholds import threshold_objective

# The objective a run minimises when no metric is named a loss (issue 19): cross-entropies, costs, boosting's
# training metrics, a solver's error (POT's ``Err``). Not a perplexity: its exp() scale turns a curriculum's early
# rise (DeepSpeed's seq_len warmup in the shared corpus, healthy) into a divergence; a run judged by its perplexity
# names it with loss_metric.
# A perplexity named the training's (``Train-ppl``, ``train perplexity``): the run's objective only when no loss nor
# other objective is logged.
_TRAIN_PERPLEXITY = re.compile(r"^(train|training) (ppl|perplexity)$")
_SELDOM_OBJECTIVE = re.compile(r"\b(l1|mae|error|err)\b")  # reported beside the objective more often than trained on
_OBJECTIVE = re.compile(r"\b(nll|xent|ce|cost|objective|obj|l1|l2|rmse|mse|mae|logloss|mlogloss|binary logloss|"
                        r"distortion|multi logloss|huber|error|err|"
                        r"function value|f value|fval|fx|fnc|objfun|obj fun)\b"
                        r"|^f\(x\)$")  # (a function's value written as maths: pybads' table ``f(x)``)


# ... but a divergence minimised is the run's objective when nothing else is (openTSNE's ``KL divergence``: an
# embedding fitted to its affinities; no loss, no other metric with a direction, no RL return beside it)
_DIVERGENCE = re.compile(r"\b(kl|kld|kl div|kl divergence|kullback leibler|divergence)\b")

# ... and an evidence lower bound named as such (``elbo``, ``elbo_train``, ``ELBO``, ``neg_elbo``, ``-elbo``) is a
# variational run's objective when no loss is named. Its direction is not in its name (libraries log the negative
# ELBO as a positive loss; users print the bound itself, maximised): ``MetricFrame._search_direction`` tells it from
# the run's own start, as for a population's statistics. An eval ELBO (``elbo_validation``) takes the train one's.
_EVIDENCE_BOUND = re.compile(r"\b(elbo|evidence lower bound)\b")
_BOUND_EVAL = re.compile(r"\b(val|valid|validation|eval|evaluation|test|dev|holdout)\b")

_PRIMARY_TRAIN = ["train loss", "train lm loss", "loss", "lm loss", "training loss", "train loss step", "total loss",
                  "trl", "train total loss", "loss train", "train loss epoch", "train/loss"]

# An entropy bonus among an RL run's losses (stable-baselines3's train/entropy_loss): a term, never the run's loss.
_ENTROPY_TERM = re.compile(r"(?<!cross )\bentropy loss\b|\bent coef loss\b")  # SAC's temperature's loss too
# A KL divergence among a run's losses (TRPO's ``kl_divergence_loss``, a trust region's constraint; a VAE's ``kl_loss``,
# its prior's pull): a term held or traded against the loss, not what the run lowers, beside another loss.
_KL_TERM = re.compile(r"\bkl\b")
# A regularisation term among a run's losses (tensorpack's ``regularize_loss``, ``reg_loss``, ``l2_loss``, a weight
# decay's): added to the loss, never what stands for the run beside another loss.
_REG_TERM = re.compile(r"\b(regularize|regularise|regularization|regularisation|regularizer|regulariser|reg|l2|"
                       r"weight decay|wd) loss\b")
# A total named a cost or an objective (tensorpack's ``total_cost`` = its cost + ``regularize_loss``) beside losses:
# the run's loss, its total.
_TOTAL_COST = re.compile(r"^(train )?total (cost|objective)$")
# Among an actor-critic's losses, the critic's (a regression to the returns) stands for the run, not the actor's
# (minus the critic's value).
_CRITIC = re.compile(r"\b(critic|value|vf|qf)\b")
# A policy-gradient term among an RL run's losses (``Dialect.policy_gradient_terms``: PPO's surrogate, A2C's policy
# gradient): beside a value (critic) loss or a total loss, the run is judged by that, whatever other term is logged.
_POLICY_TERM = re.compile(r"\b(" + "|".join(sorted(map(re.escape, DIALECT.policy_gradient_terms))) + r")\b")


@dataclass(frozen=True)
class SearchObjective:
    """The state of a search that stands for the run when no metric is named a loss. ``kind``: ``current_state``
    (the optimiser's value at its current point beside a running best), ``running_best`` (the best found so far named
    alone), ``population_mean`` (a population's mean beside its best and worst),
    ``best_beside_mean`` (the best individual's fitness beside the population's average), ``population_stat`` (a
    population's lowest value or mean among its statistics), ``divergence`` (a divergence minimised, nothing else),
    ``threshold`` (a sampler's acceptance threshold, nothing else with a direction: ``thresholds.py``).
    ``evidence_bound`` (an ELBO named as such, its direction told by its start; ``evals``: its eval twins),
    ``incumbent`` (a solver's best solution so far: SCIP's ``primalbound``, its direction told by its values).
    ``best``/``worst``/``mean`` name the statistics beside it that tell its direction (``MetricFrame``)."""

    name: str
    kind: str
    best: str | None = None
    worst: str | None = None
    mean: str | None = None
    evals: tuple[str, ...] = ()


@dataclass(frozen=True)
class Objective:
    """Every column's role, with exactly one primary train loss where any train loss exists, and the search's state
    when that is what the primary loss is."""

    roles: dict[str, MetricRole]
    search: SearchObjective | None = None


def assign_roles(names: list[str], overrides: dict[str, str] | None = None,
                 counts: dict[str, int] | None = None) -> dict[str, MetricRole]:
    """``assign_objective``'s roles."""
    return assign_objective(names, overrides, counts).roles


def assign_objective(names: list[str], overrides: dict[str, str] | None = None,
                     counts: dict[str, int] | None = None) -> Objective:
    """Roles for every column, with exactly one primary train loss where any train loss exists.

    ``overrides`` maps a column name to a role, optionally ``role:direction``
    (e.g. ``{"my_metric": "eval:max", "objective": "train_loss"}``).
    """
    roles: dict[str, MetricRole] = {}
    for name in names:
        roles[name] = infer_role(name)
    for name, spec in (overrides or {}).items():
        if name not in roles:
            continue
        role, _, direction = spec.partition(":")
        if role not in ROLES:
            raise ValueError(f"unknown role {role!r} for {name!r}; roles are {', '.join(ROLES)}")
        if not direction and role in ("train_loss",):
            direction = "min"
        roles[name] = MetricRole(role, direction or roles[name].direction)
    named = [n for n, spec in (overrides or {}).items() if spec.startswith("train_loss") and n in roles]
    losses = named or [n for n, r in roles.items() if r.role == "train_loss"]  # the loss a user named wins
    if losses and not named:
        for n, r in roles.items():
            if r.role == "train_metric" and _TOTAL_COST.search(norm_name(n)):
                roles[n] = MetricRole("train_loss", "min")  # (the total of the losses beside it)
                losses.append(n)
    if not losses:
        # a primal-dual solver's table (SCS's ``pri res | dua res | gap | obj``): its primal residual is the objective,
        # the objective's value a diagnostic without a direction (``primal_residual``)
        if (residual := primal_residual(names, overrides or {})) is not None:
            for n in names:  # (a gap beside it goes to zero from either side: no direction either)
                if norm_name(n) in DIALECT.solver_objective_names | DIALECT.duality_gap_names and n not in (
                        overrides or {}):
                    roles[n] = MetricRole("other", None)
            return _primary(roles, residual, None)
        if (gap := duality_gap(names, overrides or {})) is not None:  # ... else the gap between its objectives
            for n in names:
                if norm_name(n) in DIALECT.solver_objective_names and n not in (overrides or {}):
                    roles[n] = MetricRole("other", None)
            return _primary(roles, gap, None)
        search = search_objective(names, roles, overrides or {})
        if search is not None and search.kind in ("running_best", "current_state", "incumbent"):
            return _primary(roles, search.name, search)
        # No loss by name: the objective under another name (nll, xent, cost; boosting's l2, rmse, logloss)
        losses = [n for n, r in roles.items() if r.role == "train_metric" and r.direction == "min"
                  and (_OBJECTIVE.search(short_name(n)) or is_energy(n)) and not is_regulariser(n)]
        for n in losses:
            roles[n] = MetricRole("train_loss", "min")
        if counts and losses:  # (a summary printed once at the end, h2o's ``MSE: 0.26``, cannot stand for the curve)
            losses = _logged_as_curves(losses, counts)
        losses = _without_running_twins(losses)
        if losses:  # the objective is logged first (xgboost's train-rmse before train-mae), a likelier one before
            # a metric that is seldom one (lightgbm's metric=["l1", "l2"] prints l1 first for its l2 objective)
            # (an energy named alone after any other: a force field's target beside its fitting error; a variational
            # run logs it alone)
            first = min(losses, key=lambda n: (is_energy(n), bool(_SELDOM_OBJECTIVE.search(norm_name(n))),
                                               losses.index(n)))
            ranked = population_objective(losses, without_mean=True)
            if ranked is None:
                return _primary(roles, first, None)
            # statistics of one objective over a population: its mean (its direction told by its best and worst),
            # else its best
            mean, best, worst = ranked
            search = SearchObjective(mean, "population_mean", best, worst) if mean != best else None
            return _primary(roles, mean, search)
        # ... or a solver's table that names no loss (an iterative solver's ``Itn  x[0]  r2norm  r12norm  xupdate``):
        # its cost (``solver_cost``)
        cost = solver_cost(names, roles) if search is None else None
        if cost is None and search is None:
            cost = optimiser_metric(names, roles)  # (or its table's ``Metric``: elastix's)
        if cost is not None:
            return _primary(roles, cost, None)
        # ... or an objective named maximised (a monitored log-likelihood the reader named from its rows): the run's
        # objective, higher is better
        maxed = [n for n, r in roles.items() if r.role == "train_metric" and is_maximised(n)]
        if maxed and search is None:
            roles[maxed[0]] = MetricRole("train_loss", "max", primary=True)
            return Objective(roles)
        if search is not None:
            return _primary(roles, search.name, search)
        # ... or a perplexity named the training's (sockeye's ``Train-ppl``: the loss exponentiated), when nothing
        # else stands for the run; the first printed
        ppl = [n for n, r in roles.items() if r.role == "train_metric" and r.direction == "min"
               and _TRAIN_PERPLEXITY.search(short_name(n))]
        if ppl:
            return _primary(roles, ppl[0], None)
    if counts and losses and not named:
        # A summary logged once at the end (HF's final "train_loss") cannot stand for the curve.
        losses = _logged_as_curves(losses, counts)
        losses = _without_batch_samples(losses, counts)
        losses = _without_coarser_twins(losses, counts)
        kept = _without_epoch_totals(losses, counts)
        for n in losses:  # an epoch's total is no loss at all beside the step records: no signal watches it as one
            if n not in kept:
                roles[n] = MetricRole("train_metric", "min")
        losses = kept
    primary = choose_primary_loss(losses)
    if primary is not None:
        roles[primary] = MetricRole("train_loss", "min", primary=True)
    return Objective(roles)


# A quantity's record named the training's (a module trainer's ``Epoch[3] Train-mse=0.41``, its epoch's value over
# every batch) beside the same quantity named alone (``Batch [4-8]\tSpeed: ...\tmse=0.36``, the value over the
# batches since the last print, reset at each): the training's record is the train series.
_TRAIN_PREFIX = re.compile(r"^(train|training) ")


def _without_running_twins(names: list[str]) -> list[str]:
    """``names`` without a quantity named alone when the same quantity named the training's is among them: the
    epoch's own record (at a known step, the epoch, and over all its batches) over a running value (a window of
    batches whose steps the log leaves to be guessed)."""
    trained = {_TRAIN_PREFIX.sub("", short_name(n)) for n in names if _TRAIN_PREFIX.match(short_name(n))}
    kept = [n for n in names if short_name(n) not in trained]
    return kept or names


def _logged_as_curves(names: list[str], counts: dict[str, int]) -> list[str]:
    """``names`` without those logged far less often than the most logged (a summary printed once at the end, HF's
    final ``train_loss``, h2o's ``MSE: 0.26``): at least a tenth as often, or 3 times, of the most logged's count."""
    most = max(counts.get(n, 0) for n in names)
    if most <= 0:
        return names
    return [n for n in names if counts.get(n, 0) >= min(most, max(3, most // 10))]


# A solver's cost named by a letter alone (``J``) or defined as the terms it sums (pyproximal's ``J=f+eps*g``).
_COST_LETTER = re.compile(r"J(=\S+)?")
# A norm of the residual (pylops' and scipy's ``r1norm``, ``r2norm``, ``r12norm``; ``rnorm``), its digits the terms
# it covers: ``r12norm`` both the data term's (``r2norm``) and the regulariser's.
_RESIDUAL_NORM = re.compile(r"r(\d{0,3})norm|residual norm|resnorm")


def solver_cost(names: list[str], roles: dict[str, MetricRole]) -> str | None:
    """The objective of an iterative solver's table with no loss named: its cost (``J``, or ``J=...``, the name
    defining it as the sum of the other terms), else a norm of its residual, the one covering the most terms
    (``r12norm`` over ``r2norm``), the first printed among equals (``r1norm``, the residual's, before ``r2norm``,
    the damped one's). Never the solution's entries (``x[0]``), its update or its step: none of them a cost. Only when
    no other name has a direction (a loss, an accuracy, an evaluation)."""
    if any(roles[n].direction is not None for n in names):
        return None
    for n in names:
        if _COST_LETTER.fullmatch(n):
            return n
    norms = [(len(m.group(1) or ""), -k, n) for k, n in enumerate(names)
             if (m := _RESIDUAL_NORM.fullmatch(norm_name(n)))]
    return max(norms)[2] if norms else None


def optimiser_metric(names: list[str], roles: dict[str, MetricRole]) -> str | None:
    """The objective of an optimiser's table that names no loss and no cost but its figure of merit by a generic word
    (``Dialect.optimiser_metric_names``: elastix's iteration table ``ItNr  Metric  StepSize  ||Gradient||``, the
    similarity measure its registration minimises, negative for a correlation or a mutual information): that column,
    lower is better (a name saying it is maximised is ``is_maximised``'s). Only when no other name has a direction
    (a loss, an accuracy, an evaluation), as ``solver_cost``; the first printed."""
    if any(roles[n].direction is not None for n in names):
        return None
    return next((n for n in names if norm_name(n) in DIALECT.optimiser_metric_names), None)


def primal_residual(names: list[str], overrides: dict[str, str]) -> str | None:
    """The primal residual of a primal-dual solver's table (``Dialect.primal_residual_names``: SCS's ``pri res``,
    OSQP's ``prim res``, ECOS's ``pres``) printed beside a dual residual or a duality gap, the first printed; else
    None. Such a solver's health is its residuals going to zero (an infeasible or unbounded problem: a primal residual
    that jumps and never comes back); its objective's value, a constrained problem's, may rise or fall on the way."""
    normed = [norm_name(n) for n in names]
    if not any(m in DIALECT.dual_residual_names or m in DIALECT.duality_gap_names for m in normed):
        return None
    for n, m in zip(names, normed, strict=True):
        if m in DIALECT.primal_residual_names and n not in overrides:
            return n
    return None


def duality_gap(names: list[str], overrides: dict[str, str]) -> str | None:
    """The gap of a primal-dual solver's table that prints no residual (``primal_residual`` first): a gap
    (``Dialect.duality_gap_names``) beside a primal and a dual objective (``Dialect.primal_objective_names``,
    ``dual_objective_names``), the first printed; else None. The objectives of a constrained problem may rise or fall
    on the way; the gap between them going to zero is the solve's progress (judged by its size where it is signed:
    ``signals.signed_gap``). A gap beside one objective alone (celer's ``primal``, ``gap``) leaves the objective the
    run's (fixpdlp)."""
    normed = [norm_name(n) for n in names]
    if not any(m in DIALECT.primal_objective_names for m in normed) or not any(
            m in DIALECT.dual_objective_names for m in normed):
        return None
    for n, m in zip(names, normed, strict=True):
        if m in DIALECT.duality_gap_names and n not in overrides:
            return n
    return None


def _primary(roles: dict[str, MetricRole], name: str, search: SearchObjective | None) -> Objective:
    roles[name] = MetricRole("train_loss", "min", primary=True)
    return Objective(roles, search)


def search_objective(names: list[str], roles: dict[str, MetricRole],
                     overrides: dict[str, str]) -> SearchObjective | None:
    """The state of the search, for a run with no metric named a loss. One principle for an optimiser's values: the
    state of the search stands for the run, a single evaluation does not. A search that evaluates one point a step
    (scikit-optimize's calls, hyperopt's trials) prints each point's value, a draw from the space it explores, and the
    best so far, its progress: the best is the run's objective. An optimiser that moves one point (Adam, gradient
    descent, an evolution strategy's mean) reports that point's value as its ``Current`` beside its running ``Best``:
    the point is the search's state and the run's objective (judged by its best, a diverging optimiser would never
    stop), the best its progress. Where the step holds a population, its mean is that
    state (its best beside its average when no worst is logged: gplearn's table, whose best is the program kept).
    Tried in that order; then a population's statistics (DEAP's ``avg  min  max``), then a divergence minimised, then
    a sampler's acceptance threshold."""
    bare_best = [n for n in names if is_bare_running_best(n) and n not in overrides]
    current = [n for n in names if is_current_state(n) and n not in overrides]
    incumbent = [n for n in names if is_incumbent(n) and n not in overrides and not bare_best and not current]
    if incumbent:
        # a solver's incumbent (SCIP's ``primalbound``, ``Dialect.incumbent_names``): the best solution found so far,
        # the run's objective; its direction told by its values (``MetricFrame._search_direction``)
        return SearchObjective(incumbent[0], "incumbent")
    if bare_best and current:
        return SearchObjective(current[0], "current_state", best=bare_best[0])
    others = [n for n in names if roles[n].role == "other"]
    # (a best so far named alone beside a population's mean of one quantity: the population's, below)
    pair = population_best_and_mean(others + [n for n in bare_best if n not in others])
    if bare_best and (pair is None or pair[0] not in bare_best):
        return SearchObjective(bare_best[0], "running_best")
    # a best so far named with its quantity (``Best score seen/Incumbent score``), alone with nothing else judged (no
    # loss, no metric with a direction): the search's objective too, its direction told by its values
    # (``MetricFrame._best_so_far_by_values``)
    named_best = [n for n in names if names_best_so_far(n) and roles[n].role == "train_metric" and n not in overrides]
    if named_best and not any(roles[n].role in ("train_metric", "eval") and roles[n].direction is not None
                              for n in names if n not in named_best):
        return SearchObjective(named_best[0], "running_best")
    pop = population_objective(others)
    if pop is not None and pop[0] not in overrides:
        # a population's statistics of its fitness, none named a loss: its mean is the run's loss, minimised until
        # the values say otherwise (``MetricFrame``: its best above its worst)
        return SearchObjective(pop[0], "population_mean", best=pop[1], worst=pop[2])
    if pair is not None and is_population_running_best(pair[0]) and pair[1] not in overrides:
        # ... its best so far named alone (``bsf``): the search's progress, never rising; the population's mean is
        # its state and the run's objective (judged by its best, a diverging population would never stop), minimised
        # until the values say otherwise (``MetricFrame``: the best above the mean)
        return SearchObjective(pair[1], "best_beside_mean", best=pair[0], mean=pair[1])
    if pair is not None and pair[0] not in overrides:
        # the best individual's fitness beside the population's average (gplearn's table): the best is the run's
        # objective, minimised until the values say otherwise (``MetricFrame``: the best above the average)
        return SearchObjective(pair[0], "best_beside_mean", mean=pair[1])
    if (best := population_best(names)) is not None:
        return SearchObjective(best, "population_stat")
    if (bound := evidence_bound(names, roles, overrides)) is not None:
        return bound
    if (div := divergence_objective(names, roles)) is not None:
        return SearchObjective(div, "divergence")
    if (eps := threshold_objective(names, roles)) is not None:
        return SearchObjective(eps, "threshold")  # an ABC sampler's acceptance threshold (``thresholds.py``)
    return None


def is_incumbent(name: str) -> bool:
    """Whether ``name`` is a solver's incumbent column (``Dialect.incumbent_names``: SCIP's ``primalbound``)."""
    return norm_name(name) in DIALECT.incumbent_names


def evidence_bound(names: list[str], roles: dict[str, MetricRole],
                   overrides: dict[str, str]) -> SearchObjective | None:
    """The first train ELBO named as such with no role by its name (``elbo_train``, ``ELBO``; ``elbo loss`` is a loss
    already), its eval twins (``elbo_validation``) beside it; else None."""
    bounds = [n for n in names if roles[n].role == "other" and n not in overrides
              and _EVIDENCE_BOUND.search(norm_name(n))]
    train = [n for n in bounds if not _BOUND_EVAL.search(norm_name(n))]
    if not train:
        return None
    for n in bounds:
        if n not in train:
            roles[n] = MetricRole("eval", "min")
    return SearchObjective(train[0], "evidence_bound", evals=tuple(n for n in bounds if n not in train))

def divergence_objective(names: list[str], roles: dict[str, MetricRole]) -> str | None:
    """The first divergence minimised (``KL divergence``, ``kl``, ``kld``) when no other metric has a direction (no
    loss, accuracy, reward, evaluation): the objective of a run that minimises it (t-SNE); beside anything else it is a
    regulariser's diagnostic (RL fine-tuning's KL to the reference policy)."""
    divs = [n for n in names if _DIVERGENCE.search(norm_name(n)) and roles[n].direction == "min"
            and not is_negated(n)]
    if not divs:
        return None
    others = [n for n in names if n not in divs and roles[n].role in ("train_loss", "eval", "train_metric")
              and roles[n].direction is not None]
    if others or any(is_rl_return(n) for n in names):
        return None
    return divs[0]


# A population's statistics of one quantity per generation (an evolution strategy's ``mean_eval``, ``median_eval``,
# ``best_eval``, ``worst_eval``; ``avg_fitness`` / ``best_fitness`` / ``worst_fitness``): the quantity is what the
# run optimises (the fitness of each sampled solution), the population's mean the curve that stands for the run
_POP_MEAN = ("mean", "avg", "average")
_POP_BEST = ("best",)
_POP_WORST = ("worst",)


def population_objective(names: list[str], without_mean: bool = False) -> tuple[str, str, str] | None:
    """(the mean's name, the best's, the worst's) of the first quantity whose mean, best and worst are all logged
    (``mean_eval``, ``best_eval``, ``worst_eval``: the statistic as the first or last word), else None. With
    ``without_mean``, a quantity with a best and a worst and no mean gives its best in the mean's place (pycma's
    ``best``, ``median``, ``worst objective function value``: the iteration's best the curve)."""
    by: dict[tuple[str, str], str] = {}
    order: list[str] = []
    for n in names:
        words = norm_name(n).split()
        if len(words) < 2:
            continue
        for stat, rest in ((words[0], " ".join(words[1:])), (words[-1], " ".join(words[:-1]))):
            kind = ("mean" if stat in _POP_MEAN else "best" if stat in _POP_BEST
                    else "worst" if stat in _POP_WORST else None)
            if kind is not None and (kind, rest) not in by:
                by[(kind, rest)] = n
                if kind == "mean":
                    order.append(rest)
    for rest in order:
        if ("best", rest) in by and ("worst", rest) in by:
            return by[("mean", rest)], by[("best", rest)], by[("worst", rest)]
    if without_mean:
        for (kind, rest), n in by.items():
            if kind == "best" and ("worst", rest) in by:
                return n, n, by[("worst", rest)]
    return None


# What a population's statistics are of, named last (``Best Individual/Fitness``, ``Population Average/Fitness``,
# ``mean_fitness``, ``avg_cost``) or first (``fitness_mean``)
_POP_QUANTITIES = frozenset({"fitness", "objective", "eval", "cost"})


def _pop_stat(name: str) -> tuple[str, str] | None:
    """(the quantity, the statistic: ``mean``/``best``/``worst``) a name holds: a quantity of ``_POP_QUANTITIES`` as
    its last word or its first, one kind of statistic among the other words (``median``, ``std``, ``min`` none)."""
    words = norm_name(name).split()
    if len(words) < 2:
        return None
    for quantity, rest in ((words[-1], words[:-1]), (words[0], words[1:])):
        if quantity not in _POP_QUANTITIES:
            continue
        kinds = {"mean" if w in _POP_MEAN else "best" if w in _POP_BEST else "worst" if w in _POP_WORST else ""
                 for w in rest} - {""}
        return (quantity, kinds.pop()) if len(kinds) == 1 else None
    return None


def is_population_running_best(name: str) -> bool:
    """A best so far named alone (``bsf``: ``Dialect.best_so_far_names``; ``best so far``): beside a population's
    mean of one quantity, that quantity's best (``population_best_and_mean``)."""
    return norm_name(name) in DIALECT.best_so_far_names or is_bare_running_best(name)


def population_best_and_mean(names: list[str]) -> tuple[str, str] | None:
    """(the best's name, the mean's) of the first quantity (``_POP_QUANTITIES``, the name's last or first word) whose
    best and mean (a word of the name beside it: ``best``; ``average``, ``mean``, ``avg``) are logged and its worst is
    not (with a worst: ``population_objective``); of several bests of it, the one of fewest words (``Best
    Individual/Fitness`` before ``Best Individual/OOB Fitness``, its out-of-bag score). A quantity with a mean and no
    best of its own takes a best so far named alone beside it (``bsf``, ``is_population_running_best``)."""
    by: dict[str, dict[str, list[str]]] = {}
    for n in names:
        stat = _pop_stat(n)
        if stat is not None:
            by.setdefault(stat[0], {}).setdefault(stat[1], []).append(n)
    running = [n for n in names if is_population_running_best(n)]
    for stats in by.values():
        if "best" not in stats and running:
            stats["best"] = running[:1]
        if "best" in stats and "mean" in stats and "worst" not in stats:
            fewest = min(stats["best"], key=lambda n: len(norm_name(n).split()))
            return fewest, min(stats["mean"], key=lambda n: len(norm_name(n).split()))
    return None


# The statistics of a population's values, one column each (an evolutionary algorithm's table: DEAP's Logbook
# ``gen nevals avg std min max``, a chapter's ``fitness avg`` ... ``fitness max``): the population's best is its
# objective, its lowest value when nothing else names one (a loss, an error: minimised).
_POPULATION_STATS = ("avg", "mean", "std", "min", "max")


def population_best(names: list[str]) -> str | None:
    """The objective of a population's statistics, the first quantity's: its lowest value (``min``, ``fitness min``)
    when the columns beside it hold the same quantity's ``max`` and ``avg``/``mean`` under the same prefix (the
    current population's spread); its mean when its ``min`` has no ``max`` beside it (pymoo's ``f_avg  f_min``). A
    current value is preferred over a running best: a lowest value logged without the highest is the best found so
    far (an optimizer's ``f_min``, never rising), which hides a divergence the current population's mean shows."""
    by_prefix: dict[str, dict[str, str]] = {}
    for n in names:
        words = norm_name(n).split()
        if words and words[-1] in _POPULATION_STATS:
            by_prefix.setdefault(" ".join(words[:-1]), {})[words[-1]] = n
    for stats in by_prefix.values():
        mean = stats.get("avg") or stats.get("mean")
        if "min" in stats and mean is not None:
            return stats["min"] if "max" in stats else mean
    return None


# The granularity a loss is named with: one batch's (a sample) or the epoch's (its mean).
_BATCH_WORD = re.compile(r"\b(mb|minibatch|batch|step|iter|iteration)\b")
_EPOCH_WORD = re.compile(r"\b(epoch|ep)\b")


def _without_batch_samples(losses: list[str], counts: dict[str, int]) -> list[str]:
    """A batch's loss logged no more often than the epoch's loss of the same name (Avalanche's ``Loss_MB/...`` beside
    ``Loss_Epoch/...``, both printed once an epoch: the last minibatch's loss) is one batch's sample of the epoch's
    mean: the epoch's loss stands for the run. Logged more often (Lightning's ``train_loss_step`` beside
    ``train_loss_epoch``), it is the finer curve and stays."""
    epochs = {_EPOCH_WORD.sub("\x00", norm_name(n)): n for n in losses if _EPOCH_WORD.search(norm_name(n))}
    if not epochs:
        return losses
    out = []
    for n in losses:
        twin = epochs.get(_BATCH_WORD.sub("\x00", norm_name(n))) if _BATCH_WORD.search(norm_name(n)) else None
        if twin is None or counts.get(n, 0) > counts.get(twin, 0):
            out.append(n)
    return out or losses


# A split word a train loss may be named with or without (``loss``, ``train_loss``, ``training loss``).
_TRAIN_WORD = re.compile(r"\b(train|training)\b")
_FINER = 2  # a twin logged this many times as often is the finer curve


def _without_coarser_twins(losses: list[str], counts: dict[str, int]) -> list[str]:
    """Two names of one loss, equal but for a split word (stanza's per-step ``loss`` beside its epoch's
    ``train_loss``, printed once an epoch): the one logged several times as often is the finer curve and stands for
    the run; the coarser (an epoch's mean, a summary) does not, whichever name the order in ``_PRIMARY_TRAIN`` would
    prefer."""
    def key(n: str) -> str:
        return " ".join(_TRAIN_WORD.sub(" ", norm_name(n)).split())
    most: dict[str, int] = {}
    for n in losses:
        most[key(n)] = max(most.get(key(n), 0), counts.get(n, 0))
    out = [n for n in losses if counts.get(n, 0) * _FINER > most[key(n)]]
    return out or losses


# A loss named a total (a translation trainer's ``Epoch   2, total training loss: 448.34``: the epoch's SUM over its
# batches, growing with the epoch's size) beside the same loss under a step's or batch's name logged more often (its
# ``Step:       40, Batch Loss:    17.620428`` at each logging step): the records at the run's steps are its train
# series, the total never its loss. A total logged as often as the losses beside it (a sum of terms at each step)
# stays the run's loss.
_TOTAL_WORD = re.compile(r"\btotal\b")
_GRAIN_WORDS = re.compile(r"\b(total|train|training|mb|minibatch|batch|step|iter|iteration)\b")


def _without_epoch_totals(losses: list[str], counts: dict[str, int]) -> list[str]:
    """``losses`` without a loss named a total when a loss of the same name but for its total, split and grain words
    (``total training loss`` and ``Batch Loss``: ``loss``) is logged more often: the finer, per-step, curve."""
    def key(n: str) -> str:
        return " ".join(_GRAIN_WORDS.sub(" ", norm_name(n)).split())
    finer: dict[str, int] = {}
    for n in losses:
        if not _TOTAL_WORD.search(norm_name(n)):
            finer[key(n)] = max(finer.get(key(n), 0), counts.get(n, 0))
    out = [n for n in losses if not (_TOTAL_WORD.search(norm_name(n)) and counts.get(n, 0) < finer.get(key(n), 0))]
    return out or losses


def choose_primary_loss(candidates: list[str]) -> str | None:
    """The train loss that stands for the run: a total/LM loss over component or adversarial losses."""
    if not candidates:
        return None
    by_norm = {norm_name(c): c for c in candidates}
    for want in _PRIMARY_TRAIN:
        if norm_name(want) in by_norm:
            return by_norm[norm_name(want)]
    candidates = [c for c in candidates if not _REG_TERM.search(norm_name(c))] or candidates
    terms = [c for c in candidates if not _ENTROPY_TERM.search(norm_name(c)) and not _KL_TERM.search(norm_name(c))
             ] or [c for c in candidates if not _ENTROPY_TERM.search(norm_name(c))] or candidates
    if any(_POLICY_TERM.search(norm_name(c)) for c in terms):  # a policy-gradient run (PPO, A2C): its total loss, else
        # its value loss (a surrogate sits near 0 by construction; an entropy or exploration bonus is a term)
        judged = [c for c in terms if not _POLICY_TERM.search(norm_name(c)) and (
            "total" in norm_name(c) or _CRITIC.search(norm_name(c)))]
        if judged:
            return min(judged, key=lambda c: (0 if "total" in norm_name(c) else 1, len(c), c))
    plain = [c for c in terms if not is_adversarial(c)]
    pool = _without_local_work(plain or terms)
    # Prefer names with "total", then "lm", then the shortest.
    pool = sorted(pool, key=lambda c: (0 if "total" in c.lower() else 1 if "lm" in c.lower() else 2,
                                       0 if _CRITIC.search(norm_name(c)) else 1, len(c), c))
    return pool[0]


def _without_local_work(names: list[str]) -> list[str]:
    """``names`` without a loss measured after a unit's own local work when its twin measured before that work is
    among them (``Dialect.local_work_twins``: a federated run's ``loss after local training``, each device's loss
    after its local steps, beside ``loss before local training``, the central model's): the central model's loss
    stands for the run."""
    lowered = {n.lower(): n for n in names}
    kept = []
    for n in names:
        low = n.lower()
        twin = next((low.replace(after, before) for after, before in DIALECT.local_work_twins.items()
                     if after in low), None)
        if twin is None or twin not in lowered:
            kept.append(n)
    return kept or names
