// madge ships no types: the part of its API that server/import-cycles.test.ts uses.
declare module "madge" {
  interface MadgeConfig {
    baseDir?: string;
    fileExtensions?: string[];
    tsConfig?: string;
    excludeRegExp?: RegExp[];
    detectiveOptions?: Record<string, Record<string, boolean>>;
  }
  interface MadgeResult {
    /** Each file (relative to baseDir) with the files it imports. */
    obj(): Record<string, string[]>;
    circular(): string[][];
    warnings(): { skipped: string[] };
  }
  export default function madge(paths: string | string[], config?: MadgeConfig): Promise<MadgeResult>;
}
