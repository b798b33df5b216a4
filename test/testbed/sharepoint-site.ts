// SharePoint-like sites on loopback that answer the way SharePoint does where a scanner looks:
// `sp2016` (127.0.110.20): SharePoint Server 2016 RTM (16.0.4351.1000: before the CVE-2019-0604,
// CVE-2023-24955 and ToolShell fixes, past end of life) with anonymous access on: the
// MicrosoftSharePointTeamServices header, /_vti_pvt/ files, _vti_bin service pages, the _api site users
// and lists, and the site contents and people pages; settings.aspx asks for credentials.
// `hardened` (127.0.110.21): a Subscription Edition past the July 2025 update that answers 401 to
// everything but tells its build in the header: nothing above info.
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export const SHAREPOINT_ADDR = { sp2016: '127.0.110.20', hardened: '127.0.110.21' } as const
export type SharepointKind = keyof typeof SHAREPOINT_ADDR

export const SHAREPOINT_TRUTH = {
  sp2016: {
    version: '16.0.0.4351',
    build: '16.0.4351.1000',
    product: 'SharePoint Server 2016',
    update: 'RTM',
    anonymous_endpoints: [
      '/_vti_bin/Lists.asmx',
      '/_vti_bin/UserGroup.asmx',
      '/_vti_bin/spsdisco.aspx',
      '/_api/web/siteusers',
      '/_api/web/lists',
      '/_layouts/15/viewlsts.aspx',
      '/_layouts/15/people.aspx',
    ],
    users: [
      { login: 'i:0#.w|contoso\\spadmin', name: 'SP Admin', email: 'spadmin@contoso.test' },
      { login: 'i:0#.w|contoso\\jdoe', name: 'Jane Doe', email: null },
    ],
    lists: [
      { title: 'Documents', items: 42 },
      { title: 'Site Pages', items: 3 },
    ],
    findings: [
      'sharepoint.version-disclosed',
      'cve.sharepoint-lookup-deserialization',
      'cve.sharepoint-bdcm-code-injection',
      'cve.sharepoint-toolshell',
      'eol.sharepoint',
      'sharepoint.vti-bin.anonymous',
      'sharepoint.api.users-anonymous',
      'sharepoint.api.lists-anonymous',
      'sharepoint.layouts.exposed',
    ],
  },
} as const

type Reply = { status: number; body: string; type?: string; location?: string }
const html = (title: string, body: string, status = 200): Reply => ({
  status,
  body: `<!DOCTYPE html><html><head><title>${title}</title><script type="text/javascript">var _spPageContextInfo={webServerRelativeUrl:"/",siteClientTag:"0$$16.0.4351.1000"};</script><link rel="stylesheet" href="/_layouts/15/1033/styles/Themable/corev15.css?rev=VXAyKsfTWM1hVeEqu9sHHQ%3D%3DTAG0"/></head><body><div id="DeltaPlaceHolderMain" class="ms-core-pageTitle">${body}</div></body></html>`,
})
const text = (body: string): Reply => ({ status: 200, body, type: 'text/plain' })
const json = (value: unknown): Reply => ({
  status: 200,
  body: JSON.stringify({ value }),
  type: 'application/json;odata=nometadata;charset=utf-8',
})
const serviceDescription = (name: string): Reply => ({
  status: 200,
  body: `<html><head><title>${name} Web Service</title></head><body><div id="content"><p class="heading1">${name}</p><span>The following operations are supported. For a formal definition, please review the <a href="${name}.asmx?WSDL">Service Description</a>.</span></div></body></html>`,
})
const unauthorized = (): Reply => ({
  status: 401,
  body: '<html><head><title>401 UNAUTHORIZED</title></head><body>401 UNAUTHORIZED</body></html>',
})
const notFound = (): Reply => ({ status: 404, body: '<html><head><title>404 NOT FOUND</title></head><body>404 NOT FOUND</body></html>' })

function sp2016(path: string, accept: string): Reply {
  const users = SHAREPOINT_TRUTH.sp2016.users
  switch (path.toLowerCase()) {
    case '/':
      return html('Home', '<h1>Contoso Intranet</h1>')
    case '/_vti_pvt/service.cnf':
      return text('vti_encoding:SR|utf8-nl\nvti_extenderversion:SR|16.0.0.4351\n')
    case '/_vti_pvt/buildversion.cnf':
      return text('vti_encoding:SR|utf8-nl\nvti_buildversion:SR|16.0.4351.1000\n')
    case '/_vti_inf.html':
      return {
        status: 200,
        body: '<html><head><meta name="GENERATOR" content="Microsoft SharePoint"><title>FrontPage Configuration Information</title></head><body><!-- FrontPage Configuration Information\n FPVersion="16.00.0.000"\nFPShtmlScriptUrl="_vti_bin/shtml.dll/_vti_rpc"\n--></body></html>',
      }
    case '/_vti_bin/lists.asmx':
      return serviceDescription('Lists')
    case '/_vti_bin/usergroup.asmx':
      return serviceDescription('UserGroup')
    case '/_vti_bin/spsdisco.aspx':
      return {
        status: 200,
        type: 'text/xml',
        body: '<?xml version="1.0" encoding="utf-8"?><discovery xmlns="http://schemas.xmlsoap.org/disco/"><contractRef ref="/_vti_bin/lists.asmx?wsdl" docRef="/_vti_bin/lists.asmx"/></discovery>',
      }
    case '/_api/web/siteusers':
      if (!/json/.test(accept))
        return { status: 200, type: 'application/atom+xml', body: '<feed xmlns="http://www.w3.org/2005/Atom"></feed>' }
      return json([
        { Id: 1, LoginName: users[0].login, Title: users[0].name, Email: users[0].email, IsSiteAdmin: true },
        { Id: 7, LoginName: users[1].login, Title: users[1].name, Email: '', IsSiteAdmin: false },
      ])
    case '/_api/web/lists':
      return json([
        { Title: 'Documents', ItemCount: 42, Hidden: false },
        { Title: 'Site Pages', ItemCount: 3, Hidden: false },
        { Title: 'User Information List', ItemCount: 2, Hidden: true },
      ])
    case '/_layouts/15/viewlsts.aspx':
      return html('Site Contents', '<h1>Site Contents</h1><a href="/Shared%20Documents/">Documents</a>')
    case '/_layouts/15/people.aspx':
      return html('People and Groups', '<h1>People and Groups</h1><span>SP Admin</span>')
    case '/_layouts/15/settings.aspx':
    case '/_layouts/15/mngsiteadmin.aspx':
    case '/_layouts/15/user.aspx':
    case '/_layouts/15/groups.aspx':
    case '/_vti_bin/webs.asmx':
    case '/_vti_bin/people.asmx':
    case '/_vti_bin/sites.asmx':
    case '/_vti_bin/permissions.asmx':
    case '/_vti_bin/listdata.svc':
      return unauthorized()
    default:
      return notFound()
  }
}

const hardened = (): Reply => unauthorized()

export interface SharepointBed {
  url: string
  close(): Promise<void>
}

export async function startSharepointBed(kind: SharepointKind): Promise<SharepointBed> {
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://bed').pathname
    const r = kind === 'sp2016' ? sp2016(path, req.headers.accept ?? '') : hardened()
    res.writeHead(r.status, {
      'content-type': r.type ?? 'text/html; charset=utf-8',
      microsoftsharepointteamservices: kind === 'sp2016' ? '16.0.0.4351' : '16.0.0.18526',
      sprequestguid: '4f8e0ea1-90d3-4000-a4b1-0123456789ab',
      'x-ms-invokeapp': '1; RequireReadOnly',
      ...(r.status === 401 ? { 'www-authenticate': 'NTLM' } : {}),
    })
    res.end(r.body)
  })
  await new Promise<void>((r) => server.listen(0, SHAREPOINT_ADDR[kind], r))
  return {
    url: `http://${SHAREPOINT_ADDR[kind]}:${(server.address() as AddressInfo).port}/`,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((r) => server.close(() => r()))
    },
  }
}
