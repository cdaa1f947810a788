"""Diagnostic codes, one module per area."""
