"""diceref: referee and coach for dice games."""

__version__ = "0.1.0"
