"""LoRA fine-tuning of a causal language model (transformers + PEFT + TRL).

Jobs (recipe.json has their input schemas): import_base, check_data, preflight, train,
evaluate. The folder name has a hyphen, so modules import each other relatively and tests
load them with importlib (`importlib.import_module("recipes.llm-lora.<module>")`).
torch and transformers are imported inside the jobs, so importing this package stays cheap.
"""

RECIPE_NAME = "llm-lora"
RECIPE_VERSION = "0.1.0"
