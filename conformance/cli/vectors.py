"""``croupier vectors``: build campaigns, check a corpus, rebuild the shipped one, read vectors."""

from __future__ import annotations

import fnmatch
import json
import sys
import time
from pathlib import Path

import click

from croupier import oracle
from croupier.clients.words import plural
from croupier.conformance.cli.common import (
    MAX_COUNT,
    InputFile,
    OutputFile,
    OutputFolder,
    console,
    errors,
    fail,
    load_profile,
    names_a_file,
    output_name,
    prepare_outputs,
    profile_files_option,
    progress_option,
    resolver,
    utf8_text,
    verdict,
)
from croupier.conformance.corpus import build_corpus
from croupier.conformance.labcorpus import LAB_ROUNDS, LabBuild, build_lab
from croupier.conformance.packaged import checkout
from croupier.conformance.recovery import RECOVERY_DIR
from croupier.conformance.since import freeze
from croupier.conformance.vectors import (
    CORPUS_DIR,
    VectorFileError,
    campaign,
    check_corpus,
    corpus_hash,
    dump_line,
    load_corpus,
    load_vectors,
    write_vectors,
)
from croupier.oracle.profile import SHIPPED_IDS


@click.group()
def vectors() -> None:
    """Build and check conformance vectors."""


@vectors.command("build")
@click.option(
    "--profile", "profile_ref", required=True, help="A shipped profile id or a lab's profile file."
)
@click.option(
    "--seed",
    default=None,
    callback=utf8_text,
    help="The campaign seed; shoes, spins and decisions derive from it (required for a shipped "
    "profile; a lab profile's default is croupier/lab/ID, the seed certify --profile-file uses).",
)
@click.option(
    "--count",
    default=None,
    type=click.IntRange(1, MAX_COUNT),
    help=f"Campaign rounds to generate [default: 1000; a lab profile: {LAB_ROUNDS}].",
)
@click.option("--prefix", default=None, help="Campaign vector id prefix (default: the profile id).")
@click.option("--out", type=OutputFile(), help="Output file (default, or -: standard output).")
def vectors_build(
    profile_ref: str, seed: str | None, count: int | None, prefix: str | None, out: Path | None
) -> None:
    """Generate vectors: a campaign for a shipped profile, a lab profile's whole corpus.

    For a shipped profile id: a campaign of portable seeded shoes or spins and seeded legal
    decisions (its targeted rounds are the shipped corpus's hand-written cases). For a lab's
    profile file: what certify --profile-file builds and caches, the contract's shared
    refusals, targeted rounds generated from every parameter (each other value a parameter
    may take told apart from the profile's own), refusal vectors and the campaign; stderr
    names every value no vector tells apart.
    """
    profile = load_profile(profile_ref, "--profile")
    inputs = [("the profile file", Path(profile_ref))] if names_a_file(profile_ref) else []
    out = prepare_outputs({"--out": out}, inputs)["--out"]
    lab = profile_ref not in SHIPPED_IDS
    if not lab and seed is None:
        fail("--seed is required for a shipped profile")
    if lab and prefix is not None:
        fail("--prefix names a shipped profile's campaign; a lab corpus's ids are its profile id's")
    rounds = count or (LAB_ROUNDS if lab else 1000)
    if lab:
        made = build_lab(profile, rounds, seed)
        built = list(made.vectors)
    else:
        assert seed is not None  # noqa: S101 - checked above
        built = campaign(profile, seed, rounds, prefix or profile.id)
    if out is None:
        for vector in built:
            print(dump_line(vector))  # noqa: T201 - JSON Lines to stdout
    else:
        try:
            write_vectors(out, built)
        except OSError as exc:  # a full disk, a directory that went away
            fail(f"cannot write {output_name(out)}: {exc.strerror or exc}")
        errors.print(
            f"wrote {plural(len(built), 'vector')} ({plural(rounds, 'round')}) to {output_name(out)}"
        )
    if lab:
        _say_coverage(made)


def _say_coverage(made: LabBuild) -> None:
    """On stderr: how the lab corpus tells the parameters' values apart, and what it cannot."""
    told = [t for t in made.targeted.told if t.vector]
    same = [t for t in made.targeted.told if t.reason]
    errors.print(
        f"coverage: {plural(len(told), 'other value')} of the parameters told apart by a vector, "
        f"{len(same)} that no round can tell apart under this profile",
        highlight=False,
    )
    for entry in same:
        errors.print(f"  same: {entry.name} = {entry.other}: {entry.reason}", highlight=False)
    for entry in made.targeted.untold:
        errors.print(
            f"[bold red]not told apart[/]: {entry.name} = {entry.value} from {entry.other}: no "
            "vector's expectations change",
            highlight=False,
        )


@vectors.command("check")
@click.option(
    "--dir",
    "directory",
    type=InputFile(dir_okay=True, file_okay=False),
    default=None,
    help="Corpus directory (default: the shipped corpus).",
)
@profile_files_option("corpus")
@progress_option("Print a progress line on stderr this often while the check runs.")
def vectors_check(
    directory: Path | None, profile_files: tuple[str, ...], progress_every: float
) -> None:
    """Check a corpus: the oracle reproduces every expectation, ids are unique, clauses exist and are covered.

    A vector's since must be the version its expectations date from; every vector of the shipped
    corpus must carry one (make corpus stamps them).
    """
    resolve = resolver(profile_files, "--profile-file")
    try:
        loaded = load_corpus(directory or CORPUS_DIR)
        if directory is None:
            # The recovery vectors are shipped beside the corpus (conformance/recovery/).
            loaded += load_corpus(RECOVERY_DIR)
    except VectorFileError as exc:
        fail(str(exc))
    started = last = time.monotonic()

    def tick(done: int) -> None:
        # The shipped corpus takes a minute or more: say how far the check is, on stderr.
        nonlocal last
        now = time.monotonic()
        if now - last >= progress_every and not console.quiet:
            last = now
            errors.print(
                f"vectors check: {done}/{plural(len(loaded), 'vector')} checked "
                f"({now - started:.0f} s)",
                highlight=False,
            )

    # The shipped corpus's vectors each say which version they date from.
    problems = check_corpus(loaded, resolve, stamped=directory is None, progress=tick)
    for problem in problems:
        errors.print(f"[red]{problem.where}[/]: {problem.message}")
    if problems:
        errors.print(
            f"[bold red]{plural(len(problems), 'problem')}[/] in {plural(len(loaded), 'vector')}"
        )
        sys.exit(1)
    verdict(
        f"corpus ok: {plural(len(loaded), 'vector')}, hash {corpus_hash(directory or CORPUS_DIR)[:16]}"
    )


@vectors.command("build-corpus")
@click.option(
    "--out",
    "out",
    type=OutputFolder(),
    help="Directory to write the corpus to (default, in a source checkout only: its "
    "conformance/vectors/; an installed package is never rewritten).",
)
def vectors_build_corpus(out: Path | None) -> None:
    """Rebuild the shipped corpus (hand-written cases and campaigns) from the current oracle.

    Its *.binpb.gz files in --out are replaced; `croupier certify --vectors DIR` plays them.
    The recovery vectors go to conformance/recovery/ (with --out, to its recovery/ folder).
    """
    if out is None:
        if checkout() is None:
            fail("give --out DIR: an installed package's corpus is not rewritten")
        out = CORPUS_DIR
    counts = build_corpus(out)
    for profile_id, (hand, generated) in counts.items():
        console.print(f"{profile_id}: {hand} hand-written, {generated} generated vectors")


@vectors.command("freeze")
def vectors_freeze() -> None:
    """Keep this version's expectations (conformance/releases/VERSION.txt), before a version bump.

    Each shipped vector's ``since`` is the oldest kept version from which its expectations are
    unchanged, else the current version: freeze, then bump oracle/__init__.py's version.
    """
    if checkout() is None:
        fail(
            "vectors freeze writes conformance/releases/ of a source checkout, not of an "
            "installed package"
        )
    try:
        loaded = load_corpus(CORPUS_DIR) + load_corpus(RECOVERY_DIR)
    except VectorFileError as exc:
        fail(str(exc))
    path = freeze(v.vector for v in loaded)
    console.print(
        f"kept {len(loaded)} vectors' expectations of Croupier {oracle.__version__} in {path}"
    )


_VECTORS_OPTION = click.option(
    "--vectors",
    "vector_paths",
    multiple=True,
    type=InputFile(dir_okay=True),
    help="Vector file (binary or JSON Lines) or directory (default: the shipped corpus; "
    "repeatable).",
)


@vectors.command("show")
@click.argument("patterns", nargs=-1, required=True, metavar="ID...")
@_VECTORS_OPTION
def vectors_show(patterns: tuple[str, ...], vector_paths: tuple[Path, ...]) -> None:
    """Print the vectors whose id or name matches a glob, as indented JSON (protobuf JSON mapping).

    Each is preceded by the file it is in and its line (a binary file's vector position).
    """
    try:
        loaded = load_vectors(vector_paths)
    except VectorFileError as exc:
        fail(str(exc))
    shown = [
        v
        for v in loaded
        if any(
            fnmatch.fnmatchcase(v.vector.id, p) or fnmatch.fnmatchcase(v.vector.name, p)
            for p in patterns
        )
    ]
    if not shown:
        fail(f"no vector matches {' '.join(patterns)}")
    for found in shown:
        errors.print(f"{found.path.name}:{found.line}", highlight=False)
        print(json.dumps(json.loads(dump_line(found.vector)), indent=2))  # noqa: T201 - JSON out


@vectors.command("export")
@_VECTORS_OPTION
@click.option(
    "--out",
    type=OutputFile(),
    help="Output file: JSON Lines, or binary if its name ends in .binpb.gz (default, or -: JSON "
    "Lines to standard output).",
)
def vectors_export(vector_paths: tuple[Path, ...], out: Path | None) -> None:
    """Write vectors (default: the whole shipped corpus) as JSON Lines, as a lab writes them.

    What it writes, certify --vectors reads back as the same vectors.
    """
    inputs = [("a vector file", path) for path in vector_paths if path.is_file()]
    out = prepare_outputs({"--out": out}, inputs)["--out"]
    try:
        loaded = load_vectors(vector_paths)
    except VectorFileError as exc:
        fail(str(exc))
    if out is None:
        for found in loaded:
            print(dump_line(found.vector))  # noqa: T201 - JSON Lines to stdout
        return
    try:
        count = write_vectors(out, (v.vector for v in loaded))
    except OSError as exc:  # a full disk, a directory that went away
        fail(f"cannot write {output_name(out)}: {exc.strerror or exc}")
    errors.print(f"wrote {plural(count, 'vector')} to {output_name(out)}")
