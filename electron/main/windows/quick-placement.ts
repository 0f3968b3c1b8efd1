/**
 * What the desktop lets the quick prompt do. Wayland gives applications neither the pointer's
 * position (asking can even crash: electron/electron#41559) nor a way to stay above other windows,
 * so there it opens centred on the primary display and asks for neither.
 */
export interface QuickPlacement {
  followsPointer: boolean
  staysOnTop: boolean
}

export const EVERYWHERE: QuickPlacement = { followsPointer: true, staysOnTop: true }

/**
 * How the quick prompt can be placed on this desktop: everywhere but a native Wayland session
 * (Electron 38 and later run natively on Wayland when the session is Wayland, unless told
 * `--ozone-platform=x11`).
 */
export function quickPlacement(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, ozonePlatform: string): QuickPlacement {
  if (platform !== 'linux' || ozonePlatform === 'x11') return EVERYWHERE
  const wayland = ozonePlatform === 'wayland' || env.XDG_SESSION_TYPE === 'wayland' || Boolean(env.WAYLAND_DISPLAY)
  return wayland ? { followsPointer: false, staysOnTop: false } : EVERYWHERE
}
