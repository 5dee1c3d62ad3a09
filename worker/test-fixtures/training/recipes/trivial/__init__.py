"""Benchmark fixture recipe."""
