// tool_params of Website Recon.
import { Type, type Static } from '@sinclair/typebox'

export const websiteReconParams = Type.Object(
  {
    favicon: Type.Boolean({
      default: true,
      description: 'Fetch the favicon and match its hash (Shodan-style mmh3, or sha256) against the catalogue.',
    }),
    fingerprints: Type.Record(Type.String({ minLength: 1, maxLength: 100 }), Type.Object({}, { additionalProperties: true }), {
      default: {},
      maxProperties: 200,
      description:
        'Extra catalogue entries, in the format of the shipped fingerprints.json ({"Name": {"cats": [...], ' +
        '"headers": {...}, "scripts": [...], ...}}); an entry with a shipped name replaces it.',
    }),
  },
  { additionalProperties: false },
)

export type WebsiteReconParams = Static<typeof websiteReconParams>
