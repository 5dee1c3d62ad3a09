// Worker version (written to dist/worker/VERSION by the build) and protocol number.
export const WORKER_VERSION = "0.1.0";
export { WORKER_PROTOCOL } from "../../contracts/worker/requests";
