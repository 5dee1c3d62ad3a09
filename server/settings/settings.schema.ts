import { z } from "zod";

export const GIB = 1024 ** 3;
export const MIB = 1024 ** 2;

/** Defaults: nothing readable by path until the owner names a folder; caps from the data recipe. */
export const DATA_SETTINGS_DEFAULTS = {
  allowedRoots: [] as string[],
  uploadMaxBytes: 2 * GIB,
  maxLineBytes: 10 * MIB,
  maxColumns: 10_000,
  maxDecompressedBytes: 2 * GIB,
};

const ZRoot = z
  .string()
  .trim()
  .min(1, "A folder path cannot be empty.")
  .max(4096)
  .refine((p) => p.startsWith("/"), "A folder must be an absolute path (starting with /).")
  .refine((p) => !p.split("/").includes(".."), "A folder path cannot contain '..'.");

export const ZDataSettings = z.strictObject({
  /** Folders on This computer whose files may be registered by path (the worker enforces them too). */
  allowedRoots: z.array(ZRoot).max(50, "At most 50 allowed folders."),
  uploadMaxBytes: z.number().int().min(1024, "The upload cap must be at least 1 KiB.").max(1024 * GIB),
  maxLineBytes: z.number().int().min(1024).max(1024 * MIB),
  maxColumns: z.number().int().min(1).max(1_000_000),
  maxDecompressedBytes: z.number().int().min(1024).max(1024 * GIB),
});
export type TDataSettings = z.infer<typeof ZDataSettings>;
/** The same fields read back from the Setting row: a field an older version saved is dropped, not fatal. */
export const ZStoredDataSettings = z.object(ZDataSettings.shape);

export const ZUpdateSettingsInput = z.strictObject({
  values: ZDataSettings,
  // The revision the editor read; a stale one is a CONFLICT.
  revision: z.number().int().nonnegative(),
});
export type TUpdateSettingsInput = z.infer<typeof ZUpdateSettingsInput>;

/**
 * Test-only hook (never exposed by the API): the upload writer fails with ENOSPC after
 * this many bytes. Tests write it straight into the Setting table.
 */
export const ZUploadTestFaults = z.object({ enospcAfterBytes: z.number().int().nonnegative().optional() });
export type TUploadTestFaults = z.infer<typeof ZUploadTestFaults>;

/** A saved folder that the root rules refuse (saved before the rule existed); not in force. */
export interface RefusedRoot {
  root: string;
  reason: string;
}

export interface SettingsView {
  values: TDataSettings;
  /** 0 while the owner has never saved (defaults in force). */
  revision: number;
  /** What the allowed folders mean, in words, for the settings page. */
  explanation: string;
  /** The local worker's config follows the setting; false when writing it failed. */
  workerConfigInSync: boolean;
  /** Saved folders left out of `values.allowedRoots` because the root rules refuse them. */
  refusedRoots: RefusedRoot[];
}
