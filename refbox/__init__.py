"""Composition root: CLI, configuration, the table runtime, the journal, device wiring."""
