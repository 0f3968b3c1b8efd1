/**
 * `cairn serve` in a child process, composed as electron/cli/commands/serve.ts composes it (a real data
 * home, CairnApp, the review worker, startWebServer) but over a stub renderer folder, so tests need no
 * `npm run build`. Its own process, so an uncaught exception ends it as it would end `cairn serve`.
 *
 * Usage: node --import tsx serve-entry.ts <home> <rendererDir>. Prints one JSON line `{url, port}`
 * when listening; SIGTERM stops it cleanly.
 */
import { CairnApp } from '../../electron/core/app/cairn-app'
import { CairnCore } from '../../electron/core/cairn'
import { forkReviewWorker } from '../../electron/core/learning/host/spawn-worker'
import { ProcessSecretStore } from '../../electron/serve/process-secrets'
import { startWebServer } from '../../electron/serve/web-server'

async function main(): Promise<void> {
  const [home, rendererDir] = process.argv.slice(2)
  if (!home || !rendererDir) throw new Error('usage: serve-entry.ts <home> <rendererDir>')
  const core = await CairnCore.open({ home, watchSkills: true })
  const app = new CairnApp({
    core,
    spawnWorker: () => forkReviewWorker(),
    secrets: new ProcessSecretStore(process.env),
    platform: { mode: 'browser' },
    version: '0.0.0-test',
    env: process.env
  })
  const server = await startWebServer({ app, rendererDir, port: 0 })
  process.stdout.write(JSON.stringify({ url: server.url, port: server.port }) + '\n')
  process.once('SIGTERM', () => {
    void server
      .close()
      .then(() => app.close())
      .then(() => core.close())
      .then(() => process.exit(0))
  })
}

void main().catch((error: Error) => {
  process.stderr.write(`serve-entry: ${error.stack ?? error.message}\n`)
  process.exit(1)
})
