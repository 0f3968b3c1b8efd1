// Glue only: the shell lives in bootstrap.ts and the modules it wires; the domain in electron/core.
import { runCairn } from './bootstrap'

runCairn()
