"""Scripted strategies, one module per game (jitted choose functions)."""
