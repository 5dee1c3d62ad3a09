/**
 * Sends a file as the raw body of a POST. XMLHttpRequest (not fetch) because only it
 * reports upload progress. Resolves with the server's JSON answer, never rejects.
 */
export interface PostedFile {
  ok: boolean;
  status: number;
  error?: string;
  code?: string;
}

export interface UploadAnswer extends PostedFile {
  datasetId?: string;
  reused?: boolean;
}

export function postFile<T extends PostedFile>(
  url: string,
  file: File,
  onProgress: (loaded: number, total: number) => void,
): { promise: Promise<T>; abort: () => void } {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<T>((resolve) => {
    xhr.open("POST", url);
    xhr.setRequestHeader("content-type", "application/octet-stream");
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.onload = () => {
      let body: Partial<T> = {};
      try {
        body = JSON.parse(xhr.responseText) as Partial<T>;
      } catch {
        body = { error: `The server answered ${xhr.status} without an explanation.` } as Partial<T>;
      }
      resolve({ ...body, ok: xhr.status >= 200 && xhr.status < 300, status: xhr.status } as T);
    };
    xhr.onerror = () => resolve({ ok: false, status: 0, error: "The connection broke during the upload; nothing was stored. Try again." } as T);
    xhr.onabort = () => resolve({ ok: false, status: 0, error: "Upload cancelled; nothing was stored.", code: "aborted" } as T);
    xhr.send(file);
  });
  return { promise, abort: () => xhr.abort() };
}

/** A data file to POST /api/datasets/upload. */
export function uploadDataset(
  projectId: string,
  file: File,
  encoding: "utf-8" | "latin-1",
  onProgress: (loaded: number, total: number) => void,
): { promise: Promise<UploadAnswer>; abort: () => void } {
  const q = new URLSearchParams({ projectId, fileName: file.name, encoding });
  return postFile<UploadAnswer>(`/api/datasets/upload?${q}`, file, onProgress);
}
