"""What each metric column is: its role in judging the run, and which direction is better.

Roles are inferred from names (``train/loss``, ``lm loss``, ``eval_accuracy``,
``x/lr0``, ``grad_norm``...) and can be overridden by the caller.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Direction = Literal["min", "max"]

ROLES: tuple[str, ...] = ("train_loss", "eval", "train_metric", "lr", "grad_norm", "loss_scale", "throughput", "other")


@dataclass(frozen=True)
class MetricRole:
    role: str
    direction: str | None = None  # "min" (lower is better) / "max" / None
    primary: bool = False  # the one train loss the trend signals follow


def _norm(name: str) -> str:
    return re.sub(r"[\s_\-./:@]+", " ", name.lower()).strip()


_EVAL_PREFIX = re.compile(r"^(val|valid|validation|eval|evaluation|test|dev|holdout|metrics)\b"
                          r"|\b(val|valid|validation|eval|test|dev)$")
_EVAL_ANY = re.compile(r"\b(val|valid|validation|eval|evaluation|test|dev|tel)\b")
_LOWER_BETTER = re.compile(r"\b(loss|losses|nll|ppl|perplexity|error|err|wer|cer|mae|mse|rmse|bpb|bpc|bits|fid|kl|kld|"
                           r"cost|xent|ce|l1|l2|logloss|mlogloss|huber|objective|obj|function value|f value|fval)\b"
                           r"|loss$|ppl$")
_HIGHER_BETTER = re.compile(
    r"\b(acc|accuracy|top1|top5|acc1|acc5|f1|bleu|rouge\w*|auc|auroc|map|map50|map 0 5|precision|recall|"
    r"score|reward|rewards|rew|ents [fpr]|sents [fpr]|uas|las|dice|iou|miou|exact match|em|r2|spearman|pearson|corr|"
    r"ndcg|mrr|win rate|pass 1|returns stat mean|discounted return)\b"
    r"|acc$|accuracy$"
)
_LR = re.compile(r"^(x )?(lr|learning rate|learning_rate|lr\d|lr \w+|learningrate)( \w+)?$|\blr\d?\b|learning rate")
_GRAD = re.compile(r"\b(grad norm|gradient norm|grad_norm|gnorm|total grad norm|norm|grad l2 norm|global grad norm)\b")
_SCALE = re.compile(r"\b(loss scale|loss_scale|scaler|grad scale|scale)\b")
_THROUGHPUT = re.compile(
    r"\b(tokens per sec\w*|tok s|tokens s|samples per sec\w*|samples s|it s|throughput|tflops|mfu|"
    r"step time|step avg|iteration time|elapsed time per iteration|ms batch|time|train time|tokens per second)\b"
)
# Losses that are not minimised jointly (GAN players, RL actor/critic, PPO): no monotone-decrease assumption.
_ADVERSARIAL = re.compile(r"\b(disc|discriminator|gen|generator|critic|cri|actor|act|ppo|policy|value|adv|d|g)\b")

# The objective a run minimises when no metric is named a loss (issue 19): cross-entropies, costs, boosting's
# training metrics. Not a perplexity: its exp() scale turns a curriculum's early rise (DeepSpeed's seq_len warmup
# in the shared corpus, healthy) into a divergence; a run judged by its perplexity names it with loss_metric.
_SELDOM_OBJECTIVE = re.compile(r"\b(l1|mae|error)\b")  # reported beside the objective more often than trained on
_FUNCTION_VALUE = re.compile(r"\b(function value|f value)\b")  # an optimiser's objective, never an RL value loss
_OBJECTIVE = re.compile(r"\b(nll|xent|ce|cost|objective|obj|l1|l2|rmse|mse|mae|logloss|mlogloss|binary logloss|"
                        r"multi logloss|huber|error|function value|f value|fval)\b")

# Diagnostics of how far a policy moved or how spread its output is (RL fine-tuning's KL to the reference policy,
# the entropy): they grow or shrink by design, so they are never the objective a run is judged by.
_REGULARISER = re.compile(r"\b(kl|kld|approx kl|kl div|kl divergence|kl coef|entropy|ent)\b")
# ... but a divergence minimised is the run's objective when nothing else is (openTSNE's ``KL divergence``: an
# embedding fitted to its affinities; no loss, no other metric with a direction, no RL return beside it)
_DIVERGENCE = re.compile(r"\b(kl|kld|kl div|kl divergence|kullback leibler|divergence)\b")

_PRIMARY_TRAIN = ["train loss", "train lm loss", "loss", "lm loss", "training loss", "train loss step", "total loss",
                  "trl", "train total loss", "loss train", "train loss epoch", "train/loss"]


_NLL = re.compile(r"\b(neg|negative) log (likelihood|lik|prob|probability)\b")  # a loss by its long name
_NEGATED = re.compile(r"\b(neg|negative)\b")  # scikit-learn's neg_log_loss, a feval's neg_f1: the other way round


def infer_role(name: str) -> MetricRole:
    """The role a metric plays, from its name alone (no values). A negated metric (``neg_mean_squared_error``,
    ``neg_f1``) is better the other way round; a loss named with ``neg`` is a loss (contrastive learning's loss on
    negative pairs)."""
    n = _NLL.sub("nll", _norm(name))
    if _NEGATED.search(n) and "loss" not in n:  # neg_loss, neg_cos_sim_loss: the loss on negative pairs
        base = infer_role(_NEGATED.sub(" ", n))
        if base.direction is None:
            return base
        role = "train_metric" if base.role == "train_loss" else base.role
        return MetricRole(role, "max" if base.direction == "min" else "min")
    if not n:
        return MetricRole("other")
    if is_bare_running_best(n):
        return MetricRole("train_metric", "min")
    if n in {"step", "global step", "iteration", "iter", "epoch", "samples", "consumed samples", "tokens",
             "consumed tokens", "runtime", "timestamp", "wall time", "eta seconds", "data time", "batch"}:
        return MetricRole("other")
    if _LR.search(n) and "loss" not in n and "flr" not in n:
        return MetricRole("lr")
    if _GRAD.search(n) and "loss" not in n:
        return MetricRole("grad_norm")
    if _SCALE.search(n) and "loss" not in n.replace("loss scale", ""):
        return MetricRole("loss_scale")
    is_eval = bool(_EVAL_PREFIX.search(n) or _EVAL_ANY.search(n))
    if _LOWER_BETTER.search(n):
        if is_eval:
            return MetricRole("eval", "min")
        if "ppl" in n or "perplexity" in n:
            return MetricRole("train_metric", "min")
        if "loss" in n or n in {"nll", "trl"}:
            return MetricRole("train_loss", "min")
        return MetricRole("train_metric", "min")
    if n == "trl":
        return MetricRole("train_loss", "min")
    if _HIGHER_BETTER.search(n):
        return MetricRole("eval" if is_eval else "train_metric", "max")
    if _THROUGHPUT.search(n):
        return MetricRole("throughput")
    if is_rl_return(n):  # an episode return by its RL name (rllib's ``env_runners/episode_return_mean``)
        return MetricRole("eval" if is_eval else "train_metric", "max")
    return MetricRole("other")


# An RL run's return (stable-baselines3's rollout/ep_rew_mean, its EvalCallback's eval/mean_reward): the run's
# objective; its losses (value, policy, their sum) follow the returns, not a descent.
_RL_RETURN = re.compile(r"\b(ep rew mean|ep reward mean|episode reward|mean reward|episode return|ep return mean|"
                        r"returns stat mean|discounted return|"
                        r"(total|average|avg|mean|episodic|cumulative|ep|rollout) (reward|return)s?)\b")
# ...or a name that is the word alone (d3rlpy's online ``rollout_return``, a plain ``reward`` column of an RL loop)
_RL_RETURN_ALONE = frozenset({"reward", "return", "episode return"})
# tianshou's logger: test/returns_stat/mean; skrl's `Reward / Total reward (mean)`. A bare `rewards/chosen` (a DPO
# run's implicit reward) is no episode return: its loss stays the objective.


# An entropy bonus among an RL run's losses (stable-baselines3's train/entropy_loss): a term, never the run's loss.
_ENTROPY_TERM = re.compile(r"(?<!cross )\bentropy loss\b|\bent coef loss\b")  # SAC's temperature's loss too
# Among an actor-critic's losses, the critic's (a regression to the returns) stands for the run, not the actor's
# (minus the critic's value).
_CRITIC = re.compile(r"\b(critic|value|vf|qf)\b")


def is_rl_return(name: str) -> bool:
    """True for an RL run's episode return (higher is better; its losses then are no objective)."""
    n = _norm(name)
    return bool(_RL_RETURN.search(n)) or n in _RL_RETURN_ALONE


# An RL run's episode length (stable-baselines3's rollout/ep_len_mean, TorchRL's tutorials' ``max step count``,
# ``max num steps``): no objective of its own (longer is better in CartPole, worse in MountainCar), but it says the
# run is an RL run, whose TD or value losses follow the returns and grow while the agent learns.
_RL_EPISODE_LENGTH = re.compile(r"\b(ep len mean|episode length|episode len|mean episode length|"
                                r"(max|mean|avg) num steps|(max|mean|avg) step count|step count|max steps)\b")


_RL_EPISODE_COUNT = re.compile(r"(num |total |n )?episodes?( count| done| num)?")


def is_rl_episode_length(name: str) -> bool:
    """True for an RL run's episode length, a statistic over its episodes (``max step count``, ``ep_len_mean``), or its
    count of episodes (PFRL's ``episode:16``): either says the run is an RL run."""
    n = _norm(name)
    return bool(_RL_EPISODE_LENGTH.search(n) or _RL_EPISODE_COUNT.fullmatch(n))


def is_adversarial(name: str) -> bool:
    """True for losses of GAN players or RL actor/critic, which are not meant to fall monotonically. An optimiser's
    ``function value`` (pycma's display, ``f value``) is the objective minimised, not an RL value loss."""
    n = _norm(name)
    return bool(_ADVERSARIAL.search(n)) and not _FUNCTION_VALUE.search(n)


# The best found so far named alone, with no quantity (scikit-optimize's ``Current minimum``, ``best so far``): the
# run's objective's running best (a name with a quantity, ``best loss``, ``best_eval``, is read by its quantity)
_RUNNING_BEST = frozenset({"best", "bestever", "minimum", "lowest"})
_RUNNING_BEST_QUALIFIERS = frozenset({"current", "so", "far", "found", "yet", "overall", "running", "value"})


def is_bare_running_best(name: str) -> bool:
    words = _norm(name).split()
    return len(words) <= 4 and sum(w in _RUNNING_BEST for w in words) == 1 and all(
        w in _RUNNING_BEST or w in _RUNNING_BEST_QUALIFIERS for w in words) and "value" != words[0]


def assign_roles(names: list[str], overrides: dict[str, str] | None = None,
                 counts: dict[str, int] | None = None) -> dict[str, MetricRole]:
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
    bare_best = [n for n in names if is_bare_running_best(n) and n not in (overrides or {})]
    if not losses and bare_best:
        # No loss by name and the best found so far, named alone: the objective. A search that evaluates one point
        # a step (scikit-optimize's calls, hyperopt's trials) prints each point's value, a draw from the space it
        # explores, and the best so far, its progress: the best is the run's objective. (One principle for an
        # optimiser's two values: the state of the search stands for the run, a single evaluation does not; where
        # the step holds a population its mean is that state, ``population_objective``.)
        roles[bare_best[0]] = MetricRole("train_loss", "min", primary=True)
        return roles
    if not losses:
        # No loss by name: the objective under another name (nll, xent, cost; boosting's l2, rmse, logloss)
        losses = [n for n, r in roles.items() if r.role == "train_metric" and r.direction == "min"
                  and _OBJECTIVE.search(_norm(n)) and not is_regulariser(n)]
        for n in losses:
            roles[n] = MetricRole("train_loss", "min")
        if losses:  # the objective is logged first (xgboost's train-rmse before train-mae), a likelier one before
            # a metric that is seldom one (lightgbm's metric=["l1", "l2"] prints l1 first for its l2 objective)
            first = min(losses, key=lambda n: (bool(_SELDOM_OBJECTIVE.search(_norm(n))), losses.index(n)))
            ranked = population_objective(losses, without_mean=True)
            if ranked is not None:  # statistics of one objective over a population: its mean, else its best
                first = ranked[0]
            roles[first] = MetricRole("train_loss", "min", primary=True)
            return roles
        pop = population_objective([n for n in names if roles[n].role == "other"])
        if pop is not None and pop[0] not in (overrides or {}):
            # a population's statistics of its fitness, none named a loss: its mean is the run's loss, minimised
            # until the values say otherwise (``MetricFrame.from_history``: its best above its worst)
            roles[pop[0]] = MetricRole("train_loss", "min", primary=True)
            return roles
        pair = population_best_and_mean([n for n in names if roles[n].role == "other"])
        if pair is not None and pair[0] not in (overrides or {}):
            # the best individual's fitness beside the population's average (gplearn's table): the best is the run's
            # objective, minimised until the values say otherwise (``MetricFrame.from_history``: best above average)
            roles[pair[0]] = MetricRole("train_loss", "min", primary=True)
            return roles
    if not losses and (best := population_best(names)) is not None:
        roles[best] = MetricRole("train_loss", "min", primary=True)
        return roles
    if not losses and (div := divergence_objective(names, roles)) is not None:
        roles[div] = MetricRole("train_loss", "min", primary=True)
        return roles
    if counts and losses and not named:
        # A summary logged once at the end (HF's final "train_loss") cannot stand for the curve.
        most = max(counts.get(n, 0) for n in losses)
        if most > 0:
            losses = [n for n in losses if counts.get(n, 0) >= min(most, max(3, most // 10))]
        losses = _without_batch_samples(losses, counts)
    primary = choose_primary_loss(losses)
    if primary is not None:
        roles[primary] = MetricRole("train_loss", "min", primary=True)
    return roles


def divergence_objective(names: list[str], roles: dict[str, MetricRole]) -> str | None:
    """The first divergence minimised (``KL divergence``, ``kl``, ``kld``) when no other metric has a direction (no
    loss, accuracy, reward, evaluation): the objective of a run that minimises it (t-SNE); beside anything else it is a
    regulariser's diagnostic (RL fine-tuning's KL to the reference policy)."""
    divs = [n for n in names if _DIVERGENCE.search(_norm(n)) and roles[n].direction == "min"
            and not _NEGATED.search(_norm(n))]
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
        words = _norm(n).split()
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


# What a population's statistics are of, named last (``Best Individual/Fitness``, ``Population Average/Fitness``)
_POP_QUANTITIES = frozenset({"fitness", "objective", "eval", "cost"})


def population_best_and_mean(names: list[str]) -> tuple[str, str] | None:
    """(the best's name, the mean's) of the first quantity (``_POP_QUANTITIES``, the name's last word) whose best and
    mean (a word of the name before it: ``best``; ``average``, ``mean``, ``avg``) are logged and its worst is not
    (with a worst: ``population_objective``); of several bests of it, the one of fewest words (``Best
    Individual/Fitness`` before ``Best Individual/OOB Fitness``, its out-of-bag score)."""
    by: dict[str, dict[str, list[str]]] = {}
    for n in names:
        words = _norm(n).split()
        if len(words) < 2 or words[-1] not in _POP_QUANTITIES:
            continue
        kinds = {"mean" if w in _POP_MEAN else "best" if w in _POP_BEST else "worst" if w in _POP_WORST else ""
                 for w in words[:-1]} - {""}
        if len(kinds) == 1:
            by.setdefault(words[-1], {}).setdefault(kinds.pop(), []).append(n)
    for stats in by.values():
        if "best" in stats and "mean" in stats and "worst" not in stats:
            fewest = min(stats["best"], key=lambda n: len(_norm(n).split()))
            return fewest, min(stats["mean"], key=lambda n: len(_norm(n).split()))
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
        words = _norm(n).split()
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
    epochs = {_EPOCH_WORD.sub("\x00", _norm(n)): n for n in losses if _EPOCH_WORD.search(_norm(n))}
    if not epochs:
        return losses
    out = []
    for n in losses:
        twin = epochs.get(_BATCH_WORD.sub("\x00", _norm(n))) if _BATCH_WORD.search(_norm(n)) else None
        if twin is None or counts.get(n, 0) > counts.get(twin, 0):
            out.append(n)
    return out or losses


def choose_primary_loss(candidates: list[str]) -> str | None:
    """The train loss that stands for the run: a total/LM loss over component or adversarial losses."""
    if not candidates:
        return None
    by_norm = {_norm(c): c for c in candidates}
    for want in _PRIMARY_TRAIN:
        if _norm(want) in by_norm:
            return by_norm[_norm(want)]
    terms = [c for c in candidates if not _ENTROPY_TERM.search(_norm(c))] or candidates
    plain = [c for c in terms if not is_adversarial(c)]
    pool = plain or terms
    # Prefer names with "total", then "lm", then the shortest.
    pool = sorted(pool, key=lambda c: (0 if "total" in c.lower() else 1 if "lm" in c.lower() else 2,
                                       0 if _CRITIC.search(_norm(c)) else 1, len(c), c))
    return pool[0]


def is_regulariser(name: str) -> bool:
    """Whether ``name`` is a KL or entropy diagnostic (not a loss term named so): no run is judged by one."""
    n = _norm(name)
    return bool(_REGULARISER.search(n)) and "loss" not in n
