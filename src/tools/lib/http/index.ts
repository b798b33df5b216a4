// Shared web helpers (Website Scanner, URL Fuzzer): URL scoping, redirect policy, soft-404 calibration.
export { candidateBaseUrls, urlHost, portOf, serviceOf, sameOrigin, resolveLink, endpointUrl, at } from './url.js'
export { redirectAllowed, registrableDomain } from './redirect-policy.js'
export { resolveStartUrl, type StartUrl, type StartUrlOptions } from './start-url.js'
export { calibrationPaths, profile, looksLikeNotFound, type Soft404Profile, type ResponseShape } from './soft404.js'
export { createFetcher, type Fetcher } from './fetch.js'
