"""hipport's version (read by the build backend, pyproject.toml)."""
__version__ = "0.1.0"
