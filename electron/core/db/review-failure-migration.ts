/**
 * Why a review failed, as data: the failure's code and figures as JSON (shared/review-failures.ts),
 * worded by each face in the user's language. `error` keeps the English beside it for logs, and is
 * all that rows written before this migration have (they are read back from it into their code).
 */
// Typed by shape, not by importing Migration: migrations.ts imports this file, and a cycle fails lint.
export const reviewFailureMigration: { version: number; sql: string } = {
  version: 17,
  sql: /* sql */ `
    ALTER TABLE review_runs ADD COLUMN failure TEXT;
  `
}
