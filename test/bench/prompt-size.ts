/**
 * What a one-line message costs in a fresh data home: the system prompt and the tool definitions as
 * the chat sends them to the provider, measured on the scripted server's recorded requests with its
 * estimate (1 token ≈ 4 characters of the serialised request). Prints JSON:
 * `systemTokens`, `toolsTokens`, `oneLineTokens` (the whole first request), `afterToolCallTokens`
 * (the request after one `read_file` call), `turnWithToolCallTokens` (both requests of that turn)
 * and the heaviest tool definitions.
 *
 *   npm run bench:prompt
 */
import { measurePromptSize } from '../helpers/prompt-size'

void measurePromptSize().then((size) => console.log(JSON.stringify(size, null, 2)))
