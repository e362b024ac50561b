"""The shipped prompt texts (package data of ``training_check.prompts``), without importing the MCP SDK."""

from __future__ import annotations

from importlib import resources as importlib_resources

from ..tools.errors import BadInput


def prompt_file(name: str) -> str:
    """A markdown file shipped in ``training_check.prompts``."""
    try:
        return importlib_resources.files("training_check.prompts").joinpath(name).read_text(encoding="utf-8")
    except (FileNotFoundError, OSError) as e:
        raise BadInput(f"prompt file {name} is missing from the install ({e}); reinstall training-check") from None


def slash_command_body() -> str:
    """prompts/training-check.md without its front matter (Claude Code reads that; other clients need only the body)."""
    text = prompt_file("training-check.md")
    if text.startswith("---"):
        end = text.find("\n---", 3)
        if end != -1:
            text = text[end + 4:]
    return text.lstrip("\n")


def slash_command_text(run: str) -> str:
    """The slash command's text with ``$ARGUMENTS`` replaced by the run."""
    return slash_command_body().replace("$ARGUMENTS", run.strip())
