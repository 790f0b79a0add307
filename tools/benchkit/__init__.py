"""The pieces of `make bench` (tools/bench.py): timing, positions and order files built
from the rules' listing, and the sections of the table."""
