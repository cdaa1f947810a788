"""Maintainer tools that build and check the hipport mapping catalogue.

The YAML files under ``mappings/`` are the source of truth; these tools only
propose new entries, report names that disappeared, and write the inventory of
public CUDA names used for the coverage figure.
"""
