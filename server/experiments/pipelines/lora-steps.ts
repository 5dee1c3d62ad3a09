/**
 * The fine-tuning (LoRA) pipeline's step names, in order: a leaf module, so views that read
 * the steps' jobs (server/finetune) can name them without importing the pipeline.
 */
export const LORA_STEPS = ["import_base", "check_data", "preflight", "train", "evaluate", "export"] as const;
export type LoraStep = (typeof LORA_STEPS)[number];
