"""``[tool.torchcopy]`` configuration for ``torchcopy-fix``, read from pyproject.toml.

Each file gets the configuration of the nearest ``pyproject.toml`` with a
``[tool.torchcopy]`` table, walking up from the file's directory (hierarchical, as
ruff resolves ``[tool.ruff]``): :class:`Resolver`.  ``--config PATH`` uses one file
for every path, ``--isolated`` none.  Keys are validated strictly: an unknown key or
a value of the wrong type raises :class:`ConfigError` naming the key and the file.
"""
from __future__ import annotations

import fnmatch
import os
import re
import sys
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

if sys.version_info >= (3, 11):  # pragma: no cover - version dependent
    import tomllib as _toml
else:  # pragma: no cover - version dependent
    try:
        import tomli as _toml
    except ImportError:  # tomli missing: configuration files cannot be read
        _toml = None  # type: ignore[assignment,unused-ignore]  # used only where tomli is typed (Python < 3.11)

CODE_PREFIX = re.compile(r"^TRC[0-9]{0,3}$")


class ConfigError(Exception):
    """A bad configuration file or a bad option value (exit status 2)."""


@dataclass
class Config:
    """What ``[tool.torchcopy]`` says; None means "not set"."""

    path: Optional[str] = None  # the pyproject.toml it came from
    root: str = "."  # the directory globs are relative to
    select: Optional[Tuple[str, ...]] = None
    ignore: Optional[Tuple[str, ...]] = None
    extend_select: Optional[Tuple[str, ...]] = None
    exclude: Optional[Tuple[str, ...]] = None
    unsafe_fixes: Optional[bool] = None
    trust_annotations: Optional[bool] = None
    public_helpers: Optional[bool] = None
    respect_gitignore: Optional[bool] = None
    per_file_ignores: Dict[str, Tuple[str, ...]] = field(default_factory=dict)
    #: per-file-ignores from ``--config KEY=VALUE``: globs relative to the current directory
    cwd_per_file_ignores: Dict[str, Tuple[str, ...]] = field(default_factory=dict)


KEYS = {
    "select": "codes",
    "ignore": "codes",
    "extend-select": "codes",
    "exclude": "globs",
    "unsafe-fixes": "bool",
    "trust-annotations": "bool",
    "public-helpers": "bool",
    "respect-gitignore": "bool",
    "per-file-ignores": "table",
}


def _rule_codes() -> Tuple[str, ...]:
    from ..rules import ALL_RULES

    return tuple(r.code for r in ALL_RULES)


def check_codes(values: List[str], where: str = "") -> Tuple[str, ...]:
    """Validate rule selectors, as ruff does: ``ALL`` (every rule, kept as ``TRC``) or a
    code or code prefix that at least one rule has (``TRC``, ``TRC1``, ``TRC101``)."""
    codes = _rule_codes()
    out = []
    for v in values:
        v = v.strip()
        if not v:
            continue
        if v == "ALL":
            v = "TRC"
        elif not CODE_PREFIX.match(v) or not any(code.startswith(v) for code in codes):
            prefix = f"{where}: " if where else ""
            raise ConfigError(f"{prefix}unknown rule selector {v!r} (known: ALL, TRC, "
                              f"a prefix such as TRC1, or a code: {', '.join(codes)})")
        out.append(v)
    return tuple(out)


def _str_list(key: str, value: Any, path: str) -> List[str]:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    raise ConfigError(f"{path}: [tool.torchcopy] {key} must be a list of strings, not {type(value).__name__}")


def _declares_torchcopy(candidate: str) -> bool:
    """Is ``candidate`` a pyproject.toml with a [tool.torchcopy] table?"""
    if not os.path.isfile(candidate):
        return False
    try:
        with open(candidate, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        raise ConfigError(f"{candidate}: cannot read: {exc.strerror or exc}") from None
    return b"torchcopy" in data and bool(re.search(
        rb"(?m)^[ \t]*\[[ \t]*tool[ \t]*\.[ \t]*torchcopy\b|torchcopy[ \t]*=", data))


def find_pyproject(start: str) -> Optional[str]:
    """The nearest pyproject.toml with a [tool.torchcopy] table, from ``start`` upwards."""
    here = os.path.abspath(start)
    if not os.path.isdir(here):
        here = os.path.dirname(here)
    while True:
        candidate = os.path.join(here, "pyproject.toml")
        if _declares_torchcopy(candidate):
            return candidate
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def load_config(path: str) -> Config:
    """Read and validate ``[tool.torchcopy]`` of one pyproject.toml."""
    if _toml is None:
        raise ConfigError(f"{path}: reading pyproject.toml needs 'tomli' on Python < 3.11 (pip install tomli)")
    try:
        with open(path, "rb") as fh:
            data = _toml.load(fh)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except Exception as exc:  # tomllib.TOMLDecodeError and friends
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    table = data.get("tool", {}).get("torchcopy", {}) if isinstance(data.get("tool"), dict) else {}
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.torchcopy] must be a table")
    return _from_table(table, Config(path=path, root=os.path.dirname(os.path.abspath(path))), path)


def parse_override(text: str) -> Config:
    """``--config 'KEY = VALUE'`` (ruff's inline form): one ``[tool.torchcopy]`` key, in
    TOML, over every file's configuration (globs relative to the current directory)."""
    if _toml is None:
        raise ConfigError("--config KEY=VALUE needs 'tomli' on Python < 3.11 (pip install tomli)")
    try:
        table = _toml.loads(text)
    except Exception as exc:
        raise ConfigError(f"--config {text!r}: neither a file nor a TOML 'KEY = VALUE' pair ({exc})") from None
    return _from_table(table, Config(path=None, root=os.path.abspath(".")), f"--config {text!r}")


_FIELDS = ("select", "ignore", "extend_select", "exclude", "unsafe_fixes", "trust_annotations",
           "public_helpers", "respect_gitignore")


def merged(base: Config, override: Config) -> Config:
    """``base`` with what ``override`` sets (a --config KEY=VALUE)."""
    out = Config(path=base.path, root=base.root, per_file_ignores=dict(base.per_file_ignores))
    for name in _FIELDS:
        value = getattr(override, name)
        setattr(out, name, value if value is not None else getattr(base, name))
    if override.per_file_ignores:  # replaces the key, as every override does
        out.per_file_ignores = {}
        out.cwd_per_file_ignores = dict(override.per_file_ignores)
    return out


def _from_table(table: Dict[str, Any], cfg: Config, path: str) -> Config:
    for key, value in table.items():
        kind = KEYS.get(key)
        where = f"{path}: [tool.torchcopy] {key}"
        if kind is None:
            hint = ""
            if key.replace("_", "-") in KEYS:
                hint = f" (did you mean {key.replace('_', '-')!r}?)"
            raise ConfigError(f"{path}: unknown key {key!r} in [tool.torchcopy]{hint}; known keys: {', '.join(sorted(KEYS))}")
        if kind == "bool":
            if not isinstance(value, bool):
                raise ConfigError(f"{where} must be true or false, not {type(value).__name__}")
            setattr(cfg, key.replace("-", "_"), value)
        elif kind == "codes":
            setattr(cfg, key.replace("-", "_"), check_codes(_str_list(key, value, path), where))
        elif kind == "globs":
            cfg.exclude = tuple(g.strip() for g in _str_list(key, value, path) if g.strip())
        elif kind == "table":
            if not isinstance(value, dict):
                raise ConfigError(f"{where} must be a table of glob = [codes], not {type(value).__name__}")
            pfi = {}
            for glob, codes in value.items():
                pfi[glob] = check_codes(_str_list(f"{key}.{glob}", codes, path), f"{where}.{glob!r}")
            cfg.per_file_ignores = pfi
    return cfg


def discover_config(start: str) -> Config:
    """The configuration for a run whose first path is ``start`` (defaults when none)."""
    found = find_pyproject(start)
    if found is None:
        return Config(root=os.path.abspath("."))
    return load_config(found)


class Resolver:
    """The configuration of each path: the nearest config file above it (cached per
    directory), or one fixed configuration (``--config``, ``--isolated``)."""

    def __init__(self, fixed: Optional[Config] = None) -> None:
        self.fixed = fixed
        self.overrides: List[Config] = []
        self._merged: Dict[int, Config] = {}
        self._by_dir: Dict[str, Optional[str]] = {}
        self._loaded: Dict[str, Config] = {}
        self.default = Config(root=os.path.abspath("."))

    @classmethod
    def for_run(cls, configs: Optional[List[str]], isolated: bool) -> "Resolver":
        """``--config`` values (at most one file; ``KEY = VALUE`` overrides) and ``--isolated``."""
        files = [c for c in configs or () if os.path.isfile(c) or "=" not in c]
        if len(files) > 1:
            raise ConfigError(f"--config: one configuration file at most, got {', '.join(files)}")
        for f in files:
            if not os.path.isfile(f):
                raise ConfigError(f"{f}: --config: no such file")
        overrides = [parse_override(c) for c in configs or () if c not in files]
        fixed = None
        if isolated:
            fixed = Config(root=os.path.abspath("."))
        elif files:
            fixed = load_config(files[0])
        resolver = cls(fixed)
        resolver.overrides = overrides
        return resolver

    def _nearest(self, directory: str) -> Optional[str]:
        chain = []
        here = directory
        while here not in self._by_dir:
            chain.append(here)
            candidate = os.path.join(here, "pyproject.toml")
            if _declares_torchcopy(candidate):
                found: Optional[str] = candidate
                break
            parent = os.path.dirname(here)
            if parent == here:
                found = None
                break
            here = parent
        else:
            found = self._by_dir[here]
        for d in chain:
            self._by_dir[d] = found
        return found

    def config_for(self, path: str, is_dir: bool = False) -> Config:
        """The configuration that governs ``path`` (a file, or with ``is_dir`` a directory),
        with the ``--config KEY=VALUE`` overrides applied."""
        base = self._base_for(path, is_dir)
        if not self.overrides:
            return base
        if id(base) not in self._merged:
            out = base
            for override in self.overrides:
                out = merged(out, override)
            self._merged[id(base)] = out
        return self._merged[id(base)]

    def _base_for(self, path: str, is_dir: bool) -> Config:
        if self.fixed is not None:
            return self.fixed
        here = os.path.abspath(path)
        if not is_dir:
            here = os.path.dirname(here)
        found = self._nearest(here)
        if found is None:
            return self.default
        if found not in self._loaded:
            self._loaded[found] = load_config(found)
        return self._loaded[found]


def _rel(path: str, root: str) -> str:
    try:
        rel = os.path.relpath(os.path.abspath(path), root)
    except ValueError:  # another drive on Windows
        rel = os.path.abspath(path)
    return rel.replace(os.sep, "/")


def glob_matches(path: str, patterns, root: str) -> bool:
    """flake8-like matching: a pattern matches the file name, or the path relative
    to ``root`` (the config file's directory), or any of its parent directories."""
    if not patterns:
        return False
    rel = _rel(path, root)
    name = rel.rsplit("/", 1)[-1]
    parts = rel.split("/")
    for pat in patterns:
        pat = pat.rstrip("/")
        if pat.startswith("./"):
            pat = pat[2:]
        if fnmatch.fnmatch(name, pat) or fnmatch.fnmatch(rel, pat):
            return True
        # a directory pattern excludes everything below it
        for i in range(1, len(parts)):
            if fnmatch.fnmatch("/".join(parts[:i]), pat) or fnmatch.fnmatch(parts[i - 1], pat):
                return True
    return False


def ignored_codes_for(path: str, per_file_ignores: Dict[str, Tuple[str, ...]], root: str) -> Tuple[str, ...]:
    """The code prefixes that per-file-ignores switches off for ``path``."""
    out: List[str] = []
    for pat, codes in per_file_ignores.items():
        if glob_matches(path, (pat,), root):
            out.extend(codes)
    return tuple(out)
