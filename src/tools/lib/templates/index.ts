// The template engine (nuclei YAML format): load, select, run. Tools reach it through this module;
// it does I/O only through the send function a tool gives it (the scan's egress).
export { loadTemplate, TEMPLATE_LIMITS, type LoadResult } from './load.js'
export type { Template, TemplateInfo, Severity } from './model.js'
export { selectTemplates, RISKY_TAGS, type TemplateFilter } from './select.js'
export { createRequestCluster, type RequestCluster } from './cluster.js'
export { runTemplate, type TemplateOutcome } from './run.js'
export type { TemplateHttpEnv, TemplateMatch, HttpSendRequest } from './http.js'
export { createTemplateSender, TEMPLATE_HTTP } from './send.js'
export { secretMask, maskMatch, type Mask } from './mask.js'
