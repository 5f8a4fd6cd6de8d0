"""What a decision cost against the best option: the one way every family's coach and
review price a choice, and sum a played game's choices.

Values come out of float arithmetic, so options within `BEST_WITHIN` of the best are best
too (ties), and a loss that small is exactly 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypedDict, TypeVar

BEST_WITHIN = 1e-9
COSTLIEST = 3  # the costliest decisions a review lists


def loss_of(best: float, chosen: float) -> float:
    """Best minus chosen, never negative: 0 within `BEST_WITHIN` (a tie is no loss)."""
    loss = best - chosen
    return 0.0 if loss <= BEST_WITHIN else loss


class Priced(Protocol):
    @property
    def loss(self) -> float: ...


D = TypeVar("D", bound=Priced)


class Totals(TypedDict):
    """A review's sums, by the names every review's answer gives them."""

    expected_loss: float
    decision_count: int
    mean_loss: float


@dataclass(frozen=True)
class Losses(Generic[D]):
    """A game's decisions summed: the expected loss (skill), their number, the mean, and
    the `COSTLIEST` costliest, costliest first (then earliest: the sort is stable)."""

    expected_loss: float
    decisions: int
    mean_loss: float  # expected_loss / decisions (0 with none)
    costliest: tuple[D, ...]

    def totals(self) -> Totals:
        return Totals(
            expected_loss=self.expected_loss,
            decision_count=self.decisions,
            mean_loss=self.mean_loss,
        )


def losses(decisions: Sequence[D]) -> Losses[D]:
    total = sum(d.loss for d in decisions)
    costly = sorted((d for d in decisions if d.loss > 0), key=lambda d: -d.loss)
    return Losses(
        expected_loss=total,
        decisions=len(decisions),
        mean_loss=total / len(decisions) if decisions else 0.0,
        costliest=tuple(costly[:COSTLIEST]),
    )
