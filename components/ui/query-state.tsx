import { errorText } from "./error-text";
import { ErrorMessage, Loading } from "./status-message";

/** A query's loading line, then its failure line ("failure: reason"); what it loaded stays with the caller. */
export function QueryState({ query, loading, failure }: { query: { isPending: boolean; error: unknown }; loading: string; failure?: string }) {
  return (
    <>
      {query.isPending && <Loading label={loading} />}
      {query.error ? (
        <ErrorMessage>
          {failure !== undefined && `${failure}: `}
          {errorText(query.error)}
        </ErrorMessage>
      ) : null}
    </>
  );
}
