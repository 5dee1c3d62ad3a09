"""Never runs: its environment cannot be built."""
