"""The mutant zoo: the demo engine with exactly one realistic rule bug each.

Each ``Mutant`` (``mutant``) names its bug, the profile whose vectors catch it, and the
RULES.md clause the conformance runner must cite when it kills it. ``shipped`` holds the
mutants of the shipped profiles (``MUTANTS``), ``lab`` those of the lab profiles' variants
(``LAB_MUTANTS``) and ``recovery`` the recovery bugs (``RECOVERY_MUTANTS``); ``bugs`` and
``kits`` are the engines and adapter kits with one method gone wrong. ``python -m
croupier.clients.mutants NAME`` serves one mutant through the adapter kit; ``python -m
croupier.conformance.zoo`` certifies them all. No mutant imports the oracle or the
conformance suite (the zoo driver does): a mutant is a vendor engine like any other.
"""

from croupier.clients.mutants.lab import LAB_MUTANTS
from croupier.clients.mutants.mutant import Mutant
from croupier.clients.mutants.recovery import RECOVERY_MUTANTS
from croupier.clients.mutants.shipped import MUTANTS

__all__ = ["LAB_MUTANTS", "MUTANTS", "RECOVERY_MUTANTS", "Mutant"]
