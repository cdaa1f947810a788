"""Portability hazards (HP4xx-HP5xx): code that still compiles after renaming
but behaves differently on AMD GPUs, or that renaming cannot reach.

Each module is one hazard family: it registers a file rule, and its
whole-tree queries with ``nodes.query`` (they compile into one query, once
per process).  ``hipport.rules.registry.discover`` finds the modules."""
