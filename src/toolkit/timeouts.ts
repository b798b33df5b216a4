// Timeout defaults, named once: how long a tool waits when its parameters do not say. Tools import
// these instead of writing numbers, so "how long may a connect take" has one answer per kind of wait.

/** One TCP connect or TLS handshake to the target, and one protocol exchange after it. */
export const CONNECT_TIMEOUT_MS = 5000
/** One request/answer exchange on an open connection (an active check's probe). */
export const EXCHANGE_TIMEOUT_MS = 5000
/** One read of a login or service conversation (lib/services sessions, telnet prompts). */
export const SESSION_READ_TIMEOUT_MS = 4000
/** One SSH login attempt (key exchange and authentication are several round trips). */
export const SSH_LOGIN_TIMEOUT_MS = 8000
/** A port discovery connect: closed ports answer at once, so a longer wait only means filtered. */
export const DISCOVERY_CONNECT_TIMEOUT_MS = 1000
/** The reply to one service detection probe. */
export const SERVICE_PROBE_TIMEOUT_MS = 2000
/** One HTTP request, headers and body. */
export const HTTP_TIMEOUT_MS = 10_000
/** One HTTP request made beside a non-HTTP check (a TLS port's HSTS header, a service's web root). */
export const SIDE_HTTP_TIMEOUT_MS = 8000
/** One DNS query attempt over UDP (retries come on top). */
export const DNS_QUERY_TIMEOUT_MS = 2000
/** A DNS exchange over TCP (a zone transfer), all of it. */
export const DNS_TCP_TIMEOUT_MS = 10_000
/** A host name resolved before a scan starts. */
export const RESOLVE_TIMEOUT_MS = 5000
/** A regular-expression budget of one template run (matchers over hostile bodies stop there). */
export const TEMPLATE_REGEX_BUDGET_MS = 5000

// The waits of the egress and of the processes around a scan (engine, api, cli).

/** A proxy (SOCKS5, HTTP CONNECT) proved working before a scan goes through it. */
export const EGRESS_CHECK_TIMEOUT_MS = 10_000
/** On a worker shutdown, the most grace a tool gets to stop before its scan is ended anyway. */
export const SCAN_SHUTDOWN_GRACE_MS = 5000
/** Beyond the callback timeout, how long "Send a test" waits for its delivery's answer. */
export const TEST_MESSAGE_MARGIN_MS = 5000
/** Beyond a shutdown grace, how long a process or thread has to exit before it is ended. */
export const EXIT_MARGIN_MS = 5000
/** Beyond the worker's shutdown grace, how long `ward` waits for its roles before exiting anyway. */
export const ROLES_EXIT_MARGIN_MS = 10_000
/** An idle keep-alive connection of the worker's metrics server. */
export const KEEP_ALIVE_TIMEOUT_MS = 5000
