// Tools build evidence through the tool kit; the shape itself is the reports' wire shape (decisions.md),
// defined in reports, which sits below the tool kit, so both can use it.
export * from '../reports/evidence.js'
