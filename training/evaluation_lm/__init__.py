"""The trusted evaluator of language-model adapters (recipe evaluation-lm).

Job score: the base model, then base + adapter, on the held-out examples, with one
tokenisation and label masking (template.py), which the llm_lora recipe's training imports
from here, so the tokens scored are the tokens trained. It imports nothing from the training
recipe: "better than base" comes only from its receipt, as the tabular evaluator's does.
torch and transformers are imported inside the job, so importing this package stays cheap.
"""

RECIPE_NAME = "evaluation-lm"
RECIPE_VERSION = "1.0.0"
