// TCP port scans on a worker thread, as an N-API addon: a SYN ("half-open") scan over a raw
// socket, and a connect scan with non-blocking sockets and epoll.
//
// Why native: a connect scan from JavaScript costs Node a socket object, a handle and several
// callbacks per port (5 s of CPU per 65,535 ports); in C a connect is three system calls, and a
// SYN is one 24-byte packet out and one in. Running on a libuv worker thread keeps the event loop free.
//
// scan(opts) -> Promise<{ sent, received, sourcePort }>
//   opts.method   "syn" (needs CAP_NET_RAW) or "connect" (no privilege); IPv4 or IPv6 both
//   opts.address  IP literal (already checked against the scope by the caller)
//   opts.ports    Uint16Array of ports
//   opts.states   Uint8Array(65536), written as answers arrive: 1 open, 2 closed, 3 filtered
//   opts.control  Int32Array(4): [0] set to 1 by JS to stop; [1] ports settled (progress)
//   opts.timeoutMs, opts.window (most probes in flight), opts.retries (resends of a silent port),
//   opts.rate (most probes per second; 0 or absent: no limit)
// available() -> null when a raw socket can be opened, or the reason (e.g. "EPERM").
//
// Answers are matched by the source port (reserved by binding a TCP socket, and filtered in the
// kernel with a BPF program) and by the acknowledgement of a per-scan secret sequence number,
// so stray or forged packets are not taken as answers. The kernel itself resets the half-open
// connections (it has no socket for the SYN-ACKs), as with nmap -sS.
#define _GNU_SOURCE
#include <node_api.h>
#include <arpa/inet.h>
#include <errno.h>
#include <linux/filter.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define OPEN 1
#define CLOSED 2
#define FILTERED 3
#define MIN_TIMEOUT_MS 100.0
#define RESEND_MIN_MS 500.0

typedef struct {
  uint16_t port;
  uint8_t try_no;
  double deadline;
} Sent;

typedef struct {
  napi_async_work work;
  napi_deferred deferred;
  napi_ref states_ref, control_ref, ports_ref;
  int connect_mode, family;
  struct in6_addr dst6;
  uint8_t *states;
  volatile int32_t *control;
  uint16_t *ports;
  size_t nports;
  struct in_addr dst;
  double timeout_ms;
  int window, retries;
  double rate; // most probes per second, 0: no limit
  // results
  int err;
  char errwhere[32];
  uint32_t sent, received;
  uint16_t sport;
} Job;

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/** TCP checksum over the pseudo-header (source, destination, protocol, length) and the segment; addresses in network order, 4 or 16 bytes. */
static uint16_t checksum(const uint8_t *tcp, size_t len, const uint8_t *src, const uint8_t *dst, size_t alen) {
  uint32_t sum = 0;
  for (size_t i = 0; i < alen; i += 2) sum += *(const uint16_t *)(src + i) + *(const uint16_t *)(dst + i);
  sum += htons(IPPROTO_TCP) + htons((uint16_t)len); // the IPv6 form's 32-bit length and next header sum the same for short segments
  for (size_t i = 0; i + 1 < len; i += 2) sum += *(const uint16_t *)(tcp + i);
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  return (uint16_t)~sum;
}

static uint32_t cookie(uint32_t secret, uint16_t port) {
  uint32_t x = secret ^ (port * 0x9E3779B1u);
  x ^= x >> 16; x *= 0x85EBCA6Bu; x ^= x >> 13; x *= 0xC2B2AE35u; x ^= x >> 16;
  return x;
}

static int fail(Job *j, const char *where) {
  j->err = errno;
  strncpy(j->errwhere, where, sizeof j->errwhere - 1);
  return -1;
}

/** Adaptive timing shared by both scans: a timeout from the measured round trip, and a window of probes in flight. */
typedef struct {
  double srtt, rttvar, timeout;
  int window, max_window;
} Timing;

/** Rate limit: after a probe leaves at `now`, when the next may. A stall earns at most 10 ms of catch-up, so no burst outruns the rate by more. */
static double next_slot(const Job *j, double slot, double now) {
  if (j->rate <= 0) return 0;
  return (slot > now - 10 ? slot : now - 10) + 1000.0 / j->rate;
}

/**
 * When probe number `try_no` of a port, sent at `now`, expires: resends wait twice as long each time,
 * and at least RESEND_MIN_MS (a busy host's softirq can hold loopback answers that long), up to the longest timeout.
 */
static double deadline_of(const Timing *tm, const Job *j, int try_no, double now) {
  double t = tm->timeout * (double)(1 << (try_no - 1));
  if (try_no > 1 && t < RESEND_MIN_MS) t = RESEND_MIN_MS;
  return now + (t > j->timeout_ms ? j->timeout_ms : t);
}

/** How long to wait for answers (ms, 1 to 50): until the oldest probe's deadline, or until `until` when sooner (0: none). */
static int wait_ms(double now, double deadline, double until) {
  double left = (until && until < deadline ? until : deadline) - now;
  return left < 1 ? 1 : left > 50 ? 50 : (int)left;
}

static Timing timing(const Job *j) {
  int w = j->window < 1 ? 1 : j->window;
  return (Timing){ -1, 0, j->timeout_ms, w, w };
}

// RFC 6298 smoothing, as nmap does; a resent port that answers means the first probe was lost
// (congestion): halve the window; answers grow it again.
static void adapt(Timing *tm, const Job *j, double rtt, int was_resent) {
  if (tm->srtt < 0) { tm->srtt = rtt; tm->rttvar = rtt / 2; }
  else { tm->rttvar += (fabs(rtt - tm->srtt) - tm->rttvar) / 4; tm->srtt += (rtt - tm->srtt) / 8; }
  double tmo = tm->srtt + 4 * tm->rttvar;
  tm->timeout = tmo < MIN_TIMEOUT_MS ? MIN_TIMEOUT_MS : tmo > j->timeout_ms ? j->timeout_ms : tmo;
  if (was_resent) tm->window = tm->window / 2 < 10 ? 10 : tm->window / 2;
  else if (tm->window < tm->max_window) tm->window++;
}

static void run_scan(Job *j) {
  int fd = -1, hold = -1;
  uint8_t *inflight = NULL, *tries = NULL;
  Sent *ring = NULL;
  uint16_t *retry = NULL;
  double *sent_at = NULL;

  const int v6 = j->family == AF_INET6;
  fd = socket(j->family, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_TCP);
  if (fd < 0) { fail(j, "socket"); goto out; }
  int rcv = 8 << 20;
  if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcv, sizeof rcv) < 0) setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcv, sizeof rcv);

  // The source address the kernel routes from, learnt with a connected UDP socket (sends nothing).
  struct sockaddr_storage dst = { 0 }, src = { 0 };
  socklen_t dlen = v6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
  if (v6) {
    struct sockaddr_in6 *d = (struct sockaddr_in6 *)&dst;
    d->sin6_family = AF_INET6;
    d->sin6_port = htons(9);
    d->sin6_addr = j->dst6;
  } else {
    struct sockaddr_in *d = (struct sockaddr_in *)&dst;
    d->sin_family = AF_INET;
    d->sin_port = htons(9);
    d->sin_addr = j->dst;
  }
  socklen_t sl = sizeof src;
  int u = socket(j->family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (u < 0 || connect(u, (struct sockaddr *)&dst, dlen) < 0 || getsockname(u, (struct sockaddr *)&src, &sl) < 0) {
    if (u >= 0) close(u);
    fail(j, "route");
    goto out;
  }
  close(u);
  // Raw IPv6 sockets take the port field as the protocol: it must be 0 when sending.
  if (v6) ((struct sockaddr_in6 *)&dst)->sin6_port = 0;
  else ((struct sockaddr_in *)&dst)->sin_port = 0;
  // Reserve a source port: a bound, never-listening TCP socket keeps the kernel from handing it to
  // anyone else, and (not listening) lets the kernel reset the SYN-ACKs it receives.
  hold = socket(j->family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_storage bnd = src;
  if (v6) ((struct sockaddr_in6 *)&bnd)->sin6_port = 0;
  else ((struct sockaddr_in *)&bnd)->sin_port = 0;
  sl = sizeof bnd;
  if (hold < 0 || bind(hold, (struct sockaddr *)&bnd, dlen) < 0 || getsockname(hold, (struct sockaddr *)&bnd, &sl) < 0) { fail(j, "bind"); goto out; }
  uint16_t sport = ntohs(v6 ? ((struct sockaddr_in6 *)&bnd)->sin6_port : ((struct sockaddr_in *)&bnd)->sin_port);
  j->sport = sport;
  // The pseudo-header's addresses for the checksum (RFC 793 / RFC 8200 section 8.1).
  const uint8_t *src_addr = v6 ? (const uint8_t *)&((struct sockaddr_in6 *)&src)->sin6_addr : (const uint8_t *)&((struct sockaddr_in *)&src)->sin_addr;
  const uint8_t *dst_addr = v6 ? (const uint8_t *)&j->dst6 : (const uint8_t *)&j->dst;
  const size_t alen = v6 ? 16 : 4;

  // Kernel-side filter: only TCP segments to our source port reach this socket. An IPv4 raw socket
  // reads the IP header first; an IPv6 one starts at the TCP header.
  struct sock_filter code4[] = {
    BPF_STMT(BPF_LDX | BPF_B | BPF_MSH, 0),                 // X = IP header length
    BPF_STMT(BPF_LD | BPF_H | BPF_IND, 2),                   // A = TCP destination port
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, sport, 0, 1),
    BPF_STMT(BPF_RET | BPF_K, 0xffff),
    BPF_STMT(BPF_RET | BPF_K, 0),
  };
  struct sock_filter code6[] = {
    BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 2),                   // A = TCP destination port
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, sport, 0, 1),
    BPF_STMT(BPF_RET | BPF_K, 0xffff),
    BPF_STMT(BPF_RET | BPF_K, 0),
  };
  struct sock_fprog prog = v6 ? (struct sock_fprog){ .len = sizeof code6 / sizeof code6[0], .filter = code6 }
                              : (struct sock_fprog){ .len = sizeof code4 / sizeof code4[0], .filter = code4 };
  if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof prog) < 0) { fail(j, "filter"); goto out; }
  // Packets queued before the filter was attached may be anything: drop them.
  uint8_t buf[2048];
  while (recv(fd, buf, sizeof buf, MSG_DONTWAIT) > 0) {}

  uint32_t secret;
  if (getrandom(&secret, sizeof secret, 0) != sizeof secret) secret = (uint32_t)now_ms() ^ (uint32_t)getpid();

  size_t total = j->nports, max_sends = total * (size_t)(j->retries + 1);
  inflight = calloc(65536, 1);
  tries = calloc(65536, 1);
  sent_at = calloc(65536, sizeof(double));
  ring = malloc(max_sends * sizeof(Sent));
  retry = malloc((total + 1) * sizeof(uint16_t));
  if (!inflight || !tries || !sent_at || !ring || !retry) { errno = ENOMEM; fail(j, "alloc"); goto out; }

  uint8_t pkt[24];
  size_t next = 0, rhead = 0, rtail = 0, qhead = 0, qtail = 0;
  int outstanding = 0;
  Timing tm = timing(j);
  uint32_t settled = 0;
  double slot = 0;

  for (;;) {
    if (j->control[0]) break;
    // Read every answer waiting.
    ssize_t n;
    double t = now_ms();
    struct sockaddr_storage from;
    socklen_t fl = sizeof from;
    while ((n = recvfrom(fd, buf, sizeof buf, MSG_DONTWAIT, (struct sockaddr *)&from, (fl = sizeof from, &fl))) > 0) {
      const uint8_t *tcp;
      if (v6) {
        // No IP header on an IPv6 raw socket: the sender is in `from`.
        if (n < 20 || from.ss_family != AF_INET6 || memcmp(&((struct sockaddr_in6 *)&from)->sin6_addr, &j->dst6, 16) != 0) continue;
        tcp = buf;
      } else {
        if (n < 20 || (buf[0] >> 4) != 4 || buf[9] != IPPROTO_TCP) continue;
        size_t ihl = (size_t)(buf[0] & 15) * 4;
        if ((size_t)n < ihl + 20 || memcmp(buf + 12, &j->dst.s_addr, 4) != 0) continue;
        tcp = buf + ihl;
      }
      uint16_t p = ntohs(*(const uint16_t *)tcp);
      if (ntohs(*(const uint16_t *)(tcp + 2)) != sport) continue;
      uint8_t flags = tcp[13];
      uint32_t ack = ntohl(*(const uint32_t *)(tcp + 8));
      if (!(flags & 0x10) || ack != cookie(secret, p) + 1) continue; // not an answer to our SYN
      int st = (flags & 0x12) == 0x12 ? OPEN : (flags & 0x04) ? CLOSED : 0;
      if (!st || j->states[p] == OPEN || j->states[p] == CLOSED) continue;
      j->received++;
      if (j->states[p] != FILTERED) settled++;
      j->states[p] = (uint8_t)st;
      if (inflight[p]) {
        inflight[p] = 0;
        outstanding--;
        adapt(&tm, j, t - sent_at[p], tries[p] > 1);
      }
    }
    j->control[1] = (int32_t)settled;
    double now = now_ms();
    // Probes past their deadline: resend, or call the port filtered.
    while (rhead < rtail) {
      Sent *s = &ring[rhead];
      uint16_t p = s->port;
      int stale = !inflight[p] || tries[p] != s->try_no || j->states[p];
      if (!stale && now < s->deadline) break;
      rhead++;
      if (stale) continue;
      inflight[p] = 0;
      outstanding--;
      if (tries[p] <= j->retries) retry[qtail++ % (total + 1)] = p;
      else { j->states[p] = FILTERED; settled++; }
    }
    // Send while the window allows.
    int blocked = 0, paced = 0;
    while (outstanding < tm.window && (next < total || qhead < qtail)) {
      if (now < slot) { paced = 1; break; }
      uint16_t p = next < total ? j->ports[next] : retry[qhead % (total + 1)];
      if (j->states[p] == OPEN || j->states[p] == CLOSED || inflight[p]) { if (next < total) next++; else qhead++; continue; }
      memset(pkt, 0, sizeof pkt);
      *(uint16_t *)(pkt + 0) = htons(sport);
      *(uint16_t *)(pkt + 2) = htons(p);
      *(uint32_t *)(pkt + 4) = htonl(cookie(secret, p));
      pkt[12] = 6 << 4;      // data offset: 6 words (MSS option)
      pkt[13] = 0x02;        // SYN
      *(uint16_t *)(pkt + 14) = htons(1024);
      pkt[20] = 2; pkt[21] = 4; *(uint16_t *)(pkt + 22) = htons(1460);
      *(uint16_t *)(pkt + 16) = checksum(pkt, sizeof pkt, src_addr, dst_addr, alen);
      if (sendto(fd, pkt, sizeof pkt, 0, (struct sockaddr *)&dst, dlen) < 0) {
        if (errno == EAGAIN || errno == ENOBUFS || errno == EINTR) { blocked = 1; break; }
        fail(j, "sendto");
        goto out;
      }
      if (next < total) next++; else qhead++;
      j->sent++;
      slot = next_slot(j, slot, now);
      tries[p]++;
      inflight[p] = 1;
      outstanding++;
      sent_at[p] = now;
      ring[rtail++] = (Sent){ p, tries[p], deadline_of(&tm, j, tries[p], now) };
    }
    if (next >= total && qhead >= qtail && outstanding == 0) break;
    // Wait for answers: not at all while there is more to send, else until the oldest probe expires.
    int wait = 0;
    if (blocked) wait = 1;
    else if (paced || outstanding >= tm.window || (next >= total && qhead >= qtail))
      wait = wait_ms(now, rhead < rtail ? ring[rhead].deadline : now + 10, paced ? slot : 0);
    // Only wait here: answers are read at the top of the loop, before any probe is judged expired,
    // so a thread that was not scheduled for a while never mistakes answers waiting in the socket for silence.
    struct pollfd pfd = { .fd = fd, .events = POLLIN };
    if (wait) poll(&pfd, 1, wait);
    j->control[1] = (int32_t)settled;
  }
  j->control[1] = (int32_t)settled;
out:
  if (fd >= 0) close(fd);
  if (hold >= 0) close(hold);
  free(inflight); free(tries); free(sent_at); free(ring); free(retry);
}

// ---- connect scan: the full handshake, as nmap -sT. A connection made is closed with SO_LINGER 0 (a
// reset), so no TIME_WAIT is left behind per open port and the local port range is never exhausted.

#define CONN_PRESSURE(e) ((e) == EMFILE || (e) == ENFILE || (e) == EADDRNOTAVAIL || (e) == ENOBUFS || (e) == EAGAIN || (e) == ENOMEM)
#define CONN_UNREACHABLE(e) ((e) == ENETUNREACH || (e) == EHOSTUNREACH)

/**
 * For a connected socket: whether it met itself (TCP simultaneous open on a free port of our own
 * address: nothing listens there). Also sets SO_LINGER 0, so its close is a reset.
 */
static int connected_to_self(int fd, uint16_t port, const struct linger *lg) {
  setsockopt(fd, SOL_SOCKET, SO_LINGER, lg, sizeof *lg);
  struct sockaddr_storage me;
  socklen_t ml = sizeof me;
  return getsockname(fd, (struct sockaddr *)&me, &ml) == 0 &&
         ntohs(me.ss_family == AF_INET ? ((struct sockaddr_in *)&me)->sin_port : ((struct sockaddr_in6 *)&me)->sin6_port) == port;
}

static void run_connect(Job *j) {
  int ep = -1;
  int *fds = NULL;
  uint8_t *tries = NULL;
  Sent *ring = NULL;
  uint16_t *retry = NULL;
  double *sent_at = NULL;
  size_t total = j->nports, max_sends = total * (size_t)(j->retries + 1) + total; // + resends after local pressure
  struct sockaddr_storage ss = { 0 };
  socklen_t slen;
  if (j->family == AF_INET) {
    struct sockaddr_in *a = (struct sockaddr_in *)&ss;
    a->sin_family = AF_INET;
    a->sin_addr = j->dst;
    slen = sizeof *a;
  } else {
    struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;
    a->sin6_family = AF_INET6;
    a->sin6_addr = j->dst6;
    slen = sizeof *a;
  }
  ep = epoll_create1(EPOLL_CLOEXEC);
  fds = malloc(65536 * sizeof(int));
  tries = calloc(65536, 1);
  sent_at = calloc(65536, sizeof(double));
  ring = malloc(max_sends * sizeof(Sent));
  retry = malloc((total + 1) * sizeof(uint16_t));
  if (ep < 0 || !fds || !tries || !sent_at || !ring || !retry) { if (ep >= 0) errno = ENOMEM; fail(j, "alloc"); goto out; }
  for (int i = 0; i < 65536; i++) fds[i] = -1;

  size_t next = 0, rhead = 0, rtail = 0, qhead = 0, qtail = 0;
  int outstanding = 0;
  Timing tm = timing(j);
  uint32_t settled = 0;
  double slot = 0;
  double pressure_until = 0;
  struct epoll_event evs[256];
  struct linger lg = { 1, 0 };

#define SETTLE(p, st) do { if (!j->states[p] || j->states[p] == FILTERED) { if (!j->states[p]) settled++; j->states[p] = (st); } } while (0)
#define DROP_FD(p) do { epoll_ctl(ep, EPOLL_CTL_DEL, fds[p], NULL); close(fds[p]); fds[p] = -1; outstanding--; } while (0)

  for (;;) {
    if (j->control[0]) break;
    // Judge every connection that has ended, before any is called expired.
    for (int n = 256; n == 256;) {
      n = epoll_wait(ep, evs, 256, 0);
      double t = now_ms();
      for (int i = 0; i < n; i++) {
        uint16_t p = (uint16_t)evs[i].data.u64;
        if (fds[p] < 0) continue;
        int err = 0;
        socklen_t el = sizeof err;
        getsockopt(fds[p], SOL_SOCKET, SO_ERROR, &err, &el);
        int st = err == 0 ? (connected_to_self(fds[p], p, &lg) ? CLOSED : OPEN) : err == ECONNREFUSED || err == ECONNRESET ? CLOSED : 0;
        DROP_FD(p);
        if (!st) {
          // No answer but an error (unreachable, timed out by the kernel): the host cannot be reached at all, or this port is filtered.
          if (CONN_UNREACHABLE(err) && j->received == 0) { errno = err; fail(j, "connect"); goto out; }
          if (tries[p] <= j->retries) retry[qtail++ % (total + 1)] = p;
          else SETTLE(p, FILTERED);
          continue;
        }
        j->received++;
        SETTLE(p, st);
        adapt(&tm, j, t - sent_at[p], tries[p] > 1);
      }
    }
    j->control[1] = (int32_t)settled;
    double now = now_ms();
    while (rhead < rtail) {
      Sent *s = &ring[rhead];
      uint16_t p = s->port;
      int stale = fds[p] < 0 || tries[p] != s->try_no;
      if (!stale && now < s->deadline) break;
      rhead++;
      if (stale) continue;
      DROP_FD(p);
      if (tries[p] <= j->retries) retry[qtail++ % (total + 1)] = p;
      else SETTLE(p, FILTERED);
    }
    int paced = 0;
    while (outstanding < tm.window && now >= pressure_until && (next < total || qhead < qtail)) {
      if (now < slot) { paced = 1; break; }
      uint16_t p = next < total ? j->ports[next] : retry[qhead % (total + 1)];
      if (j->states[p] == OPEN || j->states[p] == CLOSED || fds[p] >= 0) { if (next < total) next++; else qhead++; continue; }
      int fd = socket(j->family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
      if (fd < 0) {
        if (!CONN_PRESSURE(errno)) { fail(j, "socket"); goto out; }
        // Out of sockets: fewer in flight, and a short pause before the next connects.
        tm.window = outstanding * 3 / 4 < 10 ? 10 : outstanding * 3 / 4;
        pressure_until = now + 20;
        break;
      }
      if (j->family == AF_INET) ((struct sockaddr_in *)&ss)->sin_port = htons(p);
      else ((struct sockaddr_in6 *)&ss)->sin6_port = htons(p);
      int rc = connect(fd, (struct sockaddr *)&ss, slen);
      int e = rc == 0 ? 0 : errno;
      if (next < total) next++; else qhead++;
      if (rc == 0 || e == ECONNREFUSED) {
        // Answered at once (loopback): open, unless it met itself (TCP simultaneous open on a free port of our own address).
        int st = rc == 0 && !connected_to_self(fd, p, &lg) ? OPEN : CLOSED;
        close(fd);
        j->sent++;
        slot = next_slot(j, slot, now);
        j->received++;
        SETTLE(p, st);
        continue;
      }
      if (e != EINPROGRESS) {
        close(fd);
        if (CONN_PRESSURE(e)) {
          retry[qtail++ % (total + 1)] = p;
          tm.window = outstanding * 3 / 4 < 10 ? 10 : outstanding * 3 / 4;
          pressure_until = now + 20;
          break;
        }
        if (CONN_UNREACHABLE(e) && j->received == 0) { errno = e; fail(j, "connect"); goto out; }
        SETTLE(p, FILTERED);
        continue;
      }
      struct epoll_event ev = { .events = EPOLLOUT, .data.u64 = p };
      if (epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) < 0) { close(fd); fail(j, "epoll_ctl"); goto out; }
      j->sent++;
      slot = next_slot(j, slot, now);
      tries[p]++;
      fds[p] = fd;
      outstanding++;
      sent_at[p] = now;
      ring[rtail++] = (Sent){ p, tries[p], deadline_of(&tm, j, tries[p], now) };
    }
    if (next >= total && qhead >= qtail && outstanding == 0) break;
    int wait = 0;
    if (paced || outstanding >= tm.window || now < pressure_until || (next >= total && qhead >= qtail)) {
      double until = paced ? slot : 0;
      if (now < pressure_until && (!until || pressure_until < until)) until = pressure_until;
      wait = wait_ms(now, rhead < rtail ? ring[rhead].deadline : now + 10, until);
    }
    // Only wait here (epoll's own descriptor is pollable): connections are judged at the top of the loop.
    struct pollfd pfd = { .fd = ep, .events = POLLIN };
    if (wait) poll(&pfd, 1, wait);
    j->control[1] = (int32_t)settled;
  }
  j->control[1] = (int32_t)settled;
out:
  if (fds) for (int i = 0; i < 65536; i++) if (fds[i] >= 0) close(fds[i]);
  if (ep >= 0) close(ep);
  free(fds); free(tries); free(sent_at); free(ring); free(retry);
}

static void execute(napi_env env, void *data) {
  (void)env;
  Job *j = data;
  if (j->connect_mode) run_connect(j);
  else run_scan(j);
}

static napi_value num(napi_env env, double v) { napi_value r; napi_create_double(env, v, &r); return r; }

static void complete(napi_env env, napi_status status, void *data) {
  Job *j = data;
  (void)status;
  if (j->err) {
    char msg[160];
    snprintf(msg, sizeof msg, "SYN scan failed at %s: %s", j->errwhere, strerror(j->err));
    napi_value m, e, code;
    napi_create_string_utf8(env, msg, NAPI_AUTO_LENGTH, &m);
    napi_create_error(env, NULL, m, &e);
    napi_create_int32(env, j->err, &code);
    napi_set_named_property(env, e, "errno", code);
    napi_reject_deferred(env, j->deferred, e);
  } else {
    napi_value r;
    napi_create_object(env, &r);
    napi_set_named_property(env, r, "sent", num(env, j->sent));
    napi_set_named_property(env, r, "received", num(env, j->received));
    napi_set_named_property(env, r, "sourcePort", num(env, j->sport));
    napi_resolve_deferred(env, j->deferred, r);
  }
  napi_delete_reference(env, j->states_ref);
  napi_delete_reference(env, j->control_ref);
  napi_delete_reference(env, j->ports_ref);
  napi_delete_async_work(env, j->work);
  free(j);
}

static int typed(napi_env env, napi_value obj, const char *name, napi_typedarray_type want, void **data, size_t *len, napi_ref *ref) {
  napi_value v;
  bool is;
  napi_typedarray_type type;
  if (napi_get_named_property(env, obj, name, &v) != napi_ok || napi_is_typedarray(env, v, &is) != napi_ok || !is) return -1;
  if (napi_get_typedarray_info(env, v, &type, len, data, NULL, NULL) != napi_ok || type != want) return -1;
  return napi_create_reference(env, v, 1, ref) == napi_ok ? 0 : -1;
}

static double number(napi_env env, napi_value obj, const char *name, double dflt) {
  napi_value v;
  double d;
  if (napi_get_named_property(env, obj, name, &v) != napi_ok || napi_get_value_double(env, v, &d) != napi_ok) return dflt;
  return d;
}

static napi_value scan(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1], promise;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  Job *j = calloc(1, sizeof *j);
  char addr[64] = { 0 };
  size_t alen;
  napi_value av;
  size_t slen, clen;
  void *sp, *cp, *pp;
  char method[16] = { 0 };
  napi_value mv;
  if (argc >= 1 && napi_get_named_property(env, argv[0], "method", &mv) == napi_ok) napi_get_value_string_utf8(env, mv, method, sizeof method, &alen);
  j->connect_mode = strcmp(method, "connect") == 0;
  if (argc >= 1 && napi_get_named_property(env, argv[0], "address", &av) == napi_ok) napi_get_value_string_utf8(env, av, addr, sizeof addr, &alen);
  j->family = inet_pton(AF_INET, addr, &j->dst) == 1 ? AF_INET : inet_pton(AF_INET6, addr, &j->dst6) == 1 ? AF_INET6 : 0;
  if (argc < 1 || !j->family || (!j->connect_mode && strcmp(method, "syn") != 0) ||
      typed(env, argv[0], "states", napi_uint8_array, &sp, &slen, &j->states_ref) || slen != 65536 ||
      typed(env, argv[0], "control", napi_int32_array, &cp, &clen, &j->control_ref) || clen < 2 ||
      typed(env, argv[0], "ports", napi_uint16_array, &pp, &j->nports, &j->ports_ref)) {
    free(j);
    napi_throw_type_error(env, NULL, "scan({ method: 'syn' | 'connect', address: IP literal, ports: Uint16Array, states: Uint8Array(65536), control: Int32Array(>=2) })");
    return NULL;
  }
  j->states = sp;
  j->control = cp;
  j->ports = pp;
  j->timeout_ms = number(env, argv[0], "timeoutMs", 1000);
  if (j->timeout_ms < MIN_TIMEOUT_MS) j->timeout_ms = MIN_TIMEOUT_MS;
  j->window = (int)number(env, argv[0], "window", 1000);
  j->retries = (int)number(env, argv[0], "retries", 1);
  j->rate = number(env, argv[0], "rate", 0);
  if (!(j->rate > 0)) j->rate = 0;
  if (j->retries < 0) j->retries = 0;
  if (j->retries > 5) j->retries = 5;
  napi_value name;
  napi_create_string_utf8(env, "ward-port-scan", NAPI_AUTO_LENGTH, &name);
  napi_create_promise(env, &j->deferred, &promise);
  napi_create_async_work(env, NULL, name, execute, complete, j, &j->work);
  napi_queue_async_work(env, j->work);
  return promise;
}

static napi_value available(napi_env env, napi_callback_info info) {
  (void)info;
  int fd = socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_TCP);
  napi_value r;
  if (fd >= 0) {
    close(fd);
    napi_get_null(env, &r);
  } else {
    napi_create_string_utf8(env, strerror(errno), NAPI_AUTO_LENGTH, &r);
  }
  return r;
}

NAPI_MODULE_INIT() {
  napi_value f;
  napi_create_function(env, "scan", NAPI_AUTO_LENGTH, scan, NULL, &f);
  napi_set_named_property(env, exports, "scan", f);
  napi_create_function(env, "available", NAPI_AUTO_LENGTH, available, NULL, &f);
  napi_set_named_property(env, exports, "available", f);
  return exports;
}
