"""The OpenAI reviewer backend: the real ``openai`` client, Responses API or Chat Completions, structured output.

Reasoning effort is high and the answer format is the JSON schema of
decision.DECISION_SCHEMA. Every API failure becomes one ReviewerError line;
the API key is only ever handed to the client (Authorization header) and is
scrubbed from any server text quoted in an error.
"""

from __future__ import annotations

from typing import Final
from urllib.parse import urlsplit, urlunsplit

from ..errors import ReviewerError
from ..redact import redact as redact_secrets
from .decision import DECISION_SCHEMA, DECISION_SCHEMA_NAME

APIS = ("responses", "chat")
DEFAULT_MODEL = "gpt-5.4"
DEFAULT_API = "responses"
DEFAULT_BASE_URL = "https://api.openai.com/v1"
REASONING_EFFORT: Final = "high"


def redact(text: object, api_key: str | None = None) -> str:
    """``text`` on one line, at most 300 characters, every secret redacted (``tools/redact.py``; the key this client
    was given too, as OPENAI_API_KEY)."""
    s = redact_secrets(" ".join(str(text).split()), {"OPENAI_API_KEY": api_key})
    return s if len(s) <= 300 else s[:299] + "…"


def display_url(url: str | None) -> str:
    """A base URL safe to show: user:password@ removed."""
    if not url:
        return DEFAULT_BASE_URL
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<unparsable base URL>"
    netloc = parts.netloc.rsplit("@", 1)[-1]
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def _server_message(err: Exception) -> str:
    body = getattr(err, "body", None)
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and inner.get("message"):
            return str(inner["message"])
        if isinstance(inner, str):
            return inner
    return getattr(err, "message", "") or str(err)


class OpenAIReviewer:
    """Asks an OpenAI(-compatible) model for a decision; one HTTP call per ``ask``."""

    name = "openai"

    def __init__(self, *, api_key: str, model: str = DEFAULT_MODEL, api: str = DEFAULT_API,
                 base_url: str | None = None, timeout_s: float = 120.0, max_retries: int = 2):
        if api not in APIS:
            raise ReviewerError(f"unknown reviewer API {api!r}: set REVIEWER_API to responses or chat")
        import openai  # imported here: the reviewer is optional and the client is slow to import

        self._openai = openai
        self._api_key = api_key
        self.model = model
        self.api = api
        self.base_url = base_url
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        try:  # no base_url: the client's own default (OPENAI_BASE_URL, else api.openai.com)
            self._client = openai.OpenAI(api_key=api_key, timeout=timeout_s, max_retries=max_retries,
                                         base_url=base_url or None)
        except openai.OpenAIError as e:
            raise ReviewerError(f"cannot set up the OpenAI client: {redact(e, api_key)}") from None

    def __enter__(self) -> OpenAIReviewer:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        try:
            self._client.close()
        except Exception:  # closing an HTTP pool must never mask the real outcome
            pass

    @property
    def where(self) -> str:
        return f"{display_url(self.base_url)} ({self.api} API, model {self.model})"

    def ask(self, system: str, text: str) -> str:
        """Send one prompt; return the reply text ('' when the model produced none)."""
        oa = self._openai
        try:
            if self.api == "responses":
                return self._ask_responses(system, text)
            return self._ask_chat(system, text)
        except oa.APITimeoutError:
            raise ReviewerError(f"the reviewer did not answer within {self.timeout_s:g}s at {self.where}: "
                                f"try again later or raise REVIEWER_TIMEOUT_S") from None
        except oa.RateLimitError as e:
            retry = e.response.headers.get("retry-after") if e.response is not None else None
            hint = f", server asks to retry after {redact(retry)}s" if retry else ""
            raise ReviewerError(f"the reviewer is rate-limited (HTTP 429{hint}) at {self.where}, after "
                                f"{self.max_retries} retries: try again later") from None
        except oa.AuthenticationError:
            raise ReviewerError(f"the reviewer refused the API key (HTTP 401) at {self.where}: "
                                f"check OPENAI_API_KEY") from None
        except oa.PermissionDeniedError:
            raise ReviewerError(f"the reviewer denied access (HTTP 403) at {self.where}: check the key's "
                                f"permissions for model {self.model}") from None
        except oa.NotFoundError as e:
            raise ReviewerError(f"the reviewer answered HTTP 404 at {self.where} "
                                f"({redact(_server_message(e), self._api_key)}): check REVIEWER_MODEL and "
                                f"OPENAI_BASE_URL") from None
        except oa.APIStatusError as e:
            kind = "server error" if e.status_code >= 500 else "request refused"
            hint = ("try again later" if e.status_code >= 500 else
                    "if this server lacks the Responses API, set REVIEWER_API=chat" if self.api == "responses"
                    else "check REVIEWER_MODEL and the server's support for json_schema output")
            raise ReviewerError(f"reviewer {kind} HTTP {e.status_code} at {self.where}: "
                                f"{redact(_server_message(e), self._api_key)}; {hint}") from None
        except oa.APIConnectionError as e:
            raise ReviewerError(f"cannot reach the reviewer at {self.where}: "
                                f"{redact(e.__cause__ or e, self._api_key)}; check OPENAI_BASE_URL") from None
        except oa.OpenAIError as e:
            raise ReviewerError(f"the reviewer call failed at {self.where}: "
                                f"{redact(e, self._api_key)}") from None

    def _ask_responses(self, system: str, text: str) -> str:
        resp = self._client.responses.create(
            model=self.model,
            instructions=system,
            input=text,
            reasoning={"effort": REASONING_EFFORT},
            text={"format": {"type": "json_schema", "name": DECISION_SCHEMA_NAME,
                             "schema": DECISION_SCHEMA, "strict": True}},
            store=False,
        )
        if getattr(resp, "error", None):
            raise ReviewerError(f"the reviewer reported an error at {self.where}: "
                                f"{redact(getattr(resp.error, 'message', resp.error), self._api_key)}")
        return resp.output_text or ""

    def _ask_chat(self, system: str, text: str) -> str:
        resp = self._client.chat.completions.create(
            model=self.model,
            messages=[{"role": "system", "content": system}, {"role": "user", "content": text}],
            reasoning_effort=REASONING_EFFORT,
            response_format={"type": "json_schema",
                             "json_schema": {"name": DECISION_SCHEMA_NAME, "schema": DECISION_SCHEMA,
                                             "strict": True}},
        )
        if not resp.choices:
            return ""
        message = resp.choices[0].message
        return message.content or ""
