/**
 * A promotion or rollback is one confirmation: its reason is optional, and one left empty is
 * recorded in these words (the sheets show them as the field's placeholder).
 */
export const DEFAULT_REASONS = { promote: "promoted", rollback: "rolled back" } as const;
