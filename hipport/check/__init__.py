"""`hipport check`: fail on new CUDA-only code, for pre-commit hooks and CI.

policy.py decides which codes fail, baseline.py remembers known violations,
gitdiff.py finds the lines a change adds, engine.py turns a run's findings
into violations, output.py prints them."""
