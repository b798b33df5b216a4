// Test bed of Ward's shipped template library (templates/ at the repository root), on 127.0.112.x.
// Every shipped template has an entry: `fire` is what a site that has the problem answers (the
// template must match), `clean` what a hardened server answers on the same paths (a 403, a patched
// version, an authenticated-only answer; the template must stay silent). Each template gets its own
// namespace, /t/<template id>/..., so templates that ask for the same path do not collide.
// The clean twin runs in two modes: `not-found` (a plain 404 for every other path) and `soft-404`
// (every other path answers 200 with an HTML "page not found" that echoes the requested path and
// names many products in a blog teaser).
import http from 'node:http'
import type { AddressInfo } from 'node:net'

/** What a path answers: [status, headers, body]. */
export type Answer = [number, Record<string, string>, string | Buffer]

/**
 * Routes of one template: keys are a path (with its query when the template sends one), a
 * "METHOD /path" for other methods than GET/HEAD, or "*" for any path of the namespace.
 */
export interface BedEntry {
  fire: Record<string, Answer>
  clean?: Record<string, Answer>
}

export type TwinMode = 'not-found' | 'soft-404'

export interface LibraryBed {
  url: string
  /** The base URL a template runs against: its own namespace. */
  base(id: string): string
  close(): Promise<void>
}

const b64 = (s: string) => Buffer.from(s, 'base64')
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
const NOT_FOUND: Answer = [
  404,
  { 'content-type': 'text/html' },
  '<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>',
]
// The soft-404 page also carries a blog teaser naming many products: a template must match the
// product's own page, never a page that merely mentions it.
const BLOG =
  'Read on our blog: moving from Jenkins to GitLab CI, Grafana and Kibana dashboards, phpMyAdmin vs Adminer, Confluence and Jira tips, SonarQube, Nexus Repository Manager, RabbitMQ Management, Zabbix, Nagios, Prometheus, Webmin, cPanel, Plesk, Tomcat, JBoss, WebLogic, Keycloak, Kubernetes Dashboard, Portainer, Rancher, Argo CD, MinIO Console, Jupyter, Apache Solr, Spark, Flink, Airflow, Superset, Metabase, Roundcube Webmail, Zimbra, Outlook, Citrix Gateway, GlobalProtect, Pulse Secure, BIG-IP, vSphere, Proxmox Virtual Environment, pfSense, OpenWrt LuCI, RouterOS, UniFi, Synology DiskStation, QNAP, iLO and iDRAC (Hewlett Packard Enterprise, Integrated Lights-Out), SolarWinds Orion, ColdFusion Administrator, Axis2, Guacamole, Django administration, Redmine, Sentry, Odoo, Openfire, Gitea, TeamCity, Artifactory, Spring Boot Admin, Eureka, Hystrix Dashboard, Nacos, Selenium Grid, Swagger UI, GraphQL, XAMPP, Joomla, PrestaShop, OpenCart, MantisBT, Symfony Profiler, Laravel Telescope, Horizon, Werkzeug, Grafana 8.3.0, Jenkins 2.150, Confluence 7.13.6.'
const softNotFound = (path: string): Answer => [
  200,
  { 'content-type': 'text/html; charset=utf-8' },
  `<!DOCTYPE html><html><head><title>Page not found - Acme</title></head><body><nav><a href="/">Home</a> <a href="/login">Login</a> <a href="/admin">Admin</a></nav><h1>Sorry, we could not find ${escapeHtml(path)}</h1><p>The page may have moved. Status: 200 OK, error: not found.</p><aside>${BLOG}</aside></body></html>`,
]
const FORBIDDEN: Answer = [
  403,
  { 'content-type': 'text/html' },
  '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>403 Forbidden</title></head>\n<body>\n<h1>Forbidden</h1><p>You don\'t have permission to access this resource.</p>\n</body></html>\n',
]

// WordPress answers shared by the library bed and the WordPress bed (test/testbed/wordpress-site.ts).
/** wp-admin/maint/repair.php with WP_ALLOW_REPAIR on (the repair buttons) or off (how to turn it on). */
export const WP_REPAIR = (allowed: boolean) =>
  `<!DOCTYPE html>\n<html lang="en-US"><head><meta charset="UTF-8" /><title>WordPress &rsaquo; Database Repair</title></head>\n<body class="wp-core-ui">\n<p id="logo"><a href="https://wordpress.org/">WordPress</a></p>\n` +
  (allowed
    ? '<h1 class="screen-reader-text">WordPress database repair</h1><p>WordPress can automatically look for some common database problems and repair them.</p><p class="step"><a class="button button-large" href="repair.php?repair=1">Repair Database</a></p><p class="step"><a class="button button-large" href="repair.php?repair=2">Repair and Optimize Database</a></p>'
    : '<h1 class="screen-reader-text">Allow automatic database repair</h1><p>To allow use of this page to automatically repair database problems, please add the following line to your <code>wp-config.php</code> file. Once this line is added to your config, reload this page.</p><p><code>define(\'WP_ALLOW_REPAIR\', true);</code></p>') +
  '\n</body></html>\n'
/** wp-includes/rss-functions.php requested directly with display_errors on (PHP 8). */
export const WP_RSS_FATAL =
  '<br />\n<b>Fatal error</b>:  Uncaught Error: Call to undefined function _deprecated_file() in /var/www/html/wp-includes/rss-functions.php:8\nStack trace:\n#0 {main}\n  thrown in <b>/var/www/html/wp-includes/rss-functions.php</b> on line <b>8</b><br />\n'
/** A plugin's readme.txt with its Stable tag. */
export const wpReadme = (name: string, tag: string): Answer => [
  200,
  { 'content-type': 'text/plain' },
  `=== ${name} ===\nContributors: someone\nRequires at least: 5.0\nTested up to: 6.2\nStable tag: ${tag}\nLicense: GPLv3\n\n== Description ==\n${name}.\n\n== Changelog ==\n= ${tag} =\n* Fixes.\n`,
]

function lookup(routes: Record<string, Answer> | undefined, method: string, pathAndQuery: string, path: string): Answer | undefined {
  if (!routes) return undefined
  return (
    routes[`${method} ${path}`] ??
    (method === 'GET' || method === 'HEAD' ? (routes[pathAndQuery] ?? routes[path]) : undefined) ??
    routes['*']
  )
}

/** The site that has every problem (`clean` unset) or its hardened twin. */
export async function startLibraryBed(host: string, o: { clean?: TwinMode } = {}): Promise<LibraryBed> {
  const server = http.createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      const u = new URL(req.url ?? '/', 'http://x')
      const m = /^\/t\/([^/]+)(\/.*)?$/.exec(u.pathname)
      const entry = m ? LIBRARY_BED[decodeURIComponent(m[1]!)] : undefined
      const path = m?.[2] ?? '/'
      const method = req.method ?? 'GET'
      const found = entry && lookup(o.clean ? entry.clean : entry.fire, method, path + u.search, path)
      const [status, headers, body] = found ?? (o.clean === 'soft-404' ? softNotFound(path + u.search) : NOT_FOUND)
      res.writeHead(status, headers)
      res.end(method === 'HEAD' ? undefined : body)
    })
  })
  await new Promise<void>((ok) => server.listen(0, host, ok))
  const url = `http://${host}:${(server.address() as AddressInfo).port}`
  return {
    url,
    base: (id) => `${url}/t/${encodeURIComponent(id)}`,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  }
}

export const LIBRARY_BED: Record<string, BedEntry> = {
  'docker-compose-config': {
    fire: {
      '/docker-compose.yml': [
        200,
        { 'content-type': 'application/x-yaml' },
        'version: "3.8"\nservices:\n  db:\n    image: postgres:15\n    environment:\n      POSTGRES_PASSWORD: s3cret\n  web:\n    image: acme/web:1.4\n',
      ],
    },
    clean: { '/docker-compose.yml': FORBIDDEN },
  },
  'dockerfile-exposed': {
    fire: {
      '/Dockerfile': [
        200,
        { 'content-type': 'text/plain' },
        'FROM node:20-alpine\nWORKDIR /app\nCOPY package*.json ./\nRUN npm ci\nCOPY . .\nCMD ["node", "server.js"]\n',
      ],
    },
    clean: { '/Dockerfile': FORBIDDEN },
  },
  'htaccess-exposed': {
    fire: {
      '/.htaccess': [
        200,
        { 'content-type': 'text/plain' },
        'RewriteEngine On\nRewriteCond %{REQUEST_FILENAME} !-f\nRewriteRule ^(.*)$ index.php?q=$1 [L,QSA]\nAuthUserFile /var/www/.htpasswd\n',
      ],
    },
    clean: { '/.htaccess': FORBIDDEN },
  },
  'iis-web-config': {
    fire: {
      '/web.config': [
        200,
        { 'content-type': 'application/xml' },
        '<?xml version="1.0" encoding="utf-8"?>\n<configuration>\n  <connectionStrings>\n    <add name="Main" connectionString="Server=db;Database=shop;User Id=sa;Password=Winter2024" />\n  </connectionStrings>\n  <system.webServer>\n    <handlers />\n  </system.webServer>\n</configuration>\n',
      ],
    },
    clean: { '/web.config': FORBIDDEN },
  },
  'aspnet-appsettings-json': {
    fire: {
      '/appsettings.json': [
        200,
        { 'content-type': 'application/json' },
        '{\n  "Logging": { "LogLevel": { "Default": "Information" } },\n  "AllowedHosts": "*",\n  "ConnectionStrings": { "Default": "Server=db;Database=app;User Id=app;Password=p4ss" }\n}\n',
      ],
    },
    clean: { '/appsettings.json': FORBIDDEN },
  },
  'spring-application-properties': {
    fire: {
      '/application.properties': [
        200,
        { 'content-type': 'text/plain' },
        'server.port=8080\nspring.datasource.url=jdbc:mysql://db:3306/shop\nspring.datasource.username=shop\nspring.datasource.password=hunter2\n',
      ],
    },
    clean: { '/application.properties': FORBIDDEN },
  },
  'spring-application-yml': {
    fire: {
      '/application.yml': [
        200,
        { 'content-type': 'application/x-yaml' },
        'spring:\n  application:\n    name: orders\n  datasource:\n    url: jdbc:postgresql://db/orders\n    password: hunter2\n',
      ],
    },
    clean: { '/application.yml': FORBIDDEN },
  },
  'phpunit-xml-exposed': {
    fire: {
      '/phpunit.xml': [
        200,
        { 'content-type': 'application/xml' },
        '<?xml version="1.0" encoding="UTF-8"?>\n<phpunit bootstrap="vendor/autoload.php" colors="true">\n  <testsuites>\n    <testsuite name="Unit"><directory>tests/Unit</directory></testsuite>\n  </testsuites>\n</phpunit>\n',
      ],
    },
    clean: { '/phpunit.xml': FORBIDDEN },
  },
  'composer-lock-exposed': {
    fire: {
      '/composer.lock': [
        200,
        { 'content-type': 'application/json' },
        '{\n  "_readme": ["This file locks the dependencies of your project to a known state"],\n  "content-hash": "1f2e",\n  "packages": [{ "name": "guzzlehttp/guzzle", "version": "7.4.1" }]\n}\n',
      ],
    },
    clean: { '/composer.lock': FORBIDDEN },
  },
  'npm-lockfile-exposed': {
    fire: {
      '/package-lock.json': [
        200,
        { 'content-type': 'application/json' },
        '{\n  "name": "shop",\n  "version": "1.0.0",\n  "lockfileVersion": 3,\n  "packages": { "node_modules/express": { "version": "4.17.1" } }\n}\n',
      ],
    },
    clean: { '/package-lock.json': FORBIDDEN },
  },
  'yarn-lockfile-exposed': {
    fire: {
      '/yarn.lock': [
        200,
        { 'content-type': 'text/plain' },
        '# THIS IS AN AUTOGENERATED FILE. DO NOT EDIT THIS FILE DIRECTLY.\n# yarn lockfile v1\n\n\nexpress@^4.17.1:\n  version "4.17.1"\n',
      ],
    },
    clean: { '/yarn.lock': FORBIDDEN },
  },
  'gemfile-lock-exposed': {
    fire: {
      '/Gemfile.lock': [
        200,
        { 'content-type': 'text/plain' },
        'GEM\n  remote: https://rubygems.org/\n  specs:\n    rails (6.1.4)\n    rack (2.2.3)\n\nPLATFORMS\n  ruby\n',
      ],
    },
    clean: { '/Gemfile.lock': FORBIDDEN },
  },
  'pipfile-lock-exposed': {
    fire: {
      '/Pipfile.lock': [
        200,
        { 'content-type': 'application/json' },
        '{\n  "_meta": { "hash": { "sha256": "ab12" }, "pipfile-spec": 6, "requires": { "python_version": "3.9" } },\n  "default": { "django": { "version": "==3.2.4" } }\n}\n',
      ],
    },
    clean: { '/Pipfile.lock': FORBIDDEN },
  },
  'composer-installed-json': {
    fire: {
      '/vendor/composer/installed.json': [
        200,
        { 'content-type': 'application/json' },
        '{\n  "packages": [\n    { "name": "phpunit/phpunit", "version": "5.6.2", "installation-source": "dist", "install-path": "../phpunit/phpunit" }\n  ]\n}\n',
      ],
    },
    clean: { '/vendor/composer/installed.json': FORBIDDEN },
  },
  'nginx-conf-exposed': {
    fire: {
      '/nginx.conf': [
        200,
        { 'content-type': 'text/plain' },
        'events { worker_connections 1024; }\nhttp {\n  server {\n    listen 80;\n    server_name shop.example;\n    root /srv/www;\n    location /internal/ { proxy_pass http://10.0.0.5:8080; }\n  }\n}\n',
      ],
    },
    clean: { '/nginx.conf': FORBIDDEN },
  },
  'php-ini-exposed': {
    fire: {
      '/php.ini': [
        200,
        { 'content-type': 'text/plain' },
        '[PHP]\nengine = On\ndisplay_errors = On\nmemory_limit = 512M\ndisable_functions =\n',
      ],
    },
    clean: { '/php.ini': FORBIDDEN },
  },
  'rails-database-yml': {
    fire: {
      '/config/database.yml': [
        200,
        { 'content-type': 'application/x-yaml' },
        'default: &default\n  adapter: postgresql\n  pool: 5\nproduction:\n  <<: *default\n  database: shop_production\n  username: shop\n  password: Pr0dPass\n',
      ],
    },
    clean: { '/config/database.yml': FORBIDDEN },
  },
  'rails-secrets-yml': {
    fire: {
      '/config/secrets.yml': [
        200,
        { 'content-type': 'application/x-yaml' },
        'development:\n  secret_key_base: 3f2a9c0d4e7b1a6c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c\nproduction:\n  secret_key_base: <%= ENV["SECRET_KEY_BASE"] %>\n',
      ],
    },
    clean: { '/config/secrets.yml': FORBIDDEN },
  },
  'django-settings-exposed': {
    fire: {
      '/settings.py': [
        200,
        { 'content-type': 'text/plain' },
        "import os\nSECRET_KEY = 'django-insecure-9x!k2@f0z'\nDEBUG = False\nINSTALLED_APPS = ['django.contrib.admin', 'shop']\n",
      ],
    },
    clean: { '/settings.py': FORBIDDEN },
  },
  'ci-config-exposed': {
    fire: {
      '/.gitlab-ci.yml': [
        200,
        { 'content-type': 'application/x-yaml' },
        'stages:\n  - test\n  - deploy\ntest:\n  stage: test\n  script:\n    - npm test\ndeploy:\n  stage: deploy\n  script:\n    - ./deploy.sh production\n',
      ],
    },
    clean: { '/.gitlab-ci.yml': FORBIDDEN },
  },
  'jenkinsfile-exposed': {
    fire: {
      '/Jenkinsfile': [
        200,
        { 'content-type': 'text/plain' },
        "pipeline {\n  agent any\n  stages {\n    stage('Deploy') { steps { sh './deploy.sh' } }\n  }\n}\n",
      ],
    },
    clean: { '/Jenkinsfile': FORBIDDEN },
  },
  'circleci-config-exposed': {
    fire: {
      '/.circleci/config.yml': [
        200,
        { 'content-type': 'application/x-yaml' },
        'version: 2.1\njobs:\n  build:\n    docker:\n      - image: cimg/node:20.1\n    steps:\n      - checkout\nworkflows:\n  main:\n    jobs: [build]\n',
      ],
    },
    clean: { '/.circleci/config.yml': FORBIDDEN },
  },
  'terraform-state-exposed': {
    fire: {
      '/terraform.tfstate': [
        200,
        { 'content-type': 'application/json' },
        '{\n  "version": 4,\n  "terraform_version": "1.5.7",\n  "serial": 12,\n  "resources": [{ "type": "aws_db_instance", "instances": [{ "attributes": { "password": "tf-generated" } }] }]\n}\n',
      ],
    },
    clean: { '/terraform.tfstate': FORBIDDEN },
  },
  'kubeconfig-exposed': {
    fire: {
      '/.kube/config': [
        200,
        { 'content-type': 'application/x-yaml' },
        'apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    server: https://10.0.0.1:6443\n  name: prod\nusers:\n- name: admin\n  user:\n    token: eyJhbGciOi\n',
      ],
    },
    clean: { '/.kube/config': FORBIDDEN },
  },
  'docker-config-json': {
    fire: {
      '/.docker/config.json': [
        200,
        { 'content-type': 'application/json' },
        '{\n  "auths": {\n    "registry.example": { "auth": "ZGVwbG95OnMzY3JldA==" }\n  }\n}\n',
      ],
    },
    clean: { '/.docker/config.json': FORBIDDEN },
  },
  'wsftp-filezilla-sitemanager': {
    fire: {
      '/sitemanager.xml': [
        200,
        { 'content-type': 'application/xml' },
        '<?xml version="1.0" encoding="UTF-8"?>\n<FileZilla3 version="3.60.2">\n  <Servers>\n    <Server><Host>ftp.example</Host><Port>21</Port><User>deploy</User><Pass encoding="base64">czNjcmV0</Pass></Server>\n  </Servers>\n</FileZilla3>\n',
      ],
    },
    clean: { '/sitemanager.xml': FORBIDDEN },
  },
  'sftp-config-json': {
    fire: {
      '/sftp-config.json': [
        200,
        { 'content-type': 'application/json' },
        '{\n  // sftp-config.json\n  "type": "sftp",\n  "host": "prod.example",\n  "user": "deploy",\n  "password": "s3cret",\n  "remote_path": "/var/www/"\n}\n',
      ],
    },
    clean: { '/sftp-config.json': FORBIDDEN },
  },
  'idea-workspace-exposed': {
    fire: {
      '/.idea/workspace.xml': [
        200,
        { 'content-type': 'application/xml' },
        '<?xml version="1.0" encoding="UTF-8"?>\n<project version="4">\n  <component name="ChangeListManager">\n    <list default="true" name="Default" />\n  </component>\n</project>\n',
      ],
    },
    clean: { '/.idea/workspace.xml': FORBIDDEN },
  },
  'vscode-settings-exposed': {
    fire: {
      '/.vscode/launch.json': [
        200,
        { 'content-type': 'application/json' },
        '{\n  "version": "0.2.0",\n  "configurations": [{ "type": "node", "request": "launch", "name": "API", "program": "${workspaceFolder}/server.js", "env": { "DB_PASS": "dev" } }]\n}\n',
      ],
    },
    clean: { '/.vscode/launch.json': FORBIDDEN },
  },
  'java-web-xml-exposed': {
    fire: {
      '/WEB-INF/web.xml': [
        200,
        { 'content-type': 'application/xml' },
        '<?xml version="1.0" encoding="UTF-8"?>\n<web-app xmlns="http://xmlns.jcp.org/xml/ns/javaee" version="3.1">\n  <servlet><servlet-name>admin</servlet-name><servlet-class>com.acme.Admin</servlet-class></servlet>\n</web-app>\n',
      ],
    },
    clean: { '/WEB-INF/web.xml': FORBIDDEN },
  },
  'magento-local-xml': {
    fire: {
      '/app/etc/local.xml': [
        200,
        { 'content-type': 'application/xml' },
        '<?xml version="1.0"?>\n<config>\n  <global>\n    <crypt><key><![CDATA[5e0f6c7a0b]]></key></crypt>\n    <resources><default_setup><connection><host>localhost</host><password>mag3nt0</password></connection></default_setup></resources>\n  </global>\n</config>\n',
      ],
    },
    clean: { '/app/etc/local.xml': FORBIDDEN },
  },
  'crossdomain-xml-wildcard': {
    fire: {
      '/crossdomain.xml': [
        200,
        { 'content-type': 'application/xml' },
        '<?xml version="1.0"?>\n<cross-domain-policy>\n  <allow-access-from domain="*" />\n</cross-domain-policy>\n',
      ],
    },
    clean: { '/crossdomain.xml': FORBIDDEN },
  },
  'clientaccesspolicy-wildcard': {
    fire: {
      '/clientaccesspolicy.xml': [
        200,
        { 'content-type': 'application/xml' },
        '<?xml version="1.0" encoding="utf-8"?>\n<access-policy><cross-domain-access><policy><allow-from><domain uri="*"/></allow-from><grant-to><resource path="/" include-subpaths="true"/></grant-to></policy></cross-domain-access></access-policy>\n',
      ],
    },
    clean: { '/clientaccesspolicy.xml': FORBIDDEN },
  },
  'wpad-dat-exposed': {
    fire: {
      '/wpad.dat': [
        200,
        { 'content-type': 'application/x-ns-proxy-autoconfig' },
        'function FindProxyForURL(url, host) {\n  if (isInNet(host, "10.0.0.0", "255.0.0.0")) return "DIRECT";\n  return "PROXY proxy.corp.example:3128";\n}\n',
      ],
    },
    clean: { '/wpad.dat': FORBIDDEN },
  },
  'firebase-config-exposed': {
    fire: {
      '/.firebaserc': [200, { 'content-type': 'application/json' }, '{\n  "projects": {\n    "default": "acme-shop-prod"\n  }\n}\n'],
    },
    clean: { '/.firebaserc': FORBIDDEN },
  },
  'env-js-config': {
    fire: {
      '/env.js': [
        200,
        { 'content-type': 'application/javascript' },
        'window.__ENV = {\n  API_URL: "https://api.example",\n  CLIENT_SECRET: "c0ffee-5ecret-42",\n  DATABASE_URL: "postgres://app:pw@db/app"\n};\n',
      ],
    },
    clean: { '/env.js': FORBIDDEN },
  },
  'ssh-private-key': {
    fire: {
      '/id_rsa': [
        200,
        { 'content-type': 'application/octet-stream' },
        '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----\n',
      ],
    },
    clean: { '/id_rsa': FORBIDDEN },
  },
  'tls-private-key': {
    fire: {
      '/server.key': [
        200,
        { 'content-type': 'application/octet-stream' },
        '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\n-----END PRIVATE KEY-----\n',
      ],
    },
    clean: { '/server.key': FORBIDDEN },
  },
  'aws-credentials-file': {
    fire: {
      '/.aws/credentials': [
        200,
        { 'content-type': 'text/plain' },
        '[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n',
      ],
    },
    clean: { '/.aws/credentials': FORBIDDEN },
  },
  'gcp-service-account-key': {
    fire: {
      '/credentials.json': [
        200,
        { 'content-type': 'application/json' },
        '{\n  "type": "service_account",\n  "project_id": "acme-prod",\n  "private_key_id": "1a2b3c",\n  "private_key": "-----BEGIN PRIVATE KEY-----\\nMIIE\\n-----END PRIVATE KEY-----\\n",\n  "client_email": "deploy@acme-prod.iam.gserviceaccount.com"\n}\n',
      ],
    },
    clean: { '/credentials.json': FORBIDDEN },
  },
  'npmrc-auth-token': {
    fire: {
      '/.npmrc': [
        200,
        { 'content-type': 'text/plain' },
        'registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken=npm_1a2B3c4D5e6F7g8H9i0J\n',
      ],
    },
    clean: { '/.npmrc': FORBIDDEN },
  },
  'pypirc-exposed': {
    fire: {
      '/.pypirc': [
        200,
        { 'content-type': 'text/plain' },
        '[distutils]\nindex-servers = pypi\n\n[pypi]\nusername = __token__\npassword = pypi-AgEIcHlwaS5vcmc\n',
      ],
    },
    clean: { '/.pypirc': FORBIDDEN },
  },
  'git-credentials-exposed': {
    fire: {
      '/.git-credentials': [200, { 'content-type': 'text/plain' }, 'https://deploy:ghp_16C7e42F292c6912E7710c838347Ae178B4a@github.com\n'],
    },
    clean: { '/.git-credentials': FORBIDDEN },
  },
  'netrc-exposed': {
    fire: { '/.netrc': [200, { 'content-type': 'text/plain' }, 'machine api.example login deploy password s3cret\n'] },
    clean: { '/.netrc': FORBIDDEN },
  },
  'pgpass-exposed': {
    fire: { '/.pgpass': [200, { 'content-type': 'text/plain' }, 'db.internal:5432:shop:shop_app:Pg-Pa55\n'] },
    clean: { '/.pgpass': FORBIDDEN },
  },
  's3cmd-config-exposed': {
    fire: {
      '/.s3cfg': [
        200,
        { 'content-type': 'text/plain' },
        '[default]\naccess_key = AKIAIOSFODNN7EXAMPLE\nsecret_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\nhost_base = s3.amazonaws.com\n',
      ],
    },
    clean: { '/.s3cfg': FORBIDDEN },
  },
  'rails-master-key': {
    fire: { '/config/master.key': [200, { 'content-type': 'text/plain' }, '5f1d3c9a7b2e4f6081a3c5e7d9b1f3a5\n'] },
    clean: { '/config/master.key': FORBIDDEN },
  },
  'mysql-history-exposed': {
    fire: {
      '/.mysql_history': [
        200,
        { 'content-type': 'text/plain' },
        "_HiStOrY_V2_\nshow\\040databases;\nCREATE\\040USER\\040'shop'@'%'\\040IDENTIFIED\\040BY\\040'pw';\n",
      ],
    },
    clean: { '/.mysql_history': FORBIDDEN },
  },
  'shell-history-exposed': {
    fire: {
      '/.bash_history': [
        200,
        { 'content-type': 'text/plain' },
        'cd /var/www\ngit pull\nmysql -u root -pR00tPass shop\nsudo systemctl restart nginx\n',
      ],
    },
    clean: { '/.bash_history': FORBIDDEN },
  },
  'bazaar-repo-exposed': {
    fire: { '/.bzr/branch-format': [200, { 'content-type': 'text/plain' }, 'Bazaar-NG meta directory, format 1\n'] },
    clean: { '/.bzr/branch-format': FORBIDDEN },
  },
  'cvs-root-exposed': {
    fire: { '/CVS/Root': [200, { 'content-type': 'text/plain' }, ':pserver:anonymous@cvs.example:/cvsroot/shop\n'] },
    clean: { '/CVS/Root': FORBIDDEN },
  },
  'darcs-repo-exposed': {
    fire: { '/_darcs/format': [200, { 'content-type': 'text/plain' }, 'hashed\ndarcs-2\n'] },
    clean: { '/_darcs/format': FORBIDDEN },
  },
  'fossil-repo-exposed': {
    fire: {
      '/.fslckout': [
        200,
        { 'content-type': 'application/octet-stream' },
        'SQLite format 3\u0000\u0010\u0000\u0001\u0001vvar\u0000fossil-checkout',
      ],
    },
    clean: { '/.fslckout': FORBIDDEN },
  },
  'gitignore-exposed': {
    fire: { '/.gitignore': [200, { 'content-type': 'text/plain' }, '/vendor/\n/node_modules/\n.env\n*.log\n/storage/*.key\n'] },
    clean: { '/.gitignore': FORBIDDEN },
  },
  'gitmodules-exposed': {
    fire: {
      '/.gitmodules': [
        200,
        { 'content-type': 'text/plain' },
        '[submodule "libs/payments"]\n\tpath = libs/payments\n\turl = git@git.internal.example:shop/payments.git\n',
      ],
    },
    clean: { '/.gitmodules': FORBIDDEN },
  },
  'webroot-archive-backup': {
    fire: { '/www.zip': [200, { 'content-type': 'application/zip' }, b64('UEsDBBQAAAAIAGluZGV4LnBocA==')] },
    clean: { '/www.zip': FORBIDDEN },
  },
  'sql-dump-extra-names': {
    fire: {
      '/data.sql': [
        200,
        { 'content-type': 'application/sql' },
        "-- MySQL dump 10.13  Distrib 8.0.33, for Linux (x86_64)\n--\n-- Host: localhost    Database: shop\nCREATE TABLE `users` (\n  `id` int NOT NULL,\n  `password` varchar(255)\n);\nINSERT INTO `users` VALUES (1,'$2y$10$abc');\n",
      ],
    },
    clean: { '/data.sql': FORBIDDEN },
  },
  'sqlite-database-exposed': {
    fire: {
      '/db.sqlite': [
        200,
        { 'content-type': 'application/octet-stream' },
        b64('U1FMaXRlIGZvcm1hdCAzABAAAQEAQCAgAAAAAkNSRUFURSBUQUJMRSB1c2Vycw=='),
      ],
    },
    clean: { '/db.sqlite': FORBIDDEN },
  },
  'php-config-backup-copies': {
    fire: {
      '/configuration.php.bak': [
        200,
        { 'content-type': 'application/octet-stream' },
        "<?php\nclass JConfig {\n  public $host = 'localhost';\n  public $user = 'shop';\n  public $password = 'S3cret!';\n}\n",
      ],
    },
    clean: { '/configuration.php.bak': FORBIDDEN },
  },
  'thumbs-db-exposed': {
    fire: { '/Thumbs.db': [200, { 'content-type': 'application/octet-stream' }, b64('0M8R4KGxGuEAAENhdGFsb2c=')] },
    clean: { '/Thumbs.db': FORBIDDEN },
  },
  'java-war-jar-backup': {
    fire: { '/ROOT.war': [200, { 'content-type': 'application/java-archive' }, b64('UEsDBBQACAgIAE1FVEEtSU5GL01BTklGRVNULk1G')] },
    clean: { '/ROOT.war': FORBIDDEN },
  },
  'php-error-log-exposed': {
    fire: {
      '/error_log': [
        200,
        { 'content-type': 'text/plain' },
        "[12-Mar-2024 10:22:31 UTC] PHP Warning:  mysqli_connect(): (HY000/1045): Access denied for user 'shop'@'localhost' in /var/www/html/db.php on line 4\n",
      ],
    },
    clean: { '/error_log': FORBIDDEN },
  },
  'laravel-log-exposed': {
    fire: {
      '/storage/logs/laravel.log': [
        200,
        { 'content-type': 'text/plain' },
        '[2024-03-12 10:22:31] production.ERROR: SQLSTATE[HY000] [1045] Access denied for user \'forge\'@\'localhost\' {"exception":"[object] (PDOException(code: 1045)"}\n',
      ],
    },
    clean: { '/storage/logs/laravel.log': FORBIDDEN },
  },
  'npm-debug-log-exposed': {
    fire: {
      '/npm-debug.log': [
        200,
        { 'content-type': 'text/plain' },
        "0 info it worked if it ends with ok\n1 verbose cli [ '/usr/bin/node', '/usr/bin/npm', 'run', 'build' ]\n2 info using npm@6.14.4\n",
      ],
    },
    clean: { '/npm-debug.log': FORBIDDEN },
  },
  'web-access-log-exposed': {
    fire: {
      '/access.log': [
        200,
        { 'content-type': 'text/plain' },
        '203.0.113.7 - - [12/Mar/2024:10:22:31 +0000] "GET /reset?token=9f8e7d HTTP/1.1" 200 512 "-" "Mozilla/5.0"\n',
      ],
    },
    clean: { '/access.log': FORBIDDEN },
  },
  'rails-log-exposed': {
    fire: {
      '/log/production.log': [
        200,
        { 'content-type': 'text/plain' },
        'I, [2024-03-12T10:22:31.123 #1]  INFO -- : Started POST "/login" for 203.0.113.7 at 2024-03-12 10:22:31 +0000\nI, [2024-03-12T10:22:31.130 #1]  INFO -- : Processing by SessionsController#create as HTML\n',
      ],
    },
    clean: { '/log/production.log': FORBIDDEN },
  },
  'sftp-server-log-exposed': {
    fire: {
      '/WS_FTP.LOG': [
        200,
        { 'content-type': 'text/plain' },
        '2024.03.12 10:22 B C:\\site\\config.php --> ftp.example /public_html config.php\n',
      ],
    },
    clean: { '/WS_FTP.LOG': FORBIDDEN },
  },
  'apache-default-page': {
    fire: {
      '/': [
        200,
        { 'content-type': 'text/html' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Apache2 Ubuntu Default Page: It works</title></head>\n<body>\n<div class="section_header">It works!</div><p>This is the default welcome page used to test the correct operation of the Apache2 server after installation on Ubuntu systems.</p>\n</body></html>\n',
      ],
    },
    clean: {
      '/': [
        200,
        { 'content-type': 'text/html' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Acme Shop</title></head>\n<body>\n<h1>Welcome to Acme Shop</h1><p>Served by Apache.</p>\n</body></html>\n',
      ],
    },
  },
  'nginx-default-page': {
    fire: {
      '/': [
        200,
        { 'content-type': 'text/html' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Welcome to nginx!</title></head>\n<body>\n<h1>Welcome to nginx!</h1><p>If you see this page, the nginx web server is successfully installed and working. Further configuration is required.</p>\n</body></html>\n',
      ],
    },
    clean: {
      '/': [
        200,
        { 'content-type': 'text/html' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Acme Shop</title></head>\n<body>\n<h1>Welcome to Acme Shop</h1><p>We run nginx.</p>\n</body></html>\n',
      ],
    },
  },
  'iis-default-page': {
    fire: {
      '/iisstart.htm': [
        200,
        { 'content-type': 'text/html' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>IIS Windows Server</title></head>\n<body>\n<div id="container"><a href="http://go.microsoft.com/fwlink/?linkid=66138&amp;clcid=0x409"><img src="iisstart.png" alt="IIS" width="960" height="600" /></a></div>\n</body></html>\n',
      ],
    },
  },
  'tomcat-default-page': {
    fire: {
      '/': [
        200,
        { 'content-type': 'text/html' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Apache Tomcat/9.0.83</title></head>\n<body>\n<h2>If you\'re seeing this, you\'ve successfully installed Tomcat. Congratulations!</h2><a href="/manager/status">Server Status</a>\n</body></html>\n',
      ],
    },
  },
  'tomcat-examples-installed': {
    fire: {
      '/examples/servlets/index.html': [
        200,
        { 'content-type': 'text/html' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Servlet Examples</title></head>\n<body>\n<h3>Servlet Examples with Code</h3><p>Apache Tomcat example servlets.</p><a href="servlet/SessionExample">Sessions</a>\n</body></html>\n',
      ],
    },
  },
  'tomcat-snoop-jsp': {
    fire: {
      '/examples/jsp/snp/snoop.jsp': [
        200,
        { 'content-type': 'text/html' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>JSP snoop page</title></head>\n<body>\n<h1>Request Information</h1><table><tr><td>JSP Request Method:</td><td>GET</td></tr><tr><td>Server name:</td><td>app01.internal</td></tr></table>\n</body></html>\n',
      ],
    },
  },
  'cgi-printenv-exposed': {
    fire: {
      '/cgi-bin/printenv': [
        200,
        { 'content-type': 'text/plain' },
        'DOCUMENT_ROOT="/var/www/html"\nGATEWAY_INTERFACE="CGI/1.1"\nSERVER_SOFTWARE="Apache/2.4.41 (Ubuntu)"\nSERVER_ADDR="10.0.0.12"\n',
      ],
    },
  },
  'apache-manual-installed': {
    fire: {
      '/manual/': [
        200,
        { 'content-type': 'text/html' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Apache HTTP Server Version 2.4 Documentation - Apache HTTP Server Version 2.4</title></head>\n<body>\n<div id="page-header"><p class="apache">Apache HTTP Server Version 2.4</p></div>\n</body></html>\n',
      ],
    },
  },
  'xampp-dashboard': {
    fire: {
      '/dashboard/': [
        200,
        { 'content-type': 'text/html' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Welcome to XAMPP</title></head>\n<body>\n<h1>Welcome to XAMPP for Linux 8.2.4</h1><p>XAMPP Apache + MariaDB + PHP + Perl</p>\n</body></html>\n',
      ],
    },
  },
  'joomla-installer-left': {
    fire: {
      '/installation/index.php': [
        200,
        { 'content-type': 'text/html' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Joomla! Web Installer</title></head>\n<body>\n<div id="installer-view" class="j-install"><h1>Joomla! Installation</h1><form action="index.php?task=installation.setup"></form></div>\n</body></html>\n',
      ],
    },
  },
  'prestashop-installer-left': {
    fire: {
      '/install/index.php': [
        200,
        { 'content-type': 'text/html' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>PrestaShop Installation Assistant</title></head>\n<body>\n<div id="install_process_form"><h2>Welcome to the PrestaShop 8 Installer</h2></div>\n</body></html>\n',
      ],
    },
  },
  'opencart-installer-left': {
    fire: {
      '/install/index.php?route=install/step_1': [
        200,
        { 'content-type': 'text/html' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Installation</title></head>\n<body>\n<header><h1>OpenCart Installation</h1></header><form action="index.php?route=install/step_1"></form>\n</body></html>\n',
      ],
    },
  },
  'mantisbt-installer-left': {
    fire: {
      '/admin/install.php': [
        200,
        { 'content-type': 'text/html' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Administration - Installation - MantisBT</title></head>\n<body>\n<h1>Pre-Installation Check</h1>\n</body></html>\n',
      ],
    },
  },
  'spring-actuator-env': {
    fire: {
      '/actuator/env': [
        200,
        { 'content-type': 'application/vnd.spring-boot.actuator.v3+json' },
        '{"activeProfiles":["prod"],"propertySources":[{"name":"systemEnvironment","properties":{"DB_PASSWORD":{"value":"******"},"JAVA_HOME":{"value":"/opt/java"}}}]}',
      ],
    },
    clean: { '/actuator/env': [401, { 'content-type': 'application/json' }, '{"error":"Unauthorized","status":401}'] },
  },
  'spring-actuator-heapdump': {
    fire: {
      '/actuator/heapdump': [
        200,
        { 'content-type': 'application/octet-stream', 'content-disposition': 'attachment; filename="heapdump12345.hprof.gz"' },
        '',
      ],
    },
    clean: { '/actuator/heapdump': [401, { 'content-type': 'application/json' }, '{"error":"Unauthorized","status":401}'] },
  },
  'spring-actuator-configprops': {
    fire: {
      '/actuator/configprops': [
        200,
        { 'content-type': 'application/json' },
        '{"contexts":{"application":{"beans":{"spring.datasource-org.springframework.boot.autoconfigure.jdbc.DataSourceProperties":{"prefix":"spring.datasource","properties":{"url":"jdbc:mysql://db/app","username":"app"}}}}}}',
      ],
    },
    clean: { '/actuator/configprops': [401, { 'content-type': 'application/json' }, '{"error":"Unauthorized","status":401}'] },
  },
  'spring-actuator-mappings': {
    fire: {
      '/actuator/mappings': [
        200,
        { 'content-type': 'application/json' },
        '{"contexts":{"application":{"mappings":{"dispatcherServlets":{"dispatcherServlet":[{"handler":"com.acme.AdminController#reset()","predicate":"{POST [/internal/reset]}"}]}}}}}',
      ],
    },
    clean: { '/actuator/mappings': [401, { 'content-type': 'application/json' }, '{"error":"Unauthorized","status":401}'] },
  },
  'spring-actuator-threaddump': {
    fire: {
      '/actuator/threaddump': [
        200,
        { 'content-type': 'application/json' },
        '{"threads":[{"threadName":"http-nio-8080-exec-1","threadId":31,"threadState":"RUNNABLE","stackTrace":[]}]}',
      ],
    },
    clean: { '/actuator/threaddump': [401, { 'content-type': 'application/json' }, '{"error":"Unauthorized","status":401}'] },
  },
  'spring-actuator-loggers': {
    fire: {
      '/actuator/loggers': [
        200,
        { 'content-type': 'application/json' },
        '{"levels":["OFF","ERROR","WARN","INFO","DEBUG","TRACE"],"loggers":{"ROOT":{"configuredLevel":"INFO","effectiveLevel":"INFO"}}}',
      ],
    },
    clean: { '/actuator/loggers': [401, { 'content-type': 'application/json' }, '{"error":"Unauthorized","status":401}'] },
  },
  'spring-actuator-httptrace': {
    fire: {
      '/actuator/httptrace': [
        200,
        { 'content-type': 'application/json' },
        '{"traces":[{"timestamp":"2024-03-12T10:22:31Z","request":{"method":"GET","uri":"http://shop/account","headers":{"cookie":["SESSION=8f7e"]}}}]}',
      ],
    },
    clean: { '/actuator/httptrace': [401, { 'content-type': 'application/json' }, '{"error":"Unauthorized","status":401}'] },
  },
  'spring-actuator-beans': {
    fire: {
      '/actuator/beans': [
        200,
        { 'content-type': 'application/json' },
        '{"contexts":{"application":{"beans":{"dataSource":{"aliases":[],"scope":"singleton","type":"com.zaxxer.hikari.HikariDataSource","resource":"class path resource","dependencies":[]}}}}}',
      ],
    },
    clean: { '/actuator/beans': [401, { 'content-type': 'application/json' }, '{"error":"Unauthorized","status":401}'] },
  },
  'spring-cloud-gateway-routes': {
    fire: {
      '/actuator/gateway/routes': [
        200,
        { 'content-type': 'application/json' },
        '[{"predicate":"Paths: [/api/**], match trailing slash: true","route_id":"api","filters":[],"uri":"http://10.0.0.8:8080","order":0}]',
      ],
    },
    clean: { '/actuator/gateway/routes': [401, { 'content-type': 'application/json' }, '{"error":"Unauthorized","status":401}'] },
  },
  'jolokia-exposed': {
    fire: {
      '/jolokia/version': [
        200,
        { 'content-type': 'application/json' },
        '{"request":{"type":"version"},"value":{"agent":"1.7.2","protocol":"7.2","config":{"agentId":"10.0.0.5-1234-jvm"}},"timestamp":1710238951,"status":200}',
      ],
    },
    clean: { '/jolokia/version': [401, { 'content-type': 'application/json' }, '{"error":"Unauthorized","status":401}'] },
  },
  'prometheus-metrics-exposed': {
    fire: {
      '/metrics': [
        200,
        { 'content-type': 'text/plain; version=0.0.4' },
        '# HELP go_goroutines Number of goroutines that currently exist.\n# TYPE go_goroutines gauge\ngo_goroutines 42\n# HELP http_requests_total Requests.\n# TYPE http_requests_total counter\nhttp_requests_total{path="/admin"} 7\n',
      ],
    },
    clean: { '/metrics': [401, { 'content-type': 'application/json' }, '{"error":"Unauthorized","status":401}'] },
  },
  'go-pprof-exposed': {
    fire: {
      '/debug/pprof/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>/debug/pprof/</title></head>\n<body>\n<p>Types of profiles available:</p><table><tr><td>12</td><td><a href="goroutine?debug=1">goroutine</a></td></tr><tr><td>3</td><td><a href="heap?debug=1">heap</a></td></tr></table>\n</body></html>\n',
      ],
    },
    clean: { '/debug/pprof/': [401, { 'content-type': 'application/json' }, '{"error":"Unauthorized","status":401}'] },
  },
  'go-expvar-exposed': {
    fire: {
      '/debug/vars': [
        200,
        { 'content-type': 'application/json' },
        '{"cmdline":["/usr/local/bin/api","-db","postgres://api:pw@db/api"],"memstats":{"Alloc":2097152}}',
      ],
    },
    clean: { '/debug/vars': [401, { 'content-type': 'application/json' }, '{"error":"Unauthorized","status":401}'] },
  },
  'php-fpm-status': {
    fire: {
      '/fpm-status': [
        200,
        { 'content-type': 'text/plain' },
        'pool:                 www\nprocess manager:      dynamic\nstart time:           12/Mar/2024:10:00:00 +0000\naccepted conn:        1234\n',
      ],
    },
    clean: { '/fpm-status': [401, { 'content-type': 'application/json' }, '{"error":"Unauthorized","status":401}'] },
  },
  'nginx-stub-status': {
    fire: {
      '/nginx_status': [
        200,
        { 'content-type': 'text/plain' },
        'Active connections: 3 \nserver accepts handled requests\n 112 112 230 \nReading: 0 Writing: 1 Waiting: 2 \n',
      ],
    },
    clean: { '/nginx_status': [401, { 'content-type': 'application/json' }, '{"error":"Unauthorized","status":401}'] },
  },
  'haproxy-stats-exposed': {
    fire: {
      '/haproxy?stats': [
        200,
        { 'content-type': 'text/html' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Statistics Report for HAProxy</title></head>\n<body>\n<h1>HAProxy version 2.4.22, released 2023/02/14</h1><h2>Statistics Report for pid 1</h2>\n</body></html>\n',
      ],
    },
    clean: { '/haproxy?stats': [401, { 'content-type': 'application/json' }, '{"error":"Unauthorized","status":401}'] },
  },
  'laravel-telescope-exposed': {
    fire: {
      '/telescope/requests': [
        200,
        { 'content-type': 'text/html' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Telescope - Acme</title></head>\n<body>\n<div id="telescope" v-cloak></div><script>window.Telescope = {"path":"telescope","timezone":"UTC","recording":true};</script><script src="/vendor/telescope/app.js"></script>\n</body></html>\n',
      ],
    },
    clean: { '/telescope/requests': [401, { 'content-type': 'application/json' }, '{"error":"Unauthorized","status":401}'] },
  },
  'laravel-horizon-exposed': {
    fire: {
      '/horizon/dashboard': [
        200,
        { 'content-type': 'text/html' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Horizon - Acme</title></head>\n<body>\n<div id="horizon" v-cloak></div><script>window.Horizon = {"path":"horizon"};</script><script src="/vendor/horizon/app.js"></script>\n</body></html>\n',
      ],
    },
    clean: { '/horizon/dashboard': [401, { 'content-type': 'application/json' }, '{"error":"Unauthorized","status":401}'] },
  },
  'laravel-ignition-exposed': {
    fire: { '/_ignition/health-check': [200, { 'content-type': 'application/json' }, '{"can_execute_commands":true}'] },
    clean: { '/_ignition/health-check': [401, { 'content-type': 'application/json' }, '{"error":"Unauthorized","status":401}'] },
  },
  'symfony-profiler-exposed': {
    fire: {
      '/_profiler/latest': [
        200,
        { 'content-type': 'text/html' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Symfony Profiler</title></head>\n<body>\n<div id="header"><h1><img alt="Symfony"/> Symfony Profiler</h1></div><div id="summary">200 GET /account</div>\n</body></html>\n',
      ],
    },
    clean: { '/_profiler/latest': [401, { 'content-type': 'application/json' }, '{"error":"Unauthorized","status":401}'] },
  },
  'django-debug-mode': {
    fire: {
      '*': [
        404,
        { 'content-type': 'text/html' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Page not found at /ward-missing</title></head>\n<body>\n<h1>Page not found <span>(404)</span></h1><p>Using the URLconf defined in <code>shop.urls</code>, Django tried these URL patterns</p><p>You\'re seeing this error because you have <code>DEBUG = True</code> in your Django settings file.</p>\n</body></html>\n',
      ],
    },
  },
  'rails-debug-mode': {
    fire: {
      '*': [
        404,
        { 'content-type': 'text/html' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Action Controller: Exception caught</title></head>\n<body>\n<h1>Routing Error</h1><p>No route matches [GET] "/ward-missing"</p><p><code>Rails.root: /srv/shop</code></p>\n</body></html>\n',
      ],
    },
  },
  'rails-info-properties': {
    fire: {
      '/rails/info/properties': [
        200,
        { 'content-type': 'text/html' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Routes</title></head>\n<body>\n<table><tr><td>Rails version</td><td>6.1.4</td></tr><tr><td>Ruby version</td><td>3.0.2</td></tr></table>\n</body></html>\n',
      ],
    },
    clean: { '/rails/info/properties': [401, { 'content-type': 'application/json' }, '{"error":"Unauthorized","status":401}'] },
  },
  'werkzeug-debug-console': {
    fire: {
      '/console': [
        200,
        { 'content-type': 'text/html' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Console // Werkzeug Debugger</title></head>\n<body>\n<h1>Interactive Console</h1><div class="console"><div class="inner">The Console requires JavaScript.</div></div><div class="footer">Brought to you by <strong>Werkzeug</strong></div>\n</body></html>\n',
      ],
    },
    clean: { '/console': [401, { 'content-type': 'application/json' }, '{"error":"Unauthorized","status":401}'] },
  },
  'aspnet-trace-axd': {
    fire: {
      '/trace.axd': [
        200,
        { 'content-type': 'text/html' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Application Trace</title></head>\n<body>\n<h1>Application Trace</h1><h2>Requests to this Application</h2><a href="trace.axd?clear=1">clear current trace</a>\n</body></html>\n',
      ],
    },
    clean: { '/trace.axd': [401, { 'content-type': 'application/json' }, '{"error":"Unauthorized","status":401}'] },
  },
  'elmah-axd-exposed': {
    fire: {
      '/elmah.axd': [
        200,
        { 'content-type': 'text/html' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Error log for /LM/W3SVC/1/ROOT on WEB01</title></head>\n<body>\n<h1 id="PageTitle">Error Log for <span id="ApplicationName">/LM/W3SVC/1/ROOT on WEB01</span></h1><p>Powered by ELMAH, version 1.2</p>\n</body></html>\n',
      ],
    },
    clean: { '/elmah.axd': [401, { 'content-type': 'application/json' }, '{"error":"Unauthorized","status":401}'] },
  },
  'yii-debug-toolbar': {
    fire: {
      '/debug/default/index': [
        200,
        { 'content-type': 'text/html' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Yii Debugger</title></head>\n<body>\n<div class="yii-debug-main-container"><h1>Available Debug Data</h1></div><p>Yii Debugger</p>\n</body></html>\n',
      ],
    },
    clean: { '/debug/default/index': [401, { 'content-type': 'application/json' }, '{"error":"Unauthorized","status":401}'] },
  },
  'graphql-introspection': {
    fire: { 'POST /graphql': [200, { 'content-type': 'application/json' }, '{"data":{"__schema":{"queryType":{"name":"Query"}}}}'] },
    clean: {
      'POST /graphql': [400, { 'content-type': 'application/json' }, '{"errors":[{"message":"GraphQL introspection is not allowed"}]}'],
    },
  },
  'swagger-ui-exposed': {
    fire: {
      '/swagger-ui.html': [
        200,
        { 'content-type': 'text/html' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Swagger UI</title></head>\n<body>\n<div id="swagger-ui"></div><script src="./swagger-ui-bundle.js"></script>\n</body></html>\n',
      ],
    },
  },
  'spring-whitelabel-error': {
    fire: {
      '*': [
        404,
        { 'content-type': 'text/html' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Error</title></head>\n<body>\n<h1>Whitelabel Error Page</h1><p>This application has no explicit mapping for /error, so you are seeing this as a fallback.</p>\n</body></html>\n',
      ],
    },
  },
  'shiro-remember-me': {
    fire: {
      '/': [
        200,
        { 'content-type': 'text/html', 'set-cookie': 'rememberMe=deleteMe; Path=/; Max-Age=0; Expires=Sat, 11-Mar-2024 10:22:31 GMT' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Home</title></head>\n<body>\n<p>Welcome</p>\n</body></html>\n',
      ],
    },
    clean: {
      '/': [
        200,
        { 'content-type': 'text/html' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Home</title></head>\n<body>\n<p>Welcome</p>\n</body></html>\n',
      ],
    },
  },
  'apache-druid-monitor': {
    fire: {
      '/druid/index.html': [
        200,
        { 'content-type': 'text/html' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Druid Stat Index</title></head>\n<body>\n<div class="navbar"><a class="brand" href="https://github.com/alibaba/druid/wiki">Druid Monitor</a></div>\n</body></html>\n',
      ],
    },
    clean: { '/druid/index.html': [401, { 'content-type': 'application/json' }, '{"error":"Unauthorized","status":401}'] },
  },
  'h2-database-console': {
    fire: {
      '/h2-console/': [
        200,
        { 'content-type': 'text/html' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>H2 Console</title></head>\n<body>\n<frameset cols="*" rows="*"><frame name="header" src="login.jsp?jsessionid=4f3e2d"></frameset><p>Welcome to H2</p>\n</body></html>\n',
      ],
    },
    clean: { '/h2-console/': [401, { 'content-type': 'application/json' }, '{"error":"Unauthorized","status":401}'] },
  },
  'jenkins-panel': {
    fire: {
      '/login': [
        200,
        { 'content-type': 'text/html', 'x-jenkins': '2.426.3', 'x-hudson': '1.395' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Sign in [Jenkins]</title></head>\n<body>\n<div id="main-panel"><h1>Welcome to Jenkins!</h1><form name="login" action="j_spring_security_check" method="post"></form></div>\n</body></html>\n',
      ],
    },
  },
  'jenkins-script-console-unauth': {
    fire: {
      '/script': [
        200,
        { 'content-type': 'text/html', 'x-jenkins': '2.426.3' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Script Console [Jenkins]</title></head>\n<body>\n<h1>Script Console</h1><p>Type in an arbitrary <a href="http://www.groovy-lang.org">Groovy script</a> and execute it on the server.</p><form action="script" method="post"><textarea name="script"></textarea></form><p>Jenkins</p>\n</body></html>\n',
      ],
    },
    clean: {
      '/script': [
        403,
        { 'content-type': 'text/html', 'x-jenkins': '2.426.3' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Authentication required</title></head>\n<body>\n<p>Authentication required</p><!-- You are authenticated as: anonymous --><p>Jenkins</p>\n</body></html>\n',
      ],
    },
  },
  'gitlab-panel': {
    fire: {
      '/users/sign_in': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Sign in · GitLab</title><meta content="GitLab" property="og:site_name"></head>\n<body>\n<header class="navbar"><span class="gitlab-logo"></span></header><form action="/users/sign_in" method="post"></form><script>gon.gitlab_url="https://git.example";</script>\n</body></html>\n',
      ],
    },
  },
  'gitea-panel': {
    fire: {
      '/user/login': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Sign In - Gitea: Git with a cup of tea</title></head>\n<body>\n<form class="ui form" action="/user/login" method="post"></form><div class="ui left">Powered by Gitea</div>\n</body></html>\n',
      ],
    },
  },
  'grafana-panel': {
    fire: {
      '/login': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Grafana</title></head>\n<body>\n<grafana-app class="grafana-app"></grafana-app><script>window.grafanaBootData = {"settings":{"buildInfo":{"version":"10.2.3","commit":"1e84fede54"}}};</script>\n</body></html>\n',
      ],
    },
  },
  'kibana-panel': {
    fire: {
      '/app/kibana': [
        200,
        { 'content-type': 'text/html', 'kbn-name': 'kibana', 'kbn-license-sig': 'abc' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Elastic</title></head>\n<body>\n<kbn-injected-metadata data="{&quot;version&quot;:&quot;8.11.1&quot;}"></kbn-injected-metadata>\n</body></html>\n',
      ],
    },
  },
  'confluence-panel': {
    fire: {
      '/login.action': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Log In - Confluence</title><meta name="ajs-version-number" content="8.5.4"></head>\n<body>\n<body id="com-atlassian-confluence" class="login"><form name="loginform" action="/dologin.action"></form><p>Powered by Atlassian Confluence</p></body>\n</body></html>\n',
      ],
    },
  },
  'jira-panel': {
    fire: {
      '/login.jsp': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Log in - Jira</title><meta name="application-name" content="JIRA" data-name="jira" data-version="9.12.2"><meta name="ajs-version-number" content="9.12.2"></head>\n<body>\n<form id="login-form" action="/login.jsp" method="post"></form>\n</body></html>\n',
      ],
    },
  },
  'sonarqube-panel': {
    fire: {
      '/sessions/new': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>SonarQube</title></head>\n<body>\n<div id="content"></div><script>window.baseUrl = ""; window.serverStatus = "UP";</script>\n</body></html>\n',
      ],
    },
  },
  'nexus-panel': {
    fire: {
      '/': [
        200,
        { 'content-type': 'text/html', server: 'Nexus/3.68.1-02 (OSS)' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Nexus Repository Manager</title></head>\n<body>\n<div id="loading"><span>Loading Nexus Repository Manager</span></div>\n</body></html>\n',
      ],
    },
  },
  'artifactory-panel': {
    fire: {
      '/ui/login/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>JFrog Artifactory</title></head>\n<body>\n<div id="jfrog-ui-root" class="jfrog-ui"></div><noscript>Artifactory requires JavaScript</noscript>\n</body></html>\n',
      ],
    },
  },
  'teamcity-panel': {
    fire: {
      '/login.html': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Log in to TeamCity -- TeamCity</title></head>\n<body>\n<div id="teamcity-login"><h1>Log in to TeamCity</h1></div><span class="greyNote version">Version 2024.03 (build 156670)</span>\n</body></html>\n',
      ],
    },
  },
  'tomcat-manager-panel': {
    fire: {
      '/manager/html': [
        401,
        { 'content-type': 'text/html', 'www-authenticate': 'Basic realm="Tomcat Manager Application"' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>401 Unauthorized</title></head>\n<body>\n<h1>401 Unauthorized</h1><p>You are not authorized to view this page. Add a role to conf/tomcat-users.xml.</p>\n</body></html>\n',
      ],
    },
  },
  'jboss-jmx-console': {
    fire: {
      '/jmx-console/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>JBoss JMX Management Console</title></head>\n<body>\n<h1>JMX Agent View</h1><p>jboss.system</p>\n</body></html>\n',
      ],
    },
  },
  'jboss-invoker-servlet': {
    fire: {
      '/invoker/JMXInvokerServlet': [
        200,
        { 'content-type': 'application/x-java-serialized-object' },
        b64('rO0ABXNyACRvcmcuamJvc3MuaW52b2NhdGlvbi5NYXJzaGFsbGVkVmFsdWU='),
      ],
    },
  },
  'weblogic-console': {
    fire: {
      '/console/login/LoginForm.jsp': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Oracle WebLogic Server Administration Console</title></head>\n<body>\n<div id="login"><p>WebLogic Server Version: 12.2.1.4.0</p></div>\n</body></html>\n',
      ],
    },
  },
  'glassfish-admin-console': {
    fire: {
      '/common/index.jsf': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Login</title></head>\n<body>\n<h1>Log In to GlassFish Administration Console</h1>\n</body></html>\n',
      ],
    },
  },
  'phpmyadmin-panel': {
    fire: {
      '/phpmyadmin/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>phpMyAdmin</title></head>\n<body>\n<div class="container"><h1>Welcome to <bdo dir="ltr" lang="en">phpMyAdmin</bdo></h1><form method="post" action="index.php"><input type="text" name="pma_username"></form></div>\n</body></html>\n',
      ],
    },
  },
  'phpmyadmin-setup': {
    fire: {
      '/phpmyadmin/setup/index.php': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>phpMyAdmin setup</title></head>\n<body>\n<h1><span class="blue">php</span><span class="orange">MyAdmin</span> setup</h1><p>phpMyAdmin setup</p>\n</body></html>\n',
      ],
    },
  },
  'adminer-panel': {
    fire: {
      '/adminer.php': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Login - Adminer</title></head>\n<body>\n<h1><a href="https://www.adminer.org/" target="_blank" id="h1">Adminer</a> <span class="version">4.8.1</span></h1><form action="" method="post"></form>\n</body></html>\n',
      ],
    },
  },
  'phppgadmin-panel': {
    fire: {
      '/phppgadmin/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>phpPgAdmin</title></head>\n<body>\n<frameset><frame src="browser.php" name="browser"><frame src="intro.php" name="detail"></frameset><noframes>phpPgAdmin</noframes>\n</body></html>\n',
      ],
    },
  },
  'pgadmin-panel': {
    fire: {
      '/login': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>pgAdmin 4</title></head>\n<body>\n<div class="pg-login"><h1>pgAdmin 4</h1><form action="/authenticate/login"></form></div>\n</body></html>\n',
      ],
    },
  },
  'mongo-express-panel': {
    fire: {
      '/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Home - Mongo Express</title></head>\n<body>\n<a class="navbar-brand" href="/">Mongo Express</a><h4>Databases</h4>\n</body></html>\n',
      ],
    },
  },
  'phpliteadmin-panel': {
    fire: {
      '/phpliteadmin.php': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>phpLiteAdmin</title></head>\n<body>\n<div id="loginBox"><h1>phpLiteAdmin v1.9.8.2</h1><form action="phpliteadmin.php"></form></div>\n</body></html>\n',
      ],
    },
  },
  'webmin-panel': {
    fire: {
      '/': [
        200,
        { 'content-type': 'text/html', server: 'MiniServ/2.105' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Login to Webmin</title></head>\n<body>\n<form class="form-signin" action="/session_login.cgi" method="post"><p>Login to Webmin</p></form>\n</body></html>\n',
      ],
    },
  },
  'cpanel-panel': {
    fire: {
      '/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>cPanel Login</title></head>\n<body>\n<div id="login-wrapper"><form id="login_form" action="/login/?login_only=1"></form><img src="/cPanel_magic_revision_1/cpanel-logo.svg" alt="cpanel"></div>\n</body></html>\n',
      ],
    },
  },
  'plesk-panel': {
    fire: {
      '/login_up.php': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Plesk Obsidian 18.0.58</title></head>\n<body>\n<form id="form-login" action="/login_up.php" method="post"></form><img class="plesk-logo">\n</body></html>\n',
      ],
    },
  },
  'directadmin-panel': {
    fire: {
      '/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>DirectAdmin Login</title></head>\n<body>\n<form action="/CMD_LOGIN" method="post"></form>\n</body></html>\n',
      ],
    },
  },
  'zabbix-panel': {
    fire: {
      '/zabbix/index.php': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Zabbix</title></head>\n<body>\n<form action="index.php" method="post"><input name="name"></form><footer>© 2001–2023, <a href="https://www.zabbix.com/">Zabbix SIA</a></footer>\n</body></html>\n',
      ],
    },
  },
  'nagios-panel': {
    fire: {
      '/nagios/': [
        401,
        { 'content-type': 'text/html', 'www-authenticate': 'Basic realm="Nagios Access"' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>401 Unauthorized</title></head>\n<body>\n<h1>Unauthorized</h1>\n</body></html>\n',
      ],
    },
  },
  'icinga-web-panel': {
    fire: {
      '/icingaweb2/authentication/login': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Icinga Web 2 Login</title></head>\n<body>\n<div id="login"><form name="form_login"></form><p>Icinga Web 2 &copy; 2013-2023</p></div>\n</body></html>\n',
      ],
    },
  },
  'prometheus-panel': {
    fire: {
      '/graph': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Prometheus Time Series Collection and Processing Server</title></head>\n<body>\n<div id="root"></div>\n</body></html>\n',
      ],
    },
  },
  'prometheus-config-api': {
    fire: {
      '/api/v1/status/config': [
        200,
        { 'content-type': 'application/json' },
        '{"status":"success","data":{"yaml":"global:\\n  scrape_interval: 15s\\nscrape_configs:\\n- job_name: db\\n  static_configs:\\n  - targets: [10.0.0.7:9104]\\n"}}',
      ],
    },
  },
  'graylog-panel': {
    fire: {
      '/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Graylog Web Interface</title></head>\n<body>\n<div id="app-entry"></div>\n</body></html>\n',
      ],
    },
  },
  'rabbitmq-management': {
    fire: {
      '/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>RabbitMQ Management</title></head>\n<body>\n<div id="outer"></div><script src="js/main.js"></script>\n</body></html>\n',
      ],
    },
  },
  'activemq-admin': {
    fire: {
      '/admin/': [
        401,
        { 'content-type': 'text/html', 'www-authenticate': 'basic realm="ActiveMQRealm"' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Error 401 Unauthorized</title></head>\n<body>\n<h2>HTTP ERROR 401</h2>\n</body></html>\n',
      ],
    },
  },
  'solr-admin-panel': {
    fire: {
      '/solr/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Solr Admin</title></head>\n<body>\n<body ng-controller="MainController"><div id="wrapper" ng-app="solrAdminApp"></div></body>\n</body></html>\n',
      ],
    },
  },
  'apache-flink-dashboard': {
    fire: {
      '/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Apache Flink Web Dashboard</title></head>\n<body>\n<flink-root></flink-root>\n</body></html>\n',
      ],
    },
  },
  'apache-spark-ui': {
    fire: {
      '/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Spark Master at spark://10.0.0.3:7077</title></head>\n<body>\n<h3>Spark Master at spark://10.0.0.3:7077</h3><li><strong>Workers:</strong> 3</li>\n</body></html>\n',
      ],
    },
  },
  'hadoop-yarn-api': {
    fire: {
      '/ws/v1/cluster/info': [
        200,
        { 'content-type': 'application/json' },
        '{"clusterInfo":{"id":1710238951,"state":"STARTED","haState":"ACTIVE","resourceManagerVersion":"3.3.6","hadoopVersion":"3.3.6"}}',
      ],
    },
  },
  'apache-nifi-anonymous': {
    fire: {
      '/nifi-api/flow/current-user': [
        200,
        { 'content-type': 'application/json' },
        '{"identity":"anonymous","anonymous":true,"provenancePermissions":{"canRead":true},"canVersionFlows":true}',
      ],
    },
    clean: { '/nifi-api/flow/current-user': [409, { 'content-type': 'text/plain' }, 'Anonymous authentication has not been configured.'] },
  },
  'kubernetes-dashboard': {
    fire: {
      '/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Kubernetes Dashboard</title></head>\n<body>\n<kd-root></kd-root>\n</body></html>\n',
      ],
    },
  },
  'kubernetes-api-anonymous': {
    fire: {
      '/api': [
        200,
        { 'content-type': 'application/json' },
        '{\n  "kind": "APIVersions",\n  "versions": [\n    "v1"\n  ],\n  "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": "10.0.0.1:6443"}]\n}',
      ],
    },
    clean: {
      '/api': [
        403,
        { 'content-type': 'application/json' },
        '{"kind":"Status","apiVersion":"v1","status":"Failure","message":"forbidden: User \\"system:anonymous\\" cannot get path \\"/api\\"","reason":"Forbidden","code":403}',
      ],
    },
  },
  'docker-api-unauth': {
    fire: {
      '/version': [
        200,
        { 'content-type': 'application/json' },
        '{"Platform":{"Name":"Docker Engine - Community"},"Version":"24.0.7","ApiVersion":"1.43","MinAPIVersion":"1.12","GoVersion":"go1.20.10","Os":"linux","Arch":"amd64","KernelVersion":"5.15.0"}',
      ],
    },
  },
  'docker-registry-catalog': {
    fire: {
      '/v2/_catalog': [
        200,
        { 'content-type': 'application/json', 'docker-distribution-api-version': 'registry/2.0' },
        '{"repositories":["shop/api","shop/web"]}',
      ],
    },
    clean: {
      '/v2/_catalog': [
        401,
        {
          'content-type': 'application/json',
          'docker-distribution-api-version': 'registry/2.0',
          'www-authenticate': 'Basic realm="Registry"',
        },
        '{"errors":[{"code":"UNAUTHORIZED","message":"authentication required"}]}',
      ],
    },
  },
  'consul-api-unauth': {
    fire: {
      '/v1/agent/self': [
        200,
        { 'content-type': 'application/json' },
        '{"Config":{"Datacenter":"dc1","NodeName":"consul-01","Version":"1.16.2"},"Member":{"Addr":"10.0.0.4"}}',
      ],
    },
    clean: {
      '/v1/agent/self': [
        403,
        { 'content-type': 'text/plain' },
        "Permission denied: token with AccessorID '00000000-0000-0000-0000-000000000002' lacks permission",
      ],
    },
  },
  'vault-health-exposed': {
    fire: {
      '/v1/sys/health': [
        200,
        { 'content-type': 'application/json' },
        '{"initialized":true,"sealed":false,"standby":false,"performance_standby":false,"server_time_utc":1710238951,"version":"1.15.4","cluster_name":"vault-cluster-1"}',
      ],
    },
  },
  'etcd-api-unauth': {
    fire: { '/version': [200, { 'content-type': 'application/json' }, '{"etcdserver":"3.5.9","etcdcluster":"3.5.0"}'] },
  },
  'kong-admin-api': {
    fire: {
      '/': [
        200,
        { 'content-type': 'application/json' },
        '{"tagline":"Welcome to kong","version":"3.4.2","hostname":"kong-01","plugins":{"available_on_server":{}}}',
      ],
    },
  },
  'envoy-admin-exposed': {
    fire: {
      '/help': [
        200,
        { 'content-type': 'text/plain' },
        'admin commands are:\n  /: Admin home page\n  /config_dump: dump current Envoy configs\n  /quitquitquit: exit the server\n',
      ],
    },
  },
  'traefik-dashboard': {
    fire: {
      '/api/overview': [
        200,
        { 'content-type': 'application/json' },
        '{"http":{"routers":{"total":4,"warnings":0,"errors":0},"services":{"total":3}},"features":{"tracing":"","metrics":"prometheus"},"providers":["Docker","File"]}',
      ],
    },
  },
  'portainer-panel': {
    fire: {
      '/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Portainer</title></head>\n<body>\n<div id="page-wrapper" ng-app="portainer"></div>\n</body></html>\n',
      ],
    },
  },
  'rancher-panel': {
    fire: {
      '/dashboard/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Rancher</title></head>\n<body>\n<div id="__nuxt"></div><script>window.__rancher_dashboard=1</script><!-- rancher-dashboard -->\n</body></html>\n',
      ],
    },
  },
  'argocd-panel': {
    fire: {
      '/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Argo CD</title></head>\n<body>\n<div id="app"></div><base href="/">\n</body></html>\n',
      ],
    },
  },
  'minio-console': {
    fire: {
      '/minio/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>MinIO Console</title></head>\n<body>\n<div id="root"></div><noscript>MinIO Console requires JavaScript</noscript>\n</body></html>\n',
      ],
    },
  },
  'keycloak-welcome': {
    fire: {
      '/auth/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Welcome to Keycloak</title></head>\n<body>\n<h1>Welcome to <strong>Keycloak</strong></h1><a href="/admin/">Administration Console</a>\n</body></html>\n',
      ],
    },
  },
  'airflow-panel': {
    fire: {
      '/login/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Sign In - Airflow</title></head>\n<body>\n<img class="airflow_logo" src="/static/pin_100.png"><form method="POST"></form>\n</body></html>\n',
      ],
    },
  },
  'superset-panel': {
    fire: {
      '/login/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Superset</title></head>\n<body>\n<img class="superset-logo"><form method="post" action="/login/"></form>\n</body></html>\n',
      ],
    },
  },
  'metabase-panel': {
    fire: {
      '/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Metabase</title></head>\n<body>\n<div id="root"></div><script type="application/json" id="_metabaseBootstrap">{}</script>\n</body></html>\n',
      ],
    },
  },
  'jupyter-notebook': {
    fire: {
      '/tree': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Home Page - Select or create a notebook</title></head>\n<body>\n<body class="notebook_app" data-base-url="/" data-notebook-path=""><span id="ipython_notebook">Jupyter</span></body>\n</body></html>\n',
      ],
    },
  },
  'zeppelin-panel': {
    fire: {
      '/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Zeppelin</title></head>\n<body>\n<body ng-app="zeppelinWebApp"></body>\n</body></html>\n',
      ],
    },
  },
  'selenium-grid': {
    fire: {
      '/status': [
        200,
        { 'content-type': 'application/json' },
        '{"value":{"ready":true,"message":"Selenium Grid ready.","nodes":[{"id":"a1","uri":"http://10.0.0.9:5555"}]}}',
      ],
    },
  },
  'eureka-dashboard': {
    fire: {
      '/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Eureka</title></head>\n<body>\n<h1>System Status</h1><h2>Instances currently registered with Eureka</h2><table><tr><td>ORDERS</td><td>10.0.0.21:orders:8080</td></tr></table>\n</body></html>\n',
      ],
    },
  },
  'spring-boot-admin': {
    fire: {
      '/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Spring Boot Admin</title></head>\n<body>\n<div id="app"></div><script src="assets/js/sba-core.js"></script>\n</body></html>\n',
      ],
    },
  },
  'hystrix-dashboard': {
    fire: {
      '/hystrix': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Hystrix Dashboard</title></head>\n<body>\n<h2>Hystrix Dashboard</h2><input id="stream">\n</body></html>\n',
      ],
    },
  },
  'nacos-panel': {
    fire: {
      '/nacos/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Nacos</title></head>\n<body>\n<div id="root"></div>\n</body></html>\n',
      ],
    },
  },
  'odoo-database-manager': {
    fire: {
      '/web/database/manager': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Odoo</title></head>\n<body>\n<div class="o_database_list"><h4>Database Management</h4></div>\n</body></html>\n',
      ],
    },
  },
  'openfire-admin': {
    fire: {
      '/login.jsp': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Openfire Admin Console</title></head>\n<body>\n<div id="jive-loginVersion">Openfire, Version: 4.7.5</div>\n</body></html>\n',
      ],
    },
  },
  'roundcube-panel': {
    fire: {
      '/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Roundcube Webmail :: Welcome to Roundcube Webmail</title></head>\n<body>\n<form name="login-form" method="post" action="./?_task=login"></form><script>var rcmail = new rcube_webmail(); rcmail.set_env({"task":"login","rcversion":10604});</script>\n</body></html>\n',
      ],
    },
  },
  'zimbra-panel': {
    fire: {
      '/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Zimbra Web Client Sign In</title></head>\n<body>\n<div class="LoginScreen"><form method="post" name="loginForm"></form></div><a href="https://www.zimbra.com">Zimbra</a>\n</body></html>\n',
      ],
    },
  },
  'outlook-web-app': {
    fire: {
      '/owa/auth/logon.aspx': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Outlook</title></head>\n<body>\n<div class="signInBg"><form action="/owa/auth.owa" method="POST" name="logonForm"></form><link href="/owa/auth/15.2.1258/themes/resources/owafont.css"><div id="owaLgnBdy"></div></div>\n</body></html>\n',
      ],
    },
  },
  'adfs-idp-initiated': {
    fire: {
      '/adfs/ls/idpinitiatedsignon.aspx': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Sign In</title></head>\n<body>\n<form method="post" id="IdpInitiatedSignOn" action="/adfs/ls/idpinitiatedsignon.aspx"><input id="idp_SignInButton" type="submit"></form>\n</body></html>\n',
      ],
    },
  },
  'citrix-gateway-panel': {
    fire: {
      '/vpn/index.html': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Citrix Gateway</title></head>\n<body>\n<div id="logonbox-container"><script src="/vpn/js/rdx/core/lang/rdx.js"></script><script src="LogonPoint/receiver/js/ctxs.core.min.js"></script></div>\n</body></html>\n',
      ],
    },
  },
  'fortinet-sslvpn-panel': {
    fire: {
      '/remote/login': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Please Login</title></head>\n<body>\n<form action="/remote/logincheck" method="post"><div class="ftnt-fortinet-grid"></div></form><script>var fgt_lang = {}</script>\n</body></html>\n',
      ],
    },
  },
  'pulse-secure-panel': {
    fire: {
      '/dana-na/auth/url_default/welcome.cgi': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Pulse Connect Secure</title></head>\n<body>\n<form name="frmLogin" action="login.cgi" method="POST"><input type="hidden" name="realm"></form><script src="/dana-na/css/ds.js"></script><p>Pulse Secure</p>\n</body></html>\n',
      ],
    },
  },
  'globalprotect-panel': {
    fire: {
      '/global-protect/login.esp': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>GlobalProtect Portal</title></head>\n<body>\n<div id="heading">GlobalProtect Portal</div><form name="login" action="/global-protect/login.esp"></form>\n</body></html>\n',
      ],
    },
  },
  'f5-bigip-tmui': {
    fire: {
      '/tmui/login.jsp': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>BIG-IP&reg;- bigip1 (10.0.0.2)</title></head>\n<body>\n<form action="/tmui/logmein.html" method="POST"></form><p>&copy; F5 Networks, Inc.</p>\n</body></html>\n',
      ],
    },
  },
  'vcenter-panel': {
    fire: {
      '/ui/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>vSphere Client</title></head>\n<body>\n<div id="app"></div><script src="/ui/vsphere-client/app.js"></script><p>VMware vSphere</p>\n</body></html>\n',
      ],
    },
  },
  'proxmox-panel': {
    fire: {
      '/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>pve01 - Proxmox Virtual Environment</title></head>\n<body>\n<script src="/pve2/ext6/ext-all.js"></script>\n</body></html>\n',
      ],
    },
  },
  'pfsense-panel': {
    fire: {
      '/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>pfSense - Login</title></head>\n<body>\n<form id="login" method="post"><input name="usernamefld"></form><p>pfSense is developed and maintained by Netgate</p>\n</body></html>\n',
      ],
    },
  },
  'openwrt-luci': {
    fire: {
      '/cgi-bin/luci': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>OpenWrt - LuCI</title></head>\n<body>\n<link rel="stylesheet" href="/luci-static/bootstrap/cascade.css"><p>Powered by LuCI openwrt-22.03</p>\n</body></html>\n',
      ],
    },
  },
  'mikrotik-routeros': {
    fire: {
      '/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>RouterOS router configuration page</title></head>\n<body>\n<div class="top"><a href="https://mikrotik.com"><img src="mikrotik_logo.png"></a></div><h1>RouterOS v7.12</h1>\n</body></html>\n',
      ],
    },
  },
  'unifi-network-panel': {
    fire: {
      '/manage/account/login': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>UniFi Network</title></head>\n<body>\n<div id="unifi-network-app-container"></div>\n</body></html>\n',
      ],
    },
  },
  'synology-dsm': {
    fire: {
      '/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Synology DiskStation - nas01</title></head>\n<body>\n<script>SYNO.SDS.Session = {}</script>\n</body></html>\n',
      ],
    },
  },
  'qnap-qts': {
    fire: {
      '/cgi-bin/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>QNAP Turbo NAS</title></head>\n<body>\n<div id="QTS_login"></div><a href="https://www.qnap.com">QNAP</a>\n</body></html>\n',
      ],
    },
  },
  'hp-ilo-panel': {
    fire: {
      '/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>iLO 5</title></head>\n<body>\n<div id="loginWrapper">Integrated Lights-Out 5</div><p>Hewlett Packard Enterprise</p>\n</body></html>\n',
      ],
    },
  },
  'idrac-panel': {
    fire: {
      '/login.html': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>iDRAC9 - Login</title></head>\n<body>\n<div class="idrac-start-screen">Integrated Dell Remote Access Controller 9</div>\n</body></html>\n',
      ],
    },
  },
  'solarwinds-orion': {
    fire: {
      '/Orion/Login.aspx': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>SolarWinds Orion</title></head>\n<body>\n<form method="post" action="./Login.aspx"><div id="orion-login"></div></form><p>SolarWinds Orion Platform</p>\n</body></html>\n',
      ],
    },
  },
  'coldfusion-admin': {
    fire: {
      '/CFIDE/administrator/index.cfm': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>ColdFusion Administrator Login</title></head>\n<body>\n<h1>ColdFusion Administrator</h1><form name="loginform" action="/CFIDE/administrator/enter.cfm"></form>\n</body></html>\n',
      ],
    },
  },
  'axis2-admin': {
    fire: {
      '/axis2/axis2-admin/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Login to Axis2 :: Administration page</title></head>\n<body>\n<form method="post" action="axis2-admin/login"></form><p>Axis2 Web Admin Module</p>\n</body></html>\n',
      ],
    },
  },
  'guacamole-panel': {
    fire: {
      '/guacamole/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Guacamole</title></head>\n<body>\n<div class="login-ui"><guac-login></guac-login></div><p>Apache Guacamole</p>\n</body></html>\n',
      ],
    },
  },
  'django-admin-panel': {
    fire: {
      '/admin/login/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Log in | Django site admin</title></head>\n<body>\n<h1 id="site-name"><a href="/admin/">Django administration</a></h1><form method="post"><input type="hidden" name="csrfmiddlewaretoken" value="x"></form>\n</body></html>\n',
      ],
    },
  },
  'magento-version-file': {
    fire: { '/magento_version': [200, { 'content-type': 'text/html; charset=UTF-8' }, 'Magento/2.4 (Community)'] },
  },
  'nextcloud-status': {
    fire: {
      '/status.php': [
        200,
        { 'content-type': 'application/json' },
        '{"installed":true,"maintenance":false,"needsDbUpgrade":false,"version":"27.1.4.1","versionstring":"27.1.4","edition":"","productname":"Nextcloud","extendedSupport":false}',
      ],
    },
  },
  'netdata-dashboard': {
    fire: {
      '/api/v1/info': [
        200,
        { 'content-type': 'application/json' },
        '{"version":"v1.44.0","uid":"a1b2","mirrored_hosts":["web01"],"os_name":"Ubuntu"}',
      ],
    },
  },
  'couchdb-fauxton': {
    fire: {
      '/_utils/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Project Fauxton</title></head>\n<body>\n<div id="app-container"></div>\n</body></html>\n',
      ],
    },
  },
  'jaeger-ui': {
    fire: {
      '/search': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Jaeger UI</title></head>\n<body>\n<div id="jaeger-ui-root"></div>\n</body></html>\n',
      ],
    },
  },
  'sentry-panel': {
    fire: {
      '/auth/login/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Login | Sentry</title></head>\n<body>\n<div id="blk_router"></div><script>window.__initialData = {"version":{"current":"23.12.1"}}</script><link href="/_static/sentry/dist/sentry.css">\n</body></html>\n',
      ],
    },
  },
  'redmine-panel': {
    fire: {
      '/login': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Redmine</title></head>\n<body>\n<form action="/login" method="post"></form><div id="footer">Powered by <a href="https://www.redmine.org/">Redmine</a></div>\n</body></html>\n',
      ],
    },
  },
  'CVE-2021-43798': {
    fire: {
      '/login': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Grafana</title></head>\n<body>\n<grafana-app></grafana-app><script>window.grafanaBootData = {"settings":{"buildInfo":{"commit":"abc123","env":"production","version":"8.3.0"}}};</script>\n</body></html>\n',
      ],
    },
    clean: {
      '/login': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Grafana</title></head>\n<body>\n<grafana-app></grafana-app><script>window.grafanaBootData = {"settings":{"buildInfo":{"commit":"abc123","env":"production","version":"8.3.1"}}};</script>\n</body></html>\n',
      ],
    },
  },
  'CVE-2020-13379': {
    fire: {
      '/login': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Grafana</title></head>\n<body>\n<grafana-app></grafana-app><script>window.grafanaBootData = {"settings":{"buildInfo":{"commit":"abc123","env":"production","version":"6.7.3"}}};</script>\n</body></html>\n',
      ],
    },
    clean: {
      '/login': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Grafana</title></head>\n<body>\n<grafana-app></grafana-app><script>window.grafanaBootData = {"settings":{"buildInfo":{"commit":"abc123","env":"production","version":"6.7.4"}}};</script>\n</body></html>\n',
      ],
    },
  },
  'CVE-2024-23897': {
    fire: {
      '/login': [
        200,
        { 'content-type': 'text/html; charset=utf-8', 'x-jenkins': '2.426.2', 'x-hudson': '1.395' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Sign in [Jenkins]</title></head>\n<body>\n<h1>Welcome to Jenkins!</h1>\n</body></html>\n',
      ],
    },
    clean: {
      '/login': [
        200,
        { 'content-type': 'text/html; charset=utf-8', 'x-jenkins': '2.426.3', 'x-hudson': '1.395' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Sign in [Jenkins]</title></head>\n<body>\n<h1>Welcome to Jenkins!</h1>\n</body></html>\n',
      ],
    },
  },
  'CVE-2018-1000861': {
    fire: {
      '/login': [
        200,
        { 'content-type': 'text/html; charset=utf-8', 'x-jenkins': '2.150', 'x-hudson': '1.395' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Sign in [Jenkins]</title></head>\n<body>\n<h1>Welcome to Jenkins!</h1>\n</body></html>\n',
      ],
    },
    clean: {
      '/login': [
        200,
        { 'content-type': 'text/html; charset=utf-8', 'x-jenkins': '2.154', 'x-hudson': '1.395' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Sign in [Jenkins]</title></head>\n<body>\n<h1>Welcome to Jenkins!</h1>\n</body></html>\n',
      ],
    },
  },
  'CVE-2022-26134': {
    fire: {
      '/login.action': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Log In - Confluence</title><meta name="ajs-version-number" content="7.13.6"></head>\n<body>\n<body id="com-atlassian-confluence"><p>Powered by Atlassian Confluence</p></body>\n</body></html>\n',
      ],
    },
    clean: {
      '/login.action': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Log In - Confluence</title><meta name="ajs-version-number" content="7.13.7"></head>\n<body>\n<body id="com-atlassian-confluence"><p>Powered by Atlassian Confluence</p></body>\n</body></html>\n',
      ],
    },
  },
  'CVE-2021-26084': {
    fire: {
      '/login.action': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Log In - Confluence</title><meta name="ajs-version-number" content="7.12.4"></head>\n<body>\n<body id="com-atlassian-confluence"><p>Powered by Atlassian Confluence</p></body>\n</body></html>\n',
      ],
    },
    clean: {
      '/login.action': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Log In - Confluence</title><meta name="ajs-version-number" content="7.12.5"></head>\n<body>\n<body id="com-atlassian-confluence"><p>Powered by Atlassian Confluence</p></body>\n</body></html>\n',
      ],
    },
  },
  'CVE-2023-22515': {
    fire: {
      '/login.action': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Log In - Confluence</title><meta name="ajs-version-number" content="8.5.1"></head>\n<body>\n<body id="com-atlassian-confluence"><p>Powered by Atlassian Confluence</p></body>\n</body></html>\n',
      ],
    },
    clean: {
      '/login.action': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Log In - Confluence</title><meta name="ajs-version-number" content="8.5.2"></head>\n<body>\n<body id="com-atlassian-confluence"><p>Powered by Atlassian Confluence</p></body>\n</body></html>\n',
      ],
    },
  },
  'CVE-2023-22527': {
    fire: {
      '/login.action': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Log In - Confluence</title><meta name="ajs-version-number" content="8.5.3"></head>\n<body>\n<body id="com-atlassian-confluence"><p>Powered by Atlassian Confluence</p></body>\n</body></html>\n',
      ],
    },
    clean: {
      '/login.action': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Log In - Confluence</title><meta name="ajs-version-number" content="8.5.4"></head>\n<body>\n<body id="com-atlassian-confluence"><p>Powered by Atlassian Confluence</p></body>\n</body></html>\n',
      ],
    },
  },
  'CVE-2021-26086': {
    fire: {
      '/login.jsp': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Log in - Jira</title><meta name="application-name" content="JIRA" data-name="jira" data-version="8.13.5"><meta name="ajs-version-number" content="8.13.5"></head>\n<body>\n<form id="login-form"></form>\n</body></html>\n',
      ],
    },
    clean: {
      '/login.jsp': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Log in - Jira</title><meta name="application-name" content="JIRA" data-name="jira" data-version="8.13.6"><meta name="ajs-version-number" content="8.13.6"></head>\n<body>\n<form id="login-form"></form>\n</body></html>\n',
      ],
    },
  },
  'CVE-2023-42793': {
    fire: {
      '/login.html': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Log in to TeamCity -- TeamCity</title></head>\n<body>\n<h1>Log in to TeamCity</h1><span class="greyNote version">Version 2023.05.3 (build 129390)</span>\n</body></html>\n',
      ],
    },
    clean: {
      '/login.html': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Log in to TeamCity -- TeamCity</title></head>\n<body>\n<h1>Log in to TeamCity</h1><span class="greyNote version">Version 2023.05.4 (build 129390)</span>\n</body></html>\n',
      ],
    },
  },
  'CVE-2024-27198': {
    fire: {
      '/login.html': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Log in to TeamCity -- TeamCity</title></head>\n<body>\n<h1>Log in to TeamCity</h1><span class="greyNote version">Version 2023.11.3 (build 129390)</span>\n</body></html>\n',
      ],
    },
    clean: {
      '/login.html': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Log in to TeamCity -- TeamCity</title></head>\n<body>\n<h1>Log in to TeamCity</h1><span class="greyNote version">Version 2023.11.4 (build 129390)</span>\n</body></html>\n',
      ],
    },
  },
  'CVE-2019-15107': {
    fire: {
      '/': [
        200,
        { 'content-type': 'text/html; charset=utf-8', server: 'MiniServ/1.890' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Login to Webmin</title></head>\n<body>\n<p>Login to Webmin</p>\n</body></html>\n',
      ],
    },
    clean: {
      '/': [
        200,
        { 'content-type': 'text/html; charset=utf-8', server: 'MiniServ/1.930' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Login to Webmin</title></head>\n<body>\n<p>Login to Webmin</p>\n</body></html>\n',
      ],
    },
  },
  'CVE-2022-46169': {
    fire: {
      '/index.php': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Login to Cacti</title></head>\n<body>\n<form name="login" method="post" action="index.php"></form><div class="versionInfo">Version 1.2.22 | (c) 2004-2022 - The Cacti Group</div>\n</body></html>\n',
      ],
    },
    clean: {
      '/index.php': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Login to Cacti</title></head>\n<body>\n<form name="login" method="post" action="index.php"></form><div class="versionInfo">Version 1.2.23 | (c) 2004-2022 - The Cacti Group</div>\n</body></html>\n',
      ],
    },
  },
  'CVE-2023-5631': {
    fire: {
      '/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Roundcube Webmail :: Welcome to Roundcube Webmail</title></head>\n<body>\n<script>rcmail.set_env({"task":"login","x_frame_options":"sameorigin","rcversion":10603,"cookie_domain":""});</script>\n</body></html>\n',
      ],
    },
    clean: {
      '/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Roundcube Webmail :: Welcome to Roundcube Webmail</title></head>\n<body>\n<script>rcmail.set_env({"task":"login","x_frame_options":"sameorigin","rcversion":10604,"cookie_domain":""});</script>\n</body></html>\n',
      ],
    },
  },
  'CVE-2019-17558': {
    fire: {
      '/solr/admin/info/system?wt=json': [
        200,
        { 'content-type': 'text/plain;charset=utf-8' },
        '{\n  "responseHeader":{"status":0,"QTime":12},\n  "mode":"std",\n  "solr_home":"/var/solr/data",\n  "lucene":{"solr-spec-version":"8.2.0","solr-impl-version":"8.2.0 2019-07-24","lucene-spec-version":"8.2.0"}\n}',
      ],
    },
    clean: {
      '/solr/admin/info/system?wt=json': [
        200,
        { 'content-type': 'text/plain;charset=utf-8' },
        '{\n  "responseHeader":{"status":0,"QTime":12},\n  "mode":"std",\n  "solr_home":"/var/solr/data",\n  "lucene":{"solr-spec-version":"8.4.0","solr-impl-version":"8.4.0 2019-07-24","lucene-spec-version":"8.4.0"}\n}',
      ],
    },
  },
  'CVE-2019-7609': {
    fire: {
      '/api/status': [
        200,
        { 'content-type': 'application/json', 'kbn-name': 'kibana', 'kbn-version': '6.5.4' },
        '{"name":"kibana","uuid":"5b2de169","version":{"number":"6.5.4","build_number":19150},"status":{"overall":{"state":"green"}}}',
      ],
    },
    clean: {
      '/api/status': [
        200,
        { 'content-type': 'application/json', 'kbn-name': 'kibana', 'kbn-version': '6.6.1' },
        '{"name":"kibana","uuid":"5b2de169","version":{"number":"6.6.1","build_number":19150},"status":{"overall":{"state":"green"}}}',
      ],
    },
  },
  'CVE-2024-4956': {
    fire: {
      '/': [
        200,
        { 'content-type': 'text/html; charset=utf-8', server: 'Nexus/3.68.0-04 (OSS)' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Nexus Repository Manager</title></head>\n<body>\n<span>Loading Nexus Repository Manager</span>\n</body></html>\n',
      ],
    },
    clean: {
      '/': [
        200,
        { 'content-type': 'text/html; charset=utf-8', server: 'Nexus/3.68.1-02 (OSS)' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Nexus Repository Manager</title></head>\n<body>\n<span>Loading Nexus Repository Manager</span>\n</body></html>\n',
      ],
    },
  },
  'CVE-2023-32315': {
    fire: {
      '/login.jsp': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Openfire Admin Console</title></head>\n<body>\n<form action="login.jsp" name="loginForm" method="post"></form><div id="jive-loginVersion">Openfire, Version: 4.7.4</div>\n</body></html>\n',
      ],
    },
    clean: {
      '/login.jsp': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Openfire Admin Console</title></head>\n<body>\n<form action="login.jsp" name="loginForm" method="post"></form><div id="jive-loginVersion">Openfire, Version: 4.7.5</div>\n</body></html>\n',
      ],
    },
  },
  'CVE-2022-24706': {
    fire: {
      '/': [
        200,
        { 'content-type': 'application/json' },
        '{"couchdb":"Welcome","version":"3.2.1","git_sha":"c298091a4","uuid":"f1e6f","features":["access-ready","partitioned"],"vendor":{"name":"The Apache Software Foundation"}}\n',
      ],
    },
    clean: {
      '/': [
        200,
        { 'content-type': 'application/json' },
        '{"couchdb":"Welcome","version":"3.2.2","git_sha":"c298091a4","uuid":"f1e6f","features":["access-ready","partitioned"],"vendor":{"name":"The Apache Software Foundation"}}\n',
      ],
    },
  },
  'CVE-2021-21311': {
    fire: {
      '/adminer.php': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Login - Adminer</title></head>\n<body>\n<h1><a href="https://www.adminer.org/" id="h1">Adminer</a> <span class="version">4.7.8</span></h1>\n</body></html>\n',
      ],
    },
    clean: {
      '/adminer.php': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Login - Adminer</title></head>\n<body>\n<h1><a href="https://www.adminer.org/" id="h1">Adminer</a> <span class="version">4.7.9</span></h1>\n</body></html>\n',
      ],
    },
  },
  'CVE-2018-12613': {
    fire: {
      '/phpmyadmin/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>phpMyAdmin</title></head>\n<body>\n<script data-cfasync="false" type="text/javascript" src="js/whitelist.php?v=4.8.1&amp;lang=en"></script><h1>Welcome to phpMyAdmin</h1>\n</body></html>\n',
      ],
    },
    clean: {
      '/phpmyadmin/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>phpMyAdmin</title></head>\n<body>\n<script data-cfasync="false" type="text/javascript" src="js/whitelist.php?v=4.8.2&amp;lang=en"></script><h1>Welcome to phpMyAdmin</h1>\n</body></html>\n',
      ],
    },
  },
  'CVE-2022-30781': {
    fire: {
      '/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Gitea: Git with a cup of tea</title></head>\n<body>\n<footer><div class="ui left">Powered by Gitea Version: 1.16.6 Page: <strong>2ms</strong></div></footer>\n</body></html>\n',
      ],
    },
    clean: {
      '/': [
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Gitea: Git with a cup of tea</title></head>\n<body>\n<footer><div class="ui left">Powered by Gitea Version: 1.16.7 Page: <strong>2ms</strong></div></footer>\n</body></html>\n',
      ],
    },
  },
  'CVE-2022-24348': {
    fire: {
      '/api/version': [
        200,
        { 'content-type': 'application/json' },
        '{"Version":"v2.2.3+987f665","BuildDate":"2022-01-27T21:08:40Z","GitCommit":"987f6659b88e656a8f6f8feef87f4dd467d53c44","GoVersion":"go1.17.6","Compiler":"gc","Platform":"linux/amd64"}',
      ],
    },
    clean: {
      '/api/version': [
        200,
        { 'content-type': 'application/json' },
        '{"Version":"v2.2.4+987f665","BuildDate":"2022-01-27T21:08:40Z","GitCommit":"987f6659b88e656a8f6f8feef87f4dd467d53c44","GoVersion":"go1.17.6","Compiler":"gc","Platform":"linux/amd64"}',
      ],
    },
  },
  'CVE-2023-38646': {
    fire: {
      '/api/session/properties': [
        200,
        { 'content-type': 'application/json' },
        '{"engines":["postgres","h2"],"setup-token":"249fa03d-fd94-4d5b-b94f-b4ebf3df681f","version":{"date":"2023-06-29","tag":"v0.46.6","hash":"1bb88f5"},"site-name":"Acme"}',
      ],
    },
    clean: {
      '/api/session/properties': [
        200,
        { 'content-type': 'application/json' },
        '{"engines":["postgres","h2"],"setup-token":null,"version":{"date":"2023-06-29","tag":"v0.46.6","hash":"1bb88f5"},"site-name":"Acme"}',
      ],
    },
  },
  'wordpress-db-repair-open': {
    fire: { '/wp-admin/maint/repair.php': [200, { 'content-type': 'text/html; charset=UTF-8' }, WP_REPAIR(true)] },
    clean: { '/wp-admin/maint/repair.php': [200, { 'content-type': 'text/html; charset=UTF-8' }, WP_REPAIR(false)] },
  },
  'wordpress-full-path-disclosure': {
    fire: { '/wp-includes/rss-functions.php': [200, { 'content-type': 'text/html; charset=UTF-8' }, WP_RSS_FATAL] },
    // display_errors off: PHP answers an empty 500.
    clean: { '/wp-includes/rss-functions.php': [500, { 'content-type': 'text/html; charset=UTF-8' }, ''] },
  },
  'CVE-2023-32243': {
    fire: { '/wp-content/plugins/essential-addons-for-elementor-lite/readme.txt': wpReadme('Essential Addons for Elementor', '5.7.1') },
    clean: { '/wp-content/plugins/essential-addons-for-elementor-lite/readme.txt': wpReadme('Essential Addons for Elementor', '5.7.2') },
  },
  'CVE-2023-4596': {
    fire: { '/wp-content/plugins/forminator/readme.txt': wpReadme('Forminator', '1.24.6') },
    clean: { '/wp-content/plugins/forminator/readme.txt': wpReadme('Forminator', '1.25.0') },
  },
}
