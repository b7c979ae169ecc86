/**
 * The pure part of the dns role, without a network: what the followed state says each name should answer
 * ({@link io.healthmesh.dnsfollow.plan.DesiredRecords}), the "never empty" rule
 * ({@link io.healthmesh.dnsfollow.plan.LastNonEmpty}) and the changes that bring a zone there
 * ({@link io.healthmesh.dnsfollow.plan.RecordDiff}).
 */
package io.healthmesh.dnsfollow.plan;
