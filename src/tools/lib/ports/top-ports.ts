// Which TCP ports "top100" and "top1000" mean. Our own list, ordered by how often a service is found
// listening on today's hosts: web and remote access first, then mail, file sharing, databases, message
// brokers, orchestration and admin consoles, then alternate web ports. top1000 continues with the rest of
// the system port range (1-1023), where historical services live.
import type { PortLists } from '../../../toolkit/ports.js'

const COMMON = `
80,443,22,21,25,23,53,3389,110,143,445,139,135,8080,3306,8443,993,995,587,465,
5432,6379,1433,27017,111,5900,8000,8888,2049,389,1723,3000,5000,8081,9200,11211,1521,
636,88,179,554,631,9000,9090,9443,10000,5060,1025,2000,49152,49153,49154,5357,5985,5986,
6000,2222,2375,2376,6443,10250,5601,5672,15672,1883,8883,9092,2181,8009,7001,873,
1080,3128,8008,8001,8082,8083,8088,8089,8090,8181,8880,4443,7443,10443,8444,
113,119,514,513,512,548,515,9100,2082,2083,2086,2087,2095,2096,81,82,591,593,
3268,3269,464,5222,5269,6667,6697,5061,1194,1701,500,4500,1812,1813,
5984,7474,8086,9042,7000,9160,8983,8161,61616,4369,25672,4222,8222,6650,9300,2379,2380,
8500,8200,4646,10255,10256,9091,9093,9094,3100,16686,9411,5044,24224,6514,3260,
8022,830,22222,33060,5433,6432,50070,8020,9083,7077,4040,8787,26257,8529,28017,27018,
3690,9418,4786,8291,8728,9999,1337,31337,4444,5555,6666,7777,8899,9001,9002,9080,9081,
1026,1027,1028,1029,1030,1110,2001,2121,5631,5666,5800,6001,6002,6646,7070,8002,8003,
8084,8085,8087,8091,8100,8180,8280,8281,8800,8834,8843,9060,9101,9102,9103,9200,
989,990,992,902,903,1098,1099,1414,1830,2121,2483,2484,3050,3299,3310,3632,4848,5038,5353,
5938,6002,6379,6588,7002,7003,7071,7080,7180,7547,8010,8069,8123,8139,8140,8172,8333,8545,
8686,8810,9033,9185,9191,9392,9595,9990,10051,11000,12443,16379,18080,18081,19999,20547,
25565,27015,32400,37777,44818,47001,47808,49664,49665,49666,49667,49668,49669,50050,54321,
55443,60000,61613,62078
`

/** Expands "a,b,c-d" (data written above and user specs alike), keeping the first occurrence's order. */
export function expandList(spec: string): number[] {
  const seen = new Set<number>()
  for (const part of spec.split(',')) {
    const t = part.trim()
    if (!t) continue
    const [a, b] = t.split('-').map(Number)
    for (let p = a; p <= (b ?? a); p++) seen.add(p)
  }
  return [...seen]
}

function build(size: number): number[] {
  const seen = new Set<number>(expandList(COMMON))
  for (let p = 1; seen.size < size && p < 1024; p++) seen.add(p)
  return [...seen].slice(0, size)
}

export const TOP_1000: readonly number[] = Object.freeze(build(1000))
export const TOP_100: readonly number[] = Object.freeze(TOP_1000.slice(0, 100))

/** The TCP tools' `ports` lists (toolkit/ports.ts parses the spec). */
export const TCP_PORTS: PortLists = { protocol: 'tcp', top100: TOP_100, top1000: TOP_1000, explicitOrder: 'given' }
