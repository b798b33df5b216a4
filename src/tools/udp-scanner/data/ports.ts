// Which UDP ports to scan: Ward's own top-100 list (services seen on real networks, weighted toward
// the ones that matter for security: amplifiers, management and VPN).
import type { PortLists } from '../../../toolkit/ports.js'

/** port → IANA-style service name; the key order is the list's priority order. */
export const UDP_SERVICES: ReadonlyMap<number, string> = new Map([
  [53, 'domain'],
  [123, 'ntp'],
  [161, 'snmp'],
  [137, 'netbios-ns'],
  [1900, 'ssdp'],
  [11211, 'memcache'],
  [69, 'tftp'],
  [500, 'isakmp'],
  [4500, 'ipsec-nat-t'],
  [1194, 'openvpn'],
  [51820, 'wireguard'],
  [1701, 'l2tp'],
  [67, 'dhcps'],
  [68, 'dhcpc'],
  [88, 'kerberos'],
  [111, 'rpcbind'],
  [135, 'msrpc'],
  [138, 'netbios-dgm'],
  [139, 'netbios-ssn'],
  [162, 'snmptrap'],
  [389, 'ldap'],
  [427, 'svrloc'],
  [443, 'https'],
  [445, 'microsoft-ds'],
  [464, 'kpasswd'],
  [514, 'syslog'],
  [520, 'route'],
  [521, 'ripng'],
  [623, 'asf-rmcp'],
  [631, 'ipp'],
  [853, 'domain-s'],
  [1434, 'ms-sql-m'],
  [1645, 'radius-old'],
  [1646, 'radacct-old'],
  [1812, 'radius'],
  [1813, 'radacct'],
  [2049, 'nfs'],
  [3283, 'netassistant'],
  [3389, 'ms-wbt-server'],
  [3478, 'stun'],
  [3702, 'ws-discovery'],
  [5060, 'sip'],
  [5061, 'sips'],
  [5093, 'sentinel-lm'],
  [5351, 'nat-pmp'],
  [5353, 'mdns'],
  [5355, 'llmnr'],
  [5683, 'coap'],
  [7, 'echo'],
  [9, 'discard'],
  [13, 'daytime'],
  [17, 'qotd'],
  [19, 'chargen'],
  [37, 'time'],
  [49, 'tacacs'],
  [177, 'xdmcp'],
  [502, 'modbus'],
  [523, 'ibm-db2'],
  [1604, 'citrix-ica'],
  [2123, 'gtp-c'],
  [2152, 'gtp-u'],
  [2302, 'binderysupport'],
  [3074, 'xbox'],
  [3784, 'bfd-control'],
  [4789, 'vxlan'],
  [5000, 'upnp'],
  [5632, 'pcanywherestat'],
  [6881, 'bittorrent'],
  [8767, 'teamspeak'],
  [9987, 'teamspeak3'],
  [10001, 'ubnt-discovery'],
  [17185, 'wdbrpc'],
  [20000, 'dnp3'],
  [26000, 'quake'],
  [27015, 'steam'],
  [27960, 'quake3'],
  [30718, 'lantronix'],
  [33848, 'jenkins-discovery'],
  [37810, 'dvr-discovery'],
  [44818, 'enip'],
  [47808, 'bacnet'],
  [64738, 'mumble'],
  [1025, 'blackjack'],
  [1026, 'win-rpc'],
  [1027, 'win-rpc'],
  [1028, 'win-rpc'],
  [1029, 'win-rpc'],
  [1030, 'win-rpc'],
  [1433, 'ms-sql-s'],
  [2000, 'cisco-sccp'],
  [2222, 'msantipiracy'],
  [3456, 'vat'],
  [4444, 'krb524'],
  [5004, 'rtp'],
  [5005, 'rtcp'],
  [10000, 'ndmp'],
  [31337, 'back-orifice'],
  [32768, 'omad'],
  [49152, 'win-rpc'],
  [65024, 'unknown'],
])

export const TOP_100_UDP: readonly number[] = [...UDP_SERVICES.keys()]

/** The top-100 list first, then the rest of the privileged ports (1-1023) by number, up to 1000 ports. */
export const TOP_1000_UDP: readonly number[] = (() => {
  const out = [...TOP_100_UDP]
  const seen = new Set(out)
  for (let p = 1; p < 1024 && out.length < 1000; p++) if (!seen.has(p)) out.push(p)
  for (let p = 1024; out.length < 1000; p++) if (!seen.has(p)) out.push(p)
  return out
})()

export const serviceName = (port: number): string => UDP_SERVICES.get(port) ?? 'unknown'

export const PORTS_PATTERN = '^(top100|top1000|all|\\d{1,5}(-\\d{1,5})?(,\\d{1,5}(-\\d{1,5})?)*)$'

/** The UDP Port Scanner's `ports` lists (toolkit/ports.ts parses the spec); explicit lists in port order. */
export const UDP_PORTS: PortLists = { protocol: 'udp', top100: TOP_100_UDP, top1000: TOP_1000_UDP, explicitOrder: 'ascending' }
