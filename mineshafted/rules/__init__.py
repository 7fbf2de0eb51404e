"""The S4 rule language: syntax, parser, conditions, patterns, interpreter, scoring, checker."""

from __future__ import annotations

from .boards import chance_board
from .checker import DEFAULT_CHECK_LIMIT, Finding, Verdict, check_rule, check_rules
from .conditions import INDETERMINATE, evaluate, evaluate_partly, holds
from .errors import RulesError, RuleSyntaxError
from .interpreter import DEFAULT_TIME_LIMIT, Finish, Play, play
from .parser import OPERATORS, parse_rules, read_rules
from .patterns import matches
from .scoring import Evaluation, board_json, rule_usage, summary_line
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
    "DEFAULT_CHECK_LIMIT",
    "DEFAULT_TIME_LIMIT",
    "INDETERMINATE",
    "OPERATORS",
    "Call",
    "Constant",
    "DefaultAction",
    "Evaluation",
    "Expr",
    "Finding",
    "Finish",
    "Play",
    "Rule",
    "RuleSyntaxError",
    "RulesError",
    "Ruleset",
    "Symbol",
    "SystemVariable",
    "Verdict",
    "board_json",
    "chance_board",
    "check_rule",
    "check_rules",
    "evaluate",
    "evaluate_partly",
    "holds",
    "matches",
    "parse_rules",
    "play",
    "read_rules",
    "rule_usage",
    "summary_line",
]
