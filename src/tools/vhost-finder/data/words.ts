// The shipped prefixes: names sites commonly live under beside www (the first labels that recur in
// certificate-transparency logs and in the vhost lists of gobuster/ffuf), internal ones first.
export const VHOST_WORDS: readonly string[] = [
  'www', 'www1', 'www2', 'dev', 'develop', 'development', 'staging', 'stage', 'stg', 'test', 'testing', 'qa', 'uat',
  'preprod', 'pre-prod', 'sandbox', 'demo', 'beta', 'alpha', 'preview', 'old', 'legacy', 'new', 'backup', 'prod', 'production',
  'admin', 'administrator', 'internal', 'intranet', 'int', 'corp', 'private', 'local', 'localhost', 'lab', 'mgmt', 'manage',
  'management', 'console', 'dashboard', 'panel', 'cpanel', 'backend', 'api', 'api-dev', 'dev-api', 'api-staging', 'app', 'apps',
  'portal', 'secure', 'sso', 'auth', 'login', 'accounts', 'mail', 'webmail', 'owa', 'autodiscover', 'remote', 'vpn', 'm',
  'mobile', 'shop', 'store', 'blog', 'cms', 'crm', 'erp', 'wiki', 'docs', 'help', 'support', 'status', 'monitor',
  'monitoring', 'grafana', 'kibana', 'prometheus', 'jenkins', 'ci', 'build', 'git', 'gitlab', 'jira', 'confluence',
  'registry', 'phpmyadmin', 'db', 'mysql', 'static', 'assets', 'cdn', 'img', 'media', 'files', 'ftp', 'web', 'server',
]
