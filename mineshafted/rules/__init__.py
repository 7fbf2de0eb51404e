"""The S4 rule language: syntax tree, parser, condition evaluator, interpreter, scoring, checker."""

from __future__ import annotations

from .conditions import UNKNOWN, evaluate, evaluate_partly, holds
from .errors import RulesError, RuleSyntaxError
from .interpreter import DEFAULT_TIME_LIMIT, Finish, Play, play
from .parser import OPERATORS, parse_rules, read_rules
from .syntax import (
    Call,
    Constant,
    DefaultAction,
    Expr,
    Rule,
    Ruleset,
    Symbol,
    SystemVariable,
)

__all__ = [
    "DEFAULT_TIME_LIMIT",
    "OPERATORS",
    "UNKNOWN",
    "Call",
    "Constant",
    "DefaultAction",
    "Expr",
    "Finish",
    "Play",
    "Rule",
    "RuleSyntaxError",
    "RulesError",
    "Ruleset",
    "Symbol",
    "SystemVariable",
    "evaluate",
    "evaluate_partly",
    "holds",
    "parse_rules",
    "play",
    "read_rules",
]
