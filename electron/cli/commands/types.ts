import type { CairnCore } from '../../core/cairn'
import type { CliIO } from '../io'

export interface CliContext {
  io: CliIO
  env: NodeJS.ProcessEnv
  home: string
  /** Opens the core for the data home on first use; closed when the command ends. */
  core(options?: { watchSkills?: boolean }): Promise<CairnCore>
}

export interface CliCommand {
  usage: string
  run(ctx: CliContext, args: string[]): Promise<number>
}
