/** Hand-drawn 24×24 stroke icons (no icon font: the CSP allows no external assets). */
const paths = {
  chat: ['M20.5 12a8.5 8.5 0 0 1-12.4 7.6L3.5 20.5l1-4.4A8.5 8.5 0 1 1 20.5 12z'],
  timeline: ['M12 7.5V12l3 2', 'M3.5 12a8.5 8.5 0 1 0 2.6-6.1', 'M3.5 4v4h4'],
  skills: ['M5 4.5A1.5 1.5 0 0 1 6.5 3H19v15H6.5A1.5 1.5 0 0 0 5 19.5z', 'M5 19.5A1.5 1.5 0 0 0 6.5 21H19v-3', 'M9 7.5h6'],
  memory: ['M4 6c0-1.7 3.6-3 8-3s8 1.3 8 3-3.6 3-8 3-8-1.3-8-3z', 'M4 6v12c0 1.7 3.6 3 8 3s8-1.3 8-3V6', 'M4 12c0 1.7 3.6 3 8 3s8-1.3 8-3'],
  settings: ['M4 6.5h9', 'M17 6.5h3', 'M4 12h3', 'M11 12h9', 'M4 17.5h11', 'M19 17.5h1', 'M15 4.5v4', 'M9 10v4', 'M17 15.5v4'],
  search: ['M10.5 17.5a7 7 0 1 0 0-14 7 7 0 0 0 0 14z', 'M20 20l-4.5-4.5'],
  plus: ['M12 5v14', 'M5 12h14'],
  // New chat: a speech bubble with a plus (the pencil is Rename's and Edit's).
  compose: ['M20.5 12a8.5 8.5 0 0 1-12.4 7.6L3.5 20.5l1-4.4A8.5 8.5 0 1 1 20.5 12z', 'M12 8.5v7', 'M8.5 12h7'],
  send: ['M12 19V5', 'M5.5 11.5 12 5l6.5 6.5'],
  copy: ['M9 9h10a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H9a1 1 0 0 1-1-1V10a1 1 0 0 1 1-1z', 'M5 15H4.5a1 1 0 0 1-1-1V4.5a1 1 0 0 1 1-1H14a1 1 0 0 1 1 1V5'],
  check: ['M5 12.5l4.5 4.5L19 7.5'],
  close: ['M6 6l12 12', 'M18 6 6 18'],
  chevronRight: ['M9.5 6l6 6-6 6'],
  chevronDown: ['M6 9.5l6 6 6-6'],
  regenerate: ['M20 12a8 8 0 1 1-2.4-5.7', 'M20 4.5V10h-5.5'],
  tool: ['M14.5 6.5a4 4 0 0 0-5.2 5.2L3.5 17.5l3 3 5.8-5.8a4 4 0 0 0 5.2-5.2l-2.6 2.6-2.5-.5-.5-2.5z'],
  alert: ['M12 3.5 21 19.5H3z', 'M12 10v4.5', 'M12 17.2v.1'],
  info: ['M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z', 'M12 11v5.5', 'M12 7.8v.1'],
  external: ['M14 4h6v6', 'M20 4l-8.5 8.5', 'M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5'],
  trash: ['M4 7h16', 'M10 11v6', 'M14 11v6', 'M6 7l1 13h10l1-13', 'M9 7V4h6v3'],
  edit: ['M12 20h8', 'M16.5 3.5a2.1 2.1 0 0 1 3 3L7.5 18.5l-4 1 1-4z'],
  revert: ['M9 14 4 9l5-5', 'M4 9h10.5a5.5 5.5 0 0 1 0 11H11'],
  lock: ['M6.5 11h11a1.5 1.5 0 0 1 1.5 1.5v7a1.5 1.5 0 0 1-1.5 1.5h-11A1.5 1.5 0 0 1 5 19.5v-7A1.5 1.5 0 0 1 6.5 11z', 'M8.5 11V7.5a3.5 3.5 0 0 1 7 0V11'],
  sparkle: ['M12 3.5l1.9 5.1 5.1 1.9-5.1 1.9L12 17.5l-1.9-5.1L5 10.5l5.1-1.9z', 'M18.5 16.5l.7 1.8 1.8.7-1.8.7-.7 1.8-.7-1.8-1.8-.7 1.8-.7z'],
  folder: ['M3.5 6.5A1.5 1.5 0 0 1 5 5h4.2l2 2.5H19a1.5 1.5 0 0 1 1.5 1.5v9a1.5 1.5 0 0 1-1.5 1.5H5A1.5 1.5 0 0 1 3.5 18z'],
  file: ['M14 3H6.5A1.5 1.5 0 0 0 5 4.5v15A1.5 1.5 0 0 0 6.5 21h11a1.5 1.5 0 0 0 1.5-1.5V8z', 'M14 3v5h5'],
  user: ['M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8z', 'M4.5 20.5a7.5 7.5 0 0 1 15 0'],
  plug: ['M9 3v5', 'M15 3v5', 'M6.5 8h11v3a5.5 5.5 0 0 1-11 0z', 'M12 16.5V21'],
  diff: ['M6 3v12', 'M3 6h6', 'M15 18h6', 'M18 9v12', 'M9 18H7.5', 'M15 6h1.5'],
  inbox: ['M3.5 13.5h5l1.5 2.5h4l1.5-2.5h5', 'M6 5h12l2.5 8.5V19a1 1 0 0 1-1 1h-15a1 1 0 0 1-1-1v-5.5z'],
  pin: ['M9 3.5h6l-1 5.5 3 3v1.5H7V12l3-3z', 'M12 13.5V20.5'],
  eyeOff: ['M3.5 3.5l17 17', 'M10.2 5.7A9 9 0 0 1 12 5.5c4.8 0 8.4 4 9.3 6.5-.4 1.1-1.2 2.5-2.4 3.7', 'M6.7 7.2C4.7 8.6 3.3 10.5 2.7 12c.9 2.5 4.5 6.5 9.3 6.5 1.6 0 3-.4 4.3-1.1', 'M9.9 10a3 3 0 0 0 4.1 4.1'],
  ban: ['M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z', 'M5.6 5.6l12.8 12.8'],
  sidebar: ['M5 4.5h14A1.5 1.5 0 0 1 20.5 6v12a1.5 1.5 0 0 1-1.5 1.5H5A1.5 1.5 0 0 1 3.5 18V6A1.5 1.5 0 0 1 5 4.5z', 'M9.5 4.5v15'],
  attach: ['M20 11.5l-8 8a5 5 0 0 1-7-7l8.5-8.5a3.3 3.3 0 0 1 4.7 4.7l-8.5 8.5a1.7 1.7 0 0 1-2.4-2.4l7.7-7.7'],
  image: ['M5 4.5h14A1.5 1.5 0 0 1 20.5 6v12a1.5 1.5 0 0 1-1.5 1.5H5A1.5 1.5 0 0 1 3.5 18V6A1.5 1.5 0 0 1 5 4.5z', 'M3.5 16.5l5-5 4 4 2.5-2.5 5.5 5.5', 'M15.5 8.5v.1'],
  incognito: ['M17.9 17.9A10 10 0 0 1 12 20c-6.5 0-10-8-10-8a18 18 0 0 1 5-5.9', 'M9.9 4.2A9 9 0 0 1 12 4c6.5 0 10 8 10 8a18 18 0 0 1-2.2 3.2', 'M14.1 14.1a3 3 0 1 1-4.2-4.2', 'M3 3l18 18']
} as const

export type IconName = keyof typeof paths

export function Icon({ name, size = 18, className }: { name: IconName; size?: number; className?: string }): React.JSX.Element {
  return (
    <svg
      className={className ? `icon ${className}` : 'icon'}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.7}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {paths[name].map((d) => (
        <path key={d} d={d} />
      ))}
    </svg>
  )
}

/** Three stacked stones. */
export function Logo({ size = 22 }: { size?: number }): React.JSX.Element {
  return (
    <svg className="logo" width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <ellipse cx="12" cy="19" rx="8.5" ry="3.2" fill="currentColor" opacity="0.9" />
      <ellipse cx="12" cy="12.6" rx="6" ry="2.7" fill="currentColor" opacity="0.72" />
      <ellipse cx="12.4" cy="7" rx="3.8" ry="2.2" fill="currentColor" opacity="0.55" />
    </svg>
  )
}
