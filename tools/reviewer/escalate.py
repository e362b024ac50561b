"""escalate_to_reviewer: ask a stronger model STOP / CONTINUE / WAIT about an ambiguous assessment.

The backend is chosen by arguments > environment > ``[reviewer]`` in
``.training-check.toml``; with none configured it says so and never invents a
decision. A reply that is not exactly one valid decision is retried once,
then reported as an error. The review is stored (never the API key).
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field

from ..config import Config
from ..errors import BadInput, ReviewerError
from ..records import stored_assessment
from ..redact import hide_secrets, redact
from ..runref import parse_run_ref
from ..store import Store
from .codex_backend import DEFAULT_COMMAND, CodexReviewer
from .decision import InvalidReply, parse_decision
from .openai_backend import DEFAULT_API, DEFAULT_MODEL, OpenAIReviewer, display_url
from .prompt import MAX_CONCERN_CHARS, build_prompt

BACKENDS = ("openai", "codex")
DEFAULT_TIMEOUT_S = 120.0
DEFAULT_MAX_RETRIES = 2
MAX_ATTEMPTS = 2  # the first reply, and one retry when it is not exactly one valid decision
NOT_CONFIGURED = ("no reviewer configured: set OPENAI_API_KEY (and optionally OPENAI_BASE_URL, REVIEWER_MODEL) "
                  "or REVIEWER_BACKEND=codex")


@dataclass(frozen=True)
class ReviewerSettings:
    """Which reviewer to ask and how; ``api_key`` never appears in repr or to_dict."""

    backend: str
    model: str | None
    api: str = DEFAULT_API
    base_url: str | None = None
    timeout_s: float = DEFAULT_TIMEOUT_S
    max_retries: int = DEFAULT_MAX_RETRIES
    codex_command: str = DEFAULT_COMMAND
    codex_base_url: str | None = None  # a Responses API endpoint for Codex (REVIEWER_CODEX_BASE_URL)
    codex_key_env: str | None = None  # the name of the variable holding its key (REVIEWER_CODEX_KEY_ENV)
    api_key: str | None = field(default=None, repr=False)

    def public(self) -> dict:
        d = asdict(self)
        d.pop("api_key")
        d["base_url"] = display_url(self.base_url) if self.backend == "openai" else None
        d["codex_base_url"] = display_url(self.codex_base_url) if self.codex_base_url else None
        return d


def _number(value: object, what: str, *, minimum: float) -> float:
    try:
        v = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise BadInput(f"reviewer {what} {value!r} is not a number") from None
    if not v >= minimum:
        raise BadInput(f"reviewer {what} {v:g} must be at least {minimum:g}")
    return v


def resolve_settings(config: Config, *, backend: str | None = None, timeout_s: float | None = None,
                     env: Mapping[str, str] | None = None) -> ReviewerSettings:
    """The reviewer settings from arguments > environment > config.reviewer; ReviewerError when none is configured."""
    env = os.environ if env is None else env
    conf = config.reviewer or {}

    def pick(env_name: str, conf_name: str, default=None):
        value = env.get(env_name)
        if value not in (None, ""):
            return value
        value = conf.get(conf_name)
        return default if value in (None, "") else value

    api_key = env.get("OPENAI_API_KEY") or None
    chosen = backend or pick("REVIEWER_BACKEND", "backend")
    if chosen is not None:
        chosen = str(chosen).strip().lower()
        if chosen not in BACKENDS:
            raise BadInput(f"unknown reviewer backend {chosen!r}: use openai or codex")
    elif api_key:
        chosen = "openai"
    if chosen is None or (chosen == "openai" and not api_key):
        raise ReviewerError(NOT_CONFIGURED)
    timeout = _number(timeout_s if timeout_s is not None
                      else pick("REVIEWER_TIMEOUT_S", "timeout_s", DEFAULT_TIMEOUT_S), "timeout_s", minimum=0.01)
    retries = int(_number(pick("REVIEWER_MAX_RETRIES", "max_retries", DEFAULT_MAX_RETRIES), "max_retries", minimum=0))
    api = str(pick("REVIEWER_API", "api", DEFAULT_API)).strip().lower()
    if api not in ("responses", "chat"):
        raise BadInput(f"unknown reviewer API {api!r}: set REVIEWER_API to responses or chat")
    model = pick("REVIEWER_MODEL", "model")
    if chosen == "openai":
        model = model or DEFAULT_MODEL
    return ReviewerSettings(
        backend=chosen, model=str(model) if model else None, api=api,
        base_url=pick("OPENAI_BASE_URL", "base_url"), timeout_s=timeout, max_retries=retries,
        codex_command=str(pick("REVIEWER_CODEX_COMMAND", "codex_command", DEFAULT_COMMAND)),
        # Where Codex sends the prompt and which variable's key it sends there: from the environment only.
        codex_base_url=env.get("REVIEWER_CODEX_BASE_URL") or None,
        codex_key_env=env.get("REVIEWER_CODEX_KEY_ENV") or None,
        api_key=api_key if chosen == "openai" else None,
    )


def open_backend(settings: ReviewerSettings):
    """The backend object for ``settings`` (a context manager with ``ask(system, text) -> str``)."""
    if settings.backend == "codex":
        return CodexReviewer(command=settings.codex_command, model=settings.model, timeout_s=settings.timeout_s,
                             base_url=settings.codex_base_url, key_env=settings.codex_key_env)
    return OpenAIReviewer(api_key=settings.api_key or "", model=settings.model or DEFAULT_MODEL, api=settings.api,
                          base_url=settings.base_url, timeout_s=settings.timeout_s,
                          max_retries=settings.max_retries)


@dataclass
class Review:
    """A stored reviewer decision about one assessment."""

    review_id: str
    run_key: str
    assessment_id: str | None
    decision: str  # "STOP" | "CONTINUE" | "WAIT"
    reason: str
    model: str | None
    backend: str
    prompt_hash: str
    elapsed_s: float
    attempts: int = 1

    @property
    def summary(self) -> str:
        return f"Reviewer ({self.backend}, {self.model or 'default model'}) says {self.decision}: {self.reason}"

    def to_dict(self) -> dict:
        return {**asdict(self), "summary": self.summary}


def _check_concern(concern: object) -> str:
    if not isinstance(concern, str):
        raise BadInput(f"concern must be text, got {type(concern).__name__}")
    text = concern.strip()
    if not text:
        raise BadInput("concern is empty: say in a sentence what looks wrong (e.g. 'eval loss rising since step 3000')")
    if len(text) > MAX_CONCERN_CHARS:
        raise BadInput(f"concern is {len(text)} characters long (limit {MAX_CONCERN_CHARS}): summarise it")
    return text


def _find_assessment(store: Store, config: Config, assessment_id: str | None, run: str | None) -> dict:
    run_key = None
    if run is not None:
        run_key = parse_run_ref(run, entity=config.wandb_entity, project=config.wandb_project).key
    if assessment_id is not None:
        if not isinstance(assessment_id, str) or not assessment_id.strip():
            raise BadInput("assessment_id is empty: pass the id an assess_run answer gave, or pass run instead")
        return stored_assessment(store, assessment_id.strip(), run_key)
    if run is None or run_key is None:
        raise BadInput("name what to review: pass assessment_id (from assess_run) or run")
    recent = store.recent_assessments(run_key, 1)
    if recent:
        return recent[0]
    from ..assess import assess_run  # written elsewhere; imported lazily so the reviewer loads on its own

    assessment = assess_run(run, store=store, config=config)
    payload = store.get_assessment(assessment.assessment_id)
    if payload is None:
        raise ReviewerError(f"assess_run gave assessment {assessment.assessment_id!r} but the store lacks it")
    return payload


def escalate_to_reviewer(*, store: Store, config: Config, concern: str, assessment_id: str | None = None,
                         run: str | None = None, baseline: dict | str | None = None, backend: str | None = None,
                         timeout_s: float | None = None) -> Review:
    """Ask the configured reviewer STOP / CONTINUE / WAIT about an assessment (or a run's latest) and store it."""
    concern = _check_concern(concern)
    if baseline is not None and not isinstance(baseline, (dict, str)):
        raise BadInput(f"baseline must be a mapping of expected metric values or a text note, "
                       f"got {type(baseline).__name__}")
    settings = resolve_settings(config, backend=backend, timeout_s=timeout_s)
    payload = _find_assessment(store, config, assessment_id, run)
    run_key = str(payload.get("run_key"))
    prompt = build_prompt(payload, concern, baseline)

    started = time.monotonic()
    attempts = 0
    decision = None
    why = ""
    with open_backend(settings) as reviewer:
        for attempt in range(1, MAX_ATTEMPTS + 1):
            attempts = attempt
            text = prompt.text if attempt == 1 else prompt.with_retry_note(why)
            reply = redact(reviewer.ask(prompt.system, text))  # a reply that echoes a key keeps it to itself
            try:
                decision = parse_decision(reply)
                break
            except InvalidReply as e:
                why = str(e)
        model = getattr(reviewer, "display_model", None) or reviewer.model  # what the backend said it used
        client_version = getattr(reviewer, "codex_version", None)
    elapsed = round(time.monotonic() - started, 3)
    if decision is None:
        raise ReviewerError(f"the reviewer gave no valid decision in {MAX_ATTEMPTS} attempts (last: {why}); "
                            f"no decision was recorded: try again, or decide from the assessment's findings")
    review_payload = {"backend": settings.backend, "settings": settings.public(), "elapsed_s": elapsed,
                      "attempts": attempts, "concern": hide_secrets(concern),
                      "baseline_given": baseline is not None}
    if client_version:
        review_payload["codex_version"] = client_version
    review_id = store.add_review(run_key, payload.get("assessment_id"), model, prompt.prompt_hash,
                                 decision.decision, decision.reason, review_payload)
    return Review(review_id=review_id, run_key=run_key, assessment_id=payload.get("assessment_id"),
                  decision=decision.decision, reason=decision.reason, model=model, backend=settings.backend,
                  prompt_hash=prompt.prompt_hash, elapsed_s=elapsed, attempts=attempts)
