"""Agents: one interface for every player; the course labs' logical agents and the solver's.

:mod:`.agent` (the interface and the loop of a logical agent), :mod:`.kb` (the CS440 lab's
sentence knowledge base: ``kb``, ``kb-merge``), :mod:`.equations` (the CS440 project's clue
equations: ``basic``, ``improved`` and their ``-v2``), :mod:`.deduction` (the complete
deduction: ``csp``, ``best``) and :mod:`.registry` (every agent by name).
"""

from __future__ import annotations

from .agent import Agent, Inference, Reasoner, ReasoningAgent, Selection, revealed_cells
from .deduction import BestAgent, CSPAgent
from .equations import BasicAgent, BasicV2Agent, ClueEquations, ImprovedAgent, ImprovedV2Agent
from .kb import KBAgent, KBMergeAgent, KnowledgeBase, Sentence
from .registry import AGENTS, UnknownAgentError, agent, agent_names

__all__ = [
    "AGENTS",
    "Agent",
    "BasicAgent",
    "BasicV2Agent",
    "BestAgent",
    "CSPAgent",
    "ClueEquations",
    "ImprovedAgent",
    "ImprovedV2Agent",
    "Inference",
    "KBAgent",
    "KBMergeAgent",
    "KnowledgeBase",
    "Reasoner",
    "ReasoningAgent",
    "Selection",
    "Sentence",
    "UnknownAgentError",
    "agent",
    "agent_names",
    "revealed_cells",
]
