"""Protocol helpers shared by every Trainyard recipe (standard library only at import).

See docs/dev/contracts.md ("Recipe run") for the contract these implement.
"""

from trainyard_recipe.classes import class_key
from trainyard_recipe.context import JobContext
from trainyard_recipe.errors import BadInput, Stopped
from trainyard_recipe.events import emit
from trainyard_recipe.hashing import sha256_file
from trainyard_recipe.manifest import write_manifest
from trainyard_recipe.report import write_report
from trainyard_recipe.runner import requires, run_recipe
from trainyard_recipe.tables import read_table

__all__ = [
    "BadInput",
    "JobContext",
    "Stopped",
    "emit",
    "read_table",
    "requires",
    "run_recipe",
    "sha256_file",
    "write_manifest",
    "class_key",
    "write_report",
]
