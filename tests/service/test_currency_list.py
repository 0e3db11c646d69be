"""The contract names its currency list (engine_service.proto); the oracle and the kit hold to it.

A vendor's standard library list differed from the reference's on 17 of 25 rare codes: the
list is now written out, and this test fails when the iso4217 data package, which both the
oracle and the adapter kit read, ever disagrees with it (a contract change: docs/CHANGES.md).
"""

from __future__ import annotations

import re

from croupier.clients.adapter import CURRENCIES as KIT
from croupier.oracle.money import CURRENCIES as ORACLE
from croupier.oracle.money import is_currency
from tests.conformance.support import REPO

PROTO = REPO / "proto" / "croupier" / "v1" / "engine_service.proto"


def _contract() -> frozenset[str]:
    text = PROTO.read_text(encoding="utf-8")
    found = re.search(r"BEGIN ISO 4217 CODES\n(.*?)\n\s*//\s*END ISO 4217 CODES", text, re.DOTALL)
    assert found, "engine_service.proto lists no currency codes"
    return frozenset(" ".join(line.lstrip(" /") for line in found.group(1).splitlines()).split())


def test_the_oracle_and_the_kit_accept_exactly_the_contract_s_list() -> None:
    contract = _contract()
    assert len(contract) == 165
    assert contract == ORACLE
    assert contract == KIT


def test_funds_codes_are_currencies_and_withdrawn_or_unitless_codes_are_not() -> None:
    # ISO 4217 List One's funds codes have minor units: the contract takes them.
    for code in ("BOV", "CHE", "CHW", "CLF", "COU", "MXV", "USN", "UYI", "UYW", "XAD"):
        assert is_currency(code), code
    # Withdrawn (List Three), without minor units (metals, SDR, test, no currency), lower case.
    for code in ("HRK", "SLL", "ZWL", "ANG", "CUC", "XAU", "XDR", "XTS", "XXX", "eur", "XYZ"):
        assert not is_currency(code), code
    # Their successors are listed.
    for code in ("SLE", "ZWG", "XCG", "VES", "VED", "MRU", "STN", "BYN"):
        assert is_currency(code), code
