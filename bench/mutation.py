"""Sampled mutation testing of the rules core against the fast oracle tests (``make mutation``).

``python -m bench.mutation [--module NAME]... [--rate NAME=FRACTION]... [--jobs N] [--list]``

Cosmic Ray's operators make the mutants of oracle/baccarat.py, blackjack.py, roulette.py,
money.py and settlement.py. A fixed share of them is sampled by a hash of each mutant's
identity (module, operator, the mutated line's text, which occurrence of that pair it is), so
the sample is the same on every run and an edit elsewhere in a module does not reshuffle it.
Kinds of mutants that the ``[[rule]]`` tables of bench/mutation_equivalents.toml name as
equivalent (inside an annotation, ``is`` for ``==`` on an enum member, ...) are left out
before sampling.

Each sampled mutant is written into one of ``--jobs`` private copies of the tree under
``.mutation/`` (the checkout itself is never touched) and the tests/oracle files that import
its module, directly or through other modules, run with ``pytest -x`` (without the project's
own plugin) and Hypothesis' ``mutation`` profile, slow tests excluded. A failing or timed-out
run kills the mutant. Mutants that the list's
``[[equivalent]]`` tables name are not run and not counted. The job prints, per module, the
score (killed / (sampled - equivalent)) and every surviving mutant, and exits 1 when a module
scores below 95%. ``.mutation/report.json`` has every result, ``.mutation/survivors.toml``
the survivors as ready-to-fill equivalents entries and ``.mutation/session.sqlite`` the
Cosmic Ray session (``cr-report .mutation/session.sqlite``).
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import difflib
import hashlib
import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import time
import tomllib
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cosmic_ray import plugins
from cosmic_ray.ast import ast_nodes, get_ast
from cosmic_ray.mutating import mutate_code
from cosmic_ray.work_db import WorkDB
from cosmic_ray.work_item import MutationSpec, TestOutcome, WorkerOutcome, WorkItem, WorkResult

ROOT = Path(__file__).resolve().parents[1]
SCRATCH = ROOT / ".mutation"
EQUIVALENTS = Path(__file__).with_name("mutation_equivalents.toml")
TEST_DIR = "tests/oracle"
THRESHOLD = 0.95
# What each private copy of the tree holds: the code under test, the tests, the docs some
# tests read and the pytest configuration.
COPIED = ("oracle", "tests", "docs", "pyproject.toml")
# The copy's own ``croupier`` package (first on its PYTHONPATH), laid out as the checkout's
# proto/croupier/: ``croupier.oracle`` is the copy's oracle/, and the parts no mutant touches
# (the generated croupier.v1, clients/, conformance/) are the checkout's, through symlinks.
LINKED = {
    "v1": ROOT / "proto/croupier/v1",
    "clients": ROOT / "clients",
    "conformance": ROOT / "conformance",
}
# Share of each module's mutants that is run, chosen for about a quarter of an hour on two
# cores and enough mutants per module for a score that means something.
RATES: dict[str, float] = {
    "baccarat": 0.20,
    "blackjack": 0.11,
    "roulette": 0.13,
    "money": 0.40,
    "settlement": 1.0,
}
# Without the project's own pytest plugin (entry point `croupier`, which no tests/oracle file
# uses): loaded at start-up, it imports the oracle, so a mutant that breaks a module's import
# (`_ALL + {8}` on a frozenset) crashed pytest itself (exit 3, an error) instead of failing the
# collection of every test that imports it (exit 2, killed).
PYTEST = (
    "-m",
    "pytest",
    "-x",
    "-q",
    "--no-header",
    "-p",
    "no:cacheprovider",
    "-p",
    "no:croupier",
    "-m",
    "not slow",
)
STATUSES = ("killed", "timeout", "survived", "equivalent", "error")


def _normal(text: str) -> str:
    """One line of source with its runs of blanks collapsed, as mutants are identified."""
    return " ".join(text.split())


@dataclass(frozen=True, slots=True)
class Mutant:
    """One mutation Cosmic Ray can make, identified so that unrelated edits keep its identity."""

    module: str
    operator: str
    occurrence: int
    start: tuple[int, int]
    end: tuple[int, int]
    line: str
    nth: int
    left_out: str = ""

    @property
    def identity(self) -> str:
        """Module, operator, the line's text and which occurrence of that pair: no line number."""
        return f"{self.module}\0{self.operator}\0{self.line}\0{self.nth}"

    @property
    def draw(self) -> float:
        """A number in [0, 1) fixed by the identity: the mutant is sampled when it is below the rate."""
        digest = hashlib.sha256(self.identity.encode()).digest()
        return int.from_bytes(digest[:8], "big") / 2**64

    @property
    def name(self) -> str:
        """The module's short name (money for oracle/money.py)."""
        return Path(self.module).stem

    def spec(self) -> Any:
        """The Cosmic Ray mutation spec."""
        return MutationSpec(
            module_path=self.module,
            operator_name=self.operator,
            occurrence=self.occurrence,
            start_pos=self.start,
            end_pos=self.end,
        )


@dataclass(frozen=True, slots=True)
class Mutation:
    """The source of a mutant and what it changes, as text."""

    code: str
    mutant_line: str
    shown: str


@dataclass(frozen=True, slots=True)
class Equivalent:
    """An entry of the equivalents list."""

    module: str
    operator: str
    line: str
    mutant: str
    reason: str
    nth: int | None = None


@dataclass(slots=True)
class Outcome:
    """What became of one sampled mutant."""

    mutant: Mutant
    status: str
    lineno: int
    shown: str
    mutant_line: str
    seconds: float = 0.0
    detail: str = ""
    reason: str = ""


@dataclass(slots=True)
class Module:
    """A module under mutation: its source, its mutants and the tests that exercise it."""

    name: str
    path: str
    source: str
    mutants: list[Mutant] = field(default_factory=list)
    left_out: Counter[str] = field(default_factory=Counter)
    tests: list[str] = field(default_factory=list)
    timeout: float = 0.0

    def mutate(self, mutant: Mutant) -> Mutation:
        """Apply one mutant to the source; the lines it changes, as they read before and after."""
        operator = plugins.get_operator(mutant.operator)()
        code = mutate_code(self.source, operator, mutant.occurrence)
        if not isinstance(code, str):
            msg = f"Cosmic Ray made no mutant for {mutant.module} {mutant.operator} #{mutant.occurrence}"
            raise RuntimeError(msg)
        before = self.source.splitlines()
        after = code.splitlines()
        removed: list[str] = []
        added: list[str] = []
        for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=before, b=after).get_opcodes():
            if tag != "equal":
                removed += before[i1:i2]
                added += after[j1:j2]
        mutant_line = " / ".join(_normal(text) for text in added)
        old = " / ".join(_normal(text) for text in removed)
        return Mutation(code, mutant_line, f"{old}  ->  {mutant_line or '(removed)'}")


Span = tuple[tuple[int, int], tuple[int, int]]


@dataclass(frozen=True, slots=True)
class Site:
    """Where an operator can mutate a module: the node, and what the rules need to know of it."""

    node: Any
    operator: str
    start: tuple[int, int]
    end: tuple[int, int]
    annotations: tuple[Span, ...]
    enums: frozenset[str]


def _annotations(tree: Any) -> tuple[Span, ...]:
    """Where the annotations are: of parameters, of return values and of annotated assignments."""
    spans = []
    for node in ast_nodes(tree):
        annotation = None
        if node.type in {"param", "funcdef"}:
            annotation = node.annotation
        elif node.type == "annassign":
            annotation = node.children[1]
        if annotation is not None:
            spans.append((annotation.start_pos, annotation.end_pos))
    return tuple(spans)


def _plain_enums(root: Path) -> frozenset[str]:
    """The oracle's enum classes: ``enum.Enum`` or ``Choice``, so equality is identity for their members.

    ``oracle.immutable.Choice`` is an ``enum.Enum`` that sets only ``__hash__`` (to identity):
    like ``Enum`` it defines no ``__eq__``.
    """
    found: set[str] = set()
    for path in (root / "oracle").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        found.update(re.findall(r"^class (\w+)\((?:(?:enum\.)?Enum|Choice)\):", text, re.MULTILINE))
    return frozenset(found)


def _in_annotation(site: Site) -> bool:
    return any(low <= site.start and site.end <= high for low, high in site.annotations)


def _keyword_only_marker(site: Site) -> bool:
    # Cosmic Ray takes the `*` before keyword-only parameters for a product.
    parents = {"parameters", "typedargslist", "lambdef", "varargslist"}
    return site.node.type == "operator" and site.node.parent.type in parents


_IDENTITY_SWAPS = ("_Is_Eq", "_IsNot_NotEq", "_Eq_Is", "_NotEq_IsNot")


def _enum_identity(site: Site) -> bool:
    if site.node.type != "comparison" or not site.operator.endswith(_IDENTITY_SWAPS):
        return False
    children = site.node.children
    for index in range(1, len(children), 2):
        if children[index].start_pos == site.start:
            sides = (children[index - 1], children[index + 1])
            return any(
                re.fullmatch(rf"(?:{'|'.join(site.enums)})\.[A-Z0-9_]+", side.get_code().strip())
                for side in sides
            )
    return False


def _frozen_slots(site: Site) -> bool:
    node = site.node
    if site.operator != "core/ReplaceTrueWithFalse" or node.parent.type != "argument":
        return False
    argument = node.parent
    siblings = {child.get_code().replace(" ", "") for child in argument.parent.children}
    decorator = argument.search_ancestor("decorator")
    return (
        argument.children[0].value == "slots"
        and "frozen=True" in siblings
        and decorator is not None
        and decorator.get_code(include_prefix=False).startswith("@dataclass(")
    )


# The rules of bench/mutation_equivalents.toml ([[rule]] name = ...): mutants they match are
# left out before sampling. The file says why each is equivalent; this says which mutants.
RULES: dict[str, Callable[[Site], bool]] = {
    "annotation": _in_annotation,
    "keyword-only marker": _keyword_only_marker,
    "enum identity": _enum_identity,
    "frozen slots": _frozen_slots,
}


def enumerate_mutants(
    module: str, source: str, rules: Sequence[str], enums: frozenset[str]
) -> list[Mutant]:
    """Every mutant of Cosmic Ray's default operators, in the order ``cosmic-ray init`` finds them.

    A mutant one of ``rules`` matches says which in ``left_out``.
    """
    tree = get_ast(source)
    lines = source.splitlines()
    spans = _annotations(tree)
    seen: Counter[tuple[str, str]] = Counter()
    mutants = []
    for operator_name in plugins.operator_names():
        operator_class = plugins.get_operator(operator_name)
        if operator_class.arguments():
            continue  # Operators that need arguments (variable replacer, inserter) are opt-in.
        operator = operator_class()
        positions = (
            (node, position)
            for node in ast_nodes(tree)
            for position in operator.mutation_positions(node)
        )
        for occurrence, (node, (start, end)) in enumerate(positions):
            line = _normal(lines[start[0] - 1])
            nth = seen[operator_name, line]
            seen[operator_name, line] += 1
            site = Site(node, operator_name, start, end, spans, enums)
            left_out = next((name for name in rules if RULES[name](site)), "")
            mutants.append(
                Mutant(module, operator_name, occurrence, start, end, line, nth, left_out)
            )
    return mutants


def load_equivalents(path: Path) -> tuple[dict[str, str], list[Equivalent]]:
    """The checked-in list: the rules (name: reason) and the equivalent mutants."""
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    rules = {}
    for rule in data.get("rule", []):
        if rule.get("name") not in RULES or not rule.get("reason", "").strip():
            msg = f"{path.name}: a rule needs a reason and one of the names {', '.join(RULES)}"
            raise SystemExit(msg)
        rules[rule["name"]] = _normal(rule["reason"])
    entries = []
    for number, entry in enumerate(data.get("equivalent", []), start=1):
        missing = {"module", "operator", "line", "mutant", "reason"} - entry.keys()
        if missing or not entry["reason"].strip():
            msg = f"{path.name}: entry {number} lacks {', '.join(sorted(missing)) or 'a reason'}"
            raise SystemExit(msg)
        entries.append(
            Equivalent(
                module=entry["module"],
                operator=entry["operator"],
                line=_normal(entry["line"]),
                mutant=_normal(entry["mutant"]),
                reason=_normal(entry["reason"]),
                nth=entry.get("nth"),
            )
        )
    return rules, entries


def _imports(path: Path, package: str) -> set[str]:
    """The modules a file imports, absolute names."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def tests_by_module(root: Path, modules: Iterable[str]) -> dict[str, list[str]]:
    """The test files of tests/oracle that import each module, directly or through other modules.

    The files named after the module run first: with ``-x`` they usually kill a mutant soonest.
    """
    graph: dict[str, set[str]] = {}
    files: dict[str, str] = {}
    for top in ("oracle", "tests"):
        for path in sorted((root / top).rglob("*.py")):
            relative = path.relative_to(root)
            dotted = ".".join(relative.with_suffix("").parts)
            dotted = f"croupier.{dotted}" if top == "oracle" else dotted
            is_package = dotted.endswith(".__init__")
            dotted = dotted.removesuffix(".__init__")
            package = dotted if is_package else dotted.rpartition(".")[0]
            graph[dotted] = _imports(path, package)
            files[dotted] = relative.as_posix()

    def reach(start: str) -> set[str]:
        done: set[str] = set()
        todo = [start]
        while todo:
            current = todo.pop()
            if current in done:
                continue
            done.add(current)
            todo.extend(name for name in graph.get(current, ()) if name in graph)
        return done

    mapping = {}
    for module in modules:
        wanted = f"croupier.oracle.{module}"
        found = [
            relative
            for dotted, relative in files.items()
            if relative.startswith(f"{TEST_DIR}/test_") and wanted in reach(dotted)
        ]
        own = [name for name in found if Path(name).stem.startswith(f"test_{module}")]
        mapping[module] = own + [name for name in found if name not in own]
    return mapping


# The unmutated sources of a copy carry this modification time (2000-01-01), and so does the
# bytecode compiled from them; a mutant, written now, never matches it, so Python compiles the
# mutant afresh and keeps using the cached bytecode of everything else.
_PRISTINE_NS = 946_684_800 * 10**9


def _copy_tree(destination: Path) -> None:
    """A private copy of the tree for one worker: only this copy's files are ever mutated."""
    if destination.exists():
        shutil.rmtree(destination)
    destination.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", ".hypothesis", "*.pyc")
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, destination / name, ignore=ignore)
        else:
            shutil.copy2(source, destination / name)
    package = destination / "croupier"
    package.mkdir()
    shutil.copy2(ROOT / "proto/croupier/__init__.py", package / "__init__.py")
    (package / "oracle").symlink_to(Path("..") / "oracle", target_is_directory=True)
    for name, target in LINKED.items():
        (package / name).symlink_to(target, target_is_directory=True)
    for path in (destination / "oracle").rglob("*.py"):
        os.utime(path, ns=(_PRISTINE_NS, _PRISTINE_NS))


def _environment(workspace: Path, *, write_bytecode: bool = False) -> dict[str, str]:
    env = dict(os.environ)
    env.update(HYPOTHESIS_PROFILE="mutation", PYTHONHASHSEED="0", PYTHONPATH=str(workspace))
    if write_bytecode:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def _warm_up(workspace: Path) -> None:
    """Compile the copy's oracle and (assertion-rewritten) tests once, so each run starts fast."""
    subprocess.run(
        [sys.executable, *PYTEST[:2], "--collect-only", "-q", "-p", "no:cacheprovider", TEST_DIR],
        cwd=workspace,
        env=_environment(workspace, write_bytecode=True),
        capture_output=True,
        check=False,
    )


def _check_workspace(workspace: Path) -> None:
    """The copy, not the checkout (installed in editable mode), must be what the tests import."""
    found = subprocess.run(
        [sys.executable, "-c", "from croupier import oracle; print(oracle.__file__)"],
        cwd=workspace,
        env=_environment(workspace),
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    if not Path(found).is_relative_to(workspace):
        msg = f"tests in {workspace} would import the oracle from {found}"
        raise SystemExit(msg)


def run_tests(workspace: Path, tests: Sequence[str], timeout: float) -> tuple[str, float, str]:
    """Run the tests in a copy of the tree: ("passed" | "failed" | "timeout" | "error", s, detail)."""
    started = time.perf_counter()
    with subprocess.Popen(
        [sys.executable, *PYTEST, *tests],
        cwd=workspace,
        env=_environment(workspace),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    ) as process:
        try:
            output, _ = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            return "timeout", time.perf_counter() - started, f"no result after {timeout:.0f} s"
    seconds = time.perf_counter() - started
    # pytest: 0 all passed, 1 a test failed, 2 interrupted (a collection error: the mutant
    # broke an import); 3, 4 and 5 (internal error, usage error, no tests) say nothing of it.
    if process.returncode == 0:
        return "passed", seconds, ""
    if process.returncode in {1, 2}:
        failed = re.search(r"^(?:FAILED|ERROR) (\S+)", output, re.MULTILINE)
        return "failed", seconds, failed.group(1) if failed else "collection failed"
    tail = " | ".join(output.strip().splitlines()[-3:])
    return "error", seconds, f"pytest exit {process.returncode}: {tail}"


class Runner:
    """Workers, each with its own copy of the tree, running one mutant at a time."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self.workspaces: queue.Queue[Path] = queue.Queue()
        for number in range(jobs):
            workspace = SCRATCH / f"worker-{number}"
            _copy_tree(workspace)
            _check_workspace(workspace)
            _warm_up(workspace)
            self.workspaces.put(workspace)

    def baseline(self, module: Module) -> tuple[str, float, str]:
        """The module's tests on the unmutated code, in any worker's copy."""
        workspace = self.workspaces.get()
        try:
            return run_tests(workspace, module.tests, timeout=600)
        finally:
            self.workspaces.put(workspace)

    def run(self, module: Module, mutant: Mutant, mutation: Mutation) -> Outcome:
        """Write the mutant into a copy, run the module's tests there, put the source back."""
        workspace = self.workspaces.get()
        target = workspace / module.path
        try:
            target.write_text(mutation.code, encoding="utf-8")
            verdict, seconds, detail = run_tests(workspace, module.tests, module.timeout)
        finally:
            target.write_text(module.source, encoding="utf-8")
            os.utime(target, ns=(_PRISTINE_NS, _PRISTINE_NS))
            self.workspaces.put(workspace)
        status = {"passed": "survived", "failed": "killed"}.get(verdict, verdict)
        return Outcome(
            mutant, status, mutant.start[0], mutation.shown, mutation.mutant_line, seconds, detail
        )


def _match(entry: Equivalent, mutant: Mutant, mutant_line: str, nth: int) -> bool:
    listed = (entry.module, entry.operator, entry.line, entry.mutant)
    made = (mutant.module, mutant.operator, mutant.line, mutant_line)
    return listed == made and entry.nth in {None, nth}


def classify_equivalents(
    modules: dict[str, Module], entries: list[Equivalent]
) -> tuple[dict[Mutant, tuple[Mutation, Equivalent]], list[Equivalent]]:
    """Which mutants the list declares equivalent, and this run's stale entries.

    An entry is stale when it names one of these modules but matches none of its mutants.

    Only the mutants of a listed module, operator and line are mutated here, to read their text.
    """
    wanted = {(entry.module, entry.operator, entry.line) for entry in entries}
    found: dict[Mutant, tuple[Mutation, Equivalent]] = {}
    used: set[int] = set()
    for module in modules.values():
        seen: Counter[tuple[str, str, str]] = Counter()
        for mutant in module.mutants:
            if (mutant.module, mutant.operator, mutant.line) not in wanted:
                continue
            mutation = module.mutate(mutant)
            pair = (mutant.operator, mutant.line, mutation.mutant_line)
            nth = seen[pair]
            seen[pair] += 1
            for index, entry in enumerate(entries):
                if _match(entry, mutant, mutation.mutant_line, nth):
                    found[mutant] = (mutation, entry)
                    used.add(index)
                    break
    paths = {module.path for module in modules.values()}
    stale = [
        entry for index, entry in enumerate(entries) if index not in used and entry.module in paths
    ]
    return found, stale


def _progress(done: int, total: int, started: float, outcome: Outcome) -> None:
    elapsed = time.perf_counter() - started
    left = elapsed / done * (total - done)
    print(
        f"  [{done:>4}/{total}] {elapsed / 60:5.1f} min, ~{left / 60:4.1f} min left  "
        f"{outcome.status:<9} {outcome.mutant.module}:{outcome.lineno} {outcome.mutant.operator}",
        file=sys.stderr,
        flush=True,
    )


def _score(counts: Counter[str]) -> float | None:
    counted = sum(counts[status] for status in STATUSES if status != "equivalent")
    caught = counts["killed"] + counts["timeout"]
    return caught / counted if counted else None


def report(modules: dict[str, Module], outcomes: list[Outcome], stale: list[Equivalent]) -> bool:
    """Print the per-module table and the survivors; whether every module reached the threshold."""
    by_module: dict[str, list[Outcome]] = defaultdict(list)
    for outcome in outcomes:
        by_module[outcome.mutant.name].append(outcome)
    print()
    print(
        f"{'module':<22}{'mutants':>8}{'ruled':>6}{'sampled':>8}{'killed':>7}{'timeout':>8}"
        f"{'survived':>9}{'equiv':>6}{'error':>6}{'score':>8}"
    )
    passed = True
    for name, module in modules.items():
        counts = Counter(outcome.status for outcome in by_module[name])
        score = _score(counts)
        ok = score is not None and score >= THRESHOLD
        passed &= ok
        shown = "n/a" if score is None else f"{score:.1%}"
        ruled = sum(module.left_out.values())
        print(
            f"{module.path:<22}{len(module.mutants):>8}{ruled:>6}{len(by_module[name]):>8}"
            f"{counts['killed']:>7}{counts['timeout']:>8}{counts['survived']:>9}"
            f"{counts['equivalent']:>6}{counts['error']:>6}{shown:>8}{'' if ok else '  < 95%'}"
        )
    print(
        "\nscore = (killed + timeout) / (sampled - equivalent). 'mutants' is what the sample is"
        " drawn from: all but those a rule of the equivalents list leaves out ('ruled');"
        " 'equiv' are the sampled ones the list names. An error counts as not killed."
    )
    unexplained = [outcome for outcome in outcomes if outcome.status in {"survived", "error"}]
    if unexplained:
        print(f"\n{len(unexplained)} surviving mutants (write a test, or list it as equivalent):")
        for outcome in sorted(unexplained, key=lambda o: (o.mutant.module, o.lineno)):
            mutant = outcome.mutant
            extra = f"  [{outcome.detail}]" if outcome.status == "error" else ""
            print(f"  {mutant.module}:{outcome.lineno}  {mutant.operator}  {outcome.shown}{extra}")
    _warn_stale(stale)
    return passed


def _warn_stale(stale: Iterable[Equivalent]) -> None:
    for entry in stale:
        print(
            f"warning: {EQUIVALENTS.name} lists a mutant that no longer exists: "
            f"{entry.module} {entry.operator} {entry.line!r} -> {entry.mutant!r}"
        )


def _toml_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def write_files(outcomes: list[Outcome], modules: dict[str, Module]) -> None:
    """report.json, survivors.toml and the Cosmic Ray session in .mutation/."""
    records = [
        {
            "module": o.mutant.module,
            "line": o.lineno,
            "operator": o.mutant.operator,
            "occurrence": o.mutant.occurrence,
            "status": o.status,
            "change": o.shown,
            "seconds": round(o.seconds, 2),
            "detail": o.detail,
            "reason": o.reason,
        }
        for o in outcomes
    ]
    (SCRATCH / "report.json").write_text(json.dumps(records, indent=1) + "\n", encoding="utf-8")
    blocks = [
        "# Survivors of the last `make mutation`, in the format of bench/mutation_equivalents.toml.\n",
        "# Copy an entry there, with its reason, only if no test could ever tell it apart.\n",
    ]
    blocks.extend(
        f"\n# {o.mutant.module}:{o.lineno}\n[[equivalent]]\n"
        f"module = {_toml_string(o.mutant.module)}\n"
        f"operator = {_toml_string(o.mutant.operator)}\n"
        f"line = {_toml_string(o.mutant.line)}\n"
        f"mutant = {_toml_string(o.mutant_line)}\n"
        'reason = ""\n'
        for o in outcomes
        if o.status == "survived"
    )
    (SCRATCH / "survivors.toml").write_text("".join(blocks), encoding="utf-8")
    session = SCRATCH / "session.sqlite"
    session.unlink(missing_ok=True)
    db = WorkDB(str(session), WorkDB.Mode.create)
    try:
        for number, o in enumerate(outcomes):
            job = f"{modules[o.mutant.name].name}-{number:05d}"
            db.add_work_item(WorkItem.single(job, o.mutant.spec()))
            if o.status == "equivalent":
                result = WorkResult(worker_outcome=WorkerOutcome.SKIPPED, output=o.reason)
            elif o.status == "error":
                result = WorkResult(
                    worker_outcome=WorkerOutcome.EXCEPTION,
                    test_outcome=TestOutcome.INCOMPETENT,
                    output=o.detail,
                    diff=o.shown,
                )
            else:
                killed = o.status != "survived"
                result = WorkResult(
                    worker_outcome=WorkerOutcome.NORMAL,
                    test_outcome=TestOutcome.KILLED if killed else TestOutcome.SURVIVED,
                    output=o.detail,
                    diff=o.shown,
                )
            db.set_result(job, result)
    finally:
        db.close()


def _rates(values: Sequence[str]) -> dict[str, float]:
    rates = dict(RATES)
    for value in values:
        name, _, fraction = value.partition("=")
        if name not in RATES:
            msg = f"--rate {value}: no module {name!r}"
            raise SystemExit(msg)
        rates[name] = float(fraction)
    return rates


def _sample(modules: dict[str, Module], rates: dict[str, float]) -> Iterator[Mutant]:
    for name, module in modules.items():
        yield from (mutant for mutant in module.mutants if mutant.draw < rates[name])


def load_modules(names: Sequence[str], rules: Sequence[str]) -> dict[str, Module]:
    """The modules, their mutants but those the rules leave out, and their tests."""
    modules: dict[str, Module] = {}
    enums = _plain_enums(ROOT)
    for name in names:
        path = f"oracle/{name}.py"
        source = (ROOT / path).read_text(encoding="utf-8")
        everything = enumerate_mutants(path, source, rules, enums)
        left_out = Counter(mutant.left_out for mutant in everything if mutant.left_out)
        mutants = [mutant for mutant in everything if not mutant.left_out]
        modules[name] = Module(name, path, source, mutants, left_out)
    for name, tests in tests_by_module(ROOT, names).items():
        modules[name].tests = tests
    return modules


def execute(
    runner: Runner,
    modules: dict[str, Module],
    sample: Sequence[Mutant],
    equivalents: dict[Mutant, tuple[Mutation, Equivalent]],
) -> list[Outcome]:
    """Every sampled mutant's outcome: the listed equivalents without running them."""
    outcomes: list[Outcome] = []
    started = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(runner.jobs) as pool:
        futures = []
        for mutant in sample:
            if mutant in equivalents:
                mutation, entry = equivalents[mutant]
                outcomes.append(
                    Outcome(
                        mutant,
                        "equivalent",
                        mutant.start[0],
                        mutation.shown,
                        mutation.mutant_line,
                        reason=entry.reason,
                    )
                )
                continue
            module = modules[mutant.name]
            futures.append(pool.submit(runner.run, module, mutant, module.mutate(mutant)))
        for done, future in enumerate(concurrent.futures.as_completed(futures), start=1):
            outcomes.append(future.result())
            _progress(done, len(futures), started, outcomes[-1])
    print(f"\n{len(futures)} mutants run in {(time.perf_counter() - started) / 60:.1f} min")
    outcomes.sort(key=lambda o: (o.mutant.module, o.lineno, o.mutant.operator, o.mutant.nth))
    return outcomes


def main(argv: Sequence[str] | None = None) -> int:
    """Run the sampled mutation job; 0 if every module scores at least 95%."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--module", action="append", choices=sorted(RATES), help="only this module (repeatable)"
    )
    parser.add_argument(
        "--rate", action="append", default=[], metavar="NAME=FRACTION", help="another sample rate"
    )
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="parallel workers")
    parser.add_argument("--list", action="store_true", help="list the sample and run nothing")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    rates = _rates(args.rate)
    SCRATCH.mkdir(exist_ok=True)
    rules, entries = load_equivalents(EQUIVALENTS)
    modules = load_modules(args.module or list(RATES), list(rules))
    equivalents, stale = classify_equivalents(modules, entries)
    sample = list(_sample(modules, rates))
    left_out = sum((module.left_out for module in modules.values()), Counter[str]())
    print(
        f"left out by the rules of {EQUIVALENTS.name}: "
        + ", ".join(f"{name} {left_out[name]}" for name in rules)
    )
    for name, module in modules.items():
        chosen = sum(mutant.name == name for mutant in sample)
        print(
            f"{module.path}: {chosen} of {len(module.mutants)} mutants "
            f"({rates[name]:.0%}), tests: {' '.join(module.tests)}"
        )
    _warn_stale(stale)
    if args.list:
        for mutant in sample:
            listed = " (equivalent)" if mutant in equivalents else ""
            print(f"  {mutant.module}:{mutant.start[0]} {mutant.operator}{listed}")
        return 0

    runner = Runner(args.jobs)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        baselines = dict(zip(modules, pool.map(runner.baseline, modules.values()), strict=True))
    for name, (verdict, seconds, detail) in baselines.items():
        if verdict != "passed":
            print(f"{modules[name].path}: its tests fail unmutated ({detail})", file=sys.stderr)
            return 2
        modules[name].timeout = 3 * seconds + 15
        print(f"{modules[name].path}: tests pass unmutated in {seconds:.1f} s")

    outcomes = execute(runner, modules, sample, equivalents)
    write_files(outcomes, modules)
    passed = report(modules, outcomes, stale)
    print(f"\nresults: {SCRATCH.relative_to(ROOT)}/report.json, survivors.toml, session.sqlite")
    print(f"whole job: {(time.perf_counter() - started) / 60:.1f} min")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
