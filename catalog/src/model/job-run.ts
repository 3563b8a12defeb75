// A job's run as the explorer's details sheet shows it: read from the stored dataProcessInstance
// aspects (read/entity-details.ts), answered by GraphQL dataJobRuns, typed once for both ends.
export interface JobRun {
  urn: string;
  name: string | null;
  /** DataHub's run status: STARTED or COMPLETE (null when no run event is stored). */
  status: string | null;
  /** SUCCESS, FAILURE, SKIPPED or UP_FOR_RETRY once complete. */
  result: string | null;
  startTimeMillis: number | null;
  /** Start to the completing event; null while running or when unknown. */
  durationMillis: number | null;
  errorMessage: string | null;
}
