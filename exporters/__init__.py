"""Exporters that feed other tools from the same module data: `exporters.vassal`
writes VASSAL 3.7 modules and saved games (DESIGN §11, docs/vassal.md)."""
