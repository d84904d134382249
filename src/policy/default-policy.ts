/**
 * The policy used when no HARBOR_POLICY file is configured. It is written in
 * the same YAML a file would use and goes through the same parser, so the
 * default can never drift from what the file format means.
 */

export const DEFAULT_POLICY_SOURCE = 'built-in default';

/** What the default allows, in the words of the start-up warning. */
export const DEFAULT_POLICY_SUMMARY =
  "anyone may read and request; every change needs the requester's confirmation; " +
  'changes to an environment or target branch named prod*, production* or live* need one approval ' +
  'by someone other than the requester; only people in the workspace a change was requested in may act on it';

const PRODUCTION = "['prod*', 'production*', 'live*']";

export const DEFAULT_POLICY_YAML = `
version: 1
defaults:
  expires: 30m
rules:
  - name: default-reads
    operations: [images.list, vessels.list, formation.show, region.show, sites.list, logs.read, armadas.list, armada.show, armadaset.show, watch.manage, changes.scheduled]
  - name: default-production-environment
    operations: ['*']
    target: { environment: ${PRODUCTION} }
    approval: { required: 1, approvers: { users: ['*'] }, allowSelfApproval: false }
  - name: default-production-branch
    operations: ['*']
    target: { branch: ${PRODUCTION} }
    approval: { required: 1, approvers: { users: ['*'] }, allowSelfApproval: false }
  - name: default-changes
    operations: ['*']
    approval: { mode: confirm }
`;
