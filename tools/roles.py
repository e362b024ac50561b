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


def norm_name(name: str) -> str:
    """A metric name lowered, its separators (space, _ - . / : @) one space: what the name rules match."""
    return re.sub(r"[\s_\-./:@]+", " ", name.lower()).strip()


_EVAL_PREFIX = re.compile(r"^(val|valid|validation|eval|evaluation|test|dev|holdout|metrics)\b"
                          r"|\b(val|valid|validation|eval|test|dev)$")
_EVAL_ANY = re.compile(r"\b(val|valid|validation|eval|evaluation|test|dev|tel)\b")
_LOWER_BETTER = re.compile(r"\b(loss|losses|nll|ppl|perplexity|error|err|wer|cer|mae|mse|rmse|bpb|bpc|bits|fid|kl|kld|"
                           r"distortion|cost|xent|ce|l1|l2|logloss|mlogloss|huber|objective|obj|function value|f value|"
                           r"fval|fx|fnc|objfun|obj fun)\b|loss$|ppl$"
                           r"|^f\(x\)$")  # (a function's value written as maths: pybads' ``f(x)``)
_HIGHER_BETTER = re.compile(
    r"\b(acc|accuracy|top1|top5|acc1|acc5|f1|bleu|rouge\w*|auc|auroc|map|map50|map 0 5|precision|recall|"
    r"score|reward|rewards|rew|ents [fpr]|sents [fpr]|uas|las|dice|iou|miou|exact match|em|r2|spearman|pearson|corr|"
    r"ndcg|mrr|win rate|pass 1|returns stat mean|discounted return)\b"
    r"|acc$|accuracy$"
)
# A name that says its quantity is maximised (the reader's ``objective (maximised)`` for a monitored objective whose
# rows show it rising while its changes shrink: ``parsers/bare_rows.py``): higher is better, whatever it names.
# A log-likelihood named as such (nltk's MaxentClassifier table ``Log Likelihood``, an HMM's ``log_likelihood``; its
# negation, ``neg log likelihood``, is the nll loss): maximised.
_MAXIMISED = re.compile(r"\bmaximi[sz]ed\b|\blog ?lik(elihood)?\b")
_LR = re.compile(r"^(x )?(lr|learning rate|learning_rate|lr\d|lr \w+|learningrate)( \w+)?$|\blr\d?\b|learning rate")
_GRAD = re.compile(r"\b(grad norm|gradient norm|grad_norm|gnorm|total grad norm|norm|grad l2 norm|global grad norm)\b")
_SCALE = re.compile(r"\b(loss scale|loss_scale|scaler|grad scale|scale)\b")
# A solver's damping, not a loss scale (pyrenn's Levenberg-Marquardt ``scale factor: 0.001``, falling as it converges)
_DAMPING = re.compile(r"\b(scale factor|damping|damping factor|mu)\b")
_THROUGHPUT = re.compile(
    r"\b(tokens per sec\w*|tok s|tokens s|samples per sec\w*|samples s|it s|throughput|tflops|mfu|"
    r"step time|step avg|iteration time|elapsed time per iteration|ms batch|time|train time|tokens per second)\b"
)
# Losses that are not minimised jointly (GAN players, RL actor/critic, PPO): no monotone-decrease assumption.
_ADVERSARIAL = re.compile(r"\b(disc|discriminator|gen|generator|critic|cri|actor|act|ppo|policy|value|adv|d|g)\b")

# An optimiser's objective, never an RL value loss (pycma's `f value`, jaxopt's `Objective Value:14.46`)
_FUNCTION_VALUE = re.compile(r"\b(function value|f value|(objective|obj|cost|fitness|loss) value)\b")

# Diagnostics of how far a policy moved or how spread its output is (RL fine-tuning's KL to the reference policy,
# the entropy): they grow or shrink by design, so they are never the objective a run is judged by.
_REGULARISER = re.compile(r"\b(kl|kld|approx kl|kl div|kl divergence|kl coef|(?<!cross )entropy|ent)\b")

# a loss by its long name (and a negated log-likelihood function's, arch's ``Neg. LLF``)
_NLL = re.compile(r"\b(neg|negative) (log (likelihood|lik|prob|probability)|llf|loglik|loglikelihood)\b")
_NEGATED = re.compile(r"\b(neg|negative)\b")  # scikit-learn's neg_log_loss, a feval's neg_f1: the other way round
# a cross-entropy by its long name, whatever its separator (a module trainer's ``cross-entropy``, ``cross_entropy``,
# ``crossentropy``): the loss ``xent`` (an entropy alone stays a diagnostic: ``_REGULARISER``)
_XENT = re.compile(r"\bcross ?entropy\b")


def short_name(name: str) -> str:
    """``norm_name`` with a loss's long name in its short form (``Negative log-likelihood``: ``nll``;
    ``cross-entropy``: ``xent``)."""
    return _XENT.sub("xent", _NLL.sub("nll", norm_name(name)))


# A change of a quantity between two reports (ModOpt's convergence test ``CHANGE IN COST: 0.0042``, a relative
# change): how fast it moves, no loss of its own whatever it names.
_CHANGE_OF = re.compile(r"(relative |absolute )?(change|delta|difference) (in|of) ")
# A time spent, named a cost (sockeye's checkpoint line ``Time-cost=0.546``): a duration, never an objective.
_DURATION = re.compile(r"\b(time|wall time|cpu time|elapsed) (cost|spent|taken|used)\b")


# A variational energy named alone (a variational Monte Carlo driver's ``Energy``, the expectation of the Hamiltonian
# it minimises; its mean in the driver's JSON log, ``Energy/Mean``): lower is better, the run's objective when no loss
# is logged (``objective._OBJECTIVE``). A name qualifying it otherwise (``Energy_RMSE``, ``energy weight``) is read by
# its other words.
_ENERGY = re.compile(r"(variational |total |ground state )?energy( mean)?")


def is_energy(name: str) -> bool:
    """Whether ``name`` is a variational energy named alone (``_ENERGY``), a split's prefix aside."""
    return bool(_ENERGY.fullmatch(_EVAL_PREFIX.sub("", norm_name(name)).strip()))


def infer_role(name: str) -> MetricRole:
    """The role a metric plays, from its name alone (no values). A negated metric (``neg_mean_squared_error``,
    ``neg_f1``) is better the other way round; a loss named with ``neg`` is a loss (contrastive learning's loss on
    negative pairs)."""
    n = short_name(name)
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
    if _SCALE.search(n) and "loss" not in n.replace("loss scale", "") and not (_DAMPING.search(n) and "loss" not in n):
        return MetricRole("loss_scale")
    if _CHANGE_OF.match(n):
        return MetricRole("other")
    if _DURATION.search(n):
        return MetricRole("throughput")
    if n == "primal":
        # a solver's primal objective value, named alone (celer's ``Iter 3: primal 0.0540, gap 2.51e-02``): what it
        # minimises; the duality gap beside it is a convergence measure, no role (never a loss that may diverge)
        return MetricRole("train_loss", "min")
    is_eval = bool(_EVAL_PREFIX.search(n) or _EVAL_ANY.search(n))
    if is_energy(n):
        return MetricRole("eval" if is_eval else "train_metric", "min")
    if _MAXIMISED.search(n):
        return MetricRole("eval" if is_eval else "train_metric", "max")
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
_RL_RETURN = re.compile(r"\b(ep rew mean|ep reward mean|episode rewards?|mean reward|episode return|ep return mean|"
                        r"returns stat mean|discounted return|"
                        r"(total|average|avg|mean|episodic|cumulative|ep|rollout) (reward|return)s?)\b")
# ...or a name that is the word alone (d3rlpy's online ``rollout_return``, a plain ``reward`` column of an RL loop)
_RL_RETURN_ALONE = frozenset({"reward", "return", "episode return"})
# tianshou's logger: test/returns_stat/mean; skrl's `Reward / Total reward (mean)`. A bare `rewards/chosen` (a DPO
# run's implicit reward) is no episode return: its loss stays the objective.



def is_rl_return(name: str) -> bool:
    """True for an RL run's episode return (higher is better; its losses then are no objective)."""
    n = norm_name(name)
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
    n = norm_name(name)
    return bool(_RL_EPISODE_LENGTH.search(n) or _RL_EPISODE_COUNT.fullmatch(n))


def is_adversarial(name: str) -> bool:
    """True for losses of GAN players or RL actor/critic, which are not meant to fall monotonically. An optimiser's
    ``function value`` (pycma's display, ``f value``) is the objective minimised, not an RL value loss."""
    n = norm_name(name)
    return bool(_ADVERSARIAL.search(n)) and not _FUNCTION_VALUE.search(n)


# The best found so far named alone, with no quantity (scikit-optimize's ``Current minimum``, ``best so far``): the
# run's objective's running best (a name with a quantity, ``best loss``, ``best_eval``, is read by its quantity)
_RUNNING_BEST = frozenset({"best", "bestever", "minimum", "lowest"})
_RUNNING_BEST_QUALIFIERS = frozenset({"current", "so", "far", "found", "yet", "overall", "running", "value",
                                       "global"})


def is_bare_running_best(name: str) -> bool:
    words = norm_name(name).split()
    return len(words) <= 4 and sum(w in _RUNNING_BEST for w in words) == 1 and all(
        w in _RUNNING_BEST or w in _RUNNING_BEST_QUALIFIERS for w in words) and "value" != words[0]


# A best so far named with its quantity (``Best score seen``, ``best_val_acc``, ``Incumbent score``): which way it is
# better its values tell (a running best never moves the worse way), not a word of its name
_BEST_SO_FAR = frozenset({"best", "bestever", "incumbent"})
# ...a name, not a sentence telling an improvement (PFRL's ``The best score is updated -3.4e+38 -> 9.33``: an event)
_PROSE = frozenset({"is", "was", "has", "updated", "improved"})


def names_best_so_far(name: str) -> bool:
    words = set(norm_name(name).split())
    return bool(_BEST_SO_FAR & words) and not _PROSE & words


def is_maximised(name: str) -> bool:
    """Whether ``name`` says its quantity is maximised (``objective (maximised)``)."""
    return bool(_MAXIMISED.search(norm_name(name)))


# The value an optimiser reports at its current point, named alone (``Current``, ``current value``): beside a bare
# running best, the search's state (``objective.search_objective``)
_CURRENT_STATE = frozenset({"current", "value", "point", "iterate", "guess"})


def is_current_state(name: str) -> bool:
    words = norm_name(name).split()
    return len(words) <= 2 and words[:1] == ["current"] and all(w in _CURRENT_STATE for w in words)


# ``score`` alone says no direction a run can trust: an evaluation's score is maximised, an optimiser's (a structure
# learner's penalised likelihood, a search's error) minimised. A name whose direction comes from that word alone
# (``score``, ``train score``; not ``f1 score``, ``reward score``) is read by its values (``MetricFrame``).
_AMBIGUOUS = re.compile(r"\bscore\b")
# A likelihood term logged beside it (``likelihood``, ``nll``, ``log likelihood``, ``llf``)
_LIKELIHOOD = re.compile(r"\b(likelihood|lik|llf|loglik|loglikelihood|nll)\b")


def is_ambiguous_score(name: str) -> bool:
    """Whether ``name``'s direction comes from the word ``score`` alone (higher is better by name, nothing else)."""
    n = short_name(name)
    return bool(_AMBIGUOUS.search(n)) and not _HIGHER_BETTER.search(_AMBIGUOUS.sub(" ", n)) and not (
        _MAXIMISED.search(n) or _LOWER_BETTER.search(n) or is_rl_return(n) or _NEGATED.search(n))


def is_likelihood(name: str) -> bool:
    """Whether ``name`` names a likelihood term (its direction aside)."""
    return bool(_LIKELIHOOD.search(short_name(name)))


def is_regulariser(name: str) -> bool:
    """Whether ``name`` is a KL or entropy diagnostic (not a loss term named so): no run is judged by one."""
    n = norm_name(name)
    return bool(_REGULARISER.search(n)) and "loss" not in n


def is_negated(name: str) -> bool:
    """Whether ``name`` says its metric is negated (``neg_log_loss``, ``negative_f1``): better the other way round."""
    return bool(_NEGATED.search(norm_name(name)))


# Quantities never below zero by what they are (an error, a squared or absolute error, a perplexity): logged only
# below zero, they are logged negated (AutoGluon's validation scores, scikit-learn's scorers), better the other way
_NON_NEGATIVE = re.compile(r"\b(error|err|rmse|mse|mae|mape|smape|msle|rmsle|wer|cer|ppl|perplexity|logloss|"
                           r"mlogloss)\b")


def is_non_negative_measure(name: str) -> bool:
    """Whether ``name`` names a quantity that is never below zero (an error, a perplexity)."""
    return bool(_NON_NEGATIVE.search(norm_name(name)))

