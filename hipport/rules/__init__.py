"""Code rules: conversions the mapping table cannot express as a rename, and
the portability hazards.  One rule per module; ``registry`` holds them."""
from __future__ import annotations

from hipport.rules.registry import (
    ARGUMENT_RULES,
    FILE_RULES,
    ArgumentRewrite,
    ArgumentRule,
    Context,
    FileRule,
    RuleRole,
    argument_rule,
    argument_rules,
    discover,
    entry_argument_rule,
    file_rule,
    file_rules,
    rule_for,
    stability_rules,
    warm_up,
    warm_up_step,
)

__all__ = ["ARGUMENT_RULES", "FILE_RULES", "ArgumentRewrite", "ArgumentRule", "Context",
           "FileRule", "RuleRole", "argument_rule", "argument_rules", "discover",
           "entry_argument_rule", "file_rule", "file_rules", "rule_for", "stability_rules",
           "warm_up", "warm_up_step"]
