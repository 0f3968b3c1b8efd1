/** The only two IPC channels: every request goes through one, every event through the other. */
export const REQUEST_CHANNEL = 'cairn:request'
export const EVENT_CHANNEL = 'cairn:event'
