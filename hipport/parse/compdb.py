"""compile_commands.json: the preprocessor flags each file was built with.

Only flags that change what a file *means* are kept (include paths, macros,
forced includes, the language standard): the database may come from nvcc,
clang or gcc, and their code-generation flags mean nothing to libclang.
"""
from __future__ import annotations

import json
import shlex
from pathlib import Path

from hipport.errors import HipportError

# Flags that take a value, either joined (-Ifoo) or as the next argument (-I foo).
_PATH_FLAGS = ("-I", "-isystem", "-iquote", "-idirafter", "-include")
_VALUE_FLAGS = ("-D", "-U")
# nvcc spellings of the same flags.
_NVCC_ALIASES = {
    "--include-path": "-I", "--system-include": "-isystem", "--define-macro": "-D",
    "--undefine-macro": "-U", "--pre-include": "-include",
}


class CompileDatabaseError(HipportError):
    pass


def load(path: str | Path) -> dict[Path, tuple[str, ...]]:
    """Resolved source path -> the kept flags for it."""
    db = Path(path)
    if db.is_dir():
        db = db / "compile_commands.json"
    try:
        entries = json.loads(db.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CompileDatabaseError(f"cannot read {db}: {exc.strerror}") from exc
    except ValueError as exc:
        raise CompileDatabaseError(f"{db} is not valid JSON: {exc}") from exc
    except RecursionError:
        raise CompileDatabaseError(f"{db} is not valid JSON: nested too deeply") from None
    if not isinstance(entries, list):
        raise CompileDatabaseError(f"{db}: expected a list of compile commands")
    flags: dict[Path, tuple[str, ...]] = {}
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict) or not isinstance(entry.get("file"), str):
            raise CompileDatabaseError(f"{db}: entry [{i}] has no \"file\"")
        directory = Path(entry.get("directory") or db.parent)
        if isinstance(entry.get("arguments"), list):
            argv = [str(a) for a in entry["arguments"]]
        elif isinstance(entry.get("command"), str):
            try:
                argv = shlex.split(entry["command"])
            except ValueError as exc:
                raise CompileDatabaseError(f"{db}: entry [{i}].command: {exc}") from exc
        else:
            raise CompileDatabaseError(f"{db}: entry [{i}] has neither \"arguments\" "
                                       "nor \"command\"")
        source = _absolute(directory, entry["file"])
        flags[source] = tuple(meaningful_flags(argv[1:], directory))
    return flags


def _absolute(directory: Path, name: str) -> Path:
    path = Path(name)
    return (path if path.is_absolute() else directory / path).resolve()


def meaningful_flags(args: list[str], directory: Path) -> list[str]:
    kept: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        flag, value = _split(arg)
        if flag is not None and value is None and i + 1 < len(args):
            i += 1
            value = args[i]
        if flag is not None and value is not None:
            if flag in _PATH_FLAGS and flag != "-include":
                value = str(_absolute(directory, value))
            elif flag == "-include" and not Path(value).is_absolute() \
                    and (directory / value).exists():
                value = str(_absolute(directory, value))
            kept += [flag, value]
        elif arg.startswith(("-std=", "--std=")):
            kept.append("-std=" + arg.split("=", 1)[1])
        elif arg in ("-std", "--std") and i + 1 < len(args):
            i += 1
            kept.append("-std=" + args[i])
        i += 1
    return kept


def _split(arg: str) -> tuple[str | None, str | None]:
    """(-I, dir) for `-Idir` / `--include-path=dir`; (-I, None) for a bare `-I`."""
    if "=" in arg and arg.split("=", 1)[0] in _NVCC_ALIASES:
        name, value = arg.split("=", 1)
        return _NVCC_ALIASES[name], value
    if arg in _NVCC_ALIASES:
        return _NVCC_ALIASES[arg], None
    for flag in _PATH_FLAGS + _VALUE_FLAGS:
        if arg == flag:
            return flag, None
        # -include takes no joined form; -isystem/-iquote/-idirafter before -I.
        if flag != "-include" and arg.startswith(flag) and not (
                flag == "-I" and arg.startswith(("-isystem", "-iquote", "-idirafter"))):
            if flag == "-I" or flag in _VALUE_FLAGS or len(arg) > len(flag):
                return flag, arg[len(flag):]
    return None, None
