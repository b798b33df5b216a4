// Moved to lib/dns (Find Virtual Hosts asks the same resolver for reverse DNS).
export { chooseResolver } from '../lib/dns/resolver.js'
