"""The contract for other languages: every .proto's language options, the shipped descriptor set.

``make checkgenerate`` keeps the descriptor set fresh; ``test_wheel.py`` generates TypeScript
stubs from the installed wheel's copy and compiles them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from google.protobuf import descriptor_pb2

from croupier.conformance.cli import main
from croupier.v1 import engine_service_pb2

ROOT = Path(__file__).resolve().parents[2]
PROTOS = sorted((ROOT / "proto").rglob("*.proto"))
OPTIONS = (
    "csharp_namespace",
    "go_package",
    "java_multiple_files",
    "java_outer_classname",
    "java_package",
    "objc_class_prefix",
    "php_namespace",
    "ruby_package",
)


@pytest.mark.parametrize("path", PROTOS, ids=lambda p: p.name)
def test_every_proto_names_its_package_in_each_language(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    package = re.search(r"^package ([\w.]+);", text, re.MULTILINE)
    assert package is not None
    parts = package.group(1).split(".")
    options = {
        name: value.strip('"')
        for name, value in re.findall(r'^option (\w+) = ("[^"]*"|\w+);', text, re.MULTILINE)
    }
    assert sorted(options) == sorted(OPTIONS)
    # Java gets one class per message, not croupier.v1.EngineServiceOuterClass.
    assert options["java_multiple_files"] == "true"
    assert options["java_package"] == "dev." + ".".join(parts)
    assert options["go_package"].startswith("croupier.dev/go/" + "/".join(parts) + ";")
    assert options["csharp_namespace"] == ".".join(p.capitalize() for p in parts)


def descriptor_set(args: list[str]) -> descriptor_pb2.FileDescriptorSet:
    result = CliRunner().invoke(main, ["proto", "descriptor-set", *args])
    assert result.exit_code == 0, result.output
    return descriptor_pb2.FileDescriptorSet.FromString(result.stdout_bytes)


def test_the_descriptor_set_holds_the_contract_its_imports_and_google_rpc() -> None:
    files = {f.name: f for f in descriptor_set([]).file}
    contract = {str(p.relative_to(ROOT / "proto")) for p in PROTOS}
    assert contract | {
        "google/protobuf/timestamp.proto",
        "google/rpc/status.proto",
        "google/rpc/error_details.proto",
    } <= set(files)
    assert "ErrorInfo" in {m.name for m in files["google/rpc/error_details.proto"].message_type}
    # The same contract as the generated Python, comments included for the stubs' docs.
    engine = files["croupier/v1/engine_service.proto"]
    generated = descriptor_pb2.FileDescriptorProto()
    engine_service_pb2.DESCRIPTOR.CopyToProto(generated)
    assert engine.service == generated.service

    def fields(proto: descriptor_pb2.FileDescriptorProto) -> list[tuple[str, str, int]]:
        return [(m.name, f.name, f.number) for m in proto.message_type for f in m.field]

    assert fields(engine) == fields(generated)
    assert engine.options.java_package == "dev.croupier.v1"
    comments = [loc.leading_comments for loc in engine.source_code_info.location]
    assert any("Deal" in c for c in comments)


def test_the_descriptor_set_goes_to_a_file_too(tmp_path: Path) -> None:
    out = tmp_path / "croupier.binpb"
    result = CliRunner().invoke(main, ["proto", "descriptor-set", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes() == (ROOT / "proto" / "croupier" / "croupier.binpb").read_bytes()
