// Ward's own brute-force wordlists. light: ~200 names seen on real networks; deep: the light list,
// more base names, and base names combined with environment and numbering variants (a few thousand).

export const LIGHT_WORDS: readonly string[] = `
www www1 www2 mail mail1 mail2 webmail smtp smtp1 pop pop3 imap mx mx1 mx2 email exchange owa autodiscover
ns ns1 ns2 ns3 dns dns1 dns2 api api1 api2 apis app apps application dev development devel test testing
stage staging stg uat qa preprod prod production demo beta alpha sandbox lab labs new old legacy archive
admin administrator portal login auth sso id identity accounts account secure vpn remote gateway gw proxy
firewall fw router intranet extranet internal corp office shop store cart checkout pay payment payments billing
blog news forum community support help helpdesk docs doc documentation wiki kb status monitor monitoring
grafana kibana prometheus nagios zabbix jenkins ci cd build git gitlab github bitbucket svn repo registry
docker k8s kubernetes cluster node cloud aws azure gcp s3 cdn static assets img images media files upload
uploads download downloads ftp sftp backup backups db database mysql postgres sql redis mongo elastic search
m mobile wap crm erp hr jira confluence redmine trac chat slack teams meet video voip sip pbx phone
calendar cal drive share sharepoint owncloud nextcloud files2 web web1 web2 server server1 host host1
direct origin edge lb loadbalancer mta relay analytics stats metrics logs log elk splunk sentry
partners partner b2b clients client customer customers my members member user users dashboard panel cpanel
whm plesk webdisk autoconfig mailman lists list newsletter marketing events careers jobs
`
  .trim()
  .split(/\s+/)

const MORE_BASE = `
ad ads adfs agent ai alerts api-docs apigw app1 app2 appserver auth2 autodiscovery azure-ad bastion bi bugs
cache calendar2 cas catalog cert certs citrix cms code confluence2 connect console consul content control
dashboards data dc dc1 dc2 deploy dev1 dev2 devops directory dmz docs2 downloads2 dr ecommerce elasticsearch
eng engineering en es exchange2 fax feedback files3 finance fr gateway2 geo go graphql hadoop help2 home hub
iam imap2 info infra inventory ipa ipv6 jenkins2 jira2 kafka keycloak ldap ldaps learn legal library live
local m2 mail3 manage management manager maps matrix mdm messenger mirror mssql nas net netflow noc notes
ns4 ntp oauth office365 ops oracle outlook owa2 pages password pma phpmyadmin pki play pop2 postfix
preview print private prod1 prod2 public puppet push rabbitmq radius rdp rds recruit redirect report reports
research rest rt s1 s2 saml sales scm sec security sentry2 service services shop2 signup sip2 site sites
smtp2 sonar sonarqube spam splunk2 ssh ssl staff staging2 storage store2 stream streaming study svn2 swagger
sync syslog team temp terminal test1 test2 tickets tools track tracking training transfer tunnel upload2
vault vcenter vm vmware vnc voice vpn1 vpn2 web3 webapp webmail2 webservices ws www3 xmpp zimbra portal2
`
  .trim()
  .split(/\s+/)

const ENVIRONMENTS = ['dev', 'test', 'stage', 'staging', 'qa', 'uat', 'prod', 'old', 'new', 'beta', 'internal', 'admin']
const ENV_BASES = [
  'api',
  'app',
  'portal',
  'admin',
  'web',
  'www',
  'mail',
  'auth',
  'sso',
  'db',
  'shop',
  'cdn',
  'static',
  'login',
  'vpn',
  'git',
  'ci',
  'jenkins',
  'grafana',
  'kibana',
  'docs',
  'blog',
  'dashboard',
  'backend',
  'frontend',
  'gateway',
  'payments',
  'search',
  'files',
  'media',
  'mobile',
  'crm',
  'erp',
  'monitor',
  'status',
  'support',
  'secure',
  'cms',
  'wiki',
  'jira',
]
const REGIONS = ['us', 'eu', 'uk', 'de', 'fr', 'asia', 'us-east', 'us-west', 'eu-west', 'eu-central', 'ap']

/** Deep list: light + more bases + {env}-{base}, {base}-{env}, {base}{1..5}, {region}-{base}, {base}-{region}. */
export const DEEP_WORDS: readonly string[] = (() => {
  const out = new Set<string>([...LIGHT_WORDS, ...MORE_BASE])
  for (const b of ENV_BASES) {
    for (const e of ENVIRONMENTS) {
      out.add(`${e}-${b}`)
      out.add(`${b}-${e}`)
      out.add(`${e}${b}`)
      out.add(`${b}.${e}`)
    }
    for (let i = 1; i <= 5; i++) {
      out.add(`${b}${i}`)
      out.add(`${b}-${i}`)
      out.add(`${b}0${i}`)
    }
    for (const r of REGIONS) {
      out.add(`${r}-${b}`)
      out.add(`${b}-${r}`)
    }
  }
  for (const base of [...LIGHT_WORDS].slice(0, 120)) for (const e of ['dev', 'test', 'staging', 'old']) out.add(`${base}-${e}`)
  return [...out]
})()

export const wordsFor = (scanType: 'light' | 'deep'): readonly string[] => (scanType === 'deep' ? DEEP_WORDS : LIGHT_WORDS)
