"""Project configuration: `[tool.hipport]` in pyproject.toml, or a
`.hipport.toml` (the same keys at top level), found by walking up from the
first input path; `--config FILE` names one explicitly (TOML or YAML).

Only the file is read here; each section's keys are validated by the code
that owns the section, through `Values`, so every message names the file and
the dotted key that failed."""
from __future__ import annotations

import math
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from hipport.errors import HipportError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

# Checked in this order in each directory (ruff's order: the tool's own file wins).
CONFIG_NAMES = (".hipport.toml", "pyproject.toml")
# The largest number any setting takes: weights in person-days, fractions.
MAXIMUM = 1e9
# Sections of [tool.hipport]; anything else is a typo and rejected.
KNOWN_SECTIONS = ("report", "check")


class ConfigError(HipportError):
    def __init__(self, path: str, key: str, message: str) -> None:
        super().__init__(f"{path}: {key}: {message}")
        self.path = path
        self.key = key


@dataclass(frozen=True)
class Values:
    """One table of configuration values, with its file and key path."""

    path: str
    prefix: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def key(self, name: str) -> str:
        return f"{self.prefix}.{name}" if self.prefix else name

    def fail(self, name: str, message: str) -> ConfigError:
        return ConfigError(self.path, self.key(name), message)

    def check_keys(self, allowed: tuple[str, ...]) -> None:
        for name in self.data:
            if name not in allowed:
                from hipport.suggest import did_you_mean

                raise self.fail(name, f"unknown key{did_you_mean(name, allowed, 1)} "
                                f"(allowed: {', '.join(allowed)})")

    def table(self, name: str) -> Values:
        value = self.data.get(name, {})
        if not isinstance(value, dict):
            raise self.fail(name, f"expected a table, got {_kind(value)}")
        return Values(self.path, self.key(name), value)

    def number(self, name: str, default: float, *, minimum: float = 0.0,
               maximum: float | None = None) -> float:
        value = self.data.get(name, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.fail(name, f"expected a number, got {_kind(value)}")
        if not math.isfinite(value):  # TOML `nan`/`inf`, YAML `.nan`/`.inf`
            raise self.fail(name, f"expected a finite number, got {value!r}")
        if value > MAXIMUM:  # past this, sums over a large tree overflow to inf
            raise self.fail(name, f"expected a number of at most {MAXIMUM:g}, got {value!r}")
        if value < minimum or (maximum is not None and value > maximum):
            bound = f"between {minimum:g} and {maximum:g}" if maximum is not None \
                else f"at least {minimum:g}"
            raise self.fail(name, f"expected a number {bound}, got {value!r}")
        return float(value)

    def string(self, name: str, default: str | None = None, *,
               choices: tuple[str, ...] = ()) -> str | None:
        value = self.data.get(name, default)
        if value is None:
            return None
        if not isinstance(value, str) or not value:
            raise self.fail(name, f"expected a non-empty string, got {_kind(value)}")
        if choices and value not in choices:
            raise self.fail(name, f"expected one of {', '.join(choices)}, got {value!r}")
        return value

    def strings(self, name: str) -> tuple[str, ...] | None:
        """A list of strings; None when the key is absent."""
        value = self.data.get(name)
        if value is None:
            return None
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise self.fail(name, f"expected a list of non-empty strings, got {_kind(value)}")
        return tuple(value)

    def flag(self, name: str, default: bool = False) -> bool:
        value = self.data.get(name, default)
        if not isinstance(value, bool):
            raise self.fail(name, f"expected true or false, got {_kind(value)}")
        return value


@dataclass(frozen=True)
class ProjectConfig:
    path: Path | None  # None: no configuration file, defaults everywhere
    root: Values

    def section(self, name: str) -> Values:
        return self.root.table(name)

    @property
    def source(self) -> str:
        return str(self.path) if self.path is not None else "built-in defaults"


def _kind(value: object) -> str:
    return {dict: "a table", list: "a list", str: "a string", bool: "a boolean"}.get(
        type(value), type(value).__name__)


def find_config(start: Path) -> Path | None:
    """The nearest .hipport.toml, or pyproject.toml with a [tool.hipport] table,
    in ``start`` (a file's directory) or above it."""
    here = Path(os.path.realpath(start))  # never raises, even for a loop of links
    if not here.is_dir():
        here = here.parent
    for directory in (here, *here.parents):
        for name in CONFIG_NAMES:
            candidate = directory / name
            if not candidate.is_file():
                continue
            if name != "pyproject.toml" or "hipport" in _read(candidate).get("tool", {}):
                return candidate
    return None


def _read(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(str(path), "(file)", f"cannot read: {exc}") from None
    if path.suffix in (".yaml", ".yml"):
        import yaml  # only for YAML configuration files

        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            raise ConfigError(str(path), "(file)", f"malformed YAML: {exc}") from None
        except RecursionError:
            raise ConfigError(str(path), "(file)", "malformed YAML: nested too deeply") from None
        data = {} if data is None else data
        if not isinstance(data, dict):
            raise ConfigError(str(path), "(top)", f"expected a mapping, got {_kind(data)}")
        return data
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(str(path), "(file)", f"malformed TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(str(path), "(file)", "malformed TOML: nested too deeply") from None


def load_config(start: Path | None = None, explicit: Path | None = None) -> ProjectConfig:
    """The configuration for a run: ``explicit`` if given, else the file found
    from ``start``, else defaults."""
    path = explicit if explicit is not None else (find_config(start) if start else None)
    if path is None:
        return ProjectConfig(None, Values("built-in defaults", ""))
    if explicit is not None and not explicit.is_file():
        raise ConfigError(str(explicit), "(file)", "no such configuration file")
    data = _read(path)
    tool = data.get("tool")
    if path.name == "pyproject.toml" or (isinstance(tool, dict) and "hipport" in tool):
        table = tool.get("hipport", {}) if isinstance(tool, dict) else {}
        prefix = "tool.hipport"
    else:
        table, prefix = data, ""
    if not isinstance(table, dict):
        raise ConfigError(str(path), prefix or "(top)", f"expected a table, got {_kind(table)}")
    root = Values(str(path), prefix, table)
    root.check_keys(KNOWN_SECTIONS)
    return ProjectConfig(path, root)
