export { freePort } from "./free-port.ts";
export { makeOwnedFolder, OWNER_FILE, stopOrphans } from "./owned-folders.ts";
export { isRunning } from "./process-state.ts";
export {
  type Account,
  type RunOptions,
  type RunSyncOptions,
  runProgram,
  runProgramSync,
  systemAccount,
} from "./run-program.ts";
export { forgetOnExit, stopOnExit } from "./stop-on-exit.ts";
