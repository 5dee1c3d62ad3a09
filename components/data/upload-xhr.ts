/**
 * Sends a file to POST /api/datasets/upload as the raw body. XMLHttpRequest (not fetch)
 * because only it reports upload progress. Resolves with the server's JSON answer.
 */
export interface UploadAnswer {
  ok: boolean;
  status: number;
  datasetId?: string;
  reused?: boolean;
  error?: string;
  code?: string;
}

export function uploadDataset(
  projectId: string,
  file: File,
  encoding: "utf-8" | "latin-1",
  onProgress: (loaded: number, total: number) => void,
): { promise: Promise<UploadAnswer>; abort: () => void } {
  const xhr = new XMLHttpRequest();
  const q = new URLSearchParams({ projectId, fileName: file.name, encoding });
  const promise = new Promise<UploadAnswer>((resolve) => {
    xhr.open("POST", `/api/datasets/upload?${q}`);
    xhr.setRequestHeader("content-type", "application/octet-stream");
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.onload = () => {
      let body: Partial<UploadAnswer> = {};
      try {
        body = JSON.parse(xhr.responseText) as Partial<UploadAnswer>;
      } catch {
        body = { error: `The server answered ${xhr.status} without an explanation.` };
      }
      resolve({ ...body, ok: xhr.status >= 200 && xhr.status < 300, status: xhr.status });
    };
    xhr.onerror = () => resolve({ ok: false, status: 0, error: "The connection broke during the upload; nothing was stored. Try again." });
    xhr.onabort = () => resolve({ ok: false, status: 0, error: "Upload cancelled; nothing was stored.", code: "aborted" });
    xhr.send(file);
  });
  return { promise, abort: () => xhr.abort() };
}
