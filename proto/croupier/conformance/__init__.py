"""The conformance schema packages."""
