/**
 * `trainyard train --models GBM,CAT`: which of AutoGluon's model families a quick training
 * fits, instead of its preset's eight models. The experiment keeps them as its settings'
 * `hyperparameters` (each family with AutoGluon's own defaults), the field the API takes.
 */
import { MODEL_FAMILIES } from "@/contracts/recipes/tabular";

type Family = (typeof MODEL_FAMILIES)[number];

const MODEL_FAMILY_NAMES: Record<Family, string> = {
  GBM: "LightGBM",
  CAT: "CatBoost",
  RF: "random forest",
  XT: "extra trees",
  KNN: "nearest neighbours",
  LR: "linear model",
};

/** "GBM (LightGBM), CAT (CatBoost), …": the choices, as the usage and the refusals name them. */
export const MODEL_FAMILY_CHOICES = MODEL_FAMILIES.map((f) => `${f} (${MODEL_FAMILY_NAMES[f]})`).join(", ");

/** "gbm, CAT" → { GBM: {}, CAT: {} }; an unknown or repeated name throws, naming the choices. */
export function parseModelFamilies(value: string): Partial<Record<Family, Record<string, never>>> {
  const names = value.split(",").map((n) => n.trim().toUpperCase()).filter(Boolean);
  if (names.length === 0) throw new Error(`--models needs at least one model family: ${MODEL_FAMILY_CHOICES}.`);
  const families: Partial<Record<Family, Record<string, never>>> = {};
  for (const name of names) {
    const family = MODEL_FAMILIES.find((f) => f === name);
    if (!family) throw new Error(`--models: "${name}" is not a model family. Choose from ${MODEL_FAMILY_CHOICES}.`);
    if (families[family]) throw new Error(`--models names ${family} twice.`);
    families[family] = {};
  }
  return families;
}
