/**
 * Why a stream to a process's Unix socket on a training computer did not open: the process
 * (not listening, gone, silent), or the link to its computer (a cut or silent SSH link,
 * when the process may well be alive). Callers decide differently on each (a restart of the
 * process helps only with the first), so the Target that opens the stream says which.
 */

/** The process could not be reached (not listening, gone, or silent past the timeout). */
export class ServingUnreachable extends Error {
  override name = "ServingUnreachable";
}

/** The computer the process runs on could not be reached (a cut or silent SSH link); the process may well be alive. */
export class LinkDown extends ServingUnreachable {
  override name = "LinkDown";
}
