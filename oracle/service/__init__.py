"""The oracle as a gRPC service: the protobuf edge of the rules core.

``convert`` turns ``croupier.v1`` messages into the core's domain objects and back,
``server`` holds the servicers (thin adapters: convert, call the core, convert back), the
status mapping and the server itself. Nothing else under ``oracle/`` touches grpc, protobuf
or the generated ``croupier.*`` code; an import-linter contract in ``make lint`` checks it.
"""
