/**
 * `npm run eval:learning -- [--base-url URL --model NAME] [--learning-model NAME] [--api-key KEY]
 * [--personas dana,ravi] [--out report.json] [--keep] [--quiet]`
 *
 * Without --base-url it runs the scripted provider (no key, no quality claim: it checks the plumbing).
 * The key: --api-key, else CAIRN_EVAL_API_KEY, CAIRN_API_KEY or OPENAI_API_KEY; a local server
 * (Ollama, LM Studio) takes any. Prints the table; --out also writes the JSON report. See README.md here.
 */
import { writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { runEvaluation } from './evaluation'
import { reportTable } from './report'

const { values } = parseArgs({
  options: {
    'base-url': { type: 'string' },
    model: { type: 'string' },
    'learning-model': { type: 'string', default: '' },
    'api-key': { type: 'string' },
    personas: { type: 'string' },
    out: { type: 'string' },
    scripted: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false }
  }
})

async function main(): Promise<void> {
  const baseURL = values.scripted ? undefined : values['base-url']
  if (baseURL && !values.model) throw new Error('--base-url needs --model (the chat model to evaluate)')
  const apiKey = values['api-key'] ?? process.env.CAIRN_EVAL_API_KEY ?? process.env.CAIRN_API_KEY ?? process.env.OPENAI_API_KEY ?? 'no-key'
  const report = await runEvaluation({
    endpoint: baseURL ? { baseURL, model: values.model!, learningModel: values['learning-model'] ?? '', apiKey } : undefined,
    personas: values.personas?.split(',').map((id) => id.trim()).filter(Boolean),
    keep: values.keep,
    log: values.quiet ? undefined : (line) => console.error(`[eval] ${line}`)
  })
  console.log(reportTable(report))
  if (values.out) {
    writeFileSync(values.out, `${JSON.stringify(report, null, 2)}\n`)
    console.log(`\nReport written to ${values.out}`)
  }
}

void main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
