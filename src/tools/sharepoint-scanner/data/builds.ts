// Known SharePoint builds: which product and update a build number is. The product comes from the
// build's range (2010 is 14.0, 2013 15.0, 2016 16.0.4xxx-5xxx, 2019 16.0.10xxx, Subscription Edition
// 16.0.14326 and later); the update is the newest row at or below the build. Builds of the
// language-independent fix (sts-x-none) as Microsoft publishes them with each update.

export interface KnownBuild {
  build: string
  update: string
}

export interface ProductLine {
  name: string
  /** Range in the grammar of lib/versions/version.ts. */
  range: string
  /** Oldest first. */
  builds: readonly KnownBuild[]
}

export const PRODUCT_LINES: readonly ProductLine[] = [
  {
    name: 'SharePoint Server 2010',
    range: '>=14.0 <15.0',
    builds: [
      { build: '14.0.4763.1000', update: 'RTM' },
      { build: '14.0.6029.1000', update: 'SP1' },
      { build: '14.0.7015.1000', update: 'SP2' },
    ],
  },
  {
    name: 'SharePoint Server 2013',
    range: '>=15.0 <16.0',
    builds: [
      { build: '15.0.4420.1017', update: 'RTM' },
      { build: '15.0.4569.1000', update: 'SP1' },
      { build: '15.0.5111.1000', update: 'February 2019 CU' },
      { build: '15.0.5545.1000', update: 'April 2023 CU (last)' },
    ],
  },
  {
    name: 'SharePoint Server 2016',
    range: '>=16.0.4000 <16.0.10000',
    builds: [
      { build: '16.0.4351.1000', update: 'RTM' },
      { build: '16.0.4810.1000', update: 'February 2019 CU' },
      { build: '16.0.5344.1000', update: 'July 2022 CU' },
      { build: '16.0.5395.1000', update: 'May 2023 CU' },
      { build: '16.0.5513.1001', update: 'July 2025 CU' },
      { build: '16.0.5539.1002', update: 'February 2026 CU' },
    ],
  },
  {
    name: 'SharePoint Server 2019',
    range: '>=16.0.10000 <16.0.14000',
    builds: [
      { build: '16.0.10337.12109', update: 'RTM' },
      { build: '16.0.10340.12101', update: 'February 2019 CU' },
      { build: '16.0.10398.20000', update: 'May 2023 CU' },
      { build: '16.0.10399.20005', update: 'June 2023 CU' },
      { build: '16.0.10417.20037', update: 'July 2025 CU' },
    ],
  },
  {
    name: 'SharePoint Server Subscription Edition',
    range: '>=16.0.14000',
    builds: [
      { build: '16.0.14326.20450', update: 'RTM' },
      { build: '16.0.16130.20420', update: 'May 2023 CU' },
      { build: '16.0.18526.20508', update: 'July 2025 CU' },
    ],
  },
]
