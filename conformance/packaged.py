"""What the package carries beside its code, and where a checkout differs from a wheel.

A source checkout (or an editable install of one) has ``docs/`` beside the packages; a wheel
carries copies of the documents the commands quote inside ``conformance/`` (pyproject.toml:
``force-include``). Commands that rewrite shipped data (``vectors build-corpus``, ``vectors
freeze``) do so only in a checkout: an installed package is never written to.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from croupier import conformance

#: The folder holding ``oracle/``, ``conformance/`` and ``clients/``: a checkout or site-packages.
_ROOT = Path(conformance.__file__).resolve().parents[1]


def checkout() -> Path | None:
    """The source checkout the package runs from, or None for an installed wheel."""
    return _ROOT if (_ROOT / "pyproject.toml").is_file() and (_ROOT / "docs").is_dir() else None


def document(name: str) -> str | None:
    """A document of ``docs/`` (``RULES.md``, ``AUDIT.md``): the checkout's, else the wheel's.

    None when neither has it.
    """
    root = checkout()
    if root is not None and (root / "docs" / name).is_file():
        return (root / "docs" / name).read_text(encoding="utf-8")
    packaged = resources.files(conformance).joinpath(name)
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    return None
