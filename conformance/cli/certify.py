"""``croupier certify``: run the conformance vectors against an engine and give a verdict."""

from __future__ import annotations

import asyncio
import fnmatch
import os
import shlex
import signal
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import NoReturn

import click

from croupier import oracle
from croupier.clients.words import plural
from croupier.conformance.choice import EngineChoice, engine_choice
from croupier.conformance.cli.common import (
    MAX_COUNT,
    MAX_SHOWN,
    DaskAddress,
    InputFile,
    OutputFile,
    OutputFolder,
    console,
    engine_options,
    errors,
    fail,
    output_name,
    prepare_outputs,
    print_result,
    progress_option,
    start_engine_log,
    verdict,
)
from croupier.conformance.cli.explore import (
    EXPLORE_OUT,
    coverage_json,
    explored_results,
    run_exploration,
)
from croupier.conformance.cli.watch import Interrupted, Watch, interruptible
from croupier.conformance.explore.cluster import DaskOptions
from croupier.conformance.invocation import croupier_command
from croupier.conformance.known import ExploreWaivers
from croupier.conformance.labcorpus import LabCorpus, default_cache_dir, lab_corpus
from croupier.conformance.recovery import RECOVERY_DIR, recovery_vectors
from croupier.conformance.reports.html.certificate import write_certificate
from croupier.conformance.reports.jsonl import JsonlReport
from croupier.conformance.reports.junit import write_junit
from croupier.conformance.reports.summary import baseline_line, failing_clauses_line, summary_line
from croupier.conformance.results import failure_order
from croupier.conformance.runner import (
    BAD,
    ConfigError,
    EngineUnavailableError,
    Result,
    RunConfig,
    RunReport,
    read_known_failures,
    run,
)
from croupier.conformance.since import VersionError, parse_version
from croupier.conformance.v1 import vector_pb2
from croupier.conformance.vectors import (
    CORPUS_DIR,
    LoadedVector,
    VectorFileError,
    corpus_hash,
    load_corpus,
    load_vectors,
    vectors_hash,
)
from croupier.oracle.errors import OracleError
from croupier.oracle.profile import SHIPPED_IDS, Profile, load_profile_file, shipped_profiles
from croupier.v1 import engine_service_pb2


@click.command()
@engine_options
@click.option(
    "--vectors",
    "vector_paths",
    multiple=True,
    type=InputFile(dir_okay=True),
    help="Vector file or directory (default: the shipped corpus; repeatable).",
)
@click.option(
    "--profile-file",
    "profile_files",
    multiple=True,
    type=InputFile(),
    help="Certify against a lab's profile file instead of the shipped profiles (repeatable): "
    "its corpus (shared refusals, targeted rounds and refusals generated from its parameters, "
    "a campaign) is built as croupier vectors build --profile FILE builds it and cached by the "
    "profile's digest, the suite version and the builder's; a whole run of it may say "
    "conformant for that profile.",
)
@click.option(
    "--cache-dir",
    type=OutputFolder(),
    help="Where --profile-file corpora are cached (default: $XDG_CACHE_HOME/croupier/vectors, "
    "else ~/.cache/croupier/vectors).",
)
@click.option(
    "--profile",
    "profile_filter",
    multiple=True,
    metavar="ID",
    help="Run only vectors of this profile (repeatable; leaving out a profile the engine claims "
    "makes a partial run, never conformant).",
)
@click.option(
    "--vector",
    "vector_filter",
    multiple=True,
    metavar="PATTERN",
    help="Run only vectors whose id or name matches this glob (repeatable; a partial run, "
    "never conformant).",
)
@click.option(
    "--known-failures",
    type=InputFile(),
    help="Lines 'pattern  # reason'; listed vectors are expected to fail, and a line "
    "'clause:ID[@PATH]  # reason' waives a failure on that clause (under that field path).",
)
@click.option(
    "--certify",
    "certify_mode",
    is_flag=True,
    help="Certification: ignore known failures and filters; conformant only if every applicable REQUIRED vector passes.",
)
@click.option(
    "--concurrency",
    default=16,
    show_default=True,
    type=click.IntRange(1, 1024),
    help="Vectors in flight at once.",
)
@click.option(
    "--report",
    type=OutputFile(),
    help="Write a JSON Lines report (- for standard output, written at the end).",
)
@click.option(
    "--junit", type=OutputFile(), help="Write a JUnit XML report (- for standard output)."
)
@click.option(
    "--html",
    type=OutputFile(),
    help="Write the certification report: one self-contained HTML page, made from the JSON "
    "Lines report (croupier report html makes the same page from --report's file later; - "
    "for standard output).",
)
@click.option(
    "--explore",
    "explore_rounds",
    default=0,
    show_default=True,
    type=click.IntRange(0, MAX_COUNT),
    metavar="N",
    help="After the corpus, N rounds per profile drawn by croupier explore (seed 'certify'); "
    "each profile's mismatch, shrunk, fails the run and is appended to --explore-out. "
    "--known-failures waives an explored mismatch as croupier explore's does (one that "
    "diverges as a listed vector did, or on a clause entry's clause).",
)
@click.option(
    "--dask",
    "dask_address",
    type=DaskAddress(),
    metavar="ADDRESS|local:N",
    help="Run --explore's rounds in chunks on this Dask scheduler's workers, or on a "
    "LocalCluster of N worker processes (local:N), each worker launching its own engine "
    "(--launch) or reaching --target; the same rounds and findings whatever the workers.",
)
@click.option(
    "--explore-out",
    type=OutputFile(),
    default=None,
    help=f"Vector file the explored findings are appended to (default: {EXPLORE_OUT}; - for "
    "standard output).",
)
@click.option(
    "--fail-fast",
    is_flag=True,
    help="Stop starting vectors after the first failure (ignored with --certify).",
)
@click.option(
    "--baseline",
    metavar="VERSION",
    default="",
    help="The suite version your engine last passed (such as 0.2.0): the summary, --report and "
    "--html say which failures come from vectors added or changed after it "
    "(docs/CHANGES.md lists the changes).",
)
@click.option(
    "--recovery",
    is_flag=True,
    help="Play the recovery vectors (CONTRACT.recovery) even if the engine does not claim "
    "recovery: after the others, each restarts the launched engine (SIGKILL, or SIGTERM) "
    "at a point of a round and checks it goes on as without the restart. Needs --launch; an "
    "engine that claims recovery plays them without it.",
)
@progress_option("Without a terminal on stdout, print a progress line this often.")
@click.option(
    "--show",
    default=10,
    show_default=True,
    type=click.IntRange(0, MAX_SHOWN),
    help="Failures to show in detail.",
)
def certify(
    target: str | None,
    launch: str | None,
    vector_paths: tuple[Path, ...],
    profile_files: tuple[Path, ...],
    cache_dir: Path | None,
    profile_filter: tuple[str, ...],
    vector_filter: tuple[str, ...],
    known_failures: Path | None,
    certify_mode: bool,
    concurrency: int,
    timeout: float,
    report: Path | None,
    junit: Path | None,
    html: Path | None,
    tls_ca: Path | None,
    tls_cert: Path | None,
    tls_key: Path | None,
    ready_timeout: float,
    engine_log: Path | None,
    explore_rounds: int,
    dask_address: str | None,
    explore_out: Path | None,
    fail_fast: bool,
    progress_every: float,
    show: int,
    baseline: str,
    recovery: bool,
) -> None:
    """Run the conformance vectors against an engine and give a verdict.

    Only a run of the whole shipped corpus, for every profile the engine claims, may be
    conformant: a filtered run, your own --vectors files or a run cut short says "passed N of
    the M vectors selected" instead, and its reports never set conformant. With
    --profile-file, the corpus is that lab profile's (built once, then cached): a run of all
    of it, the engine claiming the profile's id, may be conformant for that profile, and the
    reports name the file, its digest and each parameter that differs from what it extends.

    An engine that claims recovery in Describe (or any, with --recovery) then plays the
    recovery vectors (CONTRACT.recovery): each restarts the launched engine, with SIGKILL or
    SIGTERM, at a point of its rounds, and every answer after it must be the one without the
    restart; with --profile-file, the lab profile's recovery vectors. A run of an engine that
    claims recovery may be conformant only if it played them (--launch).

    Exit codes: 0 passed (conformant, or a partial run, or, without --certify, passed with
    known failures waived: the summary says which), 1 failures or no vector applies, 2 usage or configuration error,
    3 engine unreachable, failed to start or stopped listening, 130 and 143 interrupted by SIGINT and SIGTERM
    (a launched engine is stopped; the reports hold the vectors that finished).

    The --report JSON Lines file is written as vectors finish; its last line carries the
    verdict, and says "complete": false when the run did not end. The --html page is made
    from it at the end (from a temporary one without --report), an interrupted run's too.
    """
    try:
        engine = engine_choice(
            target=target,
            launch=launch,
            timeout=timeout,
            tls_ca=tls_ca,
            tls_cert=tls_cert,
            tls_key=tls_key,
            ready_timeout=ready_timeout,
            engine_log=engine_log,
        )
        _check_options(
            baseline, recovery, launch, dask=dask_address is not None and not explore_rounds
        )
        labs = _lab_corpora(profile_files, cache_dir, vector_paths)
        vector_paths = vector_paths or tuple(lab.path for lab in labs)
        loaded = load_vectors(vector_paths)
        # --certify ignores the known-failures file altogether, so it is not even read.
        known = read_known_failures(known_failures) if known_failures and not certify_mode else ()
    except (VectorFileError, ConfigError, OracleError) as exc:
        fail(str(exc))
    if not loaded:
        fail(f"no vector in --vectors {' '.join(str(path) for path in vector_paths)}")
    corpus = loaded
    digest = vectors_hash(vector_paths)
    # Only the shipped corpus (its very bytes, however named), or the corpus built for the
    # lab profiles named, can make a run conformant.
    shipped = corpus if not vector_paths or labs or digest == corpus_hash(CORPUS_DIR) else None
    recovery_corpus = _recovery_corpus(shipped is not None, labs)
    # --certify ignores the filters.
    filters = () if certify_mode else (profile_filter, vector_filter)
    loaded, recovering = (_chosen(part, filters) for part in (loaded, recovery_corpus))
    if not loaded and not (recovery and recovering):
        fail("no vector matches the filters")
    vectors_arg = _vectors_words(vector_paths, labs, cache_dir)
    croupier = croupier_command()

    def reproduce(vector: vector_pb2.Vector) -> str:
        # A recovery vector is played with --recovery (an engine that claims it needs none).
        return (
            f"{croupier} certify {engine.words}{vectors_arg}"
            f"{' --recovery' if vector.restart else ''} --vector {shlex.quote(vector.id)}"
        )

    report, junit, html, explore_out, engine = _outputs(
        engine,
        {
            "--report": report,
            "--junit": junit,
            "--html": html,
            "--explore-out": (explore_out or EXPLORE_OUT) if explore_rounds else None,
        },
        [
            *(("a vector file", path) for path in vector_paths if path.is_file()),
            *(("a profile file", path) for path in profile_files),
            *(("the known failures", path) for path in [known_failures] if path),
            *((f"the {flag} file", path) for flag, path in _tls_files(tls_ca, tls_cert, tls_key)),
        ],
    )
    jsonl = report
    if html is not None and jsonl is None:
        # The page is made from a JSON Lines report, as croupier report html makes it later.
        handle, name = tempfile.mkstemp(prefix="croupier-", suffix=".jsonl")
        os.close(handle)
        jsonl = Path(name)
    try:
        stream = (
            JsonlReport(
                jsonl,
                digest,
                certify=certify_mode,
                baseline=baseline,
                engine_command=engine.words,
                lab_profiles=[lab.header() for lab in labs],
            )
            if jsonl is not None
            else None
        )
    except OSError as exc:
        fail(f"cannot write --report {output_name(jsonl or Path())}: {exc.strerror}")
    start_engine_log(engine)
    recorder = _Recorder(
        stream=stream,
        junit=junit,
        html=html,
        scratch=report is None,
        show=show,
        certify=certify_mode,
        watch=Watch(total=len(loaded) + (len(recovering) if recovery else 0), every=progress_every),
        recovery=0 if recovery else len(recovering),
    )
    config = RunConfig(
        vectors=loaded,
        target=target,
        launch=launch,
        tls=engine.tls,
        concurrency=concurrency,
        timeout=timeout,
        ready_timeout=engine.ready_timeout,
        engine_log=engine.engine_log,
        known=known,
        known_scope=corpus,
        corpus=shipped,
        recovery_vectors=recovering,
        recovery_corpus=recovery_corpus,
        recovery=recovery,
        certify=certify_mode,
        stop_after=1 if fail_fast and not certify_mode else 0,
        reproduce=reproduce,
        progress=recorder.add,
        on_start=recorder.start,
    )
    result = recorder.play(config)
    if explore_rounds:
        lab_profiles = [lab.profile for lab in labs]
        # The corpus run's known failures waive the explored rounds that diverge alike.
        waive = ExploreWaivers.of(known, [v.vector for v in corpus])
        dask = None if dask_address is None else DaskOptions(address=dask_address)
        result = _explore_after(
            result, recorder, engine, loaded, explore_rounds, explore_out, lab_profiles, waive, dask
        )
    _print_failures(result, show)
    recorder.finish(result)
    line = summary_line(result)
    style = "bold green" if result.conformant else "bold yellow" if result.passed else "bold red"
    verdict(f"[{style}]{line}[/]")
    if baseline:
        verdict(baseline_line(result, baseline), highlight=False, soft_wrap=True)
    sys.exit(0 if result.passed else 1)


def _outputs(
    engine: EngineChoice, outputs: dict[str, Path | None], inputs: list[tuple[str, Path]]
) -> tuple[Path | None, Path | None, Path | None, Path, EngineChoice]:
    """--report, --junit, --html, --explore-out and the engine with its log, prepared."""
    prepared = prepare_outputs({**outputs, "--engine-log": engine.engine_log}, inputs)
    if engine.engine_log is not None:
        engine = replace(engine, engine_log=prepared["--engine-log"])
    return (
        prepared["--report"],
        prepared["--junit"],
        prepared["--html"],
        prepared["--explore-out"] or EXPLORE_OUT,
        engine,
    )


def _tls_files(ca: Path | None, cert: Path | None, key: Path | None) -> list[tuple[str, Path]]:
    """The TLS files given, by option name: inputs no output may name."""
    named = (("--tls-ca", ca), ("--tls-cert", cert), ("--tls-key", key))
    return [(flag, path) for flag, path in named if path is not None]


def _check_baseline(baseline: str) -> None:
    """A ``--baseline`` that is a version this suite has reached, else ``ConfigError``."""
    if not baseline:
        return
    try:
        named = parse_version(baseline)
    except VersionError as exc:
        raise ConfigError(f"--baseline: {exc}") from None
    if named > parse_version(oracle.__version__):
        raise ConfigError(
            f"--baseline: {baseline} is newer than this suite's version {oracle.__version__}"
        )


class _Recorder:
    """A run as it goes: progress shown, each finished vector kept and streamed.

    If the run stops early, what finished is written out all the same.
    """

    def __init__(
        self,
        *,
        stream: JsonlReport | None,
        junit: Path | None,
        html: Path | None,
        scratch: bool,
        show: int,
        certify: bool,
        watch: Watch,
        recovery: int = 0,
    ) -> None:
        self.stream = stream
        self.junit = junit
        self.html = html
        #: The stream is a temporary file, there only to make the page from.
        self.scratch = scratch
        self.show = show
        self.certify = certify
        self.watch = watch
        #: Recovery vectors selected but not counted yet: played if the engine claims recovery.
        self.recovery = recovery
        self.started = time.time()
        self.done: list[Result] = []
        self.described = engine_service_pb2.DescribeResponse()

    def start(self, info: engine_service_pb2.DescribeResponse) -> None:
        """The engine has described itself: the report's header."""
        self.described = info
        if info.recovery:
            self.watch.total += self.recovery
        self.watch.start(info)
        if self.stream is not None:
            self.stream.start(info, self.started)

    def add(self, result: Result) -> None:
        """One more vector finished."""
        self.done.append(result)
        self.watch.advance(result)
        if self.stream is not None:
            self.stream.add(result)

    def play(self, config: RunConfig) -> RunReport:
        """The run's report; exits 2, 3, 130 or 143 when the run cannot end with a verdict."""
        watch = self.watch
        with watch:
            try:
                return asyncio.run(interruptible(run(config), beat=watch.beat, every=watch.every))
            except ConfigError as exc:
                self._stopped(f"not run: {exc}")
                fail(str(exc))
            except EngineUnavailableError as exc:
                self._stopped(f"stopped: {exc}")
                fail(str(exc), code=3)
            except Interrupted as exc:
                self.interrupted(exc.signum)
        raise AssertionError  # unreachable: every branch returns or exits

    def interrupted(self, signum: int) -> NoReturn:
        """Write what finished, say so, and exit 128 + ``signum``."""
        self.watch.close()
        name = signal.Signals(signum).name
        finished = len(self._stopped(f"interrupted by {name}").results)
        kept = (
            f"; the page holds them ({self.html})"
            if self.scratch
            else f"; the report holds them ({self.stream.path})"
            if self.stream
            else ""
        )
        console.print(
            f"[bold red]interrupted by {name}: {finished} of {plural(self.watch.total, 'vector')} "
            f"finished, no verdict{kept}[/]",
            soft_wrap=True,
        )
        sys.exit(128 + signum)

    def _stopped(self, why: str) -> RunReport:
        """The reports of the vectors that finished, marked incomplete."""
        so_far = RunReport(
            describe=self.described,
            results=tuple(self.done),
            unmatched_patterns=(),
            certify=self.certify,
            started=self.started,
            seconds=time.time() - self.started,
            restarts=0,
        )
        _print_failures(so_far, self.show)
        self.finish(so_far, stopped=why)
        return so_far

    def finish(self, report: RunReport, *, stopped: str = "") -> None:
        """The reports' last words: the JSONL trailer, the JUnit file, the page made from the JSONL."""
        if self.stream is not None:
            self.stream.finish(report, stopped=stopped)
        if self.junit is not None:
            try:
                write_junit(self.junit, report, stopped=stopped)
            except OSError as exc:
                fail(f"cannot write --junit {output_name(self.junit)}: {exc.strerror}")
        if self.html is None or self.stream is None:
            return
        try:
            write_certificate(self.stream.path, self.html)
        except OSError as exc:
            fail(f"cannot write --html {output_name(self.html)}: {exc.strerror}")
        finally:
            if self.scratch:
                self.stream.path.unlink(missing_ok=True)


def _explore_after(
    corpus: RunReport,
    recorder: _Recorder,
    engine: EngineChoice,
    loaded: list[LoadedVector],
    rounds: int,
    out: Path,
    lab_profiles: list[Profile],
    waive: ExploreWaivers,
    dask: DaskOptions | None,
) -> RunReport:
    """The corpus run's report with the explored rounds of each of its profiles after it.

    ``waive``: the run's known failures, as ``croupier explore --known-failures`` takes them.
    """
    ids = sorted({v.vector.profile_id for v in loaded})
    profiles = [p for p in (*lab_profiles, *shipped_profiles()) if p.id in ids]
    explored = run_exploration(
        engine,
        profiles=profiles,
        seed="certify",
        rounds=rounds,
        seconds=None,
        out=out,
        progress_every=recorder.watch.every,
        waive=waive,
        dask=dask,
    )
    results = explored_results(explored)
    for result in results:
        recorder.add(result)
    if recorder.stream is not None:
        for done in explored.profiles:
            recorder.stream.coverage(
                {"profile": done.profile_id, "rounds": done.rounds, **coverage_json(done)}
            )
    report = replace(
        corpus,
        results=(*corpus.results, *results),
        seconds=corpus.seconds + explored.seconds,
        restarts=corpus.restarts + explored.restarts,
    )
    if explored.interrupted is not None:
        recorder.interrupted(explored.interrupted)
    return report


def _lab_corpora(
    files: tuple[Path, ...], cache_dir: Path | None, vector_paths: tuple[Path, ...]
) -> list[LabCorpus]:
    """Each lab profile file's corpus, built into the cache when it is not there yet."""
    if files and vector_paths:
        raise ConfigError("give --vectors or --profile-file, not both")
    # Every file is checked before any corpus is built (building one takes seconds).
    profiles = {file: load_profile_file(file) for file in files}
    seen: dict[str, Path] = {}
    for file, profile in profiles.items():
        earlier = seen.setdefault(profile.id, file)
        if earlier != file:
            raise ConfigError(f"{file} and {earlier} both define profile {profile.id!r}")
        if profile.id in SHIPPED_IDS:
            raise ConfigError(
                f"{file}: profile id {profile.id!r} is a shipped profile's; "
                "a lab profile needs its own id"
            )
    cache = cache_dir or default_cache_dir()
    return [
        lab_corpus(file, cache, profile=profile, say=errors.print)
        for file, profile in profiles.items()
    ]


def _vectors_words(paths: tuple[Path, ...], labs: list[LabCorpus], cache_dir: Path | None) -> str:
    """The options a reproduce command names the run's vectors with."""
    if not labs:
        return "".join(f" --vectors {shlex.quote(str(p))}" for p in paths)
    words = "".join(f" --profile-file {shlex.quote(str(lab.file))}" for lab in labs)
    return words + (f" --cache-dir {shlex.quote(str(cache_dir))}" if cache_dir else "")


def _check_options(baseline: str, recovery: bool, launch: str | None, *, dask: bool) -> None:
    """A good ``--baseline``; ``--recovery`` only with a launched engine (it restarts it).

    ``dask``: ``--dask`` was given without ``--explore``, whose rounds are all it runs.
    """
    _check_baseline(baseline)
    if recovery and launch is None:
        raise ConfigError("--recovery restarts the engine: give --launch, not --target")
    if dask:
        raise ConfigError("--dask runs --explore's rounds on a cluster: give --explore N")


def _recovery_corpus(shipped: bool, labs: list[LabCorpus]) -> list[LoadedVector]:
    """The recovery vectors of the run's corpus: the shipped ones, or each lab profile's.

    A lab profile's are built now, in a second (``conformance.recovery``); your own files
    have none.
    """
    if labs:
        return [
            LoadedVector(vector=vector, path=lab.path, line=number)
            for lab in labs
            for number, vector in enumerate(
                recovery_vectors(lab.profile, f"{lab.profile.id}-r"), start=1
            )
        ]
    try:
        return load_corpus(RECOVERY_DIR) if shipped else []
    except VectorFileError as exc:
        fail(str(exc))
        raise  # fail() has exited


def _chosen(
    vectors: list[LoadedVector], filters: tuple[tuple[str, ...], tuple[str, ...]] | tuple[()]
) -> list[LoadedVector]:
    """The vectors that pass ``--profile`` and ``--vector`` (all of them without filters)."""
    if not filters:
        return vectors
    return [v for v in vectors if _selected(v.vector, *filters)]


def _selected(
    vector: vector_pb2.Vector, profiles: tuple[str, ...], patterns: tuple[str, ...]
) -> bool:
    if profiles and vector.profile_id not in profiles:
        return False
    return not patterns or any(
        fnmatch.fnmatchcase(vector.id, p) or fnmatch.fnmatchcase(vector.name, p) for p in patterns
    )


def _print_failures(report: RunReport, show: int) -> None:
    bad = [r for r in report.results if r.outcome in BAD]
    for entry in report.unmatched_patterns:
        errors.print(
            f"[red]known failure pattern {entry.pattern!r} (line {entry.line}) matches no vector[/]"
        )
    for result in sorted(bad, key=failure_order)[:show]:
        print_result(result)
    if len(bad) > show:
        console.print(f"... and {len(bad) - show} more (--report and --html list them all)")
    clauses = failing_clauses_line(report)
    if clauses:
        console.print(clauses, markup=False, highlight=False, soft_wrap=True)
