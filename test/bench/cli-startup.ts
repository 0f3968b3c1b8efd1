/**
 * Start-up time of the `cairn` command: `cairn --help` and `cairn search x` on an empty data home,
 * run as the installed command runs them (the bundle from scripts/build-cli.mjs, built fresh here)
 * and as `npm run cairn` does (the TypeScript source through tsx), beside `node -e 0` (Node's own
 * start-up, the floor). Each figure is the median wall time of N runs, in ms; prints JSON.
 * Targets for the bundle: both under 300 ms, and `--help` within 6× `node -e 0` (it loads no
 * command's code: the bundle is split by command).
 *
 *   npm run bench:cli [-- RUNS]   (default 11 runs)
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const TARGET_MS = 300
const HELP_TARGET_TIMES_NODE = 6
const runs = Number(process.argv[2] ?? 11)
if (!Number.isInteger(runs) || runs < 1) throw new Error(`RUNS must be a whole number above 0, got ${process.argv[2]}`)

const root = join(__dirname, '..', '..')
const scratch = mkdtempSync(join(tmpdir(), 'cairn-bench-cli-'))
const home = join(scratch, 'home')
// Two levels below the checkout, as out/cli is: the bundle finds node_modules from there.
const outdir = mkdtempSync(join(root, 'out', 'cli-bench-'))
const tsxLoader = pathToFileURL(createRequire(__filename).resolve('tsx')).href

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/** Median wall time of `node ...args`, after one unmeasured run (the data home is made then). */
function time(args: string[]): number {
  const run = () => {
    const started = process.hrtime.bigint()
    const result = spawnSync(process.execPath, args, { cwd: scratch, env: { PATH: process.env.PATH, HOME: scratch }, encoding: 'utf8' })
    const ms = Number(process.hrtime.bigint() - started) / 1e6
    if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}: ${result.stderr}`)
    return ms
  }
  run()
  return Math.round(median(Array.from({ length: runs }, run)))
}

try {
  execFileSync(process.execPath, [join(root, 'scripts', 'build-cli.mjs'), outdir])
  const bundle = join(outdir, 'cairn.js')
  const source = ['--import', tsxLoader, join(root, 'electron', 'cli', 'index.ts')]
  const commands = { help: ['--help'], search: ['--home', home, 'search', 'x'] }
  const bundled = { help: time([bundle, ...commands.help]), search: time([bundle, ...commands.search]) }
  const tsx = { help: time([...source, ...commands.help]), search: time([...source, ...commands.search]) }
  const nodeNoop = time(['-e', '0'])
  const helpTimesNode = Math.round((bundled.help / nodeNoop) * 10) / 10
  const result = {
    runs,
    unit: 'ms (median wall time)',
    nodeNoop,
    bundle: bundled,
    tsx,
    targetMs: TARGET_MS,
    helpTimesNode,
    helpTargetTimesNode: HELP_TARGET_TIMES_NODE,
    bundleMeetsTarget: bundled.help < TARGET_MS && bundled.search < TARGET_MS && helpTimesNode <= HELP_TARGET_TIMES_NODE
  }
  console.log(JSON.stringify(result, null, 2))
} finally {
  rmSync(outdir, { recursive: true, force: true })
  rmSync(scratch, { recursive: true, force: true })
}
