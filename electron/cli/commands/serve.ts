import { join } from 'node:path'
import { CairnApp } from '../../core/app/cairn-app'
import { ProcessSecretStore } from '../../serve/process-secrets'
import { rememberedSecretsPath } from '../../serve/remembered-secrets'
import { startWebServer } from '../../serve/web-server'
import { forkReviewWorker } from '../../core/learning/host/spawn-worker'
import { parseCommandArgs } from '../args'
import { CAIRN_ROOT, reviewWorkerEntry } from '../install-paths'
import { CliFailure, UsageError } from '../io'
import type { CliCommand } from './types'

export const serveCommand: CliCommand = {
  usage: `Usage: cairn [--home DIR] serve [--port N]

Browser mode: serves the Cairn UI on 127.0.0.1 only and prints the URL to open (it carries a random
access token). --port 0 picks a free port (default 4280). Needs a build: npm run build.
Stop with Ctrl+C.
`,
  async run(ctx, args) {
    const { values } = parseCommandArgs(args, { port: { type: 'string' } })
    const port = values.port === undefined ? 4280 : Number(values.port)
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port must be a number from 0 to 65535.')
    const core = await ctx.core({ watchSkills: true })
    const app = new CairnApp({
      core,
      spawnWorker: () => forkReviewWorker({ entry: reviewWorkerEntry() }),
      // A key typed in the UI lasts until this process stops, unless the user chose to remember it (secrets.local.json).
      // The raw environment: the remembered file is read by the store alone, as its last fallback, so a key
      // removed or forgotten in Settings is gone at once (ctx.env has it filled in as a variable).
      secrets: new ProcessSecretStore(ctx.processEnv, rememberedSecretsPath(core.paths.root)),
      platform: { mode: 'browser' },
      version: appVersion(),
      env: ctx.processEnv,
      // Cairn's own checkout (or install folder) is never a conversation's workspace.
      forbiddenWorkspaceRoots: [CAIRN_ROOT]
    })
    let server
    try {
      server = await startWebServer({ app, rendererDir: join(CAIRN_ROOT, 'out', 'renderer'), port })
    } catch (error) {
      await app.close()
      throw new CliFailure((error as Error).message)
    }
    ctx.io.out(`Cairn is running in browser mode for ${core.paths.root}\n\n  Open: ${server.url}\n  Quick prompt: ${server.quickUrl}\n\nPress Ctrl+C to stop.\n`)
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve)
      process.once('SIGTERM', resolve)
    })
    ctx.io.err('Stopping…\n')
    await server.close()
    await app.close()
    return 0
  }
}

export function appVersion(): string {
  try {
    return (require(join(CAIRN_ROOT, 'package.json')) as { version: string }).version
  } catch {
    return '0.0.0'
  }
}
