"""Service tests: a real oracle server on 127.0.0.1, driven over gRPC channels."""
