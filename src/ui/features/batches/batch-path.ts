/** The page of one batch. */
export const batchPath = (batchId: number) => `/batches/${batchId}`;
