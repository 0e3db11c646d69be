"""Which build of the rules runs: the mypyc-compiled modules, or the pure Python reference.

``make compiled`` (``bench/compiled.py``) compiles the rules modules with mypyc into
``oracle/_compiled/`` (git ignores it) when a C compiler is present; without one there is no
compiled build and the pure modules run. The compiled modules run when their manifest's
SHA-256 of every ``oracle/*.py`` matches the sources beside them (a stale build is never
used: compiled code bakes in the types of every module it imports) and ``CROUPIER_BUILD`` is
unset or ``compiled``. ``CROUPIER_BUILD=pure`` runs the pure modules, the tested reference;
``CROUPIER_BUILD=compiled`` refuses to fall back (an ``ImportError`` says why). The choice is
made once, in ``oracle/__init__.py``, before any rules module is imported: this module
imports none of them.
"""

from __future__ import annotations

import copyreg
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: The environment variable that chooses the build: ``pure``, ``compiled`` or unset (either).
ENV = "CROUPIER_BUILD"
PURE = "pure Python"
COMPILED = "compiled: mypyc"
PACKAGE = Path(__file__).parent
DIRECTORY = PACKAGE / "_compiled"
MANIFEST = DIRECTORY / "manifest.json"


#: The files no compiled module is built from or bakes types in from.
_NOT_COMPILED = frozenset({"__init__.py", "build.py"})


def source_digests() -> dict[str, str]:
    """The SHA-256 of each rules source, ``oracle/*.py`` (not the service's), by file name."""
    return {
        path.name: hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(PACKAGE.glob("*.py"))
        if path.name not in _NOT_COMPILED
    }


def _unusable(manifest: dict[str, Any]) -> str | None:
    """Why the compiled build described by ``manifest`` cannot run here, or None."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    if manifest.get("suffix") != suffix:
        return f"built for {manifest.get('suffix')}, this interpreter loads {suffix}"
    if manifest.get("sources") != source_digests():
        return "stale (oracle/*.py changed since it was built: make compiled)"
    files = [manifest["library"], *(f"croupier/oracle/{m}{suffix}" for m in manifest["modules"])]
    missing = [name for name in files if not (DIRECTORY / name).is_file()]
    return f"incomplete (missing {', '.join(missing)})" if missing else None


def _taken(cls: Any) -> tuple[str, ...]:
    """The fields that rebuild a frozen dataclass: those its ``__init__`` takes."""
    fields = cls.__dataclass_fields__
    if cls.__dataclass_params__.init:
        return tuple(fields)
    return tuple(name for name, field in fields.items() if field.init)


def _rebuild(cls: Any, values: tuple[object, ...]) -> object:
    """A frozen dataclass rebuilt from its fields' values (what ``_reduce`` pickles)."""
    if not cls.__dataclass_params__.init:
        # It writes its __init__ out, which its compiled __new__ runs too (oracle.immutable).
        return cls(**dict(zip(_taken(cls), values, strict=True)))
    new = cls.__new__(cls)
    for name, value in zip(cls.__dataclass_fields__, values, strict=True):
        object.__setattr__(new, name, value)
    return new


def _reduce(record: object) -> tuple[Callable[..., object], tuple[object, ...]]:
    """Pickle and copy a compiled frozen dataclass by its fields' values.

    mypyc's own ``__setstate__`` sets each attribute through the frozen dataclass's
    ``__setattr__``, which refuses: without this, an audit's workers could not receive a
    table's history, nor ``copy.deepcopy`` copy a round.
    """
    cls = type(record)
    return _rebuild, (cls, tuple(getattr(record, name) for name in _taken(cls)))


class _Loader(importlib.machinery.ExtensionFileLoader):
    """Loads a compiled module, then registers the frozen dataclasses' ``_reduce``.

    Those of every compiled module loaded by then: one that a compiled module imports is
    initialised inside mypyc's shared library, without this loader (``decision`` under
    ``blackjack``), and a class of it that writes its ``__init__`` out could not be copied
    otherwise (``oracle.immutable``). Registering a class again changes nothing.
    """

    def exec_module(self, module: types.ModuleType) -> None:
        super().exec_module(module)
        for name in _COMPILED:
            loaded = sys.modules.get(name)
            for value in list(vars(loaded).values()) if loaded is not None else ():
                frozen = getattr(getattr(value, "__dataclass_params__", None), "frozen", False)
                if frozen and isinstance(value, type) and value.__module__ == name:
                    copyreg.pickle(value, _reduce)


#: The names of the compiled modules, once ``_load`` has found them.
_COMPILED: list[str] = []


class _Finder(importlib.abc.MetaPathFinder):
    """Finds the compiled modules (by name) before the path finds their sources."""

    def __init__(self, modules: dict[str, Path]) -> None:
        self.modules = modules

    def find_spec(
        self,
        fullname: str,
        path: object = None,  # noqa: ARG002 - the finder protocol's
        target: object = None,  # noqa: ARG002
    ) -> importlib.machinery.ModuleSpec | None:
        """The spec of a compiled module, None for any other."""
        location = self.modules.get(fullname)
        if location is None:
            return None
        loader = _Loader(fullname, str(location))
        return importlib.util.spec_from_file_location(fullname, location, loader=loader)


def _load(manifest: dict[str, Any]) -> None:
    """Load mypyc's shared library, then find the compiled modules before the sources."""
    name = manifest["library"].split(".", 1)[0]
    spec = importlib.util.spec_from_file_location(name, DIRECTORY / manifest["library"])
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {manifest['library']}")
    library = importlib.util.module_from_spec(spec)
    sys.modules[name] = library
    try:
        spec.loader.exec_module(library)
    except BaseException:
        del sys.modules[name]
        raise
    suffix = manifest["suffix"]
    modules = {
        f"croupier.oracle.{m}": DIRECTORY / "croupier" / "oracle" / f"{m}{suffix}"
        for m in manifest["modules"]
    }
    _COMPILED.extend(modules)
    sys.meta_path.insert(0, _Finder(modules))


def select() -> str:
    """Choose the build of the rules modules; its label.

    The label is ``croupier --version``'s: ``compiled: mypyc`` or ``pure Python``, with the
    reason a compiled build present beside the sources was not used.
    """
    wanted = os.environ.get(ENV, "")
    if wanted not in {"", "pure", "compiled"}:
        raise ImportError(f"{ENV}={wanted!r}: expected 'pure' or 'compiled' (or unset)")
    if wanted == "pure":
        return PURE
    why = "absent (make compiled builds it where a C compiler is present)"
    if MANIFEST.is_file():
        try:
            manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
            why = _unusable(manifest) or ""
            if not why:
                _load(manifest)
                return COMPILED
        except (ImportError, OSError, ValueError, KeyError, TypeError) as error:
            why = f"unloadable ({error})"
    if wanted == "compiled":
        raise ImportError(f"{ENV}=compiled, but the compiled build is {why}")
    return PURE if not MANIFEST.is_file() else f"{PURE}; the compiled build is {why}"
