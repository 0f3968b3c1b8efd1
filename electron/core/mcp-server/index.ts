export { createCairnMcpServer, type CairnMcpServerOptions } from './cairn-mcp-server'
export { startMcpHttpServer, type McpHttpOptions, type McpHttpServer } from './http-server'
export { serveMcpStdio } from './stdio'
export type { ServedHome } from './served-home'
