"""Sweeps: each run judged against its siblings (standing at equal steps, projection, pruning recommendation)."""

from .policy import KEEP, LEAD, PRUNE, PolicyParams, SweepMemory, SweepPolicy
from .projection import Projection, ProjectionParams, project
from .relative import Relative, SweepJudgement, SweepSummary, judge_sweep
from .view import MAXIMIZE, MINIMIZE, RunCurve, SweepView

__all__ = ["KEEP", "LEAD", "MAXIMIZE", "MINIMIZE", "PRUNE", "PolicyParams", "Projection", "ProjectionParams",
           "Relative", "RunCurve", "SweepJudgement", "SweepMemory", "SweepPolicy", "SweepSummary", "SweepView",
           "judge_sweep", "project"]
