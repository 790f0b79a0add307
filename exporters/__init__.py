"""Exporters that feed other tools from the same module data: `exporters.vassal`
writes VASSAL 3.7 modules and saved games (docs/vassal.md, docs/vassal.md)."""
