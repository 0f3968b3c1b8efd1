import type { Language } from '../../shared/i18n'
import type { CairnCore } from '../core/cairn'
import type { SettingsStore } from '../core/config/config-store'
import { homePaths, resolveHome } from '../core/config/home'
import { CliFailure, processIO, UsageError, type CliIO } from './io'
import { commands, usageText, type CommandName } from './commands'
import type { CliContext } from './commands/types'

export type { CliContext } from './commands/types'

/** Runs one CLI invocation and returns its exit code (0 ok, 1 failure, 2 bad usage). */
export async function runCli(argv: string[], io: CliIO = processIO, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let homeArg: string | null = null
  let rest = argv
  // Global options come before the command.
  while (rest.length > 0 && rest[0].startsWith('-')) {
    const [flag, ...after] = rest
    if (flag === '--home') {
      if (!after[0]) return usage(io, 'Missing directory after --home.')
      homeArg = after[0]
      rest = after.slice(1)
    } else if (flag.startsWith('--home=')) {
      homeArg = flag.slice('--home='.length)
      rest = after
    } else if (flag === '--help' || flag === '-h') {
      io.out(usageText)
      return 0
    } else {
      return usage(io, `Unknown option ${flag}. Global options (--home DIR) go before the command.`)
    }
  }
  const [name, ...args] = rest
  if (!name || name === 'help') {
    io.out(usageText)
    return name ? 0 : 2
  }
  if (!Object.hasOwn(commands, name)) return usage(io, `Unknown command "${name}".`)
  const command = await commands[name as CommandName]()
  if (args.includes('--help') || args.includes('-h')) {
    io.out(command.usage)
    return 0
  }

  let opened: CairnCore | null = null
  const home = resolveHome(homeArg, env)
  // Loaded here, not at the top: `cairn --help` starts without zod and the secret stores.
  const { secretEnvNames } = await import('../serve/process-secrets')
  const { rememberedSecretsPath, withRememberedSecrets } = await import('../serve/remembered-secrets')
  const ctx: CliContext = {
    io,
    // Keys and tokens the user chose to remember in browser mode, where the environment does not set them.
    env: withRememberedSecrets(env, rememberedSecretsPath(home), secretEnvNames),
    processEnv: env,
    home,
    async core(options) {
      // Loaded here, not at the top: commands that never open the data home start without the core.
      const { CairnCore } = await import('../core/cairn')
      opened ??= await CairnCore.open({ home: ctx.home, watchSkills: options?.watchSkills })
      return opened
    }
  }
  try {
    return await command.run(ctx, args)
  } catch (error) {
    if (error instanceof UsageError) return usage(io, error.message, command.usage)
    // A damaged state.db, met at open or by any query later: one line naming `cairn doctor`.
    const [{ asCorruptDatabaseError }, { ConfigError, ConfigStore }, { keyedFailure }] = await Promise.all([
      import('../core/db/corrupt'),
      import('../core/config/config-store'),
      import('./worded-failure')
    ])
    const corrupt = asCorruptDatabaseError(error, homePaths(ctx.home).stateDb)
    const failure = error instanceof ConfigError ? keyedFailure(error) : error
    if (failure instanceof CliFailure) {
      io.err(`cairn: ${failure.wordedIn(languageOf(opened, () => new ConfigStore(homePaths(ctx.home).configFile)))}\n`)
      return 1
    }
    if (corrupt) {
      io.err(`cairn: ${corrupt.message}\n`)
      return 1
    }
    io.err(`cairn: unexpected error: ${(error as Error).stack ?? String(error)}\n`)
    return 1
  } finally {
    await closeQuietly(opened as CairnCore | null, io)
  }
}

/**
 * The language failures are worded in: the data home's (`ui.language`), read from its settings when a
 * command failed before opening it (backup, restore, sync setup), English when there are none.
 */
function languageOf(core: CairnCore | null, settings: () => SettingsStore): Language {
  try {
    return (core?.config ?? settings()).get().ui.language
  } catch {
    return 'en' // a config.json that cannot be read is itself the failure being reported
  }
}

/** Closing after a failure must not bury the failure's message under a second one. */
async function closeQuietly(core: CairnCore | null, io: CliIO): Promise<void> {
  try {
    await core?.close()
  } catch (error) {
    io.err(`cairn: could not close the data home cleanly: ${(error as Error).message}\n`)
  }
}

function usage(io: CliIO, message: string, commandUsage?: string): number {
  io.err(`cairn: ${message}\n\n${commandUsage ?? usageText}`)
  return 2
}
