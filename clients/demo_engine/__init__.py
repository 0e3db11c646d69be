"""The demo engine: a vendor-style engine for the seven Croupier profiles, served by the adapter kit.

With ``--lab-tables`` it also plays the lab profiles of ``docs/examples`` (``LAB_TABLES``).

Run it with ``python -m croupier.clients.demo_engine``; it prints ``CROUPIER_ENGINE host:port`` when
ready. Each house rule is one field of a settings table (``rules.HOUSE_RULES``) or one small
method of a dealer class, so a variant engine changes one of them and nothing else::

    class SixToFive(DemoEngine):
        def __init__(self) -> None:
            super().__init__(variant("blackjack-a", blackjack_payout=Fraction(6, 5)))

    class MultiAceBug(DemoEngine):
        def hand_value(self, cards): ...
"""

from croupier.clients.demo_engine.engine import DemoEngine
from croupier.clients.demo_engine.rules import (
    HOUSE_RULES,
    LAB_TABLES,
    BaccaratRules,
    BlackjackRules,
    RouletteRules,
    TableRules,
    variant,
)

__all__ = [
    "HOUSE_RULES",
    "LAB_TABLES",
    "BaccaratRules",
    "BlackjackRules",
    "DemoEngine",
    "RouletteRules",
    "TableRules",
    "variant",
]
