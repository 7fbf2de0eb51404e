"""Registry: every agent by name; a new agent is one module and one line here."""

from __future__ import annotations

from ..errors import MineshaftedError
from .agent import Agent
from .deduction import BestAgent, CSPAgent
from .equations import BasicAgent, BasicV2Agent, ImprovedAgent, ImprovedV2Agent
from .kb import KBAgent, KBMergeAgent

__all__ = ["AGENTS", "UnknownAgentError", "agent", "agent_names"]

AGENTS: dict[str, type[Agent]] = {
    cls.name: cls
    for cls in (
        KBAgent,
        KBMergeAgent,
        BasicAgent,
        ImprovedAgent,
        BasicV2Agent,
        ImprovedV2Agent,
        CSPAgent,
        BestAgent,
    )
}
"""Agent name -> its class, in the order help texts list them."""


class UnknownAgentError(MineshaftedError, ValueError):
    """No agent has this name; ``name`` is the name asked for."""

    def __init__(self, name: str) -> None:
        self.name = name
        super().__init__(f"no agent named {name!r}: choose from {', '.join(AGENTS)}")


def agent_names() -> list[str]:
    """Every registered agent's name, in registry order."""
    return list(AGENTS)


def agent(name: str) -> Agent:
    """A new agent of the kind registered as ``name``.

    Raises
    ------
    UnknownAgentError
        No agent is registered under ``name``.

    Examples
    --------
    >>> agent("kb-merge").name
    'kb-merge'
    >>> agent("oracle")
    Traceback (most recent call last):
    ...
    mineshafted.agents.registry.UnknownAgentError: no agent named 'oracle': choose from kb, \
kb-merge, basic, improved, basic-v2, improved-v2, csp, best
    """
    try:
        return AGENTS[name]()
    except KeyError:
        raise UnknownAgentError(name) from None
