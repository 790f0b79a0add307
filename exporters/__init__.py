"""Exporters that feed other tools from the same module data: the VASSAL module
and saved-game writers (DESIGN §11) live here; none is written yet."""
