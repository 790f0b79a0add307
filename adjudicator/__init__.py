"""PBEM adjudicator for five 1941 Eastern-Front board wargames."""

__version__ = "0.1.0"
