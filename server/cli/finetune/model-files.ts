/**
 * The files of a model folder on the CLI's machine, as they are sent one by one: every
 * regular file under it with its path relative to the folder ("/"-separated). Symbolic
 * links are followed, since a Hugging Face cache snapshot is a folder of links to blobs;
 * names starting with "." (.git, .cache, .gitattributes) are not part of a model and are
 * left out, as are links that point nowhere.
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { CliError } from "../cli-error";

export interface ModelFile {
  /** Relative to the folder, "/"-separated: where the file goes in the uploaded folder. */
  path: string;
  absolutePath: string;
  bytes: number;
}

// The contract's limit on an uploaded folder (ZBaseModelSource folder_upload).
const MAX_FILES = 10_000;

export function listModelFolder(dir: string): ModelFile[] {
  const files: ModelFile[] = [];
  const walk = (rel: string) => {
    for (const name of readdirSync(path.join(dir, rel)).sort()) {
      if (name.startsWith(".")) continue;
      const relPath = rel ? `${rel}/${name}` : name;
      const absolutePath = path.join(dir, relPath);
      let st;
      try {
        st = statSync(absolutePath);
      } catch {
        continue; // a dangling link
      }
      if (st.isDirectory()) walk(relPath);
      else if (st.isFile()) files.push({ path: relPath, absolutePath, bytes: st.size });
      if (files.length > MAX_FILES) throw new CliError(`--model ${dir} holds more than ${MAX_FILES} files; is it really one model?`, 1, "not_a_model");
    }
  };
  walk("");
  return files;
}
