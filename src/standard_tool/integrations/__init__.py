"""Bridges between standard tools and agent frameworks: one module per framework."""
