// Part of `npm run lint`, in the spirit of VS Code's `code-no-unexternalized-strings`: the core reports
// failures as keys with parameters (shared/error-keys.ts) and every face words them from
// shared/i18n, so an English sentence where a person will read it (an error, an error envelope) does
// not belong in electron/core. Model-facing text (prompts, tool results) and logs are English on purpose.
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import ts from 'typescript'

const CORE = 'electron/core'

/**
 * Files and folders (relative to electron/core, a trailing `/` for a folder) whose sentences are
 * for the model: prompts, tool results, and the errors tools throw (runTool returns them to the model).
 */
export const MODEL_FACING = [
  'agent/', // the system prompt, compression's summaries, the chat loop's tool plumbing; turn errors are worded by their code
  'learning/worker/', // review prompts, the review runner's tool results (the host side is app code)
  'staging/', // the review's scratch tools
  'tools/', // the tool contract: argument errors go back to the model
  'memory/memory-tool.ts', // the memory tool's results
  'memory/messages.ts', // every text the memory tool shows the model
  'memory/archive-messages.ts', // every text about the archive the memory tool shows the model
  'skills/skill-tools.ts', // the skill tools' results
  'skills/skill-file.ts', // SKILL.md validation, returned to the model by the skill tools (the editor shows it too: not yet worded)
  'skills/skill-paths.ts', // the skill tools' file_path checks, returned to the model
  'workspace/', // the workspace tools' results
  'mcp/mcp-tools.ts', // the user's MCP servers' tools as the model sees them
  'mcp/tool-search.ts', // mcp_tool_search's results
  'mcp/server-runner.ts', // a tool call's failures (McpCallError), the model's tool result
  'mcp-server/', // Cairn's MCP tools, resources and JSON-RPC errors: read by another agent's model
  'attachments/' // attachment problems go to the model as text; people get them worded (ATTACHMENT params)
]

/** `// words-ok: why` on the line (or the line before) lets one justified sentence through. */
const ESCAPE = /\/\/\s*words-ok\b/

/**
 * A sentence: a capitalised word, then at least two more words, e.g. `There is no conversation ${id}.`;
 * or a template that opens with a substitution and reads on as one to its full stop, e.g.
 * `${name} holds ${path}, a link; it is refused.` (a lowercase fragment without a full stop is not).
 */
export function looksLikeSentence(text) {
  const trimmed = text.trim()
  if (/^(?:[A-Z][a-z’']*|I|A)\s+[\p{L}\d"“‘'#$({[]\S*(?:\s+\S+)+/u.test(trimmed)) return true
  return /^\$\{\}\s+[a-z]\S*(?:\s+\S+){3,}[.!?]["”')]*$/u.test(trimmed)
}

/** The text of a string or template literal with its substitutions as `${}`; null for anything else. */
function literalText(node) {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text
  if (ts.isTemplateExpression(node)) return node.head.text + node.templateSpans.map((span) => '${}' + span.literal.text).join('')
  return null
}

/**
 * The literals a person would read when `node` is a user-facing position: an error's arguments, an
 * error envelope's message, and the `error` of a result object the faces show (`{ ok: false, error }`).
 */
function userFacingLiterals(node) {
  if (ts.isNewExpression(node) && /Error$/.test(node.expression.getText())) return node.arguments ?? []
  if (ts.isObjectLiteralExpression(node)) {
    const named = (name) => node.properties.filter((p) => ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === name).map((p) => p.initializer)
    const names = node.properties.map((p) => (p.name && ts.isIdentifier(p.name) ? p.name.text : null))
    // A refusal with a code is worded by its code (the English beside it is the detail); one without shows its English.
    // An error envelope under `error` is checked as an object of its own.
    const refusal = node.properties.some((p) => ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === 'ok' && p.initializer.kind === ts.SyntaxKind.FalseKeyword)
    return [...(names.includes('code') ? named('message') : []), ...(refusal && !names.includes('code') ? named('error').filter((value) => !ts.isObjectLiteralExpression(value)) : [])]
  }
  return []
}

/** Sentence literals in user-facing positions of one source text, with their lines. */
export function sentencesIn(fileName, text) {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  const lines = text.split('\n')
  const found = []
  const visit = (node) => {
    for (const argument of userFacingLiterals(node)) {
      // A sentence may sit inside a conditional or a concatenation: look at every literal under the argument.
      const check = (part) => {
        const literal = literalText(part)
        if (literal !== null) {
          if (!looksLikeSentence(literal)) return
          const line = source.getLineAndCharacterOfPosition(part.getStart()).line
          if (ESCAPE.test(lines[line] ?? '') || ESCAPE.test(lines[line - 1] ?? '')) return
          found.push({ line: line + 1, text: literal })
          return
        }
        ts.forEachChild(part, check)
      }
      check(argument)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

function allowed(path, list) {
  return list.some((entry) => (entry.endsWith('/') ? path.startsWith(entry) : path === entry || path.startsWith(entry)))
}

function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.ts$/.test(name) && !/\.d\.ts$/.test(name) ? [path] : []
  })
}

/** Every sentence literal in a user-facing position of electron/core outside the allowlists. */
export function unexternalized(root, { allowlists = true } = {}) {
  let files
  try {
    files = sourceFiles(join(root, CORE))
  } catch {
    return []
  }
  return files.flatMap((file) => {
    const path = relative(join(root, CORE), file).split(sep).join('/')
    if (allowlists && allowed(path, MODEL_FACING)) return []
    return sentencesIn(file, readFileSync(file, 'utf8')).map((hit) => ({ file: `${CORE}/${path}`, ...hit }))
  })
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = process.argv.find((arg, i) => i > 1 && !arg.startsWith('--')) ?? process.cwd()
  const hits = unexternalized(root, { allowlists: !process.argv.includes('--all') })
  for (const { file, line, text } of hits) console.error(`${file}:${line}: an English sentence for people: "${text}". Throw it as a key from shared/error-keys.ts (IpcError.of, a KeyedError) and word it in shared/i18n.`)
  if (hits.length) process.exit(1)
  console.log('✔ no English sentences for people in electron/core')
}
