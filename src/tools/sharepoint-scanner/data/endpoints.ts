// Where the SharePoint Scanner looks, relative to the site: the _vti_bin web services (GET only: their
// service page or WSDL, never an operation), the REST API reads and the _layouts application pages.

export const WEB_SERVICES: readonly string[] = [
  '_vti_bin/Lists.asmx',
  '_vti_bin/UserGroup.asmx',
  '_vti_bin/Webs.asmx',
  '_vti_bin/People.asmx',
  '_vti_bin/Sites.asmx',
  '_vti_bin/Permissions.asmx',
  '_vti_bin/spsdisco.aspx',
  '_vti_bin/listdata.svc',
]

export const API_USERS = '_api/web/siteusers'
export const API_LISTS = '_api/web/lists'

/** Application pages under _layouts/15/ (2013 and later) or _layouts/ (2010). */
export const LAYOUTS_PAGES: readonly string[] = [
  'viewlsts.aspx',
  'people.aspx',
  'settings.aspx',
  'user.aspx',
  'groups.aspx',
  'mngsiteadmin.aspx',
]

/** Where the build is written: service.cnf (vti_extenderversion), buildversion.cnf (vti_buildversion), _vti_inf.html (FPVersion). */
export const VERSION_FILES = { service: '_vti_pvt/service.cnf', buildversion: '_vti_pvt/buildversion.cnf', inf: '_vti_inf.html' } as const
