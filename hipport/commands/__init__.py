"""The work behind each CLI command: options in, exit code out."""
