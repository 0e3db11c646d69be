"""``croupier proto``: the contract for other languages, as the installed package carries it."""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path

import click

import croupier
from croupier.conformance.cli.common import STDOUT, OutputFile, fail, output_name, prepare_outputs

#: The descriptor set beside the generated code (``make generate`` writes it).
DESCRIPTOR_SET = "croupier.binpb"


def descriptor_set() -> bytes:
    """The contract's ``FileDescriptorSet``: its files, their imports and ``google/rpc``."""
    return resources.files(croupier).joinpath(DESCRIPTOR_SET).read_bytes()


@click.group()
def proto() -> None:
    """The gRPC contract for stubs in other languages (README "Stubs in other languages")."""


@proto.command("descriptor-set")
@click.option(
    "-o",
    "--out",
    "out",
    type=OutputFile(),
    default=STDOUT,
    show_default=True,
    help="File to write (- for stdout).",
)
def proto_descriptor_set(out: Path) -> None:
    """Write the contract as a binary FileDescriptorSet (protobuf), with its imports.

    Every .proto of croupier.v1 and croupier.conformance.v1 with its comments, the
    google/protobuf files they import, and google/rpc/status.proto and error_details.proto,
    which carry every error's ErrorInfo. Generate stubs from it alone:
    `buf generate croupier.binpb --template ...` or `protoc --descriptor_set_in=croupier.binpb
    --java_out=... croupier/v1/engine_service.proto`.
    """
    data = descriptor_set()
    if out is STDOUT and sys.stdout.isatty():
        fail("the descriptor set is binary: redirect stdout to a file, or give --out FILE")
    path = prepare_outputs({"--out": out})["--out"] or out
    try:
        path.write_bytes(data)
    except OSError as exc:
        fail(f"cannot write {output_name(path)}: {exc.strerror or exc}")
