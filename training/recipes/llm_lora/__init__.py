"""LoRA fine-tuning of a causal language model (transformers + PEFT + TRL).

Jobs (recipe.json has their input schemas): profile_examples, import_base, check_data,
preflight, train, export, generate, merge (the adapter is scored by the trusted evaluation-lm
recipe, training/evaluation_lm, whose masking train imports). The recipe is named llm-lora; its folder
and module are llm_lora because a Python module name (and the worker's module pattern)
cannot hold a hyphen.
torch and transformers are imported inside the jobs, so importing this package stays cheap.
"""

RECIPE_NAME = "llm-lora"
RECIPE_VERSION = "0.1.0"
