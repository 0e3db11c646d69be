"""Targeted rounds of any profile, generated from its parameters (issue 24, item 2).

The shipped profiles get their targeted rounds from hand-written cases; a lab profile gets
them from here. Every parameter of ``oracle.parameters.SPECS`` has a generator (``GENERATORS``;
a parameter without one is a test failure): given the profile and the profile with that one
parameter set to another value it may take (``alternatives``), it proposes the deciding
rounds (``Probe``) for the value the profile chose. Each probe is played through the oracle
under the profile and frozen as a vector; the builder keeps the first one whose expectations
change when the vector is replayed under the other value, so every value the parameter may
take is told apart from the profile's own by a vector (the coverage rule of DESIGN.md
"Vectors"), or is reported: with the reason no round can tell them apart under this profile
(``Told.reason``), or as untold.

Only what an engine must answer counts as a difference: cards, states, legal decisions,
refusals and amounts, not the clauses the oracle cites.

The builder and what it reports are in ``builder``, the other values a parameter may take in
``alternatives``, what an engine must answer of a vector in ``expectations``, the rounds
proposed in ``probe``, and the refusal vectors of a profile in ``refusals``.
"""
