#!/usr/bin/env node
// Draws Cairn's icons (a stack of three stones) and writes them as PNG files into resources/:
//   icon.png                 1024×1024 app icon (electron-builder makes .icns/.ico from it)
//   tray.png, tray@2x.png    16/32 px tray icon for Windows and Linux
//   trayTemplate.png, @2x    16/32 px black-on-transparent template image for the macOS menu bar
// No image library: shapes are sampled on a 4×4 grid per pixel (anti-aliasing) and encoded with node:zlib.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { deflateSync } from 'node:zlib'

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'resources')

/** Stones as ellipses in a unit square (y grows downwards), bottom to top. */
const STONES = [
  { cx: 0.5, cy: 0.74, rx: 0.34, ry: 0.13 },
  { cx: 0.49, cy: 0.52, rx: 0.25, ry: 0.105 },
  { cx: 0.51, cy: 0.33, rx: 0.16, ry: 0.085 }
]
const STONE_COLOURS = [[0xe8, 0xdc, 0xc6], [0xd6, 0xc4, 0xa2], [0xc4, 0xad, 0x84]]
const BACKGROUND = [0x1f, 0x5f, 0x5b]

function insideEllipse(x, y, s, grow = 0) {
  const dx = (x - s.cx) / (s.rx + grow)
  const dy = (y - s.cy) / (s.ry + grow)
  return dx * dx + dy * dy <= 1
}

function insideRoundedSquare(x, y, margin, radius) {
  const lo = margin
  const hi = 1 - margin
  if (x < lo || x > hi || y < lo || y > hi) return false
  const cx = Math.min(Math.max(x, lo + radius), hi - radius)
  const cy = Math.min(Math.max(y, lo + radius), hi - radius)
  return (x - cx) ** 2 + (y - cy) ** 2 <= radius * radius
}

/** Colour (RGBA 0..255) of one sample point, or null for transparent. */
function appSample(x, y) {
  if (!insideRoundedSquare(x, y, 0.06, 0.2)) return null
  for (let i = STONES.length - 1; i >= 0; i--) {
    if (insideEllipse(x, y, STONES[i])) return [...STONE_COLOURS[i], 255]
  }
  return [...BACKGROUND, 255]
}

function traySample(colour) {
  return (x, y) => {
    // From the top stone down: slightly fatter stones read better at 16 px, and a transparent rim
    // around each upper stone keeps the three apart in a one-colour silhouette.
    for (let i = STONES.length - 1; i >= 0; i--) {
      if (insideEllipse(x, y, STONES[i], 0.02)) return colour
      if (insideEllipse(x, y, STONES[i], 0.06)) return null
    }
    return null
  }
}

function render(size, sample, grid = 4) {
  const pixels = Buffer.alloc(size * size * 4)
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0, g = 0, b = 0, a = 0
      for (let sy = 0; sy < grid; sy++) {
        for (let sx = 0; sx < grid; sx++) {
          const colour = sample((px + (sx + 0.5) / grid) / size, (py + (sy + 0.5) / grid) / size)
          if (!colour) continue
          const alpha = colour[3] / 255
          r += colour[0] * alpha
          g += colour[1] * alpha
          b += colour[2] * alpha
          a += alpha
        }
      }
      const offset = (py * size + px) * 4
      const n = grid * grid
      pixels[offset] = a ? Math.round(r / a) : 0
      pixels[offset + 1] = a ? Math.round(g / a) : 0
      pixels[offset + 2] = a ? Math.round(b / a) : 0
      pixels[offset + 3] = Math.round((a / n) * 255)
    }
  }
  return pixels
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

function crc32(buffer) {
  let c = 0xffffffff
  for (const byte of buffer) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

function chunk(type, data) {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

/** RGBA, 8 bits per channel, no interlace; every scanline uses filter 0. */
export function encodePng(size, rgba) {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(size, 0)
  header.writeUInt32BE(size, 4)
  header[8] = 8
  header[9] = 6
  const rows = Buffer.alloc(size * (size * 4 + 1))
  for (let y = 0; y < size; y++) rgba.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4)
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0))
  ])
}

const icons = [
  ['icon.png', 1024, appSample],
  ['tray.png', 16, traySample([0xe8, 0xdc, 0xc6, 255])],
  ['tray@2x.png', 32, traySample([0xe8, 0xdc, 0xc6, 255])],
  ['trayTemplate.png', 16, traySample([0, 0, 0, 255])],
  ['trayTemplate@2x.png', 32, traySample([0, 0, 0, 255])]
]

mkdirSync(out, { recursive: true })
for (const [name, size, sample] of icons) {
  writeFileSync(join(out, name), encodePng(size, render(size, sample, size >= 512 ? 2 : 4)))
  console.log(`wrote resources/${name} (${size}×${size})`)
}
