import type { CliContext } from '../main'

export interface CliCommand {
  usage: string
  run(ctx: CliContext, args: string[]): Promise<number>
}
