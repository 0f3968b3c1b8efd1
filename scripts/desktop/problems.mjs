// Why a step of `npm start` failed, read from what the tool printed, and the two or three lines that
// say so. The tools' own output (stack traces, node-gyp's walls of text) goes to a log file instead.
import { existsSync } from 'node:fs'
import { delimiter, join } from 'node:path'

const NETWORK_CODE = /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|UND_ERR_CONNECT_TIMEOUT)\b/
const NETWORK = new RegExp(`${NETWORK_CODE.source}|fetch failed|getaddrinfo|socket hang up|network connectivity|unable to get local issuer certificate|self[- ]signed certificate`, 'i')
const PYTHON = /find Python|Could not find any Python|python3?: (command )?not found|No module named 'distutils'/i
const VISUAL_STUDIO = /Could not find any Visual Studio|find VS/i
const COMPILER = /\b(make|g\+\+|c\+\+|cc|gcc|clang\+\+): (command )?not found|not found: make|No such file or directory[^\n]*\b(make|g\+\+|c\+\+)\b|C\+\+ compiler/i
const NO_SPACE = /\bENOSPC\b|No space left on device/i
const HTTP_STATUS = /HTTPError: Response code (\d{3})|HTTP(?:Error)?[^\n]*\b(404|403|401|5\d\d)\b/

/** The line of the output that names the cause best: the first one matching, cut short. */
function evidence(output, pattern) {
  const line = output.split('\n').find((candidate) => pattern.test(candidate)) ?? ''
  const text = line.trim().replace(/^((Caused by|Error|TypeError|gyp ERR!|npm error)[:\s]+)+/i, '')
  return text.length > 120 ? `${text.slice(0, 117)}…` : text
}

/** Which of the programs node-gyp needs are on PATH (where it looks on this platform). */
export function buildTools(env = process.env, platform = process.platform) {
  const dirs = (env.PATH ?? env.Path ?? '').split(delimiter).filter(Boolean)
  const extensions = platform === 'win32' ? ['.exe', '.cmd', '.bat'] : ['']
  const has = (name) => dirs.some((dir) => extensions.some((extension) => existsSync(join(dir, name + extension))))
  return {
    python: has('python3') || has('python') || Boolean(env.PYTHON || env.npm_config_python),
    make: platform === 'win32' || has('make'),
    compiler: platform === 'win32' || ['c++', 'g++', 'clang++'].some(has)
  }
}

/** The build tools missing from PATH, named for a person ("python3, make and a C++ compiler"). */
function missingTools(tools) {
  const missing = [!tools.python && 'python3', !tools.make && 'make', !tools.compiler && 'a C++ compiler'].filter(Boolean)
  return missing.length > 1 ? `${missing.slice(0, -1).join(', ')} and ${missing.at(-1)}` : missing[0] ?? ''
}

/**
 * The cause of a failed step, as data: `network` (a download could not be made), `download` (the
 * server refused it), `tools` (no Python or C++ toolchain), `disk`, or `other`. `detail` is the
 * line of output that shows it, or what is missing.
 */
export function diagnose(output, tools) {
  if (NO_SPACE.test(output)) return { cause: 'disk', detail: evidence(output, NO_SPACE) }
  if (NETWORK.test(output)) {
    // node-gyp words a failed header download as a paragraph about proxies and hides the error code.
    if (/network connectivity/i.test(output) && !NETWORK_CODE.test(output)) return { cause: 'network', detail: "Electron's headers could not be downloaded" }
    // The error code says most ("getaddrinfo ENOTFOUND github.com", not "fetch failed").
    const coded = /(?:\b(?:getaddrinfo|connect|read|write) )?\b(?:ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|UND_ERR_CONNECT_TIMEOUT)\b(?: [\w.:[\]-]+)?/.exec(output)
    return { cause: 'network', detail: coded ? coded[0] : evidence(output, NETWORK) }
  }
  if (HTTP_STATUS.test(output)) return { cause: 'download', detail: evidence(output, HTTP_STATUS) }
  const missing = tools ? missingTools(tools) : ''
  if (missing) return { cause: 'tools', detail: `${missing} not found on PATH` }
  if (PYTHON.test(output)) return { cause: 'tools', detail: evidence(output, PYTHON) }
  if (VISUAL_STUDIO.test(output)) return { cause: 'tools', detail: evidence(output, VISUAL_STUDIO) }
  if (COMPILER.test(output)) return { cause: 'tools', detail: evidence(output, COMPILER) }
  const last = output.split('\n').map((line) => line.trim()).filter((line) => line && !/^at /.test(line)).at(-1) ?? ''
  return { cause: 'other', detail: last.length > 120 ? `${last.slice(0, 117)}…` : last }
}

const WITHOUT_ELECTRON = 'Without Electron, Cairn runs in your browser: "npm run demo" (a scripted model, no key needed) or "npm run build && npm run -s cairn -- serve".'

const INSTALL_TOOLS = {
  linux: 'Debian/Ubuntu: sudo apt-get install python3 make g++',
  darwin: 'macOS: xcode-select --install',
  win32: 'Windows: Visual Studio Build Tools with "Desktop development with C++", and Python 3'
}

const CAUSE_WORDS = {
  network: 'no network',
  download: 'the download was refused',
  tools: 'no C++ build tools',
  disk: 'the disk is full',
  other: 'it failed'
}

/**
 * The lines `npm start` prints for a failed step: what failed and why, how to retry (and where the
 * tool's full output is), and what works without Electron.
 * step: 'electron' (downloading Electron) or 'native' (building better-sqlite3 for it).
 */
export function problemLines({ step, electronVersion, problem, log, platform = process.platform }) {
  const what = step === 'electron' ? `Electron ${electronVersion} could not be downloaded` : `better-sqlite3 could not be built for Electron ${electronVersion}`
  const because = `${CAUSE_WORDS[problem.cause]}${problem.detail ? ` (${problem.detail})` : ''}`
  let retry
  if (problem.cause === 'network' || problem.cause === 'download') {
    retry =
      step === 'electron'
        ? 'Run "npm start" again when online (or set ELECTRON_MIRROR to a mirror you can reach).'
        : 'Run "npm start" again when online: the build needs Electron\'s headers from electronjs.org.'
  } else if (problem.cause === 'tools') {
    retry = `Install the build tools (${INSTALL_TOOLS[platform] ?? INSTALL_TOOLS.linux}), then run "npm start" again.`
  } else if (problem.cause === 'disk') {
    retry = 'Free some disk space, then run "npm start" again.'
  } else {
    retry = 'Run "npm start" again; if it fails the same way, the log below says more.'
  }
  return [`${what}: ${because}.`, `${retry} Full output: ${log}`, WITHOUT_ELECTRON]
}
