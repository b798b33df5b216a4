// Plainly hostile services (a root shell greeting anyone, a shell running our probes, Metasploitable)
// are a critical finding of the port scanner and the network scanner alike. Loopback 127.0.24.2 only.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import type { AddressInfo } from 'node:net'
import { hostileBanner } from '../../src/tools/lib/services/hostile.js'
import { hostileService } from '../../src/tools/lib/services/checks.js'
import { portScanner } from '../../src/tools/port-scanner/run.js'
import { networkVulnScanner } from '../../src/tools/netvuln/run.js'
import { runTool } from '../helpers/tool-harness.js'

const HOST = '127.0.24.2'

test('hostile banners are told apart from ordinary ones', () => {
  for (const b of [
    'root@metasploitable:/# ',
    'sh-4.2# ',
    '# ',
    'uid=0(root) gid=0(root) groups=0(root)',
    'sh: GET: not found',
    'bash: line 1: HELP: command not found',
    '220 Welcome to Metasploitable2 FTP',
  ])
    assert.ok(hostileBanner(b), b)
  for (const b of [
    'SSH-2.0-OpenSSH_9.9',
    '220 (vsFTPd 3.0.5)',
    '# Server\r\nredis_version:7.2.4',
    'HTTP/1.1 200 OK | Server: nginx',
    '220 mail.example.com ESMTP Postfix',
    'user@host:~$ ',
    null,
  ])
    assert.equal(hostileBanner(b), null, String(b))
})

test('a root shell on a port is a critical finding of tools 70 and 350', async () => {
  const shell = net.createServer((s) => {
    s.on('error', () => {})
    s.write('root@metasploitable:/# ')
    s.on('data', (d) => s.write(`sh: ${d.toString('latin1').split(/\s/)[0]}: not found\nroot@metasploitable:/# `))
  })
  await new Promise<void>((r) => shell.listen(0, HOST, r))
  const { port } = shell.address() as AddressInfo
  try {
    for (const tool of [portScanner, networkVulnScanner]) {
      const r = await runTool(tool, { target: HOST, params: { ports: String(port) } })
      assert.equal(r.error, undefined, String(r.error))
      const f = r.findings.filter((x) => x.check === hostileService)
      assert.equal(f.length, 1, `${tool.name}: ${r.logs.join('\n')}`)
      assert.deepEqual([f[0]!.port, f[0]!.protocol, f[0]!.confirmed], [port, 'tcp', true])
      assert.match(f[0]!.detail!, /root shell prompt/)
    }
  } finally {
    shell.close()
  }
})
