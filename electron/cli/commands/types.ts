import type { CairnCore } from '../../core/cairn'
import type { CliIO } from '../io'

export interface CliContext {
  io: CliIO
  /** The environment with the keys and tokens remembered in browser mode filled in where it sets none: for one-shot commands. */
  env: NodeJS.ProcessEnv
  /**
   * The environment as the process got it. A long-lived command (`cairn serve`) takes this one: its
   * secret store reads the remembered file itself, so removing or forgetting a key there applies at once.
   */
  processEnv: NodeJS.ProcessEnv
  home: string
  /** Opens the core for the data home on first use; closed when the command ends. */
  core(options?: { watchSkills?: boolean }): Promise<CairnCore>
}

export interface CliCommand {
  usage: string
  run(ctx: CliContext, args: string[]): Promise<number>
}
