// What an answer to one Host looks like, and whether two answers are the same site. Pure.
// The name sent is replaced by a placeholder in the body, title and Location before comparing, so a
// catch-all page that echoes the name ("Welcome to x.example") reads the same for every name.
import { createHash } from 'node:crypto'
import { readHtml } from '../../lib/http/html-reader.js'

export interface RawAnswer {
  status: number
  location: string | null
  body: string
  /** Body bytes received. */
  size: number
}

export interface AnswerShape {
  status: number
  /** Location with the name replaced by `{host}`; null without a redirect. */
  redirect: string | null
  title: string
  /** Body length after the name was replaced (what the size band compares). */
  size: number
  hash: string
}

const PLACEHOLDER = '{host}'
const MAX_TITLE = 200

/** `text` with every occurrence of `name` (any case) replaced by the placeholder. */
export function withoutName(text: string, name: string): string {
  if (!name) return text
  const lower = text.toLowerCase()
  const n = name.toLowerCase()
  let out = ''
  let from = 0
  for (let at = lower.indexOf(n); at >= 0; at = lower.indexOf(n, from)) {
    out += text.slice(from, at) + PLACEHOLDER
    from = at + n.length
  }
  return out + text.slice(from)
}

/** The first <title>'s text, whitespace collapsed, at most 200 characters. */
export function pageTitle(html: string): string {
  let inTitle = false
  let title = ''
  let found = false
  readHtml(html, {
    open(name) {
      if (name === 'title') inTitle = true
    },
    text(t) {
      if (inTitle && title.length < MAX_TITLE * 2) title += t
    },
    close(name) {
      if (name !== 'title' || !inTitle) return
      found = true
      return false
    },
  })
  return found || title ? title.replace(/\s+/g, ' ').trim().slice(0, MAX_TITLE) : ''
}

export function shapeOf(a: RawAnswer, name: string): AnswerShape {
  const body = withoutName(a.body, name)
  return {
    status: a.status,
    redirect: a.location === null ? null : withoutName(a.location.trim(), name),
    title: withoutName(pageTitle(a.body), name),
    size: Buffer.byteLength(body),
    hash: createHash('sha1').update(body).digest('hex'),
  }
}

/** Sizes within 5 % (at least 32 bytes) of each other: the same page with a changing token or date. */
export const sameSizeBand = (a: number, b: number) => Math.abs(a - b) <= Math.max(32, 0.05 * Math.max(a, b))

/** The same site: status, redirect and title equal, and the body identical or in the same size band. */
export const sameSite = (a: AnswerShape, b: AnswerShape) =>
  a.status === b.status && a.redirect === b.redirect && a.title === b.title && (a.hash === b.hash || sameSizeBand(a.size, b.size))

/** A virtual host: an answer unlike every baseline (the default name's and random names'). */
export const isVirtualHost = (answer: AnswerShape, baselines: readonly AnswerShape[]) =>
  baselines.length > 0 && baselines.every((b) => !sameSite(answer, b))
