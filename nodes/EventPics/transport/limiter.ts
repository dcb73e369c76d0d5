// The pool moved into pacing.ts, the one pacing component; this name stays until its callers import it from there.
export { runPool } from './pacing';
