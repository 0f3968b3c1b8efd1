#!/usr/bin/env node
// Static security check of the built app (after `npm run build`): fails (exit 1) on any
// high-severity finding in out/main/**/*.js, out/preload/**/*.js and out/renderer/*.html.
//
//   node scripts/check-electron-security.mjs [--out DIR] [--html DIR] [--json]
//
// --out: the build folder (default: out); --html: where the pages are (default: <out>/renderer).
// Exit codes: 0 clean, 1 high-severity findings, 2 nothing to check (build first).
// Heuristic by design (it reads bundles, it does not execute them); the smoke test checks the
// running behaviour. @doyensec/electronegativity can be run as an extra, advisory pass (see README).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'

function parseArgs(argv) {
  const options = { out: 'out', html: null, json: false }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--json') options.json = true
    else if (arg === '--out') options.out = argv[++i]
    else if (arg === '--html') options.html = argv[++i]
    else {
      console.error(`check-electron-security: unknown argument ${arg}. Usage: [--out DIR] [--html DIR] [--json]`)
      process.exit(2)
    }
  }
  options.out = resolve(options.out)
  options.html = resolve(options.html ?? join(options.out, 'renderer'))
  return options
}

function filesUnder(dir, pattern) {
  if (!existsSync(dir)) return []
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return filesUnder(path, pattern)
    return pattern.test(name) ? [path] : []
  })
}

/** Drops comment lines (bundlers put comments on their own lines) so prose cannot trigger a rule. */
function codeOnly(text) {
  return text.replace(/^\s*\/\*[\s\S]*?\*\/\s*$/gm, (block) => block.replace(/[^\n]/g, ' ')).replace(/^\s*\/\/.*$/gm, (line) => ' '.repeat(line.length))
}

function lineOf(text, index) {
  return text.slice(0, index).split('\n').length
}

const TRUE = String.raw`(?:true|!0)`
const FALSE = String.raw`(?:false|!1)`

/** Dangerous values in webPreferences (or anywhere in main: they only mean one thing). */
const PREFERENCE_RULES = [
  { id: 'node-integration', re: new RegExp(String.raw`\bnodeIntegration(?:InWorker|InSubFrames)?\s*:\s*${TRUE}\b`, 'g'), message: 'nodeIntegration enabled: a renderer XSS becomes code execution' },
  { id: 'context-isolation', re: new RegExp(String.raw`\bcontextIsolation\s*:\s*${FALSE}\b`, 'g'), message: 'contextIsolation disabled: page scripts can reach the preload' },
  { id: 'sandbox', re: new RegExp(String.raw`\bsandbox\s*:\s*${FALSE}\b`, 'g'), message: 'sandbox disabled: renderers get Node-capable preloads' },
  { id: 'web-security', re: new RegExp(String.raw`\bwebSecurity\s*:\s*${FALSE}\b`, 'g'), message: 'webSecurity disabled: same-origin policy off' },
  { id: 'insecure-content', re: new RegExp(String.raw`\ballowRunningInsecureContent\s*:\s*${TRUE}\b`, 'g'), message: 'allowRunningInsecureContent enabled' },
  { id: 'experimental-features', re: new RegExp(String.raw`\bexperimentalFeatures\s*:\s*${TRUE}\b`, 'g'), message: 'experimentalFeatures enabled' },
  { id: 'blink-features', re: /\benableBlinkFeatures\s*:/g, message: 'enableBlinkFeatures set' },
  { id: 'webview-tag', re: new RegExp(String.raw`\bwebviewTag\s*:\s*${TRUE}\b`, 'g'), message: 'webviewTag enabled' }
]

const CODE_RULES = [
  { id: 'eval', re: /(?<![\w$.])eval\s*\(/g, message: 'eval() in main/preload code' },
  { id: 'new-function', re: /\bnew\s+Function\s*\(/g, message: 'new Function() in main/preload code' }
]

/** Functions whose body checks a URL's protocol against https: (e.g. externalUrl). */
function protocolGuards(code) {
  const guards = new Set()
  for (const match of code.matchAll(/function\s+([\w$]+)\s*\([^)]*\)\s*\{/g)) {
    const body = code.slice(match.index, match.index + 800)
    if (/\.protocol\b/.test(body) && /["'`]https:["'`]/.test(body)) guards.add(match[1])
  }
  return guards
}

function checkOpenExternal(file, code, add) {
  const guards = protocolGuards(code)
  for (const match of code.matchAll(/\bshell\s*\)?\s*\.\s*openExternal\s*\(/g)) {
    // Look only inside the enclosing function (from the nearest `function` or `=>` before the call).
    const start = Math.max(code.lastIndexOf('function', match.index), code.lastIndexOf('=>', match.index), match.index - 1500, 0)
    const before = code.slice(start, match.index)
    const guarded = /\.protocol\b/.test(before) || [...guards].some((name) => new RegExp(String.raw`(?<![\w$])${name.replace(/\$/g, '\\$')}\s*\(`).test(before))
    if (!guarded) add('high', 'open-external-unguarded', file, lineOf(code, match.index), 'shell.openExternal() without a protocol check (parse the URL, allow https: only)')
  }
}

/**
 * Where each bundled module starts: the bundler marks it with a comment line naming its source
 * (`// electron/core/x.ts`, `// node_modules/zod/v4/core/util.js`). Read from the raw text, before
 * codeOnly() blanks the comments (it keeps every offset).
 */
function moduleStarts(raw) {
  return [...raw.matchAll(/^\/\/ (\S+\/\S+\.[cm]?[jt]sx?(?:\?\S*)?)$/gm)].map((match) => ({ index: match.index, source: match[1] }))
}

/** The npm package a bundled module came from, or null for our own code. */
function packageAt(starts, index) {
  let source = null
  for (const start of starts) {
    if (start.index > index) break
    source = start.source
  }
  const inside = source?.split('node_modules/').at(-1)
  if (!source?.includes('node_modules/') || !inside) return null
  const parts = inside.split('/')
  return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]
}

function checkMain(file, code, add, starts = []) {
  for (const rule of PREFERENCE_RULES) {
    for (const match of code.matchAll(rule.re)) add('high', rule.id, file, lineOf(code, match.index), rule.message)
  }
  // Our code never evaluates strings; a bundled package may (zod's and ajv's compiled validators probe
  // for new Function): that is reported, but only our own code fails the check.
  for (const rule of CODE_RULES) {
    for (const match of code.matchAll(rule.re)) {
      const vendor = packageAt(starts, match.index)
      if (vendor) add('low', rule.id, file, lineOf(code, match.index), `${rule.message}, in the bundled package ${vendor}`)
      else add('high', rule.id, file, lineOf(code, match.index), rule.message)
    }
  }
  checkOpenExternal(file, code, add)
}

function checkNavigation(mainFiles, add) {
  const all = mainFiles.map(({ code }) => code).join('\n')
  const first = mainFiles.find(({ code }) => /\bBrowserWindow\s*\(/.test(code))
  if (!first) return
  if (!/\.setWindowOpenHandler\s*\(/.test(all)) add('high', 'window-open-handler', first.file, 0, 'windows are created but no setWindowOpenHandler denies new windows')
  if (!/["'`]will-navigate["'`]/.test(all)) add('high', 'will-navigate', first.file, 0, 'windows are created but nothing handles will-navigate')
}

function checkPreload(file, code, add) {
  for (const rule of [...PREFERENCE_RULES, ...CODE_RULES]) {
    for (const match of code.matchAll(rule.re)) add('high', rule.id, file, lineOf(code, match.index), rule.message)
  }
  const exposures = [...code.matchAll(/\bexposeIn(?:MainWorld|IsolatedWorld)\s*\(\s*([^,]*),/g)]
  const keys = exposures.map((match) => match[1].trim())
  for (const [index, key] of keys.entries()) {
    if (key !== '"cairn"' && key !== "'cairn'") add('high', 'preload-exposure', file, lineOf(code, exposures[index].index), `the preload exposes ${key}; only window.cairn is allowed`)
  }
  if (keys.length > 1) add('high', 'preload-exposure', file, lineOf(code, exposures[1].index), `the preload calls exposeInMainWorld ${keys.length} times; only window.cairn is allowed`)
  for (const match of code.matchAll(/\bipcRenderer\s*(?=[,}])|\bipcRenderer\s*:/g)) {
    add('high', 'preload-raw-ipc', file, lineOf(code, match.index), 'the preload hands out ipcRenderer itself (any channel becomes reachable)')
  }
  for (const match of code.matchAll(/\brequire\(\s*["'`]([^"'`]+)["'`]\s*\)/g)) {
    if (match[1] !== 'electron') add('high', 'preload-require', file, lineOf(code, match.index), `the preload requires "${match[1]}"; a sandboxed preload can only require electron (bundle it into one file)`)
  }
}

function cspDirectives(policy) {
  const directives = new Map()
  for (const part of policy.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/)
    if (name) directives.set(name.toLowerCase(), values)
  }
  return directives
}

const SAFE_SCRIPT_SOURCE = /^(?:'self'|'none'|'strict-dynamic'|'wasm-unsafe-eval'|'nonce-[^']+'|'sha(?:256|384|512)-[^']+')$/i

function checkHtml(file, html, add) {
  const meta = [...html.matchAll(/<meta\b[^>]*>/gi)].map((match) => match[0]).find((tag) => /http-equiv\s*=\s*["']?content-security-policy/i.test(tag))
  if (!meta) {
    add('high', 'csp-missing', file, 0, 'no Content-Security-Policy meta tag')
  } else {
    const policy = /content\s*=\s*"([^"]*)"|content\s*=\s*'([^']*)'/i.exec(meta)
    const directives = cspDirectives(policy?.[1] ?? policy?.[2] ?? '')
    const scripts = directives.get('script-src') ?? directives.get('default-src')
    if (!scripts) add('high', 'csp-script-src', file, 0, 'the CSP sets neither script-src nor default-src')
    for (const [name, values] of directives) {
      if (values.some((value) => value.toLowerCase() === "'unsafe-eval'")) add('high', 'csp-unsafe-eval', file, 0, `the CSP allows 'unsafe-eval' (${name})`)
    }
    for (const source of scripts ?? []) {
      if (source.toLowerCase() === "'unsafe-eval'") continue
      if (!SAFE_SCRIPT_SOURCE.test(source)) add('high', 'csp-script-source', file, 0, `the CSP lets scripts come from ${source}`)
    }
  }
  for (const match of html.matchAll(/<script\b[^>]*\bsrc\s*=\s*["']?(?:https?:)?\/\//gi)) add('high', 'remote-script', file, lineOf(html, match.index), 'a script is loaded from another host')
  for (const match of html.matchAll(/<webview\b/gi)) add('high', 'webview', file, lineOf(html, match.index), 'a <webview> tag')
}

function checkBuild({ out, html }) {
  const findings = []
  const add = (severity, id, file, line, message) => findings.push({ severity, id, file: relative(process.cwd(), file), line, message })
  const read = (file) => {
    const raw = readFileSync(file, 'utf8')
    return { file, code: codeOnly(raw), starts: moduleStarts(raw) }
  }
  const mainFiles = filesUnder(join(out, 'main'), /\.[cm]?js$/).map(read)
  const preloadFiles = filesUnder(join(out, 'preload'), /\.[cm]?js$/).map(read)
  const pages = filesUnder(html, /\.html$/).filter((file) => relative(html, file).split(/[\\/]/).length === 1)
  for (const { file, code, starts } of mainFiles) checkMain(file, code, add, starts)
  checkNavigation(mainFiles, add)
  for (const { file, code } of preloadFiles) checkPreload(file, code, add)
  for (const file of pages) checkHtml(file, readFileSync(file, 'utf8'), add)
  return { findings, checked: { main: mainFiles.length, preload: preloadFiles.length, html: pages.length } }
}

function main() {
  const options = parseArgs(process.argv.slice(2))
  const { findings, checked } = checkBuild(options)
  if (checked.main === 0 || checked.preload === 0 || checked.html === 0) {
    console.error(`check-electron-security: nothing to check (main: ${checked.main}, preload: ${checked.preload} files under ${options.out}; pages: ${checked.html} under ${options.html}). Run "npm run build" first.`)
    process.exit(2)
  }
  const high = findings.filter((finding) => finding.severity === 'high')
  if (options.json) {
    console.log(JSON.stringify({ checked, findings }, null, 2))
  } else {
    for (const finding of findings.filter((finding) => finding.severity === 'high')) {
      console.log(`${finding.severity.toUpperCase()} ${finding.id}: ${finding.file}${finding.line ? `:${finding.line}` : ''}: ${finding.message}`)
    }
    const low = findings.length - high.length
    console.log(`check-electron-security: ${checked.main} main file(s), ${checked.preload} preload file(s), ${checked.html} page(s): ${high.length ? `${high.length} high-severity finding(s)` : 'no high-severity findings'}${low ? ` (${low} in bundled packages, listed with --json)` : ''}.`)
  }
  process.exit(high.length ? 1 : 0)
}

main()
