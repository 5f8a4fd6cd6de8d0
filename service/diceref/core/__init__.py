"""What every game family shares: dice, game descriptions, rule violations, rankings and
player names.  Pure: no I/O, no numpy tables, no web framework."""
