// output_data.sharepoint of the SharePoint Scanner.
export interface SharepointOutput {
  /** The MicrosoftSharePointTeamServices header as sent ("16.0.0.4351"), else null. */
  version: string | null
  /** The build read from the _vti_pvt files or the header ("16.0.4351.1000"; three parts when only the header tells it). */
  build: string | null
  /** "SharePoint Server 2016" ... from the build. */
  product: string | null
  /** The newest update known at or below the build ("RTM", "July 2022 CU"). */
  update: string | null
  /** Paths under the site that answered an anonymous visitor (web services, REST, application pages). */
  anonymous_endpoints: string[]
  users: Array<{ login: string; name: string; email: string | null }>
  lists: Array<{ title: string; items: number | null }>
}
