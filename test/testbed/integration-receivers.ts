// Loopback receivers for the integrations, each answering with the request and response shapes of
// the real system's public API documentation:
// - Slack incoming webhooks: POST JSON {text, blocks} → 200 "ok" (invalid → 400 "invalid_blocks").
// - Teams workflow webhooks: POST {type: "message", attachments: [{contentType:
//   "application/vnd.microsoft.card.adaptive", content: AdaptiveCard}]} → 202.
// - Jira REST API v2: GET /rest/api/2/search?jql=, POST /rest/api/2/issue (201 {id, key, self}),
//   POST /issue/{key}/comment (201), GET/POST /issue/{key}/transitions (200 {transitions}/204),
//   PUT /issue/{key}/properties/{name} (201); Basic e-mail:token auth, 401 otherwise.
// - SMTP (smtp-server): AUTH PLAIN/LOGIN required, messages kept raw.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

export interface JsonHit {
  path: string
  headers: http.IncomingHttpHeaders
  body: string
}

async function listen(server: http.Server, host: string): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve))
  return `http://${host}:${(server.address() as AddressInfo).port}`
}
const closer = (server: http.Server) => () =>
  new Promise<void>((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
  })
}

/** A Slack- or Teams-style webhook receiver, or a plain one (any JSON, 200); `status` may be changed by the test. */
export async function webhookReceiver(host: string, kind: 'slack' | 'teams' | 'plain') {
  const hits: JsonHit[] = []
  const state = { status: kind === 'slack' ? 200 : 202 }
  const server = http.createServer(async (req, res) => {
    const body = await readBody(req)
    hits.push({ path: req.url ?? '', headers: req.headers, body })
    let ok = false
    try {
      const j = JSON.parse(body)
      ok =
        kind === 'plain'
          ? true
          : kind === 'slack'
            ? Array.isArray(j.blocks) && typeof j.text === 'string'
            : j.type === 'message' &&
              j.attachments?.[0]?.contentType === 'application/vnd.microsoft.card.adaptive' &&
              j.attachments[0].content?.type === 'AdaptiveCard'
    } catch {
      ok = false
    }
    if (state.status !== 200 && state.status !== 202) return res.writeHead(state.status).end(kind === 'slack' ? 'invalid_token' : '')
    if (!ok) return res.writeHead(400).end(kind === 'slack' ? 'invalid_blocks' : 'Bad payload')
    res.writeHead(state.status, { 'content-type': 'text/plain' }).end(kind === 'slack' ? 'ok' : '')
  })
  const base = await listen(server, host)
  return { url: `${base}/services/T000/B000/XXXXSECRETXXXX`, hits, state, close: closer(server) }
}

export interface JiraIssue {
  id: string
  key: string
  fields: {
    summary: string
    description: string
    labels: string[]
    issuetype: { name: string }
    status: { name: string; statusCategory: { key: string } }
    priority?: { name: string }
  }
  comments: string[]
  properties: Record<string, unknown>
}

/** A Jira site with one project; `email:token` is the only accepted Basic credential. */
export async function jiraServer(host: string, o: { project: string; email: string; token: string; delayCreateMs?: number }) {
  const issues: JiraIssue[] = []
  const requests: Array<{ method: string; path: string }> = []
  const auth = `Basic ${Buffer.from(`${o.email}:${o.token}`).toString('base64')}`
  const json = (res: http.ServerResponse, status: number, body?: unknown) => {
    res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json;charset=UTF-8' })
    res.end(body === undefined ? undefined : JSON.stringify(body))
  }
  const server = http.createServer(async (req, res) => {
    const u = new URL(req.url ?? '/', 'http://x')
    const body = await readBody(req)
    requests.push({ method: req.method ?? '', path: u.pathname })
    if (req.headers.authorization !== auth)
      return json(res, 401, {
        errorMessages: ['You are not authenticated. Authentication required to perform this operation.'],
        errors: {},
      })
    const p = u.pathname.replace(/^\/rest\/api\/2/, '')
    const byKey = (k: string) => issues.find((i) => i.key === decodeURIComponent(k))
    if (req.method === 'GET' && p === '/search') {
      const jql = u.searchParams.get('jql') ?? ''
      const label = /labels = "([^"]+)"/.exec(jql)?.[1]
      const project = /project = "([^"]+)"/.exec(jql)?.[1]
      const found = issues.filter((i) => (!label || i.fields.labels.includes(label)) && (!project || i.key.startsWith(`${project}-`)))
      const max = Number(u.searchParams.get('maxResults') ?? 50)
      return json(res, 200, {
        expand: 'schema,names',
        startAt: 0,
        maxResults: max,
        total: found.length,
        issues: found.slice(0, max).map((i) => ({
          expand: '',
          id: i.id,
          self: `${base}/rest/api/2/issue/${i.id}`,
          key: i.key,
          fields: { status: i.fields.status, labels: i.fields.labels },
        })),
      })
    }
    if (req.method === 'POST' && p === '/issue') {
      const f = JSON.parse(body).fields
      if (f?.project?.key !== o.project) return json(res, 400, { errorMessages: [], errors: { project: 'valid project is required' } })
      if (o.delayCreateMs) await new Promise((r) => setTimeout(r, o.delayCreateMs))
      const id = String(10000 + issues.length)
      const key = `${o.project}-${issues.length + 1}`
      issues.push({
        id,
        key,
        fields: {
          summary: f.summary,
          description: f.description,
          labels: f.labels ?? [],
          issuetype: f.issuetype,
          priority: f.priority,
          status: { name: 'To Do', statusCategory: { key: 'new' } },
        },
        comments: [],
        properties: {},
      })
      return json(res, 201, { id, key, self: `${base}/rest/api/2/issue/${id}` })
    }
    const m = /^\/issue\/([^/]+)\/(comment|transitions|properties\/([^/]+))$/.exec(p)
    const issue = m ? byKey(m[1]!) : undefined
    if (!m || !issue)
      return json(res, 404, { errorMessages: ['Issue does not exist or you do not have permission to see it.'], errors: {} })
    if (m[2] === 'comment' && req.method === 'POST') {
      issue.comments.push(JSON.parse(body).body)
      return json(res, 201, { id: String(issue.comments.length), body: JSON.parse(body).body })
    }
    if (m[2] === 'transitions' && req.method === 'GET')
      return json(res, 200, {
        expand: 'transitions',
        transitions: [
          { id: '31', name: 'Done', to: { name: 'Done', statusCategory: { key: 'done' } } },
          { id: '11', name: 'Reopen', to: { name: 'To Do', statusCategory: { key: 'new' } } },
        ],
      })
    if (m[2] === 'transitions' && req.method === 'POST') {
      const id = JSON.parse(body).transition?.id
      issue.fields.status =
        id === '31' ? { name: 'Done', statusCategory: { key: 'done' } } : { name: 'To Do', statusCategory: { key: 'new' } }
      return json(res, 204)
    }
    if (m[3] && req.method === 'PUT') {
      issue.properties[m[3]] = JSON.parse(body)
      return json(res, 201)
    }
    return json(res, 405, { errorMessages: ['method not allowed'] })
  })
  const base = await listen(server, host)
  return { base, issues, requests, close: closer(server) }
}

export interface Mail {
  from: string
  to: string[]
  user: string
  raw: string
}

/** An SMTP server that requires AUTH (user/pass) over plain TCP; keeps every message. */
export async function smtpServer(host: string, user: string, pass: string) {
  const mails: Mail[] = []
  const server = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    onAuth(auth, _session, cb) {
      if (auth.username === user && auth.password === pass) return cb(null, { user: auth.username })
      cb(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }))
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          user: String(session.user),
          raw: Buffer.concat(chunks).toString('utf8'),
        })
        cb()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, host, resolve))
  const port = (server.server.address() as AddressInfo).port
  return { port, mails, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

export interface GitIssue {
  number: number
  title: string
  body: string
  labels: string[]
  state: 'open' | 'closed'
  comments: string[]
}

/**
 * GitHub's REST issues API for one repository (Authorization: Bearer <token>): GET
 * /repos/{o}/{r}/issues?labels=&state=all (200 [issue]), POST /issues (201 issue), POST
 * /issues/{n}/comments (201), PATCH /issues/{n} (200). GitLab's (PRIVATE-TOKEN): GET
 * /api/v4/projects/{id}/issues?labels=&scope=all, POST /issues (201), POST /issues/{iid}/notes (201),
 * PUT /issues/{iid} with state_event (200); its states are "opened" and "closed".
 */
export async function gitIssuesServer(host: string, kind: 'github' | 'gitlab', o: { project: string; token: string }) {
  const issues: GitIssue[] = []
  const server = http.createServer(async (req, res) => {
    const u = new URL(req.url ?? '/', 'http://x')
    const body = await readBody(req)
    const send = (status: number, v: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(v))
    const authed = kind === 'github' ? req.headers.authorization === `Bearer ${o.token}` : req.headers['private-token'] === o.token
    if (!authed)
      return send(
        401,
        kind === 'github'
          ? { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' }
          : { message: '401 Unauthorized' },
      )
    const prefix = kind === 'github' ? `/repos/${o.project}` : `/api/v4/projects/${encodeURIComponent(o.project)}`
    const raw = u.pathname.startsWith(prefix) ? u.pathname.slice(prefix.length) : null
    if (raw === null) return send(404, { message: 'Not Found' })
    const view = (i: GitIssue) =>
      kind === 'github'
        ? {
            id: 1000 + i.number,
            number: i.number,
            title: i.title,
            body: i.body,
            state: i.state,
            labels: i.labels.map((name) => ({ name })),
            html_url: `https://github.example/${o.project}/issues/${i.number}`,
          }
        : {
            id: 1000 + i.number,
            iid: i.number,
            title: i.title,
            description: i.body,
            state: i.state === 'open' ? 'opened' : 'closed',
            labels: i.labels,
            web_url: `https://gitlab.example/${o.project}/-/issues/${i.number}`,
          }
    if (raw === '/issues' && req.method === 'GET') {
      const label = u.searchParams.get('labels')
      return send(200, issues.filter((i) => !label || i.labels.includes(label)).map(view))
    }
    if (raw === '/issues' && req.method === 'POST') {
      const b = JSON.parse(body)
      const labels =
        kind === 'github'
          ? (b.labels as string[])
          : String(b.labels ?? '')
              .split(',')
              .filter(Boolean)
      const i: GitIssue = {
        number: issues.length + 1,
        title: b.title,
        body: kind === 'github' ? b.body : b.description,
        labels,
        state: 'open',
        comments: [],
      }
      issues.push(i)
      return send(201, view(i))
    }
    const m = /^\/issues\/(\d+)(\/(comments|notes))?$/.exec(raw)
    const issue = m ? issues.find((i) => i.number === Number(m[1])) : undefined
    if (!issue) return send(404, { message: 'Not Found' })
    if (m![3] && req.method === 'POST') {
      issue.comments.push(JSON.parse(body).body)
      return send(201, { id: issue.comments.length, body: JSON.parse(body).body })
    }
    if ((kind === 'github' && req.method === 'PATCH') || (kind === 'gitlab' && req.method === 'PUT')) {
      const b = JSON.parse(body)
      if (b.state === 'open' || b.state_event === 'reopen') issue.state = 'open'
      if (b.state === 'closed' || b.state_event === 'close') issue.state = 'closed'
      return send(200, view(issue))
    }
    return send(405, { message: 'Method Not Allowed' })
  })
  const base = await listen(server, host)
  return { base, issues, close: closer(server) }
}

/**
 * DefectDojo API v2 (Authorization: Token <key>): POST /api/v2/reimport-scan/ (multipart: scan_type,
 * file, engagement or product_name + engagement_name + auto_create_context) → 201 with the test's
 * ids and statistics; GET /api/v2/engagements/ → 200 {count, next, previous, results}.
 */
export async function defectDojoServer(host: string, key: string) {
  const imports: Array<{ fields: Record<string, string>; results: number }> = []
  const server = http.createServer(async (req, res) => {
    const u = new URL(req.url ?? '/', 'http://x')
    const body = await readBody(req)
    const send = (status: number, v: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(v))
    if (req.headers.authorization !== `Token ${key}`) return send(401, { detail: 'Invalid token.' })
    if (req.method === 'GET' && u.pathname === '/api/v2/engagements/')
      return send(200, { count: 1, next: null, previous: null, results: [{ id: 7, name: 'Ward' }] })
    if (req.method === 'POST' && u.pathname === '/api/v2/reimport-scan/') {
      const boundary = /boundary=(.+)$/.exec(String(req.headers['content-type']))?.[1]
      if (!boundary) return send(400, { file: ['No file was submitted.'] })
      const fields: Record<string, string> = {}
      let file = ''
      for (const part of body.split(`--${boundary}`)) {
        const name = /name="([^"]+)"/.exec(part)?.[1]
        if (!name) continue
        const value = part.slice(part.indexOf('\r\n\r\n') + 4).replace(/\r\n$/, '')
        if (name === 'file') file = value
        else fields[name] = value
      }
      if (fields.scan_type !== 'SARIF') return send(400, { scan_type: ['not a valid choice'] })
      const results = (JSON.parse(file).runs?.[0]?.results ?? []).length as number
      imports.push({ fields, results })
      return send(201, {
        scan_type: 'SARIF',
        test: imports.length,
        test_id: imports.length,
        engagement_id: 7,
        product_id: 1,
        statistics: { after: { total: results } },
      })
    }
    return send(404, { detail: 'Not found.' })
  })
  const base = await listen(server, host)
  return { base, imports, close: closer(server) }
}
