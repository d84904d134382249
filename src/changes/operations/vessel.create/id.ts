/** This operation's id: written here and in its descriptor (src/operations/catalogue.ts) only; everything else imports it. */
export const VESSEL_CREATE = 'vessel.create';
