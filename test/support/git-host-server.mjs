// A git smart-HTTP host for tests: `git http-backend` (CGI) behind node:http, in its own process so a test's
// git client and the host never share an event loop. Started by git-host.ts with an IPC channel:
//   argv[2]  the folder holding the bare repositories (GIT_PROJECT_ROOT)
//   stdout   one line `{"port":N}` once listening
//   messages { type: 'token', user, password } requires Basic auth on every request (user null: none);
//            { type: 'dropNextPush', afterBytes } breaks the next receive-pack request after that many body bytes.
//   Each message is answered with { type: 'ack', id }.
import { spawn } from 'node:child_process'
import { createServer } from 'node:http'

const projectRoot = process.argv[2]
const backend = process.env.GIT_HTTP_BACKEND ?? '/usr/lib/git-core/git-http-backend'
let credentials = null
let dropPushAfter = null

process.on('message', (message) => {
  if (message.type === 'token') credentials = message.user === null ? null : `${message.user}:${message.password}`
  if (message.type === 'dropNextPush') dropPushAfter = message.afterBytes
  process.send({ type: 'ack', id: message.id })
})
process.on('disconnect', () => process.exit(0))

function authorizedUser(request) {
  if (credentials === null) return { ok: true, user: null }
  const header = request.headers.authorization ?? ''
  const match = /^Basic\s+(.+)$/i.exec(header)
  const given = match ? Buffer.from(match[1], 'base64').toString('utf8') : null
  return given === credentials ? { ok: true, user: credentials.split(':')[0] } : { ok: false }
}

function cgiEnvironment(request, url, user) {
  const env = {
    PATH: process.env.PATH,
    GIT_PROJECT_ROOT: projectRoot,
    GIT_HTTP_EXPORT_ALL: '1',
    GATEWAY_INTERFACE: 'CGI/1.1',
    SERVER_PROTOCOL: `HTTP/${request.httpVersion}`,
    REQUEST_METHOD: request.method,
    PATH_INFO: decodeURIComponent(url.pathname),
    QUERY_STRING: url.search.replace(/^\?/, ''),
    REMOTE_ADDR: request.socket.remoteAddress ?? '127.0.0.1'
  }
  if (request.headers['content-type']) env.CONTENT_TYPE = request.headers['content-type']
  // Without a length (a chunked body) http-backend reads the body to its end.
  if (request.headers['content-length']) env.CONTENT_LENGTH = request.headers['content-length']
  if (user !== null) {
    env.REMOTE_USER = user
    env.AUTH_TYPE = 'Basic'
  }
  // Every header as HTTP_*: http-backend reads HTTP_CONTENT_ENCODING (gzip bodies) and HTTP_GIT_PROTOCOL (v2) itself.
  for (const [name, value] of Object.entries(request.headers)) {
    if (name === 'authorization') continue
    env[`HTTP_${name.toUpperCase().replace(/-/g, '_')}`] = Array.isArray(value) ? value.join(', ') : value
  }
  return env
}

/** Reads the CGI's header block from its stdout, then streams the rest as the response body. */
function relayCgiOutput(cgi, response) {
  let pending = Buffer.alloc(0)
  let headersDone = false
  cgi.stdout.on('data', (chunk) => {
    if (headersDone) {
      response.write(chunk)
      return
    }
    pending = Buffer.concat([pending, chunk])
    const text = pending.toString('latin1')
    const crlf = text.indexOf('\r\n\r\n')
    const lf = text.indexOf('\n\n')
    const end = crlf !== -1 && (lf === -1 || crlf < lf) ? { at: crlf, length: 4 } : lf !== -1 ? { at: lf, length: 2 } : null
    if (end === null) return
    headersDone = true
    let status = 200
    for (const line of text.slice(0, end.at).split(/\r?\n/)) {
      const colon = line.indexOf(':')
      if (colon === -1) continue
      const name = line.slice(0, colon).trim()
      const value = line.slice(colon + 1).trim()
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10)
      else response.setHeader(name, value)
    }
    response.writeHead(status)
    response.write(pending.subarray(end.at + end.length))
  })
  cgi.stdout.on('end', () => {
    if (!headersDone) response.writeHead(502)
    response.end()
  })
}

const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://localhost')
  const auth = authorizedUser(request)
  if (!auth.ok) {
    request.resume()
    response.writeHead(401, { 'WWW-Authenticate': 'Basic realm="cairn test git host"', 'Content-Type': 'text/plain' })
    response.end('authentication required\n')
    return
  }
  const cgi = spawn(backend, [], { env: cgiEnvironment(request, url, auth.user), stdio: ['pipe', 'pipe', 'pipe'] })
  cgi.stderr.on('data', (chunk) => process.stderr.write(chunk))
  cgi.stdin.on('error', () => {}) // the CGI may exit before reading all of a refused body
  // A client that goes away mid-request would leave the backend waiting for the rest of the body.
  response.on('close', () => {
    if (!response.writableFinished) cgi.kill('SIGKILL')
  })
  const isPush = request.method === 'POST' && url.pathname.endsWith('/git-receive-pack')
  if (isPush && dropPushAfter !== null) {
    const limit = dropPushAfter
    dropPushAfter = null
    let sent = 0
    request.on('data', (chunk) => {
      if (sent === null) return
      if (sent + chunk.length < limit) {
        sent += chunk.length
        cgi.stdin.write(chunk)
        return
      }
      cgi.stdin.write(chunk.subarray(0, Math.max(0, limit - sent)))
      // The connection breaks mid-upload: the backend dies before it could take the pack, the client sees a reset.
      sent = null
      cgi.kill('SIGKILL')
      request.socket.destroy()
    })
    return
  }
  request.pipe(cgi.stdin)
  relayCgiOutput(cgi, response)
})

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`)
})
