/**
 * The base model named on the command line, as the ZBaseModelSource the start takes: a path
 * on the training computer is passed as is; a .gguf file or a model folder on the CLI's
 * machine is uploaded first, file by file, each stored once by its SHA-256 (bytes the server
 * holds already are not sent again, so a second run or an interrupted folder resumes).
 */
import path from "node:path";
import type { TBaseModelSource } from "@/server/finetune/finetune.schema";
import type { Connection } from "../api-client";
import { uploadModelFile } from "../train/upload-file";
import type { ModelArg } from "./args";
import { listModelFolder } from "./model-files";

export async function sendModel(conn: Connection, projectId: string, model: ModelArg, log: (l: string) => void): Promise<TBaseModelSource> {
  switch (model.kind) {
    case "remote":
      return { kind: "path", path: model.path };
    case "gguf": {
      const up = await uploadModelFile(conn, projectId, model.file, log);
      return { kind: "gguf_upload", fileName: path.basename(model.file), sha256: up.sha256 };
    }
    case "folder": {
      const listed = listModelFolder(model.dir);
      const total = listed.reduce((n, f) => n + f.bytes, 0);
      log(`Sending the model folder ${model.dir}: ${listed.length} files, ${total} bytes.`);
      const files: { path: string; sha256: string }[] = [];
      for (const f of listed) files.push({ path: f.path, sha256: (await uploadModelFile(conn, projectId, f.absolutePath, log, f.path)).sha256 });
      return { kind: "folder_upload", name: path.basename(model.dir), files };
    }
  }
}
