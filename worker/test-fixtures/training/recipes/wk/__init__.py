"""Worker test fixture recipe (standard library only)."""
