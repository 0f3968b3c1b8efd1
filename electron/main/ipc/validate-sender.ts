import { cutEnd } from '../../core/text/cut'
import { isAppUrl, type AppOrigin } from '../windows/app-origin'

export type WindowKind = 'main' | 'quick'

/** What main knows about one IPC request's sender (taken from the Electron event). */
export interface SenderFacts {
  /** Null when Electron could not tell which frame sent it (the frame navigated or was destroyed). */
  frame: { url: string; isMainFrame: boolean } | null
  webContentsId: number
  /** `webContents.getType()`: 'window' for our BrowserWindows, 'webview' for a <webview> tag. */
  webContentsType: string
}

export type SenderVerdict = { ok: true; kind: WindowKind } | { ok: false; reason: string }

/**
 * Trusts a request only from the main frame of one of our two windows showing one of our pages.
 * A sub-frame, a webview, a foreign page (after a navigation that slipped through) or an unknown
 * webContents is refused, whatever route it asks for.
 */
export function checkSender(facts: SenderFacts, windows: (id: number) => WindowKind | null, origin: AppOrigin): SenderVerdict {
  if (facts.webContentsType === 'webview') return { ok: false, reason: 'sent from a <webview>' }
  if (!facts.frame) return { ok: false, reason: 'the sending frame is gone' }
  if (!facts.frame.isMainFrame) return { ok: false, reason: 'sent from a sub-frame' }
  const kind = windows(facts.webContentsId)
  if (!kind) return { ok: false, reason: 'not one of the Cairn windows' }
  if (!isAppUrl(facts.frame.url, origin)) return { ok: false, reason: `page ${describeUrl(facts.frame.url)} is not a Cairn page` }
  return { ok: true, kind }
}

function describeUrl(url: string): string {
  return JSON.stringify(cutEnd(url, 120))
}
