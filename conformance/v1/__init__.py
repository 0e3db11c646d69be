"""Generated code of the conformance schema (``make generate``)."""
