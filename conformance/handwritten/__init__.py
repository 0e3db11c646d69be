"""The hand-written cases of the shipped corpus, one module per profile.

Each module defines ``CASES``, a tuple of ``conformance.cases.Case``; ids are
``<prefix>-h<NNN>`` and are never reused once shipped. ``shipped.CASES`` gathers every
shipped profile's, with its table's and what a corpus easily never asks.
"""
