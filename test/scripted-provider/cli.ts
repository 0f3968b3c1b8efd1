/**
 * Standalone scripted provider for trying the Cairn CLI and UI by hand:
 *   npx tsx test/scripted-provider/cli.ts [--port 8787] [--script path.json] [--api-key KEY] [--models a,b] [--quiet]
 * Prints the base URL and the env vars that point Cairn at it, logs each request on stderr, and
 * stops cleanly on SIGINT/SIGTERM. Without a script every message gets an obviously fake echo.
 */
import { parseArgs } from 'node:util'
import { loadScriptFile, ScriptError } from './script'
import { startScriptedServer } from './server'
import type { ScriptFile, ScriptedServer } from './types'

const usage = `Usage: npx tsx test/scripted-provider/cli.ts [options]
  --port N         port to listen on (default 8787; 0 picks a free one)
  --host H         interface to bind (default 127.0.0.1)
  --script FILE    JSON script: replies, rules, fallback, models, apiKey (see test/scripted-provider/README.md)
  --api-key KEY    require 'Authorization: Bearer KEY' (overrides the script's apiKey)
  --models A,B     models to serve; others get 404 model_not_found (overrides the script's models)
  --quiet          do not log requests on stderr
  --help           show this help`

interface CliOptions {
  port: number
  host: string
  scriptPath?: string
  apiKey?: string
  models?: string[]
  quiet: boolean
}

/** An expected failure: its message is shown without a stack; `showUsage` appends the help text. */
class CliError extends Error {
  constructor(message: string, readonly showUsage = false) {
    super(message)
  }
}

function readOptions(argv: string[]): CliOptions | undefined {
  let values
  try {
    values = parseArgs({
      args: argv,
      options: {
        port: { type: 'string', default: '8787' },
        host: { type: 'string', default: '127.0.0.1' },
        script: { type: 'string' },
        'api-key': { type: 'string' },
        models: { type: 'string' },
        quiet: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false }
      }
    }).values
  } catch (error) {
    throw new CliError((error as Error).message, true)
  }
  if (values.help) return undefined
  const port = Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`--port must be a number from 0 to 65535, got "${values.port}".`, true)
  const models = values.models?.split(',').map((name) => name.trim()).filter(Boolean)
  if (models && !models.length) throw new CliError('--models needs at least one model name, e.g. --models scripted,gpt-test.', true)
  return { port, host: values.host, scriptPath: values.script, apiKey: values['api-key'], models, quiet: values.quiet }
}

function describeScript(path: string | undefined, script: ScriptFile): string {
  if (!path) return 'Script: none, so every message gets a "(scripted) You said: …" reply.'
  const parts = [`${script.replies?.length ?? 0} queued replies`, `${script.rules?.length ?? 0} rules`]
  parts.push(script.fallback ? 'a fallback reply' : 'echo when nothing matches')
  return `Script: ${path} (${parts.join(', ')}).`
}

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2))
  if (!options) {
    process.stdout.write(`${usage}\n`)
    return
  }
  const script = options.scriptPath ? loadScriptFile(options.scriptPath) : {}
  const apiKey = options.apiKey ?? script.apiKey
  const models = options.models ?? script.models
  const log = options.quiet ? undefined : (line: string): void => void process.stderr.write(`[scripted] ${line}\n`)

  let server: ScriptedServer
  try {
    server = await startScriptedServer({ ...script, apiKey, models, host: options.host, port: options.port, log })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new CliError(`Port ${options.port} on ${options.host} is already in use. Pass --port 0 for a free port, or another number.`)
    }
    throw error
  }

  process.stdout.write(
    [
      `Scripted OpenAI-compatible provider listening on ${server.url}`,
      'Point Cairn at it (prefix a Cairn command with these, or export them):',
      `  CAIRN_BASE_URL=${server.url} CAIRN_MODEL=${models?.[0] ?? 'scripted'} CAIRN_API_KEY=${apiKey ?? 'test'}`,
      `  e.g. CAIRN_BASE_URL=${server.url} CAIRN_MODEL=${models?.[0] ?? 'scripted'} CAIRN_API_KEY=${apiKey ?? 'test'} npm run cairn -- chat "hello"`,
      describeScript(options.scriptPath, script),
      'Press Ctrl+C to stop.',
      ''
    ].join('\n')
  )

  let stopping = false
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return
    stopping = true
    process.stderr.write(`[scripted] ${signal}: stopping after ${server.requests.length} requests.\n`)
    // If some handle kept the process alive after close, still exit promptly.
    setTimeout(() => process.exit(0), 2000).unref()
    void server.close().then(() => {
      process.exitCode = 0
    })
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

main().catch((error: Error) => {
  const expected = error instanceof CliError || error instanceof ScriptError
  process.stderr.write(`${expected ? error.message : error.stack ?? error.message}\n`)
  if (error instanceof CliError && error.showUsage) process.stderr.write(`\n${usage}\n`)
  process.exitCode = 1
})
